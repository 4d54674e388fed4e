// damier's GPU kernel, the quarters engine's join (docs/gpu.md, "The join kernel"): the host
// (the library's quarters engine, on the CPU cores) assembles a task's half boards and groups
// one side's keys, the seal pass (seal.wgsl) bit-slices them into blocks of 512 stored keys,
// and this kernel matches the other side's keys (the queries) against them. A query matches the keys of a block marked in the
// rows its chunks select (row c * 32 + value of chunk c): the AND of those rows, counted by
// countOneBits. Keys too few for a block (a group's tail) are tested one by one.
//
// The work is a list of *pairs* (blocks, queries, tail, weight), each cut into *tiles*: one
// block (or the tail) against up to TILE_QUERIES of the pair's queries, block-major (PERF: the
// 64 lanes of a workgroup are queries against one block, whose rows the workgroup first copies
// into workgroup memory, coalesced, and then reads there, ROUNDS queries a lane). A tile runs
// in one workgroup; a *unit* is one query against one block or tail, counted.
//
// The module is assembled by the host (device.rs, `join_source`): this file, then the key
// functions (join_key32.wgsl, or join_key64.wgsl where the adapter has 64-bit integers), the
// workgroup sum (join_sum_atomic.wgsl, or join_sum_subgroup.wgsl where it has subgroups), the
// tile's output (join_out_tile.wgsl, or join_out_shared.wgsl: below), and `WG_CHUNKS`, the
// chunks of a block that the adapter's workgroup memory holds (a block of more chunks is read
// from global memory, the same tiles).
//
// It is compiled trusted (no loop counters, index clamps or division checks added by naga):
// every loop's bound is a constant (ROUNDS, MAX_CHUNKS, WG_LOADS, MAX_TAIL, PAIR_STEPS of the
// pair search) and the host checks every pair's reads inside its batch before the upload
// (pipeline.rs, `check_group`). A loop that ends short all the same (a driver cutting it)
// or a pair past a bound still sets the fault bit FAULT_CUT, and the host checks the units.
//
// Counts: a unit's matches (at most 512) shifted by its weight (at most 6), summed in the
// workgroup (at most 2^23: 256 units). By default (join_out_tile.wgsl) the workgroup's first
// invocation stores the tile's sum, units and fault bits in the tile's own slot (PERF: a plain
// store, no atomic on an address other workgroups touch), and a small pass (join_reduce.wgsl),
// after each dispatch in the same submission, adds the slots into the dispatch's SUM_SLOTS
// partial sums: each a range of its tiles (one merged batch's tiles each, when the host
// gathered several batches into the dispatch), 64 bits with an overflow bit. The old way,
// kept to compare (join_out_shared.wgsl, `GpuSettings::shared_sums`): the first invocation
// adds the workgroup's sum to a u32 pair with a carry, one of SUM_SLOTS pairs chosen by the
// tile (or by the merged batch), atomically. The host adds the partial sums.

// The constants shared with the other passes (FAULT_CUT, SUM_SLOTS, TILE_QUERIES, MAX_TAIL,
// CHUNK_ROWS, ...) and the partial sum's layout are in prelude.wgsl, which the host puts
// first.

const WG: u32 = 64u;
// Query rounds of a tile: a tile is one block against up to WG * ROUNDS queries
// (TILE_QUERIES).
const ROUNDS: u32 = TILE_QUERIES / WG;
// Steps of the pair search at most (2^40 pairs: more than a u32 counts). A pipeline constant
// only so that a test can cut the search short (0 steps: every tile's search fails, FAULT_CUT:
// the end-to-end test of a loop cut); the host sets it nowhere else.
override PAIR_STEPS: u32 = 40u;
// Added to each tile's sum as it is put out: 0 but where a test sets it (at most 2^32 - 1 -
// 2^23, a tile's sum being at most 2^23), so that the 64-bit partial sums' carries run at
// the sizes lavapipe counts (each tile's value near 2^32); the host sets it nowhere.
override TILE_BIAS: u32 = 0u;

