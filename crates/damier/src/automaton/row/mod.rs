//! Model 3 (`--model row`): queens that walk along their row, guided by saturating conflict
//! counts and a min-propagation wave (design and measurements in `docs/automaton.md`).
//!
//! The contract (what "local" means here):
//! - a cell's update reads only its own state and its 8 neighbours' states and writes only its
//!   own state (and, when its queen moves, the queen count of the neighbour it moves to);
//! - a cell's state is finite and independent of n: its queen count, 6 conflict counts
//!   saturating at [`Rule::cap`], and two wave values at most [`FAR`] (and, for the rules with
//!   [`Rule::patience`] or [`Rule::rest`], its settled queen's two 4-bit counts);
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
//! The layout is bit-sliced: each of a cell's 20 field bits (6 counts of 2 bits, 2 waves of
//! 4) lives in its own bit plane, 64 cells a word, so a synchronous generation updates 256
//! cells with a few dozen word operations (a count is the source row's plane shifted by one
//! column, the danger a bit-sliced adder, a wave's minimum a bit-sliced comparison), with
//! AVX2 where the processor has it. Every kernel computes the same bits as the plain
//! cell-at-a-time rule (a property test checks it), and the trajectories are pinned.
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

mod named;

pub use named::{RuleName, RuleSpecError, UnknownRule, rule_names};

/// The generator of every run.
type Rand = Xoshiro256PlusPlus;

/// The 6 directions (indices into [`DIRECTIONS`]) that leave the row: N, NE, SE, S, SW, NW.
pub const LINE_DIRS: [usize; 6] = [0, 1, 3, 4, 5, 7];

/// The wave value of "no cell on this side" (and the danger of a frame cell): larger than any
/// danger (at most `6 * cap`).
pub const FAR: u8 = 15;

/// A cell holding its row's queen.
const QUEEN: u16 = 1;
/// The queen of the cell is walking (only with [`Rule::hide_walkers`]).
const WALKING: u16 = 2;
/// A walking queen's direction: east when set, else west.
const EAST: u16 = 4;
/// A settled queen's patience count ([`Rule::patience`]): 4 bits from this one.
const PATIENCE_SHIFT: u32 = 3;
/// A settled queen's rest count ([`Rule::rest`]): 4 bits from this one.
const REST_SHIFT: u32 = 7;

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
    /// Patience of a queen whose conflicts all lie south (0: none, the queen acts with
    /// probability [`Rule::south_activity`] every generation): a settled queen in such danger
    /// counts up to `patience` (one step with probability [`Rule::patience_rate`] per
    /// generation; the count restarts when the queen is out of danger or moves) and only
    /// then acts with probability [`Rule::south_activity`]. The southern queen of a conflict
    /// moves first; the northern one moves only when the conflict persists. [range: 0..=15]
    pub patience: u8,
    /// Probability per generation that a waiting queen's patience count goes up.
    /// [range: 0..=1]
    pub patience_rate: f64,
    /// The patience count survives the queen's stretches out of danger (it restarts only
    /// when the queen moves): the count measures all the time the queen has spent in
    /// southern conflicts on its cell, not only the current one.
    pub patience_keeps: bool,
    /// Rest after a walk (0: none): a queen that settles in danger (the best cell its walk
    /// found is attacked) rests for `rest` counts (each ending with probability
    /// [`Rule::rest_rate`] per generation) and does not act while it rests, so that the
    /// queens it attacks see it (the counts travel one cell per generation) and yield before
    /// it moves again. [range: 0..=15]
    pub rest: u8,
    /// Probability per generation that a resting queen's rest count goes down.
    /// [range: 0..=1]
    pub rest_rate: f64,
}

impl Rule {
    /// Model 3 as the product runs it (the kept design of `docs/automaton.md`): counts
    /// saturating at 2, waves, synchronous, walkers unseen, activity [`ACTIVITY`] (north
    /// conflicts) and [`SOUTH_ACTIVITY`] (south only), plateau walks with probability
    /// [`PLATEAU`], uphill steps with probability `eps`, no patience and no rest.
    pub fn model3(eps: f64) -> Rule {
        Rule { south_activity: SOUTH_ACTIVITY, ..Rule::model3_v1(eps) }
    }

    /// Model 3's first kept rule (design 4 of `docs/automaton.md`, the default until
    /// issue 40): the same with [`SOUTH_ACTIVITY_V1`], 3.3 times [`SOUTH_ACTIVITY`]. It
    /// solves n <= 512 but not n = 1 000 (the moves never settle).
    pub fn model3_v1(eps: f64) -> Rule {
        Rule {
            cap: 2,
            wave: true,
            schedule: Schedule::Synchronous,
            hide_walkers: true,
            activity: ACTIVITY,
            south_activity: SOUTH_ACTIVITY_V1,
            plateau: PLATEAU,
            eps,
            patience: 0,
            patience_rate: 0.0,
            patience_keeps: false,
            rest: 0,
            rest_rate: 0.0,
        }
    }
}

