//! Meet in the middle: count compatible pairs of half boards instead of backtracking.
//!
//! The top half (rows `0..h`, `h = n / 2`) and the bottom half (rows `h..n`) of a solution use
//! complementary column sets, and the two halves only interact through the diagonals that
//! cross the middle line (between rows `h - 1` and `h`). So for every column set `C` of the
//! top half, the engine builds the list of top halves on `C` and of bottom halves on the
//! complement, each reduced to a *key*: the set of its diagonals that cross the middle line
//! (`n - 1` bits per family; see [`Geometry::key`]). A top and a bottom half form a solution
//! exactly when their keys are disjoint.
//!
//! 1. **Column sets.** A depth-first search decides, column after column, whether the
//!    column's queen lies in the top or the bottom half, and extends the lists of partial
//!    halves as it goes: every partial half is built once and shared by all the column sets
//!    with the same prefix, so no half board is searched twice. Columns are decided by mirror
//!    pairs, from the middle out, so that whole column sets can be compared with their
//!    images: the left-right mirror and (for even n) the top-bottom flip give the same count,
//!    and only one column set per orbit is counted, weighted by the orbit size (about 4x less
//!    work for even n, 2x for odd n).
//! 2. **Pairs.** Both complete lists are bucketed on a few middle key bits per family
//!    ([`bucket_bits`]); only buckets with disjoint bucket bits can pair, and within such a
//!    pair of buckets the remaining key bits (at most 32) are tested 8 pairs per AVX2
//!    instruction (a portable loop without AVX2), chosen at run time.
//!
//! Parallelism: the first [`TASK_DEPTH`] decisions are fixed per task; rayon runs the tasks
//! (each with its own buffers), and the integer sum does not depend on the schedule.

use rayon::prelude::*;

use crate::control::{Control, Interrupted};

/// Largest n this engine takes: the key bits left once the bucket bits are taken out,
/// `2 (n - 1 - bucket_bits(n))`, fit a `u32` up to n = 22 (and the half lists would not fit
/// in memory much beyond).
pub(crate) const MAX_N: u32 = 22;

/// Smallest n this engine takes (smaller boards are instant for the backtracker).
pub(crate) const MIN_N: u32 = 4;

/// Decisions (columns) fixed per parallel task. [default: 10]
///
/// PERF: 10 decisions give a few hundred tasks at n = 16..20, enough to balance two to a few
/// dozen threads; each task recomputes its prefix lists, which costs little next to its
/// subtree.
const TASK_DEPTH: u32 = 10;

/// Key bits used to bucket the halves before pairing, per diagonal family, so
/// `4^bucket_bits(n)` buckets: enough to rule out most bucket pairs, few enough that buckets
/// stay a few vectors long. [default: `(n - 10) / 2`] [range: 1..=MAX_BUCKET_BITS]
fn bucket_bits(n: u32) -> u32 {
    (n.saturating_sub(10) / 2).clamp(1, MAX_BUCKET_BITS)
}

/// Largest [`bucket_bits`].
const MAX_BUCKET_BITS: u32 = 5;

/// Bit of [`Part::sr`] where the rows field starts (above the `2n - 1 <= 47` sum diagonals).
const ROWS_AT: u32 = 48;

/// A partial half board in 16 bytes: its own diagonals (whole-board indices) and its rows.
///
/// PERF: the key needs no field of its own: the diagonals crossing the middle line are a
/// window of the whole-board masks (see [`Geometry::key`]); two words per part halve the
/// memory traffic of the lists.
#[derive(Clone, Copy, Debug, Default)]
struct Part {
    /// Diagonals `row + col` taken (bits `0..2n-1`), rows taken (bits `ROWS_AT..`, rows
    /// counted from the half's first row).
    sr: u64,
    /// Diagonals `row - col + n - 1` taken.
    diff: u64,
}

/// Fixed data of one board size.
struct Geometry {
    n: u32,
    /// Rows of the top half.
    h: u32,
    /// Rows of the bottom half (`n - h`).
    hb: u32,
    /// Columns in decision order: mirror pairs from the middle out, then the middle column.
    order: Vec<u32>,
    /// Mask of one key field (`n - 1` diagonals).
    field: u64,
    /// Shift that brings each of the two key fields' bucket bits down (see [`bucket`]).
    bucket_shift: [u32; 2],
    /// [`bucket_bits`] of n.
    bucket_bits: u32,
}

