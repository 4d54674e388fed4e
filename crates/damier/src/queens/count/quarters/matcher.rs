//! Stored keys, bit-sliced by blocks so that one query tests 512 of them in a few ANDs.

use super::geometry::WEIGHT_AT;
use super::kernel;
use super::sliced::{BLOCK, CHUNK, MAX_CHUNKS, Row, slice_block};
use crate::control::{Control, Interrupted};
use crate::cpu::Isa;
#[cfg(target_arch = "x86_64")]
use crate::cpu::features;
use crate::queens::count::join::{self, JoinPair, Sealed};
use crate::util::SPREAD;

// The layout `join` describes to other devices is this one (with chunks of [`CHUNK`] bits:
// see [`Matcher::chunk_bits`]).
const _: () = assert!(BLOCK == join::BLOCK && CHUNK == join::CHUNK && WEIGHT_AT == join::WEIGHT_AT);

/// Below this many keys, a partial block costs more than testing the keys one query at a
/// time ([`kernel::scan`]). [default: 12]
const SMALL: usize = 12;

/// Most cut bits: 2^14 groups of stored keys (a group's number, with 2 bits of weight, is a
/// `u16`).
const MAX_CUT: usize = 14;

/// Stored keys per group aimed at when choosing how many bits to cut on: fewer keys per group
/// waste more on partial blocks, more visit more blocks per query. [default: 2048]
///
/// PERF: 1024 and 4096 were no better at n = 18 to 24 (whole tasks of `queens estimate`,
/// seed 1; docs/performance.md).
const GROUP_KEYS: usize = 2048;

/// Stored keys from which a batch's groups shrink with many queries ([`Matcher::order_cuts`]).
/// [default: 4096]
///
/// PERF: was 2^20 (measured at n = 26 only); with the top halves stored from 4096 bottom
/// halves, 4096 matched 4 to 8% faster at n = 20 to 22 and as fast at 18, 19 and 23 (1024:
/// 1.15 to 1.2x slower at 18 and 19); `settings-sweep` of examples/quarters.rs, docs/performance.md,
/// session 11.
const LARGE_BATCH: usize = 1 << 12;

/// Keys of each side sampled by [`Matcher::order_cuts`]. [default: 4096]
///
/// PERF: the shares it estimates only rank the cut bits (they differ by 2x and more at
/// n >= 25, and a share's standard error on 4096 keys is under 0.008); 16384 made ordering 7% of
/// a q(20) share's instructions.
const ORDER_SAMPLE: usize = 1 << 12;

/// Bytes of a key that may hold cut bits (keys have at most 54 bits).
const KEY_BYTES: usize = 7;

/// A key's bits below the weight exponent.
const KEY_MASK: u64 = (1 << WEIGHT_AT) - 1;

/// Fewest stored keys for the tables to be packed ([`Matcher::seal`]): below, setting the
/// packing table and packing both sides cost more than the chunks they save.
/// [default: 4096]
const PACK_MIN_KEYS: usize = 1 << 12;

/// Most (query, block) visits between two polls of the cancel flag in [`Matcher::count`]:
/// about 10 ms of work (a visit reads one 64-byte row per chunk).
///
/// The work is bounded, not the queries: a group's size is not. Cut bits split the stored
/// keys by the bits they hold, and the keys holding none of them can be most of a batch (at
/// n = 28 one call matching 65 536 queries against one group ran for over 20 s).
const POLL_VISITS: usize = 1 << 20;

/// Weight exponents a stored key may carry (in its bits from [`WEIGHT_AT`]): 0 to 3.
const MAX_WEIGHTS: usize = 4;

/// The sliced blocks and scanned tail of one group of stored keys.
#[derive(Clone, Copy, Debug, Default)]
struct Group {
    /// `rows[rows.0..rows.1]`: the group's blocks (where they are, or would be when the
    /// matcher does not slice: [`Matcher::slicing`]).
    rows: (usize, usize),
    /// `grouped[tail.0..tail.1]`: its keys left to scan.
    tail: (usize, usize),
}

