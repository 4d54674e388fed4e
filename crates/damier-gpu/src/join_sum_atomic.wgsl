// The join kernel's workgroup sum by workgroup atomics (the portable path; join.wgsl
// assembles it).

var<workgroup> group_sum: atomic<u32>;
var<workgroup> group_units: atomic<u32>;

// The workgroup's sum and units, after a barrier (every invocation calls it).
fn group_total(sum: u32, units: u32, lid: u32) -> vec2<u32> {
    if (sum != 0u) {
        atomicAdd(&group_sum, sum);
    }
    atomicAdd(&group_units, units);
    workgroupBarrier();
    return vec2<u32>(atomicLoad(&group_sum), atomicLoad(&group_units));
}
