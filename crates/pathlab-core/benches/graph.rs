//! Our A* on a weighted graph against the `pathfinding` crate's `astar`, on the same problems.
//!
//! The graph is random and geometric: 100,000 nodes uniform in a square (one node per unit
//! of area), each joined both ways to its 6 nearest neighbours (found through a grid of
//! buckets), each edge costing its length times a random factor in [1, 2], scaled by 1000 and
//! rounded up to a whole number (`pathfinding` needs a totally ordered cost, so both sides
//! solve the problem in integers; rounding up keeps every cost at least 1000 x its length, so
//! the graph's smallest cost per unit of length, which scales its estimate, stays 1000).
//! Our side is a [`Graph`] with those costs as f64 and its Euclidean estimate; theirs is a
//! compressed adjacency built from the same edge list in the same order, with the same
//! estimate rounded down (still admissible, and consistent on integer costs).
//!
//! 200 random start/goal pairs in the largest connected part. Before any timing both must
//! give the same cost on every pair. Then each repeat times every pair once with each, the
//! two interleaved (which goes first alternates), ours reusing one search through
//! `set_end_nodes` and `run()`. It prints the mean time per problem of each side, the ratio
//! pathfinding / ours (median and range over the repeats), the mean expansions and our time
//! per expansion.
//!
//! Run: `cargo bench -p pathlab-core --bench graph` (under 2 minutes).

use std::cell::Cell;
use std::hint::black_box;
use std::time::Instant;

use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{Algorithm, Search, SearchConfig, SpaceStepper, Status};
use pathlab_core::space::Graph;

/// Nodes in the graph.
const NODES: usize = 100_000;
/// Nearest neighbours each node is joined to.
const K: usize = 6;
/// Start/goal pairs.
const PROBLEMS: usize = 200;
/// Timed passes over all the pairs.
const REPEATS: usize = 7;
/// Cost units per unit of length.
const SCALE: f64 = 1000.0;

/// SplitMix64: a small seeded generator, so the graph is the same on every run.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n.
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// The graph as plain lists, and the compressed adjacency `pathfinding` searches.
struct Network {
    places: Vec<[f64; 2]>,
    /// Undirected edges (a < b) with their integer costs.
    edges: Vec<(u32, u32, u64)>,
    /// Arcs of node n: `arcs[first[n]..first[n + 1]]`, in the order our graph keeps them.
    first: Vec<usize>,
    arcs: Vec<(u32, u64)>,
}

fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// The `k` nearest other nodes of every node, through square buckets of side 1.
fn nearest(places: &[[f64; 2]], side: usize, k: usize) -> Vec<Vec<u32>> {
    let bucket_of = |p: [f64; 2]| {
        let (x, y) = ((p[0] as usize).min(side - 1), (p[1] as usize).min(side - 1));
        (x, y)
    };
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); side * side];
    for (i, &p) in places.iter().enumerate() {
        let (x, y) = bucket_of(p);
        buckets[y * side + x].push(i as u32);
    }
    let mut out = Vec::with_capacity(places.len());
    let mut found: Vec<(f64, u32)> = Vec::new();
    for (i, &p) in places.iter().enumerate() {
        let (bx, by) = bucket_of(p);
        found.clear();
        let mut ring = 0usize;
        loop {
            // The buckets at Chebyshev distance `ring` from the node's own.
            let (x0, y0) = (bx as isize - ring as isize, by as isize - ring as isize);
            let (x1, y1) = (bx + ring, by + ring);
            for y in y0..=y1 as isize {
                for x in x0..=x1 as isize {
                    let on_ring = y == y0 || y == y1 as isize || x == x0 || x == x1 as isize;
                    if !on_ring || x < 0 || y < 0 || x >= side as isize || y >= side as isize {
                        continue;
                    }
                    for &j in &buckets[y as usize * side + x as usize] {
                        if j as usize != i {
                            found.push((distance(p, places[j as usize]), j));
                        }
                    }
                }
            }
            // Anything beyond this ring is at least `ring` away.
            if found.len() >= k {
                found.sort_by(|a, b| a.0.total_cmp(&b.0));
                if found[k - 1].0 <= ring as f64 || ring >= side {
                    break;
                }
            }
            ring += 1;
        }
        out.push(found[..k].iter().map(|&(_, j)| j).collect());
    }
    out
}

