//! Reynolds' steering behaviours as pure functions.
//!
//! Each takes what the agent knows (its [`Boid`] view, its neighbours, the walls) and returns
//! a steering force: most are "desired velocity minus current velocity", as in Reynolds'
//! paper; separation, containment, obstacle avoidance and unaligned avoidance are pushes (a
//! desired change of velocity with no current-velocity term), zero when nothing is near.
//! None of them changes anything, so they can run for every agent against the same frozen
//! state (the first phase of the two-phase update) and be tested one at a time.
//!
//! ```
//! use pathlab_core::boids::behaviours::{seek, Boid};
//! use pathlab_core::boids::Vec2;
//! let a = Boid::at(Vec2::new(0.0, 0.0), 10.0);
//! let f = seek(&a, Vec2::new(5.0, 0.0));
//! assert_eq!(f, Vec2::new(10.0, 0.0));
//! ```

use std::f32::consts::PI;

use super::lanes::{F4, I4, LANES};
use super::params::{Chase, Leader, PathFollow, Probes, Unaligned, WallFollow, Wander};
use super::path::SteerPath;
use super::spatial::SpatialGrid;
use super::{Vec2, Walls};

/// What a behaviour knows about the boid it steers. (Named `Boid`, not `Agent`, so that it is
/// not mistaken for the search's walking agent, [`crate::search::Agent`].)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Boid {
    /// The agent's index in the world (used only to break ties deterministically).
    pub index: u32,
    /// Position.
    pub pos: Vec2,
    /// Velocity.
    pub vel: Vec2,
    /// Unit heading: the direction of the velocity, kept when the agent stops.
    pub heading: Vec2,
    /// Maximum speed.
    pub max_speed: f32,
    /// Body radius.
    pub radius: f32,
}

impl Boid {
    /// An agent at rest at `pos`, heading along +x, radius 1.
    pub fn at(pos: Vec2, max_speed: f32) -> Self {
        Self { index: 0, pos, vel: Vec2::ZERO, heading: Vec2::new(1.0, 0.0), max_speed, radius: 1.0 }
    }

    /// The same agent moving at `vel` (heading along it).
    #[must_use]
    pub fn moving(mut self, vel: Vec2) -> Self {
        self.vel = vel;
        let h = vel.normalized();
        if h != Vec2::ZERO {
            self.heading = h;
        }
        self
    }
}

/// Another boid as seen by one boid. (Named `BoidNeighbour` apart from the crowd's
/// [`crate::crowd::avoid::Neighbour`], a disc for velocity obstacles.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoidNeighbour {
    /// Its index in the world.
    pub index: u32,
    /// Its position minus the agent's.
    pub offset: Vec2,
    /// Its velocity.
    pub vel: Vec2,
    /// Its distance.
    pub dist: f32,
    /// Its body radius.
    pub radius: f32,
    /// True for a member of the agent's own flock (alignment and cohesion look only at these);
    /// false for members of other flocks, which are only kept apart.
    pub mate: bool,
}

impl BoidNeighbour {
    /// A neighbour of `agent` at `pos` moving at `vel`, radius 1.
    pub fn of(agent: &Boid, index: u32, pos: Vec2, vel: Vec2, mate: bool) -> Self {
        let offset = pos - agent.pos;
        Self { index, offset, vel, dist: offset.length(), radius: 1.0, mate }
    }
}

/// A moving body: a prey, a predator or the leader.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// Position.
    pub pos: Vec2,
    /// Velocity.
    pub vel: Vec2,
    /// Unit heading.
    pub heading: Vec2,
}

/// A static circular obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    /// Centre.
    pub centre: Vec2,
    /// Radius.
    pub radius: f32,
}

/// The circles of a world with a spatial index over their centres.
#[derive(Clone, Debug, Default)]
pub struct Obstacles {
    circles: Vec<Circle>,
    index: SpatialGrid,
    largest: f32,
}

impl Obstacles {
    /// Indexes `circles` over a `width` x `height` world.
    pub fn new(circles: Vec<Circle>, width: f32, height: f32) -> Self {
        let largest = circles.iter().map(|c| c.radius).fold(0.0, f32::max);
        let xs: Vec<f32> = circles.iter().map(|c| c.centre.x).collect();
        let ys: Vec<f32> = circles.iter().map(|c| c.centre.y).collect();
        let zeros = vec![0.0; circles.len()];
        let mut index = SpatialGrid::new(width, height, (largest * 2.0 + 8.0).max(8.0));
        index.rebuild(&xs, &ys, &zeros, &zeros, 0..circles.len());
        Self { circles, index, largest }
    }

