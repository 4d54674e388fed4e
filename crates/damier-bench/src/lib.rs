//! Benchmarks: every figure of the performance summary, measured by one call.
//!
//! A crate of this repository, not published: the library `damier` computes; this crate
//! times it for docs/performance.md and the CLI's `bench` commands (it reads `/proc` and
//! quotes other programs' timings, which a published library has no business doing).
//!
//! docs/performance.md once quoted figures from different days, loads and builds side by side.
//! Here each row of its summary is an [`Item`] (what to time, at which size); [`items`] lists
//! them for a [`Suite`] (the full report of a few minutes, a quick one for CI-like checks, a
//! tiny one for tests) and [`Item::run`] measures one as a [`BenchRow`]. The timed calls
//! themselves ([`timers`]) are shared with the per-problem `bench` commands of the CLI, so the
//! report and those commands measure the same thing. [`Machine`] says where it ran.
//!
//! Every timer checks the answer it timed (counts against OEIS A000170, presses replayed,
//! paths walked, solutions checked), so a row never reports the speed of a wrong result.
//!
//! ```
//! use damier_bench::{Suite, items};
//! use damier::control::Control;
//!
//! // The toy sizes of the test suite: every kind of row, each answer checked as it is timed.
//! let first = items(Suite::Tiny).into_iter().next().unwrap();
//! let row = first.run(&Control::new()).unwrap();
//! assert!(row.value > 0.0 && !row.command.is_empty());
//! ```
#![deny(missing_docs)]

mod error;
mod machine;
pub mod speed;
pub mod tables;
pub mod timers;

pub use error::BenchError;
pub use machine::{Machine, load_average};

use damier::automaton::{self, Model};
use damier::control::{Control, Interrupted};
use damier::cpu::Isa;
use damier::queens::count::{self, CountOptions, estimate};
use damier::util::number;

/// How much a report measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Suite {
    /// Every row of the summary at the summary's sizes: a few minutes on 2 cores.
    Full,
    /// One row per engine at sizes that keep it under about a minute (release build).
    Quick,
    /// Every kind of row at toy sizes, for tests of a debug build: the figures mean nothing.
    Tiny,
}

/// One thing timed: a row of the report.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// q(n), total and unique, on `threads` threads (0: one per core), best of `repeat`.
    QueensCount {
        /// Board size.
        n: u32,
        /// Threads (0: one per core).
        threads: usize,
        /// Runs, the best one kept.
        repeat: u32,
    },
    /// CPU time per solution found at n: `estimate`'s projected core time over q(n).
    QueensCost {
        /// Board size (one with a known q(n)).
        n: u32,
        /// Whole tasks timed.
        samples: u32,
        /// Seed of the draw.
        seed: u64,
    },
    /// One random solution of n queens by local search, checked.
    QueensLocal {
        /// Board size.
        n: u32,
        /// Random seed.
        seed: u64,
    },
    /// Updates per second of the queens automaton.
    AutomatonUpdates {
        /// Update rule.
        model: Model,
        /// Board side.
        n: u32,
        /// Threads (0: one per core).
        threads: usize,
        /// Wall seconds per measurement, about.
        seconds: f64,
    },
    /// Mean time of the queens automaton to a solution, one run after the other on one thread.
    AutomatonSolve {
        /// Update rule.
        model: Model,
        /// Board side.
        n: u32,
        /// Runs.
        samples: usize,
        /// Random seed of the first run (the others follow it).
        seed: u64,
    },
    /// A random `side x side` Lights Out start solved and verified.
    LightsSolve {
        /// Board side.
        side: usize,
        /// Solves, the best one kept.
        repeat: u32,
        /// Random seed of the start.
        seed: u64,
    },
    /// The nullities of every `n x n` Lights Out board, `n <= to`.
    LightsNullities {
        /// Largest side.
        to: usize,
    },
    /// The pawn walk on `side x side`, solved with its path (the `fast` method).
    Walk {
        /// Board side.
        side: usize,
    },
    /// Updates per second of the factoring automaton on N.
    FactorUpdates {
        /// The number factored.
        n: u64,
        /// Updates made.
        updates: u64,
        /// Random seed.
        seed: u64,
    },
}

