//! The linear program behind ORCA: the velocity of at most the top speed nearest the
//! preferred one that satisfies every half-plane ([`solve`]). Incremental, one constraint at a
//! time, in expected linear time: while the current answer satisfies the next half-plane it
//! stands; otherwise the new answer lies on that half-plane's line, a 1-D problem. When the
//! half-planes leave nothing, a 3-D program instead finds the velocity whose worst violation
//! is least, never relaxing the first `hard` half-planes (static obstacles, [`solve_hard`]).

use crate::boids::Vec2;

/// An ORCA half-plane in velocity space: velocities `v` with `direction x (v - point) >= 0`
/// (to the left of the directed line) are allowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HalfPlane {
    /// A point on the boundary line.
    pub point: Vec2,
    /// Unit direction of the boundary line; the allowed side is on its left.
    pub direction: Vec2,
}

impl HalfPlane {
    /// How far `v` is inside (positive) or outside (negative) the half-plane.
    #[inline]
    pub fn signed_distance(&self, v: Vec2) -> f32 {
        self.direction.cross(v - self.point)
    }
}

/// The velocity of at most `max_speed` nearest `pref` that satisfies every half-plane, and
/// true; or, when none does, the velocity of at most `max_speed` whose worst violation is
/// least, and false.
pub fn solve(lines: &[HalfPlane], max_speed: f32, pref: Vec2) -> (Vec2, bool) {
    solve_hard(lines, 0, max_speed, pref)
}

/// As [`solve`], but the first `hard` lines (static obstacles) are never relaxed by the
/// fallback: it minimises the worst violation of the others within them.
pub fn solve_hard(lines: &[HalfPlane], hard: usize, max_speed: f32, pref: Vec2) -> (Vec2, bool) {
    let hard = hard.min(lines.len());
    let mut result = Vec2::ZERO;
    let failed = lp2(lines, max_speed, pref, false, &mut result);
    if failed < lines.len() {
        lp3(lines, hard, failed.max(hard), max_speed, &mut result);
        (result, false)
    } else {
        (result, true)
    }
}

const EPS: f32 = 1e-5;

/// Optimises on the boundary of line `i`, within the speed disc and lines `0..i`.
fn lp1(lines: &[HalfPlane], i: usize, max_speed: f32, target: Vec2, direction_opt: bool, result: &mut Vec2) -> bool {
    let line = lines[i];
    let along = line.point.dot(line.direction);
    let disc = along * along + max_speed * max_speed - line.point.length_sq();
    if disc < 0.0 {
        // The speed disc misses the line entirely.
        return false;
    }
    let s = disc.sqrt();
    let (mut t_lo, mut t_hi) = (-along - s, -along + s);
    for other in &lines[..i] {
        // Points p_i + t d_i must satisfy d_j x (p_i + t d_i - p_j) >= 0.
        let a = other.direction.cross(line.direction);
        let b = other.direction.cross(line.point - other.point);
        if a.abs() <= EPS {
            if b < 0.0 {
                // Parallel and entirely outside.
                return false;
            }
            continue;
        }
        let t = -b / a;
        if a > 0.0 {
            t_lo = t_lo.max(t);
        } else {
            t_hi = t_hi.min(t);
        }
        if t_lo > t_hi {
            return false;
        }
    }
    let t = if direction_opt {
        if target.dot(line.direction) > 0.0 {
            t_hi
        } else {
            t_lo
        }
    } else {
        (target - line.point).dot(line.direction).clamp(t_lo, t_hi)
    };
    *result = line.point + line.direction * t;
    true
}

/// Incremental 2-D program; returns the index of the first line it could not satisfy, or
/// `lines.len()` on success.
fn lp2(lines: &[HalfPlane], max_speed: f32, target: Vec2, direction_opt: bool, result: &mut Vec2) -> usize {
    *result = if direction_opt { target * max_speed } else { target.truncate(max_speed) };
    for i in 0..lines.len() {
        if lines[i].signed_distance(*result) < 0.0 {
            let keep = *result;
            if !lp1(lines, i, max_speed, target, direction_opt, result) {
                *result = keep;
                return i;
            }
        }
    }
    lines.len()
}

/// The fallback: minimise the largest violation, starting from the line `begin` where the 2-D
/// program failed, by a 2-D program on each offending line's bisectors with the others.
fn lp3(lines: &[HalfPlane], hard: usize, begin: usize, max_speed: f32, result: &mut Vec2) {
    let mut worst = 0.0_f32;
    let mut projected = Vec::with_capacity(lines.len());
    for i in begin..lines.len() {
        let li = lines[i];
        if -li.signed_distance(*result) > worst {
            projected.clear();
            projected.extend_from_slice(&lines[..hard]);
            for lj in &lines[hard..i] {
                let det = li.direction.cross(lj.direction);
                let point = if det.abs() <= EPS {
                    if li.direction.dot(lj.direction) > 0.0 {
                        // Same direction: line j is no tighter in this comparison.
                        continue;
                    }
                    (li.point + lj.point) * 0.5
                } else {
                    li.point + li.direction * (lj.direction.cross(li.point - lj.point) / det)
                };
                let direction = (lj.direction - li.direction).normalized();
                if direction == Vec2::ZERO {
                    continue;
                }
                projected.push(HalfPlane { point, direction });
            }
            let keep = *result;
            if lp2(&projected, max_speed, li.direction.perp(), true, result) < projected.len() {
                // Only rounding can get here; keep the previous answer.
                *result = keep;
            }
            worst = -li.signed_distance(*result);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_program_returns_the_preferred_velocity_capped() {
        let (v, ok) = solve(&[], 1.0, Vec2::new(3.0, 4.0));
        assert!(ok);
        assert!((v.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn contradictory_planes_fall_back_to_the_least_violation() {
        // v.x >= 1 and v.x <= -1 cannot both hold: the best compromise is v.x = 0.
        let lines = [
            HalfPlane { point: Vec2::new(1.0, 0.0), direction: Vec2::new(0.0, -1.0) },
            HalfPlane { point: Vec2::new(-1.0, 0.0), direction: Vec2::new(0.0, 1.0) },
        ];
        assert!(lines[0].signed_distance(Vec2::new(2.0, 0.0)) > 0.0);
        let (v, ok) = solve(&lines, 2.0, Vec2::new(0.0, 1.0));
        assert!(!ok);
        assert!(v.x.abs() < 1e-4, "{v:?}");
    }
}
