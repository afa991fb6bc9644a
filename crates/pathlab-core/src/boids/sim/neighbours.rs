//! The neighbour queries of the boids' step: for one agent, the flocking sums over its
//! neighbours, the nearest prey and predator, and the neighbours near enough to touch, all
//! from the per-species spatial grids (never an O(n^2) scan); when more than the species'
//! `max_neighbours` are within reach, only the nearest count.
//!
//! The brute-force scan the grids replace is here too ([`Boids::brute_force_neighbours`],
//! [`Boids::step_brute_force`]), for the tests and the benchmark's comparison.

use super::{Boids, Relation};
use crate::boids::behaviours::{flock_lanes, Body, Boid, BoidNeighbour, FlockSums};
use crate::boids::params::Behaviour;
use crate::boids::update::{update_agent, Hood, NoProbe};

/// Scratch space for finding how far an agent's nearest `max_neighbours` reach.
#[derive(Clone, Debug, Default)]
pub(super) struct Reach {
    /// Slots and squared distances from [`SpatialGrid::slots_within`](crate::boids::SpatialGrid::slots_within).
    slots: Vec<(u32, f32)>,
    /// The squared distances of every neighbour within the gathering radii.
    d2s: Vec<f32>,
}

impl Boids {
    /// Gathers agent `me`'s neighbourhood from the grids: the flocking sums over every
    /// neighbour, the nearest prey and predator, and in `hood` the neighbours near enough to
    /// touch, or with `all` every neighbour. `own` is the agent's slot in its species' grid;
    /// `reach` is scratch space.
    ///
    /// When more than the species' `max_neighbours` are within reach, only the nearest count
    /// (ties broken by index).
    pub(super) fn gather<'h>(
        &self,
        me: &Boid,
        own: usize,
        all: bool,
        hood: &'h mut Vec<BoidNeighbour>,
        reach: &mut Reach,
    ) -> Hood<'h> {
        let i = me.index as usize;
        let s = usize::from(self.species[i]);
        let p = &self.params[s];
        let d = &self.derived[s];
        let (mut flock, found, mut listed) = self.flock_grids(me, own, f32::INFINITY, hood);
        let cap = p.max_neighbours.max(1) as usize;
        let mut capped = found > cap;
        if capped && !all {
            // Usually the nearest `cap` are all those within some distance: then the pass is
            // run again out to that distance only.
            if let Some(reach_sq) = self.cap_reach(me, own, cap, reach) {
                let (sums, kept, complete) = self.flock_grids(me, own, reach_sq, hood);
                if complete {
                    debug_assert_eq!(kept, cap);
                    (flock, listed, capped) = (sums, true, false);
                }
            }
        }
        if all || capped || !listed {
            self.list_neighbours(me, hood);
        }
        if capped {
            // The nearest `cap`, ties broken by index so that the choice does not depend on
            // the order found; the sums are taken again over them.
            hood.select_nth_unstable_by(cap - 1, |a, b| a.dist.total_cmp(&b.dist).then(a.index.cmp(&b.index)));
            hood.truncate(cap);
            flock = FlockSums::default();
            for n in hood.iter() {
                flock.add(me, n, &d.rules);
            }
        }
        let mut prey: Option<(f32, Body)> = None;
        let mut predator: Option<(f32, Body)> = None;
        for (t, grid) in self.grids.iter().enumerate() {
            let relation = self.relation(s, t);
            let (wanted, radius, slot) = match relation {
                Relation::Prey => (d.on[Behaviour::Pursue as usize], p.chase.hunt_radius, &mut prey),
                Relation::Predator => (d.on[Behaviour::Evade as usize], p.chase.panic_radius, &mut predator),
                Relation::Mate | Relation::Other => continue,
            };
            if !wanted {
                continue;
            }
            if let Some(e) = grid.nearest_within(me.pos, radius, |_| true) {
                if slot.is_none_or(|(d2, _)| e.dist_sq < d2) {
                    let j = e.id as usize;
                    *slot = Some((e.dist_sq, Body { pos: e.pos, vel: e.vel, heading: self.heading(j) }));
                }
            }
        }
        let closest = hood.iter().map(|n| n.dist).fold(f32::INFINITY, f32::min);
        Hood { near: hood, flock, prey: prey.map(|p| p.1), predator: predator.map(|p| p.1), closest }
    }

    /// The flocking pass of [`Boids::gather`] over the grids of agent `me`'s own and other
    /// flocks, counting only neighbours whose squared distance is at most `reach_sq` (and
    /// within the gathering radii): the sums, how many neighbours were found, and whether
    /// `hood` (emptied first) lists every one of them near enough to touch.
    fn flock_grids(
        &self,
        me: &Boid,
        own: usize,
        reach_sq: f32,
        hood: &mut Vec<BoidNeighbour>,
    ) -> (FlockSums, usize, bool) {
        let s = usize::from(self.species[me.index as usize]);
        let d = &self.derived[s];
        hood.clear();
        let mut flock = FlockSums::default();
        let mut found = 0;
        let mut listed = true;
        for (t, grid) in self.grids.iter().enumerate() {
            let Some((radius, mate)) = self.flock_radius(s, t).filter(|&(r, _)| r > 0.0) else {
                continue;
            };
            let own = if t == s { own } else { usize::MAX };
            // A box just large enough for the reach (the lanes test the distance exactly).
            let reach = if reach_sq < radius * radius { (reach_sq.sqrt() * (1.0 + 1e-5)).min(radius) } else { radius };
            // Neighbours on the agent's very spot are among the touching ones, for
            // separation's tie-break.
            let lanes = flock_lanes(me, grid, own, reach, reach_sq, &d.rules, mate, d.touch.max(2e-6));
            flock += lanes.sums();
            found += lanes.found();
            let (touching, complete) = lanes.touching();
            listed &= complete;
            let body = self.params[t].vehicle.radius;
            for &slot in touching {
                let (id, pos, vel) = grid.slot(slot);
                let offset = pos - me.pos;
                let n = BoidNeighbour { index: id, offset, vel, dist: offset.length(), radius: body, mate };
                flock.add_tie(me, &n, &d.rules);
                if n.dist < d.touch {
                    hood.push(n);
                }
            }
        }
        (flock, found, listed)
    }

    /// The squared distance within which exactly the `cap` nearest neighbours of agent `me`
    /// lie (over the gathering radii), found by selection over every neighbour's squared
    /// distance; `None` when the `cap`-th and the next are equally far (as distances), where
    /// only the tie-break by index can choose.
    fn cap_reach(&self, me: &Boid, own: usize, cap: usize, reach: &mut Reach) -> Option<f32> {
        let s = usize::from(self.species[me.index as usize]);
        reach.d2s.clear();
        for (t, grid) in self.grids.iter().enumerate() {
            let Some((radius, _)) = self.flock_radius(s, t).filter(|&(r, _)| r > 0.0) else {
                continue;
            };
            let n = grid.slots_within(me.pos, radius, &mut reach.slots);
            let own = if t == s { own as u32 } else { u32::MAX };
            // The agent itself left out.
            reach.d2s.extend(reach.slots[..n].iter().filter(|&&(slot, _)| slot != own).map(|&(_, d2)| d2));
        }
        if reach.d2s.len() <= cap {
            return None;
        }
        let (_, &mut kth, rest) = reach.d2s.select_nth_unstable_by(cap - 1, f32::total_cmp);
        let next = rest.iter().copied().fold(f32::INFINITY, f32::min);
        (next.sqrt() > kth.sqrt()).then_some(kth)
    }

    /// How far an agent of species `s` gathers neighbours of species `t`, and whether they
    /// are flockmates; `None` for prey and predators, which are not gathered as neighbours.
    fn flock_radius(&self, s: usize, t: usize) -> Option<(f32, bool)> {
        let d = &self.derived[s];
        match self.relation(s, t) {
            Relation::Mate => Some((d.mate_radius, true)),
            Relation::Other => Some((d.other_radius, false)),
            Relation::Prey | Relation::Predator => None,
        }
    }

    /// Lists in `hood` (emptied first) every neighbour of agent `me` within the gathering
    /// radii, from the grids, in cell order.
    fn list_neighbours(&self, me: &Boid, hood: &mut Vec<BoidNeighbour>) {
        let i = me.index as usize;
        let s = usize::from(self.species[i]);
        hood.clear();
        for (t, grid) in self.grids.iter().enumerate() {
            let Some((radius, mate)) = self.flock_radius(s, t) else {
                continue;
            };
            let body = self.params[t].vehicle.radius;
            grid.for_each_within(me.pos, radius, |e| {
                if e.id != me.index {
                    let (offset, dist) = (e.pos - me.pos, e.dist_sq.sqrt());
                    hood.push(BoidNeighbour { index: e.id, offset, vel: e.vel, dist, radius: body, mate });
                }
                true
            });
        }
    }

    /// Every neighbour of agent `i` within `radius` found by a scan of all agents of the given
    /// species: the brute-force O(n) query the spatial grid replaces (for tests and the
    /// benchmark's comparison).
    pub fn brute_force_neighbours(&self, i: usize, species: u8, radius: f32) -> Vec<u32> {
        let me = self.pos(i);
        let r2 = radius * radius;
        (0..self.len())
            .filter(|&j| j != i && self.species[j] == species && (self.pos(j) - me).length_sq() <= r2)
            .map(|j| j as u32)
            .collect()
    }

    /// One step in which every agent's neighbours come from a scan of all agents instead of
    /// the spatial grid: O(n^2), for the benchmark's comparison only. Gives the same result as
    /// [`Boids::step`] (the order of neighbours may differ, so sums may differ in the last
    /// bits).
    pub fn step_brute_force(&mut self) {
        self.prepare();
        let n = self.len();
        let mut scratch = Vec::with_capacity(n);
        let mut hood = Vec::new();
        {
            let env = self.env();
            for i in 0..n {
                hood.clear();
                let s = usize::from(self.species[i]);
                let d = &self.derived[s];
                let me = self.agent(i);
                let cap = self.params[s].max_neighbours.max(1) as usize;
                for j in 0..n {
                    if j == i {
                        continue;
                    }
                    let t = usize::from(self.species[j]);
                    let Some((radius, mate)) = self.flock_radius(s, t) else {
                        continue;
                    };
                    let offset = self.pos(j) - me.pos;
                    if offset.length_sq() <= radius * radius {
                        hood.push(BoidNeighbour {
                            index: j as u32,
                            vel: self.vel(j),
                            offset,
                            dist: offset.length(),
                            radius: self.params[t].vehicle.radius,
                            mate,
                        });
                    }
                }
                let closest = hood.iter().map(|n| n.dist).fold(f32::INFINITY, f32::min);
                if hood.len() > cap {
                    hood.sort_by(|a, b| a.dist.total_cmp(&b.dist).then(a.index.cmp(&b.index)));
                    hood.truncate(cap);
                }
                let mut flock = FlockSums::default();
                for n in &hood {
                    flock.add(&me, n, &d.rules);
                }
                let view = Hood { near: &hood, flock, prey: None, predator: None, closest };
                scratch.push(update_agent(&me, self.memory[i], &self.params[s], d, &view, &env, &mut NoProbe));
            }
        }
        self.apply(&scratch);
        self.steps += 1;
    }
}
