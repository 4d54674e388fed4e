//! Random solutions for huge n by conflict-minimising local search (the QS4 family of Sosic
//! and Gu, 1991).
//!
//! The columns always form a permutation, so only the two diagonal directions can hold
//! conflicts. [`solve`] works in two stages:
//!
//! 1. **Greedy start.** Rows are filled in order; each takes the first free column whose two
//!    diagonals are still empty, scanning from a random column `c0` (wrapping). While free
//!    columns are plentiful, one 64-bit word of each occupancy bitmap answers for 64 columns
//!    at once (free column, free up-diagonal `r + c`, free down-diagonal `c - r + n - 1`:
//!    both indices grow with `c`, so the three windows line up). Once fewer than `n / 256`
//!    columns are free, the scan runs over a sorted list of the free columns instead. A row
//!    for which nothing fits within a bounded scan is deferred; at the end the deferred rows
//!    receive the leftover columns in random order. (The pick is random but not uniform
//!    among the fitting columns: a column after a long run of unfit ones is likelier.)
//! 2. **Repair.** Only the deferred queens (and the greedy queens they hit) conflict. A
//!    conflicting queen swaps columns with a random row when the swap lowers the total number
//!    of diagonal collisions (a diagonal holding k >= 1 queens has k - 1). The counts are an
//!    occupancy bit per diagonal plus a small map for the few diagonals holding two queens or
//!    more, so a swap is evaluated in O(1) and the whole state stays at 4n + n/2 bytes.
//!
//! Small boards can get stuck in a local minimum; after a budget of unproductive swaps the
//! search starts again from a new greedy start (same generator, so still deterministic).
//!
//! Every draw comes from [`Xoshiro256PlusPlus`] seeded with the caller's seed through
//! integer-only bounded draws, and the search is single-threaded: the same `(n, seed)` gives
//! the same solution on every machine. Each result passes the streaming [`Occupancy`] checker
//! (O(n), independent of the search) before it is returned.
//!
//! ```
//! use damier::control::Control;
//! use damier::queens::local;
//!
//! let found = local::solve(10_000, 7, &Control::new()).unwrap();
//! assert!(found.placement.is_valid());
//! // The same seed gives the same solution.
//! assert_eq!(local::solve(10_000, 7, &Control::new()).unwrap().placement, found.placement);
//! ```

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

use crate::control::{Control, Interrupted};
use crate::queens::Placement;
use crate::queens::placement::{Occupancy, OccupancyError};
use crate::random::below;

/// Largest n accepted (10^8): the search holds 4 bytes per row plus about 5 bits per row of
/// bitmaps, and the check another 5 bits per row (about 0.5 GB at the limit).
pub const MAX_N: u32 = 100_000_000;

/// What [`bytes_needed`] counts, for messages.
const BYTES_PER_ROW_TEXT: &str = "4 bytes a row and 10 bits of bitmaps";

/// Bytes the search and its check need for `n` rows (the figure quoted when refusing).
pub fn bytes_needed(n: u32) -> u64 {
    let rows = u64::from(n);
    // Columns (u32) + free-column, up- and down-diagonal bitmaps (n + 2n + 2n bits) + check.
    4 * rows + 5 * rows.div_ceil(8) + Occupancy::bytes_for(n)
}

/// Why local search returned no solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocalError {
    /// n = 2 and 3 have no solution.
    #[error("n = {0}: no solution (no {0} queens fit on a {0}x{0} board without attacking)")]
    NoSolution(u32),
    /// Above [`MAX_N`].
    #[error(
        "n = {n} is too large for local search: at most {MAX_N} (it needs about {mb} MB here; \
         the construction goes to 10^9)",
        mb = bytes_needed(*n) / 1_000_000
    )]
    TooLarge {
        /// The n asked for.
        n: u32,
    },
    /// What the search needs ([`bytes_needed`]) cannot fit the address-space limit.
    #[error("n = {n}: local search holds {} ({BYTES_PER_ROW_TEXT}): {source}", crate::util::bytes_text(bytes_needed(*n)))]
    OutOfMemory {
        /// The n asked for.
        n: u32,
        /// The refusal.
        source: crate::util::OutOfMemory,
    },
    /// Cancelled through the [`Control`].
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
    /// The checker rejected the search's output: a bug, reported rather than printed.
    #[error("internal error: local search for n = {n}, seed {seed} failed its check: {source}")]
    Invalid {
        /// The board size.
        n: u32,
        /// The seed.
        seed: u64,
        /// What the checker found.
        source: OccupancyError,
    },
}