/// One measured figure: a row of the report.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BenchRow {
    /// The problem: `queens count`, `queens cost`, `queens local`, `automaton`, `lights`,
    /// `walk` or `factor`.
    pub group: &'static str,
    /// What was measured.
    pub task: String,
    /// The per-problem command that measures the same thing on its own.
    pub command: String,
    /// The figure, in `unit`.
    pub value: f64,
    /// The figure's unit: `s`, `ns/solution` or `M updates/s`.
    pub unit: &'static str,
    /// The project's target for this row, in `unit`, when it has one.
    pub target: Option<f64>,
    /// Whether a larger figure is better (a rate) rather than a smaller one (a time).
    pub higher_is_better: bool,
    /// How far from the target, oriented so that below 1 meets it: value / target for times,
    /// target / value for rates.
    pub ratio: Option<f64>,
    /// What else the run found (counts, verification time, interval, check against OEIS).
    pub detail: String,
}

/// A whole report: the rows with what they depend on.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Report {
    /// Which rows were measured.
    pub suite: Suite,
    /// The build's commit (`git describe --always --dirty`), or `unknown`.
    pub commit: String,
    /// When the report started, UTC (RFC 3339).
    pub date: String,
    /// Where it ran (with the load average at the start).
    pub machine: Machine,
    /// The 1-, 5- and 15-minute load averages when the report ended.
    pub load_average_end: Option<[f64; 3]>,
    /// Wall seconds of the whole report.
    pub seconds: f64,
    /// The figures, in the order of [`items`].
    pub rows: Vec<BenchRow>,
}

/// The rows of a report, in the summary's order.
pub fn items(suite: Suite) -> Vec<Item> {
    use Item::*;
    let count = |ns: &[u32], repeat: u32| -> Vec<Item> {
        ns.iter().flat_map(|&n| [1, 0].map(|threads| QueensCount { n, threads, repeat })).collect()
    };
    let cost = |list: &[(u32, u32)]| -> Vec<Item> {
        list.iter().map(|&(n, samples)| QueensCost { n, samples, seed: 11 }).collect()
    };
    let local = |ns: &[u32]| -> Vec<Item> { ns.iter().map(|&n| QueensLocal { n, seed: 1 }).collect() };
    let lights = |list: &[(usize, u32)]| -> Vec<Item> {
        list.iter().map(|&(side, repeat)| LightsSolve { side, repeat, seed: 1 }).collect()
    };
    let updates = |model, n, threads, seconds| AutomatonUpdates { model, n, threads, seconds };
    let solve = |model, n, samples| AutomatonSolve { model, n, samples, seed: 2 };
    let factor = |n, updates| FactorUpdates { n, updates, seed: 1 };
    // 3701 x 3881 (24 bits) and 1048571 x 1048573 (40 bits), as in docs/factor.md.
    let (n24, n40) = (14_363_581, 1_099_503_239_183);
    let mut v = Vec::new();
    match suite {
        Suite::Full => {
            v.extend(count(&[16, 17, 18], 3));
            v.extend(cost(&[(20, 200), (21, 100), (22, 60), (23, 30), (24, 30)]));
            v.extend(local(&[1_000_000, 10_000_000, 100_000_000]));
            v.extend([
                updates(Model::Pair, 8, 1, 1.0),
                updates(Model::Pair, 8, 0, 1.0),
                updates(Model::Cell, 16, 1, 1.0),
                updates(Model::Cell, 16, 0, 1.0),
                solve(Model::Cell, 16, 10),
                updates(Model::Row, 256, 1, 1.0),
                solve(Model::Row, 128, 10),
                solve(Model::Row, 256, 10),
            ]);
            v.extend(lights(&[(10_000, 5), (100_000, 1)]));
            v.extend([LightsNullities { to: 25_000 }, Walk { side: 2000 }]);
            v.extend([factor(n24, 100_000_000), factor(n40, 100_000_000)]);
        }
        Suite::Quick => {
            v.extend(count(&[16, 18], 1));
            v.extend(cost(&[(20, 20)]));
            v.extend(local(&[1_000_000]));
            v.extend([
                updates(Model::Pair, 8, 1, 0.3),
                updates(Model::Cell, 16, 1, 0.3),
                solve(Model::Cell, 16, 3),
                solve(Model::Row, 128, 3),
            ]);
            v.extend(lights(&[(10_000, 3)]));
            v.extend([LightsNullities { to: 25_000 }, Walk { side: 2000 }, factor(n24, 10_000_000)]);
        }
        Suite::Tiny => {
            v.extend(count(&[10], 1));
            v.extend(cost(&[(12, 3)]));
            v.extend(local(&[1000]));
            v.extend([updates(Model::Pair, 6, 1, 0.01), solve(Model::Cell, 6, 2), solve(Model::Row, 8, 2)]);
            v.extend(lights(&[(64, 1)]));
            v.extend([LightsNullities { to: 40 }, Walk { side: 40 }, factor(n24, 100_000)]);
        }
    }
    v
}

