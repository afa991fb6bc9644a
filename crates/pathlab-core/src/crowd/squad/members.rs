//! The squad's members: what each carries, the pull of its slot with a hysteresis band
//! ([`in_place_after`], [`slot_seek`]), the fields that keep members apart and off walls,
//! and being cut off: a member that has lost sight of its slot queues for its own A* path
//! back, at most one search per step, and rejoins once it sees its slot again.

use super::{
    smooth, Squad, CUT_OFF_DELAY, DT, K_SEPARATION, K_WALL, MAX_ACCEL, MEMBER_SPEED_FACTOR, RADIUS, REPLAN_AFTER, R_IN,
    R_OUT, SEPARATION, SLOW_RADIUS, TAU, WALL_REACH,
};
use crate::boids::Vec2;
use crate::crowd::scene::SceneError;
use crate::grid::Diagonal;
use crate::heuristic::Heuristic;
use crate::search::astar::astar;

/// A cut-off member's own path back.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct OwnPath {
    pub(super) points: Vec<Vec2>,
    pub(super) next: usize,
    pub(super) age: f32,
}

/// One member of the squad.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Member {
    pub(super) pos: Vec2,
    pub(super) vel: Vec2,
    /// Index into the squad's slots.
    pub(super) slot: usize,
    pub(super) in_place: bool,
    /// Seconds the member has been out of sight of its slot or too far from it.
    pub(super) away: f32,
    pub(super) cut_off: bool,
    /// Waiting in the planning queue.
    pub(super) queued: bool,
    pub(super) own: Option<OwnPath>,
}

/// The hysteresis rule: a member that was in place stays so up to [`R_OUT`] from its slot; one
/// that was not becomes so only within [`R_IN`].
pub fn in_place_after(distance: f32, was_in_place: bool) -> bool {
    if was_in_place {
        distance <= R_OUT
    } else {
        distance <= R_IN
    }
}

/// The slot's attraction on a member at `pos`: the velocity it wants and whether it counts as
/// in place. In place (see [`in_place_after`]) it only keeps pace with the slot (`slot_vel`);
/// otherwise it adds an arrive behaviour towards the slot, slowing down within 1.5 units, and
/// the sum is capped at `top`.
///
/// ```
/// use pathlab_core::crowd::squad::slot_seek;
/// use pathlab_core::boids::Vec2;
/// let (slot, pace) = (Vec2::new(10.0, 0.0), Vec2::new(1.0, 0.0));
/// // 0.4 from the slot: an in-place member only keeps pace, one that is not heads for it.
/// assert_eq!(slot_seek(Vec2::new(9.6, 0.0), slot, pace, true, 3.0), (pace, true));
/// let (v, in_place) = slot_seek(Vec2::new(9.6, 0.0), slot, pace, false, 3.0);
/// assert!(!in_place && v.x > pace.x);
/// ```
pub fn slot_seek(pos: Vec2, slot: Vec2, slot_vel: Vec2, was_in_place: bool, top: f32) -> (Vec2, bool) {
    if in_place_after(pos.distance(slot), was_in_place) {
        (slot_vel, true)
    } else {
        ((slot_vel + arrive(pos, slot, top, true)).truncate(top), false)
    }
}

/// The desired velocity towards `target` at `top` speed, slowing down within
/// [`SLOW_RADIUS`] when `slow` is set.
fn arrive(pos: Vec2, target: Vec2, top: f32, slow: bool) -> Vec2 {
    let to = target - pos;
    let d = to.length();
    if d < 1e-6 {
        return Vec2::ZERO;
    }
    let speed = if slow { top * (d / SLOW_RADIUS).min(1.0) } else { top };
    to / d * speed
}

impl Squad {
    /// Member `i`'s position.
    pub fn position(&self, i: usize) -> Vec2 {
        self.members[i].pos
    }

    /// Member `i`'s velocity.
    pub fn velocity(&self, i: usize) -> Vec2 {
        self.members[i].vel
    }

