//! The preset scenarios of the boid page. Each builds a [`Boids`] from an agent count and a
//! seed; the same pair always builds the same world.
//!
//! Open worlds grow with the agent count so that the crowd keeps roughly the same density:
//! each preset has a base size and an area per agent, and when the agents need more room
//! both sides grow by the same factor.

use super::behaviours::Circle;
use super::params::{Behaviour, BoidsParams, Combine, ParamError, SpeciesParams, MAX_AGENTS};
use super::rng::Pcg32;
use super::{Boids, Vec2, Walls};
use crate::grid::{named_enum, Grid, Point, GROUND, MAX_SIDE, WALL};

named_enum! {
    /// The preset scenarios.
    Scenario, "scenario" {
        /// One flock: separation, alignment, cohesion, a little wander, kept inside the world.
        Flock = 0, "flock";
        /// A flock of pigeons that evade a few hawks, which pursue the nearest pigeon.
        HawksAndPigeons = 1, "hawks-and-pigeons";
        /// A crowd following a looping A* path round wall blocks (path following + separation).
        PathFollowing = 2, "path-following";
        /// Followers keeping behind a leader that patrols a few goals.
        LeaderFollowing = 3, "leader-following";
        /// Agents running along the walls of a maze.
        WallFollowing = 4, "wall-following";
        /// Two crowds crossing a field of round obstacles in opposite directions.
        ObstacleField = 5, "obstacle-field";
    }
}

impl Scenario {
    /// The agent count used when none is given.
    pub const fn default_agents(self) -> usize {
        match self {
            Self::Flock => 500,
            Self::HawksAndPigeons => 400,
            Self::PathFollowing => 150,
            Self::LeaderFollowing => 60,
            Self::WallFollowing => 120,
            Self::ObstacleField => 300,
        }
    }

    /// A one-line description for the page.
    pub const fn title(self) -> &'static str {
        match self {
            Self::Flock => "Flocking: separation, alignment and cohesion (Reynolds 1987)",
            Self::HawksAndPigeons => "Hawks pursue the nearest pigeon; pigeons evade hawks they see",
            Self::PathFollowing => "Crowd path following: an A* path looked ahead along, plus separation",
            Self::LeaderFollowing => "Leader following: arrive behind the leader, keep out of its way",
            Self::WallFollowing => "Wall following in a maze, with containment probes",
            Self::ObstacleField => "Obstacle avoidance and unaligned collision avoidance in two-way traffic",
        }
    }

    /// Builds the scenario with `agents` agents (at most [`MAX_AGENTS`]) from `seed`.
    ///
    /// ```
    /// use pathlab_core::boids::Scenario;
    /// let a = Scenario::HawksAndPigeons.build(100, 3).unwrap();
    /// let b = Scenario::HawksAndPigeons.build(100, 3).unwrap();
    /// assert_eq!(a.xs(), b.xs());
    /// assert!(Scenario::Flock.build(1_000_000, 3).is_err());
    /// ```
    pub fn build(self, agents: usize, seed: u64) -> Result<Boids, ParamError> {
        if agents > MAX_AGENTS {
            return Err(ParamError::TooManyAgents(agents));
        }
        match self {
            Self::Flock => flock(agents, seed),
            Self::HawksAndPigeons => hawks_and_pigeons(agents, seed),
            Self::PathFollowing => path_following(agents, seed),
            Self::LeaderFollowing => leader_following(agents, seed),
            Self::WallFollowing => wall_following(agents, seed),
            Self::ObstacleField => obstacle_field(agents, seed),
        }
    }
}

/// How much both sides of a base world must grow to give each of `agents` `area` square
/// units (at least 1).
fn growth(agents: usize, area: f32, base_w: f32, base_h: f32) -> f32 {
    ((agents as f32 * area) / (base_w * base_h)).sqrt().max(1.0)
}

/// An open grid of `base` cells grown by `factor`, capped at the grid's limit.
fn open_grid(base_cols: usize, base_rows: usize, factor: f32) -> Result<Grid, ParamError> {
    let cols = ((base_cols as f32 * factor).ceil() as usize).clamp(1, MAX_SIDE);
    let rows = ((base_rows as f32 * factor).ceil() as usize).clamp(1, MAX_SIDE);
    Grid::new(cols, rows).map_err(|_| ParamError::TooManyAgents(MAX_AGENTS + 1))
}

fn fill(grid: &mut Grid, x0: f32, y0: f32, x1: f32, y1: f32) {
    let (w, h) = (grid.width() as f32, grid.height() as f32);
    let (cx0, cx1) = ((x0 * w) as usize, ((x1 * w).ceil() as usize).min(grid.width()));
    let (cy0, cy1) = ((y0 * h) as usize, ((y1 * h).ceil() as usize).min(grid.height()));
    for y in cy0..cy1 {
        for x in cx0..cx1 {
            let _ = grid.set(Point::new(x, y), WALL);
        }
    }
}

