//! Quarter boards: half boards assembled from a table of quarter placements, matched by
//! bit-sliced tables.
//!
//! The board is cut into a top half (rows `0..q`, `q = ceil(n / 2)`) and a bottom half, and
//! into a left part (columns `0..q`) and a right part: four quarters, each inside a `q x q`
//! square. Every partial placement of a `q x q` square — any rows, at most one queen per row
//! and column, no two on a diagonal — is listed once in a [`QuarterTable`], grouped by its
//! (column set, row set) cell. Then, for every column set `C` of the top half:
//!
//! 1. the **bottom halves** on the other columns are assembled from a bottom-left and a
//!    bottom-right cell list (the rows split every possible way), reduced to their *key* (the
//!    diagonals they share with the top half) and stored in a [`Matcher`];
//! 2. the **top halves** on `C` are assembled the same way from the two top quarters, and
//!    each is matched against every stored key at once: the matcher keeps, per block of 512
//!    stored keys and per 5-bit chunk of the key, the 32 masks "stored keys that avoid these
//!    bits", so one top half costs a handful of 512-bit ANDs and a popcount per block.
//!
//! Symmetry, nearly 8x in all: the mirror maps column set `C` to its image with the same
//! count, so one of the two is counted, twice. The reflection in the anti-diagonal maps the
//! solutions with their main-diagonal queen in the bottom half one to one onto those with it
//! in the top half (off the centre), and keeps the anti-diagonal as it is; the transpose does
//! the same for the anti-diagonal's queen and keeps the main diagonal. So the total is the
//! sum, over the solutions whose bottom half avoids both long diagonals, of 2 per
//! long-diagonal queen of the top half (the centre of odd boards, on both, counts once): only
//! such bottom halves are stored, and each top half carries its weight.

use rayon::prelude::*;

use super::Share;
use crate::control::{Control, Interrupted};

/// Smallest n this engine takes.
pub(crate) const MIN_N: u32 = 4;

/// Largest n this engine takes: the quarter table of n = 21 and 22 (`q = 11`) takes 0.55 GB,
/// that of n = 23 and 24 would take about 5 GB.
pub(crate) const MAX_N: u32 = 22;

/// Key bits per chunk of the matcher's tables: 32 masks per chunk and block. [default: 5]
const CHUNK: u32 = 5;

/// Stored keys per block: one 512-bit mask per table row.
const BLOCK: usize = 512;

/// Below this many keys, a partial block costs more than testing the keys one query at a
/// time ([`kernel::scan`]). [default: 12]
const SMALL: usize = 12;

/// One placement in a quarter, in the `q x q` square's own coordinates: diagonals `r + c`
/// (low half) and `c - r + q - 1` (high half), `2q - 1 <= 21` bits each.
type Entry = u64;

/// Every partial placement of a `q x q` square, grouped by (column set, row set).
struct QuarterTable {
    q: u32,
    /// `start[cell]..start[cell + 1]` are the entries of `cell = cols << q | rows`: a column
    /// set's cells are contiguous, and a task reads the cells of two column sets per half.
    start: Vec<u32>,
    entries: Vec<Entry>,
}

impl QuarterTable {
    fn new(q: u32) -> Self {
        // Row by row: each row of the square holds no queen or one on a free column; `visit`
        // sees every placement with its cell.
        fn place(
            q: u32,
            row: u32,
            rows: u32,
            cols: u32,
            s: u64,
            d: u64,
            visit: &mut impl FnMut(usize, Entry),
        ) {
            if row == q {
                visit((cols << q | rows) as usize, s | d << 32);
                return;
            }
            place(q, row + 1, rows, cols, s, d, visit);
            let mut free = ((1u32 << q) - 1) & !cols;
            while free != 0 {
                let c = free.trailing_zeros();
                free &= free - 1;
                let (sb, db) = (1u64 << (row + c), 1u64 << (c + q - 1 - row));
                if s & sb == 0 && d & db == 0 {
                    place(q, row + 1, rows | 1 << row, cols | 1 << c, s | sb, d | db, visit);
                }
            }
        }
        // PERF: two passes (count, then fill) instead of collecting and sorting: the search is
        // cheap, and the table is the only large allocation (0.5 GB at q = 11).
        let cells = 1usize << (2 * q);
        let mut start = vec![0u32; cells + 1];
        place(q, 0, 0, 0, 0, 0, &mut |cell, _| start[cell + 1] += 1);
        for i in 0..cells {
            start[i + 1] += start[i];
        }
        let mut cursor = start.clone();
        let mut entries = vec![0; start[cells] as usize];
        place(q, 0, 0, 0, 0, 0, &mut |cell, e| {
            entries[cursor[cell] as usize] = e;
            cursor[cell] += 1;
        });
        QuarterTable { q, start, entries }
    }
}

