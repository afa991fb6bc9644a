//! Costs on the links or on the nodes (the lecture's two ways of modelling terrain with a
//! weighted graph), checked against truths written here:
//! - the `hill-costs` preset, worked by hand: on the links A to B goes through the marsh for
//!   3 + 3 = 6 (the hill costs 6 up and 1 down, 7); on the nodes it goes over the hill for
//!   2 + 1 = 3 (the marsh costs 4 + 1 = 5); and the same back from B to A;
//! - random graphs: under each model, Dijkstra and A* cost exactly what a Dijkstra written in
//!   this test costs over arcs it reads from the graph file's JSON itself (serde_json, not
//!   pathlab's reader), and a path found costs the sum of its moves under that model;
//! - a node cost the file cannot mean is refused with its line; a written graph reads back
//!   with its node costs.

use std::collections::HashMap;

use pathlab_core::formats::graph::{parse_json, to_json};
use pathlab_core::search::{build_on, Algorithm, SearchConfig};
use pathlab_core::space::{CostsOn, Graph};
use serde_json::Value;

/// Arcs `(from, to, cost)` by node number, read from a graph file's JSON by this test: an edge
/// gives its cost (links) or the weight of the node it enters (nodes, 1 when a node gives
/// none); an undirected edge gives an arc each way.
fn arcs_of(json: &str, nodes_priced: bool) -> (Vec<String>, Vec<(usize, usize, f64)>) {
    let file: Value = serde_json::from_str(json).unwrap();
    let nodes = file["nodes"].as_array().unwrap();
    let ids: Vec<String> = nodes.iter().map(|n| n["id"].as_str().unwrap().to_string()).collect();
    let weight: Vec<f64> = nodes.iter().map(|n| n.get("cost").map_or(1.0, |c| c.as_f64().unwrap())).collect();
    let at: HashMap<&str, usize> = ids.iter().enumerate().map(|(i, id)| (id.as_str(), i)).collect();
    let both_ways = !file.get("directed").and_then(Value::as_bool).unwrap_or(false);
    let mut arcs = Vec::new();
    for e in file["edges"].as_array().unwrap() {
        let (a, b) = (at[e["from"].as_str().unwrap()], at[e["to"].as_str().unwrap()]);
        let cost = e["cost"].as_f64().unwrap();
        let price = |to: usize| if nodes_priced { weight[to] } else { cost };
        arcs.push((a, b, price(b)));
        let undirected = e.get("directed").and_then(Value::as_bool).map_or(both_ways, |d| !d);
        if undirected {
            arcs.push((b, a, price(a)));
        }
    }
    (ids, arcs)
}

/// The cheapest cost from `from` to every node over `arcs` (infinite where unreached): the
/// textbook loop, taking the unsettled node of least cost each round.
fn reference_dijkstra(n: usize, arcs: &[(usize, usize, f64)], from: usize) -> Vec<f64> {
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[from] = 0.0;
    loop {
        let next = (0..n).filter(|&u| !done[u] && dist[u].is_finite()).min_by(|&a, &b| dist[a].total_cmp(&dist[b]));
        let Some(u) = next else { break };
        done[u] = true;
        for &(a, b, c) in arcs {
            if a == u && dist[u] + c < dist[b] {
                dist[b] = dist[u] + c;
            }
        }
    }
    dist
}

/// Runs `algorithm` on `graph` with its costs on `costs_on`: the cost and the path's ids.
fn search(graph: &Graph, costs_on: CostsOn, from: &str, to: &str, algorithm: Algorithm) -> Option<(f64, Vec<String>)> {
    let mut graph = graph.clone();
    graph.set_costs_on(costs_on);
    let (s, g) = (graph.node(from).unwrap(), graph.node(to).unwrap());
    let mut stepper = build_on(graph, s, g, SearchConfig::new(algorithm)).unwrap();
    stepper.run();
    let cost = stepper.cost()?;
    let ids = stepper.path_indices().iter().map(|&n| stepper.space().id(n).to_string()).collect();
    Some((cost, ids))
}

fn hill() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/graphs/hill-costs.json");
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_hill_preset_goes_through_the_marsh_on_links_and_over_the_hill_on_nodes() {
    let text = hill();
    let graph = parse_json(&text).unwrap();
    let path = |ids: &[&str]| ids.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
    for algorithm in [Algorithm::Dijkstra, Algorithm::AStar] {
        // By hand. Links: A-hill-B costs 6 up + 1 down = 7, A-marsh-B 3 + 3 = 6.
        assert_eq!(search(&graph, CostsOn::Links, "A", "B", algorithm), Some((6.0, path(&["A", "marsh", "B"]))));
        // Nodes: entering the hill costs 2 and B 1, 3; the marsh 4 and B 1, 5.
        assert_eq!(search(&graph, CostsOn::Nodes, "A", "B", algorithm), Some((3.0, path(&["A", "hill", "B"]))));
        // Back from B: up the hill costs 6 and down to A 1 on the links, so the marsh again;
        // on the nodes, the hill 2 and A 1.
        assert_eq!(search(&graph, CostsOn::Links, "B", "A", algorithm), Some((6.0, path(&["B", "marsh", "A"]))));
        assert_eq!(search(&graph, CostsOn::Nodes, "B", "A", algorithm), Some((3.0, path(&["B", "hill", "A"]))));
    }
    // The reference agrees with the hand: A (node 0) to B (node 3).
    for (nodes, want) in [(false, 6.0), (true, 3.0)] {
        let (ids, arcs) = arcs_of(&text, nodes);
        assert_eq!(reference_dijkstra(ids.len(), &arcs, 0)[3], want);
    }
}