/// Stored keys, ready to count how many avoid a query key. Either side may carry weight
/// exponents in its bits from [`WEIGHT_AT`]: a query's scales its own count, and stored keys
/// are grouped by theirs.
///
/// PERF: the keys are bit-sliced by blocks of [`BLOCK`]: for each chunk of the key (of
/// [`CHUNK`] bits, or [`sliced::WIDE_CHUNK`] on the portable unit: `Matcher::width`) and each
/// value `v` of that chunk, a row holds the mask of the block's keys that have none of `v`'s
/// bits. A query ANDs one row per chunk and counts the ones: 512 pairs for `key_bits / width`
/// ANDs of 512 bits. Keys past the last full block, when few, are scanned.
///
/// PERF: with many keys, they are first split into `2^b` groups by `b` *cut* bits (central
/// diagonals, the ones most often occupied), and so are the queries: a query group visits
/// only the key groups that have none of its cut bits, so about `(3/4)^b` of the blocks when
/// a cut bit is set in half the keys and half the queries.
///
/// PERF: the tables hold only the key bits that can still rule a pair out (see
/// [`Matcher::seal`]): bits some stored key and some query both hold, minus the cut bits
/// (within a visited pair of groups, no query shares a cut bit with a key). Both sides are
/// packed onto those bits, so a block has fewer chunks: 7 or 8 instead of 11 at n = 27.
///
/// PERF: the key groups are the outer loop and the compatible query groups the inner one, so a
/// key group's rows (about 45 KB) stay in the cache for every query group that visits them
/// while the batch's tables (hundreds of MB) do not fit in it.
pub(super) struct Matcher {
    /// Chunks of a key in the sealed tables (see [`Matcher::seal`]).
    pub(super) chunks: usize,
    /// Key bits per chunk of the tables it slices: [`CHUNK`], or [`super::sliced::WIDE_CHUNK`] for the
    /// portable unit (see [`super::Work::new`]); the count kernels read either.
    pub(super) width: u32,
    /// Bits of a whole key.
    key_bits: u32,
    /// Key bits of the sealed tables: the packed ones ([`Matcher::set_kept`]) or a whole key's.
    bits: u32,
    /// Whether the sealed tables hold packed keys ([`Matcher::set_kept`]).
    packing: bool,
    /// Fewest stored keys for packing ([`PACK_MIN_KEYS`]; tests change it).
    pub(super) pack_min_keys: usize,
    /// Key bits any query of the next seal may hold ([`Matcher::order_cuts`]).
    query_bits: u64,
    /// `pack[i][b]`: the packed bits that byte `i` of a key holds when it is `b`: the sealed
    /// tables' bits, moved down next to each other.
    pack: [[u64; 256]; KEY_BYTES],
    pub(super) rows: Vec<Row>,
    /// Whether [`Matcher::seal`] bit-slices the blocks into [`Matcher::rows`] (the CPU's
    /// matching); when false it only groups and packs the keys and lists the blocks
    /// ([`Matcher::blocks`]): a device slices them itself ([`Matcher::sealed`]).
    pub(super) slicing: bool,
    /// Each block of the last seal as (its first key in `grouped`, its keys).
    blocks: Vec<[u32; 2]>,
    /// Key bit positions to cut on, best first ([`Matcher::order_cuts`] reorders them).
    pub(super) ranked: Vec<u32>,
    /// The ranked candidates as the last seal numbers them: its cut bits first, in increasing
    /// order ([`Matcher::set_cut`]), then the others.
    candidates: Vec<u32>,
    /// The candidates in their fixed order (central diagonals first).
    fixed: Vec<u32>,
    /// Most cut bits to use (tests lower it).
    pub(super) max_cut: usize,
    /// Keys per group aimed at ([`GROUP_KEYS`]; tests lower it).
    pub(super) group_keys: usize,
    /// Stored keys from which groups shrink with many queries ([`LARGE_BATCH`]; tests change it).
    pub(super) large_batch: usize,
    /// Keys per group aimed at by the next [`Matcher::seal`] ([`Matcher::order_cuts`] lowers it
    /// for large batches with many queries).
    target_keys: usize,
    /// Cut bits of the sealed keys.
    pub(super) cut: usize,
    /// Weight classes of the sealed keys (largest exponent + 1): group `e << cut | g` holds
    /// the keys of weight exponent `e` and cut bits `g`.
    weights: usize,
    /// Cursors of the counting sorts.
    cursor: Vec<usize>,
    /// `lut[i][b]`: the packed cut bits that byte `i` of a key holds when it is `b` (set when
    /// cutting on more than 3 bits only).
    lut: [[u16; 256]; KEY_BYTES],
    /// The cut bits, as a mask (the first [`Matcher::cut`] candidates, in increasing order).
    cut_mask: u64,
    /// The key bits the packed tables hold ([`Matcher::set_kept`]).
    kept: u64,
    /// The group of each key or query being sorted.
    group: Vec<u16>,
    grouped: Vec<u64>,
    groups: Vec<Group>,
    /// Queries grouped by their cut bits, with the start of each group.
    queries: Vec<u64>,
    query_start: Vec<usize>,
}

impl Matcher {
    /// A matcher for keys of `key_bits` bits, cutting on the `candidates` positions first (a
    /// position listed twice counts once: a group's number has one bit per cut position).
    pub(super) fn new(key_bits: u32, mut candidates: Vec<u32>) -> Self {
        let mut seen = 0u64;
        candidates.retain(|&b| {
            let new = seen >> b & 1 == 0;
            seen |= 1 << b;
            new
        });
        Matcher {
            chunks: key_bits.div_ceil(CHUNK) as usize,
            width: CHUNK,
            key_bits,
            bits: key_bits,
            packing: false,
            pack_min_keys: PACK_MIN_KEYS,
            query_bits: KEY_MASK,
            pack: [[0; 256]; KEY_BYTES],
            rows: Vec::new(),
            slicing: true,
            blocks: Vec::new(),
            max_cut: MAX_CUT.min(candidates.len()),
            group_keys: GROUP_KEYS,
            large_batch: LARGE_BATCH,
            target_keys: GROUP_KEYS,
            fixed: candidates.clone(),
            ranked: candidates.clone(),
            candidates,
            cut: 0,
            weights: 1,
            cursor: Vec::new(),
            lut: [[0; 256]; KEY_BYTES],
            cut_mask: 0,
            kept: KEY_MASK,
            group: Vec::new(),
            grouped: Vec::new(),
            groups: Vec::new(),
            queries: Vec::new(),
            query_start: Vec::new(),
        }
    }

    /// Address space held by the buffers: their capacities, the rows' included, which
    /// [`Matcher::seal`] takes with room to grow into (up to twice what a seal needs): pages
    /// never written cost no resident memory, but count against an address-space limit.
    #[cfg(feature = "measure")]
    pub(super) fn bytes(&self) -> usize {
        8 * (self.grouped.capacity() + self.queries.capacity())
            + 2 * self.group.capacity()
            + std::mem::size_of::<Row>() * self.rows.capacity()
            + 8 * self.blocks.capacity()
    }

    /// Key bits per chunk of the sealed tables: [`Matcher::width`] where the matcher slices the
    /// blocks, the device layout's [`join::CHUNK`] where a device does ([`Matcher::sealed`]).
    fn chunk_bits(&self) -> u32 {
        if self.slicing { self.width } else { join::CHUNK }
    }

