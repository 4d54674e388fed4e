//! A group of the join's pairs in their packed form (docs/gpu.md, "Pairs in their packed
//! width"): instead of the kernel's 8 words (32 bytes) a pair, the host sends each pair's
//! *key side* (its rows, blocks, tail and weight, the same for every pair of one stored key
//! group: the library lists a key group's pairs one after the other) once per run of pairs
//! that share it, and per pair only the index of its run, its first query and its query
//! count, each in the bits the group's widest value needs, back to back. `pairs.wgsl` writes
//! the pairs out on the device as the kernel reads them, their running sums of tiles made
//! there (a workgroup's prefix sum per entry of 512 pairs).
//!
//! Wrong widths are caught: the host refuses a value that does not fit its width, and the
//! device holds each entry's pairs as written out (all 8 words, the running sums of tiles
//! included) against a checksum and the entry's last running sum that the host computed from
//! the pairs themselves, and checks every pair's reads inside the batch's buffers (what the
//! trusted join kernel relies on), raising `FAULT_CUT` otherwise. The checksum
//! ([`entry_term`]) folds each pair's words in one after the other by xorshifts and a
//! multiply, from a key of the pair's place in the entry, and mixes the result: a change of
//! any one word is always caught; changes of several words are a hash's odds, not a code's
//! guarantee (the tests try the patterns that cancelled in the linear checksum it replaced,
//! the same bit flipped in two words and words swapped, and a word's bit with one or two bits
//! of the next word).

/// Words of one pair as the kernel reads it (`join.wgsl`'s `Pair`).
pub(crate) const PAIR_WORDS: usize = 8;

/// Pairs of one entry (one workgroup of `pairs.wgsl`, 8 a lane).
pub(crate) const PAIR_ENTRY: usize = 512;

/// Words of an entry: the running sum of tiles at its last pair, its checksum.
const ENTRY_WORDS: usize = 2;

/// Words of a run: `[row, blocks, tail, tail_len | shift << 16]`.
const RUN_WORDS: usize = 4;

/// Bytes of the pairs pass's parameters (`pairs.wgsl`'s `Params`).
pub(crate) const PAIR_PARAM_BYTES: u64 = 48;

/// Words written after the stream (the device reads the word after a field's first).
const SPARE_WORDS: usize = 1;

/// How one group of pairs is packed: where its parts lie in the words uploaded, and the
/// widths of its fields (bits; 0 to 32).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PairPacking {
    /// Pairs of the group, and their runs (of equal key sides).
    pub(crate) pairs: u32,
    pub(crate) runs: u32,
    /// Bits of a pair's run index, first query and query count.
    pub(crate) widths: [u32; 3],
    /// Words of the entries (from 0), the runs and the stream.
    pub(crate) runs_at: u32,
    pub(crate) stream_at: u32,
    /// Words in all.
    pub(crate) words: u32,
}

/// The bits `v` needs (0 for 0).
fn bits(v: u32) -> u32 {
    32 - v.leading_zeros()
}

/// Whether two pairs share their key side (rows, blocks, tail, weight word).
fn same_key_side(a: &[u32; PAIR_WORDS], b: &[u32; PAIR_WORDS]) -> bool {
    a[0] == b[0] && a[1] == b[1] && a[4] == b[4] && a[5] == b[5] && a[6] == b[6]
}

/// The checksum's final mix of a pair's chain: a bijection of `u32` whose output bits each
/// depend on every input bit (C. Wellons's `lowbias32`), the same as `pairs.wgsl`'s `mix`
/// (the tests that write pairs out on the device hold the two equal: a difference faults
/// every entry).
fn mix(x: u32) -> u32 {
    let x = (x ^ x >> 16).wrapping_mul(0x7feb_352d);
    let x = (x ^ x >> 15).wrapping_mul(0x846c_a68b);
    x ^ x >> 16
}

/// One step of a pair's chain: the word folded in by an xorshift, a multiply and an xorshift
/// (a bijection of `h ^ w`), the same as `pairs.wgsl`'s `step`.
///
/// The first xorshift brings the high bits down before the multiply: without it a change of
/// the top bit of `h ^ w` left the product's other bits alone, so the step's output changed
/// by a fixed pattern (bits 31 and 15) that the next word, changed by that pattern, cancelled
/// every time (the review found `[0, 1 << 31, (1 << 31) | (1 << 15), 0, ...]` let through).
/// Now a change below the top bit reaches the multiply's carries, which depend on the data.
fn step(h: u32, w: u32) -> u32 {
    let y = h ^ w;
    let y = (y ^ y >> 16).wrapping_mul(0x7feb_352d);
    y ^ y >> 15
}

