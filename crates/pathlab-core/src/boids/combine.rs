//! Turning several behaviours' forces into one: weighted sum, priority (a truncated running
//! sum) and context steering (interest and danger maps over direction slots).
//!
//! ```
//! use pathlab_core::boids::combine::{priority, weighted_sum, Forces};
//! use pathlab_core::boids::{Behaviour, Vec2};
//! let mut forces = Forces::default();
//! forces.set(Behaviour::Containment, Vec2::new(0.0, 30.0), 1.0);
//! forces.set(Behaviour::Seek, Vec2::new(30.0, 0.0), 1.0);
//! // The sum goes diagonally; priority spends the whole budget of 30 on containment.
//! assert_eq!(weighted_sum(&forces, 30.0).x > 0.0, true);
//! assert_eq!(priority(&forces, 30.0), Vec2::new(0.0, 30.0));
//! ```

use std::f32::consts::TAU;

use super::params::{Behaviour, BEHAVIOURS, MAX_SLOTS, PRIORITY};
use super::Vec2;

/// Each behaviour's force this step, already multiplied by its weight; `active` marks the
/// behaviours that were computed (weight above 0).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Forces {
    /// Weighted forces, indexed by [`Behaviour`] value.
    pub weighted: [Vec2; BEHAVIOURS],
    /// The weights used.
    pub weights: [f32; BEHAVIOURS],
    /// Which behaviours are on.
    pub active: [bool; BEHAVIOURS],
    /// The sum of the weighted forces so far.
    pub sum: Vec2,
}

impl Forces {
    /// Records behaviour `b`'s force with its weight.
    #[inline]
    pub fn set(&mut self, b: Behaviour, force: Vec2, weight: f32) {
        let f = force * weight;
        if self.active[b as usize] {
            self.sum -= self.weighted[b as usize];
        }
        self.weighted[b as usize] = f;
        self.weights[b as usize] = weight;
        self.active[b as usize] = true;
        self.sum += f;
    }

    /// The weighted force of `b` (zero when off).
    #[inline]
    pub fn get(&self, b: Behaviour) -> Vec2 {
        self.weighted[b as usize]
    }
}

/// Weighted sum: add every weighted force, truncate to `max_force`.
#[inline]
pub fn weighted_sum(forces: &Forces, max_force: f32) -> Vec2 {
    forces.sum.truncate(max_force)
}

/// Priority: go through the behaviours in [`PRIORITY`] order, adding each weighted force only
/// as far as the budget left allows: the budget starts at `max_force` and each force added
/// spends its length. Once the budget is spent the rest are dropped, so a behaviour that
/// needs the whole force (a wall ahead) silences the ones below it.
#[inline]
pub fn priority(forces: &Forces, max_force: f32) -> Vec2 {
    let mut sum = Vec2::ZERO;
    let mut left = max_force;
    for b in PRIORITY {
        if !forces.active[b as usize] {
            continue;
        }
        if left <= 1e-6 {
            break;
        }
        let f = forces.weighted[b as usize].truncate(left);
        left -= f.length();
        sum += f;
    }
    sum
}

/// A context map: for each of `slots` directions (slot k points at angle 2*pi*k/slots from
/// +x, turning towards +y), how much the behaviours want to go that way (interest) and how
/// much they warn against it (danger).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContextMap {
    /// Number of slots in use.
    pub slots: usize,
    /// Interest per slot.
    pub interest: [f32; MAX_SLOTS],
    /// Danger per slot.
    pub danger: [f32; MAX_SLOTS],
    /// The slot chosen, if any behaviour had an opinion.
    pub chosen: Option<usize>,
}

impl ContextMap {
    /// The unit direction of slot `k`.
    #[inline]
    pub fn direction(&self, k: usize) -> Vec2 {
        Vec2::from_angle(TAU * k as f32 / self.slots as f32)
    }
}

