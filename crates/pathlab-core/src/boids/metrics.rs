//! What the boid page measures of a world at a step, for its metrics table and its plots over
//! time: how fast the agents move, how well their headings agree (the flock's polarisation)
//! and how far they spread from their centre. Each is one pass over the agents, cheap enough
//! to read at every step of a 20,000-agent world.
//!
//! - *Mean speed*: the mean length of the velocities, in world units a second.
//! - *Polarisation*: the length of the mean unit heading, from 0 (headings cancel out, as in a
//!   mill or a swarm) to 1 (everyone heads the same way): the usual order parameter of flocks.
//! - *Spread*: the root mean square distance of the agents from their centroid, in world units.
//!
//! Sums are taken in `f64` in agent order. With no agents every value is NaN (not measured).
//!
//! ```
//! use pathlab_core::boids::{metrics, Scenario};
//! let boids = Scenario::Flock.build(2, 7).unwrap();
//! let m = metrics::metrics(&boids);
//! assert_eq!(m.iter().map(|m| m.name).collect::<Vec<_>>(), ["mean_speed", "polarisation", "spread"]);
//! assert!((0.0..=1.0 + 1e-9).contains(&m[1].value));
//! ```

use super::Boids;
use crate::crowd::scene::Metric;

/// The metrics of `boids` now: mean speed, polarisation and spread (see the module's docs).
pub fn metrics(boids: &Boids) -> Vec<Metric> {
    let n = boids.len();
    let (mut speed, mut hx, mut hy, mut cx, mut cy) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for i in 0..n {
        speed += f64::from(boids.vxs()[i]).hypot(f64::from(boids.vys()[i]));
        hx += f64::from(boids.hxs()[i]);
        hy += f64::from(boids.hys()[i]);
        cx += f64::from(boids.xs()[i]);
        cy += f64::from(boids.ys()[i]);
    }
    let count = n as f64;
    let (cx, cy) = (cx / count, cy / count);
    let mut square = 0.0f64;
    for i in 0..n {
        let dx = f64::from(boids.xs()[i]) - cx;
        let dy = f64::from(boids.ys()[i]) - cy;
        square += dx * dx + dy * dy;
    }
    // 0 / 0 is NaN: not measured when there are no agents.
    vec![
        Metric { name: "mean_speed", label: "Mean speed", value: speed / count, unit: "units/s" },
        Metric {
            name: "polarisation",
            label: "Polarisation (heading agreement)",
            value: hx.hypot(hy) / count,
            unit: "",
        },
        Metric { name: "spread", label: "Spread from the centre (RMS)", value: (square / count).sqrt(), unit: "units" },
    ]
}
