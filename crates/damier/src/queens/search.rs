//! Bit-vector backtracking with the course chapter's characteristic vectors `V`, `G`, `D`.
//!
//! Bit `j` of a vector stands for column `j` of the next row. After a queen on row k with
//! `R_k = 1 << S[k]`: `V_{k+1} = V_k | R_k` (columns taken), `G_{k+1} = (G_k | R_k) << 1` and
//! `D_{k+1} = (D_k | R_k) >> 1` (the two diagonals, shifted one column per row), and the free
//! squares of row k+1 are `!(G | D | V)` — an O(1) test instead of the naive O(n) `EstLibre`.
//!
//! Columns are tried in increasing order, so solutions come out in the course chapter's backtracking
//! order (lexicographic order of `S`). The search is an explicit stack, so it can pause after
//! each solution: [`Solutions`] is an iterator, [`visit`] a callback that can stop early, and
//! neither collects anything.
//!
//! ```
//! use damier::queens::search::Solutions;
//!
//! assert_eq!(Solutions::new(8).unwrap().count(), 92);
//! let first = Solutions::new(8).unwrap().next().unwrap();
//! assert_eq!(first.one_based(), vec![1, 5, 8, 6, 3, 7, 2, 4]);
//! ```

use std::ops::ControlFlow;

use crate::control::{Control, Interrupted};
use crate::queens::Placement;

/// Largest n: the vectors are `u64` words.
pub const MAX_N: u32 = 64;

/// Largest n whose first solution ([`first`]) was measured to come within seconds: n = 34,
/// the slowest, places 2.29 · 10^9 queens (19 CPU-s at about 120 million a second); n = 30,
/// 56 million; n = 35, 236 million. Past it, the queens placed before the first solution
/// are unknown and may take hours or years ([`crate::queens::solve`] constructs a solution of
/// any n at once).
pub const FIRST_MEASURED_MAX: u32 = 35;

/// Why a search could not run or finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// n is larger than [`MAX_N`].
    #[error("n = {0} is too large for the bit-vector search: at most {MAX_N}")]
    TooLarge(u32),
    /// Cancelled through the [`Control`].
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
    /// A solution failed the independent checker: a bug, reported rather than printed.
    #[error("internal error: the search returned an invalid placement for n = {0}")]
    Invalid(u32),
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Free columns of this row not tried yet.
    free: u64,
    v: u64,
    g: u64,
    d: u64,
}

/// What one bounded step of the search found.
enum Step {
    Found,
    Exhausted,
    OutOfBudget,
}

/// The backtracking search as a resumable state machine.
#[derive(Clone, Debug)]
pub struct Solutions {
    n: usize,
    full: u64,
    stack: Vec<Frame>,
    cols: Vec<u32>,
    /// n = 0 has one (empty) solution, handed out once.
    empty_pending: bool,
    /// Nodes visited (queens placed), for progress and budgets.
    nodes: u64,
}

impl Solutions {
    /// A search over all solutions of n queens, in backtracking order.
    pub fn new(n: u32) -> Result<Solutions, SearchError> {
        if n > MAX_N {
            return Err(SearchError::TooLarge(n));
        }
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut stack = Vec::with_capacity(n as usize);
        if n > 0 {
            stack.push(Frame { free: full, v: 0, g: 0, d: 0 });
        }
        Ok(Solutions {
            n: n as usize,
            full,
            stack,
            cols: vec![0; n as usize],
            empty_pending: n == 0,
            nodes: 0,
        })
    }

    /// Queens placed so far (nodes of the decision tree visited).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Columns of the first row that are finished (every branch below them explored).
    pub fn first_row_done(&self) -> u32 {
        match self.stack.len() {
            0 => self.n as u32,
            // Below the first row: the columns left of the one being explored are done.
            1 if self.n > 1 => {
                let f = self.stack[0].free;
                if f == 0 { self.n as u32 } else { f.trailing_zeros() }
            }
            _ => self.cols[0],
        }
    }

    /// Advances to the next solution, placing at most `budget` queens.
    fn step(&mut self, mut budget: u64) -> Step {
        if self.empty_pending {
            self.empty_pending = false;
            return Step::Found;
        }
        loop {
            let row = match self.stack.len() {
                0 => break,
                len => len - 1,
            };
            let top = &mut self.stack[row];
            if top.free == 0 {
                self.stack.pop();
                continue;
            }
            if budget == 0 {
                return Step::OutOfBudget;
            }
            budget -= 1;
            self.nodes += 1;
            // PERF: lowest set bit = leftmost free column, isolated with x & -x.
            let bit = top.free & top.free.wrapping_neg();
            top.free ^= bit;
            self.cols[row] = bit.trailing_zeros();
            if row + 1 == self.n {
                return Step::Found;
            }
            let (v, g, d) = (top.v | bit, (top.g | bit) << 1, (top.d | bit) >> 1);
            let free = self.full & !(g | d | v);
            self.stack.push(Frame { free, v, g, d });
        }
        Step::Exhausted
    }

    /// The next solution's columns (0-based), polling `control` every few thousand nodes.
    pub fn next_with(&mut self, control: &Control) -> Result<Option<&[u32]>, Interrupted> {
        const BUDGET: u64 = 1 << 14;
        loop {
            if control.cancelled() {
                return Err(Interrupted);
            }
            match self.step(BUDGET) {
                Step::Found => return Ok(Some(&self.cols)),
                Step::Exhausted => return Ok(None),
                Step::OutOfBudget => {}
            }
        }
    }
}

