//! The rows of the per-problem benchmark tables: `damier automaton bench`, `lights bench`,
//! `walk bench` and `damier queens timing` (the course chapter's time against n), measured by
//! the same [`timers`] as the whole report. Each row is the JSON record its command prints;
//! the command only chooses the rows from its arguments and prints them.
//!
//! The figures are wall times of a machine shared with other work: tests check the answers a
//! row carries (counts, nullities, path lengths), never its times.
//!
//! ```
//! use std::time::Duration;
//! use damier_bench::tables;
//! use damier::control::Control;
//!
//! let control = Control::new();
//! // The course chapter's table at n = 8: both counters find the 92 solutions.
//! let pool = damier::util::thread_pool(Some(1))?;
//! let row = tables::queens_timing(8, true, Duration::ZERO, &pool, &control)?;
//! assert_eq!(row.total, 92);
//! assert!(row.naive_seconds.is_some());
//! // The walk on 40 x 40: the boards timed up to a largest side, and one of them measured.
//! assert_eq!(tables::walk_boards(40), [(40, 40), (20, 40)]);
//! let walk = tables::walk_row(20, 40, damier::walk::Method::Fast, &control)?;
//! assert_eq!(walk.total_seconds, walk.solve_seconds + walk.path_seconds);
//! assert!(walk.path_length + 1 >= walk.activated); // every activated cell is landed on
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use super::{BenchError, lights_nullities_target, lights_solve_target, timers};
use damier::automaton::{Model, Params};
use damier::control::{Control, Interrupted};
use damier::queens::{self, naive};
use damier::walk::Method;

/// One row of `damier automaton bench` (its JSON): the cell updates of a model in about a
/// given wall time.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct AutomatonRate {
    /// The update rule.
    pub model: Model,
    /// Board side.
    pub n: u32,
    /// Threads that ran at once, each from its own seeds.
    pub threads: usize,
    /// Cell updates made, all threads together (a model 3 step updates all n² cells).
    pub updates: u64,
    /// Wall seconds.
    pub seconds: f64,
    /// `updates / seconds`.
    pub updates_per_second: f64,
}

/// The rates of the three models at every n of `ns` (model by model), on one thread and, on a
/// machine with more than one, on all of them; each measurement lasts about `seconds`.
pub fn automaton_rates(
    ns: &[u32],
    seconds: f64,
    control: &Control,
) -> Result<Vec<AutomatonRate>, BenchError> {
    let all = std::thread::available_parallelism().map_or(1, |p| p.get());
    let thread_counts: &[usize] = if all > 1 { &[1, all] } else { &[1] };
    let mut rows = Vec::new();
    for model in [Model::Pair, Model::Cell, Model::Row] {
        for &n in ns {
            let params = Params::new(model, n)?;
            for &threads in thread_counts {
                if control.cancelled() {
                    return Err(Interrupted.into());
                }
                let (updates, wall) = timers::automaton_throughput(&params, threads, seconds, control)?;
                let updates_per_second = updates as f64 / wall;
                rows.push(AutomatonRate { model, n, threads, updates, seconds: wall, updates_per_second });
            }
        }
    }
    Ok(rows)
}

/// One row of `damier lights bench` (its JSON): a timed task with its check and target.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LightsRow {
    /// What was timed, with the seed, the outcome and the set-up times.
    pub task: String,
    /// Seconds of the task (the best of its runs).
    pub seconds: f64,
    /// Seconds of the check of the presses (a solve only).
    pub verify_seconds: Option<f64>,
    /// The project's target for this task, seconds ([`lights_solve_target`],
    /// [`lights_nullities_target`]).
    pub target_seconds: Option<f64>,
    /// Nullity of the board solved (a solve only).
    pub nullity: Option<usize>,
    /// The solve's phases timed one by one, when asked for (not in the JSON).
    #[serde(skip)]
    pub phases: Option<timers::PolyPhases>,
}

impl LightsRow {
    /// `seconds / target_seconds`: below 1 meets the target.
    pub fn ratio(&self) -> Option<f64> {
        self.target_seconds.map(|t| self.seconds / t)
    }
}