    /// Member `i`'s distance from its slot.
    pub fn slot_distance(&self, i: usize) -> f32 {
        self.members[i].pos.distance(self.slot(i))
    }

    /// True when member `i` is in place (within the hysteresis band).
    pub fn in_place(&self, i: usize) -> bool {
        self.members[i].in_place
    }

    /// True when member `i` is cut off and finding its own way back.
    pub fn is_cut_off(&self, i: usize) -> bool {
        self.members[i].cut_off
    }

    /// A cut-off member's own path (from its next waypoint on), if it has one.
    pub fn own_path(&self, i: usize) -> Option<&[Vec2]> {
        self.members[i].own.as_ref().map(|o| &o.points[o.next.min(o.points.len())..])
    }

    /// Beyond this distance from its slot a member counts as cut off (after
    /// [`CUT_OFF_DELAY`]): four spacings, at least 4 units.
    pub fn cut_off_distance(&self) -> f32 {
        (4.0 * self.params.spacing).max(4.0)
    }

    /// A cut-off member rejoins once it sees its slot within this distance: two spacings, at
    /// least 2 units.
    pub fn rejoin_distance(&self) -> f32 {
        (2.0 * self.params.spacing).max(2.0)
    }

    /// Moves member `i` to the point `to` (e.g. behind a wall) so that it has to find its way
    /// back.
    ///
    /// # Errors
    /// [`SceneError::Refused`] for a point in a wall or off the map, or an unknown member.
    pub fn place_member(&mut self, i: usize, to: Vec2) -> Result<(), SceneError> {
        if i >= self.members.len() {
            return Err(SceneError::Refused(format!("there is no member {i}")));
        }
        if !self.walls.is_free(to) {
            return Err(SceneError::Refused(format!("({:.1}, {:.1}) is in a wall or off the map", to.x, to.y)));
        }
        let push = self.walls.push_out(to, RADIUS);
        let p = if self.walls.is_free(to + push) { to + push } else { to };
        let m = &mut self.members[i];
        m.pos = p;
        m.vel = Vec2::ZERO;
        m.in_place = false;
        m.away = 0.0;
        m.own = None;
        Ok(())
    }

    /// The index of the member nearest to a point.
    pub fn nearest_member(&self, at: Vec2) -> Option<usize> {
        let mut best: Option<(usize, f32)> = None;
        for (i, m) in self.members.iter().enumerate() {
            let d = m.pos.distance(at);
            if best.is_none_or(|(_, b)| d < b) {
                best = Some((i, d));
            }
        }
        best.map(|(i, _)| i)
    }

    pub(super) fn check_cut_offs(&mut self) {
        let far = self.cut_off_distance();
        let rejoin = self.rejoin_distance();
        for i in 0..self.members.len() {
            let slot = self.slot(i);
            let pos = self.members[i].pos;
            let d = pos.distance(slot);
            let sees = self.sees(pos, slot);
            let m = &mut self.members[i];
            if m.cut_off {
                if sees && d <= rejoin {
                    m.cut_off = false;
                    m.own = None;
                    m.away = 0.0;
                    self.rejoins += 1;
                } else {
                    let stale = m.own.as_ref().is_none_or(|o| o.next >= o.points.len() || o.age > REPLAN_AFTER);
                    if stale && !m.queued {
                        m.queued = true;
                        self.queue.push_back(i);
                    }
                }
            } else if !sees || d > far {
                m.away += DT;
                if m.away > CUT_OFF_DELAY {
                    m.cut_off = true;
                    m.in_place = false;
                    if !m.queued {
                        m.queued = true;
                        self.queue.push_back(i);
                    }
                }
            } else {
                m.away = 0.0;
            }
        }
    }