impl Iterator for Solutions {
    type Item = Placement;

    fn next(&mut self) -> Option<Placement> {
        match self.step(u64::MAX) {
            Step::Found => Some(Placement::from_trusted(self.cols.clone())),
            _ => None,
        }
    }
}

/// Calls `f` with the 0-based columns of every solution in backtracking order, until `f`
/// breaks. Reports the first row's finished columns to `control.advance` (n units in all).
pub fn visit(
    n: u32,
    control: &Control,
    mut f: impl FnMut(&[u32]) -> ControlFlow<()>,
) -> Result<(), SearchError> {
    let mut s = Solutions::new(n)?;
    let mut reported = 0;
    while let Some(cols) = s.next_with(control)? {
        if f(cols).is_break() {
            return Ok(());
        }
        let done = s.first_row_done();
        control.advance(u64::from(done - reported.min(done)));
        reported = reported.max(done);
    }
    control.advance(u64::from(n - reported.min(n)));
    Ok(())
}

/// The first solution of n in backtracking order, the queens placed to reach it and the time
/// it took (the course chapter's "stop at the first solution" exercise). Serialised as
/// `n`, `columns` (1-based, null when n has no solution), `nodes`, `seconds`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FirstSolution {
    /// Board size.
    pub n: u32,
    /// The first solution, `None` for n = 2, 3.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "columns", serialize_with = "crate::queens::placement::serialize_one_based")
    )]
    pub placement: Option<Placement>,
    /// Queens placed by the search up to it.
    pub nodes: u64,
    /// Seconds of search.
    pub seconds: f64,
}

/// Why the first solution of an n is refused before the search starts ([`check_first`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FirstRefused {
    /// n = 0: no board.
    #[error("n must be at least 1")]
    NoBoard,
    /// n past [`MAX_N`] (the construction of [`crate::queens::solve`] finds one there).
    #[error("n = {0} is too large for backtracking: at most {MAX_N}")]
    TooLarge(u64),
}

/// The check every front end makes before [`first`] (the request layer's `queens first`, the
/// Python package's `queens.first`): a board, n >= 1, that the search runs, n <= [`MAX_N`];
/// the n checked.
///
/// ```
/// use damier::queens::search::{FirstRefused, check_first};
///
/// assert_eq!(check_first(8), Ok(8));
/// assert_eq!(check_first(0), Err(FirstRefused::NoBoard));
/// assert_eq!(check_first(65).unwrap_err().to_string(), "n = 65 is too large for backtracking: at most 64");
/// ```
pub fn check_first(n: u64) -> Result<u32, FirstRefused> {
    match n {
        0 => Err(FirstRefused::NoBoard),
        n if n > u64::from(MAX_N) => Err(FirstRefused::TooLarge(n)),
        n => Ok(n as u32),
    }
}

/// [`first`] with the queens placed and the time taken, the placement checked by the
/// independent checker ([`Placement::is_valid`]) before it is returned.
pub fn first_timed(n: u32, control: &Control) -> Result<FirstSolution, SearchError> {
    let start = crate::control::Stopwatch::start();
    let mut s = Solutions::new(n)?;
    let placement = s.next_with(control)?.map(|c| Placement::from_trusted(c.to_vec()));
    if placement.as_ref().is_some_and(|p| !p.is_valid()) {
        return Err(SearchError::Invalid(n));
    }
    Ok(FirstSolution { n, placement, nodes: s.nodes(), seconds: start.elapsed().as_secs_f64() })
}

/// The first solution in backtracking order, or `None` (n = 2, 3).
pub fn first(n: u32, control: &Control) -> Result<Option<Placement>, SearchError> {
    let mut s = Solutions::new(n)?;
    Ok(s.next_with(control)?.map(|c| Placement::from_trusted(c.to_vec())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::naive;

    #[test]
    fn same_list_as_the_naive_backtracker() {
        let c = Control::new();
        for n in 0..=9 {
            let fast: Vec<Placement> = Solutions::new(n).unwrap().collect();
            assert_eq!(fast, naive::solutions(n, &c).unwrap(), "n = {n}");
        }
    }

    #[test]
    fn visit_stops_early_and_reports_progress() {
        let c = Control::new();
        let mut seen = 0;
        visit(8, &c, |_| {
            seen += 1;
            if seen == 5 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })
        .unwrap();
        assert_eq!(seen, 5);
        let c = Control::new();
        visit(6, &c, |_| ControlFlow::Continue(())).unwrap();
        assert_eq!(c.done(), 6);
    }

    #[test]
    fn first_solutions() {
        let c = Control::new();
        assert_eq!(first(4, &c).unwrap().unwrap().to_string(), "(2, 4, 1, 3)");
        assert_eq!(first(8, &c).unwrap().unwrap().to_string(), "(1, 5, 8, 6, 3, 7, 2, 4)");
        assert_eq!(first(3, &c).unwrap(), None);
        assert!(first(20, &c).unwrap().unwrap().is_valid());
        assert_eq!(first(65, &c), Err(SearchError::TooLarge(65)));
        let stopped = Control::new();
        stopped.cancel();
        let err = first(30, &stopped).unwrap_err();
        assert_eq!(err, SearchError::Interrupted(Interrupted));
        // The CLI finds Ctrl-C by walking the error chain: Interrupted must be a source.
        assert!(std::error::Error::source(&err).is_some_and(|s| s.is::<Interrupted>()));
    }
}
