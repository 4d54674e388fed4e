//! The engine's three hot loops, each built for every [`Isa`]: the join (pairs of quarter
//! placements that share no diagonal), the count over sliced blocks, and the scan of short
//! key lists.
//!
//! Each public function takes the ISA to run on, which its callers have checked with
//! [`Isa::is_available`] (see `usable`). The portable loops are
//! compiled a second time with `popcnt` enabled and take that copy where the CPU has it.

#[cfg(target_arch = "aarch64")]
use std::arch::aarch64::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::geometry::WEIGHT_AT;
use super::sliced::{CHUNK, Row, WIDE_CHUNK};
use super::table::Cell;
use crate::cpu::Isa;
#[cfg(target_arch = "x86_64")]
use crate::cpu::features;

/// The ISA to run: the one asked for. Every caller checks [`Isa::is_available`] first (an ISA
/// the CPU lacks is a typed error before any count starts); a debug build asserts it, and a
/// release build falls back to the widest ISA the CPU has rather than run an instruction it
/// lacks.
#[inline(always)]
fn usable(isa: Isa) -> Isa {
    debug_assert!(isa.is_available(), "{isa} reached a kernel on a CPU without it");
    isa.min(Isa::best())
}

// ---------------------------------------------------------------------------------------
// Join

/// Appends the sum of the keys (masked by `keep`) of every pair of `left` x `right`
/// placements that share no diagonal. Such keys are disjoint, so their sum is their union and
/// adds the weight exponents. The order of the keys depends on the ISA.
#[inline(always)]
pub(super) fn join(isa: Isa, left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
    match usable(isa) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `usable` returns at most `Isa::best()`: the CPU has AVX-512 F and `popcnt`
        // (`cpu::features`), all that `join_avx512` is compiled with.
        Isa::Avx512 => unsafe {
            let (left, right) = oriented::<8>(left, right);
            join_avx512(left, right, keep, out)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has AVX2 and `popcnt`.
        Isa::Avx2 => unsafe {
            let (left, right) = oriented::<4>(left, right);
            join_avx2(left, right, keep, out)
        },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has NEON.
        Isa::Neon => unsafe {
            let (left, right) = oriented::<2>(left, right);
            join_neon(left, right, keep, out)
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86-64.
        _ => unsafe { join_sse2(left, right, keep, out) },
        #[cfg(not(target_arch = "x86_64"))]
        _ => join_portable(left, right, keep, out),
    }
}

/// [`join_portable`], which [`join`] takes only off x86-64, for the tests to check on any CPU.
#[cfg(test)]
pub(super) fn join_plain(left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
    join_portable(left, right, keep, out)
}

/// The two lists of [`join`] in the order a vector kernel of `LANES` lanes pairs them in fewer
/// steps.
///
/// PERF: a vector kernel loads `LANES` placements of the right list at once and streams the
/// left one: `ceil(r / LANES)` passes of `l` steps. The pairs are the same either way round
/// (the clash test and the key sum are symmetric), so the lists are swapped when that takes
/// fewer steps (AVX2, 9 left and 2 right placements: 6 steps instead of 9). The portable loop
/// takes `l * r` steps either way and runs the longer list inside ([`join_portable`]).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn oriented<'a, const LANES: usize>(left: Cell<'a>, right: Cell<'a>) -> (Cell<'a>, Cell<'a>) {
    let steps = |l: Cell, r: Cell| r.len().div_ceil(LANES) * l.len();
    if steps(right, left) < steps(left, right) { (right, left) } else { (left, right) }
}

/// [`join`] in plain Rust.
///
/// PERF: the longer list in the inner loop (fewer passes of the outer one, whose set-up is
/// a third of a short inner loop's cost), zipped iterators (no bounds check) and the keys
/// written through a pointer: 17 instructions a pair were 15 (q(16) on the portable unit).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn join_portable(left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
    let (outer, inner) = if left.len() < right.len() { (left, right) } else { (right, left) };
    out.reserve(outer.len() * inner.len());
    let len = out.len();
    let slots = out.spare_capacity_mut().as_mut_ptr();
    let mut k = 0;
    for ((&s, &d), &key) in outer.sums.iter().zip(outer.diffs).zip(outer.keys) {
        let key = key & keep;
        for ((&s2, &d2), &key2) in inner.sums.iter().zip(inner.diffs).zip(inner.keys) {
            // PERF: written unconditionally, kept by advancing the cursor: no branch to
            // mispredict (about a third of the pairs fit). The two keys are disjoint where
            // they fit, so masking each is masking their sum.
            // SAFETY: `k` counts the fitting pairs before this one, fewer than
            // `left.len() * right.len()`, the spare capacity reserved above.
            unsafe { slots.add(k).write(std::mem::MaybeUninit::new(key + (key2 & keep))) };
            k += ((s & s2) | (d & d2) == 0) as usize;
        }
    }
    // SAFETY: the first `k <= left.len() * right.len()` spare slots were written.
    unsafe { out.set_len(len + k) };
}

/// [`join`] with SSE2 (part of x86-64, so the portable unit's): 2 placements of the longer
/// list per step against one of the shorter list, each fitting key written by a 64-bit store
/// and kept by advancing the cursor.
///
/// PERF: SSE2 has no 64-bit compare: a lane's clash word `c` is zero exactly when `!c & (c -
/// 1)` has its top bit set, read by `movmskpd` (the compiler makes it a 32-bit compare, a
/// shuffle and an AND); the keys are masked by `keep` only where it drops bits (`MASK`).
/// About 12 instructions a pair where [`join_portable`] takes 15: the join 0.88x its
/// instructions at n = 16, the whole count 0.957x (n = 16) and 0.976x (an n = 20 share);
/// q(18) 0.87-1.02x the CPU time, median 0.95x over 6 alternating rounds (docs/performance.md,
/// issue 54's sixth pass).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn join_sse2(left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
    if keep == u64::MAX {
        join_sse2_with::<false>(left, right, keep, out)
    } else {
        join_sse2_with::<true>(left, right, keep, out)
    }
}