    /// Chunks of `width` bits that the sealed tables' key bits take (at least one).
    fn chunks_of(&self, width: u32) -> usize {
        self.bits.div_ceil(width).max(1) as usize
    }

    /// Sets the number of cut bits and the table that packs them. The cut candidates are put
    /// in increasing order first, so that a key's cut bits, packed, are its bits under the cut
    /// mask in their order: what BMI2's `pext` gives ([`Matcher::cut_bits`]).
    fn set_cut(&mut self, cut: usize) {
        self.cut = cut;
        self.candidates.clone_from(&self.ranked);
        self.candidates[..cut].sort_unstable();
        self.cut_mask = self.candidates[..cut].iter().fold(0, |m, &b| m | 1 << b);
        // PERF: the table is read above 3 cut bits only ([`Matcher::cut_bits`]): below, it is
        // neither cleared nor filled (clearing its 3.5 KB at every seal, most of which cut on
        // no bit, was 1.3% of q(16)'s instructions on AVX2).
        if cut <= 3 {
            return;
        }
        self.lut = [[0; 256]; KEY_BYTES];
        for (i, &bit) in self.candidates[..cut].iter().enumerate() {
            let (byte, at) = ((bit / 8) as usize, bit % 8);
            for (b, g) in self.lut[byte].iter_mut().enumerate() {
                *g |= ((b as u16 >> at) & 1) << i;
            }
        }
    }

    /// The cut bits of a key, packed: bit `i` is the key's bit `candidates[i]`.
    ///
    /// `EXTRACT` only in [`Matcher::seal_extract`] and [`Matcher::count_extract`], compiled with
    /// BMI2 (see [`extract`]).
    ///
    /// PERF: with `EXTRACT`, one `pext`. Otherwise, above 3 cut bits, one table lookup per
    /// byte of the key instead of a shift and a mask per cut bit (the grouping was a fifth of a
    /// task's time at n = 23 with 10 cut bits).
    #[inline(always)]
    fn cut_bits<const EXTRACT: bool>(&self, key: u64) -> usize {
        if EXTRACT {
            return extract(key, self.cut_mask) as usize;
        }
        if self.cut <= 3 {
            let mut g = 0;
            for (i, &bit) in self.candidates[..self.cut].iter().enumerate() {
                g |= ((key >> bit) & 1) << i;
            }
            return g as usize;
        }
        let bytes = key.to_le_bytes();
        self.lut.iter().zip(bytes).fold(0, |g, (lut, b)| g | lut[b as usize]) as usize
    }

    /// Sets the key bits the tables hold, `kept`, and the table that packs them ([`packed`]).
    fn set_kept(&mut self, kept: u64) {
        self.kept = kept;
        self.pack = [[0; 256]; KEY_BYTES];
        let mut to = 0u32;
        for bit in 0..(8 * KEY_BYTES) as u32 {
            if kept >> bit & 1 == 1 {
                let (byte, at) = ((bit / 8) as usize, bit % 8);
                for (b, p) in self.pack[byte].iter_mut().enumerate() {
                    *p |= ((b as u64 >> at) & 1) << to;
                }
                to += 1;
            }
        }
    }

    /// The group of a key: its weight exponent above its cut bits.
    #[inline(always)]
    fn group_of<const EXTRACT: bool>(&self, key: u64) -> usize {
        ((key >> WEIGHT_AT) as usize) << self.cut | self.cut_bits::<EXTRACT>(key)
    }

    /// Whether a seal of `keys` stored keys may pack its tables on the bits both sides hold
    /// ([`Matcher::seal`]): only then does it read the queries' bits given to
    /// [`Matcher::order_cuts`], which may otherwise be all ones.
    pub(super) fn may_pack(&self, keys: usize) -> bool {
        keys >= self.pack_min_keys
    }

    /// Orders the cut candidates for the next [`Matcher::seal`] of `stored` against `queries`
    /// (the whole query side, or a sample of it: `queries_len` queries in all, holding no key
    /// bit outside `query_bits`):
    /// by the share of (stored key, query) pairs a bit rules out (both hold it), largest first,
    /// estimated on at most [`ORDER_SAMPLE`] keys of each side; ties keep the fixed order.
    ///
    /// PERF: the fixed order alternates the two diagonal families, but at n = 25 the central
    /// diagonals of one family are held by both sides two to three times as often as those of
    /// the other (pair shares 0.3 against 0.12): on measured shares, 12 cut bits leave about
    /// half as many pairs to visit.
    ///
    /// It also sets the group size of that seal: for a batch of at least
    /// [`Matcher::large_batch`] keys, half of [`Matcher::group_keys`] when the queries are at
    /// least half as many as the stored keys, a quarter when they are at least twice as many
    /// (pass the whole query side, or a chunk of it with `queries_len` its full length).
    ///
    /// PERF: a key group's rows are read from memory once per query group that visits it,
    /// so the more queries, the smaller the groups that pay (more cut bits, fewer pairs). At
    /// n = 26, with 6.9 M stored keys and 11.9 M queries, groups of 1024 keys matched in 0.70x
    /// the time of 2048 (512: 0.67x); with 14.1 M stored and 3.0 M queries, 2048 stayed best
    /// (1024: 1.09x, 512: 1.72x).
    pub(super) fn order_cuts(
        &mut self,
        stored: &[u64],
        queries: &[u64],
        queries_len: usize,
        query_bits: u64,
    ) {
        self.query_bits = query_bits & KEY_MASK;
        self.target_keys = match stored.len() {
            s if s < self.large_batch || queries_len < s / 2 => self.group_keys,
            s if queries_len < 2 * s => self.group_keys / 2,
            _ => self.group_keys / 4,
        }
        .max(1);
        self.ranked.clone_from(&self.fixed);
        if stored.len() >> 1 < self.target_keys || queries.is_empty() {
            return; // no cut bit will be used
        }
        let (s, q) = (bit_shares(stored), bit_shares(queries));
        let ruled_out = |b: u32| s[b as usize] * q[b as usize];
        self.ranked.sort_by(|&a, &b| ruled_out(b).total_cmp(&ruled_out(a)));
    }

