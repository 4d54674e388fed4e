use super::{BitVec, words_for};

/// A dense matrix over GF(2), row-major, each row packed into `stride` words.
#[derive(Clone, PartialEq, Eq)]
pub struct BitMatrix {
    rows: usize,
    cols: usize,
    stride: usize,
    data: Vec<u64>,
}

/// The reduced row echelon form of a matrix, with the right-hand side carried along.
#[derive(Clone, Debug)]
pub struct Echelon {
    /// The matrix in reduced row echelon form.
    pub reduced: BitMatrix,
    /// `pivots[r]` is the column of the leading 1 of row `r`, for `r < rank`.
    pub pivots: Vec<usize>,
    /// The right-hand side after the same row operations (`None` if none was given).
    pub rhs: Option<BitVec>,
}

impl BitMatrix {
    /// The `rows x cols` zero matrix.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        let stride = words_for(cols);
        BitMatrix { rows, cols, stride, data: vec![0; rows * stride] }
    }

    /// The `n x n` identity.
    pub fn identity(n: usize) -> Self {
        let mut m = BitMatrix::zeros(n, n);
        for i in 0..n {
            m.set(i, i, true);
        }
        m
    }

    /// Number of rows.
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Entry `(r, c)`.
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> bool {
        assert!(r < self.rows && c < self.cols, "entry ({r}, {c}) out of range");
        (self.data[r * self.stride + c / 64] >> (c % 64)) & 1 == 1
    }

    /// Sets entry `(r, c)`.
    #[inline]
    pub fn set(&mut self, r: usize, c: usize, value: bool) {
        assert!(r < self.rows && c < self.cols, "entry ({r}, {c}) out of range");
        let w = &mut self.data[r * self.stride + c / 64];
        let mask = 1u64 << (c % 64);
        if value {
            *w |= mask;
        } else {
            *w &= !mask;
        }
    }

    /// Flips entry `(r, c)`.
    #[inline]
    pub fn flip(&mut self, r: usize, c: usize) {
        assert!(r < self.rows && c < self.cols, "entry ({r}, {c}) out of range");
        self.data[r * self.stride + c / 64] ^= 1u64 << (c % 64);
    }

    /// Row `r` as packed words.
    #[inline]
    pub fn row_words(&self, r: usize) -> &[u64] {
        &self.data[r * self.stride..(r + 1) * self.stride]
    }

    /// Row `r` as a vector.
    pub fn row(&self, r: usize) -> BitVec {
        BitVec::from_words(self.cols, self.row_words(r))
    }

    /// Replaces row `r`. Panics if the length differs from the column count.
    pub fn set_row(&mut self, r: usize, v: &BitVec) {
        assert_eq!(v.len(), self.cols, "row length mismatch");
        let s = self.stride;
        self.data[r * s..(r + 1) * s].copy_from_slice(v.words());
    }

    /// Swaps rows `a` and `b`.
    pub fn swap_rows(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        let s = self.stride;
        let (lo, hi) = (a.min(b), a.max(b));
        let (head, tail) = self.data.split_at_mut(hi * s);
        head[lo * s..(lo + 1) * s].swap_with_slice(&mut tail[..s]);
    }

    /// Row `dst` += row `src`.
    #[inline]
    pub fn xor_row_into(&mut self, src: usize, dst: usize) {
        debug_assert_ne!(src, dst);
        let s = self.stride;
        // PERF: split the storage once so the inner loop is a plain zip of two slices,
        // which the compiler vectorises without bounds checks.
        let (a, b) = if src < dst {
            let (head, tail) = self.data.split_at_mut(dst * s);
            (&head[src * s..(src + 1) * s], &mut tail[..s])
        } else {
            let (head, tail) = self.data.split_at_mut(src * s);
            (&tail[..s] as &[u64], &mut head[dst * s..(dst + 1) * s])
        };
        for (d, x) in b.iter_mut().zip(a) {
            *d ^= x;
        }
    }

    /// The product `self * v`.
    pub fn mul_vec(&self, v: &BitVec) -> BitVec {
        assert_eq!(v.len(), self.cols, "vector length mismatch");
        let mut out = BitVec::zeros(self.rows);
        for r in 0..self.rows {
            let ones: u32 = self.row_words(r).iter().zip(v.words()).map(|(a, b)| (a & b).count_ones()).sum();
            if ones % 2 == 1 {
                out.set(r, true);
            }
        }
        out
    }

    /// The transpose.
    pub fn transpose(&self) -> BitMatrix {
        let mut t = BitMatrix::zeros(self.cols, self.rows);
        for r in 0..self.rows {
            for c in BitVec::from_words(self.cols, self.row_words(r)).ones_indices() {
                t.set(c, r, true);
            }
        }
        t
    }

    /// Gauss–Jordan elimination to reduced row echelon form, carrying `rhs` along.
    ///
    /// Pivoting takes the first row at or below the current one with a 1 in the column.
    pub fn echelon(&self, rhs: Option<&BitVec>) -> Echelon {
        self.eliminate(rhs, |_| {})
    }

    /// The elimination behind [`BitMatrix::echelon`] and [`BitMatrix::echelon_steps`]:
    /// `observe` sees every row operation and the state after each column (a no-op closure
    /// compiles away).
    fn eliminate(&self, rhs: Option<&BitVec>, mut observe: impl FnMut(Event<'_>)) -> Echelon {
        let mut m = self.clone();
        let mut rhs = rhs.cloned();
        if let Some(b) = &rhs {
            assert_eq!(b.len(), self.rows, "right-hand side length mismatch");
        }
        let mut pivots = Vec::new();
        let mut r = 0;
        for c in 0..self.cols {
            if r == self.rows {
                break;
            }
            let pivot = (r..self.rows).find(|&i| m.get(i, c));
            if let Some(p) = pivot {
                if p != r {
                    m.swap_rows(p, r);
                    if let Some(b) = rhs.as_mut() {
                        let (x, y) = (b.get(p), b.get(r));
                        b.set(p, y);
                        b.set(r, x);
                    }
                    observe(Event::Op(RowOp::Swap(r, p)));
                }
                for i in 0..self.rows {
                    if i != r && m.get(i, c) {
                        m.xor_row_into(r, i);
                        if let Some(b) = rhs.as_mut()
                            && b.get(r)
                        {
                            b.flip(i);
                        }
                        observe(Event::Op(RowOp::Add { src: r, dst: i }));
                    }
                }
                pivots.push(c);
                r += 1;
            }
            observe(Event::Column {
                column: c,
                pivot_row: pivot.map(|_| r - 1),
                matrix: &m,
                rhs: rhs.as_ref(),
            });
        }
        Echelon { reduced: m, pivots, rhs }
    }

    /// The rank.
    pub fn rank(&self) -> usize {
        self.echelon(None).pivots.len()
    }

    /// One solution of `self * x = rhs`, or `None` if there is none (free variables are 0).
    pub fn solve(&self, rhs: &BitVec) -> Option<BitVec> {
        self.echelon(Some(rhs)).particular_solution()
    }

    /// A basis of the kernel `{ x : self * x = 0 }`.
    pub fn kernel_basis(&self) -> Vec<BitVec> {
        self.echelon(None).kernel_basis()
    }
}