impl Geometry {
    fn new(n: u32) -> Self {
        let h = n / 2;
        let hb = n - h;
        let mut order = Vec::with_capacity(n as usize);
        // PERF: middle pairs first: the lists of partial halves stay shorter than from the
        // outside in (a third fewer extensions at n = 16).
        for i in (0..n / 2).rev() {
            order.push(i);
            order.push(n - 1 - i);
        }
        if n % 2 == 1 {
            order.push(n / 2);
        }
        // PERF: bucket on the middle bits of each family: they are set in about half of
        // the keys of both lists, so a bucket pair is ruled out as often as possible.
        let bucket_bits = bucket_bits(n);
        let lo = (n - 1).saturating_sub(bucket_bits) / 2;
        Geometry {
            n,
            h,
            hb,
            order,
            field: (1u64 << (n - 1)) - 1,
            bucket_shift: [lo, n - 1 + lo],
            bucket_bits,
        }
    }

    /// The key of a complete half: the `\\` and `/` diagonals it shares with the middle line.
    ///
    /// A diagonal meets both halves only if it crosses rows `h - 1` and `h` inside the board;
    /// for either half (and either family) those are the whole-board indices `h..=h + n - 2`,
    /// so the key is that window of each mask, and two halves fit iff their keys are disjoint.
    #[inline(always)]
    fn key(&self, p: &Part) -> u64 {
        ((p.diff >> self.h) & self.field) | (((p.sr >> self.h) & self.field) << (self.n - 1))
    }

    /// The bucket of a key: `bucket_bits` middle bits of each family.
    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        let m = (1u64 << self.bucket_bits) - 1;
        (((key >> self.bucket_shift[0]) & m) | (((key >> self.bucket_shift[1]) & m) << self.bucket_bits))
            as usize
    }

    /// The key without its bucket bits, packed into a `u32`.
    ///
    /// PERF: two keys in disjoint buckets already avoid each other on the bucket bits, so the
    /// pair test only needs the rest: 32-bit keys, 16 to a vector instead of 8.
    #[inline(always)]
    fn residual(&self, key: u64) -> u32 {
        let (bb, lo, w) = (self.bucket_bits, self.bucket_shift[0], self.n - 1);
        let low = (1u64 << lo) - 1;
        let squeeze = |f: u64| (f & low) | ((f >> (lo + bb)) << lo);
        let rw = w - bb;
        (squeeze(key & self.field) | (squeeze(key >> w) << rw)) as u32
    }

    /// Number of buckets.
    fn buckets(&self) -> usize {
        1 << (2 * self.bucket_bits)
    }
}

/// Appends to `out` every extension of the parts in `input` by a queen in column `c` of the
/// top (`top`) or bottom half.
///
/// PERF: the free rows of column `c` come out of three shifts of the part's masks, so each
/// extension costs one loop turn per free row, with no per-square test. Kept out of line so
/// that its few live values stay in registers (the recursive caller has many).
#[inline(never)]
fn extend(g: &Geometry, input: &[Part], out: &mut Vec<Part>, c: u32, top: bool) {
    out.clear();
    let n = g.n;
    let (base, rows_mask) = if top { (0, (1u64 << g.h) - 1) } else { (g.h, (1u64 << g.hb) - 1) };
    let (s_shift, d_shift) = (base + c, base + n - 1 - c);
    let max_new = if top { g.h } else { g.hb } as usize;
    for p in input {
        // Row bits shifted down by `s_shift` land at `ROWS_AT - s_shift >= 13`, above any
        // half's rows, so `rows_mask` drops them.
        let blocked = (p.sr >> ROWS_AT) | (p.sr >> s_shift) | (p.diff >> d_shift);
        let mut free = rows_mask & !blocked;
        if free == 0 {
            continue;
        }
        // PERF: write straight into reserved space: `push` would keep the part's fields in
        // memory around its reallocation path.
        out.reserve(max_new);
        let len = out.len();
        let spare = out.spare_capacity_mut();
        let mut k = 0;
        while free != 0 {
            let j = free.trailing_zeros();
            free &= free - 1;
            let r = base + j;
            spare[k].write(Part {
                sr: p.sr | 1 << (ROWS_AT + j) | 1 << (r + c),
                diff: p.diff | 1 << (r + n - 1 - c),
            });
            k += 1;
        }
        // SAFETY: the first `k` spare slots were initialised in the loop above, and
        // `k <= max_new <= spare.len()` (one free row per row of the half at most).
        unsafe { out.set_len(len + k) };
    }
}

