//! The quarter table and the cells a task reads from it.

use super::geometry::{Geometry, Quarter, WEIGHT_AT};
use crate::control::{Control, Interrupted};

/// Depth of a quarter's search (queens placed) at which it polls the cancel flag: a few
/// hundred polls per search (every branch places a queen, so the subtrees are alike).
const POLL_DEPTH: u32 = 2;

/// One placement in a quarter, in the `q x q` square's own coordinates: diagonals `r + c`
/// (low half) and `c - r + q - 1` (high half), `2q - 1 <= 27` bits each.
pub(super) type Entry = u64;

/// Visits every placement of the `q x q` square on exactly the columns `cols` in its first
/// `rows` rows (at most one queen per row and column, none sharing a diagonal) that leaves
/// the local diagonals `avoid` (sum and difference masks, as in an [`Entry`]) empty, with its
/// row set and [`Entry`], in one fixed order; polls `control` a few hundred times.
///
/// PERF: column by column, each column of `cols` taking one of the free rows: every branch
/// places a queen, so the search visits few more nodes than it finds placements (a row-by-row
/// search would also try every row left empty). The rows a column may take come as one mask
/// (the diagonals shifted onto the rows: the difference diagonals are kept a second time
/// mirrored, so that both shifts go right), so no branch is tried and undone, and the last
/// column reports its rows without a call (see `step` for the last two). Avoiding a diagonal prunes the search (the bottom
/// quarters' placements on a long diagonal, about half of them, are never made; see
/// [`PlacedCells::load`]). Both together: 0.35x the search's instructions on an n = 20 share
/// (`DAMIER_COUNT_N=20 DAMIER_COUNT_SHARE=7/1000`, callgrind: 907 M to 321 M, the whole count
/// 0.74x with AVX2), from 16% to 5.5% of an n = 23 share's time (`perf record`).
fn place_on(
    q: u32,
    rows: u32,
    cols: u32,
    avoid: (u64, u64),
    control: &Control,
    found: &mut impl FnMut(u32, Entry),
) -> Result<(), Interrupted> {
    /// What every node of one search reads.
    struct Walk<'c> {
        q: u32,
        /// The rows a queen may take.
        rows: u32,
        /// The columns left where the search polls.
        poll_at: u32,
        /// The entry's bits set at the start ([`place_on`]'s `avoid`).
        avoid: u64,
        control: &'c Control,
    }
    /// The queens so far: their rows, and their diagonals `r + c`, `c - r + q - 1` and
    /// `r - c + q - 1` (the second mirrored).
    type Placed = (u32, u64, u64, u64);
    impl Walk<'_> {
        /// The rows column `c` may take: row `r` meets sum diagonal `r + c` (bit `r` of
        /// `s >> c`) and mirrored difference diagonal `r + q - 1 - c` (bit `r` of
        /// `m >> (q - 1 - c)`).
        #[inline(always)]
        fn free(&self, c: u32, (used, s, _, m): Placed) -> u32 {
            self.rows & !used & !(s >> c) as u32 & !(m >> (self.q - 1 - c)) as u32
        }

        /// The queens with one more on row `r` of column `c`.
        #[inline(always)]
        fn place(&self, c: u32, r: u32, (used, s, d, m): Placed) -> Placed {
            (used | 1 << r, s | 1 << (r + c), d | 1 << (c + self.q - 1 - r), m | 1 << (r + self.q - 1 - c))
        }

        /// Reports the placements with the last column `c` on each row of `free`.
        #[inline(always)]
        fn leaves(&self, c: u32, mut free: u32, placed: Placed, found: &mut impl FnMut(u32, Entry)) {
            while free != 0 {
                let r = free.trailing_zeros();
                free &= free - 1;
                let (used, s, d, _) = self.place(c, r, placed);
                found(used, (s | d << 32) ^ self.avoid);
            }
        }
    }
    /// Places the columns `left` (not empty) after the queens `placed`.
    fn step(
        w: &Walk,
        left: u32,
        placed: Placed,
        found: &mut impl FnMut(u32, Entry),
    ) -> Result<(), Interrupted> {
        if left == w.poll_at && w.control.cancelled() {
            return Err(Interrupted);
        }
        let c = left.trailing_zeros();
        let mut free = w.free(c, placed);
        let rest = left & (left - 1);
        if rest == 0 {
            w.leaves(c, free, placed, found);
            return Ok(());
        }
        // PERF: the last two columns in one call (most nodes are a leaf's parent): 0.77x the
        // search's instructions on the n = 20 share above (318 M to 246 M).
        let last = rest & (rest - 1) == 0;
        if last && rest == w.poll_at && w.control.cancelled() {
            return Err(Interrupted);
        }
        while free != 0 {
            let r = free.trailing_zeros();
            free &= free - 1;
            let next = w.place(c, r, placed);
            if last {
                let c = rest.trailing_zeros();
                w.leaves(c, w.free(c, next), next, found);
            } else {
                step(w, rest, next, found)?;
            }
        }
        Ok(())
    }
    if cols == 0 {
        found(0, 0);
        return Ok(());
    }
    // Polled where the columns left are `cols` without its first POLL_DEPTH ones (never when
    // `cols` has no more).
    let poll_at = (0..POLL_DEPTH).fold(cols, |m, _| m & m.wrapping_sub(1));
    let (s, d) = avoid;
    // The mirror of `d` in its `2q - 1` bits: bit `j` to bit `2q - 2 - j`.
    let m = d.reverse_bits() >> (65 - 2 * q);
    let w = Walk { q, rows: (1 << rows) - 1, poll_at, avoid: s | d << 32, control };
    step(&w, cols, (0, s, d, m), found)
}