    /// The circles.
    pub fn circles(&self) -> &[Circle] {
        &self.circles
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.circles.is_empty()
    }

    /// Calls `visit` with every circle whose edge comes within `reach` of `p`.
    #[inline]
    pub fn for_each_near(&self, p: Vec2, reach: f32, mut visit: impl FnMut(&Circle)) {
        if self.circles.is_empty() {
            return;
        }
        self.index.for_each_within(p, reach + self.largest, |e| {
            let c = &self.circles[e.id as usize];
            if c.centre.distance(p) <= reach + c.radius {
                visit(c);
            }
            true
        });
    }
}

/// True when a neighbour lies inside the view cone whose half-angle has cosine `half_cos`:
/// when the cosine of its angle off the heading is at least `half_cos` (compared as
/// heading . offset >= half_cos * distance, so no division). A value below -1 sees all round;
/// a neighbour exactly on top of the agent is always seen.
#[inline]
pub fn visible(agent: &Boid, n: &BoidNeighbour, half_cos: f32) -> bool {
    agent.heading.dot(n.offset) >= half_cos * n.dist
}

/// Seek: full speed straight at `target`.
#[inline]
pub fn seek(a: &Boid, target: Vec2) -> Vec2 {
    (target - a.pos).with_length(a.max_speed) - a.vel
}

/// Flee: full speed straight away from `threat`, when it is within `panic_radius`.
#[inline]
pub fn flee(a: &Boid, threat: Vec2, panic_radius: f32) -> Vec2 {
    let away = a.pos - threat;
    if away.length_sq() > panic_radius * panic_radius {
        return Vec2::ZERO;
    }
    let dir = if away.length_sq() > 1e-12 { away.normalized() } else { -a.heading };
    dir * a.max_speed - a.vel
}

/// Arrive: like seek, but inside `slowing_radius` the desired speed falls in proportion to the
/// distance, reaching zero on the target; so the agent slows down and stops there.
#[inline]
pub fn arrive(a: &Boid, target: Vec2, slowing_radius: f32) -> Vec2 {
    let to = target - a.pos;
    let dist = to.length();
    if dist < 1e-4 {
        return -a.vel;
    }
    let speed = if dist < slowing_radius { a.max_speed * dist / slowing_radius } else { a.max_speed };
    to * (speed / dist) - a.vel
}

/// How far ahead (seconds) to predict a moving target: the time to reach it at full speed,
/// capped at `max_prediction`.
#[inline]
fn lead_time(a: &Boid, target: Vec2, max_prediction: f32) -> f32 {
    if a.max_speed <= 0.0 {
        return 0.0;
    }
    (a.pos.distance(target) / a.max_speed).min(max_prediction)
}

/// Pursue: seek where the target will be.
#[inline]
pub fn pursue(a: &Boid, target: &Body, chase: &Chase) -> Vec2 {
    let t = lead_time(a, target.pos, chase.max_prediction);
    seek(a, target.pos + target.vel * t)
}

/// Evade: flee from where the threat will be.
#[inline]
pub fn evade(a: &Boid, threat: &Body, chase: &Chase) -> Vec2 {
    let t = lead_time(a, threat.pos, chase.max_prediction);
    flee(a, threat.pos + threat.vel * t, f32::INFINITY)
}

/// Wander: seek a point on a circle ahead of the agent. `spot` is the unit vector from the
/// circle's centre to the point, relative to the heading ((1, 0) is straight ahead); the caller
/// turns it by a small random angle each step ([`wander_turn`]).
#[inline]
pub fn wander(a: &Boid, spot: Vec2, w: &Wander) -> Vec2 {
    let centre = a.pos + a.heading * w.distance;
    // The spot turned from heading-relative to world directions (a complex product).
    let turned = Vec2::new(a.heading.x * spot.x - a.heading.y * spot.y, a.heading.x * spot.y + a.heading.y * spot.x);
    seek(a, centre + turned * w.radius)
}

