//! Counting all solutions and the classes up to the 8 symmetries of the square.
//!
//! Entry point: [`count_solutions`] (total and unique in one run, parallel on the current rayon pool).
//! [`count_with`] runs one chosen [`Strategy`] so engines can be compared side by side (the
//! caller picks the thread count by installing a rayon pool).
//!
//! Unique classes come from Burnside's lemma: no solution with n >= 2 is fixed by a
//! reflection, so `unique = (total + F180 + 2 F90) / 8`, where F90 and F180 count the solutions
//! fixed by a quarter turn and a half turn; both come from dedicated searches of rotation-
//! symmetric placements ([`fixed_by_quarter_turn`], [`fixed_by_half_turn`]) that cost next to
//! nothing beside the total.
//!
//! ```
//! use damier::control::Control;
//! use damier::queens::count::{count_solutions, counts_from_total};
//!
//! let counts = count_solutions(10, &Control::new()).unwrap();
//! assert_eq!((counts.total, counts.unique), (724, 92));
//! assert_eq!(counts_from_total(10, 724).unwrap().unique, 92); // Burnside's count from the total
//! ```

mod backtrack;
pub mod cost;
pub mod devices;
mod error;
pub mod estimate;
pub mod join;
pub mod journal;
pub mod known;
pub mod long;
mod quarters;
/// Measurement aids of the quarter-board engine (the feature `measure`): not API.
#[cfg(feature = "measure")]
#[doc(hidden)]
pub use quarters::measure;
pub mod recount;
pub mod request;
mod share;
mod sum;
mod symmetric;
pub mod tasks;

pub use backtrack::{solutions, total_plain};
pub use error::{CountError, MAX_N, MemoryLimit};
pub use share::{MAX_SHARES, Share, ShareError};
pub use sum::{ShareCount, SumError, SummedShares, sum_shares};
pub use symmetric::{fixed_by_half_turn, fixed_by_quarter_turn};

use crate::control::{Control, Interrupted};
use crate::cpu::Isa;

/// Total and unique solution counts for one n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Counts {
    /// Board size.
    pub n: u32,
    /// All solutions (OEIS A000170).
    pub total: u64,
    /// Solutions distinct up to rotation and reflection (OEIS A002562).
    pub unique: u64,
}

/// The counts of n and the seconds they took (a whole count off the task list, or the sum of
/// its shares, where `seconds` adds up the shares').
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TimedCounts {
    /// Board size.
    pub n: u32,
    /// Solutions (OEIS A000170).
    pub total: u64,
    /// Solutions up to symmetry (OEIS A002562).
    pub unique: u64,
    /// Seconds of counting.
    pub seconds: f64,
}

/// How the total of a whole count is computed; every strategy gives the same [`Counts`].
///
/// Not to be confused with [`tasks::TaskEngine`], the engines that count one task of the task
/// list (long counts, journals, estimates, recounts): `Quarters` is the same matcher in both,
/// but `Strategy::Backtrack` is the mirror-reduced backtracker over the whole board, where
/// `TaskEngine::Backtrack` is the per-task backtracker (the independent check of a task).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The plain bitboard backtracker: one thread, no symmetry. The test oracle.
    Plain,
    /// The bitboard backtracker with the mirror symmetry, in parallel.
    Backtrack,
    /// Half boards assembled from a table of quarter placements and matched by bit-sliced
    /// tables, with nearly all 8 symmetries. For n in 4..=27 (other n fall back to
    /// [`Strategy::Backtrack`]).
    Quarters,
}

impl Strategy {
    /// Every strategy, slowest first.
    pub const ALL: [Strategy; 3] = [Strategy::Plain, Strategy::Backtrack, Strategy::Quarters];

    /// Short lowercase name (`plain`, `backtrack`, `quarters`).
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Plain => "plain",
            Strategy::Backtrack => "backtrack",
            Strategy::Quarters => "quarters",
        }
    }

    /// The strategy [`count_solutions`] uses for n.
    pub fn best_for(n: u32) -> Strategy {
        if (10..=quarters::MAX_N).contains(&n) { Strategy::Quarters } else { Strategy::Backtrack }
    }

    /// The strategy that actually runs for n (`Quarters` outside its range runs `Backtrack`).
    fn effective(self, n: u32) -> Strategy {
        match self {
            Strategy::Quarters if !(quarters::MIN_N..=quarters::MAX_N).contains(&n) => Strategy::Backtrack,
            s => s,
        }
    }
}