/// [`join_sse2`], the keys masked by `keep` when `MASK`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn join_sse2_with<const MASK: bool>(left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
    let (outer, inner) = if left.len() < right.len() { (left, right) } else { (right, left) };
    out.reserve(outer.len() * inner.len());
    let mut len = out.len();
    let slots = out.as_mut_ptr();
    let keepv = _mm_set1_epi64x(keep as i64);
    let ones = _mm_set1_epi64x(-1);
    let steps = inner.len() / 2;
    let (is, id, ik) = (inner.sums.as_ptr(), inner.diffs.as_ptr(), inner.keys.as_ptr());
    for ((&s, &d), &key) in outer.sums.iter().zip(outer.diffs).zip(outer.keys) {
        let sv = _mm_set1_epi64x(s as i64);
        let dv = _mm_set1_epi64x(d as i64);
        let key = key & keep;
        let kv = _mm_set1_epi64x(key as i64);
        for j in 0..steps {
            // SAFETY: `2 * j + 1 < inner.len()`: the loads read placements `2j` and `2j + 1`
            // of the three slices of the inner list (unaligned loads).
            let (bs, bd, bk) = unsafe {
                (
                    _mm_loadu_si128(is.add(2 * j).cast()),
                    _mm_loadu_si128(id.add(2 * j).cast()),
                    _mm_loadu_si128(ik.add(2 * j).cast()),
                )
            };
            let clash = _mm_or_si128(_mm_and_si128(sv, bs), _mm_and_si128(dv, bd));
            let free = _mm_andnot_si128(clash, _mm_add_epi64(clash, ones));
            let fit = _mm_movemask_pd(_mm_castsi128_pd(free)) as usize;
            let keys = _mm_add_epi64(kv, if MASK { _mm_and_si128(bk, keepv) } else { bk });
            // SAFETY: each store writes one slot, at most `len + 1` where `len` is the
            // start's length plus the fitting pairs before this step: at most `outer.len() *
            // inner.len() - 2` pairs (the two of this step follow), so the slot is within the
            // capacity reserved above.
            unsafe {
                _mm_storel_epi64(slots.add(len).cast(), keys);
                len += fit & 1;
                _mm_storeh_pd(slots.add(len).cast(), _mm_castsi128_pd(keys));
            }
            len += fit >> 1;
        }
        if inner.len() % 2 == 1 {
            let last = inner.len() - 1;
            // SAFETY: as above: at most `outer.len() * inner.len() - 1` pairs were kept
            // before this one.
            unsafe { slots.add(len).write(key + (inner.keys[last] & keep)) };
            len += ((s & inner.sums[last]) | (d & inner.diffs[last]) == 0) as usize;
        }
    }
    // SAFETY: every slot below `len` was written above (or was already initialised).
    unsafe { out.set_len(len) };
}

/// [`join`] with AVX-512: 8 right placements per step, the fitting keys packed by a compress.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
fn join_avx512(left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
    // Each step stores 8 lanes, of which it keeps the fitting ones: 8 slots of slack.
    out.reserve(left.len() * right.len() + 8);
    let mut len = out.len();
    let keepv = _mm512_set1_epi64(keep as i64);
    let m = right.len();
    // PERF: right lists are short (7 placements on average at n = 18): loading 8 of them once
    // and running the long loop over the left list keeps the loop branches predictable, and
    // the only value carried from step to step is the length.
    for j in (0..m).step_by(8) {
        let lanes: __mmask8 = if m - j >= 8 { 0xff } else { (1u8 << (m - j)) - 1 };
        // SAFETY: masked loads read only lanes `j..m` of the three slices (masked-off lanes do
        // not fault).
        let (bs, bd, bk) = unsafe {
            (
                _mm512_maskz_loadu_epi64(lanes, right.sums.as_ptr().add(j).cast()),
                _mm512_maskz_loadu_epi64(lanes, right.diffs.as_ptr().add(j).cast()),
                _mm512_and_si512(_mm512_maskz_loadu_epi64(lanes, right.keys.as_ptr().add(j).cast()), keepv),
            )
        };
        for i in 0..left.len() {
            let s = _mm512_set1_epi64(left.sums[i] as i64);
            let d = _mm512_set1_epi64(left.diffs[i] as i64);
            let key = _mm512_set1_epi64((left.keys[i] & keep) as i64);
            let fit = _mm512_mask_testn_epi64_mask(_mm512_testn_epi64_mask(s, bs) & lanes, d, bd);
            let keys = _mm512_add_epi64(key, bk);
            // SAFETY: the store writes 8 slots at `len`, and `len + 8 <= capacity`: at most
            // `left.len() * right.len()` keys are kept in all.
            unsafe {
                _mm512_storeu_si512(out.as_mut_ptr().add(len).cast(), _mm512_maskz_compress_epi64(fit, keys))
            };
            len += fit.count_ones() as usize;
        }
    }
    // SAFETY: every slot below `len` was written by a compress store above (or was already
    // initialised).
    unsafe { out.set_len(len) };
}