/// The wander spot after one step: turned by `random * jitter * dt` radians (`random` is
/// uniform in [-1, 1)). The turn uses the first terms of the sine and cosine series and then
/// renormalises, which keeps a unit vector without calling the trigonometric functions (the
/// angle is random anyway; for the usual turns of under 0.2 rad the error is below 1e-4).
#[inline]
pub fn wander_turn(spot: Vec2, random: f32, w: &Wander, dt: f32) -> Vec2 {
    let t = (random * w.jitter * dt).clamp(-1.0, 1.0);
    let t2 = t * t;
    let (s, c) = (t * (1.0 - t2 / 6.0), 1.0 - t2 * 0.5 * (1.0 - t2 / 12.0));
    let next = Vec2::new(spot.x * c - spot.y * s, spot.x * s + spot.y * c).normalized();
    if next == Vec2::ZERO || !next.is_finite() {
        Vec2::new(1.0, 0.0)
    } else {
        next
    }
}

/// A deterministic direction for two agents on exactly the same spot, opposite for the two.
#[inline]
fn tie_direction(me: u32, other: u32) -> Vec2 {
    let (lo, hi) = if me < other { (me, other) } else { (other, me) };
    let angle = (lo.wrapping_mul(2_654_435_761) ^ hi) as f32 * (2.0 * PI / 4_294_967_296.0);
    let d = Vec2::from_angle(angle);
    if me < other {
        d
    } else {
        -d
    }
}

/// Separation: a push away from every visible neighbour (of any flock) within `radius`,
/// strongest when touching and fading to nothing at the radius; the sum is capped at one
/// full-speed push.
#[inline]
pub fn separation(a: &Boid, hood: &[BoidNeighbour], radius: f32, half_cos: f32) -> Vec2 {
    let mut push = Vec2::ZERO;
    for n in hood {
        if n.dist >= radius || !visible(a, n, half_cos) {
            continue;
        }
        let away = if n.dist > 1e-6 { -n.offset / n.dist } else { tie_direction(a.index, n.index) };
        push += away * (1.0 - n.dist / radius);
    }
    push.truncate(1.0) * a.max_speed
}

/// Alignment: steer towards the average heading of visible flockmates within `radius`.
#[inline]
pub fn alignment(a: &Boid, hood: &[BoidNeighbour], radius: f32, half_cos: f32) -> Vec2 {
    let mut sum = Vec2::ZERO;
    let mut count = 0u32;
    for n in hood {
        if n.mate && n.dist < radius && visible(a, n, half_cos) {
            sum += n.vel;
            count += 1;
        }
    }
    if count == 0 || sum.length_sq() < 1e-12 {
        return Vec2::ZERO;
    }
    sum.with_length(a.max_speed) - a.vel
}

/// Cohesion: seek the centre of visible flockmates within `radius`.
#[inline]
pub fn cohesion(a: &Boid, hood: &[BoidNeighbour], radius: f32, half_cos: f32) -> Vec2 {
    let mut sum = Vec2::ZERO;
    let mut count = 0u32;
    for n in hood {
        if n.mate && n.dist < radius && visible(a, n, half_cos) {
            sum += n.offset;
            count += 1;
        }
    }
    if count == 0 {
        return Vec2::ZERO;
    }
    seek(a, a.pos + sum / count as f32)
}

/// The neighbourhoods of the three flocking rules: each rule's radius (0 switches it off) and
/// the cosine of half its view angle, as [`flocking`] and [`flock_lanes`] use them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockRules {
    /// Separation's radius and half-angle cosine.
    pub sep: (f32, f32),
    /// Alignment's radius and half-angle cosine.
    pub ali: (f32, f32),
    /// Cohesion's radius and half-angle cosine.
    pub coh: (f32, f32),
    /// 1 / separation's radius (0 when the rule is off).
    inv_sep: f32,
}

impl FlockRules {
    /// The rules from (radius, cosine of half the view angle) pairs.
    pub fn new(sep: (f32, f32), ali: (f32, f32), coh: (f32, f32)) -> Self {
        let inv_sep = if sep.0 > 0.0 { 1.0 / sep.0 } else { 0.0 };
        Self { sep, ali, coh, inv_sep }
    }
}

