//! Meet in the middle: count compatible pairs of half boards instead of backtracking.
//!
//! The top half (rows `0..h`, `h = n / 2`) and the bottom half (rows `h..n`) of a solution use
//! complementary column sets, and the two halves only interact through the diagonals that
//! cross the middle line. So for every column set `C` of the top half, the engine builds the
//! list of top halves on `C` and of bottom halves on the complement, each reduced to a
//! *key*: the diagonals it projects onto the middle line (bit `d - 1` of the key for the `\`
//! diagonal reaching row `h` at column `d`, bit `n - 1 + a` for the `/` diagonal at column
//! `a`; diagonals that leave the board before the line cannot meet the other half and are
//! dropped). A top and a bottom form a solution exactly when their keys are disjoint.
//!
//! The column sets are enumerated by a depth-first search that decides, column after column,
//! whether the column's queen lies in the top or the bottom half, and extends the lists of
//! partial halves as it goes: every partial half is built once and shared by all the column
//! sets with the same prefix, so no half board is ever searched twice. Columns are decided from
//! the outside in (`0, n-1, 1, n-2, ...`) so that the left-right mirror and (for even n) the
//! top-bottom flip can be applied to whole column sets: only one column set per symmetry orbit
//! is counted, weighted by the orbit size (nearly 4x less work).
//!
//! Pairs of keys are counted by bucketing both lists on a few key bits ([`BUCKET_BITS`]) and
//! comparing only buckets whose bits are disjoint, with a branch-free, vectorised inner loop.

use rayon::prelude::*;

use crate::control::{Control, Interrupted};

/// Largest n this engine takes. Keys use `2n - 2` bits of a `u64`; beyond 24 the half lists
/// would not fit in memory anyway.
pub(crate) const MAX_N: u32 = 24;

/// Smallest n this engine takes (smaller boards are instant for the backtracker).
pub(crate) const MIN_N: u32 = 4;

/// Decisions (columns) fixed per parallel task.
///
/// PERF: 8 decisions give 50-150 tasks at n = 16..20, enough to balance two to a few dozen
/// threads; each task recomputes its (short) prefix lists, which costs next to nothing.
const TASK_DEPTH: u32 = 8;

/// Key bits used to bucket the halves before pairing: `BUCKET_BITS` bits of each diagonal
/// family, so `2^(2 * BUCKET_BITS)` buckets. [default: 4] [range: 0..=6]
const BUCKET_BITS: u32 = 4;

/// A partial half board: the rows it fills, its own diagonals (whole-board indices, to keep
/// its queens apart), and its key.
#[derive(Clone, Copy, Debug, Default)]
struct Part {
    rows: u32,
    /// Diagonals `row + col` taken.
    sum: u64,
    /// Diagonals `row - col + n - 1` taken.
    diff: u64,
    /// Diagonals projected onto the middle line (see the module docs).
    key: u64,
}

/// Fixed data of one board size.
struct Geometry {
    n: u32,
    /// Rows of the top half.
    h: u32,
    /// Rows of the bottom half (`n - h`).
    hb: u32,
    /// Columns in decision order: from the outside in.
    order: Vec<u32>,
    /// `top_key[r * n + c]`: key bits of a top queen at (r, c).
    top_key: Vec<u64>,
    /// `bottom_key[j * n + c]`: key bits of a bottom queen at (h + j, c).
    bottom_key: Vec<u64>,
    /// Shift that brings each of the two key fields' bucket bits down (see [`bucket`]).
    bucket_shift: [u32; 2],
}

impl Geometry {
    fn new(n: u32) -> Self {
        let h = n / 2;
        let hb = n - h;
        let mut order = Vec::with_capacity(n as usize);
        for i in 0..n / 2 {
            order.push(i);
            order.push(n - 1 - i);
        }
        if n % 2 == 1 {
            order.push(n / 2);
        }
        let (ni, hi) = (n as i64, h as i64);
        let mut top_key = vec![0u64; (h * n) as usize];
        for r in 0..hi {
            for c in 0..ni {
                let (d, a) = (c + hi - r, c + r - hi);
                let mut k = 0;
                if d <= ni - 1 {
                    k |= 1 << (d - 1);
                }
                if a >= 0 {
                    k |= 1 << (ni - 1 + a);
                }
                top_key[(r * ni + c) as usize] = k;
            }
        }
        let mut bottom_key = vec![0u64; (hb * n) as usize];
        for j in 0..hb as i64 {
            for c in 0..ni {
                let (d, a) = (c - j, c + j);
                let mut k = 0;
                if d >= 1 {
                    k |= 1 << (d - 1);
                }
                if a <= ni - 2 {
                    k |= 1 << (ni - 1 + a);
                }
                bottom_key[(j * ni + c) as usize] = k;
            }
        }
        // PERF: bucket on the middle bits of each family: they are set in about half of
        // the keys of both lists, so a bucket pair is ruled out as often as possible.
        let b = BUCKET_BITS.min(n - 1);
        let lo = (n - 1 - b) / 2;
        Geometry { n, h, hb, order, top_key, bottom_key, bucket_shift: [lo, n - 1 + lo] }
    }