    /// Stores `keys` (replacing any stored before): groups them by weight exponent and cut
    /// bits and builds the tables of every group's full blocks, and of its last partial block
    /// unless it is small enough to scan. The queries later counted against them must hold no
    /// key bit outside the `query_bits` of the last [`Matcher::order_cuts`].
    ///
    /// The tables hold only the bits some key and some query may both hold, less the cut bits
    /// (a query never meets a key group with one of its own cut bits), packed next to each
    /// other: the same pairs are disjoint, on fewer chunks.
    ///
    /// Polls `control` between groups (a batch of 16 M keys takes about a second to seal);
    /// once interrupted, the matcher holds no usable tables until the next seal.
    pub(super) fn seal(&mut self, isa: Isa, keys: &[u64], control: &Control) -> Result<(), Interrupted> {
        #[cfg(target_arch = "x86_64")]
        if extracts(isa) {
            // SAFETY: the CPU has BMI2 (`extracts`), all that `seal_extract` is compiled with.
            return unsafe { self.seal_extract(isa, keys, control) };
        }
        self.seal_with::<false>(isa, keys, control)
    }

    /// [`Matcher::seal`] with BMI2's `pext`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn seal_extract(&mut self, isa: Isa, keys: &[u64], control: &Control) -> Result<(), Interrupted> {
        self.seal_with::<true>(isa, keys, control)
    }

    /// [`Matcher::seal`], gathering bits with `pext` when `EXTRACT` (see [`Matcher::cut_bits`]).
    #[inline(always)]
    fn seal_with<const EXTRACT: bool>(
        &mut self,
        isa: Isa,
        keys: &[u64],
        control: &Control,
    ) -> Result<(), Interrupted> {
        // Cut on b bits such that groups hold about GROUP_KEYS keys.
        let mut cut = 0;
        while cut < self.max_cut.min(self.ranked.len()) && keys.len() >> (cut + 1) >= self.target_keys {
            cut += 1;
        }
        self.set_cut(cut);
        // PERF: one pass over the keys for their groups, the bits they hold and their largest
        // weight exponent (three passes took a tenth of a task at n = 21, where the stored
        // side is hundreds of thousands of keys against thousands of queries). Without cut
        // bits, only the bits they hold: their weight exponents are looked at only when some
        // key has one (see [`sort_by_weight`]).
        let mut group = std::mem::take(&mut self.group);
        group.clear();
        let (mut held, mut heaviest) = (0u64, 0u64);
        if cut == 0 {
            held = keys.iter().fold(0, |m, &k| m | k);
            if held >> WEIGHT_AT != 0 {
                heaviest = keys.iter().map(|&k| k >> WEIGHT_AT).max().unwrap_or(0);
            }
        } else {
            group.reserve_exact(keys.len());
            group.extend(keys.iter().map(|&k| {
                held |= k;
                heaviest = heaviest.max(k >> WEIGHT_AT);
                self.group_of::<EXTRACT>(k) as u16
            }));
        }
        self.packing = false;
        self.bits = self.key_bits;
        if self.may_pack(keys.len()) {
            let kept = held & KEY_MASK & self.query_bits & !self.cut_mask;
            if kept.count_ones().div_ceil(self.chunk_bits()) < self.key_bits.div_ceil(self.chunk_bits()) {
                self.set_kept(kept);
                self.packing = true;
                self.bits = kept.count_ones();
            }
        }
        self.chunks = self.chunks_of(self.chunk_bits());
        self.weights = heaviest as usize + 1;
        debug_assert!(self.weights <= MAX_WEIGHTS);
        let count = self.weights << cut;
        // Weight bits dropped: the group says the weight (`query_start` reused as the offsets).
        let mut start = std::mem::take(&mut self.query_start);
        let (packing, table, kept) = (self.packing, &self.pack, self.kept);
        let pack = |k: u64| if packing { packed::<EXTRACT>(table, kept, k) } else { k } & KEY_MASK;
        if cut == 0 {
            sort_by_weight(keys, self.weights, pack, &mut start, &mut self.grouped);
        } else {
            sort_by_group(keys, &group, count, pack, &mut start, &mut self.cursor, &mut self.grouped);
        }
        self.group = group;
        let rows_per_block = self.chunks << self.chunk_bits();
        self.rows.clear();
        // PERF: the rows of exactly the blocks built below (not the doubling of a growing
        // vector): the tables are the largest buffer of a batch.
        let blocks: usize = (0..count)
            .map(|g| {
                let len = start[g + 1] - start[g];
                len / BLOCK + usize::from(len % BLOCK >= SMALL)
            })
            .sum();
        if self.slicing && self.rows.capacity() < blocks * rows_per_block {
            // PERF: the old rows are dropped before the new ones are taken, and the new ones
            // taken with room for twice the old: growing in place copied the old capacity
            // (rows are aligned to 64 bytes, so the allocator moves them by a copy), whose
            // pages were 79% of the page faults of an n = 23 share (28 growths of up to
            // 119 MB). Doubling keeps the growths few (6 there); pages never written cost no
            // memory, so the rows a seal writes take what they did.
            let old = self.rows.capacity();
            self.rows = Vec::new();
            self.rows.reserve_exact((blocks * rows_per_block).max(2 * old));
        }
        self.blocks.clear();
        self.blocks.reserve_exact(blocks);
        self.groups.clear();
        for g in 0..count {
            if control.cancelled() {
                // The groups left unsliced: the next seal starts over.
                self.query_start = start;
                self.groups.clear();
                return Err(Interrupted);
            }
            let (mut at, end) = (start[g], start[g + 1]);
            let first_row = self.blocks.len() * rows_per_block;
            while at < end {
                let len = (end - at).min(BLOCK);
                if len < SMALL {
                    break;
                }
                if self.slicing {
                    slice_block(isa, self.width, &self.grouped[at..at + len], self.chunks, &mut self.rows);
                }
                // A batch holds at most 2^24 keys ([`super::STORED_KEYS`]).
                self.blocks.push([at as u32, len as u32]);
                at += len;
            }
            let rows = (first_row, self.blocks.len() * rows_per_block);
            self.groups.push(Group { rows, tail: (at, end) });
        }
        self.query_start = start;
        Ok(())
    }

    /// Pairs (query, stored key) with disjoint key bits, each counted `2^(e + f)` times for
    /// the exponents `e` in the query's bits from [`WEIGHT_AT`] and `f` in the key's.
    ///
    /// Polls `control` for each pair of groups (stored keys, queries) and every
    /// [`POLL_VISITS`] (query, block) visits within one: every few milliseconds, whatever the
    /// sizes (a batch of 16 M keys against 4 M queries matches for minutes at n = 28).
    pub(super) fn count(&mut self, isa: Isa, queries: &[u64], control: &Control) -> Result<u64, Interrupted> {
        #[cfg(target_arch = "x86_64")]
        if extracts(isa) {
            // SAFETY: the CPU has BMI2 (`extracts`), all that `count_extract` is compiled with.
            return unsafe { self.count_extract(isa, queries, control) };
        }
        self.count_with::<false>(isa, queries, control)
    }

    /// [`Matcher::count`] with BMI2's `pext`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn count_extract(&mut self, isa: Isa, queries: &[u64], control: &Control) -> Result<u64, Interrupted> {
        self.count_with::<true>(isa, queries, control)
    }

    /// [`Matcher::count`], gathering bits with `pext` when `EXTRACT`.
    #[inline(always)]
    fn count_with<const EXTRACT: bool>(
        &mut self,
        isa: Isa,
        queries: &[u64],
        control: &Control,
    ) -> Result<u64, Interrupted> {
        let rows_per_block = self.chunks << self.chunk_bits();
        debug_assert!(self.slicing, "counting on the CPU needs the sliced rows");
        let count_group = |g: &Group, queries: &[u64]| {
            let tail = &self.grouped[g.tail.0..g.tail.1];
            let mut total = 0;
            // PERF: the kernels loop over the queries outside the blocks, so cutting the
            // queries into pieces for the polls reads no row more often.
            let blocks = (g.rows.1 - g.rows.0) / rows_per_block + 1;
            // The 64-bit words of the last block's rows that hold keys (a group's last block
            // may be partial: [`Matcher::seal`]).
            let last = if g.rows.1 > g.rows.0 {
                self.blocks[g.rows.1 / rows_per_block - 1][1] as usize
            } else {
                BLOCK
            };
            let last = last.div_ceil(64);
            for piece in queries.chunks((POLL_VISITS / blocks).max(1)) {
                if control.cancelled() {
                    return Err(Interrupted);
                }
                total +=
                    kernel::count(isa, &self.rows[g.rows.0..g.rows.1], self.width, self.chunks, last, piece);
                if !tail.is_empty() {
                    total += kernel::scan(isa, tail, piece);
                }
            }
            Ok(total)
        };
        let count = 1usize << self.cut;
        debug_assert!(queries.iter().all(|&q| q & KEY_MASK & !self.query_bits == 0));
        if self.cut == 0 && !self.packing {
            let mut total = 0;
            for f in 0..self.weights {
                total += count_group(&self.groups[f], queries)? << f;
            }
            return Ok(total);
        }
        // Group the queries the same way (by cut bits only: a query keeps its weight), packed.
        let mut start = std::mem::take(&mut self.query_start);
        let mut grouped = std::mem::take(&mut self.queries);
        let mut group = std::mem::take(&mut self.group);
        group.clear();
        group.reserve_exact(queries.len());
        group.extend(queries.iter().map(|&q| self.cut_bits::<EXTRACT>(q) as u16));
        let (packing, table, kept) = (self.packing, &self.pack, self.kept);
        let pack = |q: u64| if packing { packed::<EXTRACT>(table, kept, q) } else { q };
        sort_by_group(queries, &group, count, pack, &mut start, &mut self.cursor, &mut grouped);
        self.group = group;
        let mut total = 0;
        let matched = matching_pairs(&self.groups, self.cut, |group, f, qg| {
            let qs = &grouped[start[qg]..start[qg + 1]];
            if !qs.is_empty() {
                total += count_group(group, qs)? << f;
            }
            Ok(())
        });
        self.query_start = start;
        self.queries = grouped;
        matched.map(|()| total)
    }

    /// The stored keys as sealed (grouped and packed, their blocks listed) with `queries`
    /// grouped and packed against them, for a device that slices the blocks and counts the
    /// matches itself ([`crate::queens::count::join`]): the same pairs of groups
    /// [`Matcher::count`] visits, its count their sum ([`Sealed::count`]). The queries' groups
    /// and packed keys are gathered with `pext` where [`Matcher::seal`] uses it on `isa`, and
    /// are the same either way.
    ///
    /// PERF: with table lookups (7 loads a query for its group, 7 for its packed key) this was
    /// a fifth of phase 1 at n = 22; with `pext`, phase 1 took 0.93x the CPU seconds there
    /// (docs/gpu.md, "Phase 1 per solution in a release build").
    pub(super) fn sealed(&mut self, isa: Isa, queries: &[u64]) -> Sealed<'_> {
        #[cfg(target_arch = "x86_64")]
        if extracts(isa) {
            // SAFETY: the CPU has BMI2 (`extracts`), all that `sealed_extract` is compiled with.
            return unsafe { self.sealed_extract(queries) };
        }
        let _ = isa;
        self.sealed_with::<false>(queries)
    }

    /// [`Matcher::sealed`] with BMI2's `pext`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    fn sealed_extract(&mut self, queries: &[u64]) -> Sealed<'_> {
        self.sealed_with::<true>(queries)
    }

    /// [`Matcher::sealed`], gathering bits with `pext` when `EXTRACT` (see
    /// [`Matcher::cut_bits`]).
    #[inline(always)]
    fn sealed_with<const EXTRACT: bool>(&mut self, queries: &[u64]) -> Sealed<'_> {
        let count = 1usize << self.cut;
        let mut group = std::mem::take(&mut self.group);
        group.clear();
        group.extend(queries.iter().map(|&q| self.cut_bits::<EXTRACT>(q) as u16));
        let (packing, table, kept) = (self.packing, &self.pack, self.kept);
        let pack = |q: u64| if packing { packed::<EXTRACT>(table, kept, q) } else { q };
        sort_by_group(
            queries,
            &group,
            count,
            pack,
            &mut self.query_start,
            &mut self.cursor,
            &mut self.queries,
        );
        self.group = group;
        let rows_per_block = self.chunks << self.chunk_bits();
        let mut pairs = Vec::new();
        let listed = matching_pairs(&self.groups, self.cut, |g, f, qg| {
            let qs = self.query_start[qg]..self.query_start[qg + 1];
            if !qs.is_empty() {
                pairs.push(JoinPair {
                    blocks: g.rows.0 / rows_per_block..g.rows.1 / rows_per_block,
                    tail: g.tail.0..g.tail.1,
                    queries: qs,
                    shift: f,
                });
            }
            Ok::<(), std::convert::Infallible>(())
        });
        let Ok(()) = listed;
        Sealed {
            chunks: self.chunks_of(join::CHUNK),
            keys: &self.grouped,
            blocks: &self.blocks,
            queries: &self.queries,
            pairs,
        }
    }

    /// The rows of the last seal (when it sliced: [`Matcher::slicing`]), as
    /// [`crate::queens::count::join`] lays them out.
    #[cfg(test)]
    pub(super) fn sliced_rows(&self) -> &[[u64; 8]] {
        // SAFETY: `Row` is `repr(C)` around a `[u64; 8]`: the same size (64 bytes, no padding)
        // and a stricter alignment (64 for 8), so every `Row` of the slice is a valid
        // `[u64; 8]` at the same address, and the slice's length is unchanged.
        unsafe { std::slice::from_raw_parts(self.rows.as_ptr().cast::<[u64; 8]>(), self.rows.len()) }
    }

    /// [`Matcher::seal`] with a control nobody cancels.
    #[cfg(any(test, feature = "measure"))]
    pub(super) fn seal_all(&mut self, isa: Isa, keys: &[u64]) {
        self.seal(isa, keys, &Control::new()).expect("a control nobody cancels");
    }

    /// [`Matcher::count`] with a control nobody cancels.
    #[cfg(any(test, feature = "measure"))]
    pub(super) fn count_all(&mut self, isa: Isa, queries: &[u64]) -> u64 {
        self.count(isa, queries, &Control::new()).expect("a control nobody cancels")
    }
}

