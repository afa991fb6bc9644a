//! Command-line parsing, by hand: two commands with a handful of options each.

use std::ffi::OsString;
use std::path::PathBuf;

use pathlab_core::grid::Diagonal;
use pathlab_core::heuristic::Heuristic;
use pathlab_core::search::{Algorithm, Hand, SearchConfig};

use crate::Failure;

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Print the usage text.
    Help,
    /// Print the version.
    Version,
    /// `pathlab scen`.
    Scen(Run),
    /// `pathlab compare`.
    Compare(Run),
    /// `pathlab path`.
    Path(crate::path::PathRun),
}

/// The files and options of `scen` and `compare`.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The `.map` file.
    pub map: PathBuf,
    /// The `.scen` file.
    pub scen: PathBuf,
    /// The algorithms: one for `scen`, one or more for `compare`.
    pub algorithms: Vec<Algorithm>,
    /// The diagonal rule.
    pub diagonal: Diagonal,
    /// The heuristic, when given (otherwise the default for the rule).
    pub heuristic: Option<Heuristic>,
    /// The A* weight.
    pub weight: f64,
    /// The look-ahead, sensor, cluster and hand settings (the rest of this value is unused).
    pub extra: SearchConfig,
    /// Take only the first this many problems.
    pub limit: Option<usize>,
    /// Then take this many evenly spaced problems.
    pub sample: Option<usize>,
    /// Compare each result with the .scen optimum and fail on a mismatch.
    pub check: bool,
}

impl Run {
    /// The search settings for `algorithm` under these options.
    pub fn config(&self, algorithm: Algorithm) -> SearchConfig {
        SearchConfig::new(algorithm)
            .diagonal(self.diagonal)
            .heuristic(self.heuristic.unwrap_or_else(|| Heuristic::default_for(self.diagonal)))
            .weight(self.weight)
            .lookahead(self.extra.lookahead)
            .sensor(self.extra.sensor)
            .cluster(self.extra.cluster)
            .hand(self.extra.hand)
    }

    /// The indices of the problems to run, out of `total`: the first `limit`, then `sample`
    /// of those evenly spaced.
    ///
    /// Problem `i * m / n` for `i` in `0..n`, where `m` is the number left after the limit
    /// and `n` the sample size; every problem when `n >= m`.
    pub fn selection(&self, total: usize) -> Vec<usize> {
        let m = self.limit.map_or(total, |l| l.min(total));
        match self.sample {
            Some(n) if n < m => (0..n).map(|i| i * m / n).collect(),
            _ => (0..m).collect(),
        }
    }
}

/// Reads the command line (without the program name).
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, Failure> {
    let mut args = args.into_iter();
    let Some(first) = args.next() else {
        return Err(Failure::usage("no command given"));
    };
    let command = first.to_string_lossy().into_owned();
    match command.as_str() {
        "help" | "--help" | "-h" => Ok(Command::Help),
        "--version" | "-V" | "version" => Ok(Command::Version),
        "scen" => parse_run("scen", args).map(Command::Scen),
        "compare" => parse_run("compare", args).map(Command::Compare),
        "path" => crate::path::parse(args).map(Command::Path),
        other => Err(Failure::usage(format!("unknown command {}", shorten(other)))),
    }
}

