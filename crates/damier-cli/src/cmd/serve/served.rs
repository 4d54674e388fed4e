//! The commands the web lab serves through their command line, each with its bounds; with the
//! request layer's ([`damier_api::PATHS`], bounded there), the list of what the lab serves.
//!
//! `POST /api/<group>/<command>` runs a command only if it is in [`SERVED`] or the request
//! layer's, and the child runs it only once its bound accepted the parsed arguments. The
//! server's list of served commands (`damier_web::Settings::served`) is derived from these
//! ([`list`]), and so are the tests'.
//! Benchmarks, timings, exports and the multi-machine `sum` are not served: they measure the
//! machine or write files.
//!
//! The bounds are the server's, tighter than the library's own checks (which still apply in
//! the command), so that one page cannot keep the machine busy for hours. They are lifted by
//! `damier serve --allow-heavy` (the time limit and the job count still hold).
//!
//! A bound reads the values clap parsed from the very argument vector the command then runs
//! on (`clap::ArgMatches`), by their types, and the input files by the library's own readers:
//! whatever JSON shape a field had, the bound sees what runs. It fails closed: a command
//! without an entry here, or an argument whose id or type changed, is refused.

use std::any::TypeId;
use std::path::Path;

use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, Command};
pub use damier_web::live::{AUTOMATON_MAX_N, BOARD_MAX_SIDE};

use crate::util::InputFile;

/// Most automaton updates of one run.
pub const AUTOMATON_MAX_STEPS: u64 = 100_000_000;
/// Most boards one traced automaton run prints.
pub const AUTOMATON_MAX_TRACES: u64 = 10_000;
/// Most automaton updates of a trap search, all samples together.
pub const TRAP_MAX_UPDATES: u64 = 1_000_000_000;
/// Most worker threads one request may ask for (`threads`), the request layer's.
pub use damier_api::MAX_THREADS;

/// A served command's bound: refuses its parsed arguments when they exceed this server's
/// bounds, with a message naming the bound.
type Bound = fn(&Parsed<'_>) -> Result<(), String>;

/// The served commands still run through their command line, `(group, command, bound)`;
/// those of the request layer ([`damier_api::PATHS`]) have their bounds there.
pub const SERVED: &[(&str, &str, Bound)] = &[
    ("automaton", "run", automaton_run),
    ("automaton", "trap", automaton_trap),
    ("walk", "solve", walk_sides),
    ("walk", "count", walk_sides),
    // Bounded by its own range (to <= 300).
    ("walk", "table", unbounded),
    ("walk", "replay", walk_sides),
];

/// The served commands as `(group, command)`, for `damier_web::Settings::served`: the request
/// layer's, then those still run through their command line.
pub fn list() -> Vec<(String, String)> {
    let layer = damier_api::PATHS.iter().filter_map(|p| p.split_once('/'));
    let layer = layer.map(|(g, c)| (g.to_string(), c.to_string()));
    layer.chain(SERVED.iter().map(|&(g, c, _)| (g.to_string(), c.to_string()))).collect()
}

/// True if `group command` is served.
pub fn is_served(group: &str, command: &str) -> bool {
    SERVED.iter().any(|&(g, c, _)| g == group && c == command)
}

/// The advice at the end of every refusal.
const HEAVY: &str = "(start the server with --allow-heavy for more)";

/// Refuses the parsed arguments `m` of `group command` when they exceed its bounds; the
/// message names the bound. Input files are read where their size matters. A command that is
/// not served has no bounds, and is refused.
/// `definition` is the command's (`group command`'s) as clap defines it, `matches` what clap
/// parsed with it.
pub fn check(group: &str, command: &str, definition: &Command, matches: &ArgMatches) -> Result<(), String> {
    let Some(&(_, _, bound)) = SERVED.iter().find(|&&(g, c, _)| g == group && c == command) else {
        return Err(format!("`{group} {command}` has no bounds here, so it is not served"));
    };
    let m = &Parsed::new(definition, matches);
    if has(m, "threads") {
        at_most(m, "threads", MAX_THREADS)?;
    }
    // The server's GPU is not lent to requests: a GPU count or estimate, and the GPU's tuning,
    // are for the command line (or a server started with --allow-heavy). Every command with
    // these arguments (`queens count`, `queens estimate`).
    if raw_text(m, "device").ok().flatten().is_some_and(|d| d != "cpu") {
        return Err(format!("device other than cpu uses the server's GPU {HEAVY}"));
    }
    for id in ["gpu_adapter", "gpu_rows", "gpu_slots", "gpu_budget", "gpu_kernel", "gpu_ahead"] {
        if has(m, id) && m.matches.value_source(id) == Some(ValueSource::CommandLine) {
            return Err(format!("{id} tunes the server's GPU {HEAVY}"));
        }
    }
    bound(m)
}

/// A served command's parsed arguments beside its definition. The bounds read whether an
/// argument exists and its type from the definition: clap checks an id and a type against the
/// matches in debug builds only, and in a release build (the server's) an id the command does
/// not have, or an absent argument read as another type, reads as "not given", so a bound on a
/// renamed or retyped argument would pass everything.
pub struct Parsed<'a> {
    /// The command's definition, built (every argument with its value parser).
    definition: Command,
    /// What clap parsed.
    matches: &'a ArgMatches,
}