fn build_network(rng: &mut Rng) -> Network {
    let side = (NODES as f64).sqrt().ceil() as usize;
    let places: Vec<[f64; 2]> = (0..NODES).map(|_| [rng.unit() * side as f64, rng.unit() * side as f64]).collect();
    let mut pairs: Vec<(u32, u32)> = nearest(&places, side, K)
        .into_iter()
        .enumerate()
        .flat_map(|(i, near)| near.into_iter().map(move |j| ((i as u32).min(j), (i as u32).max(j))))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let edges: Vec<(u32, u32, u64)> = pairs
        .into_iter()
        .map(|(a, b)| {
            let length = distance(places[a as usize], places[b as usize]);
            let factor = 1.0 + rng.unit();
            (a, b, (length * factor * SCALE).ceil().max(1.0) as u64)
        })
        .collect();
    let mut lists: Vec<Vec<(u32, u64)>> = vec![Vec::new(); NODES];
    for &(a, b, c) in &edges {
        lists[a as usize].push((b, c));
        lists[b as usize].push((a, c));
    }
    let mut first = Vec::with_capacity(NODES + 1);
    let mut arcs = Vec::with_capacity(edges.len() * 2);
    for list in lists {
        first.push(arcs.len());
        arcs.extend(list);
    }
    first.push(arcs.len());
    Network { places, edges, first, arcs }
}

/// Our graph: the same nodes, places and edges (in the same order), Euclidean estimate.
fn our_graph(net: &Network) -> Graph {
    let mut g = Graph::new(false);
    for (i, &[x, y]) in net.places.iter().enumerate() {
        g.add_node(&format!("n{i}"), x, y).expect("a valid node");
    }
    for &(a, b, c) in &net.edges {
        g.add_edge(a, b, c as f64, false).expect("a valid edge");
    }
    g.set_heuristic(Heuristic::Euclidean);
    g
}

/// The nodes of the largest connected part.
fn largest_part(net: &Network) -> Vec<u32> {
    let mut part = vec![u32::MAX; NODES];
    let mut best: Vec<u32> = Vec::new();
    for root in 0..NODES {
        if part[root] != u32::MAX {
            continue;
        }
        let mut members = vec![root as u32];
        part[root] = root as u32;
        let mut k = 0;
        while k < members.len() {
            let n = members[k] as usize;
            k += 1;
            for &(m, _) in &net.arcs[net.first[n]..net.first[n + 1]] {
                if part[m as usize] == u32::MAX {
                    part[m as usize] = root as u32;
                    members.push(m);
                }
            }
        }
        if members.len() > best.len() {
            best = members;
        }
    }
    best
}

/// The `pathfinding` crate's A*: its cost, and how many nodes it expanded when `count` is
/// given.
fn theirs(net: &Network, ratio: f64, start: u32, goal: u32, count: Option<&Cell<usize>>) -> Option<u64> {
    let target = net.places[goal as usize];
    let successors = |&n: &u32| {
        if let Some(c) = count {
            c.set(c.get() + 1);
        }
        net.arcs[net.first[n as usize]..net.first[n as usize + 1]].iter().copied()
    };
    let heuristic = |&n: &u32| (ratio * distance(net.places[n as usize], target)).floor() as u64;
    pathfinding::directed::astar::astar(&start, successors, heuristic, |&n| n == goal).map(|(_, c)| c)
}