/// What the flocking rules add up over the neighbours; [`FlockSums::forces`] turns the sums
/// into the three forces.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockSums {
    /// Separation: for each neighbour it sees, the unit vector away from it times
    /// 1 - distance / radius.
    pub push: Vec2,
    /// Alignment: the sum of the velocities of the flockmates it sees.
    pub heading: Vec2,
    /// Cohesion: the sum of the offsets of the flockmates it sees.
    pub offset: Vec2,
    /// Cohesion: how many flockmates it sees.
    pub coh_count: u32,
}

impl std::ops::AddAssign for FlockSums {
    fn add_assign(&mut self, o: Self) {
        self.push += o.push;
        self.heading += o.heading;
        self.offset += o.offset;
        self.coh_count += o.coh_count;
    }
}

impl FlockSums {
    /// Adds neighbour `n` of agent `a`.
    #[inline]
    pub fn add(&mut self, a: &Boid, n: &BoidNeighbour, rules: &FlockRules) {
        // The cosine of the neighbour's angle off the heading, times its distance.
        let ahead = a.heading.dot(n.offset);
        let in_sep = n.dist < rules.sep.0 && ahead >= rules.sep.1 * n.dist;
        let in_ali = n.mate && n.dist < rules.ali.0 && ahead >= rules.ali.1 * n.dist;
        let in_coh = n.mate && n.dist < rules.coh.0 && ahead >= rules.coh.1 * n.dist;
        if n.dist > 1e-6 {
            // The unit vector away, -offset / dist, times 1 - dist / radius.
            self.push -= n.offset * (f32::from(u8::from(in_sep)) * (1.0 / n.dist - rules.inv_sep));
        } else {
            self.add_tie(a, n, rules);
        }
        self.heading += n.vel * f32::from(u8::from(in_ali));
        self.offset += n.offset * f32::from(u8::from(in_coh));
        self.coh_count += u32::from(in_coh);
    }

    /// Separation's push from a neighbour on the agent's very spot (at most 1e-6 away; nothing
    /// for one further away): a direction fixed for the pair, opposite for the other agent.
    #[inline]
    pub fn add_tie(&mut self, a: &Boid, n: &BoidNeighbour, rules: &FlockRules) {
        if n.dist <= 1e-6 && n.dist < rules.sep.0 && a.heading.dot(n.offset) >= rules.sep.1 * n.dist {
            self.push += tie_direction(a.index, n.index);
        }
    }

    /// Separation, alignment and cohesion from the sums.
    #[inline]
    pub fn forces(&self, a: &Boid) -> (Vec2, Vec2, Vec2) {
        let sep = self.push.truncate(1.0) * a.max_speed;
        // No flockmate seen leaves the sum at zero.
        let ali =
            if self.heading.length_sq() < 1e-12 { Vec2::ZERO } else { self.heading.with_length(a.max_speed) - a.vel };
        let coh = if self.coh_count == 0 { Vec2::ZERO } else { seek(a, a.pos + self.offset / self.coh_count as f32) };
        (sep, ali, coh)
    }
}

/// The three flocking forces from one pass over the neighbours: the same values as
/// [`separation`], [`alignment`] and [`cohesion`] (each with its own radius and view cone).
/// Radii of 0 switch a rule off.
#[inline]
pub fn flocking(
    a: &Boid,
    hood: &[BoidNeighbour],
    sep: (f32, f32),
    ali: (f32, f32),
    coh: (f32, f32),
) -> (Vec2, Vec2, Vec2) {
    let rules = FlockRules::new(sep, ali, coh);
    let mut sums = FlockSums::default();
    for n in hood {
        sums.add(a, n, &rules);
    }
    sums.forces(a)
}

/// The most neighbours [`flock_lanes`] lists as touching in one query; more are counted but
/// not listed.
pub const MAX_TOUCHING: usize = 16;

/// What one [`flock_lanes`] query gathers: [`FlockSums`] in four lanes, the number of
/// neighbours found, and the slots of the neighbours near enough to touch.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockLanes {
    push: [F4; 2],
    heading: [F4; 2],
    offset: [F4; 2],
    /// Neighbours found and cohesion's count.
    counts: [F4; 2],
    touching: [u32; MAX_TOUCHING],
    touching_len: usize,
}

impl FlockLanes {
    /// The sums: each lane's, added up. (Separation's pushes from neighbours on the agent's
    /// very spot are not in them: see [`flock_lanes`].)
    pub fn sums(&self) -> FlockSums {
        let v = |[x, y]: [F4; 2]| Vec2::new(x.sum(), y.sum());
        FlockSums {
            push: v(self.push),
            heading: v(self.heading),
            offset: v(self.offset),
            coh_count: self.counts[1].sum() as u32,
        }
    }

