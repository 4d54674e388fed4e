// damier's second GPU kernel, the quarters engine's join (docs/gpu.md, "The join kernel"): the
// host (the library's quarters engine, on the CPU cores) assembles a task's half boards and
// seals one side into bit-sliced blocks of 512 stored keys; this kernel matches the other
// side's keys (the queries) against them. A query matches the keys of a block marked in the
// rows its chunks select (row c * 32 + value of chunk c): the AND of those rows, counted by
// countOneBits. Keys too few for a block (a group's tail) are tested one by one.
//
// The work is a list of *pairs* (blocks, queries, tail, weight), each cut into *units* (one
// query against one block, or against the tail) and the units into *tiles* of 64: one tile
// per workgroup, one unit per invocation, so that every invocation's work is bounded (at most
// 11 row reads of 64 bytes or 11 tail keys) and a dispatch runs the tiles it is given.
//
// Counts: a unit's matches (at most 512) shifted by its weight (at most 6), summed in the
// workgroup (below 2^21), then added to a u32 pair with a carry, one of SUM_SLOTS pairs chosen
// by the tile (PERF: the workgroups of a dispatch add into 32 words, not all into one); an
// overflow of a pair sets a fault bit. The host adds the slots. Every loop counts its iterations and a loop the driver cut short sets another
// (lavapipe ends long loops silently); the host also checks the units done.

const WG: u32 = 64u;
// Partial sums of a dispatch (a power of two; the host reads as many).
const SUM_SLOTS: u32 = 32u;
const FAULT_CUT: u32 = 1u;
const FAULT_OVERFLOW: u32 = 2u;
// Bits of a query's high word below its weight exponent (key bits 32..59).
const HIGH_KEY: u32 = 0x0fffffffu;

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

struct Control {
    lo: atomic<u32>,
    hi: atomic<u32>,
    fault: atomic<u32>,
    // Units done (the host checks it).
    units: atomic<u32>,
}

@group(0) @binding(0) var<uniform> params: Params;
// Row r: rows[4r..4r+4], 512 bits.
@group(0) @binding(1) var<storage, read> rows: array<vec4<u32>>;
// Keys as (low word, high word).
@group(0) @binding(2) var<storage, read> queries: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read> tails: array<vec2<u32>>;
@group(0) @binding(4) var<storage, read> pairs: array<Pair>;
@group(0) @binding(5) var<storage, read_write> control: array<Control, SUM_SLOTS>;

// A pair's `shift` word: the weight exponent in bits 0-7; for a batch the host gathered with
// others into one dispatch (MERGED), its place among them in bits 8-15, which picks its
// partial sum (so that each batch's count comes back apart).
const MERGED: u32 = 0x10000u;

// The tile's pair, found once by the workgroup's first invocation (NO_PAIR: its search failed).
var<workgroup> tile_pair: u32;
const NO_PAIR: u32 = 0xffffffffu;

var<workgroup> group_sum: atomic<u32>;
var<workgroup> group_units: atomic<u32>;
var<workgroup> group_fault: atomic<u32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let tile = params.tile_begin + wid.y * params.width + wid.x;
    // The same for the whole workgroup: the barrier below stays in uniform control flow.
    if (tile >= params.tile_end) {
        return;
    }
    var fault = 0u;
    // The tile's pair: the first whose running sum of tiles passes the tile, found once for
    // the workgroup (PERF: not by each of its 64 invocations).
    if (lid == 0u) {
        var lo = 0u;
        var hi = params.pair_count;
        var steps = 0u;
        loop {
            if (lo >= hi || steps == 40u) {
                break;
            }
            steps += 1u;
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
    // A barrier, and the same value in every invocation (the barrier below stays uniform).
    let lo = workgroupUniformLoad(&tile_pair);
    if (lo == NO_PAIR) {
        fault |= FAULT_CUT;
    } else {
        let p = pairs[lo];
        var first = 0u;
        if (lo > 0u) {
            first = pairs[lo - 1u].tiles_end;
        }
        let per = p.blocks + select(0u, 1u, p.tail_len > 0u);
        let unit = (tile - first) * WG + lid;
        if (unit < per * p.query_count) {
            let q = queries[p.query + unit / per];
            let j = unit % per;
            var hits = 0u;
            var done = 0u;
            if (j < p.blocks) {
                let base = p.row + j * params.chunks * 32u;
                var a0 = vec4<u32>(0xffffffffu);
                var a1 = a0;
                var a2 = a0;
                var a3 = a0;
                for (var c = 0u; c < params.chunks; c += 1u) {
                    let s = c * 5u;
                    var v = 0u;
                    if (s < 32u) {
                        v = q.x >> s;
                        if (s > 27u) {
                            v |= q.y << (32u - s);
                        }
                    } else {
                        v = q.y >> (s - 32u);
                    }
                    let r = 4u * (base + c * 32u + (v & 31u));
                    a0 &= rows[r];
                    a1 &= rows[r + 1u];
                    a2 &= rows[r + 2u];
                    a3 &= rows[r + 3u];
                    done += 1u;
                }
                if (done != params.chunks) {
                    fault |= FAULT_CUT;
                }
                let b = countOneBits(a0) + countOneBits(a1) + countOneBits(a2) + countOneBits(a3);
                hits = b.x + b.y + b.z + b.w;
            } else {
                for (var t = 0u; t < p.tail_len; t += 1u) {
                    let k = tails[p.tail + t];
                    hits += select(0u, 1u, ((k.x & q.x) | (k.y & q.y & HIGH_KEY)) == 0u);
                    done += 1u;
                }
                if (done != p.tail_len) {
                    fault |= FAULT_CUT;
                }
            }
            atomicAdd(&group_sum, hits << ((p.shift & 0xffu) + (q.y >> 28u)));
            atomicAdd(&group_units, 1u);
        }
    }
    if (fault != 0u) {
        atomicOr(&group_fault, fault);
    }
    workgroupBarrier();
    if (lid == 0u) {
        var c = tile & (SUM_SLOTS - 1u);
        if (lo != NO_PAIR) {
            let w = pairs[lo].shift;
            if ((w & MERGED) != 0u) {
                c = (w >> 8u) & (SUM_SLOTS - 1u);
            }
        }
        var f = atomicLoad(&group_fault);
        let s = atomicLoad(&group_sum);
        let old = atomicAdd(&control[c].lo, s);
        if (old + s < old) {
            let old_hi = atomicAdd(&control[c].hi, 1u);
            if (old_hi == 0xffffffffu) {
                f |= FAULT_OVERFLOW;
            }
        }
        atomicAdd(&control[c].units, atomicLoad(&group_units));
        if (f != 0u) {
            atomicOr(&control[c].fault, f);
        }
    }
}
