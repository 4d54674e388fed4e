//! A batch's stored keys and queries in their packed width (docs/gpu.md, "Sealing on the
//! GPU"): each the bytes its bits need (4 to 8, the same for every key of the batch, and for
//! every query), little-endian and back to back, a query's weight exponent in its 2 low bits
//! and its key above, instead of 8 bytes each; `unpack.wgsl` writes them out on the device as
//! the (low word, high word) pairs the seal pass and the join kernel read. What is sent is
//! what the library gave, bit for bit: the widths come from the batch's own keys (the
//! widest key's bits), and a batch with a weight exponent past 3 (none the library makes)
//! sends its queries as they lie.

use damier::queens::count::join::WEIGHT_AT;

/// Keys or queries of one unpacking entry (one workgroup of `unpack.wgsl`).
pub(crate) const ENTRY: usize = 512;

/// Bytes of one entry (`unpack.wgsl`'s `Entry`).
pub(crate) const ENTRY_BYTES: u64 = 16;

/// An entry's kind (in its `len` word): queries (else stored keys).
const QUERIES: u32 = 1 << 24;

/// An entry's query code (in its `code` word): `key << 2 | exponent`.
const CODED: u32 = 1 << 8;

/// The key bits of a query (below its weight exponent).
const KEY_BITS: u64 = (1 << WEIGHT_AT) - 1;

/// How one batch's keys and queries are packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Packing {
    /// Stored keys and queries.
    pub(crate) keys: usize,
    pub(crate) queries: usize,
    /// Bytes of a stored key, of a query (4 to 8).
    pub(crate) key_width: u32,
    pub(crate) query_width: u32,
    /// Whether each query is sent as `key << 2 | weight exponent` (every exponent below 4),
    /// else as it lies (8 bytes).
    pub(crate) coded: bool,
}

/// Bytes an element of `bits` bits takes (at least 4: the device reads whole words).
fn width(bits: u32) -> u32 {
    bits.div_ceil(8).clamp(4, 8)
}

/// `bytes` rounded up to whole words (what a device write takes).
fn words(bytes: u64) -> u64 {
    bytes.next_multiple_of(4)
}

impl Packing {
    /// The packing of the stored keys `keys` and the queries `queries`.
    pub(crate) fn of(keys: &[u64], queries: &[u64]) -> Packing {
        let key_bits = 64 - keys.iter().fold(0, |a, &k| a | k).leading_zeros();
        let (key_or, exponent) =
            queries.iter().fold((0, 0), |(a, e), &q| (a | q & KEY_BITS, e.max(q >> WEIGHT_AT)));
        let coded = exponent < 4;
        let query_width = if coded { width(64 - key_or.leading_zeros() + 2) } else { 8 };
        Packing { keys: keys.len(), queries: queries.len(), key_width: width(key_bits), query_width, coded }
    }

    /// Bytes of the stored keys (whole words; the queries follow).
    pub(crate) fn key_bytes(&self) -> u64 {
        words(self.keys as u64 * u64::from(self.key_width))
    }

    /// Bytes of the queries (whole words).
    pub(crate) fn query_bytes(&self) -> u64 {
        words(self.queries as u64 * u64::from(self.query_width))
    }

    /// Bytes of the whole (whole words).
    pub(crate) fn bytes(&self) -> u64 {
        self.key_bytes() + self.query_bytes()
    }

    /// Writes `keys` and `queries` (those of [`Packing::of`]) packed into `out`, of
    /// [`Packing::bytes`] bytes: the keys, then the queries from [`Packing::key_bytes`], the
    /// bytes between them and at the end zero.
    pub(crate) fn write(&self, out: &mut [u8], keys: &[u64], queries: &[u64]) {
        debug_assert_eq!(
            (keys.len(), queries.len(), out.len() as u64),
            (self.keys, self.queries, self.bytes())
        );
        let (k, q) = out.split_at_mut(self.key_bytes() as usize);
        let written = put(k, self.key_width, keys.iter().copied());
        k[written..].fill(0);
        let written = if self.coded {
            put(q, self.query_width, queries.iter().map(|&q| (q & KEY_BITS) << 2 | q >> WEIGHT_AT))
        } else {
            put(q, self.query_width, queries.iter().copied())
        };
        q[written..].fill(0);
    }

    /// How many unpacking entries the batch has ([`Packing::entries`]).
    pub(crate) fn entry_count(&self) -> usize {
        self.keys.div_ceil(ENTRY) + self.queries.div_ceil(ENTRY)
    }

    /// The unpacking entries of the batch, its packed bytes from byte `byte` of the device's
    /// buffer, its keys and queries written out from indices `first` (key, query), each
    /// entry's units into partial sum `partial`.
    pub(crate) fn entries(&self, byte: u64, first: (u32, u32), partial: u32) -> Vec<[u32; 4]> {
        let mut out = Vec::with_capacity(self.entry_count());
        let sides = [
            (byte, self.keys, self.key_width, first.0, 0, self.key_width),
            (
                byte + self.key_bytes(),
                self.queries,
                self.query_width,
                first.1,
                QUERIES,
                self.query_width | if self.coded { CODED } else { 0 },
            ),
        ];
        for (byte, count, width, first, kind, code) in sides {
            for at in (0..count).step_by(ENTRY) {
                let len = ENTRY.min(count - at) as u32;
                let b = byte + at as u64 * u64::from(width);
                out.push([b as u32, first + at as u32, len | partial << 16 | kind, code]);
            }
        }
        out
    }
}