/// Fixed data of one board size.
struct Geometry {
    n: u32,
    /// Rows of the top half and columns of the left part: `ceil(n / 2)`.
    q: u32,
    /// Width of one key field: the `n - 1` diagonals of a family that meet both halves.
    width: u32,
    /// First whole-board index of the key window of the `r + c` and `c - r + n - 1` families.
    sum_at: u32,
    diff_at: u32,
    /// The long diagonals' bit (index `n - 1` in both families).
    long: u64,
}

/// A quarter's position: how its local diagonals map to whole-board indices.
#[derive(Clone, Copy)]
struct Quarter {
    sum_shift: u32,
    /// Left shift of the local `c - r` diagonals (negative: right shift).
    diff_shift: i32,
}

impl Geometry {
    fn new(n: u32) -> Self {
        let q = n - n / 2;
        // The key window: the diagonals through both row q - 1 and row q.
        Geometry { n, q, width: n - 1, sum_at: q, diff_at: n - q, long: 1 << (n - 1) }
    }

    /// Quarter at row offset `r` and column offset `c` (each 0 or `q`).
    fn quarter(&self, r: u32, c: u32) -> Quarter {
        // Whole-board diagonals: r + c and c - r + n - 1; local ones: r + c and c - r + q - 1.
        Quarter { sum_shift: r + c, diff_shift: c as i32 - r as i32 + (self.n - self.q) as i32 }
    }

    /// The key of whole-board diagonal masks: the window of each family that crosses the
    /// line between the halves.
    #[inline(always)]
    fn key(&self, s: u64, d: u64) -> u64 {
        let field = (1u64 << self.width) - 1;
        ((d >> self.diff_at) & field) | ((s >> self.sum_at) & field) << self.width
    }

    fn key_bits(&self) -> u32 {
        2 * self.width
    }

    /// The top half's rows as a local mask (also the left part's columns).
    fn top_rows(&self) -> u32 {
        (1 << self.q) - 1
    }

    /// The bottom half's rows as a local mask (also the right part's columns).
    fn bottom_rows(&self) -> u32 {
        (1 << (self.n - self.q)) - 1
    }
}

/// One unit of parallel work: a column set of the top half (whole-board column mask: the
/// left part's local columns in the low `q` bits, the right part's above), with its weight.
#[derive(Clone, Copy, Debug)]
struct Task {
    cols: u32,
    weight: u64,
}

fn tasks(g: &Geometry) -> Vec<Task> {
    let reverse = |m: u32| m.reverse_bits() >> (32 - g.n);
    // Every column set with as many columns as the top half has rows.
    subsets((1 << g.n) - 1, g.q)
        .filter_map(|cols| {
            // PERF: a column set and its mirror image have the same count.
            let weight = match cols.cmp(&reverse(cols)) {
                std::cmp::Ordering::Less => 2,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Greater => return None,
            };
            Some(Task { cols, weight })
        })
        .collect()
}

/// The placements of one quarter cell in whole-board coordinates, one slice per field.
///
/// PERF: fields in separate arrays so that [`kernel::join`] loads 8 placements' sums (then
/// differences, keys) in one vector load.
#[derive(Clone, Copy)]
struct Cell<'a> {
    sums: &'a [u64],
    diffs: &'a [u64],
    /// [`Geometry::key`], plus from bit [`WEIGHT_AT`] the number of long-diagonal queens (0
    /// or 1 per quarter), so that adding two keys adds these counts.
    keys: &'a [u64],
}

impl Cell<'_> {
    fn len(&self) -> usize {
        self.keys.len()
    }

    fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// Bit where a query key holds its weight exponent (long-diagonal queens of the top half).
const WEIGHT_AT: u32 = 60;

/// Buffers of one worker.
struct Work {
    top_left: PlacedCells,
    top_right: PlacedCells,
    bottom_left: PlacedCells,
    bottom_right: PlacedCells,
    matcher: Matcher,
    /// Top-half keys, each with its weight exponent in the bits from [`WEIGHT_AT`].
    queries: Vec<u64>,
}

impl Work {
    fn new(g: &Geometry) -> Self {
        let (q, rest) = (g.q, g.n - g.q);
        Work {
            top_left: PlacedCells::new(g.quarter(0, 0), q, false),
            top_right: PlacedCells::new(g.quarter(0, q), q, false),
            // Only bottom halves off both long diagonals are stored (see the module docs).
            bottom_left: PlacedCells::new(g.quarter(q, 0), rest, true),
            bottom_right: PlacedCells::new(g.quarter(q, q), rest, true),
            matcher: Matcher::new(g.key_bits()),
            queries: Vec::new(),
        }
    }
}

