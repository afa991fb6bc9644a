//! VO, RVO and HRVO by sampling: each neighbour forbids a cone of velocities ([`Cone`]) with
//! its apex at the neighbour's velocity (VO), halfway between both velocities (RVO) or where
//! the RVO side the agent passes on meets the VO side opposite (HRVO, [`hrvo_apex`]); the
//! agent tries [`sample_velocities`]'s candidates and keeps the one nearest its preferred
//! velocity outside every cone, or, when there is none, the one with the least penalty
//! `w / tc + |v_pref - v|` ([`time_to_collision`] gives `tc`).

use std::f32::consts::TAU;

use super::{usable, AgentState, AvoidParams, Method, Neighbour};
use crate::boids::Vec2;

/// A velocity obstacle to draw, in velocity space: the velocities `apex + s * left` and
/// `apex + s * right` (`s >= 0`) bound it, the forbidden velocities lie between.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone {
    /// The apex: the neighbour's velocity (VO), the mean of both velocities (RVO), [`hrvo_apex`]
    /// (HRVO), or 0 for a static obstacle.
    pub apex: Vec2,
    /// Unit direction of the left side.
    pub left: Vec2,
    /// Unit direction of the right side.
    pub right: Vec2,
}

/// Candidate speeds of the VO/RVO/HRVO sampling, as fractions of the top speed.
pub const SAMPLE_RINGS: usize = 8;
/// Candidate headings per ring of the VO/RVO/HRVO sampling.
pub const SAMPLE_HEADINGS: usize = 32;

/// The candidate velocities of VO, RVO and HRVO for an agent: the preferred velocity (capped at the
/// top speed), the current velocity, zero, and [`SAMPLE_RINGS`] rings at speeds
/// `max_speed * k / SAMPLE_RINGS` (`k = 1..=SAMPLE_RINGS`) of [`SAMPLE_HEADINGS`] headings each,
/// evenly spaced from the preferred heading (odd rings turned by half a spacing) — 259 in all.
pub fn sample_velocities(agent: &AgentState, mut visit: impl FnMut(Vec2)) {
    let top = agent.max_speed;
    visit(agent.pref.truncate(top));
    visit(agent.vel.truncate(top));
    visit(Vec2::ZERO);
    let base = if agent.pref.length_sq() > 1e-12 { agent.pref.y.atan2(agent.pref.x) } else { 0.0 };
    let step = TAU / SAMPLE_HEADINGS as f32;
    for k in 1..=SAMPLE_RINGS {
        let speed = top * k as f32 / SAMPLE_RINGS as f32;
        let offset = if k % 2 == 1 { 0.5 * step } else { 0.0 };
        for j in 0..SAMPLE_HEADINGS {
            visit(Vec2::from_angle(base + offset + step * j as f32) * speed);
        }
    }
}

/// The time until a disc moving at relative velocity `v` from the origin first touches the
/// disc of radius `r` around `p`: infinity when never; 0 when they overlap already and `v`
/// closes in (overlapping discs moving apart count as never).
pub fn time_to_collision(p: Vec2, v: Vec2, r: f32) -> f32 {
    let pv = p.dot(v);
    let c = p.length_sq() - r * r;
    if c <= 0.0 {
        return if pv > 0.0 { 0.0 } else { f32::INFINITY };
    }
    let a = v.length_sq();
    if pv <= 0.0 || a <= 0.0 {
        return f32::INFINITY;
    }
    let disc = pv * pv - a * c;
    if disc < 0.0 {
        return f32::INFINITY;
    }
    ((pv - disc.sqrt()) / a).max(0.0)
}

/// The two sides of the cone of directions from the origin that hit the disc of radius `r`
/// around `p`: (left, right), unit. Overlapping discs give the half-plane facing `p`.
pub(super) fn cone_sides(p: Vec2, r: f32) -> (Vec2, Vec2) {
    let d2 = p.length_sq();
    if d2 <= r * r || d2 <= 0.0 {
        let n = p.normalized();
        let n = if n == Vec2::ZERO { Vec2::new(1.0, 0.0) } else { n };
        return (n.perp(), -n.perp());
    }
    let leg = (d2 - r * r).sqrt();
    let left = Vec2::new(p.x * leg - p.y * r, p.x * r + p.y * leg) * (1.0 / d2);
    let right = Vec2::new(p.x * leg + p.y * r, -p.x * r + p.y * leg) * (1.0 / d2);
    (left, right)
}