/// Threads a count of `threads` stands for (0: one per core).
fn resolve_threads(threads: usize) -> usize {
    if threads == 0 { std::thread::available_parallelism().map_or(1, |p| p.get()) } else { threads }
}

fn threads_text(threads: usize) -> String {
    let t = resolve_threads(threads);
    if t == 1 { "1 thread".into() } else { format!("{t} threads") }
}

/// `10^k` for powers of ten, the number otherwise.
fn size_text(n: u64) -> String {
    let mut k = 0;
    let mut m = n;
    while m >= 10 && m.is_multiple_of(10) {
        m /= 10;
        k += 1;
    }
    if m == 1 && k >= 3 { format!("10^{k}") } else { n.to_string() }
}

impl Item {
    /// What this row measures, in words (also the progress label).
    pub fn task(&self) -> String {
        match *self {
            Item::QueensCount { n, threads, .. } => {
                format!("q({n}) total + unique, {}", threads_text(threads))
            }
            Item::QueensCost { n, .. } => format!("cost per solution, n = {n}"),
            Item::QueensLocal { n, .. } => {
                format!("local search, n = {}, found and checked", size_text(n.into()))
            }
            Item::AutomatonUpdates { model, n, threads, .. } => {
                format!(
                    "automaton {} (model {}), n = {n}, updates, {}",
                    model.name(),
                    model_number(model),
                    threads_text(threads)
                )
            }
            Item::AutomatonSolve { model, n, .. } => {
                format!(
                    "automaton {} (model {}), n = {n}, mean time to a solution",
                    model.name(),
                    model_number(model)
                )
            }
            Item::LightsSolve { side, .. } => {
                let s = size_text(side as u64);
                format!("Lights Out random {s} x {s}, solved")
            }
            Item::LightsNullities { to } => format!("nullities of all n x n, n <= {to}"),
            Item::Walk { side } => format!("walk {side} x {side} solved with its path"),
            Item::FactorUpdates { n, .. } => format!("factor {n} ({} bits), updates", 64 - n.leading_zeros()),
        }
    }

    /// The per-problem command that measures the same thing on its own.
    pub fn command(&self) -> String {
        match *self {
            Item::QueensCount { n, repeat, .. } => format!("damier queens bench {n} --repeat {repeat}"),
            Item::QueensCost { n, samples, seed } => {
                format!("damier queens estimate {n} --samples {samples} --seed {seed}")
            }
            Item::QueensLocal { n, seed } => format!("damier queens solve {n} --method local --seed {seed}"),
            Item::AutomatonUpdates { n, seconds, .. } => {
                format!("damier automaton bench -n {n} --seconds {seconds}")
            }
            Item::AutomatonSolve { model, n, samples, seed } => {
                format!(
                    "damier automaton scale --model {} -n {n} --samples {samples} --seed {seed}",
                    model.name()
                )
            }
            Item::LightsSolve { side, seed, .. } => {
                format!("damier lights bench --sizes {side} --nullities-to 0 --seed {seed}")
            }
            Item::LightsNullities { to } => format!("damier lights bench --nullities-to {to}"),
            Item::Walk { side } => format!("damier walk bench --max {side}"),
            Item::FactorUpdates { n, seed, .. } => format!("damier factor {n} --seed {seed}"),
        }
    }

