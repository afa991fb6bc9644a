//! The squad's formation: the arrangement of slots ([`Formation`]: line, wedge or column) as
//! offsets from the centre in the squad's own frame (x forward, y to the side), the settings
//! that shape it ([`SquadParams`]), and placing the slots in the world: turned with the
//! heading, pulled in from behind walls and pushed clear of them, then handed out to the
//! nearest members.

use super::{Squad, RADIUS, SPACING_RANGE, SPEED_RANGE, WALL_REACH};
use crate::boids::Vec2;
use crate::crowd::scene::SceneError;

/// The arrangement of slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formation {
    /// Side by side, across the direction of travel.
    Line,
    /// A V with its tip forward: the first member at the tip, then pairs on either side.
    Wedge,
    /// One behind another along the direction of travel.
    Column,
}

impl Formation {
    /// Every formation in the order of the scene's choice parameter.
    pub const ALL: [Formation; 3] = [Formation::Line, Formation::Wedge, Formation::Column];

    /// The formation's name.
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Wedge => "wedge",
            Formation::Column => "column",
        }
    }

    /// Slot offsets for `n` members `spacing` apart in the squad's frame (x forward, y to the
    /// side), shifted so that their mean is zero.
    pub fn offsets(self, n: usize, spacing: f32) -> Vec<Vec2> {
        let mut out: Vec<Vec2> = (0..n)
            .map(|i| {
                let k = i as f32;
                match self {
                    Formation::Line => Vec2::new(0.0, k * spacing),
                    Formation::Column => Vec2::new(-k * spacing, 0.0),
                    Formation::Wedge => {
                        // Row r = (i + 1) / 2 holds members 2r - 1 (one side) and 2r (other).
                        let row = i.div_ceil(2) as f32;
                        let side = if i % 2 == 1 { -1.0 } else { 1.0 };
                        Vec2::new(-row * spacing * 0.8, side * row * spacing * 0.8)
                    }
                }
            })
            .collect();
        if n > 0 {
            let mut mean = Vec2::ZERO;
            for o in &out {
                mean += *o;
            }
            let mean = mean / n as f32;
            for o in &mut out {
                *o -= mean;
            }
        }
        out
    }
}

/// The squad's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SquadParams {
    /// The arrangement of slots.
    pub formation: Formation,
    /// Distance between neighbouring slots, world units (see [`SPACING_RANGE`]).
    pub spacing: f32,
    /// The centre's cruising speed, world units per second (see [`SPEED_RANGE`]).
    pub speed: f32,
}

impl Default for SquadParams {
    fn default() -> Self {
        Self { formation: Formation::Line, spacing: 1.4, speed: 1.5 }
    }
}

/// Checks a spacing: NaN or infinite is an error, out of range is clamped with a message.
pub fn check_spacing(value: f64) -> Result<(f32, Option<String>), SceneError> {
    clamp_param("spacing", value, SPACING_RANGE)
}

/// Checks a speed: NaN or infinite is an error, out of range is clamped with a message.
pub fn check_speed(value: f64) -> Result<(f32, Option<String>), SceneError> {
    clamp_param("speed", value, SPEED_RANGE)
}

fn clamp_param(name: &str, value: f64, (lo, hi): (f64, f64)) -> Result<(f32, Option<String>), SceneError> {
    if !value.is_finite() {
        return Err(SceneError::Invalid(format!("{name} must be a finite number, not {value}")));
    }
    let v = value.clamp(lo, hi);
    let msg = (v != value).then(|| format!("{name} {value} is outside [{lo}, {hi}]; using {v}"));
    Ok((v as f32, msg))
}

impl Squad {
    /// Where member `i` should stand now (after moving the slot off walls).
    pub fn slot(&self, i: usize) -> Vec2 {
        self.slots[self.members[i].slot]
    }

    /// The index of member `i`'s slot in [`Formation::offsets`].
    pub fn slot_index(&self, i: usize) -> usize {
        self.members[i].slot
    }

    /// Where member `i`'s slot would be without walls.
    pub fn nominal_slot(&self, i: usize) -> Vec2 {
        let o = self.offsets[self.members[i].slot];
        self.centre + self.heading * o.x + self.heading.perp() * o.y
    }