/// Counts the solutions of n queens, total and up to symmetry, in one run.
///
/// Runs in parallel on the current rayon pool (install a pool to choose the thread count);
/// the result does not depend on it. Polls `control` between tasks (returns
/// [`CountError::Interrupted`] once it is cancelled) and advances it by one per finished task
/// (see [`task_count`]). n = 0 counts the empty board once.
pub fn count_solutions(n: u32, control: &Control) -> Result<Counts, CountError> {
    count_with(n, Strategy::best_for(n), control)
}

/// [`count_solutions`] with a chosen strategy.
pub fn count_with(n: u32, strategy: Strategy, control: &Control) -> Result<Counts, CountError> {
    count_solutions_with(n, &CountOptions { strategy: Some(strategy), ..CountOptions::default() }, control)
}

/// [`count_solutions`] with chosen [`CountOptions`] (engine, vector unit, memory cap): the
/// total of every share and the unique count from it ([`counts_from_total`]). What the CLI's
/// `queens count` and the Python package's `queens.count` run, after
/// [`check_count`](crate::queens::reach::check_count).
pub fn count_solutions_with(n: u32, options: &CountOptions, control: &Control) -> Result<Counts, CountError> {
    let total = count_share_with(n, Share::WHOLE, options, control)?;
    counts_from_total(n, total)
}

/// How a count runs, beyond n and the share: for benchmarks and cross-checks that force an
/// engine or a vector unit. Every choice gives the same counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountOptions {
    /// The engine; `None`: [`Strategy::best_for`] n.
    pub strategy: Option<Strategy>,
    /// The vector unit the quarter-board kernels run on (default: [`Isa::best`]); one this
    /// CPU lacks is refused ([`CountError::IsaUnavailable`]).
    pub isa: Isa,
    /// Most bytes the quarter-board engine may allocate; `None`: no limit. The whole quarter
    /// table (0.55 GB at n = 21, 22; 4.9 GB at n = 23, 24) is built only if it fits;
    /// otherwise each task searches the quarter placements it needs. A count that cannot fit
    /// even so is refused ([`CountError::MemoryLimit`]).
    pub memory: Option<u64>,
}

impl CountOptions {
    /// The options of a count on this machine: the kernels on `isa`, within `memory` bytes or,
    /// when `None`, the memory available now ([`crate::util::available_memory`]; no cap
    /// where it cannot be read), so that a count builds the whole quarter table only if it
    /// fits beside what else runs; either way at most the process's address-space limit
    /// ([`crate::util::address_space_limit`], `ulimit -v`) where it has one: under a 1 GB
    /// limit, `queens count 23` took the 22 GB available as its room, asked for the 4.9 GB
    /// quarter table and aborted (signal 6).
    pub fn on_this_machine(isa: Isa, memory: Option<u64>) -> CountOptions {
        let room = memory.or_else(crate::util::available_memory);
        // The limit's room is what the program and its threads leave of it.
        let reserve = quarters::PROCESS_BYTES + rayon::current_num_threads() as u64 * quarters::THREAD_BYTES;
        let limit = crate::util::address_space_limit().map(|l| l.saturating_sub(reserve));
        let memory = match (room, limit) {
            (Some(room), Some(limit)) => Some(room.min(limit)),
            (room, limit) => room.or(limit),
        };
        CountOptions { isa, memory, strategy: None }
    }
}

impl Default for CountOptions {
    fn default() -> Self {
        CountOptions { strategy: None, isa: Isa::best(), memory: None }
    }
}

/// [`count_share`] with chosen [`CountOptions`].
pub fn count_share_with(
    n: u32,
    share: Share,
    options: &CountOptions,
    control: &Control,
) -> Result<u64, CountError> {
    if !options.isa.is_available() {
        return Err(CountError::IsaUnavailable(options.isa));
    }
    let strategy = options.strategy.unwrap_or_else(|| Strategy::best_for(n));
    total_with(n, strategy, share, options, control)
}

/// Refuses, before it starts, a count of this share of n that cannot fit `options.memory` on
/// the current rayon pool ([`CountError::MemoryLimit`]), as [`count_share_with`] would once
/// started: a front end checks this before it announces the count. Counts of the other
/// engines take little memory and pass.
pub fn check_memory(n: u32, share: Share, options: &CountOptions) -> Result<(), CountError> {
    if n > MAX_N || n <= 1 {
        return Ok(());
    }
    let strategy = options.strategy.unwrap_or_else(|| Strategy::best_for(n));
    if strategy.effective(n) == Strategy::Quarters {
        let tasks = quarters::task_count(n, share) as usize;
        quarters::check_memory(n, tasks, options.memory, quarters::wide_tables(options.isa))?;
    }
    Ok(())
}

