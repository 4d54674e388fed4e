//! Model 3 (`--model row`): queens that walk along their row, guided by saturating conflict
//! counts and a min-propagation wave (design and measurements in `docs/automaton.md`).
//!
//! The contract (what "local" means here):
//! - a cell's update reads only its own state and its 8 neighbours' states and writes only its
//!   own state (and, when its queen moves, the queen count of the neighbour it moves to);
//! - a cell's state is finite and independent of n: its queen count, 6 conflict counts
//!   saturating at [`Rule::cap`], and two wave values at most [`FAR`];
//! - the schedule is synchronous (every cell at once, from the previous generation) or the
//!   automaton report's one random cell per step ([`Schedule`]); the generator is the only shared thing;
//! - a configuration is absorbing exactly when the queens form a solution and every count
//!   and wave value is true (see [`RowBoard::is_absorbing`] for the argument).
//!
//! The state: one queen per row from the start, and a queen only ever moves to the cell east
//! or west of it, so every row keeps exactly one queen. Count `s_d(c)` (for the 6 directions
//! that leave the row: N, NE, SE, S, SW, NW) is the number of queens further from `c` along
//! `d`, saturated at `cap`: `s_d(c) <- min(cap, q(c + d) + s_d(c + d))`. The *danger* of a cell
//! is the sum of its 6 counts (queens of other rows that attack it, each line saturated): the
//! local analogue of min-conflicts' conflict count, which the queen of that row would have
//! there. The waves carry along the row the least danger seen on each side:
//! `west(c) <- min(danger(c - 1), west(c - 1))` and the same eastwards; off the board both are
//! [`FAR`]. A queen in danger steps towards the side whose wave is lower than its own danger
//! (the analogue of moving to the row's least conflicted cell, one cell at a time), takes a
//! plateau step with probability [`Rule::plateau`], and an uphill step with probability ε.
//!
//! Bookkeeping outside the rule (never read by it): each row's queen column, so the
//! generation loop does not scan for queens, and the line counts of the O(1) solution test.
//!
//! ```
//! use damier::automaton::row::{RowBoard, Rule};
//!
//! let mut board = RowBoard::from_seed(Rule::model3(0.01), 8, 3);
//! while !board.run_steps(1_000) {}
//! assert!(board.is_solution() && board.conflicts() == 0);
//! assert_eq!(board.columns().len(), 8);
//! ```

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::dir::DIRECTIONS;
use crate::random::below;

/// The generator of every run.
type Rand = Xoshiro256PlusPlus;

/// The 6 directions (indices into [`DIRECTIONS`]) that leave the row: N, NE, SE, S, SW, NW.
pub const LINE_DIRS: [usize; 6] = [0, 1, 3, 4, 5, 7];

/// The wave value of "no cell on this side" (and the danger of a frame cell): larger than any
/// danger (at most `6 * cap`).
pub const FAR: u8 = 15;

/// A cell holding its row's queen.
const QUEEN: u8 = 1;
/// The queen of the cell is walking (only with [`Rule::hide_walkers`]).
const WALKING: u8 = 2;
/// A walking queen's direction: east when set, else west.
const EAST: u8 = 4;

/// How the cells are scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every cell updates at once from the previous generation; a step is one generation.
    Synchronous,
    /// One uniformly chosen cell per step, in place (the automaton report's model 2 schedule).
    RandomCell,
}

