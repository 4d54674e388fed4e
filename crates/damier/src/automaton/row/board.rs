//! The state of a model 3 run ([`RowBoard`]): its planes and queens, its constructors, the
//! reads of its fields, the run loop and the synchronous generation (rows on every core from
//! [`PARALLEL_N`]), and the true fields that the absorbing states are checked against.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

use super::kernel::Fields;
use super::layout::{BLOCK, EAST_P, FAR, LINE_DIRS, PLANES, QUEEN, WALKING, WEST, danger_of_fields};
use super::rule::{Rand, Rule, Schedule, threshold};
use crate::automaton::dir::DIRECTIONS;
use crate::random::below;

/// Smallest board side whose generations run their rows on every core when the pool has more
/// than one thread. Below, a bit-sliced generation (about 0.1 ms at n = 512 on one core) takes
/// too little time to share: on the project's 2 cores, 2 threads cost as much CPU per update
/// as one or more, with no consistent wall-time gain, at n = 128 to 384 (docs/automaton.md).
pub const PARALLEL_N: usize = 512;

/// Fewest rows a core takes at a time in a parallel generation.
const PARALLEL_ROWS: usize = 16;

/// The state of a model 3 run: bit planes of the board, 64 cells a word.
#[derive(Clone, Debug)]
pub struct RowBoard {
    pub(super) rule: Rule,
    pub(super) n: usize,
    /// Words per plane row: n bits rounded up to whole blocks of [`BLOCK`] words.
    pub(super) wpp: usize,
    /// Per word of a plane row (with its guard words), the bits beyond the board's last
    /// column.
    pub(super) pad: Vec<u64>,
    /// The planes: row `y`'s plane `p` ([`PLANES`]) is `wpp + 2` words from
    /// `(y PLANES + p) (wpp + 2)`: a guard word, the `wpp` words of the cells (bit `x % 64` of
    /// word `1 + x / 64`), a guard word. One row's planes are one slice (a row of the
    /// parallel generation). Guard and padding bits: counts 0, waves [`FAR`].
    pub(super) cur: Vec<u64>,
    /// Scratch of the synchronous schedule: the next planes.
    pub(super) next: Vec<u64>,
    /// One row of zero planes (the counts' source beyond the first and last rows).
    pub(super) zeros: Vec<u64>,
    /// Scratch of the synchronous schedule: per row, the field bits of its queen's cell in the
    /// generation being computed.
    pub(super) queen_fields: Vec<u32>,
    /// Per row: [`QUEEN`], plus [`WALKING`] and [`EAST`](super::layout::EAST) while its
    /// queen walks, and its patience and rest counts (from
    /// [`PATIENCE_SHIFT`](super::layout::PATIENCE_SHIFT) and
    /// [`REST_SHIFT`](super::layout::REST_SHIFT)) while it is settled.
    pub(super) qs: Vec<u16>,
    /// Column of each row's queen.
    pub(super) col: Vec<u32>,
    /// Bookkeeping: queens per column, then per diagonal `x - y + n - 1`, then per
    /// anti-diagonal `x + y`.
    pub(super) lines: Vec<u32>,
    /// Lines holding two queens or more.
    pub(super) crowded: u32,
    pub(super) eps_t: u64,
    pub(super) plateau_t: u64,
    pub(super) activity_t: u64,
    pub(super) south_t: u64,
    pub(super) patience_t: u64,
    pub(super) rest_t: u64,
    pub(super) backoff_t: u64,
    pub(super) rng: Rand,
    pub(super) steps: u64,
    pub(super) moves: u64,
}

impl RowBoard {
    /// The random start: one queen per row, in a uniform column, every count and wave
    /// "nothing seen" (0 and [`FAR`]); the generator seeded with `seed` then drives the run.
    pub fn from_seed(rule: Rule, n: usize, seed: u64) -> RowBoard {
        let mut rng = Rand::seed_from_u64(seed);
        let cols: Vec<u32> = (0..n).map(|_| below(&mut rng, n as u64) as u32).collect();
        RowBoard::with_rng(rule, &cols, rng)
    }

    /// A given start: the queen of row `y` in column `cols[y]` (every entry below n), signals
    /// empty; `seed` seeds the generator.
    pub fn from_columns(rule: Rule, cols: &[u32], seed: u64) -> RowBoard {
        RowBoard::with_rng(rule, cols, Rand::seed_from_u64(seed))
    }

