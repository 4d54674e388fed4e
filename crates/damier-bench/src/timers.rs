//! One timed run of each engine: what the per-problem `bench` commands and the whole report
//! ([`super::Item`]) both measure, written once.
//!
//! Every timer returns wall seconds of the engine call alone (boards generated and copied
//! outside the timing) and checks the engine's answer before returning it, so a benchmark can
//! never report the speed of a wrong result.
//!
//! ```
//! use damier_bench::timers;
//! use damier::control::Control;
//!
//! // Timed, with what was computed: the largest nullity of the n x n boards up to 100 is 64.
//! let (seconds, largest) = timers::square_nullities(100, &Control::new()).unwrap();
//! assert!(seconds >= 0.0);
//! assert_eq!(largest, 64);
//! ```

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::BenchError;
use damier::automaton::{self, experiment};
use damier::board::{Board, Size};
use damier::control::{Control, Interrupted};
use damier::queens::Counts;
use damier::queens::count::{self, CountOptions, Share};
use damier::{factor, lights, walk};

/// Mean wall seconds of a run of `f`, repeated until `min` has passed, and the last run's
/// result. A first run shorter than `min` is a warm-up (thread pool start, caches) and left out
/// of the mean; a first run of at least `min` is the figure alone.
pub fn mean_over<T, E>(min: Duration, mut f: impl FnMut() -> Result<T, E>) -> Result<(f64, T), E> {
    let start = Instant::now();
    let first = f()?;
    let once = start.elapsed();
    if once >= min {
        return Ok((once.as_secs_f64(), first));
    }
    let start = Instant::now();
    let mut runs = 0u32;
    loop {
        let v = f()?;
        runs += 1;
        let spent = start.elapsed();
        if spent >= min {
            return Ok((spent.as_secs_f64() / f64::from(runs), v));
        }
    }
}

/// The best wall time of `repeat` counts of n (total + unique) on `pool` (its start-up not
/// timed), with the counts found; every run must find the same counts.
pub fn best_count(
    pool: &rayon::ThreadPool,
    n: u32,
    repeat: u32,
    options: &CountOptions,
    control: &Control,
) -> Result<(f64, Counts), BenchError> {
    let mut best: Option<(f64, Counts)> = None;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let total = pool.install(|| count::count_share_with(n, Share::WHOLE, options, control))?;
        let seconds = start.elapsed().as_secs_f64();
        let counts = count::counts_from_total(n, total)?;
        if let Some((_, c)) = &best
            && *c != counts
        {
            return Err(BenchError::Wrong(format!("q({n}): two runs found different counts")));
        }
        if best.as_ref().is_none_or(|(b, _)| seconds < *b) {
            best = Some((seconds, counts));
        }
    }
    best.ok_or(BenchError::Wrong("no run".into()))
}

/// n counted on one thread and on all threads: one row of `damier queens bench` (and its JSON).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CountScaling {
    /// Board size.
    pub n: u32,
    /// Solutions.
    pub total: u64,
    /// Solutions up to symmetry.
    pub unique: u64,
    /// Threads of the second pool.
    pub threads: usize,
    /// Best wall time on one thread.
    pub seconds_1_thread: f64,
    /// Best wall time on `threads` threads.
    pub seconds_all_threads: f64,
}

/// [`best_count`] of n on `one` (a one-thread pool) and on `all`, which must find the same
/// counts.
pub fn count_scaling(
    one: &rayon::ThreadPool,
    all: &rayon::ThreadPool,
    n: u32,
    repeat: u32,
    options: &CountOptions,
    control: &Control,
) -> Result<CountScaling, BenchError> {
    let (s1, c1) = best_count(one, n, repeat, options, control)?;
    let (sk, ck) = best_count(all, n, repeat, options, control)?;
    let threads = all.current_num_threads();
    if c1 != ck {
        return Err(BenchError::Wrong(format!("n = {n}: the counts differ between 1 and {threads} threads")));
    }
    Ok(CountScaling {
        n,
        total: c1.total,
        unique: c1.unique,
        threads,
        seconds_1_thread: s1,
        seconds_all_threads: sk,
    })
}

/// Refuses, before anything is made, an `n x n` board whose timed solve ([`lights_solve`]:
/// the start and the copy solved in place, a square board solved without a transpose) cannot
/// fit the address space (`lights bench --sizes 100000` aborted under a 1 GB limit).
pub fn check_random_square(n: usize) -> Result<Size, BenchError> {
    let size = Size::new(n, n)?;
    lights::check_solve_memory(size, false, lights::Method::Poly)?;
    Ok(size)
}

/// A random `n x n` Lights Out start from `seed` ([`Xoshiro256PlusPlus`]) and the seconds it
/// took to draw, once [`check_random_square`] accepts it.
pub fn random_square(n: usize, seed: u64) -> Result<(Board, f64), BenchError> {
    let size = check_random_square(n)?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let t = Instant::now();
    let board = Board::try_random(size, &mut rng).map_err(damier::board::BoardError::from)?;
    Ok((board, t.elapsed().as_secs_f64()))
}