/// Smallest board side whose generations run their rows on every core when the pool has more
/// than one thread. Below, a bit-sliced generation (about 0.1 ms at n = 512 on one core) takes
/// too little time to share: on the project's 2 cores, 2 threads cost as much CPU per update
/// as one or more, with no consistent wall-time gain, at n = 128 to 384 (docs/automaton.md).
pub const PARALLEL_N: usize = 512;

/// Fewest rows a core takes at a time in a parallel generation.
const PARALLEL_ROWS: usize = 16;

/// Model 3: probability that a queen in danger with no better side walks to an equally good
/// one.
pub const PLATEAU: f64 = 0.1;

/// Model 3: probability that a settled queen with a conflict towards the north starts a walk
/// in a generation (measured in `docs/automaton.md`).
pub const ACTIVITY: f64 = 0.1;
/// Model 3: the same for a queen whose conflicts all lie south (it mostly waits: the other
/// queen of the line moves). At 0.01 ([`SOUTH_ACTIVITY_V1`]) the northern queens of n = 1 000
/// kept the moves from settling (docs/automaton.md).
pub const SOUTH_ACTIVITY: f64 = 0.003;
/// [`Rule::model3_v1`]: the same.
pub const SOUTH_ACTIVITY_V1: f64 = 0.01;

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
    /// Planes ([`RowBoard::set_planes`]) of the wrong length.
    #[error("{found} plane words for n = {n}; model 3 takes {expected}")]
    Planes {
        /// Board side.
        n: usize,
        /// Words expected.
        expected: usize,
        /// Words given.
        found: usize,
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
/// First of the 4 bits of a cell word that hold its settled queen's patience count.
const WORD_PATIENCE_SHIFT: u32 = 23;
/// First of the 4 bits of a cell word that hold its settled queen's rest count.
const WORD_REST_SHIFT: u32 = 27;

/// Bit planes of a row: plane `2k` holds bit 0 and plane `2k + 1` bit 1 of the count along
/// `LINE_DIRS[k]`, then the west wave's 4 planes (12..16) and the east wave's (16..20), bit 0
/// first. Public for the engines that compute the fields elsewhere ([`RowBoard::plane`]).
pub const PLANES: usize = 20;
/// First plane of the west wave.
const WEST: usize = 12;
/// First plane of the east wave.
const EAST_P: usize = 16;
/// Words of a plane row come in blocks of this many (the width of the bit-sliced kernel).
const BLOCK: usize = 4;
/// The field bits ([`RowBoard::fields`]) of the counts towards the north (N, NE and NW are
/// `LINE_DIRS[0]`, `[1]` and `[5]`).
const NORTH: u32 = 3 | 3 << 2 | 3 << 10;
/// Column offsets of the 6 counts' sources (`DIRECTIONS[LINE_DIRS[k]].0`).
const DX: [i32; 6] = [0, 1, 1, 0, -1, -1];

/// Four words of a plane row, updated together (64 cells each).
#[derive(Clone, Copy)]
struct V([u64; BLOCK]);

impl V {
    const ZERO: V = V([0; BLOCK]);

    /// The words `s[i..i + BLOCK]`.
    ///
    /// # Safety
    /// `i + BLOCK <= s.len()`.
    #[inline(always)]
    unsafe fn at(s: &[u64], i: usize) -> V {
        debug_assert!(i + BLOCK <= s.len());
        // SAFETY: in bounds by the contract; an unaligned read of plain words.
        V(unsafe { s.as_ptr().add(i).cast::<[u64; BLOCK]>().read_unaligned() })
    }

    /// Writes the block to `s[i..i + BLOCK]`.
    ///
    /// # Safety
    /// `i + BLOCK <= s.len()`.
    #[inline(always)]
    unsafe fn put(self, s: &mut [u64], i: usize) {
        debug_assert!(i + BLOCK <= s.len());
        // SAFETY: in bounds by the contract; an unaligned write of plain words.
        unsafe { s.as_mut_ptr().add(i).cast::<[u64; BLOCK]>().write_unaligned(self.0) }
    }

    #[inline(always)]
    fn map(self, o: V, f: impl Fn(u64, u64) -> u64) -> V {
        V([f(self.0[0], o.0[0]), f(self.0[1], o.0[1]), f(self.0[2], o.0[2]), f(self.0[3], o.0[3])])
    }

    /// The words at `s[i..]` moved so that bit x holds bit `x + dx` (`dx` in -1..=1); the
    /// words `s[i - 1]` and `s[i + BLOCK]` supply the bits shifted in.
    ///
    /// # Safety
    /// `1 <= i` and `i + BLOCK < s.len()`.
    #[inline(always)]
    unsafe fn shifted(s: &[u64], i: usize, dx: i32) -> V {
        debug_assert!(1 <= i && i + BLOCK < s.len());
        // SAFETY: the three reads lie in `s[i - 1..=i + BLOCK]`, in bounds by the contract.
        unsafe {
            let v = V::at(s, i);
            match dx {
                0 => v,
                1 => v.map(V::at(s, i + 1), |a, b| a >> 1 | b << 63),
                _ => v.map(V::at(s, i - 1), |a, b| a << 1 | b >> 63),
            }
        }
    }
}

impl std::ops::BitAnd for V {
    type Output = V;
    #[inline(always)]
    fn bitand(self, o: V) -> V {
        self.map(o, |a, b| a & b)
    }
}

impl std::ops::BitOr for V {
    type Output = V;
    #[inline(always)]
    fn bitor(self, o: V) -> V {
        self.map(o, |a, b| a | b)
    }
}

impl std::ops::BitXor for V {
    type Output = V;
    #[inline(always)]
    fn bitxor(self, o: V) -> V {
        self.map(o, |a, b| a ^ b)
    }
}

impl std::ops::Not for V {
    type Output = V;
    #[inline(always)]
    fn not(self) -> V {
        self.map(self, |a, _| !a)
    }
}

/// Bit-sliced full adder: the sum bit and the carry of three one-bit numbers per lane.
#[inline(always)]
fn full_add(a: V, b: V, c: V) -> (V, V) {
    let t = a ^ b;
    (t ^ c, (a & b) | (t & c))
}

/// Bit-sliced sum of six one-bit numbers: its bits 0, 1 and 2.
#[inline(always)]
fn sum6(l: [V; 6]) -> [V; 3] {
    let (s1, c1) = full_add(l[0], l[1], l[2]);
    let (s2, c2) = full_add(l[3], l[4], l[5]);
    let (twos, fours) = full_add(c1, c2, s1 & s2);
    [s1 ^ s2, twos, fours]
}

/// Bit-sliced minimum of two 4-bit numbers (bit 0 first).
#[inline(always)]
fn min4(a: [V; 4], b: [V; 4]) -> [V; 4] {
    let (mut lt, mut eq) = (V::ZERO, !V::ZERO);
    for i in (0..4).rev() {
        lt = lt | (eq & !a[i] & b[i]);
        eq = eq & !(a[i] ^ b[i]);
    }
    let pick = |i: usize| b[i] ^ ((a[i] ^ b[i]) & lt);
    [pick(0), pick(1), pick(2), pick(3)]
}

/// What a row of a synchronous generation reads: the current planes and queens.
struct Fields<'a> {
    cur: &'a [u64],
    /// A row of zero planes: the source of the counts that would come from off the board.
    zeros: &'a [u64],
    n: usize,
    wpp: usize,
    cap: u8,
    hide: bool,
    col: &'a [u32],
    qs: &'a [u16],
    pad: &'a [u64],
    /// The processor has AVX2 (the same kernel, compiled for it).
    #[cfg(target_arch = "x86_64")]
    avx2: bool,
}