/// Builds the context maps from the weighted forces and picks a direction.
///
/// Seeking behaviours write their desired velocity (force plus weight times the current
/// velocity, since their force is "desired minus current") into the interest map; pushes and escapes write
/// the direction of the threat (the reverse of the push, or of the desired escape velocity)
/// into the danger map. A behaviour's value in a slot is its strength times the cosine
/// between the slot and its direction (nothing for slots facing away), and each map keeps the
/// largest value per slot. The slots with the least danger (within 5% of the largest danger)
/// survive; among them the one of highest interest wins, or with no interest at all, the one
/// nearest the heading.
pub fn context_map(forces: &Forces, vel: Vec2, heading: Vec2, slots: usize) -> ContextMap {
    let slots = slots.clamp(4, MAX_SLOTS);
    let mut map = ContextMap { slots, interest: [0.0; MAX_SLOTS], danger: [0.0; MAX_SLOTS], chosen: None };
    let mut dirs = [Vec2::ZERO; MAX_SLOTS];
    for (k, d) in dirs.iter_mut().enumerate().take(slots) {
        *d = map.direction(k);
    }
    let mut any = false;
    for b in Behaviour::ALL {
        let i = *b as usize;
        if !forces.active[i] {
            continue;
        }
        let f = forces.weighted[i];
        // For "desired minus current" behaviours, the weighted desired velocity.
        let desired = f + vel * forces.weights[i];
        let pushes = matches!(
            b,
            Behaviour::Separation
                | Behaviour::Containment
                | Behaviour::ObstacleAvoidance
                | Behaviour::UnalignedAvoidance
        );
        let (v, into) = match (b.is_danger(), pushes) {
            (true, true) => (-f, &mut map.danger),
            // Flee and evade: the threat lies opposite the desired escape velocity.
            (true, false) => (-desired, &mut map.danger),
            (false, _) => (desired, &mut map.interest),
        };
        // A zero push or escape means nothing is near; a zero weight was skipped above.
        if b.is_danger() && f == Vec2::ZERO {
            continue;
        }
        let strength = v.length();
        if strength < 1e-6 {
            continue;
        }
        any = true;
        let u = v / strength;
        for k in 0..slots {
            let c = dirs[k].dot(u);
            if c > 0.0 && c * strength > into[k] {
                into[k] = c * strength;
            }
        }
    }
    if !any {
        return map;
    }
    let most = map.danger[..slots].iter().copied().fold(0.0, f32::max);
    let least = map.danger[..slots].iter().copied().fold(f32::INFINITY, f32::min);
    let allowed = least + 0.05 * most;
    let mut best: Option<(usize, f32, f32)> = None;
    for (k, dir) in dirs.iter().enumerate().take(slots) {
        if map.danger[k] > allowed {
            continue;
        }
        let score = (map.interest[k], dir.dot(heading));
        let better = match best {
            None => true,
            Some((_, i, h)) => score.0 > i || (score.0 == i && score.1 > h),
        };
        if better {
            best = Some((k, score.0, score.1));
        }
    }
    map.chosen = best.map(|(k, _, _)| k);
    map
}

/// Context steering's force: full speed along the chosen slot, minus the velocity (zero when
/// nothing had an opinion).
#[inline]
pub fn context_force(map: &ContextMap, vel: Vec2, max_speed: f32, max_force: f32) -> Vec2 {
    match map.chosen {
        Some(k) => (map.direction(k) * max_speed - vel).truncate(max_force),
        None => Vec2::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_steering_avoids_the_dangerous_slot_a_sum_would_take() {
        // Goal straight ahead (+x); an obstacle push also straight back from ahead.
        let mut f = Forces::default();
        f.set(Behaviour::Seek, Vec2::new(10.0, 0.0), 1.0);
        f.set(Behaviour::ObstacleAvoidance, Vec2::new(-10.0, 0.0), 1.0);
        // The sum cancels out: the agent would sit still.
        assert_eq!(weighted_sum(&f, 100.0), Vec2::ZERO);
        let map = context_map(&f, Vec2::ZERO, Vec2::new(1.0, 0.0), 8);
        let k = map.chosen.unwrap();
        // Not straight ahead (dangerous) but a slot that still has some interest.
        assert_ne!(k, 0);
        assert!(map.interest[k] > 0.0);
        assert!(map.danger[k] < map.danger[0]);
    }

    #[test]
    fn priority_drops_what_does_not_fit() {
        let mut f = Forces::default();
        f.set(Behaviour::Separation, Vec2::new(0.0, 8.0), 1.0);
        f.set(Behaviour::Cohesion, Vec2::new(6.0, 0.0), 1.0);
        f.set(Behaviour::Wander, Vec2::new(0.0, -5.0), 1.0);
        let p = priority(&f, 10.0);
        // Separation fits whole (8), cohesion gets the remaining 2, wander nothing.
        assert!((p - Vec2::new(2.0, 8.0)).length() < 1e-5, "{p:?}");
    }
}
