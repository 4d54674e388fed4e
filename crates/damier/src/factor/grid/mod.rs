//! The automaton's state (border bits and the signals of every interior cell) and its one
//! update rule; `docs/factor.md` is the model this code follows, signal for signal.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{FactorError, FactorParams, arith};

/// Verdict bit: this column is the lowest wrong one.
pub const LOW: u8 = 1;
/// Verdict bit: the lowest wrong column cannot be fixed by its own border bits (the search is
/// stuck: only noise moves on).
pub const STUCK: u8 = 2;
/// Verdict bit: echo of the `a_x` the verdict was computed from.
pub const ECHO_A: u8 = 4;
/// Verdict bit: echo of the `b_x` the verdict was computed from.
pub const ECHO_B: u8 = 8;

/// No neighbour in that direction (the border, or the end of a column or of the feet).
const NONE: u32 = u32::MAX;

/// The signals of one interior cell `(i, j)` (bits are 0 or 1). A column holds at most 32
/// cells and carries stay below 64, so every count fits a `u8`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Signals {
    /// Bit `a_j` as seen down the diagonal.
    pub alpha: u8,
    /// Bit `b_i` as seen along the row.
    pub beta: u8,
    /// The partial product `alpha AND beta`.
    pub product: u8,
    /// Sum of the products of the column from its top down to this cell.
    pub sum: u8,
    /// The `alpha` of the column's top cell that this `sum` was computed from.
    pub echo: u8,
    /// The `beta` of the column's top cell when it is on row 0 (bit `b_0`), else 0, sent
    /// down with `sum`.
    pub top_b: u8,
    /// Foot only: column total, `sum` plus the carry from the previous column's foot.
    pub total: u8,
    /// Foot only: the column's bit (or, last column, its total) disagrees with N.
    pub err: u8,
    /// Foot only: every column below this one is right.
    pub ok: u8,
    /// Foot only: the column's own border bits can change its parity (`b_x` with `a_0 = 1`,
    /// or `a_x` with `b_0 = 1`).
    pub fixable: u8,
    /// Foot only: some column below this one is the lowest wrong one and is not fixable.
    pub stuck_lo: u8,
    /// Foot only: some column above this one is the lowest wrong one and is not fixable.
    pub stuck_hi: u8,
    /// The column's verdict ([`LOW`], [`STUCK`], [`ECHO_A`], [`ECHO_B`] bits), sent up the
    /// column.
    pub verdict: u8,
}

/// Where a cell reads its signals from (indices into the cell array, or [`NONE`]).
#[derive(Clone, Copy, Debug)]
struct Links {
    /// `(i, j-1)`, the previous cell of the row; `NONE` for `j = 0` (read `B_i`).
    row_prev: u32,
    /// `(i-1, j)`, the previous cell of the diagonal; `NONE` for `i = 0` (read `A_j`).
    diag_prev: u32,
    /// `(i-1, j+1)`, the cell above in the column; `NONE` at the column's top.
    above: u32,
    /// `(i+1, j-1)`, the cell below in the column; `NONE` at the column's foot.
    below: u32,
    /// Foot of column `x - 1`; `NONE` for `x = 0` or when this cell is not a foot.
    prev_foot: u32,
    /// Foot of column `x + 1`; `NONE` for the last column or when this cell is not a foot.
    next_foot: u32,
    i: u8,
    j: u8,
    x: u8,
}

/// The fixed shape of the grid for one N.
#[derive(Clone, Debug)]
struct Geometry {
    n: u64,
    la: usize,
    lb: usize,
    /// Last column, `la + lb - 2`.
    last: usize,
    /// `N >> last`: what the last column's total must equal.
    top: u64,
    links: Vec<Links>,
}

