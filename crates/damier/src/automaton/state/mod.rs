//! The automaton's state and its stepping, the hot path: model 1's rule is in `pair.rs`,
//! model 2's in `cell.rs` (model 3 has its own board, [`super::row`]).
//!
//! Layout: the board is padded with a one-cell frame, cell `(x, y)` at index
//! `(y + 1) * (n + 2) + x + 1`, one `u32` per cell: bits 0..8 are the signals (bit `d` for
//! [`DIRECTIONS`]`[d]`), bits 8..16 what the cell *emits* (all 8 bits when it holds a queen,
//! else its own signals: bit `d` is then exactly what a neighbour on the opposite side reads as
//! its signal `d`), bits 16.. the queen count. The frame cells hold no queen and no signal and
//! are never updated, so a signal recomputed from a frame neighbour is 0 without any bounds
//! test, as the automaton report's "in-board neighbours" requires. Outside this file (checkpoints, the
//! stepping API) a cell's word is `signals | count << 8`: the emitted byte is derived state.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

#[cfg(feature = "serde")]
use super::checkpoint::format::CheckpointError;
use super::dir::DIRECTIONS;
use super::row::{LINE_DIRS, RowBoard, RuleName};
use super::{AutomatonError, Model, Params, pairs};
use crate::queens::Placement;
use crate::random::below;

mod cell;
mod pair;
mod word;

#[cfg(test)]
use word::{EMIT_SHIFT, gather_emit, gather_emit_scalar, pair_cells};
use word::{QUEEN, SIGNALS, pair_entry, refresh_empty, threshold, with_emit};

/// The automaton: state, parameters, generator and counters.
///
/// Build it with [`Automaton::from_seed`] (the automaton report's random start) or
/// [`Automaton::from_position`] (a given position), then [`Automaton::step`] or
/// [`Automaton::run_steps`].
#[derive(Clone, Debug)]
pub struct Automaton {
    params: Params,
    n: usize,
    /// Padded row width, `n + 2`.
    w: usize,
    /// Padded cells: signals in bits 0..8, emitted byte in 8..16, queen count above.
    st: Vec<u32>,
    /// Index offsets of the 8 directions in the padded layout (wrapping `usize`).
    off: [usize; 8],
    /// Model 1: every adjacent pair ([`pair_entry`]), in the order of the automaton report's bijection
    /// ([`pairs::pair`]).
    pairs: Vec<u64>,
    /// Model 2: padded index of each board cell, row-major.
    cells: Vec<u32>,
    /// Model 2: per padded index, the mask of directions whose neighbour is on the board.
    inboard: Vec<u8>,
    /// Queens per line: rows `0..n`, columns `n..2n`, diagonals `x - y` then anti-diagonals
    /// `x + y` (`2n - 1` each).
    lines: Vec<u32>,
    /// Number of lines holding two queens or more: the position is a solution iff 0.
    crowded: u32,
    eps_t: u64,
    eta_t: u64,
    rng: Xoshiro256PlusPlus,
    seed: u64,
    steps: u64,
    moves: u64,
    /// Model 3's whole state (its own layers, generator and counters); the fields above then
    /// only hold the parameters, the seed and empty tables.
    row: Option<Box<RowBoard>>,
    /// Model 3's rule ([`RuleName::Kept`] for models 1 and 2, which ignore it).
    row_rule: RuleName,
}

/// How the signals start in [`Automaton::from_position`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartSignals {
    /// No signal anywhere (the automaton report's initial state).
    None,
    /// Every signal equal to the true field ("signals propagated", figs. 1 and 7).
    True,
}

impl Automaton {
    /// The automaton report's initial state: no signals, `n` queens placed independently and uniformly on
    /// the `n^2` cells (several may share one), drawn from the generator seeded with `seed`,
    /// which then drives the run. The same `params` and `seed` give the same trajectory
    /// everywhere (the CLI's `--seed`, the web lab, Python).
    pub fn from_seed(params: &Params, seed: u64) -> Result<Automaton, AutomatonError> {
        Automaton::from_seed_under(params, RuleName::Kept, seed)
    }