/// Every partial placement of a `q x q` square, grouped by (column set, row set).
pub(super) struct QuarterTable {
    q: u32,
    /// `start[cell]..start[cell + 1]` are the entries of `cell = cols << q | rows`: a column
    /// set's cells are contiguous, and a task reads the cells of two column sets per half.
    start: Vec<u32>,
    pub(super) entries: Vec<Entry>,
}

impl QuarterTable {
    /// The table's size in bytes for `q`, and the cell offsets that [`QuarterTable::fill`]
    /// completes: counting costs one search, so that a table too large for the memory is
    /// refused before it is allocated. Polls `control`.
    ///
    /// PERF: the column sets in parallel on the current rayon pool, each searched on its own
    /// ([`place_on`]) into its own cells (those of a column set are contiguous). The search of
    /// the whole square row by row on one thread, as before, cost the same CPU seconds, all
    /// on one core before any task could start: about 3 CPU-s at q = 11 and 30 at q = 12 for
    /// this and [`QuarterTable::fill`] (the phase1 example's set-up, docs/gpu.md).
    pub(super) fn size(q: u32, control: &Control) -> Result<(u64, Vec<u32>), Interrupted> {
        use rayon::prelude::*;
        let cells = 1usize << (2 * q);
        let mut start = vec![0u32; cells + 1];
        // `start[cell + 1]`: the entries of `cell` (column set `cols`: the chunk `cols`).
        start[1..].par_chunks_mut(1 << q).enumerate().try_for_each(|(cols, counts)| {
            place_on(q, q, cols as u32, (0, 0), control, &mut |rows, _| counts[rows as usize] += 1)
        })?;
        for i in 0..cells {
            start[i + 1] += start[i];
        }
        let bytes = u64::from(start[cells]) * 8 + start.len() as u64 * 4;
        Ok((bytes, start))
    }

    /// The table, from the offsets of [`QuarterTable::size`]: each cell's entries in the
    /// order of [`place_on`], the order in which a task's own search ([`Source::Search`])
    /// lists them.
    ///
    /// PERF: two passes (count, then fill) instead of collecting and sorting: the search is
    /// cheap, and the table is the only large allocation (0.5 GB at q = 11). Column sets in
    /// parallel, as in [`QuarterTable::size`].
    pub(super) fn fill(q: u32, start: Vec<u32>, control: &Control) -> Result<Self, Interrupted> {
        use rayon::prelude::*;
        let mut entries = vec![0; start[start.len() - 1] as usize];
        // Each column set's entries, a slice of its own.
        let mut parts = Vec::with_capacity(1 << q);
        let mut rest = &mut entries[..];
        for cols in 0..1usize << q {
            let len = (start[(cols + 1) << q] - start[cols << q]) as usize;
            let (part, tail) = rest.split_at_mut(len);
            parts.push(part);
            rest = tail;
        }
        parts.into_par_iter().enumerate().try_for_each_init(Vec::new, |cursor, (cols, part)| {
            let cells = &start[cols << q..=(cols + 1) << q];
            cursor.clear();
            cursor.extend(cells.iter().map(|&s| (s - cells[0]) as usize));
            place_on(q, q, cols as u32, (0, 0), control, &mut |rows, e| {
                part[cursor[rows as usize]] = e;
                cursor[rows as usize] += 1;
            })
        })?;
        Ok(QuarterTable { q, start, entries })
    }

