//! The boids' motion as bytes: everything a step changes ([`Boids::motion`]), and
//! putting it back into a copy of the boids ([`Boids::set_motion`]). The page steps a copy
//! of its world in a worker thread and takes the copy's motion back after every step.
//!
//! The layout, little-endian: the tag "PLM1", the step count (`u64`), the agent count
//! (`u32`), then column by column x, y, vx, vy, heading x and y, the wander spot's x and y
//! (`f32` each), path progress (`u32`) and goal (`u16`).

use super::Boids;
use crate::boids::Vec2;

/// The first four bytes of [`Boids::motion`]'s output ("PLM1").
const MOTION_TAG: u32 = u32::from_le_bytes(*b"PLM1");
/// Bytes of [`Boids::motion`] before the agents: the tag, the step count and the agent count.
const MOTION_HEADER: usize = 16;
/// Bytes per agent: eight `f32` (position, velocity, heading, wander spot), path progress
/// (`u32`) and goal (`u16`).
const MOTION_PER_AGENT: usize = 8 * 4 + 4 + 2;

/// Why [`Boids::set_motion`] refused its input.
#[derive(Clone, Debug, PartialEq)]
pub enum MotionError {
    /// The bytes do not start like [`Boids::motion`]'s output.
    NotMotion,
    /// The motion is of a different number of agents.
    WrongCount {
        /// Agents in the world.
        world: usize,
        /// Agents in the motion.
        motion: usize,
    },
    /// The bytes are too few or too many for the agent count.
    WrongLength {
        /// The length for the world's agents.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// An agent's numbers include NaN or an infinity.
    NotFinite {
        /// The agent.
        agent: usize,
    },
    /// An agent's position is outside the world.
    Outside {
        /// The agent.
        agent: usize,
        /// Its x.
        x: f32,
        /// Its y.
        y: f32,
    },
}

impl std::fmt::Display for MotionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotMotion => write!(f, "the data is not a boid world's motion"),
            Self::WrongCount { world, motion } => {
                write!(f, "the motion is of {motion} agents but the world has {world}")
            }
            Self::WrongLength { expected, got } => {
                write!(f, "the motion should be {expected} bytes long for this world, not {got}")
            }
            Self::NotFinite { agent } => write!(f, "agent {agent}'s motion is not a finite number"),
            Self::Outside { agent, x, y } => {
                write!(f, "agent {agent} would be outside the world, at ({x}, {y})")
            }
        }
    }
}

impl std::error::Error for MotionError {}

impl Boids {
    /// Everything a step changes, as bytes: the step count and each agent's position,
    /// velocity, heading and memory. [`Boids::set_motion`] puts it into a world that differs
    /// at most in those (the page steps a copy of its world in a worker thread and takes the
    /// copy's motion back after every step).
    ///
    /// ```
    /// use pathlab_core::boids::Scenario;
    /// let mut a = Scenario::Flock.build(50, 7).unwrap();
    /// let mut b = a.clone();
    /// a.advance(30);
    /// b.set_motion(&a.motion()).unwrap();
    /// a.step();
    /// b.step();
    /// assert_eq!((a.xs(), a.steps()), (b.xs(), b.steps()));
    /// ```
    pub fn motion(&self) -> Vec<u8> {
        let n = self.len();
        let mut out = Vec::with_capacity(MOTION_HEADER + n * MOTION_PER_AGENT);
        out.extend_from_slice(&MOTION_TAG.to_le_bytes());
        out.extend_from_slice(&self.steps.to_le_bytes());
        out.extend_from_slice(&(n as u32).to_le_bytes());
        for column in [&self.xs, &self.ys, &self.vxs, &self.vys, &self.hxs, &self.hys] {
            out.extend(column.iter().flat_map(|v| v.to_le_bytes()));
        }
        out.extend(self.memory.iter().flat_map(|m| m.wander.x.to_le_bytes()));
        out.extend(self.memory.iter().flat_map(|m| m.wander.y.to_le_bytes()));
        out.extend(self.memory.iter().flat_map(|m| m.progress.to_le_bytes()));
        out.extend(self.memory.iter().flat_map(|m| m.goal.to_le_bytes()));
        out
    }

    /// Puts motion from [`Boids::motion`] into this world, which must hold as many agents.
    /// Checked before anything changes: the length, the agent count, and every number
    /// (finite, positions inside the world).
    pub fn set_motion(&mut self, bytes: &[u8]) -> Result<(), MotionError> {
        let n = self.len();
        let expected = MOTION_HEADER + n * MOTION_PER_AGENT;
        let word = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        if bytes.len() < MOTION_HEADER || word(0) != MOTION_TAG {
            return Err(MotionError::NotMotion);
        }
        let count = word(12) as usize;
        if count != n {
            return Err(MotionError::WrongCount { world: n, motion: count });
        }
        if bytes.len() != expected {
            return Err(MotionError::WrongLength { expected, got: bytes.len() });
        }
        let float = |column: usize, i: usize| f32::from_bits(word(MOTION_HEADER + (column * n + i) * 4));
        let (w, h) = (self.walls.width(), self.walls.height());
        for i in 0..n {
            if (0..8).any(|c| !float(c, i).is_finite()) {
                return Err(MotionError::NotFinite { agent: i });
            }
            let (x, y) = (float(0, i), float(1, i));
            if !(0.0..=w).contains(&x) || !(0.0..=h).contains(&y) {
                return Err(MotionError::Outside { agent: i, x, y });
            }
        }
        let steps = u64::from(word(4)) | (u64::from(word(8)) << 32);
        for (c, column) in [&mut self.xs, &mut self.ys, &mut self.vxs, &mut self.vys, &mut self.hxs, &mut self.hys]
            .into_iter()
            .enumerate()
        {
            for (i, v) in column.iter_mut().enumerate() {
                *v = float(c, i);
            }
        }
        let progress = MOTION_HEADER + 8 * n * 4;
        let goal = progress + n * 4;
        for (i, m) in self.memory.iter_mut().enumerate() {
            m.wander = Vec2::new(float(6, i), float(7, i));
            m.progress = word(progress + i * 4);
            m.goal = u16::from_le_bytes([bytes[goal + i * 2], bytes[goal + i * 2 + 1]]);
        }
        self.steps = steps;
        Ok(())
    }
}