fn with(p: SpeciesParams, weights: &[(Behaviour, f32)]) -> SpeciesParams {
    let mut p = SpeciesParams { weights: [0.0; super::params::BEHAVIOURS], ..p };
    for &(b, w) in weights {
        p = p.with_weight(b, w);
    }
    p
}

fn flock(agents: usize, seed: u64) -> Result<Boids, ParamError> {
    let cell = 4.0;
    let f = growth(agents, 24.0, 160.0, 100.0);
    let walls = Walls::new(open_grid(40, 25, f)?, cell);
    let boids = SpeciesParams::named("boids");
    let mut world = Boids::new(walls, vec![boids], BoidsParams::default(), seed)?;
    world.spawn(0, agents, None)?;
    Ok(world)
}

fn hawks_and_pigeons(agents: usize, seed: u64) -> Result<Boids, ParamError> {
    let cell = 4.0;
    let f = growth(agents, 30.0, 200.0, 125.0);
    let walls = Walls::new(open_grid(50, 32, f)?, cell);
    let mut pigeons = with(
        SpeciesParams::named("pigeons"),
        &[
            (Behaviour::Separation, 1.6),
            (Behaviour::Alignment, 1.0),
            (Behaviour::Cohesion, 0.9),
            (Behaviour::Wander, 0.2),
            (Behaviour::Containment, 3.0),
            (Behaviour::Evade, 3.5),
        ],
    );
    pigeons.chase.panic_radius = 25.0;
    let mut hawks = with(
        SpeciesParams::named("hawks"),
        &[
            (Behaviour::Pursue, 1.5),
            (Behaviour::Separation, 2.0),
            (Behaviour::Wander, 0.4),
            (Behaviour::Containment, 3.0),
        ],
    );
    // Faster than a pigeon but less agile: a pigeon that turns in time gets away.
    hawks.vehicle.max_speed = 16.0;
    hawks.vehicle.mass = 0.4;
    hawks.vehicle.max_force = 10.0;
    hawks.vehicle.radius = 1.6;
    hawks.separation.radius = 14.0;
    hawks.separation.view_angle = 360.0;
    hawks.chase.hunt_radius = 60.0;
    hawks.prey = Some(0);
    let mut world = Boids::new(walls, vec![pigeons, hawks], BoidsParams::default(), seed)?;
    let n_hawks = if agents < 2 { 0 } else { (agents / 60).max(1) };
    world.spawn(0, agents - n_hawks, None)?;
    world.spawn(1, n_hawks, None)?;
    Ok(world)
}

fn path_following(agents: usize, seed: u64) -> Result<Boids, ParamError> {
    let cell = 4.0;
    let f = growth(agents, 60.0, 192.0, 120.0);
    let mut grid = open_grid(48, 30, f)?;
    // A ring road round a central block; three legs of the loop bend round blocks that jut
    // in from the edge they run along, and the central block keeps the legs apart.
    fill(&mut grid, 0.25, 0.32, 0.75, 0.68);
    fill(&mut grid, 0.45, 0.0, 0.52, 0.19);
    fill(&mut grid, 0.86, 0.44, 1.0, 0.56);
    fill(&mut grid, 0.50, 0.81, 0.57, 1.0);
    let (w, h) = (grid.width() as f32, grid.height() as f32);
    let at = |fx: f32, fy: f32| Point::new((fx * w) as usize, (fy * h) as usize);
    let waypoints = vec![at(0.08, 0.12), at(0.92, 0.12), at(0.92, 0.88), at(0.08, 0.88)];
    let walls = Walls::new(grid, cell);
    let mut walkers = with(
        SpeciesParams::named("walkers"),
        &[
            (Behaviour::PathFollowing, 1.0),
            (Behaviour::Separation, 1.4),
            (Behaviour::Containment, 2.0),
            (Behaviour::ObstacleAvoidance, 1.0),
        ],
    );
    walkers.separation.radius = 3.0;
    walkers.vehicle.max_speed = 12.0;
    walkers.path.radius = 3.0;
    let mut world = Boids::new(walls, vec![walkers], BoidsParams::default(), seed)?;
    // The waypoints are in open cells of this layout, so planning cannot fail.
    let _ = world.set_waypoints(waypoints);
    world.spawn(0, agents, None)?;
    Ok(world)
}

