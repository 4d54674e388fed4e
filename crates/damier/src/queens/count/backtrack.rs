//! Bitboard backtracking over the whole board: the baseline fast counter and the plain oracle.
//!
//! One queen per row; the state is three `u64` masks (columns taken, and the two diagonal
//! families projected onto the next row). The mirror symmetry halves the work: the first row's
//! queen is kept in the left half and its count doubled (for odd n, a first queen in the middle
//! column forces the second row's queen into the left half instead). The search is split into
//! independent prefix tasks that rayon runs on the current pool.

use rayon::prelude::*;

use super::Share;
use crate::control::{Control, Interrupted};

/// A partial placement of the first rows, the unit of parallel work.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Task {
    cols: u64,
    ld: u64,
    rd: u64,
    /// How many mirror images this prefix stands for (1 or 2).
    weight: u64,
}

/// Rows placed before the search is split into tasks.
///
/// PERF: 3 rows give n (n-2)(n-4)/2-ish tasks (~1500 at n = 18): enough to balance any pool
/// while each task stays long enough that the rayon overhead is invisible.
const PREFIX_ROWS: u32 = 3;

fn full(n: u32) -> u64 {
    if n == 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The prefix tasks of the mirror-reduced search (n >= 2).
pub(crate) fn tasks(n: u32) -> Vec<Task> {
    debug_assert!((2..=32).contains(&n));
    let full = full(n);
    let mut out = Vec::new();
    let half = n / 2;
    for c0 in 0..n.div_ceil(2) {
        let b0 = 1u64 << c0;
        let (cols, ld, rd) = (b0, (b0 << 1) & full, b0 >> 1);
        if n % 2 == 1 && c0 == half {
            // Middle first queen: mirror by the second row's queen (never in the middle).
            let free = full & !(cols | ld | rd) & ((1u64 << half) - 1);
            for c1 in bits(free) {
                let b1 = 1u64 << c1;
                extend(full, 2, cols | b1, ((ld | b1) << 1) & full, (rd | b1) >> 1, 2, &mut out);
            }
        } else {
            extend(full, 1, cols, ld, rd, 2, &mut out);
        }
    }
    out
}

fn extend(full: u64, row: u32, cols: u64, ld: u64, rd: u64, weight: u64, out: &mut Vec<Task>) {
    if row >= PREFIX_ROWS || cols == full {
        out.push(Task { cols, ld, rd, weight });
        return;
    }
    for c in bits(full & !(cols | ld | rd)) {
        let b = 1u64 << c;
        extend(full, row + 1, cols | b, ((ld | b) << 1) & full, (rd | b) >> 1, weight, out);
    }
}

/// Set bits of `m`, lowest first.
pub(crate) fn bits(mut m: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let c = m.trailing_zeros();
        m &= m - 1;
        Some(c)
    })
}

/// Completions of a partial placement (state projected onto the next row).
///
/// PERF: the whole state is three registers; a queen is taken with `free & -free`, and a
/// completed board is recognised by `cols == full` instead of tracking the depth.
fn complete(full: u64, cols: u64, ld: u64, rd: u64) -> u64 {
    if cols == full {
        return 1;
    }
    let mut free = full & !(cols | ld | rd);
    let mut total = 0;
    while free != 0 {
        let b = free & free.wrapping_neg();
        free ^= b;
        let nc = cols | b;
        if nc == full {
            // PERF: last row: no recursion, at most one free square is left.
            total += 1;
        } else {
            total += complete(full, nc, ((ld | b) << 1) & full, (rd | b) >> 1);
        }
    }
    total
}

/// Rows left below which [`complete_polled`] runs a subtree without polling: a subtree of 16
/// rows takes well under a second.
const POLL_ROWS: u32 = 16;

/// [`complete`] that polls `control` before each subtree of at most [`POLL_ROWS`] rows, so
/// that a task of a large board (n = 27 runs for days) still stops promptly.
fn complete_polled(full: u64, cols: u64, ld: u64, rd: u64, control: &Control) -> Result<u64, Interrupted> {
    let rows_left = full.count_ones() - cols.count_ones();
    if rows_left <= POLL_ROWS {
        if control.cancelled() {
            return Err(Interrupted);
        }
        return Ok(complete(full, cols, ld, rd));
    }
    let mut total = 0;
    for c in bits(full & !(cols | ld | rd)) {
        let b = 1u64 << c;
        total += complete_polled(full, cols | b, ((ld | b) << 1) & full, (rd | b) >> 1, control)?;
    }
    Ok(total)
}

/// The solutions of n queens (n in 1..=32) in one share of the mirror-reduced search's tasks,
/// in parallel on the current rayon pool; `control` is polled once per task and advanced by one per task.
pub(crate) fn total(n: u32, share: Share, control: &Control) -> Result<u64, Interrupted> {
    if n == 1 {
        return Ok(u64::from(share.index() == 0));
    }
    let full = full(n);
    share
        .take(tasks(n))
        .par_iter()
        .map(|t| {
            if control.cancelled() {
                return Err(Interrupted);
            }
            let c = t.weight * complete_polled(full, t.cols, t.ld, t.rd, control)?;
            control.advance(1);
            Ok(c)
        })
        .try_reduce(|| 0, |a, b| Ok(a + b))
}

/// All solutions of n queens by the plain backtracker: no symmetry, no threads. The oracle the
/// fast engines are tested against.
pub fn total_plain(n: u32) -> u64 {
    assert!(n <= 32, "n = {n} exceeds 32");
    if n == 0 {
        return 1;
    }
    complete(full(n), 0, 0, 0)
}

/// Every solution of n queens (n <= 32) as the list of columns (0-based, one per row), in
/// backtracking order. For tests and small n only: the list grows like the count.
pub fn solutions(n: u32) -> Vec<Vec<u8>> {
    fn walk(full: u64, cols: u64, ld: u64, rd: u64, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if cols == full {
            out.push(cur.clone());
            return;
        }
        for c in bits(full & !(cols | ld | rd)) {
            let b = 1u64 << c;
            cur.push(c as u8);
            walk(full, cols | b, ((ld | b) << 1) & full, (rd | b) >> 1, cur, out);
            cur.pop();
        }
    }
    assert!(n <= 32, "n = {n} exceeds 32");
    let mut out = Vec::new();
    walk(full(n), 0, 0, 0, &mut Vec::new(), &mut out);
    out
}