/// [`extend`] for the last column: appends to `keys` the [`Geometry::key`] of every
/// extension instead of the extension itself.
///
/// PERF: the complete list is only ever read for its keys, so the last (and longest)
/// extension writes 8-byte keys instead of 16-byte parts, and the pass of [`bucket_sort`]
/// that would read the parts back to compute the keys disappears.
#[inline(never)]
fn extend_keys(g: &Geometry, input: &[Part], keys: &mut Vec<u64>, c: u32, top: bool) {
    keys.clear();
    let n = g.n;
    let (base, rows_mask) = if top { (0, (1u64 << g.h) - 1) } else { (g.h, (1u64 << g.hb) - 1) };
    let (s_shift, d_shift) = (base + c, base + n - 1 - c);
    let max_new = if top { g.h } else { g.hb } as usize;
    for p in input {
        // Same free-row computation as in `extend`.
        let blocked = (p.sr >> ROWS_AT) | (p.sr >> s_shift) | (p.diff >> d_shift);
        let mut free = rows_mask & !blocked;
        if free == 0 {
            continue;
        }
        keys.reserve(max_new);
        let len = keys.len();
        let spare = keys.spare_capacity_mut();
        let mut k = 0;
        while free != 0 {
            let j = free.trailing_zeros();
            free &= free - 1;
            let r = base + j;
            // Rows need not be recorded: the part is complete.
            let q = Part { sr: p.sr | 1 << (r + c), diff: p.diff | 1 << (r + n - 1 - c) };
            spare[k].write(g.key(&q));
            k += 1;
        }
        // SAFETY: the first `k` spare slots were initialised in the loop above, and
        // `k <= max_new <= spare.len()` (one free row per row of the half at most).
        unsafe { keys.set_len(len + k) };
    }
}

/// Whether a column set is counted, and for how many column sets of its orbit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sym {
    /// Pattern so far equals its image: the comparison is still open.
    open: bool,
    /// Whether the involution is the plain mirror (else mirror + top-bottom flip).
    mirror: bool,
    /// Orbit column sets this one stands for.
    weight: u64,
}

/// Decision for column `order[depth]`: `true` = its queen is in the top half. Returns the new
/// symmetry state, or `None` if this branch is the non-canonical image of a counted one.
fn decide(g: &Geometry, depth: u32, pattern: u64, top: bool, s: Sym) -> Option<Sym> {
    let even = g.n.is_multiple_of(2);
    match depth {
        // PERF: for even n the top-bottom flip maps the tops on C to the bottoms on the
        // complement: count only the column sets holding the first column decided, twice.
        0 if even => top.then_some(Sym { weight: 2, ..s }),
        1 if even => Some(Sym { mirror: top, ..s }),
        _ if depth % 2 == 1 && depth < 2 * (g.n / 2) && s.open => {
            // Second column of a mirror pair: compare the pair with its image.
            let a = pattern >> (depth - 1) & 1 == 1;
            let (ia, ib) = if s.mirror { (top, a) } else { (!top, !a) };
            // PERF: the mirror (or mirror + flip) image of a column set gives the same count;
            // keep the larger of the two (first differing pair decides), twice.
            match (a, top).cmp(&(ia, ib)) {
                std::cmp::Ordering::Equal => Some(s),
                std::cmp::Ordering::Greater => Some(Sym { open: false, weight: s.weight * 2, ..s }),
                std::cmp::Ordering::Less => None,
            }
        }
        _ => Some(s),
    }
}

/// Buffers of one worker: the lists of partial halves, one per number of columns placed.
struct Work {
    tops: Vec<Vec<Part>>,
    bottoms: Vec<Vec<Part>>,
    /// Bucketed keys of the two complete lists and the bucket starts.
    xs: Vec<u32>,
    ys: Vec<u32>,
    xstart: Vec<u32>,
    ystart: Vec<u32>,
    /// Real (unpadded) lengths of the buckets.
    xlen: Vec<u32>,
    ylen: Vec<u32>,
    scratch: Scratch,
}