    /// The words of one plane row of a board of side `n`: the cells' words rounded up to a
    /// whole [`BLOCK`], and a guard word on each side.
    fn plane_words(n: usize) -> usize {
        n.div_ceil(64 * BLOCK).max(1) * BLOCK + 2
    }

    /// The bytes a board of side `n` holds (what [`RowBoard::with_rng`] allocates): the planes
    /// twice (the generation and the next), a row of zero planes, and per row its queen's
    /// fields, state and column and the line counts; the checkpoint's and the front ends'
    /// check before a board is made ([`Params::check_memory`](crate::automaton::Params::check_memory)).
    pub(crate) fn bytes(n: usize) -> u64 {
        let n = n as u64;
        let plane_row = (PLANES * RowBoard::plane_words(n as usize) * 8) as u64;
        let lines = n + 2 * (2 * n).saturating_sub(1);
        (2 * n + 1) * plane_row + n * (4 + 2 + 4) + 4 * lines
    }

    pub(super) fn with_rng(rule: Rule, cols: &[u32], rng: Rand) -> RowBoard {
        let n = cols.len();
        let ww = RowBoard::plane_words(n);
        let wpp = ww - 2;
        let pad: Vec<u64> = (0..ww)
            .map(|j| match (j, n.saturating_sub(64 * j.saturating_sub(1))) {
                (0, _) | (_, 0) => !0,
                (_, r) if r >= 64 => 0,
                (_, r) => !0 << r,
            })
            .collect();
        let mut planes = vec![0u64; n * PLANES * ww];
        for row in planes.chunks_mut(PLANES * ww) {
            row[WEST * ww..].fill(!0); // waves FAR
        }
        let mut b = RowBoard {
            rule,
            n,
            wpp,
            pad,
            next: planes.clone(),
            cur: planes,
            zeros: vec![0; PLANES * ww],
            queen_fields: vec![0; n],
            qs: vec![QUEEN; n],
            col: cols.to_vec(),
            lines: vec![0; n + 2 * (2 * n).saturating_sub(1)],
            crowded: 0,
            eps_t: threshold(rule.eps),
            plateau_t: threshold(rule.plateau),
            activity_t: threshold(rule.activity),
            south_t: threshold(rule.south_activity),
            patience_t: threshold(rule.patience_rate),
            rest_t: threshold(rule.rest_rate),
            backoff_t: threshold(rule.backoff_rate),
            rng,
            steps: 0,
            moves: 0,
        };
        for (y, &x) in cols.iter().enumerate() {
            assert!((x as usize) < n, "column {x} of row {y} is off the board");
            b.add_lines(x as usize, y, 1);
        }
        b
    }

    /// Board side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The rule this board follows.
    pub fn rule(&self) -> &Rule {
        &self.rule
    }

    /// The generator in its current state.
    pub fn generator(&self) -> &Xoshiro256PlusPlus {
        &self.rng
    }

    /// Updates made (generations for the synchronous schedule, cells otherwise).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Effective queen moves.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The column of each row's queen.
    pub fn columns(&self) -> &[u32] {
        &self.col
    }

    /// True when the queens form a solution. O(1).
    pub fn is_solution(&self) -> bool {
        self.crowded == 0
    }

    /// Lines (columns and diagonals) holding two queens or more.
    pub fn conflicts(&self) -> u32 {
        self.crowded
    }

    /// Word index and bit of cell `(x, y)` in plane `p`.
    #[inline(always)]
    pub(super) fn at(&self, p: usize, x: usize, y: usize) -> (usize, u64) {
        ((y * PLANES + p) * (self.wpp + 2) + 1 + x / 64, 1 << (x % 64))
    }

    /// The 20 field bits of cell `(x, y)`: plane `p`'s bit is bit `p`.
    #[inline(always)]
    pub(super) fn fields(&self, x: usize, y: usize) -> u32 {
        let (i, _) = self.at(0, x, y);
        let ww = self.wpp + 2;
        let mut f = 0;
        for p in 0..PLANES {
            f |= ((self.cur[i + p * ww] >> (x % 64)) as u32 & 1) << p;
        }
        f
    }

    /// Bit of cell `(x, y)` in plane `p`.
    #[inline(always)]
    pub(super) fn bit(&self, p: usize, x: usize, y: usize) -> u8 {
        let (i, bit) = self.at(p, x, y);
        u8::from(self.cur[i] & bit != 0)
    }

    /// The `bits`-bit field of cell `(x, y)` starting at plane `p`.
    #[inline(always)]
    pub(super) fn field(&self, p: usize, bits: usize, x: usize, y: usize) -> u8 {
        (0..bits).map(|i| self.bit(p + i, x, y) << i).sum()
    }