    /// Whether member `i`'s slot had to be moved off or out from behind a wall.
    pub fn slot_moved(&self, i: usize) -> bool {
        self.slot_moved[self.members[i].slot]
    }

    /// Changes the formation; members are given the slots nearest to them.
    pub fn set_formation(&mut self, formation: Formation) {
        self.params.formation = formation;
        self.offsets = formation.offsets(self.members.len(), self.params.spacing);
        self.place_slots();
        self.assign_slots();
    }

    /// Replaces the slots by `offsets` (in the squad's frame, one per member), for shapes that
    /// are not a [`Formation`], such as [`super::block_offsets`]; members are given the slots
    /// nearest to them. A later [`Squad::set_formation`] or [`Squad::set_spacing`] goes back to
    /// the named formation.
    ///
    /// # Errors
    /// [`SceneError::Invalid`] when there is not one offset per member or one is not finite.
    pub fn set_offsets(&mut self, offsets: Vec<Vec2>) -> Result<(), SceneError> {
        if offsets.len() != self.members.len() {
            return Err(SceneError::Invalid(format!("{} offsets for {} members", offsets.len(), self.members.len())));
        }
        if let Some(o) = offsets.iter().find(|o| !o.is_finite()) {
            return Err(SceneError::Invalid(format!("the offset {o:?} is not finite")));
        }
        self.offsets = offsets;
        self.place_slots();
        self.assign_slots();
        Ok(())
    }

    /// Changes the spacing; NaN is an error, out-of-range values are clamped with a message.
    pub fn set_spacing(&mut self, value: f64) -> Result<Option<String>, SceneError> {
        let (v, msg) = check_spacing(value)?;
        self.params.spacing = v;
        self.offsets = self.params.formation.offsets(self.members.len(), v);
        self.place_slots();
        Ok(msg)
    }

    /// Changes the centre's speed; NaN is an error, out-of-range values are clamped with a
    /// message.
    pub fn set_speed(&mut self, value: f64) -> Result<Option<String>, SceneError> {
        let (v, msg) = check_speed(value)?;
        self.params.speed = v;
        Ok(msg)
    }

    /// World slot positions from the offsets, moved off and out from behind walls.
    pub(super) fn place_slots(&mut self) {
        let fwd = self.heading;
        let side = fwd.perp();
        for (k, o) in self.offsets.iter().enumerate() {
            let want = self.centre + fwd * o.x + side * o.y;
            let (p, moved) = self.clear_slot(want);
            self.slots[k] = p;
            self.slot_moved[k] = moved;
        }
    }

    fn clear_slot(&self, want: Vec2) -> (Vec2, bool) {
        let to = want - self.centre;
        let d = to.length();
        let mut p = want;
        let mut moved = false;
        if d > 1e-6 {
            let dir = to / d;
            if let Some(hit) = self.walls.raycast(self.centre, dir, d + RADIUS) {
                p = self.centre + dir * (hit.dist - RADIUS * 1.5).clamp(0.0, d);
                moved = true;
            }
        }
        // Clear of the wall field if there is room, else at least clear of the body.
        for clearance in [WALL_REACH, RADIUS * 1.2] {
            let push = self.walls.push_out(p, clearance);
            if push.length() <= 1e-6 {
                break;
            }
            if self.walls.is_free(p + push) && self.walls.push_out(p + push, RADIUS).length() <= 1e-6 {
                p += push;
                moved = true;
                break;
            }
        }
        if !self.walls.is_free(p) {
            return (self.centre, true);
        }
        (p, moved)
    }

    /// Gives members the slots nearest to them, slot by slot (greedy), so that a new formation
    /// does not send members across one another.
    pub(super) fn assign_slots(&mut self) {
        let n = self.members.len();
        let mut taken = vec![false; n];
        for k in 0..n {
            let mut best: Option<(usize, f32)> = None;
            for (i, m) in self.members.iter().enumerate() {
                if taken[i] {
                    continue;
                }
                let d = m.pos.distance(self.slots[k]);
                if best.is_none_or(|(_, b)| d < b) {
                    best = Some((i, d));
                }
            }
            if let Some((i, _)) = best {
                taken[i] = true;
                self.members[i].slot = k;
                self.members[i].in_place = false;
            }
        }
    }
}
