// The join kernel's output by atomics on shared partial sums (the kernel's way before the
// slot per tile, kept to compare: `GpuSettings::shared_sums`; join.wgsl assembles it): the
// workgroup's sum added to a u32 pair with a carry, one of SUM_SLOTS pairs of the dispatch
// (PERF: the workgroups add into 32 words, not all into one); an overflow of a pair sets a
// fault bit.

// The partial sums (prelude.wgsl's `Control`).
@group(0) @binding(5) var<storage, read_write> control: array<Control, SUM_SLOTS>;

// Bits each tile's value is shifted left by into its 64 bits (at most 31): 0 but where a test
// sets it (with TILE_BIAS: tiles of about 2^(32 + TILE_SHIFT)), so that a partial sum passes
// 2^64 at the sizes lavapipe counts and the overflow bit is raised; the host sets it nowhere.
override TILE_SHIFT: u32 = 0u;

// Adds the tile's sum and units (`total`) and fault bits into partial sum `c`: the sum's 64
// bits (its low word, then its high word with the low word's carry; each add atomic, so the
// add that wraps a word is the one that sees it).
fn put_tile(tile: u32, c: u32, total: vec2<u32>, fault: u32) {
    var f = fault;
    let k = min(TILE_SHIFT, 31u);
    let lo = total.x << k;
    // The bits shifted out (below 2^31, so `up` cannot wrap); 0 when k is 0.
    let hi = (total.x >> 1u) >> (31u - k);
    let old = atomicAdd(&control[c].lo, lo);
    let up = hi + select(0u, 1u, old + lo < old);
    if (up != 0u) {
        let old_hi = atomicAdd(&control[c].hi, up);
        if (old_hi + up < old_hi) {
            f |= FAULT_OVERFLOW;
        }
    }
    atomicAdd(&control[c].units, total.y);
    if (f != 0u) {
        atomicOr(&control[c].fault, f);
    }
}