/// A random `side x side` start from `seed` solved by the polynomial method (best of 5 up to
/// side 20 000, else one solve) and verified; with `phases`, the phases also timed one by one.
/// A random start has no solution with probability `1 - 2^-nullity`: the work is the same
/// either way, and the task says which.
pub fn lights_solve_row(
    side: usize,
    seed: u64,
    phases: bool,
    control: &Control,
) -> Result<LightsRow, BenchError> {
    let (start, generated) = timers::random_square(side, seed)?;
    let repeat = if side <= 20_000 { 5 } else { 1 };
    let timing = timers::lights_solve(&start, repeat, control)?;
    let phases = if phases { Some(timers::poly_phases(&start, control)?) } else { None };
    Ok(LightsRow {
        task: format!(
            "solve random {side}x{side} (seed {seed}, {}; generate {} s, copy {} s)",
            if timing.solvable { "solved" } else { "no solution" },
            damier::util::number(generated),
            damier::util::number(timing.copy_seconds),
        ),
        seconds: timing.solve_seconds,
        verify_seconds: Some(timing.verify_seconds),
        target_seconds: lights_solve_target(side),
        nullity: Some(timing.nullity),
        phases,
    })
}

/// The nullities of every `n x n` board, `n <= to`, timed.
pub fn lights_nullities_row(to: usize, control: &Control) -> Result<LightsRow, BenchError> {
    let (seconds, largest) = timers::square_nullities(to, control)?;
    Ok(LightsRow {
        task: format!("nullities of all n x n, n <= {to} (max {largest})"),
        seconds,
        verify_seconds: None,
        target_seconds: lights_nullities_target(to),
        nullity: None,
        phases: None,
    })
}

/// One row of `damier walk bench` (its JSON): a board solved, its path made and replayed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WalkRow {
    /// Rows (L).
    pub rows: usize,
    /// Columns (C).
    pub cols: usize,
    /// Seconds to solve (the activation set).
    pub solve_seconds: f64,
    /// Seconds to make its path.
    pub path_seconds: f64,
    /// `solve_seconds + path_seconds`, the figure with a target (2000 x 2000 within 1 s).
    pub total_seconds: f64,
    /// Seconds of the check that replays the path to an all-black board.
    pub replay_seconds: f64,
    /// Cells activated by the solution.
    pub activated: usize,
    /// Moves in the path.
    pub path_length: usize,
}

impl WalkRow {
    /// Moves per activated cell of the path.
    pub fn moves_per_activated(&self) -> f64 {
        self.path_length as f64 / self.activated as f64
    }
}

/// The boards `damier walk bench` times up to the side `max`: the squares of side 100, 250,
/// 500, 1000, 2000 and 4096 below `max`, then `max x max` and, from 2 on, `max/2 x max`.
pub fn walk_boards(max: usize) -> Vec<(usize, usize)> {
    let mut boards: Vec<(usize, usize)> =
        [100, 250, 500, 1000, 2000, 4096].into_iter().filter(|&n| n < max).map(|n| (n, n)).collect();
    boards.push((max, max));
    if max >= 2 {
        boards.push((max / 2, max));
    }
    boards
}

/// The `rows x cols` walk solved with `method`, its path made and replayed (the check).
pub fn walk_row(rows: usize, cols: usize, method: Method, control: &Control) -> Result<WalkRow, BenchError> {
    let t = timers::walk(rows, cols, method, control)?;
    Ok(WalkRow {
        rows,
        cols,
        solve_seconds: t.solve_seconds,
        path_seconds: t.path_seconds,
        total_seconds: t.solve_seconds + t.path_seconds,
        replay_seconds: t.replay_seconds,
        activated: t.activated,
        path_length: t.path_length,
    })
}

/// One row of `damier queens timing` (its JSON): the seconds to count the solutions of n by
/// the fast counter and by the course chapter's naive backtracker.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct QueensTiming {
    /// Board size.
    pub n: u32,
    /// Mean seconds of the naive count, when it was timed.
    pub naive_seconds: Option<f64>,
    /// Mean seconds of the fast count (total and unique).
    pub fast_seconds: f64,
    /// Solutions, found by both counters.
    pub total: u64,
}