/// The cells of one quarter on one column set, moved to whole-board coordinates with their
/// keys, as a task needs them.
///
/// PERF: a task reads one column set per quarter, whose cells are contiguous in the table;
/// converting them per task keeps the memory to the table itself (8 bytes per placement, 0.5
/// GB at n = 22), and consecutive tasks often share the right quarters' column sets, which
/// are then kept.
struct PlacedCells {
    at: Quarter,
    /// Rows of the quarter (the cells' row sets are below `1 << rows`).
    rows: u32,
    /// Without the placements on a long diagonal.
    avoid_long: bool,
    /// The column set loaded, if any.
    cols: Option<u32>,
    /// `start[rows]..start[rows + 1]`: the placements on `rows`.
    start: Vec<u32>,
    sums: Vec<u64>,
    diffs: Vec<u64>,
    keys: Vec<u64>,
}

impl PlacedCells {
    fn new(at: Quarter, rows: u32, avoid_long: bool) -> Self {
        PlacedCells {
            at,
            rows,
            avoid_long,
            cols: None,
            start: Vec::new(),
            sums: Vec::new(),
            diffs: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// Loads the cells on column set `cols` (unless they are loaded already).
    fn load(&mut self, g: &Geometry, table: &QuarterTable, cols: u32) {
        if self.cols == Some(cols) {
            return;
        }
        self.cols = Some(cols);
        let local = (1u64 << (2 * g.q - 1)) - 1;
        let forbid = if self.avoid_long { g.long } else { 0 };
        let at = self.at;
        let base = (cols << table.q) as usize;
        let entries =
            &table.entries[table.start[base] as usize..table.start[base + (1 << self.rows)] as usize];
        let Self { start, sums, diffs, keys, .. } = self;
        start.clear();
        start.push(0);
        sums.clear();
        diffs.clear();
        keys.clear();
        let first = table.start[base];
        for rows in 0..1usize << self.rows {
            let cell =
                (table.start[base + rows] - first) as usize..(table.start[base + rows + 1] - first) as usize;
            for &e in &entries[cell] {
                let sum = (e & local) << at.sum_shift;
                // No bit is lost by a right shift: the quarter that needs one (bottom left of
                // an odd board) has no placement on its first local diagonal.
                let diff =
                    if at.diff_shift >= 0 { (e >> 32) << at.diff_shift } else { (e >> 32) >> -at.diff_shift };
                if (sum | diff) & forbid != 0 {
                    continue;
                }
                let (on_anti, on_main) = ((sum & g.long) != 0, (diff & g.long) != 0);
                // Both long diagonals in one quarter: the centre of an odd board, which the
                // two reflections keep, so it weighs nothing.
                let long = if on_anti && on_main { 0 } else { on_anti as u64 + on_main as u64 };
                sums.push(sum);
                diffs.push(diff);
                keys.push(g.key(sum, diff) | long << WEIGHT_AT);
            }
            start.push(keys.len() as u32);
        }
    }

    /// The placements of the loaded column set whose rows are exactly `rows`.
    #[inline]
    fn cell(&self, rows: u32) -> Cell<'_> {
        let (a, b) = (self.start[rows as usize] as usize, self.start[rows as usize + 1] as usize);
        assert!(a <= b && b <= self.keys.len() && b <= self.sums.len() && b <= self.diffs.len());
        // SAFETY: `a..b` lies inside all three arrays, checked just above.
        // PERF: one check instead of two per array (this runs for every pair of cells).
        unsafe {
            Cell {
                sums: self.sums.get_unchecked(a..b),
                diffs: self.diffs.get_unchecked(a..b),
                keys: self.keys.get_unchecked(a..b),
            }
        }
    }
}

/// What every task reads: the quarter table and the row subsets by size.
struct Quarters {
    table: QuarterTable,
    /// `top_rows[k]`: the subsets of the top half's rows with k rows (same for bottom).
    top_rows: Vec<Vec<u32>>,
    bottom_rows: Vec<Vec<u32>>,
}

impl Quarters {
    fn new(g: &Geometry) -> Self {
        let by_size = |mask: u32| (0..=g.q).map(|k| subsets(mask, k).collect()).collect();
        Quarters {
            table: QuarterTable::new(g.q),
            top_rows: by_size(g.top_rows()),
            bottom_rows: by_size(g.bottom_rows()),
        }
    }
}

/// The subsets of `mask` with `k` elements, in increasing order.
fn subsets(mask: u32, k: u32) -> impl Iterator<Item = u32> {
    let mut next = Some(0u32);
    std::iter::from_fn(move || {
        while let Some(x) = next {
            // The next subset of `mask` in increasing order (0 again after the last).
            let y = x.wrapping_sub(mask) & mask;
            next = (y != 0).then_some(y);
            if x.count_ones() == k {
                return Some(x);
            }
        }
        None
    })
}

/// Appends the keys of every half board on the column sets `cols` (left part, right part):
/// for each way to split the half's `rows` between the two quarters (`splits`: the left
/// quarter's row sets, as many rows as its columns), the pairs of the two cells that share no
/// diagonal.
#[allow(clippy::too_many_arguments)]
fn assemble(
    g: &Geometry,
    table: &QuarterTable,
    (left, right): (&mut PlacedCells, &mut PlacedCells),
    cols: (u32, u32),
    rows: u32,
    splits: &[u32],
    keep: u64,
    out: &mut Vec<u64>,
) {
    left.load(g, table, cols.0);
    right.load(g, table, cols.1);
    for &r in splits {
        let l = left.cell(r);
        if !l.is_empty() {
            kernel::join(l, right.cell(rows & !r), keep, out);
        }
    }
}

/// Weighted count of the solutions of one task.
fn count_task(g: &Geometry, quarters: &Quarters, task: Task, w: &mut Work) -> u64 {
    let low = (1u32 << g.q) - 1;
    let (top_left, top_right) = (task.cols & low, task.cols >> g.q);
    let (bottom_left, bottom_right) = (low & !top_left, (((1u32 << g.n) - 1) & !task.cols) >> g.q);
    let table = &quarters.table;
    let Work { top_left: tl, top_right: tr, bottom_left: bl, bottom_right: br, matcher, queries } = w;

    // 1. Bottom halves, stored without weight.
    matcher.clear();
    let splits = &quarters.bottom_rows[bottom_left.count_ones() as usize];
    let cols = (bottom_left, bottom_right);
    assemble(g, table, (bl, br), cols, g.bottom_rows(), splits, (1 << WEIGHT_AT) - 1, &mut matcher.keys);
    if matcher.is_empty() {
        return 0;
    }
    matcher.seal();

    // 2. Top halves, with their weights, matched against the stored keys.
    queries.clear();
    let splits = &quarters.top_rows[top_left.count_ones() as usize];
    assemble(g, table, (tl, tr), (top_left, top_right), g.top_rows(), splits, u64::MAX, queries);
    matcher.count(queries) * task.weight
}

/// The solutions of n queens (`MIN_N..=MAX_N`) in one share of the tasks, in parallel on the
/// current rayon pool.
pub(crate) fn total(n: u32, share: Share, control: &Control) -> Result<u64, Interrupted> {
    debug_assert!((MIN_N..=MAX_N).contains(&n));
    let g = Geometry::new(n);
    let tasks = share.take(tasks(&g));
    let quarters = Quarters::new(&g);
    tasks
        .par_iter()
        .map_init(
            || Work::new(&g),
            |w, t| {
                if control.cancelled() {
                    return Err(Interrupted);
                }
                let c = count_task(&g, &quarters, *t, w);
                control.advance(1);
                Ok(c)
            },
        )
        .try_reduce(|| 0, |a, b| Ok(a + b))
}

/// Weighted counts of the given column sets `(cols, mirror weight)` of n (`MIN_N..=MAX_N`), in
/// parallel on the current rayon pool: `on_done(i, count, elapsed)` as item `i` finishes.
/// Polls `control` between items and advances it by one per item.
pub(crate) fn count_column_sets(
    n: u32,
    column_sets: &[(u32, u64)],
    control: &Control,
    on_done: &(dyn Fn(usize, u64, std::time::Duration) + Sync),
) -> Result<(), Interrupted> {
    debug_assert!((MIN_N..=MAX_N).contains(&n));
    let g = Geometry::new(n);
    let quarters = Quarters::new(&g);
    column_sets.par_iter().enumerate().try_for_each_init(
        || Work::new(&g),
        |w, (i, &(cols, weight))| {
            if control.cancelled() {
                return Err(Interrupted);
            }
            let start = std::time::Instant::now();
            let c = count_task(&g, &quarters, Task { cols, weight }, w);
            on_done(i, c, start.elapsed());
            control.advance(1);
            Ok(())
        },
    )
}

/// Number of tasks (progress units) for n.
pub(crate) fn task_count(n: u32, share: Share) -> u64 {
    share.take(tasks(&Geometry::new(n))).len() as u64
}

/// One table row: a mask over the 512 keys of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
struct Row([u64; 8]);

/// Stored keys, ready to count how many avoid a query key.
///
/// PERF: the keys are bit-sliced by blocks of [`BLOCK`]: for each [`CHUNK`]-bit chunk of the
/// key and each value `v` of that chunk, a row holds the mask of the block's keys that have
/// none of `v`'s bits. A query ANDs one row per chunk and counts the ones: 512 pairs for
/// `key_bits / CHUNK` ANDs of 512 bits. Keys past the last full block, when few, are scanned.
struct Matcher {
    chunks: usize,
    keys: Vec<u64>,
    rows: Vec<Row>,
    /// Keys in `rows` (a multiple of BLOCK, or all of them).
    sliced: usize,
}

impl Matcher {
    fn new(key_bits: u32) -> Self {
        Matcher { chunks: key_bits.div_ceil(CHUNK) as usize, keys: Vec::new(), rows: Vec::new(), sliced: 0 }
    }

