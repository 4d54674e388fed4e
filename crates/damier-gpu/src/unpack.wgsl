// Unpacking on the GPU (docs/gpu.md, "Sealing on the GPU"): the host sends a batch's stored
// keys and queries in their packed width (4 to 8 bytes each, little-endian, back to back: the
// bytes their bits need, a query's weight exponent in its 2 low bits), and this pass, first
// in the seal's compute pass, writes them out as the (low word, high word) pairs the seal
// pass and the join kernel read, a query's weight exponent at bit 60 as the library has it.
//
// One workgroup an *entry*: up to 512 keys or queries of one width, from a byte offset of
// `packed` to an index of the keys or the queries. Each entry adds 1 to the units of its
// partial sum (the host counts them with the seal's and the join's: a workgroup the driver
// skipped fails the count) and raises the fault bit of a loop cut short.

// UNPACK_ENTRY, WEIGHT_AT, SUM_SLOTS, FAULT_CUT and the partial sum `Control`: prelude.wgsl,
// which the host puts first.
const WG: u32 = 64u;
const ENTRY: u32 = UNPACK_ENTRY;

// The seal pass's parameters (seal.wgsl), whose words 4 and 5 are this pass's.
struct Params {
    _block_begin: u32,
    _block_end: u32,
    _chunks: u32,
    _width: u32,
    // Entries 0..entries of `entries`.
    entries: u32,
    // Workgroups per row of the dispatch grid (entry = y * width + x).
    width: u32,
    _pad0: u32,
    _pad1: u32,
}

// An entry: its first element's byte in `packed`, its first element's index in the output,
// `len | partial sum << 16 | kind << 24` (1 to 512 elements; kind 0: stored keys, 1:
// queries), `width | query code << 8` (4 to 8 bytes an element; code 1: a query's weight
// exponent in its 2 low bits, the key above; 0: the element as it lies).
struct Entry {
    byte: u32,
    first: u32,
    len: u32,
    code: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> packed: array<u32>;
@group(0) @binding(2) var<storage, read> entries: array<Entry>;
@group(0) @binding(3) var<storage, read_write> keys: array<vec2<u32>>;
@group(0) @binding(4) var<storage, read_write> queries: array<vec2<u32>>;
@group(0) @binding(5) var<storage, read_write> control: array<Control, SUM_SLOTS>;

var<workgroup> group_fault: atomic<u32>;

// The `width` bytes (4 to 8) from byte `byte` of `packed`, as (low word, high word).
fn packed_at(byte: u32, width: u32) -> vec2<u32> {
    let w = byte / 4u;
    let s = (byte % 4u) * 8u;
    let a = packed[w];
    let b = packed[w + 1u];
    var lo = a >> s;
    var hi = b >> s;
    if (s != 0u) {
        lo |= b << (32u - s);
        hi |= packed[w + 2u] << (32u - s);
    }
    if (width < 8u) {
        hi &= (1u << (8u * (width - 4u))) - 1u;
    }
    return vec2<u32>(lo, hi);
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let e = wid.y * params.width + wid.x;
    // The same for the whole workgroup: the barrier below stays in uniform control flow.
    if (e >= params.entries) {
        return;
    }
    if (lid == 0u) {
        atomicStore(&group_fault, 0u);
    }
    workgroupBarrier();
    let d = entries[e];
    let len = min(d.len & 0xffffu, ENTRY);
    let query = ((d.len >> 24u) & 3u) == 1u;
    let width = clamp(d.code & 0xffu, 4u, 8u);
    let coded = ((d.code >> 8u) & 0xffu) == 1u;
    var fault = 0u;
    var done = 0u;
    for (var i = lid; i < ENTRY; i += WG) {
        if (i < len) {
            var v = packed_at(d.byte + i * width, width);
            if (coded) {
                // key << 2 | exponent, the key below 2^60: the key, the exponent at bit 60.
                v = vec2<u32>((v.x >> 2u) | (v.y << 30u), (v.y >> 2u) | ((v.x & 3u) << (WEIGHT_AT - 32u)));
            }
            if (query) {
                queries[d.first + i] = v;
            } else {
                keys[d.first + i] = v;
            }
        }
        done += 1u;
    }
    if (done != ENTRY / WG) {
        fault |= FAULT_CUT;
    }
    if (fault != 0u) {
        atomicOr(&group_fault, fault);
    }
    workgroupBarrier();
    if (lid == 0u) {
        let slot = (d.len >> 16u) & (SUM_SLOTS - 1u);
        atomicAdd(&control[slot].units, 1u);
        let f = atomicLoad(&group_fault);
        if (f != 0u) {
            atomicOr(&control[slot].fault, f);
        }
    }
}
