//! The synchronous generation of model 3, event-driven: only the blocks (segments of
//! [`BLOCK`] cells of a row) whose inputs changed in the previous generation are recomputed.
//!
//! Why it is exact: once every cell holds the function of its neighbours' previous values (true
//! after one full generation, which [`RowBoard::resync`] forces), a cell whose inputs did not
//! change in the last generation would recompute the value it already holds. So a generation
//! recomputes, per layer, only the blocks that read a cell that changed; every other block keeps
//! its value, which is what the full loop would have written. The queen pass visits only the
//! rows whose queen walks or is in danger: the others neither draw from the generator nor
//! change anything (see [`RowBoard::decide`]), so the generator's stream, and with it the
//! trajectory, is the one of the full loop, bit for bit (the golden records check it).
//!
//! The layers are updated in place, in an order that reads every source before it is
//! overwritten: counts looking south (their source row is below) row by row downwards, counts
//! looking north upwards; west waves right to left, east waves left to right, from a copy of
//! the source segment; dangers after both (the waves read the previous generation's).

use super::{DIRECTIONS, LINE_DIRS, QUEEN, RowBoard, WALKING};

/// Cells per block of the dirty bookkeeping: one row segment.
pub(super) const BLOCK: usize = 64;

/// Layers with a dirty set: the 6 counts, then west and east waves.
pub(super) const LAYERS: usize = 8;
const WEST: usize = 6;
const EAST: usize = 7;

/// Sets bit `i`.
#[inline(always)]
fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

/// Calls `f` on every set bit of `bits`, in increasing order or (`rev`) decreasing, clearing
/// them.
#[inline(always)]
fn drain(bits: &mut [u64], rev: bool, mut f: impl FnMut(usize)) {
    let mut visit = |wi: usize, word: &mut u64| {
        let mut v = std::mem::take(word);
        while v != 0 {
            let b = if rev { 63 - v.leading_zeros() as usize } else { v.trailing_zeros() as usize };
            v &= !(1u64 << b);
            f(wi * 64 + b);
        }
    };
    if rev {
        for (wi, word) in bits.iter_mut().enumerate().rev() {
            if *word != 0 {
                visit(wi, word);
            }
        }
    } else {
        for (wi, word) in bits.iter_mut().enumerate() {
            if *word != 0 {
                visit(wi, word);
            }
        }
    }
}

/// First and last index where `old` and `new` differ, or `None`.
#[inline(always)]
fn changed_span(old: &[u8; BLOCK], new: &[u8; BLOCK]) -> Option<(usize, usize)> {
    // PERF: eight 64-bit xors instead of 64 byte compares.
    let word = |a: &[u8; BLOCK], i: usize| u64::from_le_bytes(a[8 * i..8 * i + 8].try_into().expect("8 bytes"));
    let mut span = None;
    for i in 0..BLOCK / 8 {
        let x = word(old, i) ^ word(new, i);
        if x != 0 {
            let first = 8 * i + x.trailing_zeros() as usize / 8;
            let last = 8 * i + 7 - x.leading_zeros() as usize / 8;
            span = Some(span.map_or((first, last), |(f, _)| (f, last)));
        }
    }
    span
}

/// The dirty bookkeeping of the synchronous schedule.
#[derive(Clone, Debug, Default)]
pub(super) struct Events {
    /// Blocks per row.
    nb: usize,
    /// Per layer, the blocks to recompute this generation (bit `y * nb + j`).
    now: [Vec<u64>; LAYERS],
    /// Per layer, the blocks to recompute next generation.
    next: [Vec<u64>; LAYERS],
    /// Blocks where a count changed this generation (their dangers are recomputed).
    touched: Vec<u64>,
    /// Rows whose queen walks or stands in danger (the only ones the queen pass visits).
    active: Vec<u64>,
    /// Rows whose queen moved or changed state this generation, with its column before.
    changed: Vec<(u32, u32)>,
    /// Every field and the rows must be recomputed before the next generation.
    pub(super) stale: bool,
    /// Blocks recomputed so far, over every layer (a measure of the work saved).
    pub(super) block_updates: u64,
}

impl Events {
    pub(super) fn new(n: usize) -> Events {
        let nb = n.div_ceil(BLOCK);
        let words = (n * nb).div_ceil(64);
        Events {
            nb,
            now: std::array::from_fn(|_| vec![0; words]),
            next: std::array::from_fn(|_| vec![0; words]),
            touched: vec![0; words],
            active: vec![0; n.div_ceil(64)],
            changed: Vec::new(),
            stale: true,
            block_updates: 0,
        }
    }
}

impl RowBoard {
    /// Whether a queen state counts for the other rows.
    #[inline(always)]
    fn seen_of(&self, q: u8) -> u8 {
        if self.rule.hide_walkers { u8::from(q == QUEEN) } else { q & QUEEN }
    }