struct Params {
    // Tiles of this dispatch: tile_begin..tile_end.
    tile_begin: u32,
    tile_end: u32,
    pair_count: u32,
    // Chunks of a key: a block has chunks * 32 rows.
    chunks: u32,
    // Workgroups per row of the dispatch grid (tile = begin + y * width + x).
    width: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

struct Pair {
    // First row of the pair's first block in `rows`.
    row: u32,
    blocks: u32,
    // The pair's queries: queries[query..query + query_count].
    query: u32,
    query_count: u32,
    // Its tail: tails[tail..tail + tail_len].
    tail: u32,
    tail_len: u32,
    // The stored keys' weight exponent.
    shift: u32,
    // Tiles of the pairs up to this one (a running sum).
    tiles_end: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Row r: rows[4r..4r+4], 512 bits.
@group(0) @binding(1) var<storage, read> rows: array<vec4<u32>>;
// Keys as (low word, high word).
@group(0) @binding(2) var<storage, read> queries: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read> tails: array<vec2<u32>>;
@group(0) @binding(4) var<storage, read> pairs: array<Pair>;
// Binding 5: where the tiles' sums go (join_out_*.wgsl).

// A pair's `shift` word: the weight exponent in bits 0-7; for a batch the host gathered with
// others into one dispatch (MERGED), its place among them in bits 8-15, which picks its
// partial sum (so that each batch's count comes back apart). The mark MERGED: prelude.wgsl.

// The tile's pair, found once by the workgroup's first invocation (NO_PAIR: its search failed).
var<workgroup> tile_pair: u32;
const NO_PAIR: u32 = 0xffffffffu;

// The tile's block, when its chunks fit (WG_CHUNKS): row r's four vec4 at 4r, in the order
// k ^ ((r >> 1) & 3) (PERF: lanes reading the same quarter of different rows spread over the
// 8 bank groups of 16 bytes that rows r & 7 give, instead of the 2 that 64-byte rows give).
const WG_VEC4: u32 = max(WG_CHUNKS, 1u) * CHUNK_ROWS * 4u;
// Loads per lane that copy a block of WG_CHUNKS chunks (32 rows of 4 vec4 a chunk, 64 lanes).
const WG_LOADS: u32 = max(WG_CHUNKS, 1u) * CHUNK_ROWS * 4u / WG;
var<workgroup> block: array<vec4<u32>, WG_VEC4>;

var<workgroup> group_fault: atomic<u32>;

fn swizzled(r: u32, k: u32) -> u32 {
    return 4u * r + (k ^ ((r >> 1u) & 3u));
}

// Matches of key `key` in the block whose rows start at row `base` of `rows` (`staged`: in
// workgroup memory), and the chunks read.
fn match_block(key: Key, base: u32, chunks: u32, staged: bool) -> vec2<u32> {
    var a0 = vec4<u32>(0xffffffffu);
    var a1 = a0;
    var a2 = a0;
    var a3 = a0;
    var done = 0u;
    if (staged) {
        for (var c = 0u; c < MAX_CHUNKS; c += 1u) {
            if (c >= chunks) {
                break;
            }
            let r = c * CHUNK_ROWS + chunk_of(key, c);
            a0 &= block[swizzled(r, 0u)];
            a1 &= block[swizzled(r, 1u)];
            a2 &= block[swizzled(r, 2u)];
            a3 &= block[swizzled(r, 3u)];
            done += 1u;
        }
    } else {
        for (var c = 0u; c < MAX_CHUNKS; c += 1u) {
            if (c >= chunks) {
                break;
            }
            let r = 4u * (base + c * CHUNK_ROWS + chunk_of(key, c));
            a0 &= rows[r];
            a1 &= rows[r + 1u];
            a2 &= rows[r + 2u];
            a3 &= rows[r + 3u];
            done += 1u;
        }
    }
    let b = countOneBits(a0) + countOneBits(a1) + countOneBits(a2) + countOneBits(a3);
    return vec2<u32>(b.x + b.y + b.z + b.w, done);
}

// Matches of query `q` among the tail keys tails[at..at + len], and the keys tested.
fn match_tail(q: vec2<u32>, at: u32, len: u32) -> vec2<u32> {
    var hits = 0u;
    var done = 0u;
    for (var t = 0u; t < MAX_TAIL; t += 1u) {
        if (t >= len) {
            break;
        }
        // The same key for every lane: one broadcast read.
        let k = tails[at + t];
        hits += select(0u, 1u, matches_tail_key(q, k));
        done += 1u;
    }
    return vec2<u32>(hits, done);
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let tile = params.tile_begin + wid.y * params.width + wid.x;
    // The same for the whole workgroup: the barriers below stay in uniform control flow.
    if (tile >= params.tile_end) {
        return;
    }
    var fault = 0u;
    // The tile's pair: the first whose running sum of tiles passes the tile, found once for
    // the workgroup (PERF: not by each of its 64 invocations).
    if (lid == 0u) {
        // PERF: the module runs without wgpu's zeroing of workgroup memory (22.5 KB of a
        // block a tile at 11 chunks): the words read before they are written are set here,
        // before the barrier of workgroupUniformLoad; `block` is read only where written.
        atomicStore(&group_fault, 0u);
        atomicStore(&group_sum, 0u);
        atomicStore(&group_units, 0u);
        var lo = 0u;
        var hi = params.pair_count;
        for (var steps = 0u; steps < min(PAIR_STEPS, 40u); steps += 1u) {
            if (lo >= hi) {
                break;
            }
            let mid = (lo + hi) / 2u;
            if (pairs[mid].tiles_end > tile) {
                hi = mid;
            } else {
                lo = mid + 1u;
            }
        }
        if (lo != hi || lo >= params.pair_count) {
            tile_pair = NO_PAIR;
        } else {
            tile_pair = lo;
        }
    }
    // A barrier, and the same value in every invocation (the barriers below stay uniform).
    let at = workgroupUniformLoad(&tile_pair);
    var p = Pair(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
    var first = 0u;
    if (at == NO_PAIR) {
        fault |= FAULT_CUT;
    } else {
        p = pairs[at];
        if (at > 0u) {
            first = pairs[at - 1u].tiles_end;
        }
    }
    // Tile t of the pair: block (or tail, block == blocks) t / groups, queries of group
    // t % groups. A pair's tiles are `(blocks + tail?) * groups`, so groups >= 1 here (a pair
    // without queries has no tile).
    let groups = max((p.query_count + TILE_QUERIES - 1u) / TILE_QUERIES, 1u);
    let t = tile - first;
    let j = t / groups;
    let q0 = (t % groups) * TILE_QUERIES;
    let chunks = params.chunks;
    let base = p.row + j * chunks * CHUNK_ROWS;
    let staged = at != NO_PAIR && j < p.blocks && chunks <= WG_CHUNKS;
    if (staged) {
        // PERF: the block's rows copied once for the tile's 256 queries, lanes reading
        // consecutive vec4 (coalesced).
        let count = chunks * CHUNK_ROWS * 4u;
        for (var k = 0u; k < WG_LOADS; k += 1u) {
            let i = k * WG + lid;
            if (i < count) {
                block[swizzled(i >> 2u, i & 3u)] = rows[4u * base + i];
            }
        }
    }
    workgroupBarrier();
    var sum = 0u;
    var units = 0u;
    if (at != NO_PAIR) {
        let tail_len = min(p.tail_len, MAX_TAIL);
        if (tail_len != p.tail_len) {
            fault |= FAULT_CUT;
        }
        for (var r = 0u; r < ROUNDS; r += 1u) {
            // PERF: a round with no query left ends the tile for the whole workgroup (the
            // same test in every invocation), not run masked.
            if (q0 + r * WG >= p.query_count) {
                break;
            }
            let qi = q0 + r * WG + lid;
            if (qi < p.query_count) {
                let q = queries[p.query + qi];
                var m = vec2<u32>(0u);
                var want = chunks;
                if (j < p.blocks) {
                    m = match_block(key_of(q), base, chunks, staged);
                } else {
                    m = match_tail(q, p.tail, tail_len);
                    want = tail_len;
                }
                if (m.y != want) {
                    fault |= FAULT_CUT;
                }
                sum += m.x << ((p.shift & 0xffu) + (q.y >> (WEIGHT_AT - 32u)));
                units += 1u;
            }
        }
    }
    if (fault != 0u) {
        atomicOr(&group_fault, fault);
    }
    // The workgroup's sum and units (join_sum_*.wgsl), in every invocation's hands after the
    // barrier there; the first puts them out (join_out_*.wgsl) with the faults of them all.
    let total = group_total(sum, units, lid);
    if (lid == 0u) {
        var c = tile & (SUM_SLOTS - 1u);
        if (at != NO_PAIR && (p.shift & MERGED) != 0u) {
            c = (p.shift >> 8u) & (SUM_SLOTS - 1u);
        }
        put_tile(tile, c, vec2<u32>(total.x + TILE_BIAS, total.y), atomicLoad(&group_fault));
    }
}