/// For each 4-bit mask of fitting lanes, the 32-bit lane indices that move those 64-bit lanes
/// to the front, in order (AVX2 has no compress instruction).
#[cfg(target_arch = "x86_64")]
const PACK4: [[i32; 8]; 16] = {
    let mut t = [[0i32; 8]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut lane, mut k) = (0i32, 0usize);
        while lane < 4 {
            if mask >> lane & 1 == 1 {
                t[mask][2 * k] = 2 * lane;
                t[mask][2 * k + 1] = 2 * lane + 1;
                k += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    t
};

/// [`join`] with AVX2: 8 (or at the end 4) right placements per step, the fitting keys of each
/// 4 packed by a permutation looked up from their mask.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn join_avx2(left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
    // Each store writes 4 lanes, of which it keeps the fitting ones: 4 slots of slack.
    out.reserve(left.len() * right.len() + 4);
    let mut len = out.len();
    let keepv = _mm256_set1_epi64x(keep as i64);
    let zero = _mm256_setzero_si256();
    let m = right.len();
    // The 4 right placements from `j` (masked past `m`), their keys masked, and the mask of
    // the valid ones.
    let load = |j: usize| {
        let count = m.saturating_sub(j).min(4);
        let lanes = _mm256_cmpgt_epi64(_mm256_set1_epi64x(count as i64), _mm256_setr_epi64x(0, 1, 2, 3));
        // SAFETY: masked loads read only lanes `j..m` of the three slices (masked-off lanes do
        // not fault, and none is read where `j >= m`).
        unsafe {
            (
                _mm256_maskload_epi64(right.sums.as_ptr().wrapping_add(j).cast(), lanes),
                _mm256_maskload_epi64(right.diffs.as_ptr().wrapping_add(j).cast(), lanes),
                _mm256_and_si256(
                    _mm256_maskload_epi64(right.keys.as_ptr().wrapping_add(j).cast(), lanes),
                    keepv,
                ),
                (1u32 << count) - 1,
            )
        }
    };
    // The fitting keys of 4 right placements against one left one (`s`, `d`, `key`
    // broadcast), moved to the front, and how many they are.
    let pack = |s, d, key, (bs, bd, bk, valid): (__m256i, __m256i, __m256i, u32)| {
        let clash = _mm256_or_si256(_mm256_and_si256(s, bs), _mm256_and_si256(d, bd));
        let free = _mm256_cmpeq_epi64(clash, zero);
        let fit = _mm256_movemask_pd(_mm256_castsi256_pd(free)) as u32 & valid;
        // SAFETY: `fit < 16` indexes the table.
        let order = unsafe { _mm256_loadu_si256(PACK4.get_unchecked(fit as usize).as_ptr().cast()) };
        (_mm256_permutevar8x32_epi32(_mm256_add_epi64(key, bk), order), fit.count_ones() as usize)
    };
    // PERF: as in `join_avx512`, the right list is loaded once per 8 and the left list
    // streams; 8 right placements a step (two vectors) share the left one's broadcasts and
    // the loop: 0.83x the join's instructions on an n = 20 share, 0.98x q(18)'s CPU time. The
    // left list is zipped (no bounds checks) and its key masked in the vector (one broadcast
    // from memory and an AND, not four instructions through a register).
    let mut j = 0;
    while j < m {
        let (a, b) = (load(j), load(j + 4));
        let wide = m - j > 4;
        for ((&s, &d), &key) in left.sums.iter().zip(left.diffs).zip(left.keys) {
            let s = _mm256_set1_epi64x(s as i64);
            let d = _mm256_set1_epi64x(d as i64);
            let key = _mm256_and_si256(_mm256_set1_epi64x(key as i64), keepv);
            let (keys, kept) = pack(s, d, key, a);
            // SAFETY: the store writes 4 slots at `len`, and `len + 4 <= capacity`: at most
            // `left.len() * right.len()` keys are kept in all, and the lanes stored here are
            // counted after the store.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(len).cast(), keys) };
            len += kept;
            if wide {
                let (keys, kept) = pack(s, d, key, b);
                // SAFETY: as above.
                unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(len).cast(), keys) };
                len += kept;
            }
        }
        j += 8;
    }
    // SAFETY: every slot below `len` was written by a store above (or was already initialised).
    unsafe { out.set_len(len) };
}

/// [`join`] with NEON: 2 right placements per step, the fitting keys moved to the front by
/// one select between the pair and its swap.
#[cfg(target_arch = "aarch64")]
#[target_feature(enable = "neon")]
fn join_neon(left: Cell, right: Cell, keep: u64, out: &mut Vec<u64>) {
    // Each step stores 2 lanes, of which it keeps the fitting ones: 2 slots of slack.
    out.reserve(left.len() * right.len() + 2);
    let mut len = out.len();
    let keepv = vdupq_n_u64(keep);
    let m = right.len();
    // PERF: as in `join_avx512`, the right list is loaded once per 2 and the left list streams.
    for j in (0..m).step_by(2) {
        // A lone last placement is paired with an empty lane that never fits.
        let pair = |list: &[u64]| {
            let second = if j + 1 < m { list[j + 1] } else { 0 };
            vcombine_u64(vcreate_u64(list[j]), vcreate_u64(second))
        };
        let (bs, bd, bk) = (pair(right.sums), pair(right.diffs), vandq_u64(pair(right.keys), keepv));
        let valid = vcombine_u64(vcreate_u64(u64::MAX), vcreate_u64(if j + 1 < m { u64::MAX } else { 0 }));
        for i in 0..left.len() {
            let s = vdupq_n_u64(left.sums[i]);
            let d = vdupq_n_u64(left.diffs[i]);
            let key = vdupq_n_u64(left.keys[i] & keep);
            let clash = vorrq_u64(vandq_u64(s, bs), vandq_u64(d, bd));
            let fit = vandq_u64(vceqzq_u64(clash), valid);
            let keys = vaddq_u64(key, bk);
            // Lane 0 first when it fits, else lane 1 (swapped to the front).
            let front = vbslq_u64(vdupq_laneq_u64::<0>(fit), keys, vextq_u64::<1>(keys, keys));
            // SAFETY: the store writes 2 slots at `len`, and `len + 2 <= capacity`: at most
            // `left.len() * right.len()` keys are kept in all.
            unsafe { vst1q_u64(out.as_mut_ptr().add(len), front) };
            len += (vgetq_lane_u64::<0>(fit) & 1) as usize + (vgetq_lane_u64::<1>(fit) & 1) as usize;
        }
    }
    // SAFETY: every slot below `len` was written by a store above (or was already initialised).
    unsafe { out.set_len(len) };
}

// ---------------------------------------------------------------------------------------
// Count over sliced blocks