    fn clear(&mut self) {
        self.keys.clear();
        self.rows.clear();
        self.sliced = 0;
    }

    fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Builds the tables of every full block, and of the last partial block unless it is
    /// small enough to scan.
    fn seal(&mut self) {
        let rows_per_block = self.chunks << CHUNK;
        let mut at = 0;
        while at < self.keys.len() {
            let len = (self.keys.len() - at).min(BLOCK);
            if len < SMALL {
                break;
            }
            let first = self.rows.len();
            self.rows.resize(first + rows_per_block, Row([0; 8]));
            slice_block(&self.keys[at..at + len], self.chunks, &mut self.rows[first..]);
            at += len;
        }
        self.sliced = at;
    }

    /// Pairs (query, stored key) with disjoint key bits, each counted `2^e` times for the
    /// exponent `e` in the query's bits from [`WEIGHT_AT`].
    fn count(&self, queries: &[u64]) -> u64 {
        let tail = &self.keys[self.sliced..];
        let mut total = kernel::count(&self.rows, self.chunks, queries);
        if !tail.is_empty() {
            total += kernel::scan(tail, queries);
        }
        total
    }
}

/// Writes the rows of one block of at most [`BLOCK`] keys (`chunks << CHUNK` rows).
fn slice_block(keys: &[u64], chunks: usize, rows: &mut [Row]) {
    // Columns: bit i of `cols[j][w]` says key `64 w + i` has bit j clear.
    let mut cols = [[0u64; 8]; 64];
    let mut valid = [0u64; 8];
    for (w, group) in keys.chunks(64).enumerate() {
        let mut m = [0u64; 64];
        for (i, &k) in group.iter().enumerate() {
            m[i] = !k;
        }
        transpose64(&mut m);
        for j in 0..64 {
            cols[j][w] = m[j];
        }
        valid[w] = if group.len() == 64 { u64::MAX } else { (1u64 << group.len()) - 1 };
    }
    let width = 1usize << CHUNK;
    for c in 0..chunks {
        let r = &mut rows[c * width..(c + 1) * width];
        r[0] = Row(valid);
        for v in 1..width {
            let bit = c * CHUNK as usize + v.trailing_zeros() as usize;
            let prev = r[v & (v - 1)].0;
            let col = if bit < 64 { cols[bit] } else { [u64::MAX; 8] };
            r[v] = Row(std::array::from_fn(|i| prev[i] & col[i]));
        }
    }
}

/// Transposes a 64 x 64 bit matrix in place: bit j of word i goes to bit i of word j.
///
/// PERF: six rounds of block swaps (32 x 32 blocks, then 16 x 16, ...), each a few word
/// operations per row, instead of 4096 single-bit moves.
fn transpose64(m: &mut [u64; 64]) {
    let mut j = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            // Row k's high block (bits j..) trades places with row k + j's low block.
            let t = ((m[k] >> j) ^ m[k + j]) & mask;
            m[k] ^= t << j;
            m[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        mask ^= mask << j;
    }
}

/// The counting loop over the sliced blocks, compiled for the best vector unit at run time.
mod kernel {
    use super::{CHUNK, Cell, Row, WEIGHT_AT};

