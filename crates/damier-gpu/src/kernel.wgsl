// damier's GPU counter of n queens tasks (docs/gpu.md): one invocation is one *slot* that
// takes prefixes (rows 0..start_row placed by the host) from a shared atomic counter and
// finishes each by an iterative depth-first search over bit masks, the last row counted by
// popcount. A dispatch runs at most `budget` loop iterations per slot; the slot's state
// (its prefix, its stack and its partial count) is written back and the next dispatch
// resumes it, so that no invocation runs long (drivers' watchdogs, and lavapipe's silent cap
// on a shader loop's iterations, which the `exited` check turns into a reported fault).
//
// Counts are u32 pairs (WGSL has no u64): per slot while a prefix runs, then added into the
// prefix's task with a carry; every overflow sets a fault bit instead of wrapping.

// Levels of a slot's stack: rows start_row..n-2 (the host checks n - 1 - start_row <= MAXL).
const MAXL: u32 = 20u;
const NONE: u32 = 0xffffffffu;
// Fault bits (control.fault): the driver cut the loop short; a count overflowed 64 bits.
const FAULT_CUT: u32 = 1u;
const FAULT_OVERFLOW: u32 = 2u;
// The weight exponent (queens of the top half on a long diagonal) rides in the column word's
// bits 29..30: columns use bits 0..27 (n <= 28).
const E_SHIFT: u32 = 29u;

struct Params {
    // Rows placed by the host; the first row a slot places.
    start_row: u32,
    // The last row (n - 1), counted by popcount.
    last_row: u32,
    // Loop iterations per slot in this dispatch.
    budget: u32,
    prefix_count: u32,
    // (1 << n) - 1.
    full: u32,
    slot_count: u32,
    // 1 on a batch's first dispatch: slots start empty whatever their buffer holds.
    fresh: u32,
    _pad: u32,
}

struct Control {
    // The next prefix to take.
    next: atomic<u32>,
    // Slots that may have work left after this dispatch.
    busy: atomic<u32>,
    fault: atomic<u32>,
    _pad: u32,
}

struct Slot {
    prefix: u32,
    level: u32,
    lo: u32,
    hi: u32,
    // Per level: columns (| exponent << E_SHIFT), both diagonals, squares left to try.
    stack: array<vec4<u32>, MAXL>,
}

@group(0) @binding(0) var<uniform> params: Params;
// Per row: x = the squares a bottom-half row may take (off both long diagonals), y = the
// squares of a top-half row that double the weight (long diagonals but the centre), z = 1 for
// a top-half row (which takes its task's columns).
@group(0) @binding(1) var<storage, read> rows: array<vec4<u32>>;
// The column set of each task of the batch.
@group(0) @binding(2) var<storage, read> task_cols: array<u32>;
// x = columns | exponent << E_SHIFT, y and z = diagonals projected onto start_row, w = task.
@group(0) @binding(3) var<storage, read> prefixes: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> slots: array<Slot>;
@group(0) @binding(5) var<storage, read_write> control: Control;
// Per task of the batch: the low and high words of its count.
@group(0) @binding(6) var<storage, read_write> counts: array<atomic<u32>>;

fn allowed(row: u32, task: u32) -> u32 {
    let r = rows[row];
    return select(r.x, task_cols[task], r.z != 0u);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let s = gid.x;
    if (s >= params.slot_count) {
        return;
    }
    var stack: array<vec4<u32>, MAXL>;
    var prefix = NONE;
    var level = 0u;
    var lo = 0u;
    var hi = 0u;
    var task = 0u;
    if (params.fresh == 0u) {
        prefix = slots[s].prefix;
        level = slots[s].level;
        lo = slots[s].lo;
        hi = slots[s].hi;
        if (prefix != NONE) {
            task = prefixes[prefix].w;
            for (var i = 0u; i <= level; i += 1u) {
                stack[i] = slots[s].stack[i];
            }
        }
    }
    var fault = 0u;
    var exhausted = false;
    var exited = false;
    var left = params.budget;
    loop {
        if (left == 0u) {
            exited = true;
            break;
        }
        left -= 1u;
        if (prefix == NONE) {
            // PERF: a plain load first, so that finished slots stop bumping the counter.
            if (atomicLoad(&control.next) >= params.prefix_count) {
                exhausted = true;
                exited = true;
                break;
            }
            let p = atomicAdd(&control.next, 1u);
            if (p >= params.prefix_count) {
                exhausted = true;
                exited = true;
                break;
            }
            prefix = p;
            let pre = prefixes[p];
            task = pre.w;
            let cols = pre.x & params.full;
            stack[0] = vec4<u32>(pre.x, pre.y, pre.z, allowed(params.start_row, task) & ~(cols | pre.y | pre.z));
            level = 0u;
            lo = 0u;
            hi = 0u;
            continue;
        }
        let top = stack[level];
        if (top.w == 0u) {
            if (level == 0u) {
                // The prefix is finished: its count goes to its task, with the carry.
                let old = atomicAdd(&counts[2u * task], lo);
                let carry = select(0u, 1u, old + lo < old);
                if (hi == NONE && carry == 1u) {
                    fault |= FAULT_OVERFLOW;
                }
                let add = hi + carry;
                let old_hi = atomicAdd(&counts[2u * task + 1u], add);
                if (old_hi + add < old_hi) {
                    fault |= FAULT_OVERFLOW;
                }
                prefix = NONE;
                continue;
            }
            level -= 1u;
            continue;
        }
        let b = top.w & (0u - top.w);
        stack[level].w = top.w ^ b;
        let row = params.start_row + level;
        let e = (top.x >> E_SHIFT) + select(0u, 1u, (b & rows[row].y) != 0u);
        let cols = (top.x & params.full) | b;
        let ld = ((top.y | b) << 1u) & params.full;
        let rd = (top.z | b) >> 1u;
        let free = allowed(row + 1u, task) & ~(cols | ld | rd);
        if (row + 1u == params.last_row) {
            let x = countOneBits(free) << e;
            let sum = lo + x;
            if (sum < x) {
                if (hi == NONE) {
                    fault |= FAULT_OVERFLOW;
                }
                hi += 1u;
            }
            lo = sum;
        } else if (free != 0u) {
            level += 1u;
            stack[level] = vec4<u32>(cols | (e << E_SHIFT), ld, rd, free);
        }
    }
    // Every way out of the loop sets `exited`: a loop the driver stopped did not.
    if (!exited) {
        fault |= FAULT_CUT;
    }
    if (fault != 0u) {
        atomicOr(&control.fault, fault);
    }
    slots[s].prefix = prefix;
    slots[s].level = level;
    slots[s].lo = lo;
    slots[s].hi = hi;
    if (prefix != NONE) {
        for (var i = 0u; i <= level; i += 1u) {
            slots[s].stack[i] = stack[i];
        }
    }
    if (!exhausted) {
        atomicAdd(&control.busy, 1u);
    }
}