    /// Runs this row's measurement; `control` stops it (and the row fails with
    /// [`BenchError::Interrupted`]).
    pub fn run(&self, control: &Control) -> Result<BenchRow, BenchError> {
        let row = |group, value: f64, unit, target: Option<f64>, higher_is_better: bool, detail: String| {
            let ratio = target.map(|t| if higher_is_better { t / value } else { value / t });
            BenchRow {
                group,
                task: self.task(),
                command: self.command(),
                value,
                unit,
                target,
                higher_is_better,
                ratio,
                detail,
            }
        };
        let out = match *self {
            Item::QueensCount { n, threads, repeat } => {
                let options = CountOptions::default();
                let pool = damier::util::thread_pool(Some(threads))?;
                let (seconds, counts) = timers::best_count(&pool, n, repeat, &options, control)?;
                check_total(n, counts.total)?;
                // The summary's targets: q(18) in 6 s on one thread, 3 s on two.
                let target = match (n, resolve_threads(threads)) {
                    (18, 1) => Some(6.0),
                    (18, 2) => Some(3.0),
                    _ => None,
                };
                let detail = format!(
                    "total {}, unique {} (A000170 checked); best of {repeat}; {} kernels",
                    counts.total, counts.unique, options.isa
                );
                row("queens count", seconds, "s", target, false, detail)
            }
            Item::QueensCost { n, samples, seed } => {
                let known = count::known::known_total(n)
                    .ok_or_else(|| BenchError::Wrong(format!("q({n}) is not known: no cost per solution")))?;
                let options =
                    estimate::EstimateOptions { samples, seed, isa: Isa::best(), queries: None, threads: 1 };
                let e = estimate::estimate_cost(n, &options, control)?;
                let per_solution = |hours: f64| hours * 3600.0 * 1e9 / known as f64;
                let check = match e.known_check() {
                    Some(c) if c.inside => "the projected q(n) brackets A000170".to_string(),
                    Some(c) => {
                        format!(
                            "projected q(n) x{} A000170, outside its interval: do not quote",
                            number(c.ratio)
                        )
                    }
                    None => "no check against A000170".to_string(),
                };
                let detail = format!(
                    "{} core hours [{}, {}], {} of {} whole tasks, {} clock, {} kernels; {check}",
                    hours_text(e.core_hours),
                    hours_text(e.low),
                    hours_text(e.high),
                    e.samples,
                    e.tasks,
                    e.clock,
                    options.isa
                );
                let target = (n >= 20).then_some(2.5);
                row("queens cost", per_solution(e.core_hours), "ns/solution", target, false, detail)
            }
            Item::QueensLocal { n, seed } => {
                let seconds = timers::local_search(n, seed, control)?;
                let target = (n == 100_000_000).then_some(20.0);
                row(
                    "queens local",
                    seconds,
                    "s",
                    target,
                    false,
                    format!("seed {seed}, in memory (no file written)"),
                )
            }
            Item::AutomatonUpdates { model, n, threads, seconds } => {
                let params = automaton::Params::new(model, n)?;
                let threads = resolve_threads(threads);
                let (updates, wall) = timers::automaton_throughput(&params, threads, seconds, control)?;
                let rate = updates as f64 / wall.max(1e-9) / 1e6;
                // 50 M updates per second per core for model 1 at n = 8.
                let target = (model == Model::Pair && n == 8 && threads == 1).then_some(50.0);
                row(
                    "automaton",
                    rate,
                    "M updates/s",
                    target,
                    true,
                    format!("{updates} updates in {} s", number(wall)),
                )
            }
            Item::AutomatonSolve { model, n, samples, seed } => {
                let params = automaton::Params::new(model, n)?;
                let (seconds, updates) =
                    timers::automaton_solve(&params, samples, seed, 10_000_000_000, control)?;
                // Model 2 at n = 16 within 30 s; model 3 (issue 25) at n = 128 within a minute
                // and n = 256 within 10 minutes.
                let target = match (model, n) {
                    (Model::Cell, 16) => Some(30.0),
                    (Model::Row, 128) => Some(60.0),
                    (Model::Row, 256) => Some(600.0),
                    _ => None,
                };
                let unit = if model == Model::Row { "generations" } else { "updates" };
                let detail = format!("{samples} runs, mean {} {unit}, all solved", number(updates));
                row("automaton", seconds, "s", target, false, detail)
            }
            Item::LightsSolve { side, repeat, seed } => {
                let (start, _) = timers::random_square(side, seed)?;
                let t = timers::lights_solve(&start, repeat, control)?;
                let target = lights_solve_target(side);
                let detail = format!(
                    "+ {} s verification; best of {repeat}; seed {seed}, nullity {}, {}",
                    number(t.verify_seconds),
                    t.nullity,
                    if t.solvable { "solved" } else { "no solution" }
                );
                row("lights", t.solve_seconds, "s", target, false, detail)
            }
            Item::LightsNullities { to } => {
                let (seconds, max) = timers::square_nullities(to, control)?;
                let target = lights_nullities_target(to);
                row("lights", seconds, "s", target, false, format!("largest nullity {max}"))
            }
            Item::Walk { side } => {
                let t = timers::walk(side, side, damier::walk::Method::Fast, control)?;
                let target = (side == 2000).then_some(1.0);
                let detail = format!(
                    "solve {} s, path {} s ({} moves); replay check {} s",
                    number(t.solve_seconds),
                    number(t.path_seconds),
                    t.path_length,
                    number(t.replay_seconds)
                );
                row("walk", t.solve_seconds + t.path_seconds, "s", target, false, detail)
            }
            Item::FactorUpdates { n, updates, seed } => {
                let (done, seconds) = timers::factor_updates(n, updates, seed, control)?;
                let rate = done as f64 / seconds.max(1e-9) / 1e6;
                row(
                    "factor",
                    rate,
                    "M updates/s",
                    None,
                    true,
                    format!("{done} updates in {} s, 1 thread", number(seconds)),
                )
            }
        };
        if control.cancelled() {
            return Err(Interrupted.into());
        }
        Ok(out)
    }
}

