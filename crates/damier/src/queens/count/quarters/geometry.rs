//! The geometry of one board size: how the board is cut into halves and quarters, and the
//! bit layout of the keys that match a top half with a bottom half.

/// Bit where a query key holds its weight exponent (long-diagonal queens of the top half).
pub(super) const WEIGHT_AT: u32 = 60;

/// Fixed data of one board size.
pub(super) struct Geometry {
    pub(super) n: u32,
    /// Rows of the top half and columns of the left part: `ceil(n / 2)`.
    pub(super) q: u32,
    /// Width of one key field: the `n - 1` diagonals of a family that meet both halves.
    pub(super) width: u32,
    /// First whole-board index of the key window of the `r + c` and `c - r + n - 1` families.
    pub(super) sum_at: u32,
    pub(super) diff_at: u32,
    /// The long diagonals' bit (index `n - 1` in both families).
    pub(super) long: u64,
}

/// A quarter's position: how its local diagonals map to whole-board indices.
#[derive(Clone, Copy)]
pub(super) struct Quarter {
    pub(super) sum_shift: u32,
    /// Left shift of the local `c - r` diagonals (negative: right shift).
    pub(super) diff_shift: i32,
}

impl Quarter {
    /// The quarter's local diagonals on a long diagonal of the board: the sum and difference
    /// masks, as in a quarter table's entry (none where the quarter does not meet it).
    pub(super) fn local_long(&self, g: &Geometry) -> (u64, u64) {
        let local = |shift: i32| {
            let bit = (g.n - 1) as i32 - shift;
            if (0..(2 * g.q - 1) as i32).contains(&bit) { 1u64 << bit } else { 0 }
        };
        (local(self.sum_shift as i32), local(self.diff_shift))
    }
}

impl Geometry {
    pub(super) fn new(n: u32) -> Self {
        let q = n - n / 2;
        // The key window: the diagonals through both row q - 1 and row q.
        Geometry { n, q, width: n - 1, sum_at: q, diff_at: n - q, long: 1 << (n - 1) }
    }

    /// Quarter at row offset `r` and column offset `c` (each 0 or `q`).
    pub(super) fn quarter(&self, r: u32, c: u32) -> Quarter {
        // Whole-board diagonals: r + c and c - r + n - 1; local ones: r + c and c - r + q - 1.
        Quarter { sum_shift: r + c, diff_shift: c as i32 - r as i32 + (self.n - self.q) as i32 }
    }

    /// The key of whole-board diagonal masks: the window of each family that crosses the
    /// line between the halves.
    #[inline(always)]
    pub(super) fn key(&self, s: u64, d: u64) -> u64 {
        let field = (1u64 << self.width) - 1;
        ((d >> self.diff_at) & field) | ((s >> self.sum_at) & field) << self.width
    }

    /// Key bits to cut the stored keys on, best first: the diagonals next to the long ones in
    /// both families, alternately, moving out (the long diagonals themselves are never set in
    /// a stored key).
    pub(super) fn cut_candidates(&self) -> Vec<u32> {
        let w = self.width as i32;
        // Key bits of the long diagonals: main in the difference field, anti in the sum field.
        let (main, anti) = ((self.n - self.diff_at - 1) as i32, (self.n - 1 - self.sum_at) as i32);
        let mut out = Vec::new();
        for step in 1..w {
            for off in [step, -step] {
                for (long, field) in [(main, 0), (anti, w)] {
                    let bit = long + off;
                    if (0..w).contains(&bit) {
                        out.push((field + bit) as u32);
                    }
                }
            }
        }
        out
    }

    /// The local column sets of a task's four quarters: `(top left, top right)` from the task's
    /// columns `cols`, `(bottom left, bottom right)` from the others.
    pub(super) fn quarter_columns(&self, cols: u32) -> ((u32, u32), (u32, u32)) {
        let low = (1u32 << self.q) - 1;
        let (top_left, top_right) = (cols & low, cols >> self.q);
        ((top_left, top_right), (low & !top_left, (((1u32 << self.n) - 1) & !cols) >> self.q))
    }

    pub(super) fn key_bits(&self) -> u32 {
        2 * self.width
    }

    /// The top half's rows as a local mask (also the left part's columns).
    pub(super) fn top_rows(&self) -> u32 {
        (1 << self.q) - 1
    }

    /// The bottom half's rows as a local mask (also the right part's columns).
    pub(super) fn bottom_rows(&self) -> u32 {
        (1 << (self.n - self.q)) - 1
    }
}