/// One row operation of an elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowOp {
    /// Rows `.0` and `.1` exchanged.
    Swap(usize, usize),
    /// Row `dst` += row `src`.
    Add {
        /// The pivot row added.
        src: usize,
        /// The row changed.
        dst: usize,
    },
}

/// One pivot step of a recorded elimination ([`BitMatrix::echelon_steps`]): the column
/// worked on, the operations done and the augmented matrix afterwards.
#[derive(Clone, Debug)]
pub struct EliminationStep {
    /// The column the step clears.
    pub column: usize,
    /// The pivot row, or `None` when the column had no 1 left (a free column).
    pub pivot_row: Option<usize>,
    /// The row operations of the step, in order.
    pub ops: Vec<RowOp>,
    /// The matrix after the step.
    pub matrix: BitMatrix,
    /// The right-hand side after the step.
    pub rhs: Option<BitVec>,
}

impl BitMatrix {
    /// The product `self * other`.
    pub fn mul(&self, other: &BitMatrix) -> BitMatrix {
        assert_eq!(self.cols, other.rows, "matrix product: dimension mismatch");
        let mut out = BitMatrix::zeros(self.rows, other.cols);
        let s = other.stride;
        for r in 0..self.rows {
            for k in BitVec::from_words(self.cols, self.row_words(r)).ones_indices() {
                let src = &other.data[k * s..(k + 1) * s];
                for (d, x) in out.data[r * s..(r + 1) * s].iter_mut().zip(src) {
                    *d ^= x;
                }
            }
        }
        out
    }

    /// Like [`BitMatrix::echelon`], recording every pivot step with a copy of the augmented
    /// matrix (for showing the method on small systems: `O(cols * rows * cols)` memory).
    pub fn echelon_steps(&self, rhs: Option<&BitVec>) -> (Echelon, Vec<EliminationStep>) {
        let mut steps = Vec::new();
        let mut ops = Vec::new();
        let echelon = self.eliminate(rhs, |event| match event {
            Event::Op(op) => ops.push(op),
            Event::Column { column, pivot_row, matrix, rhs } => steps.push(EliminationStep {
                column,
                pivot_row,
                ops: std::mem::take(&mut ops),
                matrix: matrix.clone(),
                rhs: rhs.cloned(),
            }),
        });
        (echelon, steps)
    }
}

/// What [`BitMatrix::eliminate`] reports as it goes.
enum Event<'a> {
    /// A row operation just applied.
    Op(RowOp),
    /// A column is done: its pivot row (if any) and the augmented matrix now.
    Column { column: usize, pivot_row: Option<usize>, matrix: &'a BitMatrix, rhs: Option<&'a BitVec> },
}

impl Echelon {
    /// The rank of the reduced matrix.
    pub fn rank(&self) -> usize {
        self.pivots.len()
    }