/// The target for solving a random `side x side` Lights Out start, seconds: 15 ms at 10^4,
/// 1.5 s at 10^5 (none at other sizes).
pub fn lights_solve_target(side: usize) -> Option<f64> {
    match side {
        10_000 => Some(0.015),
        100_000 => Some(1.5),
        _ => None,
    }
}

/// The target for the nullities of every square board up to `to`, seconds: 10 s at 25 000.
pub fn lights_nullities_target(to: usize) -> Option<f64> {
    (to == 25_000).then_some(10.0)
}

/// Core hours with three significant digits, however small.
fn hours_text(hours: f64) -> String {
    damier::util::number(hours)
}

/// The automaton report's model number of an automaton rule.
fn model_number(model: Model) -> u32 {
    match model {
        Model::Pair => 1,
        Model::Cell => 2,
        Model::Row => 3,
    }
}

/// A count that disagrees with OEIS A000170 is an error, not a figure.
fn check_total(n: u32, total: u64) -> Result<(), BenchError> {
    match count::known::known_total(n) {
        Some(known) if known != total => {
            Err(BenchError::Wrong(format!("q({n}) = {total}, A000170 says {known}")))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_suite_has_every_kind_of_row() {
        for suite in [Suite::Full, Suite::Quick, Suite::Tiny] {
            let rows = items(suite);
            let kinds: std::collections::HashSet<_> = rows.iter().map(std::mem::discriminant).collect();
            // The smaller suites leave out sizes and repeats, never a kind of row (9 kinds).
            assert_eq!(kinds.len(), 9, "{suite:?}");
            assert!(rows.iter().all(|i| !i.task().is_empty() && i.command().starts_with("damier ")));
        }
    }

    #[test]
    fn tiny_rows_run_and_check_their_answers() {
        let control = Control::new();
        for item in items(Suite::Tiny) {
            let row = item.run(&control).unwrap_or_else(|e| panic!("{}: {e}", item.task()));
            assert!(row.value > 0.0 && row.value.is_finite(), "{}: {}", row.task, row.value);
            assert_eq!(row.ratio.is_some(), row.target.is_some());
        }
    }

    #[test]
    fn a_cancelled_control_stops_a_row() {
        let control = Control::new();
        control.cancel();
        let item = Item::LightsNullities { to: 40 };
        assert_eq!(item.run(&control), Err(BenchError::Interrupted(Interrupted)));
    }

    #[test]
    fn a_wrong_count_is_an_error() {
        assert!(check_total(8, 92).is_ok());
        assert!(matches!(check_total(8, 91), Err(BenchError::Wrong(_))));
    }

    #[test]
    fn sizes_read_as_powers_of_ten() {
        assert_eq!(size_text(100_000_000), "10^8");
        assert_eq!(size_text(2000), "2000");
        assert_eq!(size_text(1000), "10^3");
        assert_eq!(size_text(64), "64");
    }
}