    /// Plans one queued member's path: at most one A* per step.
    pub(super) fn plan_one(&mut self) {
        while let Some(i) = self.queue.pop_front() {
            self.members[i].queued = false;
            if !self.members[i].cut_off {
                continue;
            }
            let slot = self.slot(i);
            let target = self.cell_of(slot).or_else(|| self.cell_of(self.centre));
            let Some(from) = self.cell_of(self.members[i].pos) else { return };
            let Some(to) = target else { return };
            self.searches += 1;
            let grid = self.walls.grid();
            let found = astar(grid, from, to, Heuristic::Octile, Diagonal::NoCornerCutting).ok().flatten();
            let points: Vec<Vec2> = match found {
                Some(p) => smooth(grid, &p.points).into_iter().skip(1).map(|c| self.walls.centre(c)).collect(),
                // Unreachable: head for the slot directly and let the walls stop it.
                None => vec![slot],
            };
            self.members[i].own = Some(OwnPath { points, next: 0, age: 0.0 });
            return;
        }
    }

    pub(super) fn move_members(&mut self) {
        let n = self.members.len();
        let top = self.params.speed * MEMBER_SPEED_FACTOR;
        let mut accel = vec![Vec2::ZERO; n];
        for (i, acc) in accel.iter_mut().enumerate() {
            let m = &self.members[i];
            let slot_vel = self.slot_vel[m.slot];
            // Attraction: where the member wants to go.
            let desired = if m.cut_off {
                match &m.own {
                    Some(o) if o.next < o.points.len() => {
                        let last = o.next + 1 == o.points.len();
                        arrive(m.pos, o.points[o.next], top, last)
                    }
                    _ => Vec2::ZERO,
                }
            } else {
                slot_seek(m.pos, self.slots[m.slot], slot_vel, m.in_place, top).0
            };
            let mut a = (desired - m.vel) / TAU;
            // Repulsion from members.
            for (j, o) in self.members.iter().enumerate() {
                if j == i {
                    continue;
                }
                let off = m.pos - o.pos;
                let d = off.length();
                if d < SEPARATION {
                    let away = if d > 1e-5 {
                        off / d
                    } else {
                        // Exactly on top of each other: split by index.
                        Vec2::new(if i < j { -1.0 } else { 1.0 }, 0.0)
                    };
                    a += away * (K_SEPARATION * (SEPARATION - d) / SEPARATION);
                }
            }
            // Repulsion from walls.
            if let Some((q, d)) = self.walls.nearest_wall(m.pos, WALL_REACH) {
                if d > 1e-5 {
                    a += (m.pos - q) / d * (K_WALL * (WALL_REACH - d) / WALL_REACH);
                }
            }
            *acc = a.truncate(MAX_ACCEL);
        }
        for (i, a) in accel.into_iter().enumerate() {
            let slot = self.slots[self.members[i].slot];
            let walls = &self.walls;
            let m = &mut self.members[i];
            m.vel = (m.vel + a * DT).truncate(top);
            let (mut p, stop_x, stop_y) = walls.slide(m.pos, m.vel * DT);
            if stop_x {
                m.vel.x = 0.0;
            }
            if stop_y {
                m.vel.y = 0.0;
            }
            let push = walls.push_out(p, RADIUS);
            if push.length() > 0.0 && walls.is_free(p + push) {
                let (q, _, _) = walls.slide(p, push);
                p = q;
            }
            m.pos = p;
            if !m.cut_off {
                m.in_place = in_place_after(p.distance(slot), m.in_place);
            }
            if let Some(o) = &mut m.own {
                o.age += DT;
                // Next waypoint reached, or already in sight of the one after: move on.
                while o.next < o.points.len() {
                    let reached = p.distance(o.points[o.next]) < 0.4;
                    if reached {
                        o.next += 1;
                    } else {
                        break;
                    }
                }
            }
        }
        // Skip a waypoint when the one after it is already in sight (one check per member).
        for i in 0..n {
            let pos = self.members[i].pos;
            let skip = match &self.members[i].own {
                Some(o) if o.next + 1 < o.points.len() => self.sees(pos, o.points[o.next + 1]),
                _ => false,
            };
            if skip {
                if let Some(o) = &mut self.members[i].own {
                    o.next += 1;
                }
            }
        }
    }
}