impl Work {
    fn new(g: &Geometry) -> Self {
        let mut tops = vec![Vec::new(); g.h as usize + 1];
        let mut bottoms = vec![Vec::new(); g.hb as usize + 1];
        tops[0].push(Part::default());
        bottoms[0].push(Part::default());
        let nb = g.buckets();
        Work {
            tops,
            bottoms,
            xs: Vec::new(),
            ys: Vec::new(),
            xstart: vec![0; nb + 1],
            ystart: vec![0; nb + 1],
            xlen: vec![0; nb],
            ylen: vec![0; nb],
            scratch: Scratch::default(),
        }
    }
}

/// Counts the solutions below one node of the column-set search.
#[allow(clippy::too_many_arguments)]
fn search(
    g: &Geometry,
    w: &mut Work,
    ctl: &Control,
    depth: u32,
    pattern: u64,
    kt: u32,
    kb: u32,
    s: Sym,
) -> u64 {
    if depth == g.n {
        // Each leaf costs thousands of pair tests: polling here is free and keeps Ctrl-C
        // prompt even at n = 22, where one task runs for minutes. The partial count is
        // discarded by the caller.
        if ctl.cancelled() {
            return 0;
        }
        debug_assert!(kt == g.h && kb == g.hb);
        return s.weight * pairs(g, w, kt as usize, kb as usize);
    }
    let c = g.order[depth as usize];
    let mut total = 0;
    for top in [true, false] {
        let Some(s2) = decide(g, depth, pattern, top, s) else { continue };
        let (kt2, kb2) = if top { (kt + 1, kb) } else { (kt, kb + 1) };
        if kt2 > g.h || kb2 > g.hb {
            continue;
        }
        if depth + 1 == g.n {
            // PERF: the last column completes its half: extend straight to keys.
            if ctl.cancelled() {
                return 0;
            }
            total += s2.weight * last_pairs(g, w, c, top, kt as usize, kb as usize);
            continue;
        }
        let list = if top { &mut w.tops } else { &mut w.bottoms };
        let k = if top { kt } else { kb } as usize;
        let (lo, hi) = list.split_at_mut(k + 1);
        extend(g, &lo[k], &mut hi[0], c, top);
        if hi[0].is_empty() {
            continue;
        }
        total += search(g, w, ctl, depth + 1, pattern | (top as u64) << depth, kt2, kb2, s2);
    }
    total
}

/// Like [`search`] but with the first decisions forced to `prefix` (a parallel task).
fn run_task(g: &Geometry, w: &mut Work, ctl: &Control, prefix: u64, len: u32) -> u64 {
    let mut s = Sym { open: true, mirror: true, weight: 1 };
    let (mut kt, mut kb) = (0u32, 0u32);
    for depth in 0..len {
        let top = prefix >> depth & 1 == 1;
        let Some(s2) = decide(g, depth, prefix, top, s) else { return 0 };
        s = s2;
        let c = g.order[depth as usize];
        let (list, k) = if top { (&mut w.tops, kt) } else { (&mut w.bottoms, kb) };
        let k = k as usize;
        if (top && kt == g.h) || (!top && kb == g.hb) {
            return 0;
        }
        let (lo, hi) = list.split_at_mut(k + 1);
        extend(g, &lo[k], &mut hi[0], c, top);
        if hi[0].is_empty() {
            return 0;
        }
        if top { kt += 1 } else { kb += 1 }
    }
    search(g, w, ctl, len, prefix, kt, kb, s)
}

/// The task prefixes that survive the static filters (half sizes and symmetry).
fn task_prefixes(g: &Geometry) -> (Vec<u64>, u32) {
    let len = TASK_DEPTH.min(g.n);
    let mut out = Vec::new();
    'next: for prefix in 0..1u64 << len {
        let mut s = Sym { open: true, mirror: true, weight: 1 };
        let (mut kt, mut kb) = (0, 0);
        for depth in 0..len {
            let top = prefix >> depth & 1 == 1;
            match decide(g, depth, prefix, top, s) {
                Some(s2) => s = s2,
                None => continue 'next,
            }
            if top {
                kt += 1
            } else {
                kb += 1
            }
            if kt > g.h || kb > g.hb {
                continue 'next;
            }
        }
        out.push(prefix);
    }
    (out, len)
}

/// Number of tasks (progress units) for n.
pub(crate) fn task_count(n: u32) -> u64 {
    task_prefixes(&Geometry::new(n)).0.len() as u64
}