/// Visits every pair of a key group and a query group that can match, as `(key group, its
/// weight's shift, query group)`, in the order [`Matcher::count`] sums them and
/// [`Matcher::sealed`] lists them: a query group matches every key group of the same weight
/// whose cut bits it lacks (the submasks of the rest). Empty key groups are skipped.
fn matching_pairs<E>(
    groups: &[Group],
    cut: usize,
    mut visit: impl FnMut(&Group, u32, usize) -> Result<(), E>,
) -> Result<(), E> {
    let count = 1usize << cut;
    for (i, group) in groups.iter().enumerate() {
        if group.rows.0 == group.rows.1 && group.tail.0 == group.tail.1 {
            continue;
        }
        let (f, kg) = (i >> cut, i & (count - 1));
        let free = !kg & (count - 1);
        let mut qg = free;
        loop {
            visit(group, f as u32, qg)?;
            if qg == 0 {
                break;
            }
            qg = (qg - 1) & free;
        }
    }
    Ok(())
}

/// Whether the matcher gathers bits with BMI2's `pext` on `isa`: with AVX2 or AVX-512, where
/// the CPU's `pext` is fast (`cpu::features`). The portable build keeps the table lookups,
/// which any x86-64 runs.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn extracts(isa: Isa) -> bool {
    isa >= Isa::Avx2 && features().fast_pext
}

