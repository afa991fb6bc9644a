//! `pathlab compare`: the same problems under several algorithms, as a table.

use std::io::{self, Write};

use pathlab_core::grid::Diagonal;
use pathlab_core::search::{Algorithm, SearchConfig};

use crate::args::Run;
use crate::problems::{load, Loaded, Solver};
use crate::Failure;

/// One row of a table, its cells as printed.
type Row<const N: usize> = [String; N];

/// One algorithm's totals over the problems.
#[derive(Clone, Debug, Default)]
struct Totals {
    problems: usize,
    found: usize,
    expanded: usize,
    cost: f64,
    micros: f64,
    /// Percentages over the reference cost, one per found problem that has one.
    over: Vec<f64>,
    /// The cost of each problem, in order (`None` where no path was found).
    costs: Vec<Option<f64>>,
}

/// The label of a configuration in the table: the algorithm, with its heuristic and weight
/// when it uses them.
fn label(config: &SearchConfig) -> String {
    if !config.algorithm.uses_heuristic() {
        config.algorithm.to_string()
    } else if config.algorithm == Algorithm::AStar && config.weight != 1.0 {
        format!("{} ({}, w {})", config.algorithm, config.heuristic, config.weight)
    } else {
        format!("{} ({})", config.algorithm, config.heuristic)
    }
}

/// Runs every algorithm on the chosen problems and prints the table.
pub fn run(run: &Run) -> Result<(), Failure> {
    let loaded = load(run)?;
    let Some((_, first)) = loaded.problems.first() else {
        return Err(Failure::input(format!("{}: holds no problems", run.scen.display())));
    };
    let mut solver = Solver::new(loaded.grid.clone(), first, run.config(Algorithm::Dijkstra), &run.scen)?;

    // What a cheapest path costs: the .scen optimum under the rule it assumes, otherwise
    // Dijkstra's cost under the rule asked for. Each with how far a cost may stray from it.
    let by_scen = run.diagonal == Diagonal::NoCornerCutting;
    let mut reference = Vec::with_capacity(loaded.problems.len());
    for (_, p) in &loaded.problems {
        if by_scen {
            reference.push(Some((p.optimal, p.tolerance)));
        } else {
            reference.push(solver.solve(p)?.cost.map(|c| (c, 1e-9 * c.max(1.0))));
        }
    }

    let mut rows = Vec::new();
    for &algorithm in &run.algorithms {
        let config = run.config(algorithm);
        solver.set_config(config)?;
        let mut t = Totals::default();
        for ((_, p), reference) in loaded.problems.iter().zip(&reference) {
            let outcome = solver.solve(p)?;
            t.problems += 1;
            t.expanded += outcome.expanded;
            t.micros += outcome.micros;
            t.costs.push(outcome.cost);
            let Some(cost) = outcome.cost else { continue };
            t.found += 1;
            t.cost += cost;
            if let Some((best, tolerance)) = *reference {
                if best > 0.0 {
                    let over = if (cost - best).abs() <= tolerance { 0.0 } else { (cost - best) / best * 100.0 };
                    t.over.push(over.max(0.0));
                }
            }
        }
        rows.push((label(&config), algorithm, t));
    }
    let exact = any_angle_table(run, &loaded, &rows)?;

    let mut table = vec![[
        "algorithm",
        "problems",
        "found",
        "mean expanded",
        "mean cost",
        "subopt mean %",
        "subopt max %",
        "mean µs",
    ]
    .map(String::from)];
    for (name, _, t) in rows {
        let per = |total: f64, n: usize| if n == 0 { "-".to_string() } else { format!("{:.1}", total / n as f64) };
        let over_mean = if t.over.is_empty() { f64::NAN } else { t.over.iter().sum::<f64>() / t.over.len() as f64 };
        let over_max = t.over.iter().copied().fold(f64::NAN, f64::max);
        let percent = |v: f64| if v.is_nan() { "-".to_string() } else { format!("{v:.3}") };
        table.push([
            name,
            t.problems.to_string(),
            t.found.to_string(),
            per(t.expanded as f64, t.problems),
            if t.found == 0 { "-".to_string() } else { format!("{:.3}", t.cost / t.found as f64) },
            percent(over_mean),
            percent(over_max),
            if t.problems == 0 { "-".to_string() } else { format!("{:.2}", t.micros / t.problems as f64) },
        ]);
    }

    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{} problems of {} ({} in the file) on {}, diagonal {}; suboptimality is over {}",
        loaded.problems.len(),
        run.scen.display(),
        loaded.total,
        run.map.display(),
        run.diagonal,
        if by_scen { "the .scen optima" } else { "Dijkstra's cost under this rule" }
    )?;
    writeln!(out)?;
    write_table(&mut out, &table)?;
    if let Some((heading, exact)) = exact {
        writeln!(out)?;
        writeln!(out, "{heading}")?;
        writeln!(out)?;
        write_table(&mut out, &exact)?;
    }
    out.flush()?;
    Ok(())
}