/// Counts the pairs (top, bottom) with disjoint keys among the complete lists.
fn pairs(g: &Geometry, w: &mut Work, kt: usize, kb: usize) -> u64 {
    let Work { tops, bottoms, xs, ys, xstart, ystart, xlen, ylen, scratch } = w;
    bucket_sort(g, &tops[kt], scratch, xs, xstart, xlen);
    bucket_sort(g, &bottoms[kb], scratch, ys, ystart, ylen);
    kernel::bucket_pairs(g.buckets(), xs, xstart, xlen, ys, ystart, ylen)
}

/// [`pairs`] for the leaf reached by putting the last column `c` in the top (`top`) or the
/// bottom half, `kt` and `kb` columns being placed before it: that column's half is extended
/// straight to keys ([`extend_keys`]).
fn last_pairs(g: &Geometry, w: &mut Work, c: u32, top: bool, kt: usize, kb: usize) -> u64 {
    let Work { tops, bottoms, xs, ys, xstart, ystart, xlen, ylen, scratch } = w;
    let Scratch { keys, cursor } = scratch;
    let (input, done, ks, start, len, ks2, start2, len2) = if top {
        (&tops[kt], &bottoms[kb], &mut *xs, &mut *xstart, &mut *xlen, &mut *ys, &mut *ystart, &mut *ylen)
    } else {
        (&bottoms[kb], &tops[kt], &mut *ys, &mut *ystart, &mut *ylen, &mut *xs, &mut *xstart, &mut *xlen)
    };
    extend_keys(g, input, keys, c, top);
    if keys.is_empty() || done.is_empty() {
        return 0;
    }
    sort_keys(g, keys, cursor, ks, start, len);
    keys.clear();
    keys.extend(done.iter().map(|p| g.key(p)));
    sort_keys(g, keys, cursor, ks2, start2, len2);
    kernel::bucket_pairs(g.buckets(), xs, xstart, xlen, ys, ystart, ylen)
}

/// Keys per vector: buckets are padded to a multiple of this with [`PAD_KEY`].
const LANES: usize = 8;

/// Padding key: it meets every key but 0 (the kernel corrects for that case).
const PAD_KEY: u32 = u32::MAX;

/// Counting sort of the parts' keys by bucket: bucket b holds `len[b]` keys from `start[b]`,
/// padded with [`PAD_KEY`] up to a multiple of [`LANES`].
fn bucket_sort(
    g: &Geometry,
    parts: &[Part],
    scratch: &mut Scratch,
    keys: &mut Vec<u32>,
    start: &mut [u32],
    len: &mut [u32],
) {
    // PERF: one pass computes each key once; the second scatters them by bucket.
    let Scratch { keys: tmp, cursor } = scratch;
    tmp.clear();
    tmp.extend(parts.iter().map(|p| g.key(p)));
    sort_keys(g, tmp, cursor, keys, start, len);
}

/// The counting sort of [`bucket_sort`] on keys already computed.
fn sort_keys(
    g: &Geometry,
    tmp: &mut [u64],
    cursor: &mut Vec<u32>,
    keys: &mut Vec<u32>,
    start: &mut [u32],
    len: &mut [u32],
) {
    len.fill(0);
    // PERF: bucket and residual are computed once per key, packed in place as
    // `bucket << 32 | residual`, so the scatter pass below only shifts and truncates.
    for k in tmp.iter_mut() {
        let b = g.bucket(*k);
        len[b] += 1;
        *k = (b as u64) << 32 | u64::from(g.residual(*k));
    }
    let mut at = 0u32;
    for b in 0..len.len() {
        start[b] = at;
        at += len[b].next_multiple_of(LANES as u32);
    }
    start[len.len()] = at;
    keys.clear();
    keys.resize(at as usize, PAD_KEY);
    cursor.clear();
    cursor.extend_from_slice(&start[..len.len()]);
    for &k in tmp.iter() {
        let b = (k >> 32) as usize;
        keys[cursor[b] as usize] = k as u32;
        cursor[b] += 1;
    }
}

/// Reused buffers of [`bucket_sort`].
#[derive(Default)]
struct Scratch {
    keys: Vec<u64>,
    cursor: Vec<u32>,
}

/// All solutions of n queens (`MIN_N..=MAX_N`), in parallel on the current rayon pool.
pub(crate) fn total(n: u32, control: &Control) -> Result<u64, Interrupted> {
    debug_assert!((MIN_N..=MAX_N).contains(&n));
    let g = Geometry::new(n);
    let (prefixes, len) = task_prefixes(&g);
    prefixes
        .par_iter()
        .map_init(
            || Work::new(&g),
            |w, &prefix| {
                if control.cancelled() {
                    return Err(Interrupted);
                }
                let t = run_task(&g, w, control, prefix, len);
                if control.cancelled() {
                    return Err(Interrupted);
                }
                control.advance(1);
                Ok(t)
            },
        )
        .try_reduce(|| 0, |a, b| Ok(a + b))
}