/// A Lights Out solve timed by [`lights_solve`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LightsTiming {
    /// Best seconds of the polynomial solve in place.
    pub solve_seconds: f64,
    /// Seconds of the check that the presses turn the start off (a row at a time).
    pub verify_seconds: f64,
    /// Seconds of the last copy of the start that received the presses (not in the solve).
    pub copy_seconds: f64,
    /// Nullity of the press matrix.
    pub nullity: usize,
    /// Whether the start had a solution (a random start has none with probability
    /// `1 - 2^-nullity`; the work is the same either way).
    pub solvable: bool,
}

/// Solves `start` with [`lights::Method::Poly`] `repeat` times in place on a fresh copy (the
/// best time kept), then verifies the presses, timed apart.
pub fn lights_solve(start: &Board, repeat: u32, control: &Control) -> Result<LightsTiming, BenchError> {
    let mut best = f64::INFINITY;
    let mut copy_seconds = 0.0;
    let mut found = None;
    for _ in 0..repeat.max(1) {
        // The presses are written over a copy of the start, made outside the timing.
        let t = Instant::now();
        let mut x = start.try_clone().map_err(damier::board::BoardError::from)?;
        copy_seconds = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let (nullity, solvable) = lights::solve_in_place(&mut x, lights::Method::Poly, control)?;
        best = best.min(t.elapsed().as_secs_f64());
        found = Some((nullity, solvable, x));
    }
    let (nullity, solvable, presses) = found.ok_or(BenchError::Wrong("no run".into()))?;
    let t = Instant::now();
    let ok = !solvable || lights::verify(start, None, &presses);
    let verify_seconds = t.elapsed().as_secs_f64();
    if !ok {
        return Err(BenchError::Wrong(format!("the presses for {} do not verify", start.size())));
    }
    Ok(LightsTiming { solve_seconds: best, verify_seconds, copy_seconds, nullity, solvable })
}

/// The phases of the polynomial Lights Out solve, timed one by one by [`poly_phases`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolyPhases {
    /// Seconds to set up the system: `p_W`, `p_H(x+1) mod p_W`, their gcd with its cofactor.
    pub setup_seconds: f64,
    /// Seconds of the chase that gives the last row.
    pub last_row_seconds: f64,
    /// Seconds to solve for the first row (conversions, division, product).
    pub first_row_seconds: f64,
    /// Seconds of the chase that writes the presses in place.
    pub chase_seconds: f64,
}

/// The phases of the polynomial solve of `start` ([`lights::Method::Poly`]), timed one by
/// one; the presses written are checked to turn `start` off when it has a solution.
pub fn poly_phases(start: &Board, control: &Control) -> Result<PolyPhases, BenchError> {
    let t = Instant::now();
    let system = lights::poly::PolySystem::new(start.size());
    let setup_seconds = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let last_row = lights::chase::chase_residual(start, &vec![0; start.stride()], control)?;
    let last_row_seconds = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let first_row = system.solve_first_row(&last_row);
    let first_row_seconds = t.elapsed().as_secs_f64();
    let mut presses = start.clone();
    let t = Instant::now();
    if let Some(first_row) = &first_row {
        lights::chase::chase_in_place(&mut presses, first_row, control)?;
    }
    let chase_seconds = t.elapsed().as_secs_f64();
    if first_row.is_some() && !lights::verify(start, None, &presses) {
        return Err(BenchError::Wrong(format!("the phased presses for {} do not verify", start.size())));
    }
    Ok(PolyPhases { setup_seconds, last_row_seconds, first_row_seconds, chase_seconds })
}

/// Seconds to compute the nullities of every `n x n` board, `n <= to`, and the largest.
pub fn square_nullities(to: usize, control: &Control) -> Result<(f64, usize), BenchError> {
    let t = Instant::now();
    let nullities = lights::square_nullities(to, control)?;
    Ok((t.elapsed().as_secs_f64(), nullities.iter().copied().max().unwrap_or(0)))
}

/// A pawn walk solved with its path, timed by [`walk`](fn@walk).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WalkTiming {
    /// Seconds to solve (the activation set).
    pub solve_seconds: f64,
    /// Seconds to turn it into a path of moves.
    pub path_seconds: f64,
    /// Seconds of the check that replays the path to an all-black board.
    pub replay_seconds: f64,
    /// Cells activated by the solution.
    pub activated: usize,
    /// Moves in the path.
    pub path_length: usize,
}