/// Pair `k` of an entry (0 to 511), its share of the entry's checksum as the device computes
/// it over the words it writes out: from a key of its place (`k + 1` times an odd constant),
/// its 8 words folded in one after the other ([`step`]), the result mixed. The entry's
/// checksum is the sum of its pairs' shares (an order the device's lanes may add in). Each
/// step is a bijection, so a pair's share is one of each of its words: a change of one word
/// always changes it.
pub(crate) fn entry_term(p: &[u32; PAIR_WORDS], k: usize) -> u32 {
    mix(p.iter().fold((k as u32 + 1).wrapping_mul(0x9e37_79b9), |h, &w| step(h, w)))
}

impl PairPacking {
    /// The packing of `group` (pairs as the kernel reads them, running sums of tiles in word
    /// 7), its fields in the widths of its widest values. (Not inlined: its cost, one pass
    /// over the group, shows apart in a profile.)
    #[inline(never)]
    pub(crate) fn of(group: &[[u32; PAIR_WORDS]]) -> PairPacking {
        let (mut runs, mut query, mut count) = (0u32, 0u32, 0u32);
        for (i, p) in group.iter().enumerate() {
            if i == 0 || !same_key_side(&group[i - 1], p) {
                runs += 1;
            }
            query |= p[2];
            count |= p[3];
        }
        Self::with_widths(group.len(), runs, [bits(runs.saturating_sub(1)), bits(query), bits(count)])
    }

    /// The layout of `pairs` pairs in `runs` runs with fields of `widths` bits.
    fn with_widths(pairs: usize, runs: u32, widths: [u32; 3]) -> PairPacking {
        let entries = pairs.div_ceil(PAIR_ENTRY);
        let runs_at = ENTRY_WORDS * entries;
        let stream_at = runs_at + RUN_WORDS * runs as usize;
        let stride: u64 = widths.iter().map(|&w| u64::from(w)).sum();
        let stream = (pairs as u64 * stride).div_ceil(32) as usize;
        PairPacking {
            pairs: pairs as u32,
            runs,
            widths,
            runs_at: runs_at as u32,
            stream_at: stream_at as u32,
            words: (stream_at + stream + SPARE_WORDS) as u32,
        }
    }

    /// Entries (workgroups of `pairs.wgsl`).
    pub(crate) fn entries(&self) -> u32 {
        self.pairs.div_ceil(PAIR_ENTRY as u32)
    }

    /// Bytes uploaded.
    pub(crate) fn bytes(&self) -> u64 {
        4 * u64::from(self.words)
    }

    /// Whether packing saves bytes: packed with the pass's parameters, fewer than the 32 a
    /// pair as it lies (not for a group of a few pairs, which is sent as it lies).
    pub(crate) fn worth_it(&self) -> bool {
        self.bytes() + PAIR_PARAM_BYTES < 32 * u64::from(self.pairs)
    }

    /// Bytes of the group as sent: packed when [`PairPacking::worth_it`], else 32 a pair
    /// (the pass's parameters aside).
    pub(crate) fn sent_bytes(&self) -> u64 {
        if self.worth_it() { self.bytes() } else { 32 * u64::from(self.pairs) }
    }