/// Reads the files and options of `scen` or `compare`.
fn parse_run(command: &'static str, mut args: impl Iterator<Item = OsString>) -> Result<Run, Failure> {
    let mut files: Vec<PathBuf> = Vec::new();
    let mut algorithms = None;
    let mut diagonal = Diagonal::NoCornerCutting;
    let mut heuristic = None;
    let mut weight = 1.0;
    let mut extra = SearchConfig::new(Algorithm::AStar);
    let mut limit = None;
    let mut sample = None;
    let mut check = false;
    let mut only_files = false;
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        if only_files || !text.starts_with("--") {
            if text.starts_with('-') && text.len() > 1 && !only_files {
                return Err(Failure::usage(format!("{command}: unknown option {}", shorten(&text))));
            }
            files.push(PathBuf::from(arg));
            continue;
        }
        if text == "--" {
            only_files = true;
            continue;
        }
        // `--name value` or `--name=value`.
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) => (name.to_string(), Some(value.to_string())),
            None => (text.into_owned(), None),
        };
        if name == "--check" {
            if command != "scen" {
                return Err(Failure::usage(format!("{command}: --check is an option of scen only")));
            }
            if inline.is_some() {
                return Err(Failure::usage("--check takes no value"));
            }
            check = true;
            continue;
        }
        let known = takes_value(command, &name);
        if !known {
            return Err(Failure::usage(format!("{command}: unknown option {}", shorten(&name))));
        }
        let value = match inline {
            Some(v) => v,
            None => args
                .next()
                .map(|v| v.to_string_lossy().into_owned())
                .ok_or_else(|| Failure::usage(format!("{name} needs a value")))?,
        };
        match name.as_str() {
            "--algo" => algorithms = Some(vec![parse_name::<Algorithm>(&name, &value)?]),
            "--algos" => {
                let list = value
                    .split(',')
                    .map(|a| parse_name::<Algorithm>(&name, a.trim()))
                    .collect::<Result<Vec<_>, _>>()?;
                algorithms = Some(list);
            }
            "--diagonal" => diagonal = parse_name(&name, &value)?,
            "--heuristic" => heuristic = Some(parse_name(&name, &value)?),
            "--weight" => weight = parse_weight(&value)?,
            "--limit" => limit = Some(parse_count(&name, &value)?),
            "--sample" => sample = Some(parse_count(&name, &value)?),
            "--lookahead" => extra.lookahead = parse_setting(&name, &value, SearchConfig::lookahead)?,
            "--sensor" => extra.sensor = parse_setting(&name, &value, SearchConfig::sensor)?,
            "--cluster" => extra.cluster = parse_setting(&name, &value, SearchConfig::cluster)?,
            "--hand" => extra.hand = parse_name::<Hand>(&name, &value)?,
            _ => unreachable!("every known option is handled"),
        }
    }
    let [map, scen] = <[PathBuf; 2]>::try_from(files)
        .map_err(|files| Failure::usage(format!("{command} needs two files, MAP and SCEN; found {}", files.len())))?;
    let algorithms = match (command, algorithms) {
        (_, Some(list)) => list,
        ("scen", None) => vec![Algorithm::AStar],
        (_, None) => return Err(Failure::usage("compare needs --algos, e.g. --algos astar,dijkstra")),
    };
    let run = Run { map, scen, algorithms, diagonal, heuristic, weight, extra, limit, sample, check };
    if run.check && run.diagonal != Diagonal::NoCornerCutting {
        return Err(Failure::usage(format!(
            "--check needs --diagonal no-corner-cutting: the .scen optima assume no corner cutting, not {}",
            run.diagonal
        )));
    }
    Ok(run)
}

/// True when `name` is an option of `command` that takes a value.
fn takes_value(command: &str, name: &str) -> bool {
    matches!(
        (command, name),
        ("scen", "--algo")
            | ("compare", "--algos")
            | (
                _,
                "--diagonal"
                    | "--heuristic"
                    | "--weight"
                    | "--limit"
                    | "--sample"
                    | "--lookahead"
                    | "--sensor"
                    | "--cluster"
                    | "--hand"
            )
    )
}

/// Reads one of the core's named values (algorithm, rule, heuristic).
fn parse_name<T>(option: &str, value: &str) -> Result<T, Failure>
where
    T: std::str::FromStr<Err = pathlab_core::grid::UnknownName>,
{
    value.parse().map_err(|e| Failure::usage(format!("{option}: {e}")))
}

/// Reads an A* weight: a number that the core accepts (1 to 100).
fn parse_weight(value: &str) -> Result<f64, Failure> {
    let weight: f64 = value
        .trim()
        .parse()
        .map_err(|_| Failure::usage(format!("--weight must be a number, found {}", shorten(value))))?;
    SearchConfig::new(Algorithm::AStar)
        .weight(weight)
        .validate()
        .map_err(|e| Failure::usage(format!("--weight: {e}")))?;
    Ok(weight)
}