    /// How many neighbours were found (within the radius of the query).
    pub fn found(&self) -> usize {
        self.counts[0].sum() as usize
    }

    /// The slots of the neighbours nearer than `touch` (the first [`MAX_TOUCHING`] of them),
    /// in slot order; and whether that was all of them.
    pub fn touching(&self) -> (&[u32], bool) {
        let n = self.touching_len.min(MAX_TOUCHING);
        (&self.touching[..n], self.touching_len <= MAX_TOUCHING)
    }
}

/// The flocking rules over the points of `grid` within `radius` of agent `a` (and, of those,
/// the ones whose squared distance is at most `reach_sq`: pass `radius * radius` for all of
/// them), four at a time: the step's inner loop. Sums what [`FlockSums::add`] would add for
/// each of them (as a neighbour from the agent's own flock when `mate`, otherwise from
/// another, which only separation looks at), skipping slot `own` (the agent itself in its own
/// species' grid; `usize::MAX` for other grids), and lists the slots of those nearer than
/// `touch`.
///
/// Separation's push from a neighbour on the agent's very spot (at most 1e-6 away) has no
/// direction; it is left to the caller, who finds such a neighbour among the touching ones
/// when `touch` is above 1e-6.
///
/// Every candidate slot of the query is worked out, and masks decide what counts: no branch
/// depends on a neighbour (except for the rare touching ones), so the compiler can use
/// vector instructions for the four lanes. The sums are kept in local variables, which the
/// compiler can keep in registers. The loop is compiled in
/// three versions, for flockmates or not and for alignment and cohesion looking at the same
/// neighbourhood (as by default) or not, so that it tests neither inside.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn flock_lanes(
    a: &Boid,
    grid: &SpatialGrid,
    own: usize,
    radius: f32,
    reach_sq: f32,
    rules: &FlockRules,
    mate: bool,
    touch: f32,
) -> FlockLanes {
    let r2 = reach_sq.min(radius * radius);
    match (mate, rules.ali == rules.coh) {
        (true, true) => lanes_pass::<true, true>(a, grid, own, radius, r2, rules, touch),
        (true, false) => lanes_pass::<true, false>(a, grid, own, radius, r2, rules, touch),
        (false, _) => lanes_pass::<false, false>(a, grid, own, radius, r2, rules, touch),
    }
}