fn leader_following(agents: usize, seed: u64) -> Result<Boids, ParamError> {
    let cell = 4.0;
    let f = growth(agents, 40.0, 160.0, 100.0);
    let walls = Walls::new(open_grid(40, 25, f)?, cell);
    let (w, h) = (walls.width(), walls.height());
    let mut followers = with(
        SpeciesParams::named("followers"),
        &[(Behaviour::LeaderFollowing, 1.2), (Behaviour::Separation, 1.8), (Behaviour::Containment, 3.0)],
    );
    followers.separation.radius = 4.0;
    followers.separation.view_angle = 360.0;
    followers.goal.slowing_radius = 12.0;
    let mut leader = with(
        SpeciesParams::named("leader"),
        &[(Behaviour::Seek, 1.0), (Behaviour::Wander, 0.5), (Behaviour::Containment, 3.0)],
    );
    leader.vehicle.max_speed = 10.0;
    leader.vehicle.radius = 1.5;
    leader.goal.reached_radius = 10.0;
    let mut world = Boids::new(walls, vec![followers, leader], BoidsParams::default(), seed)?;
    world.set_goals(vec![
        Vec2::new(0.2 * w, 0.25 * h),
        Vec2::new(0.8 * w, 0.3 * h),
        Vec2::new(0.7 * w, 0.8 * h),
        Vec2::new(0.25 * w, 0.7 * h),
    ]);
    if agents > 0 {
        let l = world.add_agent(1, Vec2::new(0.5 * w, 0.5 * h), Vec2::new(5.0, 0.0))?;
        world.set_leader(Some(l));
        world.spawn(0, agents - 1, Some([0.3 * w, 0.3 * h, 0.7 * w, 0.7 * h]))?;
    }
    Ok(world)
}

/// A maze of `rooms_x` x `rooms_y` rooms, each `corridor` cells wide, walls one cell thick:
/// a depth-first (recursive backtracker) maze from `rng`, with about one wall in ten between
/// rooms knocked through so there are loops.
fn maze(rooms_x: usize, rooms_y: usize, corridor: usize, rng: &mut Pcg32) -> Result<Grid, ParamError> {
    let pitch = corridor + 1;
    let (w, h) = ((rooms_x * pitch + 1).min(MAX_SIDE), (rooms_y * pitch + 1).min(MAX_SIDE));
    let rooms_x = (w - 1) / pitch;
    let rooms_y = (h - 1) / pitch;
    let mut grid = Grid::from_cells(w, h, vec![WALL; w * h]).map_err(|_| ParamError::TooManyAgents(MAX_AGENTS + 1))?;
    let open = |grid: &mut Grid, x0: usize, y0: usize, cw: usize, ch: usize| {
        for y in y0..y0 + ch {
            for x in x0..x0 + cw {
                let _ = grid.set(Point::new(x, y), GROUND);
            }
        }
    };
    // Knock through the wall between room (rx, ry) and its neighbour in direction d.
    let join = |grid: &mut Grid, rx: usize, ry: usize, d: usize| {
        let (x0, y0) = (1 + rx * pitch, 1 + ry * pitch);
        match d {
            0 => open(grid, x0 + corridor, y0, 1, corridor),
            1 => open(grid, x0, y0 + corridor, corridor, 1),
            2 => open(grid, x0 - 1, y0, 1, corridor),
            _ => open(grid, x0, y0 - 1, corridor, 1),
        }
    };
    for ry in 0..rooms_y {
        for rx in 0..rooms_x {
            open(&mut grid, 1 + rx * pitch, 1 + ry * pitch, corridor, corridor);
        }
    }
    let mut seen = vec![false; rooms_x * rooms_y];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some(&(rx, ry)) = stack.last() {
        let mut options = [(0usize, 0usize, 0usize); 4];
        let mut count = 0;
        for (d, (dx, dy)) in [(1i64, 0i64), (0, 1), (-1, 0), (0, -1)].into_iter().enumerate() {
            let (nx, ny) = (rx as i64 + dx, ry as i64 + dy);
            if nx >= 0
                && ny >= 0
                && (nx as usize) < rooms_x
                && (ny as usize) < rooms_y
                && !seen[ny as usize * rooms_x + nx as usize]
            {
                options[count] = (nx as usize, ny as usize, d);
                count += 1;
            }
        }
        if count == 0 {
            stack.pop();
            continue;
        }
        let (nx, ny, d) = options[rng.below(count as u32) as usize];
        join(&mut grid, rx, ry, d);
        seen[ny * rooms_x + nx] = true;
        stack.push((nx, ny));
    }
    for ry in 0..rooms_y {
        for rx in 0..rooms_x {
            if rx + 1 < rooms_x && rng.below(10) == 0 {
                join(&mut grid, rx, ry, 0);
            }
            if ry + 1 < rooms_y && rng.below(10) == 0 {
                join(&mut grid, rx, ry, 1);
            }
        }
    }
    Ok(grid)
}