/// Reads a whole-number setting and checks it as the core does (`set` puts it in a config).
fn parse_setting(option: &str, value: &str, set: impl Fn(SearchConfig, u32) -> SearchConfig) -> Result<u32, Failure> {
    let n: u32 = value
        .trim()
        .parse()
        .map_err(|_| Failure::usage(format!("{option} must be a whole number, found {}", shorten(value))))?;
    set(SearchConfig::new(Algorithm::AStar), n).validate().map_err(|e| Failure::usage(format!("{option}: {e}")))?;
    Ok(n)
}

/// Reads a problem count: a whole number of at least 1.
fn parse_count(option: &str, value: &str) -> Result<usize, Failure> {
    match value.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(Failure::usage(format!("{option} must be a whole number of at least 1, found {}", shorten(value)))),
    }
}

/// Quotes user text for a message, cut to a readable length.
fn shorten(text: &str) -> String {
    let short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        format!("{short:?}...")
    } else {
        format!("{short:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str) -> Result<Command, Failure> {
        parse(line.split_whitespace().map(OsString::from))
    }

    #[test]
    fn reads_scen_options() {
        let Ok(Command::Scen(r)) = run("scen a.map a.scen --algo dijkstra --limit 5 --check --weight=1.5") else {
            panic!("expected scen");
        };
        assert_eq!(r.algorithms, vec![Algorithm::Dijkstra]);
        assert_eq!(r.limit, Some(5));
        assert_eq!(r.weight, 1.5);
        assert!(r.check);
        assert_eq!(r.config(Algorithm::AStar).heuristic, Heuristic::Octile);
    }

    #[test]
    fn reads_the_settings_of_particular_algorithms() {
        let Ok(Command::Scen(r)) =
            run("scen a.map a.scen --algo lrta --lookahead 4 --sensor=0 --cluster 16 --hand right")
        else {
            panic!("expected scen");
        };
        let c = r.config(Algorithm::Lrta);
        assert_eq!((c.lookahead, c.sensor, c.cluster, c.hand), (4, 0, 16, Hand::Right));
        let Ok(Command::Scen(r)) = run("scen a.map a.scen") else { panic!() };
        let (d, c) = (SearchConfig::new(Algorithm::AStar), r.config(Algorithm::AStar));
        assert_eq!((c.lookahead, c.sensor, c.cluster, c.hand), (d.lookahead, d.sensor, d.cluster, d.hand));
    }

    #[test]
    fn default_heuristic_follows_the_rule() {
        let Ok(Command::Scen(r)) = run("scen a.map a.scen --diagonal never") else { panic!() };
        assert_eq!(r.config(Algorithm::AStar).heuristic, Heuristic::Manhattan);
    }

    #[test]
    fn refuses_bad_input() {
        for bad in [
            "scen a.map",
            "scen a.map a.scen --algo nope",
            "scen a.map a.scen --weight 0.5",
            "scen a.map a.scen --weight NaN",
            "scen a.map a.scen --weight",
            "scen a.map a.scen --limit 0",
            "scen a.map a.scen --lookahead 0",
            "scen a.map a.scen --lookahead 17",
            "scen a.map a.scen --sensor -1",
            "scen a.map a.scen --cluster 2",
            "scen a.map a.scen --cluster 1e9",
            "scen a.map a.scen --hand middle",
            "scen a.map a.scen --frobnicate",
            "scen a.map a.scen -x",
            "scen a.map a.scen --check --diagonal always",
            "compare a.map a.scen",
            "compare a.map a.scen --algos astar --check",
            "frob",
            "",
        ] {
            let err = run(bad).expect_err(bad);
            assert_eq!(err.code, 2, "{bad}");
        }
    }

    #[test]
    fn sample_is_evenly_spaced() {
        let Ok(Command::Scen(mut r)) = run("scen a.map a.scen --sample 4") else { panic!() };
        assert_eq!(r.selection(10), vec![0, 2, 5, 7]);
        assert_eq!(r.selection(3), vec![0, 1, 2]);
        r.limit = Some(8);
        assert_eq!(r.selection(10), vec![0, 2, 4, 6]);
        r.sample = None;
        assert_eq!(r.selection(5), vec![0, 1, 2, 3, 4]);
    }
}
