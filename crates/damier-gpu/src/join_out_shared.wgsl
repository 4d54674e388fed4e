// The join kernel's output by atomics on shared partial sums (the kernel's way before the
// slot per tile, kept to compare: `GpuSettings::shared_sums`; join.wgsl assembles it): the
// workgroup's sum added to a u32 pair with a carry, one of SUM_SLOTS pairs of the dispatch
// (PERF: the workgroups add into 32 words, not all into one); an overflow of a pair sets a
// fault bit.

struct Control {
    lo: atomic<u32>,
    hi: atomic<u32>,
    fault: atomic<u32>,
    // Units done (the host checks it).
    units: atomic<u32>,
}

@group(0) @binding(5) var<storage, read_write> control: array<Control, SUM_SLOTS>;

// Adds the tile's sum and units (`total`) and fault bits into partial sum `c`.
fn put_tile(tile: u32, c: u32, total: vec2<u32>, fault: u32) {
    var f = fault;
    let s = total.x;
    let old = atomicAdd(&control[c].lo, s);
    if (old + s < old) {
        let old_hi = atomicAdd(&control[c].hi, 1u);
        if (old_hi == 0xffffffffu) {
            f |= FAULT_OVERFLOW;
        }
    }
    atomicAdd(&control[c].units, total.y);
    if (f != 0u) {
        atomicOr(&control[c].fault, f);
    }
}