/// A small generator of random numbers (a 64-bit linear congruential one), so the cases are
/// the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random graph file: 2 to 12 nodes at random places, some with a weight (0 to 9, halves
/// too), and random edges (either way or one way) with costs 0 to 9.
fn random_file(rng: &mut Lcg) -> String {
    let n = 2 + rng.below(11) as usize;
    let mut nodes = Vec::new();
    for i in 0..n {
        let (x, y) = (rng.below(100), rng.below(100));
        let cost =
            if rng.below(4) == 0 { String::new() } else { format!(", \"cost\": {}", rng.below(20) as f64 / 2.0) };
        nodes.push(format!("{{\"id\": \"n{i}\", \"x\": {x}, \"y\": {y}{cost}}}"));
    }
    let mut edges = Vec::new();
    for _ in 0..rng.below(3 * n as u64) {
        let (a, b) = (rng.below(n as u64), rng.below(n as u64));
        let one_way = if rng.below(2) == 0 { ", \"directed\": true" } else { "" };
        edges.push(format!("{{\"from\": \"n{a}\", \"to\": \"n{b}\", \"cost\": {}{one_way}}}", rng.below(10)));
    }
    format!("{{\"nodes\": [{}], \"edges\": [{}]}}", nodes.join(", "), edges.join(", "))
}

#[test]
fn on_random_graphs_each_model_costs_what_the_reference_dijkstra_costs() {
    let mut rng = Lcg(20);
    let mut differ = 0;
    for case in 0..400 {
        let text = random_file(&mut rng);
        let graph = parse_json(&text).unwrap();
        let n = graph.ids().len();
        let (from, to) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        let (s, g) = (format!("n{from}"), format!("n{to}"));
        let mut costs = Vec::new();
        for (costs_on, nodes) in [(CostsOn::Links, false), (CostsOn::Nodes, true)] {
            let (_, arcs) = arcs_of(&text, nodes);
            let want = reference_dijkstra(n, &arcs, from)[to];
            for algorithm in [Algorithm::Dijkstra, Algorithm::AStar] {
                let got = search(&graph, costs_on, &s, &g, algorithm);
                match got {
                    None => assert!(
                        want.is_infinite(),
                        "case {case} {costs_on:?} {algorithm}: no path, want {want}\n{text}"
                    ),
                    Some((cost, ids)) => {
                        assert!(
                            (cost - want).abs() < 1e-9,
                            "case {case} {costs_on:?} {algorithm}: {cost}, want {want}\n{text}"
                        );
                        // The path's moves, priced by the model, add up to its cost.
                        let at = |id: &String| id[1..].parse::<usize>().unwrap();
                        let sum: f64 = ids
                            .windows(2)
                            .map(|w| {
                                arcs.iter()
                                    .filter(|&&(a, b, _)| a == at(&w[0]) && b == at(&w[1]))
                                    .map(|&(_, _, c)| c)
                                    .fold(f64::INFINITY, f64::min)
                            })
                            .sum();
                        assert!(
                            (sum - cost).abs() < 1e-9,
                            "case {case}: the path {ids:?} adds up to {sum}, not {cost}"
                        );
                    }
                }
            }
            costs.push(want);
        }
        if costs[0] != costs[1] {
            differ += 1;
        }
    }
    // The two models are told apart on most cases, so the check above could catch a mix-up.
    assert!(differ > 100, "only {differ} cases of 400 cost differently under the two models");
}

#[test]
fn node_costs_round_trip_and_a_bad_one_names_its_line() {
    let graph = parse_json(&hill()).unwrap();
    assert_eq!(graph.node_costs(), [1.0, 2.0, 4.0, 1.0]);
    let again = parse_json(&to_json(&graph)).unwrap();
    assert_eq!(again.node_costs(), graph.node_costs());
    assert!(to_json(&graph).contains("{\"id\": \"hill\", \"x\": 50, \"y\": 0, \"cost\": 2}"));
    // A weight of 1 is what a node without one has, so it is not written.
    assert!(to_json(&graph).contains("{\"id\": \"A\", \"x\": 0, \"y\": 50}"));
    let bad =
        "{\"nodes\": [\n  {\"id\": \"A\", \"x\": 0, \"y\": 0},\n  {\"id\": \"B\", \"x\": 1, \"y\": 0, \"cost\": -2}]}";
    let e = parse_json(bad).unwrap_err();
    assert_eq!(e.to_string(), "line 3: node 2 (\"B\") costs -2; costs must be finite numbers >= 0");
    let word = bad.replace("-2", "\"steep\"");
    assert!(parse_json(&word).unwrap_err().to_string().contains("expected a number"));
}