    /// Writes `group` (that of [`PairPacking::of`]) packed into `out` (resized to
    /// [`PairPacking::words`]): the entries, the runs, the stream. `Err` names the first value
    /// that does not fit its field (a run's tail or weight past 16 bits, a pair's field past
    /// its width, a stream past 2^32 bits: a fault of the host, never of the data).
    pub(crate) fn write(&self, group: &[[u32; PAIR_WORDS]], out: &mut Vec<u32>) -> Result<(), String> {
        let [rb, qb, cb] = self.widths;
        let stride = rb + qb + cb;
        if group.len() != self.pairs as usize || group.len() as u64 * u64::from(stride) >= 1 << 32 || cb > 32
        {
            return Err(format!("{} pairs of {stride} bits packed as {}", group.len(), self.pairs));
        }
        out.clear();
        out.resize(self.words as usize, 0);
        let (entries, rest) = out.split_at_mut(self.runs_at as usize);
        let (runs, stream) = rest.split_at_mut(self.stream_at as usize - self.runs_at as usize);
        let mut writer = BitWriter { out: stream, at: 0, acc: 0, filled: 0 };
        let mut run = 0u32;
        let mut last: Option<&[u32; PAIR_WORDS]> = None;
        for (e, chunk) in group.chunks(PAIR_ENTRY).enumerate() {
            let mut h = 0u32;
            for (k, p) in chunk.iter().enumerate() {
                if last.is_none_or(|l| !same_key_side(l, p)) {
                    run += u32::from(last.is_some());
                    let at = RUN_WORDS * run as usize;
                    let r = runs.get_mut(at..at + RUN_WORDS).ok_or("more runs than counted")?;
                    if p[5] >> 16 != 0 || p[6] >> 16 != 0 {
                        return Err(format!("pair {p:?}: a tail or weight word past 16 bits"));
                    }
                    r.copy_from_slice(&[p[0], p[1], p[4], p[5] | p[6] << 16]);
                }
                last = Some(p);
                let (q, c) = (u64::from(p[2]), u64::from(p[3]));
                if u64::from(run) >> rb | q >> qb | c >> cb != 0 {
                    return Err(format!(
                        "pair {p:?} of run {run}: a value does not fit {:?} bits",
                        self.widths
                    ));
                }
                // PERF: the three fields in one write (two when they pass 64 bits).
                let head = u64::from(run) | q << rb;
                if stride <= 64 {
                    writer.put(head | c.checked_shl(rb + qb).unwrap_or(0), stride);
                } else {
                    writer.put(head, rb + qb);
                    writer.put(c, cb);
                }
                h = h.wrapping_add(entry_term(p, k));
            }
            entries[ENTRY_WORDS * e..ENTRY_WORDS * (e + 1)].copy_from_slice(&[chunk[chunk.len() - 1][7], h]);
        }
        if run + u32::from(last.is_some()) != self.runs {
            return Err(format!("{} runs where {} were counted", run + 1, self.runs));
        }
        writer.flush();
        Ok(())
    }
}

/// Writes fields of 0 to 64 bits back to back, little-endian, into words.
struct BitWriter<'a> {
    out: &'a mut [u32],
    at: usize,
    acc: u128,
    filled: u32,
}

impl BitWriter<'_> {
    fn put(&mut self, v: u64, width: u32) {
        debug_assert!(width <= 64 && self.filled < 64);
        self.acc |= u128::from(v) << self.filled;
        self.filled += width;
        if self.filled >= 64 {
            self.out[self.at..self.at + 2].copy_from_slice(&[self.acc as u32, (self.acc >> 32) as u32]);
            self.at += 2;
            self.acc >>= 64;
            self.filled -= 64;
        }
    }

    fn flush(&mut self) {
        let words = self.filled.div_ceil(32) as usize;
        for w in 0..words {
            self.out[self.at + w] = (self.acc >> (32 * w)) as u32;
        }
    }
}