    /// [`Automaton::from_seed`], model 3 under the named rule `rule` (models 1 and 2 ignore
    /// it). The start is the same under every rule: the rules differ from the first
    /// generation on.
    pub fn from_seed_under(params: &Params, rule: RuleName, seed: u64) -> Result<Automaton, AutomatonError> {
        let params = params.validated()?;
        params.check_memory()?;
        let n = params.n as usize;
        let mut a = Automaton::empty(params, seed);
        if params.model == Model::Row {
            a.row_rule = rule;
            a.row = Some(Box::new(RowBoard::from_seed(rule.rule(params.eps), n, seed)));
            return Ok(a);
        }
        for _ in 0..n {
            let c = below(&mut a.rng, (n * n) as u64) as usize;
            a.add_queen(c % n, c / n);
        }
        Ok(a)
    }

    /// A given start: `counts[y * n + x]` queens on `(x, y)` (exactly `n` in all), signals as
    /// `signals` says; `seed` seeds the generator that drives the run.
    pub fn from_position(
        params: &Params,
        counts: &[u32],
        signals: StartSignals,
        seed: u64,
    ) -> Result<Automaton, AutomatonError> {
        Automaton::from_position_under(params, RuleName::Kept, counts, signals, seed)
    }

    /// [`Automaton::from_position`], model 3 under the named rule `rule` (models 1 and 2
    /// ignore it).
    pub fn from_position_under(
        params: &Params,
        rule: RuleName,
        counts: &[u32],
        signals: StartSignals,
        seed: u64,
    ) -> Result<Automaton, AutomatonError> {
        let params = params.validated()?;
        params.check_memory()?;
        let n = params.n as usize;
        if counts.len() != n * n {
            let got = (counts.len() as f64).sqrt() as u32;
            return Err(AutomatonError::PositionSize { n: params.n, got });
        }
        let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        if total != n as u64 {
            return Err(AutomatonError::QueenCount { n: params.n, got: total });
        }
        let mut a = Automaton::empty(params, seed);
        if params.model == Model::Row {
            let mut cols = Vec::with_capacity(n);
            for (y, row) in counts.chunks(n).enumerate() {
                let queens: u32 = row.iter().sum();
                let x = row.iter().position(|&k| k == 1).filter(|_| queens == 1);
                let Some(x) = x else { return Err(AutomatonError::RowStart { row: y as u32, queens }) };
                cols.push(x as u32);
            }
            let mut b = RowBoard::from_columns(rule.rule(params.eps), &cols, seed);
            a.row_rule = rule;
            if signals == StartSignals::True {
                b.set_true_fields();
            }
            a.row = Some(Box::new(b));
            return Ok(a);
        }
        for (i, &k) in counts.iter().enumerate() {
            for _ in 0..k {
                a.add_queen(i % n, i / n);
            }
        }
        if signals == StartSignals::True {
            a.set_true_signals();
        }
        Ok(a)
    }

    #[cfg(feature = "serde")]
    /// A state saved by [`checkpoint::encode`](super::checkpoint::encode): cell words
    /// row-major (signals in bits 0..8, queen count above), counters and generator.
    pub(super) fn restore(
        params: &Params,
        rule: RuleName,
        seed: u64,
        cells: &[u32],
        steps: u64,
        moves: u64,
        rng: Xoshiro256PlusPlus,
    ) -> Result<Automaton, CheckpointError> {
        params.check_memory()?;
        let n = params.n as usize;
        if cells.len() != n * n {
            let got = (cells.len() as f64).sqrt() as u32;
            return Err(AutomatonError::PositionSize { n: params.n, got }.into());
        }
        if params.model == Model::Row {
            let b = RowBoard::from_words(rule.rule(params.eps), n, cells, steps, moves, rng)
                .map_err(|e| CheckpointError::State(e.to_string()))?;
            let mut a = Automaton::empty(*params, seed);
            a.row_rule = rule;
            a.row = Some(Box::new(b));
            return Ok(a);
        }
        let total: u64 = cells.iter().map(|&w| u64::from(w >> 8)).sum();
        if total != n as u64 {
            return Err(AutomatonError::QueenCount { n: params.n, got: total }.into());
        }
        let mut a = Automaton::empty(*params, seed);
        for (i, &word) in cells.iter().enumerate() {
            let (x, y) = (i % n, i / n);
            let c = a.idx(x, y);
            let signals = word & SIGNALS;
            if signals & !u32::from(a.inboard[c]) != 0 {
                return Err(CheckpointError::State(format!(
                    "cell ({x}, {y}) has a signal from off the board"
                )));
            }
            for _ in 0..word >> 8 {
                a.add_queen(x, y);
            }
            a.set_signals(c, signals);
        }
        a.steps = steps;
        a.moves = moves;
        a.rng = rng;
        Ok(a)
    }