impl<'a> Parsed<'a> {
    fn new(definition: &Command, matches: &'a ArgMatches) -> Parsed<'a> {
        let mut definition = definition.clone();
        definition.build();
        Parsed { definition, matches }
    }

    /// The argument `id`, if the command has it.
    fn arg(&self, id: &str) -> Option<&Arg> {
        self.definition.get_arguments().find(|a| a.get_id() == id)
    }

    /// Whether the command has the argument `id` with values of type `T`.
    fn is<T: 'static>(&self, id: &str) -> bool {
        self.arg(id).is_some_and(|a| a.get_value_parser().type_id() == TypeId::of::<T>())
    }

    /// The value of `id` as a `T`: an error unless the command has `id` with values of type `T`.
    fn one<T: Clone + Send + Sync + 'static>(&self, id: &str) -> Result<Option<&'a T>, String> {
        if !self.is::<T>(id) {
            return Err(unreadable(id));
        }
        self.matches.try_get_one::<T>(id).map_err(|_| unreadable(id))
    }
}

/// Bounded by the library and the time limit.
fn unbounded(_: &Parsed<'_>) -> Result<(), String> {
    Ok(())
}

fn automaton_run(m: &Parsed<'_>) -> Result<(), String> {
    at_most(m, "n", AUTOMATON_MAX_N)?;
    if let Some(path) = input(m, "from")? {
        let text = std::fs::read_to_string(path).map_err(|e| format!("from: {e}"))?;
        // A position the parser refuses is the command's to refuse, with its message.
        if let Ok((n, _)) = damier::automaton::text::parse_position(&text)
            && u64::from(n) > AUTOMATON_MAX_N
        {
            return Err(format!(
                "from: a {n} x {n} position is above {AUTOMATON_MAX_N}, this server's bound {HEAVY}"
            ));
        }
    }
    at_most(m, "max_steps", AUTOMATON_MAX_STEPS)?;
    if let (Some(k), Some(steps)) = (number(m, "trace")?, number(m, "max_steps")?)
        && steps / k > AUTOMATON_MAX_TRACES
    {
        return Err(format!(
            "trace = {k} prints {} boards in {steps} updates: more than {AUTOMATON_MAX_TRACES}, \
             this server's bound {HEAVY}",
            steps / k
        ));
    }
    Ok(())
}

fn automaton_trap(m: &Parsed<'_>) -> Result<(), String> {
    let samples = number(m, "samples")?.unwrap_or(1);
    let steps = number(m, "max_steps")?.unwrap_or(0);
    if samples.saturating_mul(steps) > TRAP_MAX_UPDATES {
        return Err(format!(
            "samples x max_steps = {samples} x {steps} is above {TRAP_MAX_UPDATES} updates, \
             this server's bound {HEAVY}"
        ));
    }
    Ok(())
}

fn walk_sides(m: &Parsed<'_>) -> Result<(), String> {
    at_most(m, "rows", BOARD_MAX_SIDE)?;
    at_most(m, "cols", BOARD_MAX_SIDE)
}

/// Refuses the integer argument `id` above `max`, saying so when the value is the command's
/// default.
fn at_most(m: &Parsed<'_>, id: &str, max: u64) -> Result<(), String> {
    match number(m, id)? {
        Some(v) if v > max => {
            let default = if m.matches.value_source(id) == Some(ValueSource::DefaultValue) {
                format!(" (the command's default: give {id} at most {max})")
            } else {
                String::new()
            };
            Err(format!("{id} = {v} is above {max}, this server's bound{default} {HEAVY}"))
        }
        _ => Ok(()),
    }
}

/// Whether the command has an argument `id`.
fn has(m: &Parsed<'_>, id: &str) -> bool {
    m.arg(id).is_some()
}

/// The unsigned value of the integer argument `id`, whatever its integer type; an argument
/// that does not exist or is not an integer is an error (the bound would read nothing).
fn number(m: &Parsed<'_>, id: &str) -> Result<Option<u64>, String> {
    macro_rules! try_types {
        ($($t:ty),*) => {$(
            if m.is::<$t>(id) {
                return Ok(m.one::<$t>(id)?.map(|&v| u64::try_from(v).unwrap_or(u64::MAX)));
            }
        )*};
    }
    try_types!(u8, u16, u32, u64, usize, i32, i64);
    Err(unreadable(id))
}