/// Weighted pairs (query, key of a sliced block) with disjoint key bits: each pair counts
/// `2^e` for the exponent `e` in the query's bits from [`WEIGHT_AT`]. The blocks hold
/// `chunks` chunks of `width` bits ([`CHUNK`] or [`WIDE_CHUNK`]), and the last block's keys
/// lie in the first `last` (1 to 8) 64-bit words of its rows: the words after them are zero
/// in every row, as a block of `64 (last - 1) + 1` to `64 last` keys slices them (a group's
/// last block is partial).
///
/// PERF: a fourth of q(18)'s (query, block) visits are to a group's partial last block, on
/// average half full. The AVX2 kernel reads only the first 256 bits of a last block whose keys
/// fit in them, in its copies unrolled for 1 to 8 blocks (5-bit chunks); the `popcnt` kernel
/// only the 128-bit quarters that hold keys, in its copies unrolled for 1 to 8 blocks (6-bit
/// chunks: the last piece of a call); the NEON kernel only those quarters, at any count. Other
/// copies, the AVX-512 kernel (a block is one vector either way) and the plain Rust one read
/// whole blocks: the zero words add nothing.
pub(super) fn count(isa: Isa, rows: &[Row], width: u32, chunks: usize, last: usize, queries: &[u64]) -> u64 {
    if rows.is_empty() {
        return 0;
    }
    assert!((1..=8).contains(&last), "{last} words in a block's last row");
    let isa = usable(isa);
    // PERF: one copy of each loop per chunk width and count, so that the chunk loop is
    // unrolled and the offsets stay in registers.
    macro_rules! dispatch {
        ($w:expr; $($c:literal)*) => {
            match chunks {
                $($c => match isa {
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: `usable` returns at most `Isa::best()`: the CPU has AVX-512 F,
                    // VPOPCNTDQ and `popcnt` (`cpu::features`), all that it is compiled with.
                    Isa::Avx512 => unsafe { count_avx512::<$w, $c>(rows, queries) },
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: as above, the CPU has AVX2 and `popcnt`.
                    Isa::Avx2 => unsafe { count_avx2::<$w, $c>(rows, last <= 4, queries) },
                    #[cfg(target_arch = "aarch64")]
                    // SAFETY: as above, the CPU has NEON.
                    Isa::Neon => unsafe {
                        match last.div_ceil(2) {
                            1 => count_neon::<$w, $c, 1>(rows, queries),
                            2 => count_neon::<$w, $c, 2>(rows, queries),
                            3 => count_neon::<$w, $c, 3>(rows, queries),
                            _ => count_neon::<$w, $c, 4>(rows, queries),
                        }
                    },
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: `popcnt` was detected by `cpu::features`.
                    _ if features().popcnt => unsafe { count_popcnt::<$w, $c>(rows, last.div_ceil(2), queries) },
                    _ => count_portable::<$w, $c>(rows, queries),
                },)*
                _ => unreachable!("{chunks} chunks of {} bits: packed keys have at most 54 bits", $w),
            }
        };
    }
    match width {
        CHUNK => dispatch!(CHUNK; 1 2 3 4 5 6 7 8 9 10 11),
        WIDE_CHUNK => dispatch!(WIDE_CHUNK; 1 2 3 4 5 6 7 8 9),
        _ => unreachable!("chunks of {width} bits"),
    }
}

/// Bytes of a row.
const ROW_BYTES: usize = std::mem::size_of::<Row>();

/// Byte offsets (within a block) of the rows of a query's `C` chunks: chunk `c`'s row of value
/// `v` is row `c << W | v` ([`row_at`] reads it).
///
/// PERF: in bytes, so that the compiler shifts and masks each chunk in one step (`(q >> k) &
/// 0x7c0` at 5 bits) and folds `c << W` rows into the load's displacement: 3 scalar instructions a
/// chunk instead of 5 (a row index costs a shift by 6 more, and a copy), on the same ports as
/// AVX2's vector logic. Calls visit 1.1 to 2 blocks per query, so this is per-query work as
/// large as the block's.
#[inline(always)]
fn offsets<const W: u32, const C: usize>(q: u64) -> [usize; C] {
    std::array::from_fn(|c| {
        (c << W) * ROW_BYTES + ((q >> (c as u32 * W)) & ((1 << W) - 1)) as usize * ROW_BYTES
    })
}

/// The row at byte offset `at` (from [`offsets`]) of the block at `base`.
///
/// # Safety
/// `base` is the start of a whole block of `C << W` rows and `at` one of the `C` offsets of
/// [`offsets::<W, C>`], so the row read is within the block.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
unsafe fn row_at(base: *const Row, at: usize) -> *const Row {
    // SAFETY: by the contract, `at` is a multiple of the row's size within the block.
    unsafe { base.byte_add(at) }
}

/// [`count_portable`], which [`count`] takes only on CPUs without `popcnt`, for the tests
/// to check on any CPU: a few chunk counts of each width.
#[cfg(test)]
pub(super) fn count_plain(rows: &[Row], width: u32, chunks: usize, queries: &[u64]) -> u64 {
    match (width, chunks) {
        (CHUNK, 1) => count_portable::<CHUNK, 1>(rows, queries),
        (CHUNK, 7) => count_portable::<CHUNK, 7>(rows, queries),
        (CHUNK, 11) => count_portable::<CHUNK, 11>(rows, queries),
        (WIDE_CHUNK, 1) => count_portable::<WIDE_CHUNK, 1>(rows, queries),
        (WIDE_CHUNK, 6) => count_portable::<WIDE_CHUNK, 6>(rows, queries),
        (WIDE_CHUNK, 9) => count_portable::<WIDE_CHUNK, 9>(rows, queries),
        _ => unimplemented!("count_plain: {chunks} chunks of {width} bits"),
    }
}

/// [`count`] in plain Rust.
#[inline(always)]
fn count_portable<const W: u32, const C: usize>(rows: &[Row], queries: &[u64]) -> u64 {
    let mut total = 0;
    for &q in queries {
        let o = offsets::<W, C>(q);
        let mut t = 0;
        for block in rows.chunks_exact(C << W) {
            let mut acc = block[o[0] / ROW_BYTES].0;
            for &oc in &o[1..] {
                let r = &block[oc / ROW_BYTES].0;
                for i in 0..8 {
                    acc[i] &= r[i];
                }
            }
            t += acc.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        }
        total += t << (q >> WEIGHT_AT);
    }
    total
}

