//! The bit-sliced kernels of a synchronous generation: a row's next counts and waves from the
//! current planes, 256 cells a block of 4 words, with AVX2 where the processor has it (every
//! kernel computes the same bits as the cell-at-a-time rule).

use super::layout::{BLOCK, DX, EAST_P, PLANES, WALKING, WEST};

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
pub(super) struct Fields<'a> {
    pub(super) cur: &'a [u64],
    /// A row of zero planes: the source of the counts that would come from off the board.
    pub(super) zeros: &'a [u64],
    pub(super) n: usize,
    pub(super) wpp: usize,
    pub(super) cap: u8,
    pub(super) hide: bool,
    pub(super) col: &'a [u32],
    pub(super) qs: &'a [u16],
    pub(super) pad: &'a [u64],
    /// The processor has AVX2 (the same kernel, compiled for it).
    #[cfg(target_arch = "x86_64")]
    pub(super) avx2: bool,
}

impl Fields<'_> {
    /// Row `y`'s next planes into `out`, with the widest kernel the processor runs (every
    /// kernel computes the same bits).
    /// Returns the current field bits of the row's queen cell
    /// ([`RowBoard::fields`](super::RowBoard::fields)).
    #[inline(always)]
    pub(super) fn row(&self, y: usize, out: &mut [u64]) -> u32 {
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
    /// counts, [`FAR`](super::FAR) beyond the board), and its next waves
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