    /// Appends the sum of the keys (masked by `keep`) of every pair of `left` x `right`
    /// placements that share no diagonal. Such keys are disjoint, so their sum is their union
    /// and adds the weight exponents.
    #[inline(always)]
    fn join_portable(left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
        out.reserve(left.len() * right.len());
        let len = out.len();
        let spare = out.spare_capacity_mut();
        let mut k = 0;
        for i in 0..left.len() {
            let (s, d, key) = (left.sums[i], left.diffs[i], left.keys[i]);
            for j in 0..right.len() {
                // PERF: written unconditionally, kept by advancing the cursor: no branch to
                // mispredict (about a third of the pairs fit).
                spare[k].write((key + right.keys[j]) & keep);
                k += ((s & right.sums[j]) | (d & right.diffs[j]) == 0) as usize;
            }
        }
        // SAFETY: the first `k <= left.len() * right.len() <= spare.len()` slots were written.
        unsafe { out.set_len(len + k) };
    }

    /// [`join_portable`] with AVX-512: 8 right placements per step, the fitting keys packed
    /// by a compress. (The keys come out in another order.)
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,popcnt")]
    fn join_avx512(left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
        use std::arch::x86_64::*;
        // Each step stores 8 lanes, of which it keeps the fitting ones: 8 slots of slack.
        out.reserve(left.len() * right.len() + 8);
        let mut len = out.len();
        let keepv = _mm512_set1_epi64(keep as i64);
        let m = right.len();
        // PERF: right lists are short (7 placements on average at n = 18): loading 8 of them
        // once and running the long loop over the left list keeps the loop branches
        // predictable, and the only value carried from step to step is the length.
        for j in (0..m).step_by(8) {
            let lanes: __mmask8 = if m - j >= 8 { 0xff } else { (1u8 << (m - j)) - 1 };
            // SAFETY: masked loads read only lanes `j..m` of the three slices (masked-off
            // lanes do not fault).
            let (bs, bd, bk) = unsafe {
                (
                    _mm512_maskz_loadu_epi64(lanes, right.sums.as_ptr().add(j).cast()),
                    _mm512_maskz_loadu_epi64(lanes, right.diffs.as_ptr().add(j).cast()),
                    _mm512_and_si512(
                        _mm512_maskz_loadu_epi64(lanes, right.keys.as_ptr().add(j).cast()),
                        keepv,
                    ),
                )
            };
            for i in 0..left.len() {
                let s = _mm512_set1_epi64(left.sums[i] as i64);
                let d = _mm512_set1_epi64(left.diffs[i] as i64);
                let key = _mm512_set1_epi64((left.keys[i] & keep) as i64);
                let fit = _mm512_mask_testn_epi64_mask(_mm512_testn_epi64_mask(s, bs) & lanes, d, bd);
                let keys = _mm512_add_epi64(key, bk);
                // SAFETY: the store writes 8 slots at `len`, and `len + 8 <= capacity`: at
                // most `left.len() * right.len()` keys are kept in all.
                unsafe {
                    _mm512_storeu_si512(
                        out.as_mut_ptr().add(len).cast(),
                        _mm512_maskz_compress_epi64(fit, keys),
                    )
                };
                len += fit.count_ones() as usize;
            }
        }
        // SAFETY: every slot below `len` was written by a compress store above (or was
        // already initialised).
        unsafe { out.set_len(len) };
    }

