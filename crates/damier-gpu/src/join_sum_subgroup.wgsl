// The join kernel's workgroup sum by subgroup reductions (where the adapter has SUBGROUP;
// join.wgsl assembles it). PERF: one workgroup atomic a subgroup, not one an invocation.

var<workgroup> group_sum: atomic<u32>;
var<workgroup> group_units: atomic<u32>;

// The workgroup's sum and units, after a barrier (every invocation calls it, in uniform
// control flow: every lane of each subgroup is active).
fn group_total(sum: u32, units: u32, lid: u32) -> vec2<u32> {
    let s = subgroupAdd(sum);
    let u = subgroupAdd(units);
    // The subgroup's first lane adds for it.
    if (subgroupMin(lid) == lid) {
        atomicAdd(&group_sum, s);
        atomicAdd(&group_units, u);
    }
    workgroupBarrier();
    return vec2<u32>(atomicLoad(&group_sum), atomicLoad(&group_units));
}