    /// Marks, in `layer`'s next set, the blocks of 0-based row `y` holding padded columns
    /// `x0..=x1` (clipped to the board).
    #[inline(always)]
    fn mark(&mut self, layer: usize, y: isize, x0: isize, x1: isize) {
        let n = self.n as isize;
        let (x0, x1) = (x0.max(1), x1.min(n));
        if y < 0 || y >= n || x0 > x1 {
            return;
        }
        let nb = self.ev.nb;
        for j in (x0 as usize - 1) / BLOCK..=(x1 as usize - 1) / BLOCK {
            set(&mut self.ev.next[layer], y as usize * nb + j);
        }
    }

    /// Row `y`'s queen is visited by the queen pass exactly when it walks or stands in danger.
    fn set_active(&mut self, y: usize) {
        let c = self.idx(self.col[y] as usize, y);
        let on = self.q[c] & WALKING != 0 || self.danger[c] > 0;
        let (wi, bit) = (y / 64, 1u64 << (y % 64));
        if on {
            self.ev.active[wi] |= bit;
        } else {
            self.ev.active[wi] &= !bit;
        }
    }

    /// Makes every derived value true of the current layers and marks every block dirty: the
    /// next generation recomputes the whole board.
    pub(super) fn resync(&mut self) {
        let (n, w, size) = (self.n, self.w, self.w * self.w);
        for c in 0..size {
            self.seen[c] = self.seen_of(self.q[c]);
        }
        for y in 1..=n {
            for c in y * w + 1..y * w + 1 + n {
                self.danger[c] = (0..6).map(|k| self.sig[k * size + c]).sum();
            }
        }
        let blocks = n * self.ev.nb;
        for layer in 0..LAYERS {
            for bits in [&mut self.ev.now[layer], &mut self.ev.next[layer]] {
                bits.fill(0);
            }
            for i in 0..blocks {
                set(&mut self.ev.now[layer], i);
            }
        }
        self.ev.touched.fill(0);
        self.ev.changed.clear();
        for y in 0..n {
            self.set_active(y);
        }
        self.ev.stale = false;
    }

    /// One synchronous generation, event-driven (see the module text).
    pub(super) fn generation(&mut self) {
        if self.ev.stale {
            self.resync();
        }
        self.queen_pass();
        for k in 0..6 {
            self.count_pass(k);
        }
        self.wave_pass(true);
        self.wave_pass(false);
        self.danger_pass();
        self.seen_pass();
        let ev = &mut self.ev;
        std::mem::swap(&mut ev.now, &mut ev.next);
    }

    /// Queens, from the previous generation's dangers and waves, in row order; rows that
    /// neither walk nor stand in danger are skipped (they would do nothing and draw nothing).
    fn queen_pass(&mut self) {
        // The rows' bits change only in the danger and seen passes, after this one.
        let active = std::mem::take(&mut self.ev.active);
        for wi in 0..active.len() {
            let mut v = active[wi];
            while v != 0 {
                let y = wi * 64 + v.trailing_zeros() as usize;
                v &= v - 1;
                let x = self.col[y] as usize;
                let c = self.idx(x, y);
                let before = self.q[c];
                let (own, l, r) = if self.rule.wave {
                    (self.danger[c], self.west[c], self.east[c])
                } else {
                    (self.danger[c], self.danger[c - 1], self.danger[c + 1])
                };
                if let Some(east) = self.decide(c, own, l, r) {
                    self.move_queen(x, y, east);
                    self.ev.changed.push((y as u32, x as u32));
                } else if self.q[c] != before {
                    self.ev.changed.push((y as u32, x as u32));
                }
            }
        }
        self.ev.active = active;
    }

    /// Counts along `LINE_DIRS[k]` of the dirty blocks: `s(c) <- min(cap, seen(c + d) + s(c + d))`.
    fn count_pass(&mut self, k: usize) {
        let (dx, dy) = DIRECTIONS[LINE_DIRS[k]];
        let (n, w, size, nb, cap) = (self.n, self.w, self.w * self.w, self.ev.nb, self.rule.cap);
        let off = dy as isize * w as isize + dx as isize;
        let mut bits = std::mem::take(&mut self.ev.now[k]);
        // In place: the source row is not yet rewritten when the rows go away from it.
        drain(&mut bits, dy < 0, |i| {
            let (y, j) = (i / nb, i % nb);
            let a = (y + 1) * w + 1 + j * BLOCK;
            let len = BLOCK.min(n - j * BLOCK);
            let s = (a as isize + off) as usize;
            let layer = &mut self.sig[k * size..(k + 1) * size];
            let (mut old, mut new) = ([0u8; BLOCK], [0u8; BLOCK]);
            old[..len].copy_from_slice(&layer[a..a + len]);
            // PERF: one row segment at a time, zipped slices the compiler vectorises.
            for ((d, &q), &v) in new[..len].iter_mut().zip(&self.seen[s..s + len]).zip(&layer[s..s + len]) {
                *d = (q + v).min(cap);
            }
            self.ev.block_updates += 1;
            if let Some((f, l)) = changed_span(&old, &new) {
                layer[a..a + len].copy_from_slice(&new[..len]);
                set(&mut self.ev.touched, i);
                let x = (1 + j * BLOCK) as isize;
                self.mark(k, y as isize - dy as isize, x + f as isize - dx as isize, x + l as isize - dx as isize);
            }
        });
        self.ev.now[k] = bits;
    }