/// [`flock_lanes`] for neighbours from the agent's own flock (`MATE`) or another, with
/// alignment and cohesion looking at the same neighbourhood (`SHARED`) or not. Kept out of
/// line, so that it compiles the same whatever calls it: inlined into some callers (the
/// benchmark's step), the compiler was seen to turn its lanes back into branches.
#[inline(never)]
fn lanes_pass<const MATE: bool, const SHARED: bool>(
    a: &Boid,
    grid: &SpatialGrid,
    own: usize,
    radius: f32,
    r2: f32,
    rules: &FlockRules,
    touch: f32,
) -> FlockLanes {
    let c = grid.columns();
    let one = F4::splat(1.0);
    let (mx, my) = (F4::splat(a.pos.x), F4::splat(a.pos.y));
    let (hx, hy) = (F4::splat(a.heading.x), F4::splat(a.heading.y));
    let r2 = F4::splat(r2);
    let (sep_r, sep_c, inv_sep) = (F4::splat(rules.sep.0), F4::splat(rules.sep.1), F4::splat(rules.inv_sep));
    let (ali_r, ali_c) = (F4::splat(rules.ali.0), F4::splat(rules.ali.1));
    let (coh_r, coh_c) = (F4::splat(rules.coh.0), F4::splat(rules.coh.1));
    let touch = F4::splat(touch);
    // Slot numbers fit in an i32: a world holds at most MAX_AGENTS agents.
    let own = I4::splat(own.min(i32::MAX as usize) as i32);
    let [mut push_x, mut push_y, mut heading_x, mut heading_y, mut offset_x, mut offset_y] = [F4::default(); 6];
    let [mut found, mut coh_count] = [F4::default(); 2];
    let mut touching = [0u32; MAX_TOUCHING];
    let mut touching_len = 0;
    for run in grid.runs_within(a.pos, radius) {
        // The run and the padding after it, four slots at a time.
        let span = run.start..run.end + LANES - 1;
        let end = I4::splat(run.end as i32);
        let mut slot = I4::splat(run.start as i32) + I4::new([0, 1, 2, 3]);
        let positions = c.xs[span.clone()].chunks_exact(LANES).zip(c.ys[span.clone()].chunks_exact(LANES));
        let velocities = c.vxs[span.clone()].chunks_exact(LANES).zip(c.vys[span].chunks_exact(LANES));
        for (j, ((x, y), (vx, vy))) in positions.zip(velocities).enumerate() {
            let k = run.start + j * LANES;
            // Lanes past the run's end, and the agent itself, do not count.
            let valid = slot.lt(end) & slot.ne(own);
            slot = slot + I4::splat(LANES as i32);
            let dx = F4::from(x) - mx;
            let dy = F4::from(y) - my;
            let d2 = dx * dx + dy * dy;
            let inside = valid & d2.le(r2);
            let d = d2.sqrt();
            let ahead = hx * dx + hy * dy;
            // -offset / dist * (1 - dist / radius) for the neighbours separation sees.
            let tiny = F4::splat(1e-6);
            let in_sep = inside & d.lt(sep_r) & ahead.ge(sep_c * d) & d.gt(tiny);
            // (The divisor kept from 0 for the lanes left out, see `M4::keep`; adding 1e-30 leaves
            // any distance above 1e-6 as it is.)
            let away = in_sep.keep(one / (d + F4::splat(1e-30)) - inv_sep);
            push_x = push_x - dx * away;
            push_y = push_y - dy * away;
            if MATE {
                let in_ali = inside & d.lt(ali_r) & ahead.ge(ali_c * d);
                heading_x = heading_x + in_ali.keep(F4::from(vx));
                heading_y = heading_y + in_ali.keep(F4::from(vy));
                let in_coh = if SHARED { in_ali } else { inside & d.lt(coh_r) & ahead.ge(coh_c * d) };
                offset_x = offset_x + in_coh.keep(dx);
                offset_y = offset_y + in_coh.keep(dy);
                coh_count = coh_count + in_coh.keep(one);
            }
            found = found + inside.keep(one);
            let close = inside & d.lt(touch);
            if close.any() {
                for (l, _) in close.to_array().iter().enumerate().filter(|(_, &yes)| yes) {
                    if touching_len < MAX_TOUCHING {
                        touching[touching_len] = (k + l) as u32;
                    }
                    touching_len += 1;
                }
            }
        }
    }
    FlockLanes {
        push: [push_x, push_y],
        heading: [heading_x, heading_y],
        offset: [offset_x, offset_y],
        counts: [found, coh_count],
        touching,
        touching_len,
    }
}

/// Leader following: arrive at a point `behind` units behind the leader (slowing inside
/// `slowing_radius`), and, when inside the rectangle in front of the leader, also move
/// sideways out of its way. (Separation among followers is the separation behaviour.)
#[inline]
pub fn leader_following(a: &Boid, leader: &Body, p: &Leader, slowing_radius: f32) -> Vec2 {
    let spot = leader.pos - leader.heading * p.behind;
    let mut f = arrive(a, spot, slowing_radius.max(1e-3));
    let rel = a.pos - leader.pos;
    let ahead = rel.dot(leader.heading);
    let side = rel.dot(leader.heading.perp());
    if ahead > 0.0 && ahead < p.sight_length && side.abs() < p.sight_width {
        let out = if side >= 0.0 { leader.heading.perp() } else { -leader.heading.perp() };
        f += out * a.max_speed;
    }
    f
}