    /// Sets the `bits`-bit field of cell `(x, y)` starting at plane `p` to `v`.
    pub(super) fn set_field(&mut self, p: usize, bits: usize, x: usize, y: usize, v: u8) {
        for i in 0..bits {
            let (j, bit) = self.at(p + i, x, y);
            self.cur[j] = self.cur[j] & !bit | if v >> i & 1 != 0 { bit } else { 0 };
        }
    }

    pub(super) fn set_count(&mut self, k: usize, x: usize, y: usize, v: u8) {
        self.set_field(2 * k, 2, x, y, v);
    }

    pub(super) fn add_lines(&mut self, x: usize, y: usize, delta: i32) {
        let n = self.n;
        for l in [x, n + x + n - 1 - y, 3 * n - 1 + x + y] {
            let before = self.lines[l];
            let after = before.wrapping_add_signed(delta);
            self.lines[l] = after;
            if before == 1 && after == 2 {
                self.crowded += 1;
            } else if before == 2 && after == 1 {
                self.crowded -= 1;
            }
        }
    }

    /// The conflict count of cell `(x, y)` along `LINE_DIRS[k]`.
    pub fn count(&self, k: usize, x: usize, y: usize) -> u8 {
        self.field(2 * k, 2, x, y)
    }

    /// The west and east wave values of cell `(x, y)`.
    pub fn waves(&self, x: usize, y: usize) -> (u8, u8) {
        (self.field(WEST, 4, x, y), self.field(EAST_P, 4, x, y))
    }

    /// Queens on `(x, y)` (0 or 1).
    pub fn queens(&self, x: usize, y: usize) -> u8 {
        u8::from(self.col[y] as usize == x)
    }

    /// True when the queen on `(x, y)` is walking (unseen by the counts).
    pub fn walking(&self, x: usize, y: usize) -> bool {
        self.col[y] as usize == x && self.qs[y] & WALKING != 0
    }

    /// True when the queen of row `y` stands on `x` and the counts see it.
    pub(super) fn seen(&self, x: usize, y: usize) -> bool {
        self.col[y] as usize == x && (self.qs[y] & WALKING == 0 || !self.rule.hide_walkers)
    }

    /// Danger of cell `(x, y)` from its current counts.
    #[inline(always)]
    pub(super) fn danger_of(&self, x: usize, y: usize) -> u8 {
        danger_of_fields(self.fields(x, y))
    }

    /// Danger of the row neighbour of `(x, y)` towards the east or the west ([`FAR`] off the
    /// board).
    pub(super) fn neighbour_danger(&self, x: usize, y: usize, east: bool) -> u8 {
        match if east { x + 1 } else { x.wrapping_sub(1) } {
            u if u < self.n => self.danger_of(u, y),
            _ => FAR,
        }
    }

    /// Performs up to `limit` updates, stopping at a solution; returns
    /// [`RowBoard::is_solution`].
    pub fn run_steps(&mut self, limit: u64) -> bool {
        if self.parallel() {
            // PERF: the whole loop on a thread of the pool, so that each generation's rows
            // are shared from inside it (no hand-over from the calling thread and back per
            // generation).
            return rayon::scope(|_| self.run_steps_here(limit));
        }
        self.run_steps_here(limit)
    }

    /// True when the generations run their rows on every core: synchronous, n at least
    /// [`PARALLEL_N`], and more than one thread.
    fn parallel(&self) -> bool {
        self.rule.schedule == Schedule::Synchronous
            && self.n >= PARALLEL_N
            && rayon::current_num_threads() > 1
    }

    /// [`RowBoard::run_steps`] on the calling thread.
    fn run_steps_here(&mut self, limit: u64) -> bool {
        for _ in 0..limit {
            if self.is_solution() {
                break;
            }
            self.step();
        }
        self.is_solution()
    }

    /// One update: a generation (synchronous) or one random cell.
    pub fn step(&mut self) {
        match self.rule.schedule {
            Schedule::Synchronous => self.generation(),
            Schedule::RandomCell => {
                let k = below(&mut self.rng, (self.n * self.n) as u64) as usize;
                self.cell_update(k % self.n, k / self.n);
            }
        }
        self.steps += 1;
    }