impl Fields<'_> {
    /// Row `y`'s next planes into `out`, with the widest kernel the processor runs (every
    /// kernel computes the same bits).
    /// Returns the current field bits of the row's queen cell ([`RowBoard::fields`]).
    #[inline(always)]
    fn row(&self, y: usize, out: &mut [u64]) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: AVX2 was detected at run time (`Fields::avx2`).
            return unsafe { self.row_avx2(y, out) };
        }
        self.row_kernel(y, out)
    }

    /// [`Fields::row_kernel`] compiled for AVX2 (a block of 4 words is one register).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn row_avx2(&self, y: usize, out: &mut [u64]) -> u32 {
        self.row_kernel(y, out)
    }

    /// Row `y`'s next planes into `out`: its next counts
    /// `s_d(c) <- min(cap, seen(c + d) + s_d(c + d))`, its dangers (the sums of its current
    /// counts, [`FAR`] beyond the board), and its next waves
    /// `west(c) <- min(danger(c - 1), west(c - 1))`, east likewise. Returns the current
    /// field bits of the row's queen cell.
    #[inline(always)]
    fn row_kernel(&self, y: usize, out: &mut [u64]) -> u32 {
        let (n, wpp) = (self.n, self.wpp);
        let ww = wpp + 2;
        let len = PLANES * ww;
        let row = |yy: Option<usize>| match yy.filter(|&yy| yy < n) {
            Some(yy) => &self.cur[yy * len..][..len],
            None => &self.zeros[..len],
        };
        let (north, own, south) = (row(y.checked_sub(1)), row(Some(y)), row(Some(y + 1)));
        let (out, pad) = (&mut out[..len], &self.pad[..ww]);
        assert!(wpp % BLOCK == 0);
        // PERF: one pass over blocks of 4 words (256 cells): the counts are the source rows'
        // planes shifted by one column (word operations), the danger a bit-sliced adder of the
        // 12 count planes, the waves' minimum a bit-sliced comparison.
        for j in (1..wpp + 1).step_by(BLOCK) {
            // Bounds of every access in this loop: the slices hold PLANES plane rows of ww =
            // wpp + 2 words (`pad` one), wpp is a multiple of BLOCK, and j - 1 + BLOCK + 2 <=
            // ww, so plane p's words j - 1 ..= j + BLOCK lie in bounds for every p < PLANES.
            // SAFETY: in bounds, by the bounds note at the top of the loop.
            let padv = unsafe { V::at(pad, j) };
            let mut count = |k: usize, src: &[u64], dx: i32| {
                // SAFETY: in bounds, by the bounds note at the top of the loop.
                let (lo, hi) = unsafe {
                    (V::shifted(src, 2 * k * ww + j, dx), V::shifted(src, (2 * k + 1) * ww + j, dx))
                };
                // a shift towards the east moves the last cell's bit into the padding
                let keep = if dx < 0 { !padv } else { !V::ZERO };
                // SAFETY: in bounds, by the bounds note at the top of the loop.
                unsafe {
                    (lo & keep).put(out, 2 * k * ww + j);
                    (hi & keep).put(out, (2 * k + 1) * ww + j);
                }
            };
            // DX, spelt out so that each shift is a constant
            count(0, north, 0);
            count(1, north, 1);
            count(2, south, 1);
            count(3, south, 0);
            count(4, south, -1);
            count(5, north, -1);
            // SAFETY: in bounds, by the bounds note at the top of the loop.
            let p = |i: usize| unsafe { V::at(own, i * ww + j) };
            let [a0, a1, a2] = sum6([p(0), p(2), p(4), p(6), p(8), p(10)]);
            let [b0, b1, b2] = sum6([p(1), p(3), p(5), p(7), p(9), p(11)]);
            // danger = a + 2 b (at most 12: a count is at most 2)
            let (t, k1) = (a2 ^ b1, a1 & b0);
            let k2 = (a2 & b1) | (t & k1);
            let danger = [a0 | padv, (a1 ^ b0) | padv, (t ^ k1) | padv, (b2 ^ k2) | padv];
            let west = min4(danger, [p(WEST), p(WEST + 1), p(WEST + 2), p(WEST + 3)]);
            let east = min4(danger, [p(EAST_P), p(EAST_P + 1), p(EAST_P + 2), p(EAST_P + 3)]);
            for i in 0..4 {
                // SAFETY: in bounds, by the bounds note at the top of the loop.
                unsafe {
                    west[i].put(out, (WEST + i) * ww + j);
                    east[i].put(out, (EAST_P + i) * ww + j);
                }
            }
        }
        // Each source row's queen, when seen, adds to the one cell that looks at it.
        for (k, &dx) in DX.iter().enumerate() {
            let Some(yy) =
                (if k < 2 || k == 5 { y.checked_sub(1) } else { Some(y + 1) }).filter(|&yy| yy < n)
            else {
                continue;
            };
            if self.qs[yy] & WALKING != 0 && self.hide {
                continue;
            }
            let Some(x) = (self.col[yy] as usize).checked_add_signed(-dx as isize).filter(|&x| x < n) else {
                continue;
            };
            let (j, bit) = (2 * k * ww + 1 + x / 64, 1u64 << (x % 64));
            let v = u8::from(out[j] & bit != 0) + 2 * u8::from(out[j + ww] & bit != 0);
            let v = (v + 1).min(self.cap);
            out[j] = out[j] & !bit | if v & 1 != 0 { bit } else { 0 };
            out[j + ww] = out[j + ww] & !bit | if v & 2 != 0 { bit } else { 0 };
        }
        // The waves: `min(danger, wave)` of the cell one column towards the wave's side, FAR
        // (all ones, the guard words) shifted in at the ends; in place, in the order that
        // reads each word before it is rewritten.
        for i in 0..4 {
            let (w, e) = ((WEST + i) * ww, (EAST_P + i) * ww);
            // SAFETY: as in the loop above.
            unsafe {
                for j in (1..wpp + 1).step_by(BLOCK).rev() {
                    (V::shifted(out, w + j, -1) | V::at(pad, j)).put(out, w + j);
                }
                for j in (1..wpp + 1).step_by(BLOCK) {
                    (V::shifted(out, e + j, 1) | V::at(pad, j)).put(out, e + j);
                }
            }
        }
        // PERF: the queen's fields for the queens' phase, read here while the row's planes
        // are in the cache.
        let x = self.col[y] as usize;
        let mut f = 0;
        for p in 0..PLANES {
            f |= ((own[p * ww + 1 + x / 64] >> (x % 64)) as u32 & 1) << p;
        }
        f
    }
}