/// Solves the `rows x cols` walk with `method`, makes its path and replays it (the check).
pub fn walk(
    rows: usize,
    cols: usize,
    method: walk::Method,
    control: &Control,
) -> Result<WalkTiming, BenchError> {
    let board = walk::board_size(rows, cols)?;
    let t0 = Instant::now();
    let solutions = walk::solve(board, method, control)?;
    let t1 = Instant::now();
    let moves = walk::path::path_for(board, &solutions.particular, control)?;
    let t2 = Instant::now();
    let replay = walk::path::replay(board, &moves);
    let t3 = Instant::now();
    if !replay.all_black() {
        return Err(BenchError::Wrong(format!("the {rows} x {cols} path does not replay to all black")));
    }
    Ok(WalkTiming {
        solve_seconds: (t1 - t0).as_secs_f64(),
        path_seconds: (t2 - t1).as_secs_f64(),
        replay_seconds: (t3 - t2).as_secs_f64(),
        activated: solutions.particular.count_ones() as usize,
        path_length: moves.len(),
    })
}

/// Updates the automaton makes on `threads` threads in about `seconds` of wall time (each
/// thread runs `seconds` worth of one thread's calibrated rate, from its own seeds):
/// (updates, wall seconds). Updates are cell updates ([`automaton::Params::cells_per_step`]
/// per step: model 3 updates every cell each step).
pub fn automaton_throughput(
    params: &automaton::Params,
    threads: usize,
    seconds: f64,
    control: &Control,
) -> Result<(u64, f64), BenchError> {
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(BenchError::Wrong(format!("{seconds} seconds per measurement")));
    }
    // Calibrate: the updates one thread makes in about `seconds`.
    let per_step = params.cells_per_step();
    let (u, s) = experiment::measure(params, 1, (2_000_000 / per_step).max(1))?;
    let target = ((u as f64 / s.max(1e-9)) * seconds).max(1.0) as u64;
    let threads = threads.max(1);
    let pool = damier::util::thread_pool(Some(threads))?;
    let clock = Instant::now();
    let totals: Vec<Result<u64, automaton::AutomatonError>> = pool.install(|| {
        use rayon::prelude::*;
        (0..threads as u64)
            .into_par_iter()
            .map(|t| experiment::measure(params, 100 + t, target).map(|r| r.0))
            .collect()
    });
    let seconds = clock.elapsed().as_secs_f64();
    if control.cancelled() {
        return Err(Interrupted.into());
    }
    let mut total = 0;
    for t in totals {
        total += t?;
    }
    Ok((total * per_step, seconds))
}

/// Mean wall seconds and mean updates of `samples` runs of the automaton to a solution, one
/// after the other on one thread (seeds [`experiment::stream_seed`]`(seed, i)`); every run
/// must be solved within `max_steps`.
pub fn automaton_solve(
    params: &automaton::Params,
    samples: usize,
    seed: u64,
    max_steps: u64,
    control: &Control,
) -> Result<(f64, f64), BenchError> {
    let samples = samples.max(1);
    let one = damier::util::thread_pool(Some(1))?;
    let t = Instant::now();
    let runs = one.install(|| {
        experiment::run_samples(params, seed, samples, max_steps, &experiment::Stop::new(control))
    })?;
    let seconds = t.elapsed().as_secs_f64();
    if let Some(r) = runs.iter().find(|r| !r.solved) {
        return Err(BenchError::Wrong(format!(
            "run seed {} of the {} automaton at n = {} not solved in {max_steps} updates",
            r.seed,
            params.model.name(),
            params.n
        )));
    }
    let updates = runs.iter().map(|r| r.steps as f64).sum::<f64>() / samples as f64;
    Ok((seconds / samples as f64, updates))
}

/// Seconds to find a random solution of n queens by local search and check it
/// ([`damier::queens::local::solve`]).
pub fn local_search(n: u32, seed: u64, control: &Control) -> Result<f64, BenchError> {
    let t = Instant::now();
    let found = damier::queens::local::solve(n, seed, control)?;
    let seconds = t.elapsed().as_secs_f64();
    if found.placement.columns().len() != n as usize {
        return Err(BenchError::Wrong(format!(
            "local search returned {} queens for n = {n}",
            found.placement.columns().len()
        )));
    }
    Ok(seconds)
}

/// `updates` updates of the factoring automaton on N from a random start (`seed`), on one
/// thread, polling `control`: (updates made, seconds). A run that absorbs early restarts from
/// the next seed, so the figure is the cost of an update, not of a factorization.
pub fn factor_updates(n: u64, updates: u64, seed: u64, control: &Control) -> Result<(u64, f64), BenchError> {
    let params = factor::FactorParams::default();
    let t = Instant::now();
    let mut done = 0u64;
    let mut i = 0u64;
    while done < updates {
        let mut au = factor::FactorAutomaton::new(n, &params, experiment::stream_seed(seed, i))?;
        while done < updates && !au.is_absorbing() {
            if control.cancelled() {
                return Err(Interrupted.into());
            }
            let before = au.steps();
            au.run_steps(experiment::CHUNK.min(updates - done));
            done += (au.steps() - before).max(1);
        }
        i += 1;
    }
    Ok((done, t.elapsed().as_secs_f64()))
}