    /// The bucket of a key: `BUCKET_BITS` middle bits of each family.
    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        let m = (1u64 << BUCKET_BITS) - 1;
        (((key >> self.bucket_shift[0]) & m) | (((key >> self.bucket_shift[1]) & m) << BUCKET_BITS)) as usize
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
    let (base, rows_mask, keys) = if top {
        (0, (1u64 << g.h) - 1, &g.top_key[..])
    } else {
        (g.h, (1u64 << g.hb) - 1, &g.bottom_key[..])
    };
    let keys = &keys[..];
    let (s_shift, d_shift) = (base + c, base + n - 1 - c);
    let max_new = if top { g.h } else { g.hb } as usize;
    for p in input {
        let blocked = p.rows as u64 | (p.sum >> s_shift) | (p.diff >> d_shift);
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
                rows: p.rows | 1 << j,
                sum: p.sum | 1 << (r + c),
                diff: p.diff | 1 << (r + n - 1 - c),
                key: p.key | keys[(j * n + c) as usize],
            });
            k += 1;
        }
        // SAFETY: the first `k` spare slots were initialised in the loop above, and
        // `k <= max_new <= spare.len()` (one free row per row of the half at most).
        unsafe { out.set_len(len + k) };
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
    let even = g.n % 2 == 0;
    match depth {
        // PERF: for even n the top-bottom flip maps the tops on C to the bottoms on the
        // complement: count only the column sets holding column 0, twice.
        0 if even => top.then_some(Sym { weight: 2, ..s }),
        1 if even => Some(Sym { mirror: top, ..s }),
        _ if depth % 2 == 1 && depth < 2 * (g.n / 2) && s.open => {
            // Second column of an outside-in pair: compare the pair with its image.
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
    xs: Vec<u64>,
    ys: Vec<u64>,
    xstart: Vec<u32>,
    ystart: Vec<u32>,
    /// Real (unpadded) lengths of the buckets.
    xlen: Vec<u32>,
    ylen: Vec<u32>,
}

impl Work {
    fn new(g: &Geometry) -> Self {
        let mut tops = vec![Vec::new(); g.h as usize + 1];
        let mut bottoms = vec![Vec::new(); g.hb as usize + 1];
        tops[0].push(Part::default());
        bottoms[0].push(Part::default());
        let nb = 1usize << (2 * BUCKET_BITS);
        Work {
            tops,
            bottoms,
            xs: Vec::new(),
            ys: Vec::new(),
            xstart: vec![0; nb + 1],
            ystart: vec![0; nb + 1],
            xlen: vec![0; nb],
            ylen: vec![0; nb],
        }
    }
}

/// Counts the solutions below one node of the column-set search.
fn search(g: &Geometry, w: &mut Work, depth: u32, pattern: u64, kt: u32, kb: u32, s: Sym) -> u64 {
    if depth == g.n {
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
        let list = if top { &mut w.tops } else { &mut w.bottoms };
        let k = if top { kt } else { kb } as usize;
        let (lo, hi) = list.split_at_mut(k + 1);
        extend(g, &lo[k], &mut hi[0], c, top);
        if hi[0].is_empty() {
            continue;
        }
        total += search(g, w, depth + 1, pattern | (top as u64) << depth, kt2, kb2, s2);
    }
    total
}

/// Like [`search`] but with the first decisions forced to `prefix` (a parallel task).
fn run_task(g: &Geometry, w: &mut Work, prefix: u64, len: u32) -> u64 {
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
    search(g, w, len, prefix, kt, kb, s)
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
    let Work { tops, bottoms, xs, ys, xstart, ystart, xlen, ylen } = w;
    bucket_sort(g, &tops[kt], xs, xstart, xlen);
    bucket_sort(g, &bottoms[kb], ys, ystart, ylen);
    kernel::bucket_pairs(xs, xstart, xlen, ys, ystart, ylen)
}

/// Keys per vector: buckets are padded to a multiple of this with [`PAD_KEY`].
const LANES: usize = 8;

/// Padding key: it meets every key but 0 (the kernel corrects for that case).
const PAD_KEY: u64 = u64::MAX;

/// Counting sort of the parts' keys by bucket: bucket b holds `len[b]` keys from `start[b]`,
/// padded with [`PAD_KEY`] up to a multiple of [`LANES`].
fn bucket_sort(g: &Geometry, parts: &[Part], keys: &mut Vec<u64>, start: &mut [u32], len: &mut [u32]) {
    len.fill(0);
    for p in parts {
        len[g.bucket(p.key)] += 1;
    }
    let mut at = 0u32;
    for b in 0..len.len() {
        start[b] = at;
        at += len[b].next_multiple_of(LANES as u32);
    }
    start[len.len()] = at;
    keys.clear();
    keys.resize(at as usize, PAD_KEY);
    // Fill using `len` as cursors (counting down), so no second array is needed.
    for p in parts {
        let b = g.bucket(p.key);
        len[b] -= 1;
        keys[(start[b] + len[b]) as usize] = p.key;
    }
    for b in 0..len.len() {
        // Recount: the cursors ran down to 0.
        len[b] = 0;
    }
    for p in parts {
        len[g.bucket(p.key)] += 1;
    }
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
                let t = run_task(&g, w, prefix, len);
                control.advance(1);
                Ok(t)
            },
        )
        .try_reduce(|| 0, |a, b| Ok(a + b))
}