/// The state of a model 3 run: bit planes of the board, 64 cells a word.
#[derive(Clone, Debug)]
pub struct RowBoard {
    rule: Rule,
    n: usize,
    /// Words per plane row: n bits rounded up to whole blocks of [`BLOCK`] words.
    wpp: usize,
    /// Per word of a plane row (with its guard words), the bits beyond the board's last
    /// column.
    pad: Vec<u64>,
    /// The planes: row `y`'s plane `p` ([`PLANES`]) is `wpp + 2` words from
    /// `(y PLANES + p) (wpp + 2)`: a guard word, the `wpp` words of the cells (bit `x % 64` of
    /// word `1 + x / 64`), a guard word. One row's planes are one slice (a row of the
    /// parallel generation). Guard and padding bits: counts 0, waves [`FAR`].
    cur: Vec<u64>,
    /// Scratch of the synchronous schedule: the next planes.
    next: Vec<u64>,
    /// One row of zero planes (the counts' source beyond the first and last rows).
    zeros: Vec<u64>,
    /// Scratch of the synchronous schedule: per row, the field bits of its queen's cell in the
    /// generation being computed.
    queen_fields: Vec<u32>,
    /// Per row: [`QUEEN`], plus [`WALKING`] and [`EAST`] while its queen walks, and its
    /// patience and rest counts (from [`PATIENCE_SHIFT`] and [`REST_SHIFT`]) while it is settled.
    qs: Vec<u16>,
    /// Column of each row's queen.
    col: Vec<u32>,
    /// Bookkeeping: queens per column, then per diagonal `x - y + n - 1`, then per
    /// anti-diagonal `x + y`.
    lines: Vec<u32>,
    /// Lines holding two queens or more.
    crowded: u32,
    eps_t: u64,
    plateau_t: u64,
    activity_t: u64,
    south_t: u64,
    patience_t: u64,
    rest_t: u64,
    rng: Rand,
    steps: u64,
    moves: u64,
}

