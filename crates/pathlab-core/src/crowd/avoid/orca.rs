//! ORCA's lines: each neighbour gives a half-plane of allowed velocities ([`HalfPlane`]).
//! With `u` the smallest change of the relative velocity that leaves the velocity obstacle
//! truncated at the time horizon, and `n` the outward normal there, the agent keeps to
//! `(v - (v_A + share * u)) . n >= 0`: half the work (`share` 0.5) against another agent, all
//! of it (1) against a static obstacle. Overlapping discs get a half-plane that parts them
//! within one step. The [`linear_program`](super::linear_program) then picks the velocity.

use super::linear_program::HalfPlane;
use super::sampled::cone_sides;
use super::{usable, AgentState, AvoidParams, Neighbour};
use crate::boids::Vec2;

/// The ORCA half-planes of `agent` against each usable neighbour, appended to `out`.
pub fn orca_planes(params: &AvoidParams, agent: &AgentState, neighbours: &[Neighbour], out: &mut Vec<HalfPlane>) {
    planes_with_share(params, agent, neighbours, 0.5, params.time_horizon, out);
}

/// ORCA half-planes where the agent takes `share` of the avoidance (0.5 for agents, 1 for
/// static obstacles) looking `horizon` seconds ahead.
pub(super) fn planes_with_share(
    params: &AvoidParams,
    agent: &AgentState,
    neighbours: &[Neighbour],
    share: f32,
    horizon: f32,
    out: &mut Vec<HalfPlane>,
) {
    let inv_tau = 1.0 / horizon;
    let inv_dt = 1.0 / params.dt;
    for n in neighbours.iter().filter(|n| usable(n)) {
        let p = n.pos - agent.pos;
        // A static obstacle's velocity is 0 whatever it says.
        let v = if share >= 1.0 { agent.vel } else { agent.vel - n.vel };
        let r = agent.radius + n.radius;
        let d2 = p.length_sq();
        let r2 = r * r;
        let (direction, u);
        if d2 > r2 {
            // Apart: the VO truncated at the horizon is the cone cut by the disc of radius
            // r / tau around p / tau.
            let w = v - p * inv_tau;
            let w2 = w.length_sq();
            let wp = w.dot(p);
            if wp < 0.0 && wp * wp > r2 * w2 {
                // Nearest boundary point lies on the cut-off arc.
                let wl = w2.sqrt();
                let unit = if wl > 0.0 { w * (1.0 / wl) } else { p.normalized() * -1.0 };
                direction = Vec2::new(unit.y, -unit.x);
                u = unit * (r * inv_tau - wl);
            } else {
                // Nearest boundary point lies on a leg.
                let (left, right) = cone_sides(p, r);
                direction = if p.cross(w) > 0.0 { left } else { -right };
                u = direction * v.dot(direction) - v;
            }
        } else {
            // Overlapping: leave the overlap within one step.
            let w = v - p * inv_dt;
            let wl = w.length();
            let unit = if wl > 1e-9 {
                w * (1.0 / wl)
            } else {
                // On top of each other with equal velocities: push apart along the x axis,
                // opposite ways for the two agents (the lower id goes to +x).
                let away = -p.normalized();
                if away != Vec2::ZERO {
                    away
                } else if agent.id < n.id {
                    Vec2::new(1.0, 0.0)
                } else {
                    Vec2::new(-1.0, 0.0)
                }
            };
            direction = Vec2::new(unit.y, -unit.x);
            u = unit * (r * inv_dt - wl);
        }
        if direction.is_finite() && u.is_finite() && direction != Vec2::ZERO {
            out.push(HalfPlane { point: agent.vel + u * share, direction });
        }
    }
}