/// One local rule of the family (the designs of `docs/automaton.md`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule {
    /// Saturation of each conflict count: 1 is the automaton report's yes/no signal, 2 counts 0, 1, 2+.
    /// [range: 1..=2]
    pub cap: u8,
    /// Follow the min-propagation waves (true) or only compare the two neighbours' dangers.
    pub wave: bool,
    /// Update schedule.
    pub schedule: Schedule,
    /// Walking queens are invisible: a queen in danger starts a walk (with probability
    /// [`Rule::activity`]), walks without being counted, and is counted again once it
    /// settles on a cell no side beats.
    pub hide_walkers: bool,
    /// Probability that a queen in danger acts at all in a generation (desynchronises the
    /// queens of a synchronous run). [range: 0..=1]
    pub activity: f64,
    /// Start probability (as [`Rule::activity`]) of a queen in danger whose conflicts all lie
    /// south of it (no queen north, north-east or north-west): below `activity`, the queen
    /// further north keeps its cell and the southern one yields. [range: 0..=1]
    pub south_activity: f64,
    /// Probability of a step towards a side as good as the queen's cell (plateau move).
    /// [range: 0..=1]
    pub plateau: f64,
    /// Probability of a step to a uniform side whatever the sides hold (noise, as
    /// min-conflicts' random walk), and of an uphill step when no side is as good; must be
    /// positive for the absorbing states to be exactly the solutions. [range: 0..=1]
    pub eps: f64,
}

impl Rule {
    /// Model 3 as the product runs it (the kept design of `docs/automaton.md`): counts
    /// saturating at 2, waves, synchronous, walkers unseen, activity [`ACTIVITY`] (north
    /// conflicts) and [`SOUTH_ACTIVITY`] (south only), plateau walks with probability
    /// [`PLATEAU`], uphill steps with probability `eps`.
    pub fn model3(eps: f64) -> Rule {
        Rule {
            cap: 2,
            wave: true,
            schedule: Schedule::Synchronous,
            hide_walkers: true,
            activity: ACTIVITY,
            south_activity: SOUTH_ACTIVITY,
            plateau: PLATEAU,
            eps,
        }
    }
}

/// Smallest board side whose generations run their rows on every core (below, a generation
/// takes too little time to share).
pub const PARALLEL_N: usize = 192;
/// One padded row's outputs in a generation: its index, then its slices of the next counts
/// (6 layers), the dangers, the next west and east waves.
type RowOut<'a> = (usize, ((&'a mut [u8], &'a mut [u8]), (&'a mut [u8], &'a mut [u8])));

/// Fewest rows a core takes at a time in a parallel generation.
const PARALLEL_ROWS: usize = 16;

/// Model 3: probability that a queen in danger with no better side walks to an equally good
/// one.
pub const PLATEAU: f64 = 0.1;

/// Model 3: probability that a settled queen with a conflict towards the north starts a walk
/// in a generation (measured in `docs/automaton.md`).
pub const ACTIVITY: f64 = 0.1;
/// Model 3: the same for a queen whose conflicts all lie south (it mostly waits: the other
/// queen of the line moves).
pub const SOUTH_ACTIVITY: f64 = 0.01;

/// Why cell words are not a model 3 state.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RowStateError {
    /// A row without exactly one queen.
    #[error("row {row} holds {queens} queens; model 3 keeps exactly one per row")]
    Row {
        /// 0-based row.
        row: usize,
        /// Queens found on it.
        queens: u32,
    },
    /// A field out of its range, or a count from off the board.
    #[error("cell ({x}, {y}): {what}")]
    Cell {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
        /// What is wrong.
        what: &'static str,
    },
}

/// Bit of a cell word: the cell holds its row's queen.
const WORD_QUEEN: u32 = 1 << 20;
/// Bit of a cell word: that queen walks.
const WORD_WALKING: u32 = 1 << 21;
/// Bit of a cell word: the walk goes east.
const WORD_EAST: u32 = 1 << 22;