/// Ours: the cost and the expansions.
fn ours(search: &mut Search<Graph>, start: u32, goal: u32) -> (Option<f64>, usize) {
    search.set_end_nodes(start, goal).expect("valid nodes");
    let status = search.run();
    ((status == Status::Found).then(|| search.cost().expect("found")), search.expanded())
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times every pair with each side, `repeats` times, interleaved (which goes first
/// alternates). Returns per repeat our total nanoseconds, theirs, and the ratio theirs / ours.
fn time_side_by_side(
    search: &mut Search<Graph>,
    net: &Network,
    ratio: f64,
    pairs: &[(u32, u32)],
    repeats: usize,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let problems = pairs.len();
    let mut our_ns = Vec::with_capacity(repeats);
    let mut their_ns = Vec::with_capacity(repeats);
    let mut ratios = Vec::with_capacity(repeats);
    for repeat in 0..repeats {
        let (mut a, mut b) = (0u128, 0u128);
        for (k, &(s, g)) in pairs.iter().enumerate() {
            let mut time_ours = || {
                let t = Instant::now();
                black_box(ours(search, black_box(s), black_box(g)));
                t.elapsed().as_nanos()
            };
            let time_theirs = || {
                let t = Instant::now();
                black_box(theirs(net, ratio, black_box(s), black_box(g), None));
                t.elapsed().as_nanos()
            };
            if (k + repeat) % 2 == 0 {
                a += time_ours();
                b += time_theirs();
            } else {
                b += time_theirs();
                a += time_ours();
            }
        }
        let (a, b) = (a as f64, b as f64);
        println!(
            "repeat {}: ours {:.3} ms, pathfinding {:.3} ms per problem, ratio {:.2}",
            repeat + 1,
            a / problems as f64 / 1e6,
            b / problems as f64 / 1e6,
            b / a
        );
        our_ns.push(a);
        their_ns.push(b);
        ratios.push(b / a);
    }
    (our_ns, their_ns, ratios)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing and
    // `cargo bench -- --test` passes `--test`: those get a short check, one repeat.
    let args: Vec<String> = std::env::args().collect();
    let testing = !args.iter().any(|a| a == "--bench") || args.iter().any(|a| a == "--test");
    let (problems, repeats) = if testing { (10, 1) } else { (PROBLEMS, REPEATS) };

    let built = Instant::now();
    let mut rng = Rng(0x5EED_6EA9);
    let net = build_network(&mut rng);
    let graph = our_graph(&net);
    let ratio = graph.ratio();
    let part = largest_part(&net);
    println!(
        "graph: {} nodes, {} undirected edges, smallest cost per unit length {ratio:.3}, largest part {} nodes, built in {:.1} s",
        NODES,
        net.edges.len(),
        part.len(),
        built.elapsed().as_secs_f64()
    );
    let pairs: Vec<(u32, u32)> =
        (0..problems).map(|_| (part[rng.below(part.len())], part[rng.below(part.len())])).collect();

    let mut search =
        Search::on(graph, pairs[0].0, pairs[0].1, SearchConfig::new(Algorithm::AStar)).expect("a valid search");

    // Both must agree on every optimum before anything is timed.
    let (mut our_expanded, their_expanded) = (0usize, Cell::new(0usize));
    for &(s, g) in &pairs {
        let (cost, expanded) = ours(&mut search, s, g);
        let their_cost = theirs(&net, ratio, s, g, Some(&their_expanded));
        let cost = cost.expect("our A* finds a path");
        let their_cost = their_cost.expect("pathfinding finds a path");
        assert_eq!(cost, their_cost as f64, "{s} -> {g}: our cost {cost}, pathfinding's {their_cost}");
        our_expanded += expanded;
    }
    println!("verified: {problems} problems, the same optimum from both");

    let (our_ns, their_ns, mut ratios) = time_side_by_side(&mut search, &net, ratio, &pairs, repeats);

    let per_problem = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64 / problems as f64;
    let (lo, hi) = ratios.iter().fold((f64::INFINITY, 0f64), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    let our_median = median(&mut our_ns.clone());
    let their_median = median(&mut their_ns.clone());
    println!(
        "mean per problem: ours {:.3} ms, pathfinding {:.3} ms",
        per_problem(&our_ns) / 1e6,
        per_problem(&their_ns) / 1e6
    );
    println!("pathfinding / ours: median {:.2}, range {lo:.2} to {hi:.2} over {repeats} repeats", median(&mut ratios));
    println!(
        "expansions per problem: ours {:.0}, pathfinding {:.0}; ns per expansion (median repeat): ours {:.1}, pathfinding {:.1}",
        our_expanded as f64 / problems as f64,
        their_expanded.get() as f64 / problems as f64,
        our_median / our_expanded as f64,
        their_median / their_expanded.get() as f64
    );
}