/// The danger (sum of the 6 counts) of a cell's field bits ([`RowBoard::fields`]).
#[inline(always)]
fn danger_of_fields(f: u32) -> u8 {
    let mut d = 0;
    for k in 0..6 {
        d += (f >> (2 * k)) as u8 & 3;
    }
    d
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
        let wpp = n.div_ceil(64 * BLOCK).max(1) * BLOCK;
        let ww = wpp + 2;
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

    /// Cell `(x, y)` as one word (the checkpoint's layout): bits `2k..2k+2` the count along
    /// `LINE_DIRS[k]`, 12..16 the west wave, 16..20 the east wave, bit 20 the queen, 21
    /// walking, 22 walking east, 23..27 the settled queen's patience count, 27..31 its rest
    /// count.
    pub fn word(&self, x: usize, y: usize) -> u32 {
        let mut word = self.fields(x, y);
        if self.col[y] as usize == x {
            let q = self.qs[y];
            word |= WORD_QUEEN;
            if q & WALKING != 0 {
                word |= WORD_WALKING;
            }
            if q & EAST != 0 {
                word |= WORD_EAST;
            }
            word |= u32::from(q >> PATIENCE_SHIFT & 15) << WORD_PATIENCE_SHIFT;
            word |= u32::from(q >> REST_SHIFT & 15) << WORD_REST_SHIFT;
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
            let patience = (word >> WORD_PATIENCE_SHIFT & 15) as u16;
            let rest = (word >> WORD_REST_SHIFT & 15) as u16;
            if word & (WORD_WALKING | WORD_EAST) != 0 && word & WORD_QUEEN == 0 {
                return bad("a walk without a queen");
            }
            let settled = word & (WORD_QUEEN | WORD_WALKING) == WORD_QUEEN;
            if patience > u16::from(rule.patience)
                || rest > u16::from(rule.rest)
                || (patience > 0 || rest > 0) && !settled
            {
                return bad("a patience or rest count this rule never reaches, or off a settled queen");
            }
            if word & WORD_EAST != 0 && word & WORD_WALKING == 0
                || word & WORD_WALKING != 0 && !rule.hide_walkers
            {
                return bad("a walking flag this rule never sets");
            }
            for (k, &d) in LINE_DIRS.iter().enumerate() {
                let v = (word >> (2 * k) & 3) as u8;
                let (dx, dy) = DIRECTIONS[d];
                let inside =
                    (0..n as i32).contains(&(x as i32 + dx)) && (0..n as i32).contains(&(y as i32 + dy));
                if v > rule.cap || v > 0 && !inside {
                    return bad("a count above the cap or from off the board");
                }
                b.set_count(k, x, y, v);
            }
            let (west, east) = ((word >> 12 & 15) as u8, (word >> 16 & 15) as u8);
            if west > FAR || east > FAR || x == 0 && west != FAR || x == n - 1 && east != FAR {
                return bad("a wave value from off the board");
            }
            b.set_field(WEST, 4, x, y, west);
            b.set_field(EAST_P, 4, x, y, east);
            if word & WORD_WALKING != 0 {
                b.qs[y] |= WALKING;
            }
            if word & WORD_EAST != 0 {
                b.qs[y] |= EAST;
            }
            if word & WORD_QUEEN != 0 {
                b.qs[y] |= patience << PATIENCE_SHIFT | rest << REST_SHIFT;
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
            let (x, y) = (i % n, i / n);
            for k in 0..6 {
                self.set_count(k, x, y, s[k * n * n + i]);
            }
            self.set_field(WEST, 4, x, y, west[i]);
            self.set_field(EAST_P, 4, x, y, east[i]);
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

    /// Word index and bit of cell `(x, y)` in plane `p`.
    #[inline(always)]
    fn at(&self, p: usize, x: usize, y: usize) -> (usize, u64) {
        ((y * PLANES + p) * (self.wpp + 2) + 1 + x / 64, 1 << (x % 64))
    }

    /// The 20 field bits of cell `(x, y)`: plane `p`'s bit is bit `p`.
    #[inline(always)]
    fn fields(&self, x: usize, y: usize) -> u32 {
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
    fn bit(&self, p: usize, x: usize, y: usize) -> u8 {
        let (i, bit) = self.at(p, x, y);
        u8::from(self.cur[i] & bit != 0)
    }

    /// The `bits`-bit field of cell `(x, y)` starting at plane `p`.
    #[inline(always)]
    fn field(&self, p: usize, bits: usize, x: usize, y: usize) -> u8 {
        (0..bits).map(|i| self.bit(p + i, x, y) << i).sum()
    }

    /// Sets the `bits`-bit field of cell `(x, y)` starting at plane `p` to `v`.
    fn set_field(&mut self, p: usize, bits: usize, x: usize, y: usize, v: u8) {
        for i in 0..bits {
            let (j, bit) = self.at(p + i, x, y);
            self.cur[j] = self.cur[j] & !bit | if v >> i & 1 != 0 { bit } else { 0 };
        }
    }

    fn set_count(&mut self, k: usize, x: usize, y: usize, v: u8) {
        self.set_field(2 * k, 2, x, y, v);
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
    fn seen(&self, x: usize, y: usize) -> bool {
        self.col[y] as usize == x && (self.qs[y] & WALKING == 0 || !self.rule.hide_walkers)
    }

    /// Danger of cell `(x, y)` from its current counts.
    #[inline(always)]
    fn danger_of(&self, x: usize, y: usize) -> u8 {
        danger_of_fields(self.fields(x, y))
    }

    /// Danger of the row neighbour of `(x, y)` towards the east or the west ([`FAR`] off the
    /// board).
    fn neighbour_danger(&self, x: usize, y: usize, east: bool) -> u8 {
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

    /// The queens of a synchronous generation, from the previous generation's dangers and
    /// waves (each row's queen cell in `queen_fields`), in row order: the only random draws.
    fn queens_phase(&mut self) {
        for y in 0..self.n {
            let x = self.col[y] as usize;
            let f = self.queen_fields[y];
            let own = danger_of_fields(f);
            let (l, r) = if self.rule.wave {
                ((f >> WEST) as u8 & 15, (f >> EAST_P) as u8 & 15)
            } else {
                (self.neighbour_danger(x, y, false), self.neighbour_danger(x, y, true))
            };
            if let Some(east) = self.decide(y, f & NORTH != 0, own, l, r) {
                self.move_queen(x, y, east);
            }
        }
    }

    /// One synchronous generation whose fields another engine computed (the GPU's, which
    /// keeps the planes in its own memory): the queens' phase from `queen_fields`, the
    /// current field bits of each row's queen cell (plane `p`'s bit is bit `p`, as in
    /// [`RowBoard::word`]), counted as a step. The random draws are this board's, so a run
    /// whose fields are computed elsewhere follows the CPU's trajectory bit for bit. This
    /// board's planes are left as they are: the engine puts its planes back with
    /// [`RowBoard::set_planes`] when it needs a whole state. With [`Rule::wave`] false the
    /// queens compare their neighbours' dangers, which are read from this board's planes:
    /// those must then be current.
    ///
    /// # Panics
    /// If `queen_fields` does not hold n words.
    pub fn queens_generation(&mut self, queen_fields: &[u32]) {
        assert_eq!(queen_fields.len(), self.n, "one queen cell per row");
        self.queen_fields.copy_from_slice(queen_fields);
        self.queens_phase();
        self.steps += 1;
    }

    /// The state bits of row `y`'s queen: [`RowBoard::word`]'s bits from 20 shifted down
    /// (bit 0 the queen, 1 walking, 2 walking east, 3..7 the patience count, 7..11 the rest
    /// count). What an engine that runs the queens elsewhere starts from.
    pub fn queen_state(&self, y: usize) -> u32 {
        u32::from(self.qs[y])
    }

    /// The queens' side of a state computed elsewhere (the GPU's queens' phase): each row's
    /// queen column and state bits ([`RowBoard::queen_state`]), the generator and the
    /// counters; the line counts are counted again. Checked as [`RowBoard::from_words`]
    /// checks the queen bits of a cell; on an error the board is unchanged. The planes come
    /// back with [`RowBoard::set_planes`].
    pub fn set_queens(
        &mut self,
        cols: &[u32],
        states: &[u32],
        rng: Xoshiro256PlusPlus,
        steps: u64,
        moves: u64,
    ) -> Result<(), RowStateError> {
        let n = self.n;
        if cols.len() != n || states.len() != n {
            return Err(RowStateError::Planes { n, expected: n, found: cols.len().min(states.len()) });
        }
        let rule = self.rule;
        for (y, (&x, &s)) in cols.iter().zip(states).enumerate() {
            let bad = |what| Err(RowStateError::Cell { x: x as usize, y, what });
            if x as usize >= n {
                return Err(RowStateError::Row { row: y, queens: 0 });
            }
            let (walking, patience, rest) = (s & 2 != 0, s >> 3 & 15, s >> 7 & 15);
            if s & 1 == 0 || s >> 11 != 0 {
                return bad("a queen state this rule never reaches");
            }
            if s & 4 != 0 && !walking || walking && !rule.hide_walkers {
                return bad("a walking flag this rule never sets");
            }
            if patience > u32::from(rule.patience)
                || rest > u32::from(rule.rest)
                || (patience > 0 || rest > 0) && walking
            {
                return bad("a patience or rest count this rule never reaches, or off a settled queen");
            }
        }
        self.col.copy_from_slice(cols);
        for (q, &s) in self.qs.iter_mut().zip(states) {
            *q = s as u16;
        }
        self.lines.fill(0);
        self.crowded = 0;
        for y in 0..n {
            self.add_lines(self.col[y] as usize, y, 1);
        }
        self.rng = rng;
        self.steps = steps;
        self.moves = moves;
        Ok(())
    }

    /// Row `y`'s plane `p` ([`PLANES`]): `n.div_ceil(64)` words, cell `x` in bit `x % 64` of
    /// word `x / 64`; bits beyond the board hold count 0 and wave [`FAR`] (all ones). The
    /// state an engine that computes the fields elsewhere starts from.
    pub fn plane(&self, p: usize, y: usize) -> &[u64] {
        let start = (y * PLANES + p) * (self.wpp + 2) + 1;
        &self.cur[start..start + self.n.div_ceil(64)]
    }

    /// Every plane set from `planes`: row `y`'s plane `p` ([`RowBoard::plane`]'s layout) at
    /// `(y PLANES + p) n.div_ceil(64)`. Checked as [`RowBoard::from_words`] checks cells
    /// (counts within the cap and none from off the board, waves [`FAR`] at the ends) and
    /// the bits beyond the board as [`RowBoard::plane`] has them; on an error the board is
    /// unchanged. How planes computed elsewhere come back into a board.
    pub fn set_planes(&mut self, planes: &[u64]) -> Result<(), RowStateError> {
        let (n, m, ww) = (self.n, self.n.div_ceil(64), self.wpp + 2);
        if planes.len() != n * PLANES * m {
            return Err(RowStateError::Planes { n, expected: n * PLANES * m, found: planes.len() });
        }
        // The board's cells in word j.
        let inside = |j: usize| if 64 * (j + 1) <= n { !0u64 } else { !(!0u64 << (n - 64 * j)) };
        let last = 1u64 << (n.saturating_sub(1) % 64);
        for (y, row) in planes.chunks_exact(PLANES * m).enumerate() {
            for j in 0..m {
                let cells = inside(j);
                let bad = |bits: u64, what| {
                    Err(RowStateError::Cell { x: 64 * j + bits.trailing_zeros() as usize, y, what })
                };
                for (k, &d) in LINE_DIRS.iter().enumerate() {
                    let (dx, dy) = DIRECTIONS[d];
                    // The cells whose source along the direction lies on the board.
                    let mut may = if (0..n as i32).contains(&(y as i32 + dy)) { cells } else { 0 };
                    if dx < 0 && j == 0 {
                        may &= !1;
                    }
                    if dx > 0 && j == m - 1 {
                        may &= !last;
                    }
                    let (lo, hi) = (row[2 * k * m + j], row[(2 * k + 1) * m + j]);
                    let over = (if self.rule.cap < 2 { hi } else { lo & hi }) | (lo | hi) & !may;
                    if over != 0 {
                        return bad(over, "a count above the cap or from off the board");
                    }
                }
                for w in [WEST, EAST_P] {
                    // The cells whose wave must be FAR: the board's end on its side, and beyond.
                    let mut edge = !cells;
                    if w == WEST && j == 0 {
                        edge |= 1;
                    }
                    if w == EAST_P && j == m - 1 {
                        edge |= last;
                    }
                    let far = (0..4).fold(!0u64, |a, i| a & row[(w + i) * m + j]);
                    if edge & !far != 0 {
                        return bad(edge & !far, "a wave value from off the board");
                    }
                }
            }
        }
        for (y, row) in planes.chunks_exact(PLANES * m).enumerate() {
            for p in 0..PLANES {
                let start = (y * PLANES + p) * ww + 1;
                self.cur[start..start + m].copy_from_slice(&row[p * m..(p + 1) * m]);
            }
        }
        Ok(())
    }

    /// The random-cell schedule: cell `(x, y)` recomputes its counts and waves in place from
    /// its neighbours, then its queen (if any) decides.
    fn cell_update(&mut self, x: usize, y: usize) {
        let (n, cap) = (self.n, self.rule.cap);
        let mut dan = 0;
        for (k, &d) in LINE_DIRS.iter().enumerate() {
            let (dx, dy) = DIRECTIONS[d];
            let u = x.wrapping_add_signed(dx as isize);
            let v = y.wrapping_add_signed(dy as isize);
            let s =
                if u < n && v < n { (u8::from(self.seen(u, v)) + self.count(k, u, v)).min(cap) } else { 0 };
            self.set_count(k, x, y, s);
            dan += s;
        }
        let dw = self.neighbour_danger(x, y, false);
        let de = self.neighbour_danger(x, y, true);
        let west = if x > 0 { self.field(WEST, 4, x - 1, y) } else { FAR };
        let east = if x + 1 < n { self.field(EAST_P, 4, x + 1, y) } else { FAR };
        let (west, east) = (dw.min(west), de.min(east));
        self.set_field(WEST, 4, x, y, west);
        self.set_field(EAST_P, 4, x, y, east);
        if self.col[y] as usize != x {
            return;
        }
        let (l, r) = if self.rule.wave { (west, east) } else { (dw, de) };
        let north = [0, 1, 5].iter().any(|&k| self.count(k, x, y) > 0);
        if let Some(east) = self.decide(y, north, dan, l, r) {
            self.move_queen(x, y, east);
        }
    }

    /// The choice of the queen of row `y` from its own danger, whether one of its conflicts
    /// lies north, and what it knows of the west and east sides (wave values, or the
    /// neighbours' dangers): `Some(true)` east, `Some(false)` west. With
    /// [`Rule::hide_walkers`] it also starts and ends walks.
    #[inline(always)]
    fn decide(&mut self, y: usize, north: bool, own: u8, l: u8, r: u8) -> Option<bool> {
        if !self.rule.hide_walkers {
            if own == 0 || !draw(&mut self.rng, self.activity_t) {
                return None;
            }
            return self.choose(own, l, r);
        }
        let state = self.qs[y];
        if state & WALKING != 0 {
            // A walk goes on while a better cell lies further on its side, then settles.
            let east = state & EAST != 0;
            if (if east { r } else { l }) < own {
                return Some(east);
            }
            // A queen that settles in danger (no better cell on its side) rests.
            self.qs[y] = QUEEN | if own > 0 { u16::from(self.rule.rest.min(15)) << REST_SHIFT } else { 0 };
            return None;
        }
        let rest = state >> REST_SHIFT & 15;
        if rest > 0 {
            // Resting after a walk: no action until the count runs out.
            if draw(&mut self.rng, self.rest_t) {
                self.qs[y] = state & !(15 << REST_SHIFT) | (rest - 1) << REST_SHIFT;
            }
            return None;
        }
        if self.rule.patience > 0 {
            // A queen out of danger, or with a conflict north, starts its patience afresh; one
            // whose conflicts all lie south waits until its count is full.
            let count = state >> PATIENCE_SHIFT & 15;
            if own == 0 || north {
                if !self.rule.patience_keeps {
                    self.qs[y] = QUEEN;
                }
            } else if count < u16::from(self.rule.patience.min(15)) {
                if draw(&mut self.rng, self.patience_t) {
                    self.qs[y] = QUEEN | (count + 1) << PATIENCE_SHIFT;
                }
                return None;
            }
        }
        let t = if north { self.activity_t } else { self.south_t };
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
            self.qs[y] = QUEEN | WALKING | if east { EAST } else { 0 };
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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod golden;