impl Geometry {
    fn new(n: u64) -> Geometry {
        let bits = 64 - n.leading_zeros() as usize;
        let (la, lb) = (bits.div_ceil(2), bits - 1);
        let last = la + lb - 2;
        let idx = |i: usize, j: usize| (i * la + j) as u32;
        let foot = |x: usize| {
            let i = x.min(lb - 1);
            idx(i, x - i)
        };
        let mut links = Vec::with_capacity(la * lb);
        for i in 0..lb {
            for j in 0..la {
                let x = i + j;
                let below = if i + 1 < lb && j >= 1 { idx(i + 1, j - 1) } else { NONE };
                let is_foot = below == NONE;
                links.push(Links {
                    row_prev: if j >= 1 { idx(i, j - 1) } else { NONE },
                    diag_prev: if i >= 1 { idx(i - 1, j) } else { NONE },
                    above: if i >= 1 && j + 1 < la { idx(i - 1, j + 1) } else { NONE },
                    below,
                    prev_foot: if is_foot && x > 0 { foot(x - 1) } else { NONE },
                    next_foot: if is_foot && x < last { foot(x + 1) } else { NONE },
                    i: i as u8,
                    j: j as u8,
                    x: x as u8,
                });
            }
        }
        let top = if last < 64 { n >> last } else { 0 };
        Geometry { n, la, lb, last, top, links }
    }

    /// Bit `x` of N (0 beyond bit 63).
    #[inline]
    fn n_bit(&self, x: usize) -> u8 {
        if x < 64 { (self.n >> x) as u8 & 1 } else { 0 }
    }

    /// Recomputes every signal of interior cell `idx` from its neighbours (no memory).
    #[inline]
    fn update(&self, cells: &mut [Signals], a: u64, b: u64, idx: usize) {
        let l = self.links[idx];
        let alpha =
            if l.diag_prev == NONE { (a >> l.j) as u8 & 1 } else { cells[l.diag_prev as usize].alpha };
        let beta = if l.row_prev == NONE { (b >> l.i) as u8 & 1 } else { cells[l.row_prev as usize].beta };
        let product = alpha & beta;
        let (sum, echo, top_b) = if l.above == NONE {
            (product, alpha, if l.i == 0 { beta } else { 0 })
        } else {
            let up = cells[l.above as usize];
            (up.sum + product, up.echo, up.top_b)
        };
        let mut c = Signals { alpha, beta, product, sum, echo, top_b, ..cells[idx] };
        if l.below == NONE {
            let (carry, ok, stuck_lo) = match l.prev_foot {
                NONE => (0, 1, 0),
                p => {
                    let f = cells[p as usize];
                    (f.total >> 1, f.ok & (f.err ^ 1), f.stuck_lo | (f.err & f.ok & (f.fixable ^ 1)))
                }
            };
            c.total = sum + carry;
            let x = l.x as usize;
            c.err = if x == self.last {
                u8::from(u64::from(c.total) != self.top)
            } else {
                (c.total & 1) ^ self.n_bit(x)
            };
            c.ok = ok;
            // Only the foot (x, 0) of a column x < lb sees a_0 (its alpha) next to b_x.
            c.fixable = (u8::from(l.j == 0) & alpha) | (u8::from(x < self.la) & top_b);
            c.stuck_lo = stuck_lo;
            c.stuck_hi = match l.next_foot {
                NONE => 0,
                f => {
                    let f = cells[f as usize];
                    f.stuck_hi | (f.err & f.ok & (f.fixable ^ 1))
                }
            };
            let low = c.err & ok;
            let stuck = (low & (c.fixable ^ 1)) | c.stuck_lo | c.stuck_hi;
            c.verdict = ((low & c.fixable) * LOW) | (stuck * STUCK) | (echo * ECHO_A) | (beta * ECHO_B);
        } else {
            c.verdict = cells[l.below as usize].verdict;
        }
        cells[idx] = c;
    }

    /// Brings every signal to its true value for the border `(a, b)`: one sweep in index
    /// order settles everything that flows down, right and up the feet, one in reverse
    /// order what flows back (`hi`, verdicts).
    fn settle(&self, cells: &mut [Signals], a: u64, b: u64) {
        for idx in 0..cells.len() {
            self.update(cells, a, b, idx);
        }
        for idx in (0..cells.len()).rev() {
            self.update(cells, a, b, idx);
        }
    }
}

/// Which cell an update picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// Interior cell `(i, j)`: row `i` (bit of b), diagonal `j` (bit of a).
    Interior(usize, usize),
    /// Border cell `A_j`, holding bit `j` of a.
    A(usize),
    /// Border cell `B_i`, holding bit `i` of b.
    B(usize),
}