/// Unaligned collision avoidance: find the neighbour (of any flock, within `u.radius`) whose
/// closest approach comes soonest, within `u.horizon` seconds, nearer than twice the two
/// radii; then push away from where it will be at that moment. The push is sideways and also
/// along the heading (speeding up or slowing down), and grows as the moment nears.
#[inline]
pub fn unaligned_avoidance(a: &Boid, hood: &[BoidNeighbour], u: &Unaligned) -> Vec2 {
    let mut soonest: Option<(f32, &BoidNeighbour)> = None;
    for n in hood {
        if n.dist > u.radius {
            continue;
        }
        let dv = n.vel - a.vel;
        let dv2 = dv.length_sq();
        if dv2 < 1e-9 {
            continue;
        }
        let t = -n.offset.dot(dv) / dv2;
        if t <= 0.0 || t > u.horizon {
            continue;
        }
        let miss = (n.offset + dv * t).length();
        if miss >= 2.0 * (a.radius + n.radius) {
            continue;
        }
        if soonest.is_none_or(|(best, _)| t < best) {
            soonest = Some((t, n));
        }
    }
    let Some((t, n)) = soonest else {
        return Vec2::ZERO;
    };
    let mine = a.pos + a.vel * t;
    let theirs = a.pos + n.offset + n.vel * t;
    let mut away = (mine - theirs).normalized();
    if away == Vec2::ZERO {
        away = if a.index < n.index { a.heading.perp() } else { -a.heading.perp() };
    }
    let urgency = 1.0 - t / u.horizon.max(1e-6);
    away * (a.max_speed * urgency)
}

/// Path following: predict the agent's position `predict` seconds ahead, find the nearest
/// point of the path (searching forward from segment `progress`), and seek a point further
/// along: `look_ahead` beyond it when within `radius` of the path, a quarter of that when
/// off it (to get back first). Near the end of an open path it arrives instead. Returns the
/// force and the new progress (the segment of the nearest point).
pub fn path_following(a: &Boid, path: &SteerPath, progress: u32, p: &PathFollow, slowing_radius: f32) -> (Vec2, u32) {
    let future = a.pos + a.vel * p.predict;
    let relocate = 4.0 * (p.look_ahead + p.radius) + 4.0;
    let near = path.nearest(future, progress, 8, relocate);
    let ahead = if near.dist <= p.radius { p.look_ahead } else { p.look_ahead * 0.25 };
    let along = near.along + ahead;
    let target = path.point_at(along);
    let force = if !path.is_closed() && along >= path.length() {
        arrive(a, target, slowing_radius.max(1e-3))
    } else {
        seek(a, target)
    };
    (force, near.segment)
}

/// Wall following: find the nearest wall point within `w.reach` and seek a point `w.offset`
/// out from it and some way along the wall, in the direction the agent is heading.
pub fn wall_following(a: &Boid, walls: &Walls, w: &WallFollow) -> Vec2 {
    let Some((q, d)) = walls.nearest_wall(a.pos, w.reach) else {
        return Vec2::ZERO;
    };
    let normal = if d > 1e-5 { (a.pos - q) / d } else { -a.heading };
    let mut along = normal.perp();
    if along.dot(a.heading) < 0.0 {
        along = -along;
    }
    let target = q + normal * w.offset + along * (w.offset + a.max_speed * 0.5);
    seek(a, target)
}

/// The length of the probes and the avoidance cylinder at the agent's speed.
#[inline]
pub fn probe_length(a: &Boid, p: &Probes) -> f32 {
    p.min_length + a.vel.length() * p.look_ahead
}

/// Containment: three probes (ahead, and `side_angle` degrees to either side at 0.7 of the
/// length); each that meets a wall or the world's edge pushes back along the surface normal,
/// harder the shorter the free part of the probe.
pub fn containment(a: &Boid, walls: &Walls, p: &Probes) -> Vec2 {
    let len = probe_length(a, p);
    // Nothing solid within reach of any probe: the common case in open space.
    if len <= 0.0 || len < walls.clearance(a.pos) {
        return Vec2::ZERO;
    }
    let turn = Vec2::from_angle(p.side_angle.to_radians());
    let h = a.heading;
    let left = Vec2::new(h.x * turn.x + h.y * turn.y, h.y * turn.x - h.x * turn.y);
    let right = Vec2::new(h.x * turn.x - h.y * turn.y, h.y * turn.x + h.x * turn.y);
    let mut f = Vec2::ZERO;
    for (dir, scale) in [(h, 1.0), (right, 0.7), (left, 0.7)] {
        let l = len * scale;
        if let Some(hit) = walls.raycast(a.pos, dir, l) {
            f += hit.normal * (1.0 - hit.dist / l);
        }
    }
    f.truncate(1.0) * a.max_speed
}