    /// [`join_portable`], on the widest vector unit available (detected once).
    #[inline(always)]
    pub(super) fn join(left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
        #[cfg(target_arch = "x86_64")]
        let level = level();
        #[cfg(not(target_arch = "x86_64"))]
        let level = 0;
        join_at(level, left, right, keep, out)
    }

    /// [`join`] with a chosen vector unit (the portable loop when the CPU lacks it).
    #[inline(always)]
    pub(super) fn join_at(level: u8, left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
        #[cfg(target_arch = "x86_64")]
        if level >= 2 && std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F, checked just above.
            return unsafe { join_avx512(left, right, keep, out) };
        }
        let _ = level;
        join_portable(left, right, keep, out)
    }

    /// Row offsets (within a block) of a query's `C` chunks.
    #[inline(always)]
    fn offsets<const C: usize>(q: u64) -> [usize; C] {
        std::array::from_fn(|c| (c << CHUNK) + ((q >> (c as u32 * CHUNK)) & ((1 << CHUNK) - 1)) as usize)
    }

    #[inline(always)]
    fn count_portable<const C: usize>(rows: &[Row], queries: &[u64]) -> u64 {
        let mut total = 0;
        for &q in queries {
            let o = offsets::<C>(q);
            let mut t = 0;
            for block in rows.chunks_exact(C << CHUNK) {
                let mut acc = block[o[0]].0;
                for &oc in &o[1..] {
                    let r = &block[oc].0;
                    for i in 0..8 {
                        acc[i] &= r[i];
                    }
                }
                t += acc.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
            }
            total += t << (q >> WEIGHT_AT);
        }
        total
    }