/// The bits of `key` under `mask`, moved down next to each other in their order (`pext`).
#[inline(always)]
fn extract(key: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: only the `EXTRACT` copies of the matcher's loops call this, and they are compiled
    // with BMI2 and run only where the CPU has it ([`extracts`]).
    unsafe {
        std::arch::x86_64::_pext_u64(key, mask)
    }
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("pext ({key:#x} under {mask:#x}) is only taken on x86-64")
}

/// The share of keys holding each key bit (below [`WEIGHT_AT`]), estimated on at most about
/// [`ORDER_SAMPLE`] keys spread evenly over `keys`.
///
/// PERF: each byte of a key is spread over the 8 byte lanes of a word by [`SPREAD`] and added
/// to that byte's counters, flushed every 255 keys: 7 lookups and adds a key instead of a step
/// per set bit (about 25 at n = 20). Ordering the cut bits took 7% of a q(20) share's
/// instructions with the per-bit loop.
fn bit_shares(keys: &[u64]) -> [f64; 64] {
    let mut held = [0u64; 64];
    let mut lanes = [0u64; KEY_BYTES];
    let flush = |lanes: &mut [u64; KEY_BYTES], held: &mut [u64; 64]| {
        for (i, lane) in lanes.iter_mut().enumerate() {
            for j in 0..8 {
                held[8 * i + j] += (*lane >> (8 * j)) & 0xff;
            }
            *lane = 0;
        }
    };
    let step = keys.len().div_ceil(ORDER_SAMPLE).max(1);
    let mut seen = 0u64;
    for (k, &key) in keys.iter().step_by(step).enumerate() {
        let bytes = (key & KEY_MASK).to_le_bytes();
        for (lane, &b) in lanes.iter_mut().zip(&bytes) {
            *lane += SPREAD[b as usize];
        }
        if k % 255 == 254 {
            flush(&mut lanes, &mut held);
        }
        seen += 1;
    }
    flush(&mut lanes, &mut held);
    held.map(|h| h as f64 / seen.max(1) as f64)
}

