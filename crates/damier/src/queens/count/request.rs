//! The use case behind a whole count of n, whichever front end asks (the command line,
//! Python, the lab's server or the browser): refused past the engines' reach, its cost
//! projected before it runs (the front end says so its own way), then counted on all cores or
//! share by share on one thread.
//!
//! ```
//! use damier::control::Control;
//! use damier::cpu::Isa;
//! use damier::queens::count::CountOptions;
//! use damier::queens::count::cost::WARN_CORE_HOURS;
//! use damier::queens::count::request::CountRequest;
//!
//! let request = CountRequest::new(8, CountOptions::on_this_machine(Isa::best(), None)).unwrap();
//! let control = Control::new();
//! assert!(request.warning(WARN_CORE_HOURS, 1, &control).unwrap().is_none());
//! assert_eq!(request.count(&control).unwrap().total, 92);
//! let mut steps = Vec::new();
//! assert_eq!(request.count_by_parts(&control, &mut |done, of| steps.push((done, of))).unwrap().unique, 12);
//! assert_eq!(steps.last(), Some(&(64, 64)));
//! assert!(CountRequest::new(29, CountOptions::on_this_machine(Isa::best(), None)).is_err());
//! ```

use crate::control::Control;
use crate::queens::Counts;
use crate::queens::reach::{self, CountRefused};

use super::cost::{self, CostQuery, CostWarning};
use super::tasks::{TaskEngine, TaskError, TaskList};
use super::{CountError, CountOptions, Share, Strategy};

/// From this `n` a count on one thread ([`CountRequest::count_by_parts`], a browser's worker)
/// uses the quarter-board engine, below it the backtracker: the faster one on one thread
/// (measured in Chromium on the project machine, docs/web.md: n = 12 took 0.095 s by quarters,
/// 0.028 s by the backtracker; n = 14 0.19 and 0.27 s; n = 16 2.3 and 8.2 s).
pub const QUARTERS_FROM_N: u32 = 14;

/// A whole count of n, accepted by the engines' reach.
#[derive(Clone, Copy, Debug)]
pub struct CountRequest {
    n: u32,
    options: CountOptions,
}

impl CountRequest {
    /// A count of `n` with `options`: refused for n = 0, past [`super::MAX_N`], and past the
    /// fast engine's reach, where only the backtracker is left, for core years
    /// ([`reach::check_count`]).
    pub fn new(n: u32, options: CountOptions) -> Result<CountRequest, CountRefused> {
        reach::check_count(n, false)?;
        Ok(CountRequest { n, options })
    }

    /// The board size.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The projected cost when it passes `threshold_hours` core hours ([`cost::projected_cost`]:
    /// a count projected cheaper pays nothing, no estimate runs; `seed` draws the tasks a quick
    /// estimate times); `None` too for an n without a task list.
    pub fn warning(
        &self,
        threshold_hours: f64,
        seed: u64,
        control: &Control,
    ) -> Result<Option<CostWarning>, TaskError> {
        let Ok(list) = TaskList::new(self.n) else { return Ok(None) };
        let tasks = u64::from(list.len());
        let query = CostQuery {
            n: self.n,
            engine: TaskEngine::best_for(self.n),
            tasks,
            all_tasks: tasks,
            isa: self.options.isa,
        };
        cost::projected_cost(&query, threshold_hours, seed, control)
    }

    /// The tasks of the count (for a progress bar); 0 when unknown.
    pub fn tasks(&self) -> u64 {
        super::task_count(self.n).unwrap_or(0)
    }

    /// The counts, on the current thread pool.
    pub fn count(&self, control: &Control) -> Result<Counts, CountError> {
        super::count_solutions_with(self.n, &self.options, control)
    }

    /// The counts on the current thread, share after share (their totals add up to the
    /// count's, which gives the unique count), calling `step(done, parts)` before the first and
    /// after each, by the faster engine on one thread ([`QUARTERS_FROM_N`]). Each share of the
    /// quarter-board engine plans its own tables: 8 parts took 1.0 to 1.4 times as long as one
    /// at n = 16 and 17, 64 parts 2.4 to 3 times.
    pub fn count_by_parts(
        &self,
        control: &Control,
        step: &mut dyn FnMut(u64, u64),
    ) -> Result<Counts, CountError> {
        let (strategy, parts) =
            if self.n >= QUARTERS_FROM_N { (Strategy::Quarters, 8) } else { (Strategy::Backtrack, 64) };
        let options = CountOptions { strategy: Some(strategy), ..self.options };
        let mut total: u128 = 0;
        step(0, u64::from(parts));
        for (i, share) in (0..parts).filter_map(|i| Share::new(i, parts)).enumerate() {
            total += u128::from(super::count_share_with(self.n, share, &options, control)?);
            step(i as u64 + 1, u64::from(parts));
        }
        super::counts_from_total(self.n, super::total_from_sum(total)?)
    }
}