    /// [`count_portable`] with AVX-512: one 512-bit AND per chunk and block, and the
    /// popcount of eight words in one instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    fn count_avx512<const C: usize>(rows: &[Row], queries: &[u64]) -> u64 {
        use std::arch::x86_64::*;
        let per_block = C << CHUNK;
        let blocks = rows.len() / per_block;
        let mut total = _mm512_setzero_si512();
        for &q in queries {
            let o = offsets::<C>(q);
            let mut acc = _mm512_setzero_si512();
            let mut base = rows.as_ptr();
            for _ in 0..blocks {
                // SAFETY: `base` walks the `blocks` whole blocks of `rows`, every offset is
                // below `per_block` (chunk below C, value below 2^CHUNK), and rows are 64-byte
                // aligned.
                unsafe {
                    let mut x = _mm512_load_si512(base.add(o[0]).cast());
                    for &oc in &o[1..] {
                        x = _mm512_and_si512(x, _mm512_load_si512(base.add(oc).cast()));
                    }
                    acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(x));
                    base = base.add(per_block);
                }
            }
            let e = _mm_cvtsi64_si128((q >> WEIGHT_AT) as i64);
            total = _mm512_add_epi64(total, _mm512_sll_epi64(acc, e));
        }
        _mm512_reduce_add_epi64(total) as u64
    }

    /// Weighted pairs (query, key) with disjoint key bits, by testing every pair.
    #[inline(always)]
    fn scan_portable(keys: &[u64], queries: &[u64]) -> u64 {
        queries
            .iter()
            .map(|&q| keys.iter().map(|&k| (k & q == 0) as u64).sum::<u64>() << (q >> WEIGHT_AT))
            .sum()
    }

    /// [`scan_portable`] with AVX-512: 8 pairs per test instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,popcnt")]
    fn scan_avx512(keys: &[u64], queries: &[u64]) -> u64 {
        use std::arch::x86_64::*;
        let mut total = 0u64;
        for &q in queries {
            let qv = _mm512_set1_epi64(q as i64);
            let mut hits = 0u32;
            for j in (0..keys.len()).step_by(8) {
                let lanes: __mmask8 = if keys.len() - j >= 8 { 0xff } else { (1u8 << (keys.len() - j)) - 1 };
                // SAFETY: a masked load reads only lanes `j..keys.len()` (masked-off lanes do not
                // fault).
                let k = unsafe { _mm512_maskz_loadu_epi64(lanes, keys.as_ptr().add(j).cast()) };
                hits += _mm512_mask_testn_epi64_mask(lanes, k, qv).count_ones();
            }
            total += u64::from(hits) << (q >> WEIGHT_AT);
        }
        total
    }

    /// See [`scan_portable`]; on the widest vector unit available.
    pub(super) fn scan(keys: &[u64], queries: &[u64]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        let level = level();
        #[cfg(not(target_arch = "x86_64"))]
        let level = 0;
        scan_at(level, keys, queries)
    }

    /// [`scan`] with a chosen vector unit (the portable loop when the CPU lacks it).
    pub(super) fn scan_at(level: u8, keys: &[u64], queries: &[u64]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if level >= 2 && std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F, checked just above.
            return unsafe { scan_avx512(keys, queries) };
        }
        let _ = level;
        scan_portable(keys, queries)
    }

    /// Vector unit found at run time: 0 none, 2 AVX-512 with popcount (checked once).
    #[cfg(target_arch = "x86_64")]
    fn level() -> u8 {
        use std::sync::OnceLock;
        static LEVEL: OnceLock<u8> = OnceLock::new();
        *LEVEL.get_or_init(|| {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
            {
                2
            } else {
                0
            }
        })
    }

    /// Weighted pairs (query, key of a sliced block) with disjoint key bits.
    pub(super) fn count(rows: &[Row], chunks: usize, queries: &[u64]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        let level = level();
        #[cfg(not(target_arch = "x86_64"))]
        let level = 0;
        count_at(level, rows, chunks, queries)
    }

    /// [`count`] with a chosen vector unit (the portable loop when the CPU lacks it).
    pub(super) fn count_at(level: u8, rows: &[Row], chunks: usize, queries: &[u64]) -> u64 {
        if rows.is_empty() {
            return 0;
        }
        // PERF: one copy of the loop per chunk count, so that the chunk loop is unrolled and
        // the offsets stay in registers.
        macro_rules! dispatch {
            ($($c:literal)*) => {
                match chunks {
                    $($c => {
                        #[cfg(target_arch = "x86_64")]
                        if level >= 2
                            && std::arch::is_x86_feature_detected!("avx512f")
                            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
                        {
                            // SAFETY: the CPU has both features, checked just above.
                            return unsafe { count_avx512::<$c>(rows, queries) };
                        }
                        count_portable::<$c>(rows, queries)
                    })*
                    _ => unreachable!("{chunks} chunks: keys have 6 to 42 bits"),
                }
            };
        }
        let _ = level;
        dispatch!(2 3 4 5 6 7 8 9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every column set of the top half is counted once, directly or through its mirror.
    #[test]
    fn tasks_cover_every_column_set() {
        for n in MIN_N..=MAX_N {
            let g = Geometry::new(n);
            let binomial = (0..g.q as u64).fold(1u64, |acc, i| acc * (n as u64 - i) / (i + 1));
            assert_eq!(tasks(&g).iter().map(|t| t.weight).sum::<u64>(), binomial, "n = {n}");
        }
    }

    /// The engine's count for each column set, against its definition evaluated on the listed
    /// solutions: over the solutions whose top half uses exactly these columns and whose
    /// bottom half avoids both long diagonals, 2 per long-diagonal queen of the top half
    /// other than the centre.
    #[test]
    fn each_column_set_gets_its_weighted_count() {
        for n in MIN_N..=10 {
            let g = Geometry::new(n);
            let q = g.q as usize;
            let mut want = vec![0u64; 1 << n];
            for s in crate::queens::count::solutions(n) {
                let cols = s[..q].iter().fold(0usize, |m, &c| m | 1 << c);
                let on_long = |r: usize, c: usize| r == c || r + c == n as usize - 1;
                let centre = |r: usize, c: usize| 2 * r + 1 == n as usize && r == c;
                if (q..n as usize).any(|r| on_long(r, s[r] as usize)) {
                    continue;
                }
                let e = (0..q).filter(|&r| on_long(r, s[r] as usize) && !centre(r, s[r] as usize)).count();
                want[cols] += 1 << e;
            }
            let quarters = Quarters::new(&g);
            let mut w = Work::new(&g);
            for cols in subsets((1 << n) - 1, g.q) {
                let got = count_task(&g, &quarters, Task { cols, weight: 1 }, &mut w);
                assert_eq!(got, want[cols as usize], "n = {n}, columns {cols:b}");
            }
        }
    }

    #[test]
    fn transpose_moves_every_bit() {
        let mut m = [0u64; 64];
        for (i, w) in m.iter_mut().enumerate() {
            *w = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (1 << i);
        }
        let before = m;
        transpose64(&mut m);
        for (i, row) in before.iter().enumerate() {
            for (j, col) in m.iter().enumerate() {
                assert_eq!(row >> j & 1, col >> i & 1, "bit ({i}, {j})");
            }
        }
    }

    #[test]
    fn quarter_table_holds_every_partial_placement() {
        // 4 x 4: count placements by brute force over all subsets of cells.
        let h = 4u32;
        let t = QuarterTable::new(h);
        let mut want = 0;
        for cells in 0u32..1 << 16 {
            let q: Vec<(i32, i32)> =
                (0..16).filter(|&i| cells >> i & 1 == 1).map(|i| (i / 4, i % 4)).collect();
            let ok = q.iter().enumerate().all(|(x, &(r1, c1))| {
                q[x + 1..].iter().all(|&(r2, c2)| r1 != r2 && c1 != c2 && (r1 - r2).abs() != (c1 - c2).abs())
            });
            want += ok as usize;
        }
        assert_eq!(t.entries.len(), want);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every vector unit joins the same pairs as the double loop.
        #[test]
        fn join_keeps_the_pairs_without_a_common_diagonal(
            left in proptest::collection::vec((any::<u64>(), any::<u64>(), 0u64..1 << 40), 0..12),
            right in proptest::collection::vec((any::<u64>(), any::<u64>(), 0u64..1 << 40), 0..21),
            keep in prop_oneof![Just(u64::MAX), Just((1u64 << WEIGHT_AT) - 1)],
        ) {
            // Sparse masks, so that a fair share of pairs fit.
            let cols = |v: &Vec<(u64, u64, u64)>| -> (Vec<u64>, Vec<u64>, Vec<u64>) {
                (v.iter().map(|x| x.0 & x.0.rotate_left(13) & x.0.rotate_left(29)).collect(),
                 v.iter().map(|x| x.1 & x.1.rotate_left(17) & x.1.rotate_left(31)).collect(),
                 v.iter().map(|x| x.2 | 1 << WEIGHT_AT).collect())
            };
            let (ls, ld, lk) = cols(&left);
            let (rs, rd, rk) = cols(&right);
            let l = Cell { sums: &ls, diffs: &ld, keys: &lk };
            let r = Cell { sums: &rs, diffs: &rd, keys: &rk };
            let mut want = vec![7];
            for i in 0..l.len() {
                for j in 0..r.len() {
                    if ls[i] & rs[j] == 0 && ld[i] & rd[j] == 0 {
                        want.push((lk[i] + rk[j]) & keep);
                    }
                }
            }
            want.sort_unstable();
            for level in [0u8, 2] {
                let mut got = vec![7];
                kernel::join_at(level, l, r, keep, &mut got);
                got.sort_unstable();
                prop_assert_eq!(&got, &want, "level {}", level);
            }
        }

        /// The matcher counts the same disjoint pairs as the obvious double loop, on every
        /// vector unit, for any number of keys (full blocks, a sliced tail, a scanned tail).
        #[test]
        fn matcher_counts_disjoint_pairs(
            bits in 6u32..=42,
            stored in proptest::collection::vec(any::<u64>(), 0..1300),
            queries in proptest::collection::vec((any::<u64>(), 0u64..3), 0..40),
            sparse in 0u32..4,
        ) {
            let mask = (1u64 << bits) - 1;
            let thin = |v: &Vec<u64>| -> Vec<u64> {
                v.iter().map(|&k| {
                    let mut k = k & mask;
                    for i in 0..sparse { k &= k.rotate_left(7 + i) }
                    k
                }).collect()
            };
            let stored = thin(&stored);
            let keys = thin(&queries.iter().map(|q| q.0).collect());
            // Each query carries a weight exponent 0..=2 in its top bits.
            let queries: Vec<u64> = keys.iter().zip(&queries).map(|(&k, q)| k | q.1 << WEIGHT_AT).collect();
            let weighted = |keys: &[u64]| -> u64 {
                queries.iter().map(|&q| (keys.iter().filter(|&&k| k & q == 0).count() as u64) << (q >> WEIGHT_AT)).sum()
            };
            let want = weighted(&stored);
            let mut m = Matcher::new(bits);
            m.keys.extend_from_slice(&stored);
            m.seal();
            let tail_count = weighted(&m.keys[m.sliced..]);
            for level in [0u8, 2] {
                prop_assert_eq!(kernel::count_at(level, &m.rows, m.chunks, &queries) + tail_count, want, "level {}", level);
                prop_assert_eq!(kernel::scan_at(level, &stored, &queries), want, "scan, level {}", level);
            }
            prop_assert_eq!(m.count(&queries), want);
        }
    }
}
