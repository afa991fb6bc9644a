//! The boid page's metrics (`boids::metrics`) against values worked by hand: two agents ten
//! units apart moving at 5 units/s, first head-on (headings cancel: polarisation 0), then side
//! by side (polarisation 1); the spread is their distance from the midpoint, 5. An empty world
//! measures nothing (NaN).

use pathlab_core::boids::{metrics::metrics, Scenario, Vec2};

fn value(boids: &pathlab_core::boids::Boids, name: &str) -> f64 {
    metrics(boids).into_iter().find(|m| m.name == name).map(|m| m.value).expect(name)
}

fn two_agents(v0: Vec2, v1: Vec2) -> pathlab_core::boids::Boids {
    let mut boids = Scenario::Flock.build(0, 1).unwrap();
    let (cx, cy) = (boids.walls().width() / 2.0, boids.walls().height() / 2.0);
    boids.add_agent(0, Vec2::new(cx - 3.0, cy - 4.0), v0).unwrap();
    boids.add_agent(0, Vec2::new(cx + 3.0, cy + 4.0), v1).unwrap();
    boids
}

#[test]
fn head_on_pair_has_mean_speed_five_no_polarisation_and_spread_five() {
    let boids = two_agents(Vec2::new(3.0, 4.0), Vec2::new(-3.0, -4.0));
    assert!((value(&boids, "mean_speed") - 5.0).abs() < 1e-6);
    assert!(value(&boids, "polarisation").abs() < 1e-6);
    assert!((value(&boids, "spread") - 5.0).abs() < 1e-5);
}

#[test]
fn pair_heading_the_same_way_is_fully_polarised() {
    let boids = two_agents(Vec2::new(0.0, 2.0), Vec2::new(0.0, 4.0));
    assert!((value(&boids, "mean_speed") - 3.0).abs() < 1e-6);
    assert!((value(&boids, "polarisation") - 1.0).abs() < 1e-6);
}

#[test]
fn an_empty_world_measures_nothing() {
    let boids = Scenario::Flock.build(0, 1).unwrap();
    assert!(metrics(&boids).iter().all(|m| m.value.is_nan()));
}