/// The factoring automaton for one N: border bits, interior signals, generator and counters.
#[derive(Clone, Debug)]
pub struct FactorAutomaton {
    geo: Geometry,
    params: FactorParams,
    seed: u64,
    rng: Xoshiro256PlusPlus,
    a: u64,
    b: u64,
    cells: Vec<Signals>,
    /// Scratch for the absorption check (no allocation while running).
    scratch: Vec<Signals>,
    steps: u64,
    flips: u64,
    absorbing: bool,
    last_site: Option<Site>,
}

impl FactorAutomaton {
    /// The automaton for `n` from its random start: every border bit uniform (drawn from
    /// `seed`), every signal 0. Refuses `n < 4` and primes.
    pub fn new(n: u64, params: &FactorParams, seed: u64) -> Result<FactorAutomaton, FactorError> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (la, lb) = check_n(n)?;
        let a = rng.random::<u64>() & mask(la);
        let b = rng.random::<u64>() & mask(lb);
        FactorAutomaton::build(n, params, seed, rng, a, b)
    }

    /// The automaton for `n` with the given border bits (`a < 2^la`, `b < 2^lb`) and every
    /// signal 0; the generator is seeded with `seed`.
    pub fn from_border(
        n: u64,
        params: &FactorParams,
        seed: u64,
        a: u64,
        b: u64,
    ) -> Result<FactorAutomaton, FactorError> {
        let (la, lb) = check_n(n)?;
        if a > mask(la) || b > mask(lb) {
            return Err(FactorError::Border { a, b, la, lb });
        }
        FactorAutomaton::build(n, params, seed, Xoshiro256PlusPlus::seed_from_u64(seed), a, b)
    }

    fn build(
        n: u64,
        params: &FactorParams,
        seed: u64,
        rng: Xoshiro256PlusPlus,
        a: u64,
        b: u64,
    ) -> Result<FactorAutomaton, FactorError> {
        let params = params.validated()?;
        let geo = Geometry::new(n);
        let cells = vec![Signals::default(); geo.la * geo.lb];
        let scratch = cells.clone();
        let mut au = FactorAutomaton {
            geo,
            params,
            seed,
            rng,
            a,
            b,
            cells,
            scratch,
            steps: 0,
            flips: 0,
            absorbing: false,
            last_site: None,
        };
        au.check_absorbing();
        Ok(au)
    }

    /// Performs one update: one cell drawn uniformly among the interior and border cells.
    /// Returns whether the configuration is now absorbing (a factorization).
    #[inline]
    pub fn step(&mut self) -> bool {
        let interior = self.cells.len();
        let (la, lb) = (self.geo.la, self.geo.lb);
        let r = self.rng.random_range(0..(interior + la + lb) as u32) as usize;
        self.steps += 1;
        if r < interior {
            self.geo.update(&mut self.cells, self.a, self.b, r);
            self.last_site = None;
        } else if r < interior + la {
            let j = r - interior;
            // A_j reads the verdict of (0, j), the top of column j.
            let top = self.cells[j];
            // It changes the parity of column j only through (0, j) = a_j AND b_0.
            if self.decide(top.verdict, ECHO_A, (self.a >> j) & 1, top.beta) {
                self.a ^= 1 << j;
            }
            self.last_site = Some(Site::A(j));
        } else {
            let i = r - interior - la;
            // B_i reads the verdict of (i, 0), the foot of column i.
            let foot = self.cells[i * la];
            // It changes the parity of column i only through (i, 0) = a_0 AND b_i.
            if self.decide(foot.verdict, ECHO_B, (self.b >> i) & 1, foot.alpha) {
                self.b ^= 1 << i;
            }
            self.last_site = Some(Site::B(i));
        }
        if !self.absorbing && self.a as u128 * self.b as u128 == self.geo.n as u128 {
            self.check_absorbing();
        }
        self.absorbing
    }

    /// Whether a border cell whose bit is `bit` flips, given the verdict `v` it reads and
    /// whether its flip can change its column's parity (`can_fix`, 0 or 1).
    #[inline]
    fn decide(&mut self, v: u8, echo_bit: u8, bit: u64, can_fix: u8) -> bool {
        if u64::from(v & echo_bit != 0) != bit {
            return false; // the verdict predates this cell's last flip
        }
        let p = if v & LOW != 0 && can_fix == 1 {
            self.params.q
        } else if v & STUCK != 0 {
            self.params.eps
        } else {
            return false;
        };
        let flip = self.rng.random::<f64>() < p;
        self.flips += u64::from(flip);
        flip
    }

    /// Performs up to `k` more updates (counted from now; [`FactorAutomaton::run_until`] takes
    /// a total), stopping early once absorbing; returns whether absorbing.
    pub fn run_steps(&mut self, k: u64) -> bool {
        for _ in 0..k {
            if self.step() {
                return true;
            }
        }
        self.absorbing
    }

    fn check_absorbing(&mut self) {
        if self.a as u128 * self.b as u128 != self.geo.n as u128 {
            self.absorbing = false;
            return;
        }
        self.scratch.copy_from_slice(&self.cells);
        self.geo.settle(&mut self.scratch, self.a, self.b);
        self.absorbing = self.scratch == self.cells;
    }

    /// Brings every signal to its true value at once (no step counted): the state an
    /// unbounded number of interior updates would reach with the border frozen.
    pub fn settle(&mut self) {
        self.geo.settle(&mut self.cells, self.a, self.b);
        self.check_absorbing();
    }

    /// Whether no update can change anything: every signal true and `a × b = N`.
    pub fn is_absorbing(&self) -> bool {
        self.absorbing
    }

    /// The factorization `(min, max)` once absorbing, checked by a `u128` multiplication
    /// (and `1 < min ≤ max < N`); `None` before.
    pub fn factors(&self) -> Option<(u64, u64)> {
        if !self.absorbing {
            return None;
        }
        let (lo, hi) = (self.a.min(self.b), self.a.max(self.b));
        is_factorization(self.geo.n, lo, hi).then_some((lo, hi))
    }

    /// The number being factored.
    pub fn n(&self) -> u64 {
        self.geo.n
    }
    /// Bits of a (diagonals): `⌈bits(N)/2⌉`.
    pub fn la(&self) -> usize {
        self.geo.la
    }
    /// Bits of b (rows): `bits(N) - 1`.
    pub fn lb(&self) -> usize {
        self.geo.lb
    }
    /// The border bits of a, as a number.
    pub fn a(&self) -> u64 {
        self.a
    }
    /// The border bits of b, as a number.
    pub fn b(&self) -> u64 {
        self.b
    }
    /// The signals of interior cell `(i, j)`, `i < lb`, `j < la`.
    pub fn signals(&self, i: usize, j: usize) -> Signals {
        self.cells[i * self.geo.la + j]
    }
    /// Whether `(i, j)` is the foot of its column.
    pub fn is_foot(&self, i: usize, j: usize) -> bool {
        self.geo.links[i * self.geo.la + j].below == NONE
    }
    /// Bit `x` of N.
    pub fn n_bit(&self, x: usize) -> u8 {
        self.geo.n_bit(x)
    }
    /// Last column index, `la + lb - 2`.
    pub fn last_column(&self) -> usize {
        self.geo.last
    }
    /// The parameters.
    pub fn params(&self) -> &FactorParams {
        &self.params
    }
    /// The seed of the generator.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// Updates made.
    pub fn steps(&self) -> u64 {
        self.steps
    }
    /// Border bits flipped.
    pub fn flips(&self) -> u64 {
        self.flips
    }
    /// The border cell of the last update, if it was one (for the live view).
    pub fn last_site(&self) -> Option<Site> {
        self.last_site
    }
}

/// `2^bits - 1`.
fn mask(bits: usize) -> u64 {
    if bits >= 64 { u64::MAX } else { (1 << bits) - 1 }
}

/// The grid widths `(la, lb)` for `n`, or why there is nothing to factor.
pub(super) fn check_n(n: u64) -> Result<(usize, usize), FactorError> {
    if n < 2 {
        return Err(FactorError::TooSmall(n));
    }
    if arith::is_prime(n) {
        return Err(FactorError::Prime(n));
    }
    let bits = 64 - n.leading_zeros() as usize;
    Ok((bits.div_ceil(2), bits - 1))
}

/// The independent check of an answer: `1 < lo ≤ hi < n` and `lo × hi = n` in `u128`.
pub fn is_factorization(n: u64, lo: u64, hi: u64) -> bool {
    1 < lo && lo <= hi && hi < n && lo as u128 * hi as u128 == n as u128
}

#[cfg(test)]
mod tests;
