// Sealing on the GPU (docs/gpu.md, "The join kernel"): bit-slices blocks of stored keys into
// the rows the join kernel (join.wgsl) reads. The host sends the keys of a batch as the
// library grouped and packed them (8 bytes a key) and its blocks; this pass, in the same
// submission as the join's, writes every block's rows into the slot's rows buffer.
//
// A block holds 1 to 512 keys: for each 5-bit chunk c of a key and each value v of the chunk,
// row c * 32 + v of the block marks the block's keys that hold none of the bits of v in chunk
// c (key i: bit i % 32 of the row's word i / 32; keys past the block's end are not marked).
// One workgroup a block: its keys into workgroup memory, then each invocation makes word w
// of the 32 rows of chunk c for (c, w) in turn: the 5 columns "keys with bit 5c + j set"
// of its 32 keys, and each row the AND of the columns of v's bits, complemented.
//
// Each block adds 1 to the units of its partial sum (the host counts them with the join's:
// a workgroup the driver skipped fails the count) and raises the fault bit of a loop cut
// short, as the join kernel does.

// BLOCK, CHUNK_ROWS, SUM_SLOTS, FAULT_CUT and the partial sum `Control`: prelude.wgsl, which
// the host puts first.
const WG: u32 = 64u;

struct Params {
    // Blocks block_begin..block_end of `blocks`; block b's rows from row
    // (b - block_begin) * chunks * 32.
    block_begin: u32,
    block_end: u32,
    chunks: u32,
    // Workgroups per row of the dispatch grid (block = begin + y * width + x).
    width: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
    _pad3: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Keys as (low word, high word), weight bits clear.
@group(0) @binding(1) var<storage, read> keys: array<vec2<u32>>;
// A block: (first key, keys | partial sum << 16).
@group(0) @binding(2) var<storage, read> blocks: array<vec2<u32>>;
// Row r: rows[16r..16r+16], 512 bits.
@group(0) @binding(3) var<storage, read_write> rows: array<u32>;
@group(0) @binding(4) var<storage, read_write> control: array<Control, SUM_SLOTS>;

var<workgroup> block_keys: array<vec2<u32>, BLOCK>;
var<workgroup> group_fault: atomic<u32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let b = params.block_begin + wid.y * params.width + wid.x;
    // The same for the whole workgroup: the barriers below stay in uniform control flow.
    if (b >= params.block_end) {
        return;
    }
    let d = blocks[b];
    let len = min(d.y & 0xffffu, BLOCK);
    var fault = 0u;
    var loaded = 0u;
    for (var i = lid; i < BLOCK; i += WG) {
        var k = vec2<u32>(0u);
        if (i < len) {
            k = keys[d.x + i];
        }
        block_keys[i] = k;
        loaded += 1u;
    }
    if (loaded != BLOCK / WG) {
        fault |= FAULT_CUT;
    }
    workgroupBarrier();
    let chunks = params.chunks;
    let base = (b - params.block_begin) * chunks * CHUNK_ROWS;
    let words = chunks * 16u;
    var made = 0u;
    for (var t = lid; t < words; t += WG) {
        let c = t / 16u;
        let w = t % 16u;
        // Bit i of set_j: key 32 w + i holds bit 5 c + j.
        var set0 = 0u;
        var set1 = 0u;
        var set2 = 0u;
        var set3 = 0u;
        var set4 = 0u;
        var seen = 0u;
        for (var i = 0u; i < 32u; i += 1u) {
            // chunk_of: join_key32.wgsl, which the host appends to this module.
            let v = chunk_of(block_keys[32u * w + i], c);
            set0 |= (v & 1u) << i;
            set1 |= ((v >> 1u) & 1u) << i;
            set2 |= ((v >> 2u) & 1u) << i;
            set3 |= ((v >> 3u) & 1u) << i;
            set4 |= ((v >> 4u) & 1u) << i;
            seen += 1u;
        }
        let first = 32u * w;
        var valid = 0u;
        if (len >= first + 32u) {
            valid = 0xffffffffu;
        } else if (len > first) {
            valid = (1u << (len - first)) - 1u;
        }
        var written = 0u;
        for (var v = 0u; v < CHUNK_ROWS; v += 1u) {
            var r = valid;
            r &= select(0xffffffffu, ~set0, (v & 1u) != 0u);
            r &= select(0xffffffffu, ~set1, (v & 2u) != 0u);
            r &= select(0xffffffffu, ~set2, (v & 4u) != 0u);
            r &= select(0xffffffffu, ~set3, (v & 8u) != 0u);
            r &= select(0xffffffffu, ~set4, (v & 16u) != 0u);
            rows[(base + c * CHUNK_ROWS + v) * 16u + w] = r;
            written += 1u;
        }
        if (seen != 32u || written != CHUNK_ROWS) {
            fault |= FAULT_CUT;
        }
        made += 1u;
    }
    if (made != (words + WG - 1u - lid) / WG) {
        fault |= FAULT_CUT;
    }
    if (fault != 0u) {
        atomicOr(&group_fault, fault);
    }
    workgroupBarrier();
    if (lid == 0u) {
        let slot = (d.y >> 16u) & (SUM_SLOTS - 1u);
        atomicAdd(&control[slot].units, 1u);
        let f = atomicLoad(&group_fault);
        if (f != 0u) {
            atomicOr(&control[slot].fault, f);
        }
    }
}
