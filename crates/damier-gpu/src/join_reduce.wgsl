// The join kernel's reduce pass (docs/gpu.md, "The kernel"): after each dispatch of the join
// kernel with a slot per tile (join_out_tile.wgsl), in the same compute pass, this pass adds
// the dispatch's tile slots into its SUM_SLOTS partial sums, the ones the host reads back.
// Partial sum c is the sum of the tiles of range c (the host's: the tiles cut evenly, or one
// merged batch's tiles each, so that each batch's count comes back apart): 64 bits, a u32 pair
// with a carry (an overflow sets a fault bit), its units, and the fault bits of its tiles
// ORed. One workgroup a range; no atomics: each workgroup alone writes its partial sum, added
// to what the seal pass left there (its blocks' units, and its faults), which ran before.
// Each tile slot read is cleared, so that a tile of a later dispatch that the driver skipped
// leaves no units behind (the host would miss them) but a zero (the host sees them missing).
//
// Compiled checked (naga's bounds checks and loop bounding kept): a small part of the work.
// Its loop over a range counts its iterations (a loop cut short sets FAULT_CUT), and a tile
// it skipped fails the host's check of the units.

// SUM_SLOTS, the fault bits: prelude.wgsl, which the host puts first.
const WG: u32 = 256u;

// Bits each tile's value is shifted left by into its 64 bits (at most 31): 0 but where a test
// sets it (with the join kernel's TILE_BIAS: tiles of about 2^(32 + TILE_SHIFT)), so that a
// partial sum passes 2^64 at the sizes lavapipe counts and the overflow bit is raised; the
// host sets it nowhere.
override TILE_SHIFT: u32 = 0u;

struct Params {
    // Range c of the dispatch's tiles: ends[c - 1]..ends[c] (from 0 for c = 0), end c at
    // ends[c / 4][c % 4].
    ends: array<vec4<u32>, 8>,
}

// A partial sum (prelude.wgsl's `Control`), its words plain: no other workgroup touches it.
struct Partial {
    lo: u32,
    hi: u32,
    fault: u32,
    units: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Tile t of the dispatch: (sum, units | faults << 16); zero after this pass.
@group(0) @binding(1) var<storage, read_write> partials: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read_write> control: array<Partial, SUM_SLOTS>;

var<workgroup> part_lo: array<u32, WG>;
var<workgroup> part_hi: array<u32, WG>;
var<workgroup> part_units: array<u32, WG>;
var<workgroup> part_fault: array<u32, WG>;

fn end_of(c: u32) -> u32 {
    return params.ends[c / 4u][c % 4u];
}

// (lo, hi) + (lo, hi) with the carry, and whether it overflowed 64 bits.
fn add64(a: vec2<u32>, b: vec2<u32>) -> vec3<u32> {
    let lo = a.x + b.x;
    let carry = select(0u, 1u, lo < a.x);
    let h = a.y + b.y;
    let hi = h + carry;
    let over = select(0u, 1u, h < a.y || hi < h);
    return vec3<u32>(lo, hi, over);
}

// A tile's value `v << TILE_SHIFT` as (lo, hi).
fn widened(v: u32) -> vec2<u32> {
    let k = min(TILE_SHIFT, 31u);
    // The bits shifted out: 0 when k is 0 (no shift by 32).
    return vec2<u32>(v << k, (v >> 1u) >> (31u - k));
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let c = wid.x;
    if (c >= SUM_SLOTS) {
        return;
    }
    var begin = 0u;
    if (c > 0u) {
        begin = end_of(c - 1u);
    }
    let end = end_of(c);
    var sum = vec2<u32>(0u);
    var units = 0u;
    var fault = 0u;
    var seen = 0u;
    for (var t = begin + lid; t < end; t += WG) {
        let v = partials[t];
        partials[t] = vec2<u32>(0u);
        let s = add64(sum, widened(v.x));
        sum = s.xy;
        if (s.z != 0u) {
            fault |= FAULT_OVERFLOW;
        }
        units += v.y & 0xffffu;
        fault |= v.y >> 16u;
        seen += 1u;
    }
    var want = 0u;
    if (end > begin + lid) {
        want = (end - begin - lid + WG - 1u) / WG;
    }
    if (seen != want) {
        fault |= FAULT_CUT;
    }
    part_lo[lid] = sum.x;
    part_hi[lid] = sum.y;
    part_units[lid] = units;
    part_fault[lid] = fault;
    workgroupBarrier();
    var halves = 0u;
    for (var half = WG / 2u; half > 0u; half >>= 1u) {
        if (lid < half) {
            let s = add64(vec2<u32>(part_lo[lid], part_hi[lid]), vec2<u32>(part_lo[lid + half], part_hi[lid + half]));
            part_lo[lid] = s.x;
            part_hi[lid] = s.y;
            part_units[lid] += part_units[lid + half];
            part_fault[lid] |= part_fault[lid + half] | select(0u, FAULT_OVERFLOW, s.z != 0u);
        }
        halves += 1u;
        workgroupBarrier();
    }
    if (lid == 0u) {
        var f = part_fault[0];
        if (halves != 8u) {
            f |= FAULT_CUT;
        }
        let old = control[c];
        let s = add64(vec2<u32>(old.lo, old.hi), vec2<u32>(part_lo[0], part_hi[0]));
        if (s.z != 0u) {
            f |= FAULT_OVERFLOW;
        }
        control[c] = Partial(s.x, s.y, old.fault | f, old.units + part_units[0]);
    }
}