/// Writes `values` `width` bytes each (little-endian) from the start of `out`; returns the
/// bytes written.
fn put(out: &mut [u8], width: u32, values: impl ExactSizeIterator<Item = u64>) -> usize {
    let n = values.len();
    // PERF: a copy of constant length per width, not a loop over bytes. (Storing 8 bytes a
    // value, the next overwriting those past its width, measured no faster.)
    fn fixed<const W: usize>(out: &mut [u8], values: impl Iterator<Item = u64>) {
        for (o, v) in out.chunks_exact_mut(W).zip(values) {
            o.copy_from_slice(&v.to_le_bytes()[..W]);
        }
    }
    match width {
        4 => fixed::<4>(out, values),
        5 => fixed::<5>(out, values),
        6 => fixed::<6>(out, values),
        7 => fixed::<7>(out, values),
        _ => fixed::<8>(out, values),
    }
    n * width as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The widths come from the widest key of the batch (at least 4 bytes), a query's from
    /// its key's bits and 2 more for its exponent; an exponent past 3 sends the queries as
    /// they lie.
    #[test]
    fn widths_fit_the_widest_key() {
        let w = |keys: &[u64], queries: &[u64]| {
            let p = Packing::of(keys, queries);
            (p.key_width, p.query_width, p.coded)
        };
        assert_eq!(w(&[], &[]), (4, 4, true));
        assert_eq!(w(&[1, 1 << 31], &[(1 << 29) | 3 << WEIGHT_AT]), (4, 4, true));
        assert_eq!(w(&[1 << 32], &[1 << 30]), (5, 5, true));
        assert_eq!(w(&[(1 << 40) - 1], &[(1 << 38) - 1]), (5, 5, true));
        assert_eq!(w(&[1 << 40], &[1 << 38]), (6, 6, true));
        assert_eq!(w(&[1 << 55], &[1 << 53]), (7, 7, true));
        assert_eq!(w(&[1 << 55], &[1 << 54]), (7, 8, true));
        assert_eq!(w(&[1 << 56], &[1 << 55]), (8, 8, true));
        assert_eq!(w(&[u64::MAX], &[KEY_BITS | 3 << WEIGHT_AT]), (8, 8, true));
        assert_eq!(w(&[1], &[1 | 4 << WEIGHT_AT]), (4, 8, false));
    }

    /// The bytes written: each key in its width, each query coded, the padding zero; the
    /// entries cover every key and query once, 512 at most each.
    #[test]
    fn the_packed_bytes_and_entries() {
        let keys = [0x01_0203_0405_u64, 0xff_ffff_ffff, 7];
        let queries = [0x1_0000_0001u64 | 2 << WEIGHT_AT, 1];
        let p = Packing::of(&keys, &queries);
        assert_eq!((p.key_width, p.query_width, p.key_bytes(), p.bytes()), (5, 5, 16, 28));
        let mut out = vec![0xaa; p.bytes() as usize];
        p.write(&mut out, &keys, &queries);
        let mut want = vec![5, 4, 3, 2, 1, 255, 255, 255, 255, 255, 7, 0, 0, 0, 0, 0];
        // (0x1_0000_0001 << 2) | 2 and 1 << 2, then 2 bytes of padding.
        want.extend([6, 0, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0]);
        assert_eq!(out, want);
        let many = vec![1u64; 1025];
        let p = Packing::of(&many, &many[..512]);
        let e = p.entries(100, (10, 20), 3);
        let len = |e: [u32; 4]| e[2] & 0xffff;
        assert_eq!(e.iter().map(|&e| len(e)).collect::<Vec<_>>(), [512, 512, 1, 512]);
        assert_eq!(e[1], [100 + 512 * 4, 10 + 512, 512 | 3 << 16, 4]);
        assert_eq!(e[3], [100 + p.key_bytes() as u32, 20, 512 | 3 << 16 | QUERIES, 4 | CODED]);
    }

    /// What packing costs the host per key or query (the widths found, the bytes written),
    /// against the plain copy of 8 bytes each it replaces, on 4 M random keys of 31 bits
    /// and 1 M queries (5 bytes each), the fastest of 20 runs of each:
    /// `cargo test --release -p damier-gpu --lib -- --ignored packing_costs --nocapture`.
    #[test]
    #[ignore = "a measurement; see the doc comment for the command"]
    fn packing_costs_per_key() {
        let mut next = crate::test_adapter::stream(0x9e37_79b9_7f4a_7c15);
        let keys: Vec<u64> = (0..1 << 22).map(|_| next() & ((1 << 31) - 1)).collect();
        let queries: Vec<u64> =
            (0..1 << 20).map(|i| next() & ((1 << 31) - 1) | (i % 3) << WEIGHT_AT).collect();
        let n = (keys.len() + queries.len()) as f64;
        let mut out = Vec::new();
        let mut copy: Vec<u8> = Vec::new();
        // The fastest of 20 runs of each (the machine's other work only slows a run).
        let (mut packed, mut copied) = (f64::MAX, f64::MAX);
        let mut p = Packing::of(&keys, &queries);
        for _ in 0..20 {
            let start = std::time::Instant::now();
            p = Packing::of(&keys, &queries);
            out.resize(p.bytes() as usize, 0);
            p.write(&mut out, &keys, &queries);
            packed = packed.min(start.elapsed().as_secs_f64());
            let start = std::time::Instant::now();
            copy.clear();
            copy.extend_from_slice(bytemuck::cast_slice(&keys));
            copy.extend_from_slice(bytemuck::cast_slice(&queries));
            copied = copied.min(start.elapsed().as_secs_f64());
        }
        eprintln!(
            "packing {:.2} ns a key or query ({} and {} bytes), copying 8 bytes {:.2} ns",
            packed / n * 1e9,
            p.key_width,
            p.query_width,
            copied / n * 1e9
        );
        std::hint::black_box((&out, &copy));
    }
}