/// What one search did: how good the greedy start was and how much repair it needed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SearchStats {
    /// Rows the final greedy start placed without conflict.
    pub greedy_rows: u64,
    /// Rows it deferred (filled with the leftover columns in random order).
    pub deferred_rows: u64,
    /// Candidate tests the greedy starts made (64-column words and listed columns).
    pub start_probes: u64,
    /// Diagonal collisions after the start (k - 1 per diagonal holding k >= 1 queens).
    pub start_collisions: u64,
    /// Swaps evaluated during the repair (all starts).
    pub swaps_tried: u64,
    /// Swaps made (each lowered the collisions), in the final start's repair.
    pub swaps_made: u64,
    /// Starts abandoned in a local minimum (small n only).
    pub restarts: u32,
}

/// A checked solution and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalSolution {
    /// The solution (checked).
    pub placement: Placement,
    /// Search statistics.
    pub stats: SearchStats,
}

/// Work units [`solve`] reports through its [`Control`]: one per row searched and one per row
/// checked.
pub fn progress_units(n: u32) -> u64 {
    2 * u64::from(n)
}

/// A random solution for `n` queens from `seed`, checked before it is returned.
///
/// n = 0 and 1 are trivial, 2 and 3 have none ([`LocalError::NoSolution`]), above [`MAX_N`]
/// is refused. Polls `control` every 2^16 rows and advances it by [`progress_units`] in all.
pub fn solve(n: u32, seed: u64, control: &Control) -> Result<LocalSolution, LocalError> {
    if n == 2 || n == 3 {
        return Err(LocalError::NoSolution(n));
    }
    if n > MAX_N {
        return Err(LocalError::TooLarge { n });
    }
    crate::util::check_fits(bytes_needed(n)).map_err(|source| LocalError::OutOfMemory { n, source })?;
    let mut search = Search::new(n as usize, seed);
    let stats = search.run(control)?;
    let cols = search.cols;
    check(n, &cols, control).map_err(|e| match e {
        CheckFailure::Interrupted => LocalError::Interrupted(Interrupted),
        CheckFailure::Invalid(source) => LocalError::Invalid { n, seed, source },
    })?;
    Ok(LocalSolution { placement: Placement::from_trusted(cols), stats })
}

enum CheckFailure {
    Interrupted,
    Invalid(OccupancyError),
}

/// The independent O(n) check: one occupancy bit per column and per diagonal.
fn check(n: u32, cols: &[u32], control: &Control) -> Result<(), CheckFailure> {
    let mut occ = Occupancy::new(n);
    for block in cols.chunks(1 << 16) {
        if control.cancelled() {
            return Err(CheckFailure::Interrupted);
        }
        occ.push_all(block).map_err(CheckFailure::Invalid)?;
        control.advance(block.len() as u64);
    }
    occ.finish().map_err(CheckFailure::Invalid)
}

/// A bitmap with two spare words, so a 64-bit window may start at any index below its length.
#[derive(Clone, Debug)]
struct Bits {
    words: Vec<u64>,
}

impl Bits {
    fn zeros(bits: usize) -> Bits {
        Bits { words: vec![0; bits.div_ceil(64) + 2] }
    }

    fn clear_all(&mut self) {
        self.words.fill(0);
    }

    #[inline(always)]
    fn get(&self, i: usize) -> bool {
        self.words[i >> 6] >> (i & 63) & 1 == 1
    }

    #[inline(always)]
    fn set(&mut self, i: usize) {
        self.words[i >> 6] |= 1 << (i & 63);
    }

    #[inline(always)]
    fn clear(&mut self, i: usize) {
        self.words[i >> 6] &= !(1 << (i & 63));
    }

    /// The indices below `len` of the set bits, in increasing order.
    fn ones(&self, len: usize) -> Vec<u32> {
        let mut out = Vec::new();
        for (w, &word) in self.words.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                if i >= len {
                    return out;
                }
                out.push(i as u32);
                bits &= bits - 1;
            }
        }
        out
    }

    /// Bits `i..i + 64`, bit k of the result being bit `i + k`.
    #[inline(always)]
    fn window(&self, i: usize) -> u64 {
        let w = i >> 6;
        // PERF: one 128-bit funnel shift (`shrd`) instead of a branch on the bit offset.
        let pair = u128::from(self.words[w + 1]) << 64 | u128::from(self.words[w]);
        (pair >> (i & 63)) as u64
    }

    /// Prefetches the cache line holding bit `i` (a hint only).
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        if let Some(word) = self.words.get(i >> 6) {
            crate::cpu::prefetch(word);
        }
    }
}