    /// The whole table for `q`.
    #[cfg(test)]
    pub(super) fn new(q: u32) -> Self {
        let control = Control::new();
        let built = Self::size(q, &control).and_then(|(_, start)| Self::fill(q, start, &control));
        built.expect("a control nobody cancels")
    }

    /// The entries of cell `(cols, rows)`.
    #[cfg(test)]
    pub(super) fn cell(&self, cols: u32, rows: u32) -> &[Entry] {
        let cell = (cols << self.q | rows) as usize;
        &self.entries[self.start[cell] as usize..self.start[cell + 1] as usize]
    }
}

/// Where the tasks find the placements of a quarter on a column set.
pub(super) enum Source {
    /// The whole table, built once and shared: the fastest way while it fits in memory.
    Table(QuarterTable),
    /// A search of the `q x q` square restricted to the column set, run by a task when it
    /// needs the set: memory per worker only (for n >= 23, where the table takes 5 GB and
    /// more).
    Search {
        /// Side of the square.
        q: u32,
    },
}

/// Buffers of [`Source::Search`] for one quarter.
#[derive(Default)]
struct Searched {
    entries: Vec<Entry>,
    start: Vec<u32>,
    cursor: Vec<u32>,
}

impl Searched {
    /// The placements on exactly the columns `cols` in the first `rows` rows off the local
    /// diagonals `avoid` ([`place_on`]), grouped by row set (`start[r]..start[r + 1]` for row
    /// set `r`), as the table holds them (less those on `avoid`).
    ///
    /// PERF: two passes of the search (count per row set, then fill) instead of collecting
    /// and sorting: 8 bytes a placement instead of 24 (at n = 27 a task's four quarters hold
    /// up to tens of millions of placements), for a search that is a small part of a task.
    ///
    /// Polls `control` at the search's [`POLL_DEPTH`]; once interrupted, the buffers hold no
    /// usable placements.
    fn search(
        &mut self,
        q: u32,
        rows: u32,
        cols: u32,
        avoid: (u64, u64),
        control: &Control,
    ) -> Result<(), Interrupted> {
        let Searched { entries, start, cursor } = self;
        start.clear();
        start.resize((1 << rows) + 1, 0);
        place_on(q, rows, cols, avoid, control, &mut |r, _| start[r as usize + 1] += 1)?;
        for i in 0..1usize << rows {
            start[i + 1] += start[i];
        }
        let len = start[1 << rows] as usize;
        entries.clear();
        entries.reserve_exact(len);
        cursor.clone_from(start);
        // PERF: written into the spare capacity, not zeroed first (a memset of every
        // placement: 17 M instructions of an n = 20 share's 1 783 M).
        let slots = &mut entries.spare_capacity_mut()[..len];
        place_on(q, rows, cols, avoid, control, &mut |r, e| {
            slots[cursor[r as usize] as usize].write(e);
            cursor[r as usize] += 1;
        })?;
        // Each row set's cursor ran from its start to the next one's (the second search
        // found what the first counted), so every slot of `0..len` was written once.
        assert!((0..1 << rows).all(|r| cursor[r] == start[r + 1]), "both searches find the same placements");
        // SAFETY: the first `len` slots, within the capacity reserved, were written: row set
        // `r`'s slots `start[r]..start[r + 1]` one by one as its cursor passed them (checked
        // just above), and these ranges tile `0..start[1 << rows] = len`.
        unsafe { entries.set_len(len) };
        Ok(())
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
/// PERF: a task reads one column set per quarter, whose cells are contiguous in the table (or
/// found by one search); converting them per task keeps the memory to the table itself (8
/// bytes per placement, 0.5 GB at n = 22), and consecutive tasks often share the right
/// quarters' column sets, which are then kept. Where they fit, the left quarters' cells are
/// converted once for all tasks instead ([`SharedCells`]).
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
    /// Buffers of [`Source::Search`].
    searched: Searched,
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
            searched: Searched::default(),
        }
    }

    /// The cells of the quarter in the bottom half or not, the right part or not: the bottom
    /// quarters without their placements on a long diagonal (see the module docs).
    pub(super) fn quarter(g: &Geometry, bottom: bool, right: bool) -> Self {
        let (r, rows) = if bottom { (g.q, g.n - g.q) } else { (0, g.q) };
        PlacedCells::new(g.quarter(r, if right { g.q } else { 0 }), rows, bottom)
    }

    /// Loads the cells on column set `cols` (unless they are loaded already), polling
    /// `control` while it searches them ([`Source::Search`]); once interrupted, none is loaded.
    pub(super) fn load(
        &mut self,
        g: &Geometry,
        source: &Source,
        cols: u32,
        control: &Control,
    ) -> Result<(), Interrupted> {
        if self.cols == Some(cols) {
            return Ok(());
        }
        self.cols = None;
        match source {
            Source::Table(table) => self.convert_from(g, table, cols),
            Source::Search { q } => {
                let mut searched = std::mem::take(&mut self.searched);
                // PERF: the search leaves out the placements that `convert` would drop (on a
                // long diagonal, about half of a bottom quarter's), pruning whole subtrees.
                let avoid = if self.avoid_long { self.at.local_long(g) } else { (0, 0) };
                let found = searched.search(*q, self.rows, cols, avoid, control);
                if found.is_ok() {
                    self.convert(g, &searched.entries, &searched.start);
                }
                self.searched = searched;
                found?;
            }
        }
        self.cols = Some(cols);
        Ok(())
    }

    /// Converts the cells on column set `cols` from the whole table.
    fn convert_from(&mut self, g: &Geometry, table: &QuarterTable, cols: u32) {
        let base = (cols << table.q) as usize;
        self.convert(g, &table.entries, &table.start[base..=base + (1usize << self.rows)]);
    }

    /// Moves the placements `entries[start[r]..start[r + 1]]` of each row set `r` to
    /// whole-board coordinates with their keys.
    fn convert(&mut self, g: &Geometry, entries: &[Entry], cell_start: &[u32]) {
        // PERF: one copy of the loop per direction of the difference shift, so that neither
        // the loop nor its shifts test it.
        if self.at.diff_shift >= 0 {
            self.convert_with::<true>(g, entries, cell_start);
        } else {
            self.convert_with::<false>(g, entries, cell_start);
        }
    }

    /// [`PlacedCells::convert`] for a difference shift to the left (`LEFT`) or to the right.
    ///
    /// PERF: written for few instructions a placement (this loop was a quarter of q(16)'s
    /// instructions, at 46 a placement and 27 more a cell): the key's sum field is the sum
    /// shifted once and masked (`width >= sum_at`), the long-diagonal weight is `sum ^ diff`'s
    /// long bit moved to the weight's (one long diagonal counts 1, both, the centre of an odd
    /// board, 0), and every array, `start` too, is written through its spare capacity.
    #[inline(always)]
    fn convert_with<const LEFT: bool>(&mut self, g: &Geometry, entries: &[Entry], cell_start: &[u32]) {
        let local = (1u64 << (2 * g.q - 1)) - 1;
        let forbid = if self.avoid_long { g.long } else { 0 };
        let at = self.at;
        // PERF: left shifts by a amount known per call are multiplications by a power of two:
        // `imul` takes any register, where a shift by a variable takes its amount in `cl`, one
        // at a time (each shift cost a copy into it, and the loop spilled registers: 41
        // instructions a placement). `black_box` hides that the factors are powers of two, or
        // the compiler turns them back into shifts.
        let diff_shift = at.diff_shift.unsigned_abs();
        let (to_sum, to_diff) = std::hint::black_box((1u64 << at.sum_shift, 1u64 << diff_shift));
        let field = (1u64 << g.width) - 1;
        debug_assert!(g.width >= g.sum_at && g.long == 1 << (g.n - 1));
        let (sum_field, diff_at) = (field << g.width, g.diff_at);
        // The sum field's shift, and the long diagonal's bit moved to the weight's.
        let (sum_up, long_up) =
            std::hint::black_box((1u64 << (g.width - g.sum_at), 1u64 << (WEIGHT_AT - (g.n - 1))));
        let Self { start, sums, diffs, keys, .. } = self;
        start.clear();
        start.reserve_exact(cell_start.len().max(1));
        // PERF: capacities of exactly the placements (not the doubling of pushes): these
        // arrays are a large part of a task's memory at n >= 27.
        let most = cell_start.last().map_or(0, |&e| e - cell_start[0]) as usize;
        for v in [&mut *sums, &mut *diffs, &mut *keys] {
            v.clear();
            v.reserve_exact(most);
        }
        // PERF: every placement is written into the spare capacity and kept by advancing the
        // cursor, as in the portable join: no branch on the forbidden diagonals (about half
        // the placements of a stored quarter) and no capacity check of three pushes.
        let (sums_out, diffs_out, keys_out) =
            (sums.spare_capacity_mut(), diffs.spare_capacity_mut(), keys.spare_capacity_mut());
        let (sums_out, diffs_out, keys_out) =
            (sums_out.as_mut_ptr(), diffs_out.as_mut_ptr(), keys_out.as_mut_ptr());
        let cells = cell_start.len().max(1);
        let starts = &mut start.spare_capacity_mut()[..cells];
        starts[0].write(0);
        let first = cell_start.first().map_or(0, |&s| s as usize);
        let placed = &entries[first..first + most];
        let mut k = 0;
        for (r, cell) in cell_start.windows(2).enumerate() {
            for &e in &placed[cell[0] as usize - first..cell[1] as usize - first] {
                let sum = (e & local).wrapping_mul(to_sum);
                // No bit is lost by a right shift: the quarter that needs one (bottom left of
                // an odd board) has no placement on its first local diagonal.
                let diff = if LEFT { (e >> 32).wrapping_mul(to_diff) } else { (e >> 32) >> diff_shift };
                // `Geometry::key`: sum bits past the field leave at the top or are masked.
                let key = (diff >> diff_at) & field | sum.wrapping_mul(sum_up) & sum_field;
                debug_assert_eq!(key, g.key(sum, diff));
                let long = ((sum ^ diff) & g.long).wrapping_mul(long_up);
                // SAFETY: `k` counts placements kept among those read before this one, all
                // within `placed`, so `k < most`, the arrays' spare capacity.
                unsafe {
                    sums_out.add(k).write(std::mem::MaybeUninit::new(sum));
                    diffs_out.add(k).write(std::mem::MaybeUninit::new(diff));
                    keys_out.add(k).write(std::mem::MaybeUninit::new(key | long));
                }
                k += ((sum | diff) & forbid == 0) as usize;
            }
            starts[r + 1].write(k as u32);
        }
        // SAFETY: the first `k` slots of each array's spare capacity were written above (a
        // slot is written before the cursor passes it, and `k <= most`, their capacity), and
        // `start`'s first `cells` slots, the first and one per cell.
        unsafe {
            sums.set_len(k);
            diffs.set_len(k);
            keys.set_len(k);
            start.set_len(cells);
        }
    }

    /// Bytes held by the buffers.
    #[cfg(feature = "measure")]
    pub(super) fn bytes(&self) -> usize {
        let s = &self.searched;
        4 * (self.start.capacity() + s.start.capacity())
            + 8 * (self.sums.capacity() + self.diffs.capacity() + self.keys.capacity() + s.entries.capacity())
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

/// The cells of one quarter on every column set, converted once from the whole table and
/// read by every worker (see [`SharedCells::bytes_at_most`] for their size).
///
/// PERF: a worker keeps the right quarters' cells from one task to the next (consecutive
/// tasks share their right column sets), but the left quarters change at every task: 2.1
/// conversions a task (13 380 in q(16)'s 6 435 tasks), so each left column set was converted
/// about 50 times at q(18), 23% of q(16)'s instructions with AVX2 and 8% (AVX2) to 14%
/// (AVX-512) of q(18)'s time (`perf record`); converted once, q(18) took 0.82-0.87x the CPU
/// time with AVX-512, 0.90-0.92x with AVX2, 0.93x portable (docs/performance.md, issue 54's
/// fifth pass).
pub(super) struct SharedCells {
    /// `cells[cols]`: the cells on column set `cols`, loaded.
    cells: Vec<PlacedCells>,
}

impl SharedCells {
    /// The bytes [`SharedCells::new`] holds at most for a quarter of `rows` rows: every
    /// placement of the table in those rows, 24 bytes each (before the long diagonals are
    /// left out), and the cell offsets.
    pub(super) fn bytes_at_most(table: &QuarterTable, rows: u32) -> u64 {
        let (q, start) = (table.q, &table.start);
        let placed: u64 =
            (0..1usize << q).map(|c| u64::from(start[(c << q) + (1 << rows)] - start[c << q])).sum();
        24 * placed + 4 * (((1u64 << rows) + 1) << q)
    }

    /// The cells of the left quarter of the bottom half or of the top half
    /// ([`PlacedCells::quarter`]) on every column set, converted from `table` in parallel on
    /// the current rayon pool; polls `control` between column sets.
    pub(super) fn new(
        g: &Geometry,
        table: &QuarterTable,
        bottom: bool,
        control: &Control,
    ) -> Result<Self, Interrupted> {
        use rayon::prelude::*;
        let cells = (0..1u32 << table.q)
            .into_par_iter()
            .map(|cols| {
                if control.cancelled() {
                    return Err(Interrupted);
                }
                let mut cells = PlacedCells::quarter(g, bottom, false);
                cells.convert_from(g, table, cols);
                cells.cols = Some(cols);
                Ok(cells)
            })
            .collect::<Result<_, _>>()?;
        Ok(SharedCells { cells })
    }

    /// The cells on column set `cols`.
    pub(super) fn get(&self, cols: u32) -> &PlacedCells {
        &self.cells[cols as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row-by-row search of the whole square that built the table before it was built by
    /// column sets: every partial placement with its row set, column set and entry.
    fn place_by_rows(q: u32, visit: &mut impl FnMut(u32, u32, Entry)) {
        fn step(
            q: u32,
            row: u32,
            (rows, cols): (u32, u32),
            (s, d): (u64, u64),
            visit: &mut impl FnMut(u32, u32, Entry),
        ) {
            if row == q {
                return visit(rows, cols, s | d << 32);
            }
            step(q, row + 1, (rows, cols), (s, d), visit);
            for c in (0..q).filter(|c| cols >> c & 1 == 0) {
                let (sb, db) = (1u64 << (row + c), 1u64 << (c + q - 1 - row));
                if s & sb == 0 && d & db == 0 {
                    step(q, row + 1, (rows | 1 << row, cols | 1 << c), (s | sb, d | db), visit);
                }
            }
        }
        step(q, 0, (0, 0), (0, 0), visit);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// The search of one column set, in its first rows and off some diagonals, finds the
        /// placements of the row-by-row search of the whole square that fit, each once.
        #[test]
        fn the_search_finds_the_placements_that_fit(
            q in 1u32..=7,
            rows_seed in 0u32..8,
            cols_seed in proptest::prelude::any::<u32>(),
            avoid_seed in proptest::prelude::any::<(u64, u64)>(),
            sparse in proptest::prelude::any::<bool>(),
        ) {
            let rows = rows_seed.min(q);
            let cols = cols_seed & ((1 << q) - 1);
            let local = (1u64 << (2 * q - 1)) - 1;
            let thin = |m: u64| if sparse { m & m.rotate_left(7) & m.rotate_left(19) } else { m & m.rotate_left(5) };
            let (avoid_s, avoid_d) = (thin(avoid_seed.0) & local, thin(avoid_seed.1) & local);
            let mut want = Vec::new();
            place_by_rows(q, &mut |r, c, e| {
                let fits = c == cols && r >> rows == 0 && e & avoid_s == 0 && (e >> 32) & avoid_d == 0;
                if fits {
                    want.push((r, e));
                }
            });
            let mut got = Vec::new();
            place_on(q, rows, cols, (avoid_s, avoid_d), &Control::new(), &mut |r, e| got.push((r, e))).unwrap();
            got.sort_unstable();
            want.sort_unstable();
            proptest::prop_assert_eq!(got, want);
        }
    }

    /// A bottom quarter's cells searched off the long diagonals (the search prunes them) are
    /// its cells converted from the whole table (where the conversion drops them), and so are
    /// a top quarter's (nothing avoided), for every column set.
    #[test]
    fn searched_cells_are_the_table_cells() {
        for n in 4..=13 {
            let g = Geometry::new(n);
            let control = Control::new();
            let table = Source::Table(QuarterTable::new(g.q));
            let search = Source::Search { q: g.q };
            let rest = n - g.q;
            for (r, c, rows, avoid) in
                [(0, 0, g.q, false), (0, g.q, g.q, false), (g.q, 0, rest, true), (g.q, g.q, rest, true)]
            {
                let mut from_table = PlacedCells::new(g.quarter(r, c), rows, avoid);
                let mut searched = PlacedCells::new(g.quarter(r, c), rows, avoid);
                for cols in 0..1 << g.q {
                    from_table.load(&g, &table, cols, &control).unwrap();
                    searched.load(&g, &search, cols, &control).unwrap();
                    for cell in 0..1 << rows {
                        let (a, b) = (from_table.cell(cell), searched.cell(cell));
                        let at = format!("n = {n}, quarter ({r}, {c}), columns {cols:b}, rows {cell:b}");
                        assert_eq!((a.sums, a.diffs, a.keys), (b.sums, b.diffs, b.keys), "{at}");
                    }
                }
            }
        }
    }

    /// The left quarters' cells converted once hold, for every column set, what a worker
    /// loads from the table, within the bytes counted for them; a count reading them counts
    /// every task as a count whose workers convert their own.
    #[test]
    fn shared_cells_are_the_cells_a_worker_loads() {
        use super::super::{Isa, Quarters, Work, count_task, tasks};
        let control = Control::new();
        for n in 4..=14 {
            let g = Geometry::new(n);
            let quarters = Quarters::new(&g, true, u64::MAX, &control).unwrap();
            let (Source::Table(table), Some(shared)) = (&quarters.source, &quarters.left) else {
                panic!("n = {n}: the table and the shared cells are built")
            };
            for (bottom, shared) in [false, true].into_iter().zip(shared) {
                let mut own = PlacedCells::quarter(&g, bottom, false);
                let mut bytes = 0;
                for cols in 0..1 << g.q {
                    own.load(&g, &quarters.source, cols, &control).unwrap();
                    let got = shared.get(cols);
                    assert_eq!(got.cols, Some(cols));
                    assert_eq!(
                        (&got.start, &got.sums, &got.diffs, &got.keys),
                        (&own.start, &own.sums, &own.diffs, &own.keys)
                    );
                    bytes += 24 * got.keys.len() as u64 + 4 * got.start.len() as u64;
                }
                let rows = if bottom { n - g.q } else { g.q };
                assert!(bytes <= SharedCells::bytes_at_most(table, rows), "n = {n}, bottom {bottom}");
            }
            let mut without = Quarters::new(&g, true, u64::MAX, &control).unwrap();
            without.left = None;
            let (mut a, mut b) = (Work::new(&g, Isa::best()), Work::new(&g, Isa::best()));
            for t in tasks(&g) {
                let (x, y) = (
                    count_task(&g, &quarters, t, &mut a, &control),
                    count_task(&g, &without, t, &mut b, &control),
                );
                assert_eq!(x, y, "n = {n}, columns {:b}", t.cols);
            }
        }
    }

    /// Every cell of the table built by column sets holds the placements of the row-by-row
    /// search (as sets), in the order of a task's own search of its column set.
    #[test]
    fn the_table_by_column_sets_holds_the_row_by_row_search_in_the_search_order() {
        for q in 1..=7 {
            let table = QuarterTable::new(q);
            let mut want = vec![Vec::new(); 1 << (2 * q)];
            place_by_rows(q, &mut |rows, cols, e| want[(cols << q | rows) as usize].push(e));
            assert_eq!(table.entries.len(), want.iter().map(Vec::len).sum::<usize>(), "q = {q}");
            let mut searched = Searched::default();
            for cols in 0..1u32 << q {
                searched.search(q, q, cols, (0, 0), &Control::new()).unwrap();
                for rows in 0..1u32 << q {
                    let got = table.cell(cols, rows);
                    let (a, b) = (searched.start[rows as usize], searched.start[rows as usize + 1]);
                    assert_eq!(
                        got,
                        &searched.entries[a as usize..b as usize],
                        "q = {q}, cell {cols:b} {rows:b}"
                    );
                    let mut sorted = got.to_vec();
                    sorted.sort_unstable();
                    let mut expected = want[(cols << q | rows) as usize].clone();
                    expected.sort_unstable();
                    assert_eq!(sorted, expected, "q = {q}, cell {cols:b} {rows:b}");
                }
            }
        }
    }
}