    /// One synchronous generation: every count, wave and queen from the previous one.
    fn generation(&mut self) {
        let n = self.n;
        let fields = Fields {
            cur: &self.cur,
            zeros: &self.zeros,
            #[cfg(target_arch = "x86_64")]
            avx2: std::arch::is_x86_feature_detected!("avx2"),
            n,
            wpp: self.wpp,
            cap: self.rule.cap,
            hide: self.rule.hide_walkers,
            col: &self.col,
            qs: &self.qs,
            pad: &self.pad,
        };
        let stride = PLANES * (self.wpp + 2);
        // PERF: rows on every core above PARALLEL_N; the fields involve no random draw, so
        // the trajectory is the same on any number of threads.
        if self.parallel() {
            use rayon::prelude::*;
            self.next
                .par_chunks_mut(stride)
                .zip(self.queen_fields.par_iter_mut())
                .enumerate()
                .with_min_len(PARALLEL_ROWS)
                .for_each(|(y, (out, f))| *f = fields.row(y, out));
        } else {
            for (y, (out, f)) in self.next.chunks_mut(stride).zip(&mut self.queen_fields).enumerate() {
                *f = fields.row(y, out);
            }
        }
        self.queens_phase();
        std::mem::swap(&mut self.cur, &mut self.next);
    }

    /// Sets every count and wave to its true value ("signals propagated").
    pub fn set_true_fields(&mut self) {
        let (s, west, east) = self.true_fields();
        let n = self.n;
        for i in 0..n * n {
            let (x, y) = (i % n, i / n);
            for k in 0..6 {
                self.set_count(k, x, y, s[k * n * n + i]);
            }
            self.set_field(WEST, 4, x, y, west[i]);
            self.set_field(EAST_P, 4, x, y, east[i]);
        }
    }

    /// The true counts (layer-major, `6 * n * n`, row-major in each layer) and waves
    /// (`west`, `east`, row-major) of the current queens (walking queens unseen when the rule
    /// hides them). O(n^2): each count from the one of the next cell along its direction.
    pub fn true_fields(&self) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
        let n = self.n as i32;
        let nn = self.n * self.n;
        let seen = |x: i32, y: i32| u8::from(self.seen(x as usize, y as usize));
        let mut s = vec![0u8; 6 * nn];
        for (k, &d) in LINE_DIRS.iter().enumerate() {
            let (dx, dy) = DIRECTIONS[d];
            // Rows in the order that visits (x + dx, y + dy) before (x, y); dy is never 0.
            let ys: Vec<i32> = if dy > 0 { (0..n).rev().collect() } else { (0..n).collect() };
            for y in ys {
                for x in 0..n {
                    let (u, v) = (x + dx, y + dy);
                    if (0..n).contains(&u) && (0..n).contains(&v) {
                        let next = s[k * nn + (v * n + u) as usize];
                        s[k * nn + (y * n + x) as usize] = (seen(u, v) + next).min(self.rule.cap);
                    }
                }
            }
        }
        let dan = |x: usize, y: usize| (0..6).map(|k| s[k * nn + y * self.n + x]).sum::<u8>();
        let (mut west, mut east) = (vec![FAR; nn], vec![FAR; nn]);
        for y in 0..self.n {
            for x in 1..self.n {
                west[y * self.n + x] = dan(x - 1, y).min(west[y * self.n + x - 1]);
            }
            for x in (0..self.n - 1).rev() {
                east[y * self.n + x] = dan(x + 1, y).min(east[y * self.n + x + 1]);
            }
        }
        (s, west, east)
    }

    /// True when no queen walks and every count and wave equals its true value. Then, if the
    /// queens form a solution, every queen's danger is 0 (its counts are the true ones), so no
    /// queen acts, and every update recomputes the same values: nothing changes again. If they
    /// do not form a solution, some queen shares a line with another, so its true danger is
    /// positive, and it moves with positive probability (it starts a walk with probability
    /// [`Rule::activity`] or [`Rule::south_activity`], then steps towards a lower side, takes
    /// a plateau step with probability [`Rule::plateau`], or an uphill step with probability
    /// ε > 0): the absorbing configurations are exactly the solutions with true fields.
    pub fn is_absorbing(&self) -> bool {
        if self.qs.iter().any(|&q| q & WALKING != 0) {
            return false;
        }
        let (s, west, east) = self.true_fields();
        let nn = self.n * self.n;
        (0..nn).all(|i| {
            let (x, y) = (i % self.n, i / self.n);
            (0..6).all(|k| self.count(k, x, y) == s[k * nn + i]) && self.waves(x, y) == (west[i], east[i])
        })
    }
}