/// Hashes a diagonal index with one multiplication (Fibonacci hashing): the keys are indices
/// the search picked, not an adversary's, so SipHash's protection is not needed.
#[derive(Clone, Copy, Debug, Default)]
struct DiagonalHasher(u64);

impl std::hash::Hasher for DiagonalHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u32(&mut self, i: u32) {
        // PERF: one multiply per lookup in the repair's hot loop.
        self.0 = (self.0 ^ u64::from(i)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Queens per diagonal: an occupancy bit, plus an exact count for the few diagonals holding two
/// queens or more (the bit alone is the count for all others).
#[derive(Clone, Debug)]
struct DiagonalCounts {
    occupied: Bits,
    crowded: HashMap<u32, u32, BuildHasherDefault<DiagonalHasher>>,
}

impl DiagonalCounts {
    #[inline]
    fn count(&self, d: usize) -> u32 {
        if !self.occupied.get(d) { 0 } else { self.crowded.get(&(d as u32)).copied().unwrap_or(1) }
    }

    /// Adds a queen on `d`; returns the collisions added (1 if `d` was occupied).
    #[inline]
    fn add(&mut self, d: usize) -> u64 {
        if !self.occupied.get(d) {
            self.occupied.set(d);
            0
        } else {
            *self.crowded.entry(d as u32).or_insert(1) += 1;
            1
        }
    }

    /// Removes a queen from `d` (which holds one); returns the collisions removed.
    #[inline]
    fn remove(&mut self, d: usize) -> u64 {
        debug_assert!(self.occupied.get(d));
        match self.crowded.get_mut(&(d as u32)) {
            None => {
                self.occupied.clear(d);
                0
            }
            Some(k) => {
                *k -= 1;
                if *k == 1 {
                    self.crowded.remove(&(d as u32));
                }
                1
            }
        }
    }
}

/// Rows placed between two polls of the [`Control`].
const POLL_ROWS: usize = 1 << 16;
/// Rows whose first random column is drawn (and prefetched) in advance.
const AHEAD: usize = 16;
/// 64-column steps a row scans before it is deferred, while free columns are plentiful.
const SCAN_WORDS: u32 = 1024;
/// The greedy start switches from scanning words to scanning the sorted list of free columns
/// below `n / LIST_SWITCH` free columns.
const LIST_SWITCH: usize = 256;
/// Most list entries a row scans before it is deferred.
const LIST_SCAN: usize = 4096;
/// Swap partners a conflicting queen tries before it waits for its next turn.
const PARTNER_TRIES: u32 = 4096;
/// Unproductive swaps allowed per start, at least, before the search starts again (small
/// boards get stuck often, and a fresh start is cheaper than a long wait).
const RESTART_SWAPS: u64 = 1 << 10;

/// The search state for one board size.
struct Search {
    n: usize,
    rng: Xoshiro256PlusPlus,
    /// The permutation: `cols[r]` is the column of row `r`.
    cols: Vec<u32>,
    up: DiagonalCounts,
    down: DiagonalCounts,
    free: Bits,
}

impl Search {
    fn new(n: usize, seed: u64) -> Search {
        let diag = || DiagonalCounts { occupied: Bits::zeros(2 * n), crowded: HashMap::default() };
        Search {
            n,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            cols: vec![0; n],
            up: diag(),
            down: diag(),
            free: Bits::zeros(n),
        }
    }

    #[inline(always)]
    fn up_index(r: usize, c: usize) -> usize {
        r + c
    }

    #[inline(always)]
    fn down_index(&self, r: usize, c: usize) -> usize {
        c + self.n - 1 - r
    }

    fn below(&mut self, m: usize) -> usize {
        below(&mut self.rng, m as u64) as usize
    }

    fn run(&mut self, control: &Control) -> Result<SearchStats, Interrupted> {
        let mut stats = SearchStats::default();
        loop {
            let (deferred, start_collisions) = self.greedy_start(control, &mut stats)?;
            stats.greedy_rows = (self.n - deferred.len()) as u64;
            stats.deferred_rows = deferred.len() as u64;
            stats.start_collisions = start_collisions;
            stats.swaps_made = 0;
            if self.repair(deferred, start_collisions, &mut stats, control)? {
                return Ok(stats);
            }
            stats.restarts += 1;
        }
    }

    /// Fills every row; returns the deferred rows and the collisions left.
    fn greedy_start(
        &mut self,
        control: &Control,
        stats: &mut SearchStats,
    ) -> Result<(Vec<u32>, u64), Interrupted> {
        let n = self.n;
        self.up.occupied.clear_all();
        self.up.crowded.clear();
        self.down.occupied.clear_all();
        self.down.crowded.clear();
        self.free.clear_all();
        for c in 0..n {
            self.free.set(c);
        }
        let mut deferred: Vec<u32> = Vec::new();
        let mut remaining = n;
        // PERF: each row starts at a random column drawn AHEAD rows in advance, so the three
        // cache lines it will read are prefetched while earlier rows are placed. The draws
        // are still taken from the generator in one fixed order.
        let mut ahead = [0usize; AHEAD];
        for (k, slot) in ahead.iter_mut().enumerate().take(n) {
            *slot = below(&mut self.rng, n as u64) as usize;
            self.prefetch_row(k, *slot);
        }
        // Stage 2's sorted list of free columns (a column stays listed after it is taken,
        // until the next compaction; `free` says which entries are live).
        let mut list: Vec<u32> = Vec::new();
        let mut live = 0usize;
        for row in 0..n {
            if row % POLL_ROWS == 0 {
                if control.cancelled() {
                    return Err(Interrupted);
                }
                control.advance(POLL_ROWS.min(n - row) as u64);
            }
            let c0 = ahead[row % AHEAD];
            if row + AHEAD < n {
                let next = below(&mut self.rng, n as u64) as usize;
                ahead[row % AHEAD] = next;
                self.prefetch_row(row + AHEAD, next);
            }
            let picked = if remaining * LIST_SWITCH >= n {
                self.scan_words(row, c0, &mut stats.start_probes)
            } else {
                if list.is_empty() {
                    list = self.free.ones(n);
                } else if 2 * live < list.len() {
                    list.retain(|&c| self.free.get(c as usize));
                }
                live = list.len();
                self.scan_list(row, c0, &list, &mut stats.start_probes)
            };
            match picked {
                Some(c) => {
                    self.place(row, c);
                    self.free.clear(c);
                    remaining -= 1;
                    live = live.saturating_sub(1);
                }
                None => deferred.push(row as u32),
            }
        }
        // The deferred rows take the leftover columns in random order.
        let mut leftover = self.free.ones(n);
        debug_assert_eq!(leftover.len(), deferred.len());
        for k in (1..leftover.len()).rev() {
            let j = self.below(k + 1);
            leftover.swap(k, j);
        }
        let mut collisions = 0;
        for (&r, &c) in deferred.iter().zip(&leftover) {
            let (r, c) = (r as usize, c as usize);
            self.cols[r] = c as u32;
            collisions += self.up.add(Self::up_index(r, c));
            let d = self.down_index(r, c);
            collisions += self.down.add(d);
        }
        Ok((deferred, collisions))
    }

    /// Prefetches the words a row starting at column `c0` reads first.
    #[inline(always)]
    fn prefetch_row(&self, row: usize, c0: usize) {
        self.free.prefetch(c0);
        self.up.occupied.prefetch(row + c0);
        self.down.occupied.prefetch(c0 + self.n - 1 - row);
    }

    /// Puts the queen of `row` on `c`, whose diagonals are free.
    #[inline(always)]
    fn place(&mut self, row: usize, c: usize) {
        self.cols[row] = c as u32;
        self.up.occupied.set(Self::up_index(row, c));
        let d = self.down_index(row, c);
        self.down.occupied.set(d);
    }

    /// Stage 1: the first fitting column from `c0` on (wrapping), reading 64 columns per
    /// step, at most [`SCAN_WORDS`] steps.
    #[inline(always)]
    fn scan_words(&self, row: usize, c0: usize, probes: &mut u64) -> Option<usize> {
        let n = self.n;
        let mut c = c0;
        for _ in 0..SCAN_WORDS {
            *probes += 1;
            // PERF: 64 candidate columns per step: free columns, free up-diagonals (r + c) and
            // free down-diagonals (c - r + n - 1) as three 64-bit windows that line up, since
            // both diagonal indices grow with c. Bits past column n - 1 are 0 in `free`, and
            // the scan moves on sequentially, so the hardware prefetcher follows it.
            let fits = self.free.window(c)
                & !self.up.occupied.window(row + c)
                & !self.down.occupied.window(c + n - 1 - row);
            if fits != 0 {
                return Some(c + fits.trailing_zeros() as usize);
            }
            c += 64;
            if c >= n {
                c = 0;
            }
        }
        None
    }

    /// Stage 2: the first fitting free column of the sorted `list` from column `c0` on
    /// (wrapping), testing at most [`LIST_SCAN`] free columns.
    fn scan_list(&self, row: usize, c0: usize, list: &[u32], probes: &mut u64) -> Option<usize> {
        let m = list.len();
        if m == 0 {
            return None;
        }
        let start = list.partition_point(|&c| (c as usize) < c0);
        let mut tested = 0;
        for k in (start..m).chain(0..start) {
            let c = list[k] as usize;
            if !self.free.get(c) {
                continue;
            }
            *probes += 1;
            if !self.up.occupied.get(Self::up_index(row, c))
                && !self.down.occupied.get(self.down_index(row, c))
            {
                return Some(c);
            }
            tested += 1;
            if tested == LIST_SCAN {
                break;
            }
        }
        None
    }

    #[inline]
    fn conflicted(&self, row: usize) -> bool {
        let c = self.cols[row] as usize;
        self.up.count(Self::up_index(row, c)) > 1 || self.down.count(self.down_index(row, c)) > 1
    }

    /// Applies `op` (add or remove) to the diagonals of the queens of rows `a` and `b`;
    /// returns the collisions it added or removed.
    #[inline]
    fn both_queens(&mut self, a: usize, b: usize, op: fn(&mut DiagonalCounts, usize) -> u64) -> u64 {
        let (ca, cb) = (self.cols[a] as usize, self.cols[b] as usize);
        let (da, db) = (self.down_index(a, ca), self.down_index(b, cb));
        op(&mut self.up, Self::up_index(a, ca))
            + op(&mut self.down, da)
            + op(&mut self.up, Self::up_index(b, cb))
            + op(&mut self.down, db)
    }

    /// Swaps the columns of rows `a` and `b` if that lowers the collisions; returns the
    /// collisions removed (0 when the swap was undone).
    fn try_swap(&mut self, a: usize, b: usize) -> u64 {
        let removed = self.both_queens(a, b, DiagonalCounts::remove);
        self.cols.swap(a, b);
        let added = self.both_queens(a, b, DiagonalCounts::add);
        if added < removed {
            return removed - added;
        }
        self.both_queens(a, b, DiagonalCounts::remove);
        self.cols.swap(a, b);
        self.both_queens(a, b, DiagonalCounts::add);
        0
    }

    /// Swaps until no collision is left (true) or the budget runs out (false: restart).
    fn repair(
        &mut self,
        deferred: Vec<u32>,
        mut collisions: u64,
        stats: &mut SearchStats,
        control: &Control,
    ) -> Result<bool, Interrupted> {
        let n = self.n;
        let mut work: std::collections::VecDeque<u32> = deferred.into();
        let mut unproductive = 0u64;
        let budget = RESTART_SWAPS.max(16 * n as u64);
        // PERF: a small board has few partners; trying each about 8 times is plenty.
        let partner_tries = PARTNER_TRIES.min(8 * n as u32);
        while collisions > 0 {
            let Some(row) = work.pop_front() else {
                // A conflict whose queens all left the list (a queen moved away from a
                // diagonal that still holds two): find every conflicting row again.
                work = (0..n as u32).filter(|&r| self.conflicted(r as usize)).collect();
                continue;
            };
            let row = row as usize;
            if !self.conflicted(row) {
                continue;
            }
            let mut fixed = false;
            for _ in 0..partner_tries {
                let other = self.below(n);
                stats.swaps_tried += 1;
                if other == row {
                    continue;
                }
                let gain = self.try_swap(row, other);
                if gain > 0 {
                    collisions -= gain;
                    stats.swaps_made += 1;
                    if self.conflicted(other) {
                        work.push_back(other as u32);
                    }
                    if self.conflicted(row) {
                        work.push_back(row as u32);
                    }
                    fixed = true;
                    break;
                }
                unproductive += 1;
            }
            if !fixed {
                work.push_back(row as u32);
            }
            if unproductive > budget {
                return Ok(false);
            }
            if control.cancelled() {
                return Err(Interrupted);
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn run(n: u32, seed: u64) -> LocalSolution {
        solve(n, seed, &Control::new()).unwrap_or_else(|e| panic!("n = {n}, seed {seed}: {e}"))
    }

    #[test]
    fn small_boards_and_refusals() {
        assert_eq!(run(0, 1).placement.n(), 0);
        assert_eq!(run(1, 1).placement.columns(), &[0]);
        assert_eq!(solve(2, 1, &Control::new()), Err(LocalError::NoSolution(2)));
        assert_eq!(solve(3, 9, &Control::new()), Err(LocalError::NoSolution(3)));
        assert!(matches!(solve(MAX_N + 1, 0, &Control::new()), Err(LocalError::TooLarge { .. })));
    }

    #[test]
    fn many_sizes_and_seeds_pass_the_independent_checker() {
        for n in 4..=120 {
            for seed in 0..6 {
                let s = run(n, seed);
                assert!(s.placement.is_valid(), "n = {n}, seed {seed}: {}", s.placement);
            }
        }
        for n in [1000, 4099, 65_537, 250_000] {
            let s = run(n, u64::from(n));
            assert_eq!(s.placement.n(), n);
            if n <= 70_000 {
                assert!(s.placement.is_valid(), "n = {n}");
            }
        }
    }

    #[test]
    fn every_solution_of_small_boards_is_reached() {
        // n = 6 has 4 solutions, n = 7 has 40: local search from many seeds finds them all.
        use crate::queens::search::Solutions;
        for n in [6u32, 7] {
            let all: std::collections::HashSet<Placement> = Solutions::new(n).unwrap().collect();
            let found: std::collections::HashSet<Placement> =
                (0..2000).map(|seed| run(n, seed).placement).collect();
            assert_eq!(found, all, "n = {n}");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_solution_and_seeds_differ() {
        for n in [8, 100, 10_007] {
            assert_eq!(run(n, 42), run(n, 42), "n = {n}");
        }
        let distinct: std::collections::HashSet<Placement> =
            (0..20).map(|s| run(1000, s).placement).collect();
        assert_eq!(distinct.len(), 20);
    }

    #[test]
    fn a_pinned_solution_stays_the_same() {
        // `--seed` promises the same solution on every machine and in every version: these
        // were produced once by this code (checked valid here); a change that alters them
        // changes every user's solutions and must be announced.
        let s = run(12, 2026);
        assert!(s.placement.is_valid());
        assert_eq!(s.placement.to_string(), "(7, 10, 4, 2, 8, 11, 3, 1, 6, 9, 5, 12)");
        assert_eq!(run(8, 2026).placement.to_string(), "(4, 2, 5, 8, 6, 1, 3, 7)");
    }

    #[test]
    fn cancellation_is_honoured() {
        let c = Control::new();
        c.cancel();
        assert_eq!(solve(1 << 20, 1, &c), Err(LocalError::Interrupted(Interrupted)));
    }

    #[test]
    fn diagonal_counts_match_a_plain_count() {
        let mut counts = DiagonalCounts { occupied: Bits::zeros(64), crowded: HashMap::default() };
        let mut plain = [0u32; 64];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut collisions = 0i64;
        for _ in 0..5000 {
            let d = below(&mut rng, 8) as usize * 7;
            if plain[d] > 0 && below(&mut rng, 2) == 0 {
                collisions -= counts.remove(d) as i64;
                plain[d] -= 1;
            } else {
                collisions += counts.add(d) as i64;
                plain[d] += 1;
            }
            let expect: i64 = plain.iter().map(|&k| i64::from(k.saturating_sub(1))).sum();
            assert_eq!(collisions, expect);
            assert!((0..64).all(|i| counts.count(i) == plain[i]));
        }
    }

    #[test]
    fn windows_read_any_bit_offset() {
        let mut b = Bits::zeros(300);
        for i in [0, 5, 63, 64, 100, 127, 128, 250, 299] {
            b.set(i);
        }
        for start in 0..300 {
            let w = b.window(start);
            for k in 0..64 {
                let i = start + k;
                assert_eq!(w >> k & 1 == 1, i < 300 && b.get(i), "start {start}, bit {k}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn random_sizes_and_seeds(n in 4u32..3000, seed in any::<u64>()) {
            let s = run(n, seed);
            prop_assert!(s.placement.is_valid());
            prop_assert_eq!(s.placement.n(), n);
        }
    }
}