/// The second table, when an any-angle algorithm is compared: each any-angle algorithm's
/// length against the exact any-angle optimum, the visibility graph's, computed here for the
/// same problems whether or not `visibility` is among the algorithms. Returns its heading
/// line and rows.
fn any_angle_table(
    run: &Run,
    loaded: &Loaded,
    rows: &[(String, Algorithm, Totals)],
) -> Result<Option<(String, Vec<Row<4>>)>, Failure> {
    if !rows.iter().any(|(_, a, _)| a.is_any_angle()) {
        return Ok(None);
    }
    let Some((_, first)) = loaded.problems.first() else { return Ok(None) };
    let mut exact = Solver::new(loaded.grid.clone(), first, run.config(Algorithm::Visibility), &run.scen)?;
    let mut best = Vec::with_capacity(loaded.problems.len());
    for (_, p) in &loaded.problems {
        best.push(exact.solve(p)?.cost);
    }
    let mut table = vec![["algorithm", "compared", "longer mean %", "longer max %"].map(String::from)];
    for (name, _, t) in rows.iter().filter(|(_, a, _)| a.is_any_angle()) {
        let longer: Vec<f64> = t
            .costs
            .iter()
            .zip(&best)
            .filter_map(|(&cost, &best)| match (cost, best) {
                (Some(c), Some(b)) if b > 0.0 => {
                    Some(if (c - b).abs() <= 1e-9 * b.max(1.0) { 0.0 } else { (c - b) / b * 100.0 })
                }
                _ => None,
            })
            .collect();
        let mean = if longer.is_empty() { f64::NAN } else { longer.iter().sum::<f64>() / longer.len() as f64 };
        let max = longer.iter().copied().fold(f64::NAN, f64::max);
        let percent = |v: f64| if v.is_nan() { "-".to_string() } else { format!("{v:.3}") };
        table.push([name.clone(), longer.len().to_string(), percent(mean), percent(max)]);
    }
    let built = exact.graph_build().map_or(String::new(), |g| {
        format!(
            ": {} vertices (edges found as each search needs them), built in {:.3} ms",
            g.vertices,
            g.micros / 1000.0
        )
    });
    let heading = format!(
        "any-angle length against the exact optimum (visibility graph{built}), % longer, on the problems both solved"
    );
    Ok(Some((heading, table)))
}

/// Writes rows in aligned columns: the first left-aligned, the rest right-aligned, with a
/// rule under the header.
fn write_table<const N: usize>(out: &mut impl Write, rows: &[[String; N]]) -> io::Result<()> {
    let mut widths = [0usize; N];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for (r, row) in rows.iter().enumerate() {
        let mut line = String::new();
        for (c, (cell, &w)) in row.iter().zip(&widths).enumerate() {
            let pad = " ".repeat(w - cell.chars().count());
            if c == 0 {
                line.push_str(cell);
                line.push_str(&pad);
            } else {
                line.push_str("  ");
                line.push_str(&pad);
                line.push_str(cell);
            }
        }
        writeln!(out, "{}", line.trim_end())?;
        if r == 0 {
            let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
            writeln!(out, "{}", rule.join("  "))?;
        }
    }
    Ok(())
}
