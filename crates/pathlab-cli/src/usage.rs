//! The usage text printed by `pathlab help`. The algorithms it names come from the core's
//! registry ([`ALGORITHMS`](pathlab_core::search::ALGORITHMS)): which `--algo` values exist,
//! which run on graphs and hex grids, which are any-angle or optimal and which take each
//! setting. So a new algorithm appears here without an edit.

use pathlab_core::search::{Algorithm, AlgorithmInfo, Optimality, Setting};

/// How wide the text is, in characters.
const WIDTH: usize = 94;
/// Where an option's words start.
const OPTION_COLUMN: usize = 20;

/// The usage text printed by `pathlab help`.
pub fn usage() -> String {
    let any_space = names(|r| r.square_grid_only.is_none() && r.on_page);
    let any_angle = names(|r| r.any_angle);
    let always = names(|r| r.optimal == Optimality::Always && !r.any_angle);
    let if_admissible = names(|r| r.optimal == Optimality::IfAdmissible && !r.any_angle);
    let exact_any_angle = names(|r| r.optimal == Optimality::Always && r.any_angle);
    let takes = |setting| names(|r: &AlgorithmInfo| r.takes(setting));
    let mut out = String::from(
        "\
pathlab: run path-finding on MovingAI benchmark problems, grids, hex grids and graphs

usage:
  pathlab scen MAP SCEN [options] [--check]
      Runs every problem of the .scen file on the .map file and prints one JSON line per
      problem on stdout:
        {\"index\":0,\"start\":[x,y],\"goal\":[x,y],\"optimal\":o,\"cost\":c,\"expanded\":n,\"micros\":t}
      (cost is null when there is no path; micros is the search time in microseconds), then
      a one-line summary on stderr.
  pathlab compare MAP SCEN --algos a,b,c [options]
      Runs the problems with each algorithm and prints a table: problems solved, mean
      expanded, mean cost, suboptimality (mean and max % over the optimum) and mean time.
      When an any-angle algorithm is compared, a second table gives each any-angle
      algorithm's mean and max % longer than the exact any-angle optimum (visibility).
  pathlab path FILE --start S --goal G [--algo A] [--space grid|hex|graph|navmesh|corners] [--heuristic H]
             [--diagonal RULE] [--weight W] [--costs real|integer] [--layout pointy|flat]
             [--costs-on links|nodes]
      Runs one search and prints one JSON object on stdout:
        {\"cost\": c, \"path\": [...], \"expanded\": n, \"micros\": t}
",
    );
    out += &path_details(&any_space);
    out += "  pathlab help | --help | -h\n  pathlab --version\n\noptions:\n";
    out += &option(
        "--algo A",
        &format!(
            "scen: {} (default astar). navmesh: A* over the navmesh's polygons then the funnel, \
             from cell centre to cell centre; cost is the any-angle path's length, expanded counts \
             polygons. visibility: the exact any-angle shortest path (the visibility graph of the \
             walls' corners, built once per map; its build time is in the summary)",
            names(|_| true)
        ),
    );
    out += &option("--algos A,B,...", "compare: the algorithms to compare, comma-separated");
    out += &option(
        "--diagonal RULE",
        "never, no-corner-cutting, at-most-one-blocked or always (default no-corner-cutting, the \
         rule the .scen optima assume)",
    );
    out += &option(
        "--heuristic H",
        "manhattan, octile, euclidean, chebyshev or zero (default octile when 8-connected, \
         manhattan with --diagonal never)",
    );
    out += &option("--weight W", "A* weight, a number from 1 to 100 (default 1)");
    out += &option(
        "--lookahead N",
        &format!("look-ahead depth in moves ({}), 1 to 16 (default 1)", takes(Setting::Lookahead)),
    );
    out += &option("--sensor N", &format!("sensor radius in cells ({}), 0 to 64 (default 3)", takes(Setting::Sensor)));
    out +=
        &option("--cluster N", &format!("cluster side in cells ({}), 4 to 128 (default 10)", takes(Setting::Cluster)));
    out += &option(
        "--hand H",
        &format!("{}: left, right, least-deviation or random (default left)", takes(Setting::Hand)),
    );
    out += &option("--limit N", "take only the first N problems of the file");
    out += &option(
        "--sample N",
        "take N evenly spaced problems (after --limit): problem i*M/N for i = 0..N of the M on \
         offer; all of them when N >= M",
    );
    out += &option(
        "--check",
        &format!(
            "scen: exit 1 when a result disagrees with the .scen optimum beyond its tolerance. An \
             optimal algorithm ({always} always; {if_admissible} with weight 1 and an admissible \
             heuristic) must match it; an any-angle one ({any_angle}) must find a path no shorter \
             than the straight line from start to goal (the optimum is the 8-connected grid's, \
             which any-angle paths may beat), and {exact_any_angle}'s no dearer than the optimum; \
             any other must find a path no cheaper than it. Only with --diagonal \
             no-corner-cutting."
        ),
    );
    out += "\nexit status: 0 done, 1 --check found a mismatch, 2 bad arguments or input (the message names\n\
            the file, the line and the problem).\n";
    out
}

/// The URL names of the algorithms whose registry row passes `keep`, in the order of
/// [`Algorithm::ALL`], as a list in words (`a, b or c`).
fn names(keep: impl Fn(&AlgorithmInfo) -> bool) -> String {
    let list: Vec<&str> = Algorithm::ALL.iter().filter(|a| keep(a.info())).map(|a| a.name()).collect();
    match list.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// One option: its name, then its words from [`OPTION_COLUMN`], wrapped.
fn option(name: &str, words: &str) -> String {
    let text = wrap(OPTION_COLUMN, OPTION_COLUMN, words);
    format!("  {name:<width$}{}", &text[OPTION_COLUMN..], width = OPTION_COLUMN - 2)
}

/// `words` wrapped to [`WIDTH`]: the first line indented by `first`, the others by `rest`.
fn wrap(first: usize, rest: usize, words: &str) -> String {
    let mut out = String::new();
    let mut line = " ".repeat(first);
    let mut empty = true;
    for word in words.split_whitespace() {
        if !empty && line.len() + 1 + word.len() > WIDTH {
            out += &line;
            out.push('\n');
            line = " ".repeat(rest);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line += word;
        empty = false;
    }
    out += &line;
    out.push('\n');
    out
}

/// What `pathlab path` prints and reads, after its usage line; `any_space` names the
/// algorithms that run on graphs and hex grids.
fn path_details(any_space: &str) -> String {
    wrap(
        6,
        6,
        &format!(
            "(cost is null when there is no path). FILE is a course data file or MovingAI .map \
             (space grid, or hex: each cell a hex, pointy tops unless --layout flat), or a graph \
             file (JSON) or weight matrix (space graph; chosen by itself for .json files and for \
             files that start with {{ or #). On grids --start and --goal are x,y (or A and B for a \
             course file's marks), on graphs node ids. On graphs and hex grids only {any_space} \
             run; the default heuristic is then the straight line times the graph's smallest cost \
             per unit of length, or the hex distance. With --space navmesh (or --algo navmesh) on \
             a grid file, A* runs over the navmesh's polygons from the start cell's centre to the \
             goal cell's centre and the funnel pulls the string: path entries are the path's \
             corners [x, y] in cell units (a cell's centre is x + 0.5, y + 0.5), cost is its \
             length, expanded counts polygons. Space corners searches a grid file's corner graph \
             (cell corners joined by sight) from the centre of the --start cell to the centre of \
             the --goal cell, by the straight-line estimate; its path entries are points in cells, \
             [x, y] at corners and [x.5, y.5] at centres. On a graph --costs-on nodes makes a move cost \
             the weight of the node it enters (its \"cost\" in the file, 1 unless given), not its edge's."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of `--algo`'s paragraph, up to its default (wherever the lines break).
    fn algo_paragraph(text: &str) -> String {
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let start = words.find("--algo A").expect("an --algo option");
        let end = start + words[start..].find("(default astar)").expect("its default");
        words[start..end].to_string()
    }

    #[test]
    fn the_algo_option_names_every_algorithm_of_the_registry() {
        let paragraph = algo_paragraph(&usage());
        for &a in Algorithm::ALL {
            let name = a.name();
            let listed = paragraph.split([' ', ',']).any(|w| w == name);
            assert!(listed, "--algo does not name {name}: {paragraph}");
        }
    }

    #[test]
    fn graphs_and_hex_grids_list_exactly_the_algorithms_that_run_on_any_space() {
        let text = usage().split_whitespace().collect::<Vec<_>>().join(" ");
        let lead = "On graphs and hex grids only ";
        let start = text.find(lead).expect("the sentence") + lead.len();
        let end = start + text[start..].find(" run;").expect("its end");
        let mut listed: Vec<&str> =
            text[start..end].split([' ', ',']).filter(|w| !w.is_empty() && *w != "or").collect();
        let mut expected: Vec<&str> =
            Algorithm::ALL.iter().filter(|a| a.runs_on_any_space() && a.steps_on_cells()).map(|a| a.name()).collect();
        listed.sort_unstable();
        expected.sort_unstable();
        assert_eq!(listed, expected);
        // The basic searches and the searches written over a space, by hand.
        for name in ["bfs", "dfs", "dijkstra", "greedy", "astar", "bi-astar", "ida", "lpa", "dstar-lite", "lrta", "rta"]
        {
            assert!(listed.contains(&name), "{name}");
        }
    }

    #[test]
    fn no_line_is_wider_than_the_text_except_the_path_synopsis() {
        for line in usage().lines() {
            assert!(line.len() <= WIDTH || line.starts_with("  pathlab path FILE"), "{line:?}");
        }
    }

    #[test]
    fn a_list_reads_as_words() {
        assert_eq!(names(|r| r.algorithm == Algorithm::Bfs), "bfs");
        assert_eq!(names(|r| matches!(r.algorithm, Algorithm::Bfs | Algorithm::Dfs)), "bfs or dfs");
        assert_eq!(names(|r| r.takes(Setting::Sensor)), "dstar-lite, lrta, rta or explorer");
    }
}