/// [`count`] with the `popcnt` instruction, one 64-bit word at a time.
///
/// PERF: written word by word with the instruction itself rather than by calling
/// [`count_portable`] on this feature set: there, and even with `_popcnt64`, the compiler turns
/// the eight popcounts of a block into SSE2 nibble arithmetic (about 12 instructions per 128
/// bits; the kernel was 69% of q(18)).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_popcnt<const W: u32, const C: usize>(rows: &[Row], last: usize, queries: &[u64]) -> u64 {
    // PERF: as in `count_avx2`, the block loop unrolled for calls of 1 to 8 blocks (one copy
    // per count, the portable unit's chunk width only): no loop nor per-query pointer set-up.
    // An n = 20 share: 0.886x the kernel's instructions; q(18): 0.94x the CPU time
    // (docs/performance.md, issue 54's fifth pass).
    macro_rules! unrolled {
        ($rows:expr, $last:expr; $($b:literal)*) => {
            match ($rows.len() / (C << W), $last) {
                $(($b, 1) => count_popcnt_with::<W, C, $b, 1>($rows, queries),
                ($b, 2) => count_popcnt_with::<W, C, $b, 2>($rows, queries),
                ($b, 3) => count_popcnt_with::<W, C, $b, 3>($rows, queries),
                ($b, _) => count_popcnt_with::<W, C, $b, 4>($rows, queries),)*
                _ => count_popcnt_with::<W, C, 0, 4>($rows, queries),
            }
        };
    }
    let count = |rows: &[Row], last: usize| {
        if W == WIDE_CHUNK { unrolled!(rows, last; 1 2 3 4 5 6 7 8) } else { unrolled!(rows, last;) }
    };
    // PERF: the queries counted against a few blocks at a time (about 72 KiB of rows, three
    // blocks of 6 chunks), then against the next ones: a query reads one row a chunk in each
    // block, so that a call's queries over all its blocks read rows from up to 170 KiB (7
    // blocks at q(18)), more than the 48 KiB of L1 cache; the rows the queries read most stay
    // in it over a piece. Each piece pays the per-query set-up again (the offsets, the
    // weighting). q(18): 0.93-0.99x the CPU time (14 alternating rounds, median 0.96x);
    // pieces of two blocks 0.94-1.04x; an n = 23 share (7 or 8 chunks: pieces of two blocks)
    // 0.94-1.15x over 4 rounds, within the host's drift (docs/performance.md, issue 54's
    // sixth pass).
    let piece = (POPCNT_PIECE_BYTES / ((C << W) * ROW_BYTES)).max(1) * (C << W);
    if rows.len() <= piece {
        return count(rows, last);
    }
    let pieces = rows.len().div_ceil(piece);
    rows.chunks(piece).enumerate().map(|(i, rows)| count(rows, if i + 1 == pieces { last } else { 4 })).sum()
}

/// Bytes of rows that [`count_popcnt`] counts all its queries against at a time (whole blocks,
/// at least one): three blocks of 6 chunks of [`WIDE_CHUNK`] bits.
#[cfg(target_arch = "x86_64")]
const POPCNT_PIECE_BYTES: usize = 3 * (6 << WIDE_CHUNK) * ROW_BYTES;

/// [`count_popcnt`] on `B` blocks (0: any number), the last one's keys in its first `LAST`
/// (1 to 4) 128-bit quarters.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_popcnt_with<const W: u32, const C: usize, const B: usize, const LAST: usize>(
    rows: &[Row],
    queries: &[u64],
) -> u64 {
    let per_block = C << W;
    let blocks = if B == 0 { rows.len() / per_block } else { B };
    // The block loop's reads rest on this (a safe function: any caller may pass any `B`).
    // PERF: one comparison a call, not a query.
    assert_eq!(blocks, rows.len() / per_block, "{B} blocks asked of {} rows", rows.len());
    let mut total = 0;
    for &q in queries {
        let o = offsets::<W, C>(q);
        let mut t = 0u64;
        let mut base = rows.as_ptr();
        for i in 0..blocks {
            // PERF: the last block's quarters that hold keys only (`LAST`: one copy of the
            // kernel per count, so that the blocks unrolled test nothing).
            t += if i + 1 < blocks || LAST == 4 {
                // SAFETY: `base` is one of the whole blocks of `rows` (`i < blocks`), `o` is
                // `offsets::<W, C>(q)`, and this function has `popcnt`.
                unsafe { block_ones::<C, 4>(base, &o) }
            } else {
                // SAFETY: as above.
                unsafe { block_ones::<C, LAST>(base, &o) }
            };
            // SAFETY: at most one past the end of `rows`.
            base = unsafe { base.add(per_block) };
        }
        total += t << (q >> WEIGHT_AT);
    }
    total
}

/// The ones of the AND of the first `K` 128-bit quarters of the rows at offsets `o` of the
/// block at `base`.
///
/// # Safety
/// `base` is the start of a whole block of rows and `o` the [`offsets`] of a query for its
/// width and `C` chunks ([`row_at`]); the CPU has `popcnt`. `K` is at most 4 (a row's 64
/// bytes; asserted at compile time).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
#[inline]
unsafe fn block_ones<const C: usize, const K: usize>(base: *const Row, o: &[usize; C]) -> u64 {
    const { assert!(K >= 1 && K <= 4, "a row holds four 128-bit quarters") };
    // SAFETY: by the contract every row read is within the block; rows are 64-byte aligned,
    // so each 16-byte quarter is aligned. SSE2 is part of x86-64.
    let words: [__m128i; K] = unsafe {
        let row = |o: usize, k: usize| _mm_load_si128(row_at(base, o).cast::<__m128i>().add(k));
        let mut x: [__m128i; K] = std::array::from_fn(|k| row(o[0], k));
        for &oc in &o[1..] {
            for (k, x) in x.iter_mut().enumerate() {
                *x = _mm_and_si128(*x, row(oc, k));
            }
        }
        x
    };
    if K < 4 {
        let mut t = 0;
        for w in &words {
            let ones: u64;
            // SAFETY: `popcnt` is enabled on this function; the instructions read the 16
            // bytes of `w` and write two registers and the flags, nothing else.
            unsafe {
                std::arch::asm!(
                    "popcnt {t}, qword ptr [{p}]",
                    "popcnt {u}, qword ptr [{p} + 8]",
                    "add {t}, {u}",
                    p = in(reg) (w as *const __m128i),
                    t = out(reg) ones,
                    u = out(reg) _,
                    options(pure, readonly, nostack),
                );
            }
            t += ones;
        }
        return t;
    }
    let ones: u64;
    // SAFETY: `popcnt` is enabled on this function (its callers checked the CPU has
    // it); the instructions read the 64 bytes of `words` and write two registers and
    // the flags, nothing else.
    // PERF: inline assembly, so that the compiler cannot turn the eight counts back
    // into SSE2 nibble arithmetic as it does with `count_ones`; each word's count read
    // from memory (the vectors stored once) rather than moved out of its vector (two
    // instructions more a pair of words).
    unsafe {
        std::arch::asm!(
            "popcnt {t}, qword ptr [{p}]",
            "popcnt {u}, qword ptr [{p} + 8]",
            "add {t}, {u}",
            "popcnt {u}, qword ptr [{p} + 16]",
            "add {t}, {u}",
            "popcnt {u}, qword ptr [{p} + 24]",
            "add {t}, {u}",
            "popcnt {u}, qword ptr [{p} + 32]",
            "add {t}, {u}",
            "popcnt {u}, qword ptr [{p} + 40]",
            "add {t}, {u}",
            "popcnt {u}, qword ptr [{p} + 48]",
            "add {t}, {u}",
            "popcnt {u}, qword ptr [{p} + 56]",
            "add {t}, {u}",
            p = in(reg) words.as_ptr(),
            t = out(reg) ones,
            u = out(reg) _,
            options(pure, readonly, nostack),
        );
    }
    ones
}