/// The state of a model 3 run: layers of the padded board, one byte per cell each.
#[derive(Clone, Debug)]
pub struct RowBoard {
    rule: Rule,
    n: usize,
    /// Padded row width, `n + 2`.
    w: usize,
    /// Per padded cell: [`QUEEN`] when it holds the queen of its row, plus [`WALKING`] while
    /// that queen walks (one queen per row, so never more).
    q: Vec<u8>,
    /// The 6 conflict counts, row-interleaved: padded row `y`'s count along `LINE_DIRS[k]`
    /// at padded column `x` is byte `(6 y + k) w + x` ([`RowBoard::sidx`]), so that one row's
    /// 6 layers are one slice (a row of the parallel generation).
    sig: Vec<u8>,
    /// West and east wave values, one layer each.
    west: Vec<u8>,
    east: Vec<u8>,
    /// Scratch of the synchronous schedule: next counts (same layout as `sig`) and waves, and
    /// every cell's danger (frame cells: [`FAR`]).
    next_sig: Vec<u8>,
    next_west: Vec<u8>,
    next_east: Vec<u8>,
    danger: Vec<u8>,
    /// Padded offsets of the 6 line directions.
    off: [isize; 6],
    /// Bookkeeping: column of each row's queen.
    col: Vec<u32>,
    /// Queens per column, then per diagonal `x - y + n - 1`, then per anti-diagonal `x + y`.
    lines: Vec<u32>,
    /// Lines holding two queens or more.
    crowded: u32,
    eps_t: u64,
    plateau_t: u64,
    activity_t: u64,
    south_t: u64,
    rng: Rand,
    steps: u64,
    moves: u64,
}

/// A probability as a threshold on 53 random bits.
fn threshold(p: f64) -> u64 {
    (p * (1u64 << 53) as f64).round() as u64
}