/// The apex of the HRVO of `agent` against `n`: with `left`, `right` the sides of the cone
/// (as in [`Cone`]), `v_B` the neighbour's velocity and `m = (v_A + v_B) / 2` the RVO's apex:
/// when the agent's velocity relative to the neighbour lies left of the centre line (the
/// direction to the neighbour), `cross(p_B - p_A, v_A - v_B) > 0`, the apex is where the line
/// `m + t left` (the RVO's left side) meets the line `v_B + s right` (the VO's right side);
/// otherwise where `m + t right` meets `v_B + s left`. Overlapping discs (parallel sides) give
/// the RVO apex `m`.
///
/// ```
/// use pathlab_core::crowd::avoid::{hrvo_apex, AgentState, Neighbour};
/// use pathlab_core::boids::Vec2;
/// // B at rest 2 ahead, combined radius 1 (cone half-angle 30 degrees), A moving sideways:
/// let a = AgentState {
///     id: 0, pos: Vec2::ZERO, vel: Vec2::new(0.0, 1.0), pref: Vec2::ZERO, radius: 0.5, max_speed: 2.0,
/// };
/// let b = Neighbour { id: 1, pos: Vec2::new(2.0, 0.0), vel: Vec2::ZERO, radius: 0.5 };
/// let apex = hrvo_apex(&a, &b);
/// assert!((apex.x + 0.75_f32.sqrt() / 2.0).abs() < 1e-5 && (apex.y - 0.25).abs() < 1e-5);
/// ```
pub fn hrvo_apex(agent: &AgentState, n: &Neighbour) -> Vec2 {
    let p = n.pos - agent.pos;
    let (left, right) = cone_sides(p, agent.radius + n.radius);
    let mid = (agent.vel + n.vel) * 0.5;
    let det = right.cross(left);
    if det.abs() <= 1e-6 {
        return mid;
    }
    // Solve v_B + s a = m + t b for s: s (a x b) = (m - v_B) x b.
    let half = mid - n.vel;
    let (along_vo, along_rvo) = if p.cross(agent.vel - n.vel) > 0.0 { (right, left) } else { (left, right) };
    let s = half.cross(along_rvo) / along_vo.cross(along_rvo);
    let apex = n.vel + along_vo * s;
    if apex.is_finite() {
        apex
    } else {
        mid
    }
}

/// The apex of the cone of `method` (VO: `v_B`; RVO: `(v_A + v_B) / 2`; HRVO: [`hrvo_apex`];
/// ORCA has no cone and gives the RVO apex).
pub fn cone_apex(method: Method, agent: &AgentState, n: &Neighbour) -> Vec2 {
    match method {
        Method::Vo => n.vel,
        Method::Rvo | Method::Orca => (agent.vel + n.vel) * 0.5,
        Method::Hrvo => hrvo_apex(agent, n),
    }
}

/// VO/RVO/HRVO by sampling: (chosen, whether it was outside every cone).
pub(super) fn sampled(
    params: &AvoidParams,
    agent: &AgentState,
    neighbours: &[Neighbour],
    obstacles: &[Neighbour],
) -> (Vec2, bool) {
    let horizon = params.time_horizon;
    let mut best_free: Option<(f32, Vec2)> = None;
    let mut best_penalty: Option<(f32, Vec2)> = None;
    let apexes: Vec<Vec2> = neighbours.iter().map(|n| cone_apex(params.method, agent, n)).collect();
    sample_velocities(agent, |cand| {
        // Static obstacles: never touch one within two steps; a touch within the obstacle
        // horizon makes the candidate not free.
        let mut blocked = false;
        for n in obstacles.iter().filter(|n| usable(n)) {
            let t = time_to_collision(n.pos - agent.pos, cand, agent.radius + n.radius);
            if t <= 2.0 * params.dt {
                return;
            }
            blocked |= t <= params.obstacle_horizon;
        }
        // The earliest collision over all neighbours, within the horizon.
        let mut tc = f32::INFINITY;
        for (n, &apex) in neighbours.iter().zip(&apexes).filter(|(n, _)| usable(n)) {
            // VO: relative velocity cand - v_B; RVO: (2 cand - v_A) - v_B = 2 (cand - apex);
            // HRVO likewise twice the offset from its apex.
            let rel = match params.method {
                Method::Vo => cand - n.vel,
                _ => (cand - apex) * 2.0,
            };
            let t = time_to_collision(n.pos - agent.pos, rel, agent.radius + n.radius);
            if t < tc {
                tc = t;
            }
        }
        let dist = (agent.pref - cand).length();
        if tc > horizon && !blocked {
            if best_free.is_none_or(|(d, _)| dist < d) {
                best_free = Some((dist, cand));
            }
        } else {
            let penalty = params.penalty / tc.max(1e-6) + dist;
            if best_penalty.is_none_or(|(p, _)| penalty < p) {
                best_penalty = Some((penalty, cand));
            }
        }
    });
    match (best_free, best_penalty) {
        (Some((_, v)), _) => (v, true),
        (None, Some((_, v))) => (v, false),
        (None, None) => (Vec2::ZERO, false),
    }
}