/// [`count`] with AVX-512: one 512-bit AND per chunk and block, and the popcount of eight
/// words in one instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt")]
fn count_avx512<const W: u32, const C: usize>(rows: &[Row], queries: &[u64]) -> u64 {
    let per_block = C << W;
    let blocks = rows.len() / per_block;
    let mut total = _mm512_setzero_si512();
    for &q in queries {
        let o = offsets::<W, C>(q);
        let mut acc = _mm512_setzero_si512();
        let mut base = rows.as_ptr();
        for _ in 0..blocks {
            // SAFETY: `base` walks the `blocks` whole blocks of `rows`, the offsets are those of
            // `offsets::<W, C>` (`row_at`), and rows are 64-byte aligned.
            unsafe {
                let mut x = _mm512_load_si512(row_at(base, o[0]).cast());
                for &oc in &o[1..] {
                    x = _mm512_and_si512(x, _mm512_load_si512(row_at(base, oc).cast()));
                }
                acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(x));
                base = base.add(per_block);
            }
        }
        let e = _mm_cvtsi64_si128((q >> WEIGHT_AT) as i64);
        total = _mm512_add_epi64(total, _mm512_sll_epi64(acc, e));
    }
    _mm512_reduce_add_epi64(total) as u64
}

/// Bytes of `v` replaced by their popcounts (4 bits of table lookup per half byte).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn popcount_bytes(v: __m256i) -> __m256i {
    let table = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
    );
    let low = _mm256_set1_epi8(0x0f);
    let lo = _mm256_and_si256(v, low);
    let hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low);
    _mm256_add_epi8(_mm256_shuffle_epi8(table, lo), _mm256_shuffle_epi8(table, hi))
}

/// The two 256-bit halves of the AND of the rows at offsets `o` of the block at `base`.
///
/// # Safety
/// `base` is the start of a whole block of `C << W` rows, `o` is [`offsets::<W, C>`] of a
/// query ([`row_at`]), and the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn halves<const C: usize>(base: *const Row, o: &[usize; C]) -> (__m256i, __m256i) {
    // SAFETY: by the contract above every row read is within the block; rows are 64-byte
    // aligned, so both 32-byte halves are aligned.
    unsafe {
        let first = row_at(base, o[0]).cast::<__m256i>();
        let (mut x, mut y) = (_mm256_load_si256(first), _mm256_load_si256(first.add(1)));
        for &oc in &o[1..] {
            let r = row_at(base, oc).cast::<__m256i>();
            x = _mm256_and_si256(x, _mm256_load_si256(r));
            y = _mm256_and_si256(y, _mm256_load_si256(r.add(1)));
        }
        (x, y)
    }
}

/// The first 256-bit half of the AND of the rows at offsets `o` of the block at `base`.
///
/// # Safety
/// As for [`halves`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn first_half<const C: usize>(base: *const Row, o: &[usize; C]) -> __m256i {
    // SAFETY: as in `halves`.
    unsafe {
        let mut x = _mm256_load_si256(row_at(base, o[0]).cast::<__m256i>());
        for &oc in &o[1..] {
            x = _mm256_and_si256(x, _mm256_load_si256(row_at(base, oc).cast::<__m256i>()));
        }
        x
    }
}

/// Blocks whose carries [`count_avx2`] counts in bytes before widening them: each block adds
/// at most 8 to a byte, so `8 * 31` stays below 256.
#[cfg(target_arch = "x86_64")]
const AVX2_BLOCKS_PER_WIDEN: usize = 31;

/// Weight exponents of a query: its bits from [`WEIGHT_AT`].
#[cfg(target_arch = "x86_64")]
const EXPONENTS: usize = 1 << (64 - WEIGHT_AT);

/// [`count`] with AVX2: two 256-bit ANDs per chunk and block, the popcount by half-byte table
/// lookups of the carries of a carry-save adder.
///
/// PERF: a table-lookup popcount of 256 bits takes 6 instructions, where AVX-512 has one
/// `vpopcntq` for 512. Each block's halves `x` and `y` are added bit by bit to a running
/// `ones` (a carry-save adder, 5 logic instructions) and only the carry (weight 2) is
/// counted: 12 instructions a block for the count instead of 15. The adder's state is kept
/// across the queries of the call, one `ones` per weight exponent (loaded at a query's start,
/// stored at its end), so that no query pays to start or end it (the popcount of `ones` and
/// its weighting); each `ones` is counted once, at the call's end. A query's carries' byte
/// counts widen to 64 bits at its end (or every [`AVX2_BLOCKS_PER_WIDEN`] blocks) and are
/// weighted there. Against an adder started and ended by each query (both with the unrolled
/// blocks below): 0.97x the kernel's instructions on an n = 20 share, 0.95x q(18)'s CPU time
/// (docs/performance.md, issue 54's fifth pass). A second level (`twos` kept too, the carries
/// of pairs of blocks counted at weight 4) was even (1.004x the instructions, 0.99x the time)
/// and is not kept.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn count_avx2<const W: u32, const C: usize>(rows: &[Row], half: bool, queries: &[u64]) -> u64 {
    let blocks = rows.len() / (C << W);
    if blocks == 0 {
        return 0;
    }
    // PERF: a call's queries all visit its `blocks` blocks: up to 8 the block loop is
    // unrolled (one copy per count, 5-bit chunks only: wider ones are the portable unit's),
    // so that every row is read at `base + offset + a constant`, with no loop nor the
    // per-query set-up of one pointer a chunk that the compiler makes for a loop (about 20
    // instructions a query, as much as a block's count at q(18)'s 2 to 7 blocks a query);
    // the widening's run loop only where a query has more blocks than a byte holds.
    macro_rules! unrolled {
        ($($b:literal)*) => {
            match blocks {
                $($b if half => count_avx2_with::<W, C, $b, true>(rows, queries),
                $b => count_avx2_with::<W, C, $b, false>(rows, queries),)*
                _ if blocks <= AVX2_BLOCKS_PER_WIDEN => count_avx2_with::<W, C, 0, false>(rows, queries),
                _ => count_avx2_with::<W, C, { usize::MAX }, false>(rows, queries),
            }
        };
    }
    let total = if W == CHUNK { unrolled!(1 2 3 4 5 6 7 8) } else { unrolled!() };
    let mut lanes = [0u64; 4];
    // SAFETY: `lanes` is 32 bytes; the store is unaligned.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), total) };
    lanes.iter().sum()
}