/// n counted by the fast counter on `pool` and, with `naive`, by the naive backtracker (one
/// thread), each the mean of runs lasting `min` in all ([`timers::mean_over`]); both must find
/// the same total.
pub fn queens_timing(
    n: u32,
    naive: bool,
    min: Duration,
    pool: &rayon::ThreadPool,
    control: &Control,
) -> Result<QueensTiming, BenchError> {
    let (fast_seconds, counts) =
        timers::mean_over(min, || pool.install(|| queens::count_solutions(n, control)))?;
    let naive_seconds = if naive {
        let (seconds, total) = timers::mean_over(min, || naive::count(n, control))?;
        if total != counts.total {
            return Err(BenchError::Wrong(format!("n = {n}: naive {total} != fast {}", counts.total)));
        }
        Some(seconds)
    } else {
        None
    };
    Ok(QueensTiming { n, naive_seconds, fast_seconds, total: counts.total })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_rows_count_with_both_counters() {
        let pool = damier::util::thread_pool(Some(1)).unwrap();
        let control = Control::new();
        for (n, total) in [(1, 1), (4, 2), (6, 4), (9, 352)] {
            let row = queens_timing(n, n <= 6, Duration::from_millis(1), &pool, &control).unwrap();
            assert_eq!((row.n, row.total, row.naive_seconds.is_some()), (n, total, n <= 6));
        }
    }

    #[test]
    fn the_timer_keeps_the_result_and_runs_until_the_time_is_spent() {
        let mut runs = 0;
        let (_, last) = timers::mean_over::<_, ()>(Duration::ZERO, || {
            runs += 1;
            Ok(runs)
        })
        .unwrap();
        assert_eq!((runs, last), (1, 1));
        // An error stops the repetition.
        assert_eq!(timers::mean_over::<u32, &str>(Duration::from_secs(3600), || Err("no")), Err("no"));
    }

    #[test]
    fn automaton_rows_cover_every_model_and_n() {
        let control = Control::new();
        let rows = automaton_rates(&[5, 6], 0.01, &control).unwrap();
        let all = std::thread::available_parallelism().map_or(1, |p| p.get());
        let per = if all > 1 { 2 } else { 1 };
        assert_eq!(rows.len(), 3 * 2 * per);
        assert_eq!((rows[0].model, rows[0].n, rows[0].threads), (Model::Pair, 5, 1));
        assert_eq!(rows.last().map(|r| (r.model, r.n, r.threads)), Some((Model::Row, 6, all)));
        assert!(rows.iter().all(|r| r.updates > 0));
        assert!(automaton_rates(&[0], 0.01, &control).is_err());
    }

    #[test]
    fn lights_rows_carry_their_nullity_target_and_phases() {
        let control = Control::new();
        // 5 x 5 has nullity 2; its phases are timed when asked for.
        let row = lights_solve_row(5, 1, true, &control).unwrap();
        assert_eq!((row.nullity, row.target_seconds, row.phases.is_some()), (Some(2), None, true));
        assert!(row.task.starts_with("solve random 5x5 (seed 1, "), "{}", row.task);
        assert!(lights_solve_row(5, 1, false, &control).unwrap().phases.is_none());
        let row = lights_nullities_row(30, &control).unwrap();
        assert_eq!(row.task, "nullities of all n x n, n <= 30 (max 20)");
        assert_eq!((row.nullity, row.verify_seconds, row.ratio()), (None, None, None));
        let cancelled = Control::new();
        cancelled.cancel();
        assert_eq!(lights_nullities_row(25_000, &cancelled), Err(BenchError::Interrupted(Interrupted)));
    }

    #[test]
    fn walk_boards_end_with_the_largest_and_its_half() {
        assert_eq!(walk_boards(1), [(1, 1)]);
        assert_eq!(walk_boards(300), [(100, 100), (250, 250), (300, 300), (150, 300)]);
        let row = walk_row(3, 3, Method::Poly, &Control::new()).unwrap();
        // 3 x 3 has one solution, of 5 cells; its path replays (checked by the timer).
        assert_eq!((row.rows, row.cols), (3, 3));
        assert!(row.activated == 5 && row.path_length + 1 >= row.activated);
        assert_eq!(row.moves_per_activated(), row.path_length as f64 / row.activated as f64);
    }
}
