//! `pathlab scen`: one JSON line per problem, a summary, and the optional `--check`.

use std::fmt;
use std::io::{self, BufWriter, Write};

use pathlab_core::grid::Diagonal;

use crate::args::Run;
use crate::problems::{load, mismatch, Solver};
use crate::Failure;

/// How many mismatches `--check` describes one by one before it only counts them.
const SHOWN_MISMATCHES: usize = 20;

/// A number as JSON writes it: `null` when it is not finite.
struct JsonNumber(Option<f64>);

impl fmt::Display for JsonNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Rust prints f64 without an exponent and with the shortest digits that read back
        // the same value: a valid JSON number.
        match self.0 {
            Some(v) if v.is_finite() => write!(f, "{v}"),
            _ => f.write_str("null"),
        }
    }
}

/// Runs the problems, prints their JSON lines and the summary, and applies `--check`.
pub fn run(run: &Run) -> Result<(), Failure> {
    let loaded = load(run)?;
    let config = run.config(run.algorithms[0]);
    // The .scen optima hold for no corner cutting only; under another rule there is nothing
    // to compare with.
    let comparable = run.diagonal == Diagonal::NoCornerCutting;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut found = 0usize;
    let mut expanded = 0usize;
    let mut micros = 0.0;
    let mut mismatches = Vec::new();
    // Problems where the search stopped short (IDA* at its visit limit): "cost":null there
    // means "gave up", not "no path", and stderr says so.
    let mut gave_up = Vec::new();
    // The navmesh and the visibility graph are built once, before the first problem; their
    // sizes and build times go in the summary.
    let mut navmesh_text = String::new();
    let mut graph = None;
    if let Some((_, first)) = loaded.problems.first() {
        let mut solver = Solver::new(loaded.grid.clone(), first, config, &run.scen)?;
        if let Some((polygons, micros, build)) = solver.navmesh_build() {
            navmesh_text = format!(", navmesh of {polygons} polygons built in {:.3} ms ({build})", micros / 1000.0);
        }
        graph = solver.graph_build();
        for (index, p) in &loaded.problems {
            let outcome = solver.solve(p)?;
            found += usize::from(outcome.cost.is_some());
            expanded += outcome.expanded;
            micros += outcome.micros;
            writeln!(
                out,
                "{{\"index\":{index},\"start\":[{},{}],\"goal\":[{},{}],\"optimal\":{},\"cost\":{},\"expanded\":{},\"micros\":{:.3}}}",
                p.start.x,
                p.start.y,
                p.goal.x,
                p.goal.y,
                JsonNumber(Some(p.optimal)),
                JsonNumber(outcome.cost),
                outcome.expanded,
                outcome.micros
            )?;
            if let Some(why) = &outcome.gave_up {
                gave_up.push(format!("{}: line {} (problem {index}): {why}", run.scen.display(), p.line));
            }
            if comparable {
                if let Some(why) = mismatch(&config, p, outcome.cost) {
                    let why = if outcome.gave_up.is_some() {
                        format!("{} gave up (see above); the optimum is {}", config.algorithm, p.optimal)
                    } else {
                        why
                    };
                    mismatches.push(format!("{}: line {} (problem {index}): {why}", run.scen.display(), p.line));
                }
            }
        }
    }
    out.flush()?;
    drop(out);

    let n = loaded.problems.len();
    let mean = if n == 0 { 0.0 } else { expanded as f64 / n as f64 };
    let mismatch_text = if comparable {
        format!("{} mismatches", mismatches.len())
    } else {
        "mismatches not counted (the optima assume no-corner-cutting)".to_string()
    };
    let mut err = io::stderr().lock();
    for line in gave_up.iter().take(SHOWN_MISMATCHES) {
        writeln!(err, "pathlab: {line}")?;
    }
    if gave_up.len() > SHOWN_MISMATCHES {
        writeln!(err, "pathlab: ... and {} more problems where the search gave up", gave_up.len() - SHOWN_MISMATCHES)?;
    }
    let gave_up_text = if gave_up.is_empty() { String::new() } else { format!(", {} gave up", gave_up.len()) };
    let graph_text = graph.map_or(String::new(), |g| {
        let (vertices, ms) = (g.vertices, g.micros / 1000.0);
        format!(", visibility graph ({vertices} vertices; edges found as each search needs them) built in {ms:.3} ms")
    });
    if run.check {
        for line in mismatches.iter().take(SHOWN_MISMATCHES) {
            writeln!(err, "pathlab: {line}")?;
        }
        if mismatches.len() > SHOWN_MISMATCHES {
            writeln!(err, "pathlab: ... and {} more mismatches", mismatches.len() - SHOWN_MISMATCHES)?;
        }
    }
    writeln!(
        err,
        "pathlab scen: {n} problems (of {}), {found} found{gave_up_text}, {mismatch_text}, mean expanded {mean:.1}, total {:.3} ms{navmesh_text}{graph_text} [{}, heuristic {}, weight {}, diagonal {}]",
        loaded.total,
        micros / 1000.0,
        config.algorithm,
        config.heuristic,
        config.weight,
        config.diagonal
    )?;
    if run.check && !mismatches.is_empty() {
        let kind = if config.is_optimal() { "optimal" } else { "non-optimal" };
        return Err(Failure::check(format!(
            "--check failed: {} of {n} problems disagree with the optima in {} ({kind} {})",
            mismatches.len(),
            run.scen.display(),
            config.algorithm
        )));
    }
    Ok(())
}