/// [`count_avx2`] on `B` blocks (1 to [`AVX2_BLOCKS_PER_WIDEN`]; 0: any number up to that,
/// `usize::MAX`: any number, the carries' byte counts widened every [`AVX2_BLOCKS_PER_WIDEN`]
/// blocks), the last one's keys in its first 256 bits when `half`: the weighted counts in
/// four 64-bit lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn count_avx2_with<const W: u32, const C: usize, const B: usize, const HALF: bool>(
    rows: &[Row],
    queries: &[u64],
) -> __m256i {
    let per_block = C << W;
    let blocks = if B == 0 || B == usize::MAX { rows.len() / per_block } else { B };
    // The block loop's reads rest on the first (a safe function: any caller may pass any
    // `B`), the carries' byte counts on the second. PERF: two comparisons a call, not a query.
    assert_eq!(blocks, rows.len() / per_block, "{B} blocks asked of {} rows", rows.len());
    assert!(B == usize::MAX || blocks <= AVX2_BLOCKS_PER_WIDEN, "{blocks} blocks without widening");
    let zero = _mm256_setzero_si256();
    let mut ones = [zero; EXPONENTS];
    let mut used = 0u32;
    let mut total = zero;
    for &q in queries {
        let o = offsets::<W, C>(q);
        let e = (q >> WEIGHT_AT) as usize;
        used |= 1 << e;
        let mut one = ones[e];
        let mut base = rows.as_ptr();
        let mut wide = zero;
        let mut left = blocks;
        loop {
            let run = if B == usize::MAX { left.min(AVX2_BLOCKS_PER_WIDEN) } else { left };
            let mut twos = zero;
            for i in 0..run {
                // PERF: the last block's first half only, where its keys fit in it; the
                // branch is the same for every query of the call, and with `B` blocks
                // unrolled is taken only in the last copy.
                let carry = if HALF && i + 1 == run && run == left {
                    // SAFETY: `base` is the last of the `blocks` whole blocks of `rows`.
                    let x = unsafe { first_half(base, &o) };
                    // The adder with `y = 0`: one + x = (x ^ one) + 2 (x & one).
                    let carry = _mm256_and_si256(x, one);
                    one = _mm256_xor_si256(x, one);
                    carry
                } else {
                    // SAFETY: `base` is one of the `blocks` whole blocks of `rows` (each run
                    // takes at most the blocks left).
                    let (x, y) = unsafe { halves(base, &o) };
                    // Carry-save adder: one + x + y = (x ^ y ^ one) + 2 majority(x, y, one).
                    let u = _mm256_xor_si256(x, y);
                    let carry = _mm256_or_si256(_mm256_and_si256(x, y), _mm256_and_si256(u, one));
                    one = _mm256_xor_si256(u, one);
                    carry
                };
                twos = _mm256_add_epi8(twos, popcount_bytes(carry));
                // SAFETY: at most one past the end of `rows`.
                base = unsafe { base.add(per_block) };
            }
            wide = _mm256_add_epi64(wide, _mm256_sad_epu8(twos, zero));
            left -= run;
            if left == 0 {
                break;
            }
        }
        ones[e] = one;
        let weight = _mm_cvtsi64_si128(e as i64 + 1);
        total = _mm256_add_epi64(total, _mm256_sll_epi64(wide, weight));
    }
    while used != 0 {
        let e = used.trailing_zeros();
        used &= used - 1;
        let bytes = _mm256_sad_epu8(popcount_bytes(ones[e as usize]), zero);
        total = _mm256_add_epi64(total, _mm256_sll_epi64(bytes, _mm_cvtsi64_si128(i64::from(e))));
    }
    total
}

/// Blocks whose byte counts [`count_neon`] adds in 16-bit lanes before widening them: each
/// block adds at most 64 to a lane (two bytes of at most 32), so 1023 blocks stay below 2^16.
#[cfg(target_arch = "aarch64")]
const NEON_BLOCKS_PER_WIDEN: usize = 1023;

/// [`count`] with NEON: four 128-bit ANDs per chunk and block (the last block's first `LAST`
/// only, the quarters that hold its keys), the popcount per byte (`cnt`) added up in 16-bit
/// lanes, widened every [`NEON_BLOCKS_PER_WIDEN`] blocks.
#[cfg(target_arch = "aarch64")]
#[target_feature(enable = "neon")]
fn count_neon<const W: u32, const C: usize, const LAST: usize>(rows: &[Row], queries: &[u64]) -> u64 {
    let per_block = C << W;
    let blocks = rows.len() / per_block;
    // PERF: as in `count_popcnt`, a partial last block is counted on its quarters that hold
    // keys, after the others.
    let partial = LAST < 4 && blocks > 0;
    let full = blocks - usize::from(partial);
    let mut total = 0u64;
    for &q in queries {
        let o = offsets::<W, C>(q);
        let mut acc = vdupq_n_u32(0);
        let mut base = rows.as_ptr();
        let mut left = full;
        while left > 0 {
            let run = left.min(NEON_BLOCKS_PER_WIDEN);
            let mut bytes_sum = vdupq_n_u16(0);
            for _ in 0..run {
                // SAFETY: `base` walks the `blocks` whole blocks of `rows` and `o` is
                // `offsets::<W, C>(q)`.
                bytes_sum = vpadalq_u8(bytes_sum, unsafe { block_bytes::<C, 4>(base, &o) });
                // SAFETY: at most one past the end of `rows`.
                base = unsafe { base.add(per_block) };
            }
            acc = vpadalq_u16(acc, bytes_sum);
            left -= run;
        }
        if partial {
            // SAFETY: `base` is the last of the `blocks` whole blocks (`full = blocks - 1`).
            acc = vpadalq_u16(acc, vpaddlq_u8(unsafe { block_bytes::<C, LAST>(base, &o) }));
        }
        total += vaddlvq_u32(acc) << (q >> WEIGHT_AT);
    }
    total
}