/// The pair-counting inner loop, compiled for the best vector unit found at run time.
mod kernel {
    use super::LANES;

    /// Pairs `(x, y)` with `x & y == 0`, x among the `short` keys, y among the padded
    /// `long` keys (a multiple of [`LANES`] long) of which `pad` are padding.
    #[inline(always)]
    fn block_portable(short: &[u32], long: &[u32], pad: u64) -> u64 {
        let mut total = 0;
        let mut zeros = 0;
        for &y in short {
            total += long.iter().map(|&x| ((x & y) == 0) as u64).sum::<u64>();
            zeros += (y == 0) as u64;
        }
        total - zeros * pad
    }

    /// Keys of `short` handled between two flushes of 32-bit lane counters, so that no lane
    /// can pass 2^31.
    #[inline(always)]
    fn flush_every(long: &[u32]) -> usize {
        ((1usize << 31) / long.len().max(1)).max(1)
    }

    /// [`block_portable`] with AVX2: 8 pairs per and / compare / subtract.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn block_avx2(short: &[u32], long: &[u32], pad: u64) -> u64 {
        use std::arch::x86_64::*;
        debug_assert_eq!(long.len() % LANES, 0);
        let mut total = 0u64;
        let mut zeros = 0;
        for part in short.chunks(flush_every(long)) {
            // SAFETY: only called from `avx2` below, compiled with AVX2; every load reads 8
            // keys inside `long` (its length is a multiple of `LANES` = 8).
            unsafe {
                let zero = _mm256_setzero_si256();
                let mut acc = _mm256_setzero_si256();
                for &y in part {
                    let yv = _mm256_set1_epi32(y as i32);
                    let mut p = long.as_ptr();
                    let end = p.add(long.len());
                    while p < end {
                        let x = _mm256_loadu_si256(p.cast());
                        // PERF: compare-equal gives -1 per fitting lane; subtracting counts it.
                        let hit = _mm256_cmpeq_epi32(_mm256_and_si256(x, yv), zero);
                        acc = _mm256_sub_epi32(acc, hit);
                        p = p.add(LANES);
                    }
                    zeros += (y == 0) as u64;
                }
                let mut lanes = [0u32; 8];
                _mm256_storeu_si256(lanes.as_mut_ptr().cast(), acc);
                total += lanes.iter().map(|&c| c as u64).sum::<u64>();
            }
        }
        total - zeros * pad
    }

    /// Pairs `(x, y)` with `x & y == 0`, x in bucket a of `xs`, y in bucket b of `ys`, over all
    /// bucket pairs with `a & b == 0` (layout of [`super::bucket_sort`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn pairs_with(
        block: impl Fn(&[u32], &[u32], u64) -> u64,
        nb: usize,
        xs: &[u32],
        xstart: &[u32],
        xlen: &[u32],
        ys: &[u32],
        ystart: &[u32],
        ylen: &[u32],
    ) -> u64 {
        let all = nb - 1;
        let mut total = 0;
        for a in 0..nb {
            let xa0 = xstart[a] as usize;
            let (xn, xp) = (xlen[a] as usize, (xstart[a + 1] - xstart[a]) as usize);
            if xn == 0 {
                continue;
            }
            // PERF: only bottom buckets whose bucket bits avoid the top bucket's bits can
            // hold a partner: walk the subsets of the complement.
            let comp = all & !a;
            let mut b = comp;
            loop {
                let yb0 = ystart[b] as usize;
                let (yn, yp) = (ylen[b] as usize, (ystart[b + 1] - ystart[b]) as usize);
                if yn != 0 {
                    // PERF: the relation is symmetric: vector loop over the longer list.
                    total += if xn <= yn {
                        block(&xs[xa0..xa0 + xn], &ys[yb0..yb0 + yp], (yp - yn) as u64)
                    } else {
                        block(&ys[yb0..yb0 + yn], &xs[xa0..xa0 + xp], (xp - xn) as u64)
                    };
                }
                if b == 0 {
                    break;
                }
                b = (b - 1) & comp;
            }
        }
        total
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    fn avx2(
        nb: usize,
        xs: &[u32],
        xstart: &[u32],
        xlen: &[u32],
        ys: &[u32],
        ystart: &[u32],
        ylen: &[u32],
    ) -> u64 {
        // SAFETY: this function is compiled with AVX2, which `block_avx2` needs.
        pairs_with(|s, l, p| unsafe { block_avx2(s, l, p) }, nb, xs, xstart, xlen, ys, ystart, ylen)
    }

    /// Vector unit found at run time: 0 none, 1 AVX2 (checked once).
    ///
    /// AVX-512 (16 keys per instruction) would need Rust 1.89, above the workspace's MSRV.
    #[cfg(target_arch = "x86_64")]
    fn level() -> u8 {
        use std::sync::OnceLock;
        static LEVEL: OnceLock<u8> = OnceLock::new();
        *LEVEL.get_or_init(|| u8::from(std::arch::is_x86_feature_detected!("avx2")))
    }

    /// See [`pairs_with`]; dispatched to the widest vector unit available (detected once).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn bucket_pairs(
        nb: usize,
        xs: &[u32],
        xstart: &[u32],
        xlen: &[u32],
        ys: &[u32],
        ystart: &[u32],
        ylen: &[u32],
    ) -> u64 {
        #[cfg(target_arch = "x86_64")]
        let level = level();
        #[cfg(not(target_arch = "x86_64"))]
        let level = 0;
        bucket_pairs_at(level, nb, xs, xstart, xlen, ys, ystart, ylen)
    }

    /// [`bucket_pairs`] with a chosen vector unit (0 none, 1 AVX2; the portable loop when the
    /// CPU lacks the one asked for), so that tests can run every level.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn bucket_pairs_at(
        level: u8,
        nb: usize,
        xs: &[u32],
        xstart: &[u32],
        xlen: &[u32],
        ys: &[u32],
        ystart: &[u32],
        ylen: &[u32],
    ) -> u64 {
        #[cfg(target_arch = "x86_64")]
        match level {
            1 if std::arch::is_x86_feature_detected!("avx2") => {
                // SAFETY: checked just above that the CPU has AVX2.
                return unsafe { avx2(nb, xs, xstart, xlen, ys, ystart, ylen) };
            }
            _ => {}
        }
        let _ = level;
        pairs_with(block_portable, nb, xs, xstart, xlen, ys, ystart, ylen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn layout(g: &Geometry, keys: &[u64]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
        // Parts whose key is exactly `k`: the key window of `diff` and `sr` (rows unused).
        let parts: Vec<Part> = keys
            .iter()
            .map(|&k| Part { diff: (k & g.field) << g.h, sr: ((k >> (g.n - 1)) & g.field) << g.h })
            .collect();
        let (mut out, mut start, mut len) = (Vec::new(), vec![0; g.buckets() + 1], vec![0; g.buckets()]);
        bucket_sort(g, &parts, &mut Scratch::default(), &mut out, &mut start, &mut len);
        (out, start, len)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every vector unit counts the same disjoint pairs as the obvious double loop, for
        /// keys of any density (including 0, which meets the padding).
        #[test]
        fn kernels_count_disjoint_pairs(
            n in 4u32..=22,
            xs in proptest::collection::vec(any::<u64>(), 0..200),
            ys in proptest::collection::vec(any::<u64>(), 0..200),
            sparse in 0u32..4,
        ) {
            let g = Geometry::new(n);
            let mask = (1u64 << (2 * n - 2)) - 1;
            // Thin the bits out so that a fair share of pairs is disjoint.
            let thin = |v: &Vec<u64>| -> Vec<u64> {
                v.iter().map(|&k| {
                    let mut k = k & mask;
                    for i in 0..sparse { k &= k.rotate_left(7 + i) }
                    k
                }).collect()
            };
            let (xs, ys) = (thin(&xs), thin(&ys));
            let want = xs.iter().map(|&x| ys.iter().filter(|&&y| x & y == 0).count() as u64).sum::<u64>();
            let (bx, sx, lx) = layout(&g, &xs);
            let (by, sy, ly) = layout(&g, &ys);
            for level in 0..=1 {
                let got = kernel::bucket_pairs_at(level, g.buckets(), &bx, &sx, &lx, &by, &sy, &ly);
                prop_assert_eq!(got, want, "level {}", level);
            }
        }
    }
}