    #[cfg(all(test, feature = "serde"))]
    /// The cell words row-major, as a checkpoint stores them (the tests' view; the checkpoint
    /// streams them through [`Automaton::cell_word`]).
    pub(super) fn cell_words(&self) -> Vec<u32> {
        let mut bytes = vec![0; 4 * self.n];
        let mut words = Vec::with_capacity(self.n * self.n);
        for y in 0..self.n {
            self.row_bytes(y, &mut bytes);
            words.extend(bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])));
        }
        words
    }

    #[cfg(feature = "serde")]
    /// The words of row `y` in the checkpoint's layout, little-endian (`out` holds 4 n
    /// bytes): the rows of [`Automaton::cell_words`] one at a time, for a writer that streams
    /// them (a whole board's words at n = 16 384 are a gigabyte).
    pub(super) fn row_bytes(&self, y: usize, out: &mut [u8]) {
        if let Some(b) = &self.row {
            return b.row_bytes(y, out);
        }
        for (x, bytes) in out.chunks_exact_mut(4).enumerate() {
            let w = self.st[self.idx(x, y)];
            bytes.copy_from_slice(&((w & SIGNALS) | (w / QUEEN) << 8).to_le_bytes());
        }
    }

    #[cfg(feature = "serde")]
    /// The generator in its current state.
    pub(super) fn generator(&self) -> &Xoshiro256PlusPlus {
        self.row.as_ref().map_or(&self.rng, |b| b.generator())
    }

    /// The bytes the state of models 1 and 2 holds at side `n` (what [`Automaton::empty`]
    /// allocates): the framed cell words, the pairs, the cells' indices, the in-board
    /// directions and the line counts.
    pub(crate) fn cell_bytes(n: u32) -> u64 {
        let w = u64::from(n) + 2;
        let n = u64::from(n);
        4 * (w * w + 1)
            + 8 * pairs::count(n as u32) as u64
            + 4 * n * n
            + w * w
            + 4 * (6 * n).saturating_sub(2)
    }

    fn empty(params: Params, seed: u64) -> Automaton {
        let n = params.n as usize;
        let w = n + 2;
        let off = DIRECTIONS.map(|(dx, dy)| (dy as isize * w as isize + dx as isize) as usize);
        let idx = |x: usize, y: usize| (y + 1) * w + x + 1;
        if params.model == Model::Row {
            // Model 3 keeps its own state in `row`.
            return Automaton {
                params,
                n,
                w,
                st: Vec::new(),
                off,
                pairs: Vec::new(),
                cells: Vec::new(),
                inboard: Vec::new(),
                lines: Vec::new(),
                crowded: 0,
                eps_t: 0,
                eta_t: 0,
                rng: Xoshiro256PlusPlus::seed_from_u64(seed),
                seed,
                steps: 0,
                moves: 0,
                row: None,
                row_rule: RuleName::Kept,
            };
        }
        let pairs = (0..pairs::count(params.n))
            .map(|i| {
                let (p, q) = pairs::pair(params.n, i);
                let d = super::dir::delta(q, p).expect("adjacent");
                pair_entry(idx(p.0, p.1), idx(q.0, q.1), d)
            })
            .collect();
        let cells = (0..n * n).map(|i| idx(i % n, i / n) as u32).collect();
        let mut inboard = vec![0u8; w * w];
        for y in 0..n {
            for x in 0..n {
                for (d, (dx, dy)) in DIRECTIONS.iter().enumerate() {
                    let (u, v) = (x as i32 + dx, y as i32 + dy);
                    if (0..n as i32).contains(&u) && (0..n as i32).contains(&v) {
                        inboard[idx(x, y)] |= 1 << d;
                    }
                }
            }
        }
        Automaton {
            params,
            n,
            w,
            // One spare word after the frame: the 4-word loads of `gather_emit` around the last
            // board cell reach one word past the bottom-right frame cell.
            st: vec![0; w * w + 1],
            off,
            pairs,
            cells,
            inboard,
            lines: vec![0; 6 * n - 2],
            crowded: 0,
            eps_t: threshold(params.eps),
            eta_t: threshold(params.eta),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            seed,
            steps: 0,
            moves: 0,
            row: None,
            row_rule: RuleName::Kept,
        }
    }

    /// The parameters this automaton runs with.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The seed the generator started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Board side.
    pub fn n(&self) -> u32 {
        self.params.n
    }

    /// Updates performed so far (pairs for model 1, cells for model 2, generations of all
    /// `n^2` cells for model 3).
    pub fn steps(&self) -> u64 {
        self.row.as_ref().map_or(self.steps, |b| b.steps())
    }

    /// Effective queen moves so far.
    pub fn moves(&self) -> u64 {
        self.row.as_ref().map_or(self.moves, |b| b.moves())
    }

    /// Model 3's state (conflict counts, waves, walking queens), for views that draw it;
    /// `None` for models 1 and 2.
    pub fn model3(&self) -> Option<&RowBoard> {
        self.row.as_deref()
    }

    /// Model 3's named rule; `None` for models 1 and 2.
    pub fn row_rule(&self) -> Option<RuleName> {
        self.row.is_some().then_some(self.row_rule)
    }

    /// Replaces model 3's state with `board`, the same run's state computed elsewhere (the GPU
    /// engine's, downloaded): for its checkpoints and its result. Refused unless the
    /// automaton runs model 3 and the board has its n and rule.
    pub fn set_model3(&mut self, board: RowBoard) -> Result<(), AutomatonError> {
        let (n, got) = (self.params.n, board.n() as u32);
        match &mut self.row {
            Some(row) if got == n && board.rule() == row.rule() => {
                **row = board;
                Ok(())
            }
            _ => Err(AutomatonError::Model3Board { n, got }),
        }
    }

    /// Steps between two polls of a long run's stop flag and observers: [`CHUNK`] updates
    /// for models 1 and 2; for model 3, whose step (a generation) updates n^2 cells, as many
    /// generations as make 2^10 chunks of cell updates (at least one).
    ///
    /// [`CHUNK`]: crate::control::CHUNK
    pub fn poll_steps(&self) -> u64 {
        match self.row {
            None => crate::control::CHUNK,
            Some(_) => ((crate::control::CHUNK << 10) / (self.n * self.n) as u64).max(1),
        }
    }

    #[inline(always)]
    fn idx(&self, x: usize, y: usize) -> usize {
        (y + 1) * self.w + x + 1
    }

    /// Queens on cell `(x, y)` (panics off the board).
    pub fn count(&self, x: usize, y: usize) -> u32 {
        assert!(x < self.n && y < self.n, "cell ({x}, {y}) is off the {0} x {0} board", self.n);
        if let Some(b) = &self.row {
            return u32::from(b.queens(x, y));
        }
        self.st[self.idx(x, y)] / QUEEN
    }

    /// Signal bits of cell `(x, y)`: bit `d` set when the cell believes a queen lies further
    /// along [`DIRECTIONS`]`[d]` (panics off the board).
    ///
    /// Model 3: bit `d` is set when the cell's conflict count along `d` is positive (its
    /// counts say how many; the row directions E and W carry none).
    pub fn signals(&self, x: usize, y: usize) -> u8 {
        assert!(x < self.n && y < self.n, "cell ({x}, {y}) is off the {0} x {0} board", self.n);
        if let Some(b) = &self.row {
            return LINE_DIRS
                .iter()
                .enumerate()
                .fold(0, |bits, (k, &d)| bits | u8::from(b.count(k, x, y) > 0) << d);
        }
        (self.st[self.idx(x, y)] & SIGNALS) as u8
    }

    /// Queen counts, row-major (`y * n + x`).
    pub fn counts(&self) -> Vec<u32> {
        (0..self.n * self.n).map(|i| self.count(i % self.n, i / self.n)).collect()
    }

    /// Rows, columns and diagonals holding two queens or more: 0 exactly on a solution (a
    /// progress figure for long runs). O(1).
    pub fn conflicts(&self) -> u32 {
        self.row.as_ref().map_or(self.crowded, |b| b.conflicts())
    }

    /// The board in square blocks of `side` x `side` cells (0 is taken as 1), row-major,
    /// `ceil(n / side)` blocks a side (the last ones cut by the board's edge): per block, the
    /// queens in it and how many of them are in conflict, on one of the lines that
    /// [`Automaton::conflicts`] counts (a row, column or diagonal holding two queens or more;
    /// two queens on one cell both are). None is in conflict exactly on a solution.
    /// O(n + blocks) for model 3, O(n^2) for the others; the views of large boards draw it.
    pub fn block_density(&self, side: usize) -> Vec<(u32, u32)> {
        let n = self.n;
        let side = side.max(1);
        let blocks = n.div_ceil(side);
        let mut queens: Vec<(usize, usize, u32)> = Vec::new();
        match &self.row {
            // one queen per row: O(n)
            Some(b) => queens.extend(b.columns().iter().enumerate().map(|(y, &x)| (x as usize, y, 1))),
            None => queens.extend(
                (0..n * n).map(|i| (i % n, i / n, self.count(i % n, i / n))).filter(|&(_, _, k)| k > 0),
            ),
        }
        // queens per line, in the layout of `lines_of`
        let mut lines = vec![0u32; 2 * n + 2 * (2 * n).saturating_sub(1)];
        for &(x, y, k) in &queens {
            for l in self.lines_of(x, y) {
                lines[l] += k;
            }
        }
        let mut out = vec![(0, 0); blocks * blocks];
        for &(x, y, k) in &queens {
            let cell = &mut out[y / side * blocks + x / side];
            cell.0 += k;
            if k > 1 || self.lines_of(x, y).iter().any(|&l| lines[l] > 1) {
                cell.1 += k;
            }
        }
        out
    }

    /// True when the queens' positions form a solution: one per row, column and diagonal.
    /// O(1): kept up to date by every move.
    #[inline]
    pub fn is_solution(&self) -> bool {
        match &self.row {
            None => self.crowded == 0,
            Some(b) => b.is_solution(),
        }
    }

    /// The queens as a [`Placement`] (the column of each row's queen) when they stand one per
    /// row and one per column, the automaton report's permutation `S`; `None` otherwise. Every solution
    /// has one; a permutation may still put two queens on a diagonal ([`Automaton::is_solution`]
    /// tells). O(n) to refuse (the line counts are kept by every move), O(n^2) to build.
    pub fn placement(&self) -> Option<Placement> {
        if let Some(b) = &self.row {
            let mut seen = vec![false; self.n];
            for &x in b.columns() {
                if std::mem::replace(&mut seen[x as usize], true) {
                    return None;
                }
            }
            return Some(Placement::from_trusted(b.columns().to_vec()));
        }
        // `lines[..n]` counts the queens of each row, `lines[n..2n]` of each column.
        if self.lines[..2 * self.n].iter().any(|&k| k != 1) {
            return None;
        }
        let cols: Vec<u32> = (0..self.n)
            .filter_map(|y| (0..self.n).find(|&x| self.count(x, y) == 1))
            .map(|x| x as u32)
            .collect();
        (cols.len() == self.n).then(|| Placement::from_trusted(cols))
    }

    /// The true signal field of the current queens: bit `d` of `(x, y)` (row-major) set iff a
    /// queen lies further along direction `d`. O(n^2).
    ///
    /// Model 3: bit `d` set iff the true count along `d` is positive (walking queens unseen).
    pub fn true_signals(&self) -> Vec<u8> {
        if let Some(b) = &self.row {
            let (counts, _, _) = b.true_fields();
            let nn = self.n * self.n;
            return (0..nn)
                .map(|i| {
                    LINE_DIRS
                        .iter()
                        .enumerate()
                        .fold(0, |bits, (k, &d)| bits | u8::from(counts[k * nn + i] > 0) << d)
                })
                .collect();
        }
        let n = self.n as i32;
        let mut t = vec![0u8; self.n * self.n];
        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            // Visit each cell after its neighbour in direction d: that neighbour is already done.
            let ys: Vec<i32> = if dy > 0 { (0..n).rev().collect() } else { (0..n).collect() };
            let xs: Vec<i32> = if dx > 0 { (0..n).rev().collect() } else { (0..n).collect() };
            for &y in &ys {
                for &x in &xs {
                    let (u, v) = (x + dx, y + dy);
                    if (0..n).contains(&u) && (0..n).contains(&v) {
                        let j = (v * n + u) as usize;
                        let seen = self.count(u as usize, v as usize) > 0 || t[j] >> d & 1 == 1;
                        t[(y * n + x) as usize] |= u8::from(seen) << d;
                    }
                }
            }
        }
        t
    }

    /// Sets every signal to the true field (model 3: every count and wave).
    pub fn set_true_signals(&mut self) {
        if let Some(b) = &mut self.row {
            b.set_true_fields();
            return;
        }
        let t = self.true_signals();
        for (i, &s) in t.iter().enumerate() {
            let c = self.idx(i % self.n, i / self.n);
            self.set_signals(c, u32::from(s));
        }
    }

    /// Sets the signals of padded cell `c` (keeping its emitted byte in step).
    fn set_signals(&mut self, c: usize, signals: u32) {
        self.st[c] = with_emit((self.st[c] & !SIGNALS) | signals);
    }

    /// True when every signal equals the true field: if the queens then form a solution, no
    /// queen sees a signal or a neighbour queen, every update recomputes the same signals, and
    /// nothing can ever move again.
    ///
    /// Model 3: every count and wave equals its true value ([`RowBoard::is_absorbing`]).
    pub fn is_absorbing(&self) -> bool {
        if let Some(b) = &self.row {
            return b.is_absorbing();
        }
        let t = self.true_signals();
        t.iter().enumerate().all(|(i, &s)| self.signals(i % self.n, i / self.n) == s)
    }

    /// Performs one update (one pair for model 1, one cell for model 2), even on a solution;
    /// returns true if a queen moved.
    pub fn step(&mut self) -> bool {
        if let Some(b) = &mut self.row {
            let before = b.moves();
            b.step();
            return b.moves() != before;
        }
        let before = self.moves;
        let mut rng = self.rng.clone();
        match self.params.model {
            Model::Pair => {
                self.pair_update(&mut rng);
            }
            Model::Cell => {
                self.cell_update(&mut rng);
            }
            Model::Row => unreachable!("model 3 steps in `row`"),
        }
        self.rng = rng;
        self.steps += 1;
        self.moves != before
    }

    /// Performs updates until the queens form a solution or `limit` more updates were made
    /// (counted from now; [`Automaton::run_until`] takes a total);
    /// returns [`Automaton::is_solution`]. Does nothing on a solution, so
    /// `run_steps(k)` repeated reaches exactly the first solution of the trajectory.
    #[inline(never)]
    pub fn run_steps(&mut self, limit: u64) -> bool {
        if let Some(b) = &mut self.row {
            return b.run_steps(limit);
        }
        if self.is_solution() {
            return true;
        }
        // PERF: the generator lives in a local for the whole loop, so its state stays in
        // registers instead of going through `self` at every draw.
        let mut rng = self.rng.clone();
        let mut done = limit;
        match self.params.model {
            Model::Pair => {
                for i in 0..limit {
                    // PERF: the solution test only after a move (rare), O(1).
                    if self.pair_update(&mut rng) && self.crowded == 0 {
                        done = i + 1;
                        break;
                    }
                }
            }
            Model::Cell => {
                // PERF: `cell_update` written out with the fields of the common (empty cell)
                // path hoisted into locals: the rare queen update is a call that takes
                // `&mut self`, after which the compiler would reload them every step.
                let (w, m, cells) = (self.w, self.cells.len() as u64, self.cells.as_ptr());
                let mut st = self.st.as_mut_ptr();
                for i in 0..limit {
                    let k = below(&mut rng, m) as usize;
                    // SAFETY: k < m = cells.len(); `cells` is never resized.
                    let c = unsafe { *cells.add(k) } as usize;
                    // SAFETY: `cells` holds board cells; `st` is the padded board, re-derived
                    // after every call that borrows `self` mutably.
                    if let Err(e) = unsafe { refresh_empty(st, c, w) } {
                        // PERF: the call gets a copy of the generator, so the address of
                        // `rng` never escapes and its state stays in registers.
                        let mut queen_rng = rng.clone();
                        let moved = self.queen_update(&mut queen_rng, c, e);
                        rng = queen_rng;
                        st = self.st.as_mut_ptr();
                        if moved && self.crowded == 0 {
                            done = i + 1;
                            break;
                        }
                    }
                }
            }
            Model::Row => unreachable!("model 3 runs in `row`"),
        }
        self.rng = rng;
        self.steps += done;
        self.is_solution()
    }

    /// Moves one queen and keeps the line counters (and so the solution test) up to date.
    fn move_queen(&mut self, from: usize, to: usize) {
        debug_assert!(self.st[from] >= QUEEN);
        self.st[from] = with_emit(self.st[from] - QUEEN);
        self.st[to] = with_emit(self.st[to] + QUEEN);
        self.moves += 1;
        let (fx, fy) = (from % self.w - 1, from / self.w - 1);
        let (tx, ty) = (to % self.w - 1, to / self.w - 1);
        for l in self.lines_of(fx, fy) {
            self.lines[l] -= 1;
            if self.lines[l] == 1 {
                self.crowded -= 1;
            }
        }
        for l in self.lines_of(tx, ty) {
            self.lines[l] += 1;
            if self.lines[l] == 2 {
                self.crowded += 1;
            }
        }
    }

    fn add_queen(&mut self, x: usize, y: usize) {
        let c = self.idx(x, y);
        self.st[c] = with_emit(self.st[c] + QUEEN);
        for l in self.lines_of(x, y) {
            self.lines[l] += 1;
            if self.lines[l] == 2 {
                self.crowded += 1;
            }
        }
    }

    #[inline]
    fn lines_of(&self, x: usize, y: usize) -> [usize; 4] {
        let n = self.n;
        [y, n + x, 2 * n + x + n - 1 - y, 4 * n - 1 + x + y]
    }
}

#[cfg(test)]
impl Automaton {
    /// Model 2's signal rule alone on padded cell `c` (no move).
    fn cell_signals(&mut self, c: usize) {
        // SAFETY: tests pass board cells.
        let e = unsafe { gather_emit(self.st.as_ptr(), c, self.w) };
        self.st[c] = with_emit((self.st[c] & !SIGNALS) | e >> EMIT_SHIFT);
    }

    fn update_pair(&mut self, k: usize) -> bool {
        assert!(k < self.pairs.len(), "pair {k} out of range");
        let mut rng = self.rng.clone();
        let moved = self.pair_at(&mut rng, k);
        self.rng = rng;
        moved
    }

    fn update_cell(&mut self, c: usize) -> bool {
        let mut rng = self.rng.clone();
        let moved = self.cell_at(&mut rng, c);
        self.rng = rng;
        moved
    }

    fn below(&mut self, m: u64) -> u64 {
        below(&mut self.rng, m)
    }
}

#[cfg(test)]
mod tests;

// The golden hashes read the cells and the generator through the checkpoint's accessors.
#[cfg(all(test, feature = "serde"))]
mod golden;