/// The text the argument `id` was given as (its last value), whatever type it parses to.
fn raw_text(m: &Parsed<'_>, id: &str) -> Result<Option<String>, String> {
    if !has(m, id) {
        return Err(unreadable(id));
    }
    let values = m.matches.try_get_raw(id).map_err(|_| unreadable(id))?;
    Ok(values.and_then(|mut v| v.next_back()).map(|v| v.to_string_lossy().into_owned()))
}

/// The path of the input-file argument `id`.
fn input<'a>(m: &Parsed<'a>, id: &str) -> Result<Option<&'a Path>, String> {
    Ok(m.one::<InputFile>(id)?.map(|f| f.as_ref()))
}

/// The refusal when a bound cannot read its argument (a renamed or retyped option).
fn unreadable(id: &str) -> String {
    format!("this server cannot read `{id}` to bound it, so the request is not served")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::InputFile;
    use clap::{Arg, Command, value_parser};

    fn walk() -> Command {
        Command::new("solve")
            .arg(Arg::new("rows").value_parser(value_parser!(u32)))
            .arg(Arg::new("cols").value_parser(value_parser!(u32)))
            .arg(Arg::new("threads").long("threads").value_parser(value_parser!(u32)))
    }

    /// `check` of `group command`, defined as `c`, on `args`.
    fn bound(group: &str, command: &str, c: Command, args: &[&str]) -> Result<(), String> {
        let m = c.clone().no_binary_name(true).try_get_matches_from(args).unwrap();
        check(group, command, &c, &m)
    }

    #[test]
    fn bounds_read_the_parsed_values() {
        assert!(bound("walk", "solve", walk(), &["2000", "5"]).is_ok());
        let e = bound("walk", "solve", walk(), &["2001", "5"]).unwrap_err();
        assert!(e.contains("2000") && e.contains("--allow-heavy"), "{e}");
        assert!(bound("walk", "solve", walk(), &["8", "8", "--threads", "65"]).is_err());
        assert!(bound("walk", "solve", walk(), &["8", "8", "--threads", "2"]).is_ok());
        let gpu = || {
            walk()
                .arg(Arg::new("device").long("device").default_value("cpu"))
                .arg(Arg::new("gpu_rows").long("gpu-rows").value_parser(value_parser!(u32)))
        };
        assert!(bound("walk", "solve", gpu(), &["8", "8"]).is_ok());
        assert!(bound("walk", "solve", gpu(), &["8", "8", "--device", "cpu"]).is_ok());
        let e = bound("walk", "solve", gpu(), &["8", "8", "--device", "gpu"]).unwrap_err();
        assert!(e.contains("GPU") && e.contains("--allow-heavy"), "{e}");
        assert!(bound("walk", "solve", gpu(), &["8", "8", "--gpu-rows", "3"]).is_err());
    }

    #[test]
    fn input_files_are_bounded_by_what_they_hold() {
        let dir = tempfile::tempdir().unwrap();
        let pos = dir.path().join("pos");
        std::fs::write(&pos, ".".repeat(65).repeat_line(65)).unwrap();
        let run = || {
            Command::new("run")
                .arg(Arg::new("n").long("n").value_parser(value_parser!(u32)))
                .arg(Arg::new("from").long("from").value_parser(value_parser!(InputFile)))
                .arg(Arg::new("max_steps").long("max-steps").value_parser(value_parser!(u64)))
                .arg(Arg::new("trace").long("trace").value_parser(value_parser!(u64)))
        };
        let e = bound("automaton", "run", run(), &["--from", pos.to_str().unwrap()]).unwrap_err();
        assert!(e.contains("65 x 65"), "{e}");
        let e = bound("automaton", "run", run(), &["--n", "8", "--max-steps", "1000000", "--trace", "1"])
            .unwrap_err();
        assert!(e.contains("boards"), "{e}");
    }

    #[test]
    /// In both profiles: clap checks an id against the matches in debug builds only, so in
    /// the release build (the server's) a bound read an argument the command does not have as
    /// "not given" and passed it (`cargo test --release` failed here); and in either profile
    /// an absent argument of another type read as "not given" too.
    fn fails_closed() {
        // A command without rules, and a bound whose argument is missing or of another type.
        let e = bound("queens", "bench", Command::new("bench"), &[]).unwrap_err();
        assert!(e.contains("not served"), "{e}");
        let e = bound("walk", "solve", Command::new("solve"), &[]).unwrap_err();
        assert!(e.contains("cannot read `rows`"), "{e}");
        let text_rows = || Command::new("solve").arg(Arg::new("rows"));
        assert!(bound("walk", "solve", text_rows(), &["2001"]).is_err());
        let e = bound("walk", "solve", text_rows(), &[]).unwrap_err();
        assert!(e.contains("cannot read `rows`"), "{e}");
    }

    trait RepeatLine {
        fn repeat_line(&self, k: usize) -> String;
    }
    impl RepeatLine for String {
        fn repeat_line(&self, k: usize) -> String {
            format!("{self}\n").repeat(k)
        }
    }
}
