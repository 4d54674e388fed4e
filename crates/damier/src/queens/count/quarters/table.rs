//! The quarter table and the cells a task reads from it.

use super::{Geometry, Quarter, WEIGHT_AT};

/// One placement in a quarter, in the `q x q` square's own coordinates: diagonals `r + c`
/// (low half) and `c - r + q - 1` (high half), `2q - 1 <= 21` bits each.
pub(super) type Entry = u64;

/// Every partial placement of a `q x q` square, grouped by (column set, row set).
pub(super) struct QuarterTable {
    q: u32,
    /// `start[cell]..start[cell + 1]` are the entries of `cell = cols << q | rows`: a column
    /// set's cells are contiguous, and a task reads the cells of two column sets per half.
    start: Vec<u32>,
    pub(super) entries: Vec<Entry>,
}

impl QuarterTable {
    pub(super) fn new(q: u32) -> Self {
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

/// The placements of one quarter cell in whole-board coordinates, one slice per field.
///
/// PERF: fields in separate arrays so that [`super::kernel::join`] loads 8 placements' sums (then
/// differences, keys) in one vector load.
#[derive(Clone, Copy)]
pub(super) struct Cell<'a> {
    pub(super) sums: &'a [u64],
    pub(super) diffs: &'a [u64],
    /// [`Geometry::key`], plus from bit [`WEIGHT_AT`] the number of long-diagonal queens (0
    /// or 1 per quarter), so that adding two keys adds these counts.
    pub(super) keys: &'a [u64],
}

impl Cell<'_> {
    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// The cells of one quarter on one column set, moved to whole-board coordinates with their
/// keys, as a task needs them.
///
/// PERF: a task reads one column set per quarter, whose cells are contiguous in the table;
/// converting them per task keeps the memory to the table itself (8 bytes per placement, 0.5
/// GB at n = 22), and consecutive tasks often share the right quarters' column sets, which
/// are then kept.
pub(super) struct PlacedCells {
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
    pub(super) fn new(at: Quarter, rows: u32, avoid_long: bool) -> Self {
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
    pub(super) fn load(&mut self, g: &Geometry, table: &QuarterTable, cols: u32) {
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
    pub(super) fn cell(&self, rows: u32) -> Cell<'_> {
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