/// The byte counts (at most 32 each) of the AND of the first `K` 128-bit quarters of the rows
/// at offsets `o` of the block at `base`.
///
/// # Safety
/// `base` is the start of a whole block of rows and `o` the [`offsets`] of a query for its
/// width and `C` chunks ([`row_at`]). `K` is at most 4 (a row's 64 bytes; asserted at compile
/// time).
#[cfg(target_arch = "aarch64")]
#[target_feature(enable = "neon")]
#[inline]
unsafe fn block_bytes<const C: usize, const K: usize>(base: *const Row, o: &[usize; C]) -> uint8x16_t {
    const { assert!(K >= 1 && K <= 4, "a row holds four 128-bit quarters") };
    // SAFETY: by the contract every row read is within the block; a row is 64 bytes: `K <= 4`
    // 16-byte loads within it.
    let x: [uint64x2_t; K] = unsafe {
        let first = row_at(base, o[0]).cast::<u64>();
        let mut x: [uint64x2_t; K] = std::array::from_fn(|k| vld1q_u64(first.add(2 * k)));
        for &oc in &o[1..] {
            let r = row_at(base, oc).cast::<u64>();
            for (k, x) in x.iter_mut().enumerate() {
                *x = vandq_u64(*x, vld1q_u64(r.add(2 * k)));
            }
        }
        x
    };
    // PERF: the byte counts (at most 8 each) are added as bytes, then pairwise into the
    // caller's 16-bit lanes: two instructions per block for the sum.
    let mut bytes = vcntq_u8(vreinterpretq_u8_u64(x[0]));
    for &v in &x[1..] {
        bytes = vaddq_u8(bytes, vcntq_u8(vreinterpretq_u8_u64(v)));
    }
    bytes
}

// ---------------------------------------------------------------------------------------
// Scan of short key lists

/// Weighted pairs (query, key) with disjoint key bits, testing every pair.
pub(super) fn scan(isa: Isa, keys: &[u64], queries: &[u64]) -> u64 {
    match usable(isa) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `usable` returns at most `Isa::best()`: the CPU has AVX-512 F and `popcnt`
        // (`cpu::features`), all that `scan_avx512` is compiled with.
        Isa::Avx512 => unsafe { scan_avx512(keys, queries) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has AVX2 and `popcnt`.
        Isa::Avx2 => unsafe { scan_avx2(keys, queries) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has NEON.
        Isa::Neon => unsafe { scan_neon(keys, queries) },
        _ => scan_portable(keys, queries),
    }
}

/// [`scan`] in plain Rust.
#[inline(always)]
fn scan_portable(keys: &[u64], queries: &[u64]) -> u64 {
    queries.iter().map(|&q| keys.iter().map(|&k| (k & q == 0) as u64).sum::<u64>() << (q >> WEIGHT_AT)).sum()
}

/// [`scan`] with AVX-512: 8 pairs per test instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
fn scan_avx512(keys: &[u64], queries: &[u64]) -> u64 {
    let mut total = 0u64;
    for &q in queries {
        let qv = _mm512_set1_epi64(q as i64);
        let mut hits = 0u32;
        for j in (0..keys.len()).step_by(8) {
            let lanes: __mmask8 = if keys.len() - j >= 8 { 0xff } else { (1u8 << (keys.len() - j)) - 1 };
            // SAFETY: a masked load reads only lanes `j..keys.len()` (masked-off lanes do not
            // fault).
            let k = unsafe { _mm512_maskz_loadu_epi64(lanes, keys.as_ptr().add(j).cast()) };
            hits += _mm512_mask_testn_epi64_mask(lanes, k, qv).count_ones();
        }
        total += u64::from(hits) << (q >> WEIGHT_AT);
    }
    total
}

/// [`scan`] with AVX2: 4 pairs per step, the rest one by one.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn scan_avx2(keys: &[u64], queries: &[u64]) -> u64 {
    let zero = _mm256_setzero_si256();
    let whole = keys.len() / 4 * 4;
    let mut total = 0u64;
    for &q in queries {
        let qv = _mm256_set1_epi64x(q as i64);
        let mut hits = 0u32;
        for j in (0..whole).step_by(4) {
            // SAFETY: `j + 4 <= whole <= keys.len()`; the load is unaligned.
            let k = unsafe { _mm256_loadu_si256(keys.as_ptr().add(j).cast()) };
            let free = _mm256_cmpeq_epi64(_mm256_and_si256(k, qv), zero);
            hits += (_mm256_movemask_pd(_mm256_castsi256_pd(free)) as u32).count_ones();
        }
        hits += keys[whole..].iter().map(|&k| (k & q == 0) as u32).sum::<u32>();
        total += u64::from(hits) << (q >> WEIGHT_AT);
    }
    total
}

/// [`scan`] with NEON: 2 pairs per step (a fitting pair's all-ones lane subtracted from the
/// count: one added), the last key alone.
#[cfg(target_arch = "aarch64")]
#[target_feature(enable = "neon")]
fn scan_neon(keys: &[u64], queries: &[u64]) -> u64 {
    let whole = keys.len() / 2 * 2;
    let mut total = 0u64;
    for &q in queries {
        let qv = vdupq_n_u64(q);
        let mut hits = vdupq_n_u64(0);
        for j in (0..whole).step_by(2) {
            // SAFETY: `j + 2 <= whole <= keys.len()`; the load is unaligned.
            let k = unsafe { vld1q_u64(keys.as_ptr().add(j)) };
            hits = vsubq_u64(hits, vceqzq_u64(vandq_u64(k, qv)));
        }
        let hits = vaddvq_u64(hits) + keys[whole..].iter().map(|&k| (k & q == 0) as u64).sum::<u64>();
        total += hits << (q >> WEIGHT_AT);
    }
    total
}