/// One Bernoulli draw against a [`threshold`]; probability 1 holds without a draw.
#[inline(always)]
fn draw(rng: &mut Rand, t: u64) -> bool {
    // PERF: integer compare of 53 random bits; no draw at all for probability 1.
    t >= 1 << 53 || (rng.next_u64() >> 11) < t
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

    fn with_rng(rule: Rule, cols: &[u32], rng: Rand) -> RowBoard {
        let n = cols.len();
        let w = n + 2;
        let size = w * w;
        let off = LINE_DIRS.map(|d| {
            let (dx, dy) = DIRECTIONS[d];
            dy as isize * w as isize + dx as isize
        });
        let mut danger = vec![FAR; size];
        for y in 1..=n {
            danger[y * w + 1..y * w + 1 + n].fill(0);
        }
        let mut b = RowBoard {
            rule,
            n,
            w,
            q: vec![0; size],
            sig: vec![0; 6 * size],
            west: vec![FAR; size],
            east: vec![FAR; size],
            next_sig: vec![0; 6 * size],
            next_west: vec![FAR; size],
            next_east: vec![FAR; size],
            danger,
            off,
            col: cols.to_vec(),
            lines: vec![0; n + 2 * (2 * n - 1)],
            crowded: 0,
            eps_t: threshold(rule.eps),
            plateau_t: threshold(rule.plateau),
            activity_t: threshold(rule.activity),
            south_t: threshold(rule.south_activity),
            rng,
            steps: 0,
            moves: 0,
        };
        for (y, &x) in cols.iter().enumerate() {
            assert!((x as usize) < n, "column {x} of row {y} is off the board");
            let c = b.idx(x as usize, y);
            b.q[c] = QUEEN;
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

    /// Cell `(x, y)` as one word (the checkpoint's layout): bits `2k..2k+2` the count along
    /// `LINE_DIRS[k]`, 12..16 the west wave, 16..20 the east wave, bit 20 the queen, 21
    /// walking, 22 walking east.
    pub fn word(&self, x: usize, y: usize) -> u32 {
        let c = self.idx(x, y);
        let mut word = 0;
        for k in 0..6 {
            word |= u32::from(self.sig[self.sidx(k, c)]) << (2 * k);
        }
        word |= u32::from(self.west[c]) << 12 | u32::from(self.east[c]) << 16;
        let q = self.q[c];
        if q & QUEEN != 0 {
            word |= WORD_QUEEN;
        }
        if q & WALKING != 0 {
            word |= WORD_WALKING;
        }
        if q & EAST != 0 {
            word |= WORD_EAST;
        }
        word
    }

    /// The state that [`RowBoard::word`] wrote (`words` row-major), with its counters and
    /// generator; every field is checked against what a run can reach.
    pub fn from_words(
        rule: Rule,
        n: usize,
        words: &[u32],
        steps: u64,
        moves: u64,
        rng: Xoshiro256PlusPlus,
    ) -> Result<RowBoard, RowStateError> {
        assert_eq!(words.len(), n * n, "one word per cell");
        let mut cols = vec![0u32; n];
        for y in 0..n {
            let row = &words[y * n..(y + 1) * n];
            let queens = row.iter().filter(|&&w| w & WORD_QUEEN != 0).count() as u32;
            let Some(x) = row.iter().position(|&w| w & WORD_QUEEN != 0).filter(|_| queens == 1) else {
                return Err(RowStateError::Row { row: y, queens });
            };
            cols[y] = x as u32;
        }
        let mut b = RowBoard::with_rng(rule, &cols, rng);
        for (i, &word) in words.iter().enumerate() {
            let (x, y) = (i % n, i / n);
            let bad = |what| Err(RowStateError::Cell { x, y, what });
            if word >> 23 != 0 || word & (WORD_WALKING | WORD_EAST) != 0 && word & WORD_QUEEN == 0 {
                return bad("unknown bits, or a walk without a queen");
            }
            if word & WORD_EAST != 0 && word & WORD_WALKING == 0
                || word & WORD_WALKING != 0 && !rule.hide_walkers
            {
                return bad("a walking flag this rule never sets");
            }
            let c = b.idx(x, y);
            for (k, &d) in LINE_DIRS.iter().enumerate() {
                let v = (word >> (2 * k) & 3) as u8;
                let (dx, dy) = DIRECTIONS[d];
                let inside =
                    (0..n as i32).contains(&(x as i32 + dx)) && (0..n as i32).contains(&(y as i32 + dy));
                if v > rule.cap || v > 0 && !inside {
                    return bad("a count above the cap or from off the board");
                }
                let si = b.sidx(k, c);
                b.sig[si] = v;
            }
            let (west, east) = ((word >> 12 & 15) as u8, (word >> 16 & 15) as u8);
            if west > FAR || east > FAR || x == 0 && west != FAR || x == n - 1 && east != FAR {
                return bad("a wave value from off the board");
            }
            b.west[c] = west;
            b.east[c] = east;
            if word & WORD_WALKING != 0 {
                b.q[c] |= WALKING;
            }
            if word & WORD_EAST != 0 {
                b.q[c] |= EAST;
            }
        }
        if rule.schedule == Schedule::RandomCell {
            for y in 0..n {
                for x in 0..n {
                    let c = b.idx(x, y);
                    b.danger[c] = b.danger_of(c);
                }
            }
        }
        b.steps = steps;
        b.moves = moves;
        Ok(b)
    }

    /// Sets every count and wave to its true value ("signals propagated").
    pub fn set_true_fields(&mut self) {
        let (s, west, east) = self.true_fields();
        let n = self.n;
        for i in 0..n * n {
            let c = self.idx(i % n, i / n);
            for k in 0..6 {
                let j = self.sidx(k, c);
                self.sig[j] = s[k * n * n + i];
            }
            self.west[c] = west[i];
            self.east[c] = east[i];
            self.danger[c] = self.danger_of(c);
        }
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

    #[inline(always)]
    fn idx(&self, x: usize, y: usize) -> usize {
        (y + 1) * self.w + x + 1
    }

    /// Index in `sig` of the count along `LINE_DIRS[k]` of padded cell `c`.
    #[inline(always)]
    fn sidx(&self, k: usize, c: usize) -> usize {
        (c / self.w * 6 + k) * self.w + c % self.w
    }

    fn add_lines(&mut self, x: usize, y: usize, delta: i32) {
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
        self.sig[self.sidx(k, self.idx(x, y))]
    }

    /// The west and east wave values of cell `(x, y)`.
    pub fn waves(&self, x: usize, y: usize) -> (u8, u8) {
        let c = self.idx(x, y);
        (self.west[c], self.east[c])
    }

    /// Queens on `(x, y)` (0 or 1).
    pub fn queens(&self, x: usize, y: usize) -> u8 {
        self.q[self.idx(x, y)] & QUEEN
    }

    /// True when the queen on `(x, y)` is walking (unseen by the counts).
    pub fn walking(&self, x: usize, y: usize) -> bool {
        self.q[self.idx(x, y)] & WALKING != 0
    }

    /// Danger of padded cell `c` from its current counts.
    #[inline(always)]
    fn danger_of(&self, c: usize) -> u8 {
        (0..6).map(|k| self.sig[self.sidx(k, c)]).sum()
    }

    /// Performs up to `limit` updates, stopping at a solution; returns
    /// [`RowBoard::is_solution`].
    pub fn run_steps(&mut self, limit: u64) -> bool {
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
                let c = self.idx(k % self.n, k / self.n);
                self.cell_update(c);
            }
        }
        self.steps += 1;
    }

    /// One synchronous generation: every count, wave and queen from the previous one.
    fn generation(&mut self) {
        let (n, w) = (self.n, self.w);
        let cap = self.rule.cap;
        // A walking queen is not counted when the rule hides walkers: `q & !(q >> 1)` is 1 on a
        // settled queen only.
        let hide = u8::from(self.rule.hide_walkers);
        // Source row offsets (in rows) and column shifts of the 6 counts.
        let dirs = LINE_DIRS.map(|d| DIRECTIONS[d]);
        let (sig, q, west, east) = (&self.sig, &self.q, &self.west, &self.east);
        // 1-3, fused per padded row y (its outputs are its own rows of next_sig, danger,
        // next_west and next_east; it reads rows y - 1 to y + 1 of the previous generation):
        // its dangers, then its next counts `s_d(c) <- min(cap, q(c + d) + s_d(c + d))`, then
        // its next waves `west(c) <- min(danger(c - 1), west(c - 1))`, east likewise.
        let row = |(y, ((next, dan), (nw, ne))): RowOut<'_>| {
            if y == 0 || y > n {
                return; // frame rows: counts 0, dangers and waves FAR, never rewritten
            }
            let inner = 1..n + 1;
            let dan_in = &mut dan[inner.clone()];
            dan_in.fill(0);
            for k in 0..6 {
                let own = &sig[(6 * y + k) * w..][inner.clone()];
                // PERF: row slices zipped, so the compiler vectorises the byte adds.
                for (d, &s) in dan_in.iter_mut().zip(own) {
                    *d += s;
                }
                let (dx, dy) = dirs[k];
                let from = (1 + dx) as usize..(n as i32 + 1 + dx) as usize;
                let yy = (y as i32 + dy) as usize;
                let src = &sig[(6 * yy + k) * w..][from.clone()];
                let qs = &q[yy * w..][from];
                for ((d, &qq), &s) in next[k * w..][inner.clone()].iter_mut().zip(qs).zip(src) {
                    *d = ((qq & !(qq >> 1 & hide) & QUEEN) + s).min(cap);
                }
            }
            let (wv, ev) = (&west[y * w..(y + 1) * w], &east[y * w..(y + 1) * w]);
            for ((d, &a), &b) in nw[inner.clone()].iter_mut().zip(&dan[..n]).zip(&wv[..n]) {
                *d = a.min(b);
            }
            for ((d, &a), &b) in ne[inner].iter_mut().zip(&dan[2..]).zip(&ev[2..]) {
                *d = a.min(b);
            }
        };
        // PERF: rows on every core above PARALLEL_N; the fields involve no random draw, so
        // the trajectory is the same on any number of threads.
        if n >= PARALLEL_N {
            use rayon::prelude::*;
            let outs = self.next_sig.par_chunks_mut(6 * w).zip(self.danger.par_chunks_mut(w));
            let waves = self.next_west.par_chunks_mut(w).zip(self.next_east.par_chunks_mut(w));
            outs.zip(waves).enumerate().with_min_len(PARALLEL_ROWS).for_each(row);
        } else {
            let outs = self.next_sig.chunks_mut(6 * w).zip(self.danger.chunks_mut(w));
            let waves = self.next_west.chunks_mut(w).zip(self.next_east.chunks_mut(w));
            outs.zip(waves).enumerate().for_each(row);
        }
        // 4. Queens, from the previous generation's dangers and waves, in row order (the only
        // random draws).
        for y in 0..n {
            let x = self.col[y] as usize;
            let c = self.idx(x, y);
            let (own, l, r) = if self.rule.wave {
                (self.danger[c], self.west[c], self.east[c])
            } else {
                (self.danger[c], self.danger[c - 1], self.danger[c + 1])
            };
            if let Some(east) = self.decide(c, own, l, r) {
                self.move_queen(x, y, east);
            }
        }
        std::mem::swap(&mut self.sig, &mut self.next_sig);
        std::mem::swap(&mut self.west, &mut self.next_west);
        std::mem::swap(&mut self.east, &mut self.next_east);
    }

    /// The random-cell schedule: cell `c` recomputes its counts and waves in place from its
    /// neighbours, then its queen (if any) decides.
    fn cell_update(&mut self, c: usize) {
        let cap = self.rule.cap;
        let mut dan = 0;
        for k in 0..6 {
            let b = (c as isize + self.off[k]) as usize;
            let qq = self.q[b];
            let seen = qq & !(qq >> 1 & u8::from(self.rule.hide_walkers)) & QUEEN;
            let s = (seen + self.sig[self.sidx(k, b)]).min(cap);
            let i = self.sidx(k, c);
            self.sig[i] = s;
            dan += s;
        }
        self.danger[c] = dan;
        let dw = self.neighbour_danger(c - 1);
        let de = self.neighbour_danger(c + 1);
        self.west[c] = dw.min(self.west[c - 1]);
        self.east[c] = de.min(self.east[c + 1]);
        if self.q[c] == 0 {
            return;
        }
        let (l, r) = if self.rule.wave { (self.west[c], self.east[c]) } else { (dw, de) };
        let (x, y) = (c % self.w - 1, c / self.w - 1);
        if let Some(east) = self.decide(c, dan, l, r) {
            self.move_queen(x, y, east);
        }
    }

    /// Danger of a row neighbour read from its counts ([`FAR`] on the frame).
    fn neighbour_danger(&self, c: usize) -> u8 {
        let x = c % self.w;
        if x == 0 || x == self.w - 1 { FAR } else { self.danger_of(c) }
    }

    /// The choice of the queen on padded cell `c` from its own danger and what it knows of the
    /// west and east sides (wave values, or the neighbours' dangers): `Some(true)` east,
    /// `Some(false)` west. With [`Rule::hide_walkers`] it also starts and ends walks.
    #[inline(always)]
    fn decide(&mut self, c: usize, own: u8, l: u8, r: u8) -> Option<bool> {
        if !self.rule.hide_walkers {
            if own == 0 || !draw(&mut self.rng, self.activity_t) {
                return None;
            }
            return self.choose(own, l, r);
        }
        let state = self.q[c];
        if state & WALKING != 0 {
            // A walk goes on while a better cell lies further on its side, then settles.
            let east = state & EAST != 0;
            if (if east { r } else { l }) < own {
                return Some(east);
            }
            self.q[c] = QUEEN;
            return None;
        }
        // Counts N, NE and NW are layers 0, 1 and 5 of LINE_DIRS.
        let north = self.sig[self.sidx(0, c)] | self.sig[self.sidx(1, c)] | self.sig[self.sidx(5, c)];
        let t = if north > 0 { self.activity_t } else { self.south_t };
        if own == 0 || !draw(&mut self.rng, t) {
            return None;
        }
        // Noise, as min-conflicts' random walk: with probability ε one step to a uniform side,
        // whatever the waves say (so no set of plateaus can hold the queens forever).
        if draw(&mut self.rng, self.eps_t) {
            return self.side_step(l, r);
        }
        let best = l.min(r);
        let walk = best < own || best == own && draw(&mut self.rng, self.plateau_t);
        if walk {
            let east = if l == r { self.rng.next_u64() >> 63 == 1 } else { r < l };
            self.q[c] = QUEEN | WALKING | if east { EAST } else { 0 };
            return Some(east);
        }
        if best == own {
            return None;
        }
        self.uphill(l, r)
    }

    /// The step of an acting queen: towards a lower side, a plateau step with probability
    /// [`Rule::plateau`], else an uphill step with probability ε.
    #[inline(always)]
    fn choose(&mut self, own: u8, l: u8, r: u8) -> Option<bool> {
        let best = l.min(r);
        let pick = |rng: &mut Rand| if l == r { rng.next_u64() >> 63 == 1 } else { r < l };
        if best < own {
            return Some(pick(&mut self.rng));
        }
        if own == 0 {
            return None;
        }
        if best == own {
            return draw(&mut self.rng, self.plateau_t).then(|| pick(&mut self.rng));
        }
        self.uphill(l, r)
    }

    /// With probability ε, a [`RowBoard::side_step`].
    #[inline(always)]
    fn uphill(&mut self, l: u8, r: u8) -> Option<bool> {
        if !draw(&mut self.rng, self.eps_t) {
            return None;
        }
        self.side_step(l, r)
    }

    /// One step to a uniform side on the board (`l`, `r`: the sides' values, [`FAR`] where
    /// the board ends).
    #[inline(always)]
    fn side_step(&mut self, l: u8, r: u8) -> Option<bool> {
        match (l < FAR, r < FAR) {
            (true, true) => Some(self.rng.next_u64() >> 63 == 1),
            (false, true) => Some(true),
            (true, false) => Some(false),
            (false, false) => None,
        }
    }

    fn move_queen(&mut self, x: usize, y: usize, east: bool) {
        let to = if east { x + 1 } else { x - 1 };
        debug_assert!(to < self.n);
        let (c, t) = (self.idx(x, y), self.idx(to, y));
        self.q[t] = self.q[c];
        self.q[c] = 0;
        self.col[y] = to as u32;
        self.add_lines(x, y, -1);
        self.add_lines(to, y, 1);
        self.moves += 1;
    }

    /// The true counts (layer-major, `6 * n * n`, row-major in each layer) and waves
    /// (`west`, `east`, row-major) of the current queens (walking queens unseen when the rule
    /// hides them). O(n^2): each count from the one of the next cell along its direction.
    pub fn true_fields(&self) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
        let n = self.n as i32;
        let nn = self.n * self.n;
        let seen = |x: i32, y: i32| {
            let qq = self.q[self.idx(x as usize, y as usize)];
            u8::from(qq == QUEEN || qq != 0 && !self.rule.hide_walkers)
        };
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
        if self.q.iter().any(|&q| q & WALKING != 0) {
            return false;
        }
        let (s, west, east) = self.true_fields();
        let nn = self.n * self.n;
        (0..nn).all(|i| {
            let (x, y) = (i % self.n, i / self.n);
            let c = self.idx(x, y);
            (0..6).all(|k| self.sig[self.sidx(k, c)] == s[k * nn + i])
                && self.west[c] == west[i]
                && self.east[c] == east[i]
        })
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod golden;
