//! Distance estimates from a cell to the goal.

use crate::grid::{named_enum, Costs, Diagonal};

named_enum! {
    /// How A* and greedy best-first estimate the remaining cost.
    ///
    /// Each is measured in the units of the cost model, so with [`Costs::Integer`] the octile
    /// estimate of a move one right and one down is 14.
    ///
    /// ```
    /// use pathlab_core::grid::Costs;
    /// use pathlab_core::heuristic::Heuristic;
    /// assert_eq!(Heuristic::Manhattan.estimate(3, 2, Costs::Integer), 50.0);
    /// assert_eq!(Heuristic::Octile.estimate(3, 2, Costs::Integer), 38.0);
    /// assert_eq!(Heuristic::Chebyshev.estimate(3, 2, Costs::Real), 3.0);
    /// ```
    Heuristic, "heuristic" {
        /// |dx| + |dy| straight moves: exact on an open 4-connected grid, too high with diagonals.
        Manhattan = 0, "manhattan";
        /// min(|dx|,|dy|) diagonal moves plus the rest straight: exact on an open 8-connected grid.
        Octile = 1, "octile";
        /// Straight-line distance: never too high with real costs.
        Euclidean = 2, "euclidean";
        /// max(|dx|,|dy|) straight moves: counts a diagonal as cheap as a straight move.
        Chebyshev = 3, "chebyshev";
        /// Always 0: A* becomes Dijkstra.
        Zero = 4, "zero";
    }
}

impl Heuristic {
    /// Estimated cost of `dx` columns and `dy` rows (absolute differences).
    #[inline]
    pub fn estimate(self, dx: usize, dy: usize, costs: Costs) -> f64 {
        let (dx, dy) = (dx as f64, dy as f64);
        let d = costs.straight();
        match self {
            Self::Manhattan => d * (dx + dy),
            Self::Octile => {
                let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
                costs.diagonal() * lo + d * (hi - lo)
            }
            Self::Euclidean => d * dx.hypot(dy),
            Self::Chebyshev => d * dx.max(dy),
            Self::Zero => 0.0,
        }
    }

    /// The distance between two places `dx` and `dy` apart in the plane (real numbers, one
    /// unit per unit of length), as graphs use it: Manhattan |dx| + |dy|, octile
    /// (sqrt 2 - 1) min + max, Euclidean, Chebyshev max, zero.
    ///
    /// ```
    /// use pathlab_core::heuristic::Heuristic;
    /// assert_eq!(Heuristic::Euclidean.on_plane(3.0, 4.0), 5.0);
    /// assert_eq!(Heuristic::Manhattan.on_plane(3.0, 4.0), 7.0);
    /// ```
    #[inline]
    pub fn on_plane(self, dx: f64, dy: f64) -> f64 {
        match self {
            Self::Manhattan => dx + dy,
            Self::Octile => (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy) + dx.max(dy),
            // Not `hypot`: places are finite and far from overflow, and `hypot`'s care costs
            // more than the rest of a graph search's push.
            Self::Euclidean => (dx * dx + dy * dy).sqrt(),
            Self::Chebyshev => dx.max(dy),
            Self::Zero => 0.0,
        }
    }

    /// The tightest estimate that never overestimates on an open grid under `rule`:
    /// Manhattan when 4-connected, octile otherwise.
    pub const fn default_for(rule: Diagonal) -> Self {
        if rule.is_eight_connected() {
            Self::Octile
        } else {
            Self::Manhattan
        }
    }

    /// True when this estimate never exceeds the true remaining cost under `rule` and `costs`
    /// (terrain only makes moves dearer, so this holds on any grid).
    ///
    /// Euclidean is not admissible with the integer costs on an 8-connected grid: it puts a
    /// diagonal at 10 x sqrt(2) = 14.14, above the 14 that the move costs.
    pub const fn is_admissible(self, rule: Diagonal, costs: Costs) -> bool {
        match self {
            Self::Manhattan => !rule.is_eight_connected(),
            Self::Euclidean => matches!(costs, Costs::Real) || !rule.is_eight_connected(),
            Self::Octile | Self::Chebyshev | Self::Zero => true,
        }
    }
}