/// The kept bits of a key, packed by the table `pack` (see [`Matcher::set_kept`]: the bits of
/// the mask `kept`), and its weight exponent where it was.
///
/// `EXTRACT` as for [`Matcher::cut_bits`].
///
/// PERF: with `EXTRACT`, one `pext`; otherwise one table lookup per byte, as for the cut bits,
/// on any CPU. Done once per key and seal, against `chunks` row reads per block a query visits.
#[inline(always)]
fn packed<const EXTRACT: bool>(pack: &[[u64; 256]; KEY_BYTES], kept: u64, key: u64) -> u64 {
    if EXTRACT {
        return key & !KEY_MASK | extract(key, kept);
    }
    let bytes = key.to_le_bytes();
    pack.iter().zip(bytes).fold(key & !KEY_MASK, |p, (pack, b)| p | pack[b as usize])
}

/// [`sort_by_group`] of keys by their weight exponent alone (the groups of a seal without cut
/// bits): `out` gets `items` (each mapped by `map`) in `weights` groups, those of exponent
/// `e` (the bits from [`WEIGHT_AT`], below `weights`) at `start[e]..start[e + 1]`, each group
/// in the items' order.
///
/// PERF: a counting sort's counts and cursors are one counter per group in memory, and most
/// seals have no cut bit and one weight (24 000 of the 24 300 seals of q(18), 1 800 keys
/// each): every key then incremented the same counter twice, each increment waiting for the
/// last one's store (about 5 cycles a key, 60% of sealing's samples at q(18)). One weight is
/// a copy; several are one pass each, its cursor in a register.
fn sort_by_weight(
    items: &[u64],
    weights: usize,
    map: impl Fn(u64) -> u64,
    start: &mut Vec<usize>,
    out: &mut Vec<u64>,
) {
    start.clear();
    start.push(0);
    out.clear();
    if weights <= 1 {
        out.reserve_exact(items.len());
        out.extend(items.iter().map(|&x| map(x)));
        start.push(items.len());
        return;
    }
    // One slot more: a pass writes every item at its cursor, moving the cursor past the
    // item only when it belongs to the pass's group, so the last write may land one past
    // the groups written so far.
    out.reserve_exact(items.len() + 1);
    let slots = &mut out.spare_capacity_mut()[..items.len() + 1];
    let mut at = 0;
    for e in 0..weights as u64 {
        for &x in items {
            slots[at].write(map(x));
            at += usize::from(x >> WEIGHT_AT == e);
        }
        start.push(at);
    }
    assert_eq!(at, items.len(), "every item's weight exponent is below `weights`");
    // SAFETY: the asserted count: every item went to the slot at the cursor of its group's
    // pass, and the passes' cursors ran through `0..items.len()` with no gap, one item each,
    // so every slot below `items.len()` was written (the spare one past it is dropped).
    unsafe { out.set_len(items.len()) };
}

/// Counting sort: `out` gets `items` (each mapped by `map`) grouped by `group` (each below
/// `count`), and `start[g]..start[g + 1]` is group g's range in it; `cursor` is scratch.
fn sort_by_group(
    items: &[u64],
    group: &[u16],
    count: usize,
    map: impl Fn(u64) -> u64,
    start: &mut Vec<usize>,
    cursor: &mut Vec<usize>,
    out: &mut Vec<u64>,
) {
    assert_eq!(items.len(), group.len());
    start.clear();
    start.resize(count + 1, 0);
    for &g in group {
        start[g as usize + 1] += 1;
    }
    for g in 0..count {
        start[g + 1] += start[g];
    }
    out.clear();
    out.reserve_exact(items.len());
    cursor.clear();
    cursor.extend_from_slice(&start[..count]);
    let slots = &mut out.spare_capacity_mut()[..items.len()];
    // PERF: written once, into the spare capacity, rather than zeroed first and then written.
    for (&x, &g) in items.iter().zip(group) {
        slots[cursor[g as usize]].write(map(x));
        cursor[g as usize] += 1;
    }
    // SAFETY: `start` was built from `group`, which has one entry per item (asserted at the
    // top): group g's items went to `start[g]..start[g + 1]`, one slot each (indexing is
    // checked), and these ranges cover `0..items.len()`, so every slot below it was written.
    unsafe { out.set_len(items.len()) };
}

/// Queries by class of the matcher's first [`MAX_CUT`] cut bits: how many fall in each, and
/// per chunk the mask of the chunk values they hold (see [`Matcher::classes`]).
pub(super) type Classes = Vec<(u64, [u64; MAX_CHUNKS])>;