/// The packed pairs read back as the device writes them out (a test's reference for
/// `pairs.wgsl`, and the check of [`PairPacking::write`]).
#[cfg(test)]
pub(crate) fn unpack(p: &PairPacking, words: &[u32]) -> Vec<[u32; PAIR_WORDS]> {
    let stride: u64 = p.widths.iter().map(|&w| u64::from(w)).sum();
    let field = |at: u64, w: u32| -> u32 {
        let bit = 32 * u64::from(p.stream_at) + at;
        let lo = u64::from(words[(bit / 32) as usize]) | u64::from(words[(bit / 32) as usize + 1]) << 32;
        ((lo >> (bit % 32)) & ((1u64 << w) - 1)) as u32
    };
    let mut tiles = 0u32;
    (0..u64::from(p.pairs))
        .map(|i| {
            let [rb, qb, _] = p.widths;
            let (r, q, c) = (
                field(i * stride, rb),
                field(i * stride + u64::from(rb), qb),
                field(i * stride + u64::from(rb + qb), p.widths[2]),
            );
            let k = p.runs_at as usize + RUN_WORDS * r as usize;
            let run = &words[k..k + RUN_WORDS];
            tiles += (run[1] + u32::from(run[3] & 0xffff > 0)) * c.div_ceil(256);
            [run[0], run[1], q, c, run[2], run[3] & 0xffff, run[3] >> 16, tiles]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs as the join lists them: runs of a key side against query groups, running sums
    /// of tiles in word 7.
    fn group(pairs: &[([u32; 5], u32, u32)]) -> Vec<[u32; PAIR_WORDS]> {
        let mut tiles = 0;
        pairs
            .iter()
            .map(|&([row, blocks, tail, tail_len, shift], q, c)| {
                tiles += (blocks + u32::from(tail_len > 0)) * c.div_ceil(256);
                [row, blocks, q, c, tail, tail_len, shift, tiles]
            })
            .collect()
    }

    /// The widths come from the widest value of each field (a run index, a first query, a
    /// query count), at each bit boundary up to 32 bits; the runs are the changes of key
    /// side; the words read back are the pairs.
    #[test]
    fn widths_fit_the_widest_value_and_read_back() {
        let a = [0, 2, 1024, 5, 1];
        let b = [64, 0, 7, 300, 0];
        for top in [0u32, 1, 2, 3, 255, 256, (1 << 31) - 1, 1 << 31, u32::MAX] {
            let g = group(&[(a, top, 1), (a, 3, top.max(1)), (b, 0, 2), (a, top / 2, 7)]);
            let p = PairPacking::of(&g);
            let wide = bits(top.max(3));
            assert_eq!((p.pairs, p.runs), (4, 3), "{top}");
            assert_eq!(p.widths, [2, wide, bits(top.max(7))], "{top}");
            let mut out = Vec::new();
            p.write(&g, &mut out).unwrap();
            assert_eq!(out.len(), p.words as usize);
            assert_eq!(unpack(&p, &out), g, "{top}");
        }
        // One run, every value zero but a count of 1: fields of 0 bits.
        let g = group(&[(a, 0, 1); 3]);
        let p = PairPacking::of(&g);
        assert_eq!((p.runs, p.widths), (1, [0, 0, 1]));
        let mut out = Vec::new();
        p.write(&g, &mut out).unwrap();
        assert_eq!(unpack(&p, &out), g);
        // Empty: nothing but the spare words.
        let p = PairPacking::of(&[]);
        assert_eq!((p.pairs, p.entries(), p.words), (0, 0, SPARE_WORDS as u32));
        p.write(&[], &mut out).unwrap();
    }

    /// A value past its field's width is refused, not cut: every field narrowed by one bit,
    /// a run's tail or weight past 16 bits.
    #[test]
    fn a_value_past_its_width_is_refused() {
        let g = group(&[([0, 2, 9, 5, 1], 1000, 300), ([64, 1, 0, 0, 2], 77, 1)]);
        let p = PairPacking::of(&g);
        let mut out = Vec::new();
        for f in 0..3 {
            let mut narrow = p;
            narrow.widths[f] -= 1;
            let narrow = PairPacking::with_widths(2, 2, narrow.widths);
            let e = narrow.write(&g, &mut out).unwrap_err();
            assert!(e.contains("does not fit"), "{f}: {e}");
        }
        for (w, v) in [(5, 1 << 16), (6, 1 << 16)] {
            let mut bad = g.clone();
            bad[1][w] = v;
            let e = PairPacking::of(&bad).write(&bad, &mut out).unwrap_err();
            assert!(e.contains("past 16 bits"), "{e}");
        }
    }

    /// The entries: each's last running sum of tiles and its checksum over its pairs.
    #[test]
    fn entries_hold_the_last_running_sum_and_a_checksum() {
        let g: Vec<_> = group(
            &(0..1100u32).map(|i| ([i / 7 * 64, 1, 0, i / 7 % 3, 0], i, 1 + i % 600)).collect::<Vec<_>>(),
        );
        let p = PairPacking::of(&g);
        assert_eq!((p.entries(), p.runs), (3, 158));
        let mut out = Vec::new();
        p.write(&g, &mut out).unwrap();
        for e in 0..3 {
            let last = (PAIR_ENTRY * (e + 1)).min(g.len()) - 1;
            let sum =
                (PAIR_ENTRY * e..=last).fold(0u32, |h, i| h.wrapping_add(entry_term(&g[i], i % PAIR_ENTRY)));
            assert_eq!(&out[2 * e..2 * e + 2], &[g[last][7], sum]);
        }
        assert_eq!(unpack(&p, &out), g);
    }

    /// The checksum of an entry's pairs catches, on 16 pairs as the join lists them (runs of
    /// a key side, small values, many words alike): every word changed in one bit (always,
    /// by construction), every two words with the same bit flipped (every bit, every two of
    /// the 128 words), every two unequal words swapped, every two unequal pairs swapped. The
    /// linear checksum it replaced let many of these through (the first found: bit 23 of
    /// words 0 and 14; every two flips of bit 31, their change 2^31 times an even number).
    #[test]
    fn the_entry_checksum_catches_flipped_bits_and_swapped_words() {
        let checksum = |pairs: &[[u32; PAIR_WORDS]]| {
            pairs.iter().enumerate().fold(0u32, |h, (k, p)| h.wrapping_add(entry_term(p, k)))
        };
        let g = group(
            &(0..16u32)
                .map(|i| {
                    ([i / 3 * 224, 1 + i / 3 % 2, i / 3 * 512, i / 3 % 2 * 100, i / 3 % 3], 5 * i, 1 + i % 4)
                })
                .collect::<Vec<_>>(),
        );
        let words: Vec<u32> = g.iter().flatten().copied().collect();
        let sum_of = |w: &[u32]| {
            let pairs: Vec<[u32; PAIR_WORDS]> =
                w.chunks(PAIR_WORDS).map(|p| std::array::from_fn(|i| p[i])).collect();
            checksum(&pairs)
        };
        let want = sum_of(&words);
        let mut w = words.clone();
        for a in 0..words.len() {
            for bit in 0..32 {
                w[a] ^= 1 << bit;
                assert_ne!(sum_of(&w), want, "word {a} bit {bit}");
                for b in a + 1..words.len() {
                    w[b] ^= 1 << bit;
                    assert_ne!(sum_of(&w), want, "words {a} and {b}, bit {bit}");
                    w[b] ^= 1 << bit;
                }
                w[a] ^= 1 << bit;
            }
            for b in a + 1..words.len() {
                if words[a] != words[b] {
                    w.swap(a, b);
                    assert_ne!(sum_of(&w), want, "words {a} and {b} swapped");
                    w.swap(a, b);
                }
            }
        }
        // A word changed at one bit and the next word of its pair at one or two bits: the
        // pattern of the last step's output that a fixed change of the next word would cancel
        // (the top bit, then bits 31 and 15, cancelled every time before `step`'s first
        // xorshift).
        for a in (0..words.len()).filter(|a| a % PAIR_WORDS + 1 < PAIR_WORDS) {
            for bit in 0..32 {
                w[a] ^= 1 << bit;
                for (x, y) in (0..32).flat_map(|x| (x..32).map(move |y| (x, y))) {
                    let flip = (1u32 << x) | (1u32 << y);
                    w[a + 1] ^= flip;
                    assert_ne!(sum_of(&w), want, "word {a} bit {bit}, word {} bits {x} and {y}", a + 1);
                    w[a + 1] ^= flip;
                }
                w[a] ^= 1 << bit;
            }
        }
        for (j, k) in (0..g.len()).flat_map(|j| (j + 1..g.len()).map(move |k| (j, k))) {
            if g[j] != g[k] {
                let mut s = g.clone();
                s.swap(j, k);
                assert_ne!(checksum(&s), want, "pairs {j} and {k} swapped");
            }
        }
    }

    /// What packing costs the host per pair (the runs and widths found, the words written),
    /// against the plain copy of 32 bytes a pair it replaces, on 1 M pairs as a batch of
    /// n = 27 lists them (runs of 1 to 16 pairs of a key group, first queries below 2^22,
    /// counts below 2^12), the fastest of 20 runs of each:
    /// `cargo test --release -p damier-gpu --lib -- --ignored pair_packing_costs --nocapture`.
    #[test]
    #[ignore = "a measurement; see the doc comment for the command"]
    fn pair_packing_costs_per_pair() {
        let mut next = crate::test_adapter::stream(0x9e37_79b9_7f4a_7c15);
        let mut pairs = Vec::with_capacity(1 << 20);
        let mut run = 0u32;
        while pairs.len() < 1 << 20 {
            let side = [run * 224, 1 + run % 7, run * 512, (run % 3) * 100, run % 3];
            for _ in 0..1 + next() % 16 {
                pairs.push((side, (next() % (1 << 22)) as u32, 1 + (next() % 4095) as u32));
            }
            run += 1;
        }
        pairs.truncate(1 << 20);
        let g = group(&pairs);
        let n = g.len() as f64;
        let (mut out, mut copy): (Vec<u32>, Vec<u8>) = (Vec::new(), Vec::new());
        let (mut packed, mut copied) = (f64::MAX, f64::MAX);
        let mut p = PairPacking::of(&g);
        for _ in 0..20 {
            let start = std::time::Instant::now();
            p = PairPacking::of(&g);
            p.write(&g, &mut out).unwrap();
            packed = packed.min(start.elapsed().as_secs_f64());
            let start = std::time::Instant::now();
            copy.clear();
            copy.extend_from_slice(bytemuck::cast_slice(&g));
            copied = copied.min(start.elapsed().as_secs_f64());
        }
        eprintln!(
            "packing {:.2} ns a pair ({} runs, widths {:?}, {:.2} bytes a pair), copying 32 bytes {:.2} ns",
            packed / n * 1e9,
            p.runs,
            p.widths,
            p.bytes() as f64 / n,
            copied / n * 1e9
        );
        std::hint::black_box((&out, &copy));
    }
}
