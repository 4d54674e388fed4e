// Writing out the join's pairs on the GPU (docs/gpu.md, "Pairs in their packed width"): the
// host sends a group of pairs packed (pairs.rs): each run of pairs that share a key side (rows,
// blocks, tail, weight: one stored key group's pairs) once, as 4 words, and per pair its run
// index, first query and query count in the group's widths (0 to 32 bits each), back to back.
// This pass, in the seal's compute pass before the join's dispatches, writes the pairs out as
// the join kernel reads them (join.wgsl's `Pair`), their running sums of tiles made here.
//
// One workgroup an *entry* of up to 512 pairs (8 consecutive a lane): each lane decodes its
// pairs and sums their tiles, lane 0 adds the lanes' sums up (the running sum before the entry
// is the last of the entry before), and each lane writes its pairs with their running sums.
// Checked module (naga's bounds checks kept). Faults (FAULT_CUT, which fails the count): a
// run index past the runs, a pair whose reads leave the batch's buffers (what the trusted join
// kernel relies on: such a pair is written out empty), an entry whose last running sum or
// whose checksum over the pairs written out (all 8 words each) differs from the host's, a
// loop cut short. Each entry adds 1 to the units of partial sum 0 (a workgroup the driver
// skipped fails the count).

// PAIR_ENTRY, TILE_QUERIES, MAX_TAIL, SUM_SLOTS, FAULT_CUT and the partial sum `Control`:
// prelude.wgsl, which the host puts first.
const WG: u32 = 64u;
const ENTRY: u32 = PAIR_ENTRY;
const PER_LANE: u32 = ENTRY / WG;

struct Params {
    // Pairs of the group; workgroups per row of the dispatch grid (entry = y * width + x).
    pairs: u32,
    width: u32,
    // Bits of a pair's run index, first query, query count (bits 0-7, 8-15, 16-23).
    widths: u32,
    runs: u32,
    // Words of `packed` where the runs and the stream begin (the entries at 0).
    runs_at: u32,
    stream_at: u32,
    // The batch's rows (of its window), queries and stored keys; rows of a block.
    rows: u32,
    queries: u32,
    tails: u32,
    rows_per_block: u32,
    _pad0: u32,
    _pad1: u32,
}