impl Matcher {
    /// The classes of `queries` (first [`MAX_CUT`] cut bits) against the sealed keys: a batch
    /// cut on `b` bits groups the queries by the low `b` bits of their class (chunk values of
    /// the packed queries: call it after [`Matcher::seal`]).
    pub(super) fn classes(&self, queries: &[u64]) -> Classes {
        let bits = &self.candidates[..self.max_cut.min(self.candidates.len())];
        let mut out = vec![(0u64, [0u64; MAX_CHUNKS]); 1 << MAX_CUT];
        let width = self.chunk_bits();
        for &q in queries {
            let mut c = 0;
            for (i, &bit) in bits.iter().enumerate() {
                c |= ((q >> bit) & 1) << i;
            }
            let class = &mut out[c as usize];
            class.0 += 1;
            let p = if self.packing { packed::<false>(&self.pack, self.kept, q) } else { q };
            for (chunk, values) in class.1.iter_mut().enumerate().take(self.chunks) {
                *values |= 1 << ((p >> (chunk as u32 * width)) & ((1 << width) - 1));
            }
        }
        out
    }

    /// The work of [`Matcher::count`] on queries of these `classes` against the sealed keys:
    /// (rows read, distinct rows read per call). A query reads one row per chunk of every
    /// block it visits; within one call (a query group against a key group) the first read of
    /// a row misses the cache and later ones hit it, so the time is about `a` per row read
    /// plus `b` per distinct row. The tails' keys count as fractions of a block.
    pub(super) fn work(&self, classes: &Classes) -> (f64, f64) {
        let count = 1usize << self.cut;
        let rows_per_block = (self.chunks << self.chunk_bits()) as f64;
        // reach[m]: blocks of the key groups whose cut bits are within m (subset sums).
        let mut reach = vec![0.0; count];
        for (i, g) in self.groups.iter().enumerate() {
            reach[i & (count - 1)] +=
                (g.rows.1 - g.rows.0) as f64 / rows_per_block + (g.tail.1 - g.tail.0) as f64 / BLOCK as f64;
        }
        for bit in 0..self.cut {
            for m in 0..count {
                if m >> bit & 1 == 1 {
                    reach[m] += reach[m ^ (1 << bit)];
                }
            }
        }
        let mut per_group = vec![(0u64, [0u64; MAX_CHUNKS]); count];
        for (c, (k, values)) in classes.iter().enumerate() {
            let group = &mut per_group[c & (count - 1)];
            group.0 += k;
            for (g, v) in group.1.iter_mut().zip(values) {
                *g |= v;
            }
        }
        let (mut reads, mut distinct) = (0.0, 0.0);
        for (qg, (k, values)) in per_group.iter().enumerate() {
            if *k > 0 {
                let r = reach[!qg & (count - 1)];
                reads += *k as f64 * r * self.chunks as f64;
                distinct += r * values.iter().map(|v| v.count_ones()).sum::<u32>() as f64;
            }
        }
        (reads, distinct)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The obvious grouping: the items mapped, stably sorted by group, and each group's range.
    fn grouped_by(items: &[u64], group: impl Fn(u64) -> usize, count: usize) -> (Vec<u64>, Vec<usize>) {
        let mut tagged: Vec<(usize, u64)> = items.iter().map(|&x| (group(x), x ^ 0x5a5a)).collect();
        tagged.sort_by_key(|t| t.0);
        let start = (0..=count).map(|g| tagged.iter().filter(|t| t.0 < g).count()).collect();
        (tagged.into_iter().map(|t| t.1).collect(), start)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Grouping by weight exponent gives the stable sort's order and ranges, whatever
        /// the buffers held before.
        #[test]
        fn sort_by_weight_is_a_stable_sort(
            keys in proptest::collection::vec((any::<u64>(), 0u64..4), 0..300),
            weights in 1usize..=4,
            stale in proptest::collection::vec(any::<u64>(), 0..400),
        ) {
            let items: Vec<u64> =
                keys.iter().map(|&(k, e)| k & KEY_MASK | (e % weights as u64) << WEIGHT_AT).collect();
            let (want, want_start) = grouped_by(&items, |x| (x >> WEIGHT_AT) as usize, weights);
            let (mut start, mut out) = (vec![3; 9], stale);
            sort_by_weight(&items, weights, |x| x ^ 0x5a5a, &mut start, &mut out);
            prop_assert_eq!(out, want);
            prop_assert_eq!(start, want_start);
        }

        /// The counting sort gives the stable sort's order and ranges, with few or many
        /// groups and runs of equal groups, whatever the buffers held before.
        #[test]
        fn sort_by_group_is_a_stable_sort(
            groups in proptest::collection::vec((0u16..u16::MAX, 1usize..6), 0..400),
            count in prop_oneof![1usize..=64, Just(5000)],
            stale in proptest::collection::vec(any::<u64>(), 0..400),
        ) {
            let group: Vec<u16> =
                groups.iter().flat_map(|&(g, run)| std::iter::repeat_n(g % count as u16, run)).collect();
            // Item i: its index above its group.
            let items: Vec<u64> = group.iter().enumerate().map(|(i, &g)| (i as u64) << 16 | u64::from(g)).collect();
            let (want, want_start) = grouped_by(&items, |x| (x & 0xffff) as usize, count);
            let (mut start, mut cursor, mut out) = (vec![3; 9], vec![5; 7], stale);
            sort_by_group(&items, &group, count, |x| x ^ 0x5a5a, &mut start, &mut cursor, &mut out);
            prop_assert_eq!(out, want);
            prop_assert_eq!(start, want_start);
        }
    }
}