fn wall_following(agents: usize, seed: u64) -> Result<Boids, ParamError> {
    let cell = 3.0;
    let mut rng = Pcg32::new(seed ^ 0x6d61_7a65);
    // 12 x 8 rooms hold the default 120 runners; more runners get more rooms.
    let f = (agents as f32 / 120.0).sqrt().max(1.0);
    let (rx, ry) = ((12.0 * f).ceil() as usize, (8.0 * f).ceil() as usize);
    let grid = maze(rx, ry, 3, &mut rng)?;
    let walls = Walls::new(grid, cell);
    let mut runners = with(
        SpeciesParams::named("runners"),
        &[
            (Behaviour::WallFollowing, 1.2),
            (Behaviour::Containment, 2.5),
            (Behaviour::Separation, 1.5),
            (Behaviour::ObstacleAvoidance, 1.5),
            (Behaviour::Wander, 0.15),
        ],
    );
    runners.separation.radius = 3.0;
    runners.vehicle.max_speed = 10.0;
    runners.wall.offset = 2.5;
    runners.wall.reach = 8.0;
    runners.probes.min_length = 3.0;
    let mut world = Boids::new(walls, vec![runners], BoidsParams::default(), seed)?;
    world.spawn(0, agents, None)?;
    Ok(world)
}

fn obstacle_field(agents: usize, seed: u64) -> Result<Boids, ParamError> {
    let cell = 4.0;
    let f = growth(agents, 60.0, 200.0, 120.0);
    let walls = Walls::new(open_grid(50, 30, f)?, cell);
    let (w, h) = (walls.width(), walls.height());
    let mut rng = Pcg32::new(seed ^ 0x6369_7263);
    let wanted = ((w * h) / 1200.0) as usize;
    let mut circles: Vec<Circle> = Vec::with_capacity(wanted);
    for _ in 0..wanted * 20 {
        if circles.len() >= wanted {
            break;
        }
        let c = Circle {
            centre: Vec2::new(rng.range(0.2 * w, 0.8 * w), rng.range(0.08 * h, 0.92 * h)),
            radius: rng.range(3.0, 8.0),
        };
        if circles.iter().all(|o| o.centre.distance(c.centre) > o.radius + c.radius + 6.0) {
            circles.push(c);
        }
    }
    let mut crowd = with(
        SpeciesParams::named("eastbound"),
        &[
            (Behaviour::Seek, 1.0),
            (Behaviour::ObstacleAvoidance, 3.0),
            (Behaviour::UnalignedAvoidance, 1.5),
            (Behaviour::Separation, 1.5),
            (Behaviour::Containment, 2.5),
        ],
    );
    crowd.goal.reached_radius = 18.0;
    crowd.separation.radius = 3.0;
    crowd.combine = Combine::WeightedSum;
    let westbound = SpeciesParams { name: "westbound".to_string(), ..crowd.clone() };
    let mut world = Boids::new(walls, vec![crowd, westbound], BoidsParams::default(), seed)?;
    world.set_circles(circles);
    world.set_goals(vec![Vec2::new(0.94 * w, 0.5 * h), Vec2::new(0.06 * w, 0.5 * h)]);
    let east = agents / 2;
    world.spawn(0, east, Some([0.0, 0.0, 0.18 * w, h]))?;
    world.spawn(1, agents - east, Some([0.82 * w, 0.0, w, h]))?;
    world.goals_by_species();
    Ok(world)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_builds_with_zero_one_and_the_default_count() {
        for s in Scenario::ALL {
            for n in [0, 1, s.default_agents()] {
                let mut w = s.build(n, 1).unwrap();
                assert_eq!(w.len(), n, "{s}");
                w.advance(3);
                assert!(w.xs().iter().chain(w.ys()).all(|v| v.is_finite()));
            }
        }
    }

    #[test]
    fn the_maze_is_connected() {
        let mut rng = Pcg32::new(5);
        let grid = maze(6, 4, 3, &mut rng).unwrap();
        let open: Vec<usize> = (0..grid.len()).filter(|&i| grid.cells()[i] != WALL).collect();
        let mut seen = vec![false; grid.len()];
        let mut stack = vec![open[0]];
        seen[open[0]] = true;
        let mut count = 0;
        while let Some(i) = stack.pop() {
            count += 1;
            grid.for_each_neighbour(i, crate::grid::Diagonal::Never, |j, _| {
                if !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            });
        }
        assert_eq!(count, open.len());
    }
}