/// The total of one share of the solutions of n queens: the totals of shares `0..of` add up to
/// [`count_solutions`]'s total, which [`counts_from_total`] completes with the unique count.
///
/// For counts too long for one machine: each process or machine counts its share (in parallel
/// on its rayon pool, like [`count_solutions`]) and the totals are added.
pub fn count_share(n: u32, share: Share, control: &Control) -> Result<u64, CountError> {
    count_share_with(n, share, &CountOptions::default(), control)
}

/// The counts of n queens from the total (the sum of all shares' totals), the unique count by
/// Burnside's lemma. Fails with [`CountError::ImpossibleTotal`] if the Burnside sum is not a
/// multiple of 8, which catches most wrong or incomplete sums.
pub fn counts_from_total(n: u32, total: u64) -> Result<Counts, CountError> {
    if n > MAX_N {
        return Err(CountError::TooLarge(n));
    }
    if n <= 1 {
        return match total {
            1 => Ok(Counts { n, total, unique: 1 }),
            _ => Err(CountError::ImpossibleTotal { n, total }),
        };
    }
    // In a u128: a total near the top of a u64 is still checked, not refused for overflowing.
    let sum =
        u128::from(total) + u128::from(fixed_by_half_turn(n)) + 2 * u128::from(fixed_by_quarter_turn(n));
    if sum % 8 != 0 {
        return Err(CountError::ImpossibleTotal { n, total });
    }
    // At most (2^64 + 3 * 2^64) / 8 = 2^63.
    let unique = u64::try_from(sum / 8).map_err(|_| CountError::ImpossibleTotal { n, total })?;
    Ok(Counts { n, total, unique })
}

/// A sum of shares' or tasks' counts, kept in a `u128` while it is added up (so that nothing
/// wraps, whatever the inputs), as the `u64` total of a count: [`CountError::TotalTooLarge`]
/// when it does not fit (every known total does, and q(28) should by a factor of 7; from
/// q(29) on none does, see [`known::total_fits_u64`]).
pub fn total_from_sum(total: u128) -> Result<u64, CountError> {
    u64::try_from(total).map_err(|_| CountError::TotalTooLarge { total })
}

/// The total of one share with a chosen strategy.
fn total_with(
    n: u32,
    strategy: Strategy,
    share: Share,
    options: &CountOptions,
    control: &Control,
) -> Result<u64, CountError> {
    if n > MAX_N {
        return Err(CountError::TooLarge(n));
    }
    let first = share.index() == 0;
    if n <= 1 {
        return Ok(u64::from(first));
    }
    let total = match strategy.effective(n) {
        Strategy::Plain => {
            if control.cancelled() {
                return Err(Interrupted.into());
            }
            let t = if first { total_plain(n) } else { 0 };
            control.advance(1);
            t
        }
        Strategy::Backtrack => backtrack::total(n, share, control)?,
        Strategy::Quarters => quarters::total(n, share, options.isa, options.memory, control)?,
    };
    if control.cancelled() {
        return Err(Interrupted.into());
    }
    Ok(total)
}

/// How many times [`count_solutions`] advances its control for n (its progress total), or `None` for
/// n > [`MAX_N`].
pub fn task_count(n: u32) -> Option<u64> {
    task_count_with(n, Strategy::best_for(n), Share::WHOLE)
}

/// How many times [`count_share`] advances its control for n and this share.
pub fn task_count_share(n: u32, share: Share) -> Option<u64> {
    task_count_with(n, Strategy::best_for(n), share)
}

/// [`task_count`] for a chosen strategy and share.
pub fn task_count_with(n: u32, strategy: Strategy, share: Share) -> Option<u64> {
    if n > MAX_N {
        return None;
    }
    if n <= 1 {
        return Some(0);
    }
    Some(match strategy.effective(n) {
        Strategy::Plain => 1,
        Strategy::Backtrack => share.take(backtrack::tasks(n)).len() as u64,
        Strategy::Quarters => quarters::task_count(n, share),
    })
}

#[cfg(test)]
mod tests;