    /// One solution with every free variable 0, or `None` if the system is inconsistent
    /// (or no right-hand side was carried).
    pub fn particular_solution(&self) -> Option<BitVec> {
        let b = self.rhs.as_ref()?;
        if (self.rank()..self.reduced.rows()).any(|r| b.get(r)) {
            return None;
        }
        let mut x = BitVec::zeros(self.reduced.cols());
        for (r, &c) in self.pivots.iter().enumerate() {
            if b.get(r) {
                x.set(c, true);
            }
        }
        Some(x)
    }

    /// A basis of the kernel: one vector per free column.
    pub fn kernel_basis(&self) -> Vec<BitVec> {
        let cols = self.reduced.cols();
        let mut is_pivot = vec![false; cols];
        for &c in &self.pivots {
            is_pivot[c] = true;
        }
        (0..cols)
            .filter(|&f| !is_pivot[f])
            .map(|f| {
                let mut x = BitVec::zeros(cols);
                x.set(f, true);
                for (r, &c) in self.pivots.iter().enumerate() {
                    if self.reduced.get(r, f) {
                        x.set(c, true);
                    }
                }
                x
            })
            .collect()
    }
}

impl std::fmt::Debug for BitMatrix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "BitMatrix {}x{}", self.rows, self.cols)?;
        for r in 0..self.rows {
            for c in 0..self.cols {
                write!(f, "{}", u8::from(self.get(r, c)))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn matrix_from(rows: usize, cols: usize, bits: &[bool]) -> BitMatrix {
        let mut m = BitMatrix::zeros(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                m.set(r, c, bits[r * cols + c]);
            }
        }
        m
    }

    /// Slow, obvious rank: count independent rows by brute span membership (small sizes).
    fn brute_rank(m: &BitMatrix) -> usize {
        let mut basis: Vec<BitVec> = Vec::new();
        for r in 0..m.rows() {
            let mut v = m.row(r);
            for b in &basis {
                let lead = b.ones_indices().next().unwrap();
                if v.get(lead) {
                    v.xor_assign(b);
                }
            }
            if !v.is_zero() {
                let lead = v.ones_indices().next().unwrap();
                for b in basis.iter_mut() {
                    if b.get(lead) {
                        b.xor_assign(&v);
                    }
                }
                basis.push(v);
            }
        }
        basis.len()
    }

    #[test]
    fn swap_and_xor_rows_across_words() {
        let mut m = BitMatrix::zeros(3, 100);
        m.set(0, 99, true);
        m.set(2, 1, true);
        m.swap_rows(0, 2);
        assert!(m.get(2, 99) && m.get(0, 1));
        m.xor_row_into(2, 0);
        assert!(m.get(0, 99) && m.get(0, 1));
        m.xor_row_into(0, 1);
        assert!(m.get(1, 99) && m.get(1, 1));
    }

    proptest! {
        #[test]
        fn solve_and_kernel_are_checked(rows in 1usize..12, cols in 1usize..80, seed in any::<u64>()) {
            let mut s = seed | 1;
            let bits: Vec<bool> = (0..rows * cols).map(|_| {
                s ^= s << 13; s ^= s >> 7; s ^= s << 17; s & 1 == 1
            }).collect();
            let m = matrix_from(rows, cols, &bits);
            let kernel = m.kernel_basis();
            prop_assert_eq!(kernel.len(), cols - brute_rank(&m));
            prop_assert_eq!(m.rank(), brute_rank(&m));
            for k in &kernel {
                prop_assert!(m.mul_vec(k).is_zero());
            }
            // A right-hand side in the image is always solved, and the answer checks.
            let x0 = BitVec::from_bools(&bits[..cols.min(bits.len())].iter().copied().chain(std::iter::repeat(false)).take(cols).collect::<Vec<_>>());
            let b = m.mul_vec(&x0);
            let x = m.solve(&b).expect("image vector must be solvable");
            prop_assert_eq!(m.mul_vec(&x), b);
            prop_assert_eq!(m.transpose().transpose(), m);
        }
    }

    #[test]
    fn recorded_elimination_matches_plain_one() {
        // The Lights Out text's 2 x 2 system with B = (1, 0, 0, 0): x = (1, 1, 1, 0).
        let m = matrix_from(
            4,
            4,
            &[
                true, true, true, false, true, true, false, true, true, false, true, true, false, true, true,
                true,
            ],
        );
        let b = BitVec::from_bools(&[true, false, false, false]);
        let (e, steps) = m.echelon_steps(Some(&b));
        assert_eq!(steps.len(), 4);
        assert_eq!(e.pivots, m.echelon(Some(&b)).pivots);
        assert_eq!(e.particular_solution().unwrap().to_bools(), vec![true, true, true, false]);
        assert_eq!(steps[1].ops[0], RowOp::Swap(1, 2));
        assert_eq!(m.mul(&BitMatrix::identity(4)), m);
    }

    #[test]
    fn inconsistent_system_has_no_solution() {
        let m = matrix_from(2, 1, &[true, true]);
        assert!(m.solve(&BitVec::from_bools(&[true, false])).is_none());
        assert!(m.solve(&BitVec::from_bools(&[true, true])).is_some());
    }
}