    /// Waves of the dirty blocks: `west(c) <- min(danger(c - 1), west(c - 1))` (`west`), or
    /// the same from the east neighbour.
    fn wave_pass(&mut self, west: bool) {
        let (n, w, nb) = (self.n, self.w, self.ev.nb);
        let layer = if west { WEST } else { EAST };
        let mut bits = std::mem::take(&mut self.ev.now[layer]);
        // In place: west waves read their west neighbour, so blocks go right to left; east
        // waves left to right. Within a block, the source segment is copied first.
        drain(&mut bits, west, |i| {
            let (y, j) = (i / nb, i % nb);
            let a = (y + 1) * w + 1 + j * BLOCK;
            let len = BLOCK.min(n - j * BLOCK);
            let s = if west { a - 1 } else { a + 1 };
            let wave = if west { &mut self.west } else { &mut self.east };
            let (mut old, mut new) = ([0u8; BLOCK], [0u8; BLOCK]);
            old[..len].copy_from_slice(&wave[a..a + len]);
            new[..len].copy_from_slice(&wave[s..s + len]);
            for (d, &dan) in new[..len].iter_mut().zip(&self.danger[s..s + len]) {
                *d = (*d).min(dan);
            }
            self.ev.block_updates += 1;
            if let Some((f, l)) = changed_span(&old, &new) {
                wave[a..a + len].copy_from_slice(&new[..len]);
                let (x, step) = ((1 + j * BLOCK) as isize, if west { 1 } else { -1 });
                self.mark(layer, y as isize, x + f as isize + step, x + l as isize + step);
            }
        });
        self.ev.now[layer] = bits;
    }

    /// Dangers of the blocks whose counts changed; a changed danger dirties the waves that
    /// read it, and the row's queen may become active or idle.
    fn danger_pass(&mut self) {
        let (n, w, size, nb) = (self.n, self.w, self.w * self.w, self.ev.nb);
        let mut bits = std::mem::take(&mut self.ev.touched);
        drain(&mut bits, false, |i| {
            let (y, j) = (i / nb, i % nb);
            let a = (y + 1) * w + 1 + j * BLOCK;
            let len = BLOCK.min(n - j * BLOCK);
            let (mut old, mut new) = ([0u8; BLOCK], [0u8; BLOCK]);
            old[..len].copy_from_slice(&self.danger[a..a + len]);
            for k in 0..6 {
                for (d, &s) in new[..len].iter_mut().zip(&self.sig[k * size + a..k * size + a + len]) {
                    *d += s;
                }
            }
            if let Some((f, l)) = changed_span(&old, &new) {
                self.danger[a..a + len].copy_from_slice(&new[..len]);
                let x = (1 + j * BLOCK) as isize;
                self.mark(WEST, y as isize, x + f as isize + 1, x + l as isize + 1);
                self.mark(EAST, y as isize, x + f as isize - 1, x + l as isize - 1);
                if (self.col[y] as usize) / BLOCK == j {
                    self.set_active(y);
                }
            }
        });
        self.ev.touched = bits;
    }

    /// The queens that moved or changed state: their cells' seen flags, the counts that read
    /// them, and their rows' activity.
    fn seen_pass(&mut self) {
        let changed = std::mem::take(&mut self.ev.changed);
        for &(y, old_x) in &changed {
            let y = y as usize;
            for x in [old_x as usize, self.col[y] as usize] {
                let c = self.idx(x, y);
                let seen = self.seen_of(self.q[c]);
                if seen != self.seen[c] {
                    self.seen[c] = seen;
                    // The count along d of the cell at c - d reads c.
                    for (k, &d) in LINE_DIRS.iter().enumerate() {
                        let (dx, dy) = DIRECTIONS[d];
                        let (tx, ty) = (x as isize + 1 - dx as isize, y as isize - dy as isize);
                        self.mark(k, ty, tx, tx);
                    }
                }
            }
            self.set_active(y);
        }
        self.ev.changed = changed;
        self.ev.changed.clear();
    }
}