/// The pair-counting inner loop, compiled for the best vector unit found at run time.
mod kernel {
    use super::{BUCKET_BITS, LANES};

    /// Pairs `(x, y)` with `x & y == 0`, x among the `short` keys, y among the padded
    /// `long` keys of which `pad` are padding.
    #[inline(always)]
    fn block(short: &[u64], long: &[u64], pad: u64) -> u64 {
        let mut acc = [0u64; LANES];
        let mut zeros = 0;
        for &y in short {
            // PERF: fixed 8-lane chunks with one accumulator per lane: the compiler makes
            // this a vector test + masked add per chunk, with no reduction per key.
            for chunk in long.chunks_exact(LANES) {
                for i in 0..LANES {
                    acc[i] += ((chunk[i] & y) == 0) as u64;
                }
            }
            zeros += (y == 0) as u64;
        }
        acc.iter().sum::<u64>() - zeros * pad
    }

    /// Pairs `(x, y)` with `x & y == 0`, x in bucket a of `xs`, y in bucket b of `ys`, over all
    /// bucket pairs with `a & b == 0` (layout of [`super::bucket_sort`]).
    #[inline(always)]
    fn portable(xs: &[u64], xstart: &[u32], xlen: &[u32], ys: &[u64], ystart: &[u32], ylen: &[u32]) -> u64 {
        let nb = 1usize << (2 * BUCKET_BITS);
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
    fn avx2(xs: &[u64], xstart: &[u32], xlen: &[u32], ys: &[u64], ystart: &[u32], ylen: &[u32]) -> u64 {
        portable(xs, xstart, xlen, ys, ystart, ylen)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vpopcntdq")]
    fn avx512(xs: &[u64], xstart: &[u32], xlen: &[u32], ys: &[u64], ystart: &[u32], ylen: &[u32]) -> u64 {
        portable(xs, xstart, xlen, ys, ystart, ylen)
    }

    /// Vector unit found at run time: 0 none, 1 AVX2, 2 AVX-512 (checked once).
    #[cfg(target_arch = "x86_64")]
    fn level() -> u8 {
        use std::sync::OnceLock;
        static LEVEL: OnceLock<u8> = OnceLock::new();
        *LEVEL.get_or_init(|| {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
            {
                2
            } else if std::arch::is_x86_feature_detected!("avx2") {
                1
            } else {
                0
            }
        })
    }

    /// See [`portable`]; dispatched to the widest vector unit available.
    pub(super) fn bucket_pairs(
        xs: &[u64],
        xstart: &[u32],
        xlen: &[u32],
        ys: &[u64],
        ystart: &[u32],
        ylen: &[u32],
    ) -> u64 {
        #[cfg(target_arch = "x86_64")]
        match level() {
            // SAFETY: `level` checked that the CPU has every feature `avx512` is built for.
            2 => return unsafe { avx512(xs, xstart, xlen, ys, ystart, ylen) },
            // SAFETY: `level` checked that the CPU has AVX2.
            1 => return unsafe { avx2(xs, xstart, xlen, ys, ystart, ylen) },
            _ => {}
        }
        portable(xs, xstart, xlen, ys, ystart, ylen)
    }
}