struct Pair {
    row: u32,
    blocks: u32,
    query: u32,
    query_count: u32,
    tail: u32,
    tail_len: u32,
    shift: u32,
    tiles_end: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Entries (the running sum of tiles at their last pair, their checksum), runs
// (row, blocks, tail, tail_len | shift << 16), the stream.
@group(0) @binding(1) var<storage, read> packed: array<u32>;
@group(0) @binding(2) var<storage, read_write> pairs: array<Pair>;
@group(0) @binding(3) var<storage, read_write> control: array<Control, SUM_SLOTS>;

var<workgroup> lane_tiles: array<u32, WG>;
var<workgroup> group_fault: atomic<u32>;
var<workgroup> group_hash: atomic<u32>;

// The `width` bits (0 to 32) from bit `at` of the stream.
fn field(at: u32, width: u32) -> u32 {
    if (width == 0u) {
        return 0u;
    }
    let w = params.stream_at + at / 32u;
    let s = at % 32u;
    var v = packed[w] >> s;
    if (s != 0u) {
        v |= packed[w + 1u] << (32u - s);
    }
    if (width < 32u) {
        v &= (1u << width) - 1u;
    }
    return v;
}

// Pair `i` of the group, its `tiles_end` its own tiles; `bad` set to 1 when it is not one the
// kernel may run (then written out empty: a fault).
fn decode(i: u32, bad: ptr<function, u32>) -> Pair {
    let rb = params.widths & 0xffu;
    let qb = (params.widths >> 8u) & 0xffu;
    let cb = (params.widths >> 16u) & 0xffu;
    let at = i * (rb + qb + cb);
    let r = field(at, rb);
    var p = Pair(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
    if (r >= params.runs) {
        *bad = 1u;
        return p;
    }
    let k = params.runs_at + 4u * r;
    p.row = packed[k];
    p.blocks = packed[k + 1u];
    p.tail = packed[k + 2u];
    p.tail_len = packed[k + 3u] & 0xffffu;
    p.shift = packed[k + 3u] >> 16u;
    p.query = field(at + rb, qb);
    p.query_count = field(at + rb + qb, cb);
    // Every read of the join kernel inside the batch's buffers (as pipeline.rs's
    // `check_group` holds on the host), without overflow.
    let rpb = max(params.rows_per_block, 1u);
    let inside = p.row <= params.rows && p.blocks <= (params.rows - p.row) / rpb
        && p.query <= params.queries && p.query_count <= params.queries - p.query
        && p.tail <= params.tails && p.tail_len <= params.tails - p.tail
        && p.tail_len <= MAX_TAIL && (p.blocks > 0u || p.tail_len > 0u) && p.query_count > 0u;
    if (!inside) {
        *bad = 1u;
        return Pair(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
    }
    let tail = select(0u, 1u, p.tail_len > 0u);
    p.tiles_end = (p.blocks + tail) * ((p.query_count + TILE_QUERIES - 1u) / TILE_QUERIES);
    return p;
}

// The checksum's final mix of a pair's chain: a bijection whose output bits each depend on
// every input bit (pairs.rs's `mix`, lowbias32).
fn mix(v: u32) -> u32 {
    var x = (v ^ (v >> 16u)) * 0x7feb352du;
    x = (x ^ (x >> 15u)) * 0x846ca68bu;
    return x ^ (x >> 16u);
}

// One step of a pair's chain: word w folded in (pairs.rs's `step`: the high bits brought down
// before the multiply, so that no fixed change of the next word cancels a change).
fn step(h: u32, w: u32) -> u32 {
    var y = h ^ w;
    y = (y ^ (y >> 16u)) * 0x7feb352du;
    return y ^ (y >> 15u);
}

// Pair k of an entry (0 to 511), its share of the entry's checksum (pairs.rs's `entry_term`):
// from a key of its place, its 8 words folded in one after the other, the result mixed.
// Non-linear: a change of one word always changes it; changes of several words are a hash's
// odds (pairs.rs's docs).
fn hash(p: Pair, k: u32) -> u32 {
    var h = (k + 1u) * 0x9e3779b9u;
    h = step(h, p.row);
    h = step(h, p.blocks);
    h = step(h, p.query);
    h = step(h, p.query_count);
    h = step(h, p.tail);
    h = step(h, p.tail_len);
    h = step(h, p.shift);
    h = step(h, p.tiles_end);
    return mix(h);
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let e = wid.y * params.width + wid.x;
    // The same for the whole workgroup: the barriers below stay in uniform control flow.
    if (e >= (params.pairs + ENTRY - 1u) / ENTRY) {
        return;
    }
    if (lid == 0u) {
        atomicStore(&group_fault, 0u);
        atomicStore(&group_hash, 0u);
    }
    let first = e * ENTRY;
    let len = min(params.pairs - first, ENTRY);
    var fault = 0u;
    // This lane's pairs first + lid * PER_LANE + j: their tiles.
    var bad = 0u;
    var tiles = 0u;
    var done = 0u;
    for (var j = 0u; j < PER_LANE; j += 1u) {
        let k = lid * PER_LANE + j;
        if (k < len) {
            tiles += decode(first + k, &bad).tiles_end;
        }
        done += 1u;
    }
    lane_tiles[lid] = tiles;
    workgroupBarrier();
    if (lid == 0u) {
        // The running sum before the entry: the last of the entry before (0 for the first).
        var sum = 0u;
        if (e > 0u) {
            sum = packed[2u * (e - 1u)];
        }
        var steps = 0u;
        for (var l = 0u; l < WG; l += 1u) {
            let t = lane_tiles[l];
            lane_tiles[l] = sum;
            sum += t;
            steps += 1u;
        }
        if (steps != WG || sum != packed[2u * e]) {
            atomicOr(&group_fault, FAULT_CUT);
        }
    }
    workgroupBarrier();
    var running = lane_tiles[lid];
    var h = 0u;
    for (var j = 0u; j < PER_LANE; j += 1u) {
        let k = lid * PER_LANE + j;
        if (k < len) {
            var p = decode(first + k, &bad);
            running += p.tiles_end;
            p.tiles_end = running;
            pairs[first + k] = p;
            h += hash(p, k);
        }
        done += 1u;
    }
    if (done != 2u * PER_LANE || bad != 0u) {
        fault |= FAULT_CUT;
    }
    atomicAdd(&group_hash, h);
    if (fault != 0u) {
        atomicOr(&group_fault, fault);
    }
    workgroupBarrier();
    if (lid == 0u) {
        if (atomicLoad(&group_hash) != packed[2u * e + 1u]) {
            atomicOr(&group_fault, FAULT_CUT);
        }
        atomicAdd(&control[0].units, 1u);
        let f = atomicLoad(&group_fault);
        if (f != 0u) {
            atomicOr(&control[0].fault, f);
        }
    }
}