/// Obstacle avoidance: keep a cylinder as wide as the body and as long as the probe ahead
/// free. The nearest circle, or wall cell met by one of three parallel rays along the
/// cylinder's middle and edges, that intrudes makes the agent push sideways away from it
/// (and brake a little), harder the nearer it is.
pub fn obstacle_avoidance(a: &Boid, walls: &Walls, obstacles: &Obstacles, p: &Probes) -> Vec2 {
    let len = probe_length(a, p);
    if len <= 0.0 {
        return Vec2::ZERO;
    }
    let h = a.heading;
    let right = h.perp();
    // (distance ahead, side to push towards)
    let mut nearest: Option<(f32, Vec2)> = None;
    let mut consider = |ahead: f32, push: Vec2| {
        if nearest.is_none_or(|(d, _)| ahead < d) {
            nearest = Some((ahead, push));
        }
    };
    obstacles.for_each_near(a.pos, len, |c| {
        let rel = c.centre - a.pos;
        let ahead = rel.dot(h);
        let lateral = rel.dot(right);
        let reach = c.radius + a.radius;
        if ahead + reach < 0.0 || ahead - reach > len || lateral.abs() >= reach {
            return;
        }
        // Push away from the side the circle is on; dead ahead, a side fixed per agent.
        let push = if lateral > 0.0 || (lateral == 0.0 && a.index % 2 == 1) { -right } else { right };
        consider((ahead - reach).max(0.0), push);
    });
    let rays = [(a.pos, 0.0f32), (a.pos + right * a.radius, 1.0), (a.pos - right * a.radius, -1.0)];
    let mut hits = [f32::INFINITY; 3];
    let walls_near = len + a.radius >= walls.clearance(a.pos);
    for (k, &(origin, _)) in rays.iter().enumerate().filter(|_| walls_near) {
        // An edge ray that starts inside a wall (the body touching it) says nothing about
        // what is ahead; containment and the collision response deal with touching.
        if k > 0 && !walls.is_free(origin) {
            continue;
        }
        if let Some(hit) = walls.raycast(origin, h, len) {
            hits[k] = hit.dist;
        }
    }
    let wall = hits.iter().copied().fold(f32::INFINITY, f32::min);
    if wall.is_finite() {
        // Push away from the side that hits first; a head-on hit turns to the freer side.
        let push = if hits[1] < hits[2] {
            -right
        } else if hits[2] < hits[1] {
            right
        } else {
            let free_right = walls.raycast(a.pos, h.rotated(0.6), len).map_or(len, |x| x.dist);
            let free_left = walls.raycast(a.pos, h.rotated(-0.6), len).map_or(len, |x| x.dist);
            if free_right >= free_left {
                right
            } else {
                -right
            }
        };
        consider(wall, push);
    }
    let Some((ahead, push)) = nearest else {
        return Vec2::ZERO;
    };
    let urgency = (1.0 - ahead / len).clamp(0.0, 1.0);
    (push - h * 0.5) * (a.max_speed * urgency)
}

/// The sphere-sphere collision response against neighbours of any flock: for each one closer
/// than the two radii, half of the overlap as a push apart (the other agent takes the other
/// half) and half of the approaching speed along the line of centres removed from `vel`.
/// Returns the push and the corrected velocity.
#[inline]
pub fn collide_agents(a: &Boid, hood: &[BoidNeighbour], mut vel: Vec2) -> (Vec2, Vec2) {
    let mut push = Vec2::ZERO;
    for n in hood {
        let reach = a.radius + n.radius;
        if n.dist >= reach {
            continue;
        }
        let normal = if n.dist > 1e-6 { n.offset / n.dist } else { -tie_direction(a.index, n.index) };
        push -= normal * ((reach - n.dist) * 0.5);
        let approach = (vel - n.vel).dot(normal);
        if approach > 0.0 {
            vel -= normal * (approach * 0.5);
        }
    }
    (push, vel)
}

/// The collision response against static circles: the whole overlap as a push out, and the
/// speed into the circle removed.
#[inline]
pub fn collide_circles(a: &Boid, obstacles: &Obstacles, mut vel: Vec2) -> (Vec2, Vec2) {
    let mut push = Vec2::ZERO;
    obstacles.for_each_near(a.pos, a.radius, |c| {
        let off = a.pos - c.centre;
        let d = off.length();
        let reach = c.radius + a.radius;
        if d >= reach {
            return;
        }
        let out = if d > 1e-6 { off / d } else { -a.heading };
        push += out * (reach - d);
        let into = vel.dot(out);
        if into < 0.0 {
            vel -= out * into;
        }
    });
    (push, vel)
}
