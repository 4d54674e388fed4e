// Model 3's fields, one synchronous generation (crates/damier-gpu/src/row.rs): the same bits
// as the CPU's row kernel (`Fields::row_kernel` in crates/damier/src/automaton/row/kernel.rs).
//
// Planes: row y's plane p (20 per row: the 6 counts' two bits, the west wave's 4, the east
// wave's 4, bit 0 first) is `words` words from `(y * 20 + p) * words`, cell x in bit x % 32 of
// word x / 32. Bits beyond the board's last column hold count 0 and wave 15; beyond a row's
// ends (word -1, word `words`) the guard of the CPU's layout: counts 0, waves 15.
// One invocation per (word, row) computes the 20 next planes of its 32 cells and, in the
// word of its row's queen, that cell's current 20 field bits for the queens' phase
// (`row_queens.wgsl`).

struct Params {
    n: u32,
    // Words per plane row: n / 32 rounded up.
    words: u32,
    // Saturation of a count (1 or 2).
    cap: u32,
    // The bits of the last word beyond the board.
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> cur: array<u32>;
@group(0) @binding(2) var<storage, read_write> next: array<u32>;
// Per row: its queen's column, HIDDEN when the counts do not see it (a walker, unseen).
@group(0) @binding(3) var<storage, read> queens: array<u32>;
@group(0) @binding(4) var<storage, read_write> queen_fields: array<u32>;
// The run's status (`row_queens.wgsl`): word 0, the conflicts left. A generation that starts
// on a solution copies the planes (the run has stopped, as the CPU's stops).
@group(0) @binding(5) var<storage, read> status: array<u32, STATUS_WORDS>;

// PLANES, WAVES, HIDDEN, STATUS_WORDS: row_prelude.wgsl, which the host puts first.
const WEST: u32 = WAVES;
const EAST: u32 = WAVES + 4u;
const ONES: u32 = 0xffffffffu;

// Word w of row y's plane p; beyond the row's ends, the guard (counts 0, waves all ones).
fn at(y: u32, p: u32, w: i32) -> u32 {
    if (w < 0 || w >= i32(params.words)) {
        return select(0u, ONES, p >= WEST);
    }
    return cur[(y * PLANES + p) * params.words + u32(w)];
}

// The bits of word w beyond the board (all of a guard word).
fn pad(w: i32) -> u32 {
    if (w < 0 || w >= i32(params.words)) {
        return ONES;
    }
    return select(0u, params.pad, u32(w) + 1u == params.words);
}

// Row y's plane p at word w, moved so that bit x holds bit x + dx (dx in -1..=1).
fn shifted(y: u32, p: u32, w: i32, dx: i32) -> u32 {
    let v = at(y, p, w);
    if (dx > 0) {
        return (v >> 1u) | (at(y, p, w + 1) << 31u);
    }
    if (dx < 0) {
        return (v << 1u) | (at(y, p, w - 1) >> 31u);
    }
    return v;
}

// Bit-sliced full adder: (sum, carry).
fn full_add(a: u32, b: u32, c: u32) -> vec2<u32> {
    let t = a ^ b;
    return vec2<u32>(t ^ c, (a & b) | (t & c));
}

// Bit-sliced sum of six one-bit numbers: bits 0, 1, 2.
fn sum6(l0: u32, l1: u32, l2: u32, l3: u32, l4: u32, l5: u32) -> vec3<u32> {
    let s1 = full_add(l0, l1, l2);
    let s2 = full_add(l3, l4, l5);
    let t = full_add(s1.y, s2.y, s1.x & s2.x);
    return vec3<u32>(s1.x ^ s2.x, t.x, t.y);
}

// The danger (sum of the 6 counts, 4 bits) of row y's word w; 15 beyond the board.
fn danger(y: u32, w: i32) -> vec4<u32> {
    let a = sum6(at(y, 0u, w), at(y, 2u, w), at(y, 4u, w), at(y, 6u, w), at(y, 8u, w), at(y, 10u, w));
    let b = sum6(at(y, 1u, w), at(y, 3u, w), at(y, 5u, w), at(y, 7u, w), at(y, 9u, w), at(y, 11u, w));
    // a + 2 b (at most 12)
    let t = a.z ^ b.y;
    let k1 = a.y & b.x;
    let k2 = (a.z & b.y) | (t & k1);
    let pd = pad(w);
    return vec4<u32>(a.x | pd, (a.y ^ b.x) | pd, (t ^ k1) | pd, (b.z ^ k2) | pd);
}

// Bit-sliced minimum of two 4-bit numbers (bit 0 first).
fn min4(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    var lt = 0u;
    var eq = ONES;
    lt = lt | (eq & ~a.w & b.w);
    eq = eq & ~(a.w ^ b.w);
    lt = lt | (eq & ~a.z & b.z);
    eq = eq & ~(a.z ^ b.z);
    lt = lt | (eq & ~a.y & b.y);
    eq = eq & ~(a.y ^ b.y);
    lt = lt | (eq & ~a.x & b.x);
    return b ^ ((a ^ b) & vec4<u32>(lt));
}

// min(danger, wave) of row y's word w for the wave whose planes start at p (all ones on a
// guard word: danger and wave are 15 there).
fn lowest(y: u32, p: u32, w: i32) -> vec4<u32> {
    let wave = vec4<u32>(at(y, p, w), at(y, p + 1u, w), at(y, p + 2u, w), at(y, p + 3u, w));
    return min4(danger(y, w), wave);
}

// The next count k (planes 2k, 2k + 1) of row y's word w from the source row src (dx: the
// source's column offset), the source row's queen added to the one cell that looks at it.
fn count(y: u32, w: u32, k: u32, src: i32, dx: i32) {
    let wi = i32(w);
    var lo = 0u;
    var hi = 0u;
    if (src >= 0 && src < i32(params.n)) {
        let s = u32(src);
        lo = shifted(s, 2u * k, wi, dx);
        hi = shifted(s, 2u * k + 1u, wi, dx);
        if (dx < 0) {
            // a shift towards the east moves the last cell's bit into the padding
            lo = lo & ~pad(wi);
            hi = hi & ~pad(wi);
        }
        let q = queens[s];
        let x = i32(q & ~HIDDEN) - dx;
        if ((q & HIDDEN) == 0u && x >= 0 && x < i32(params.n) && u32(x) / 32u == w) {
            let bit = 1u << (u32(x) % 32u);
            let v = min(select(0u, 1u, (lo & bit) != 0u) + select(0u, 2u, (hi & bit) != 0u) + 1u, params.cap);
            lo = (lo & ~bit) | select(0u, bit, (v & 1u) != 0u);
            hi = (hi & ~bit) | select(0u, bit, (v & 2u) != 0u);
        }
    }
    let base = y * PLANES * params.words + w;
    next[base + 2u * k * params.words] = lo;
    next[base + (2u * k + 1u) * params.words] = hi;
}

@compute @workgroup_size(32, 4)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let w = id.x;
    let y = id.y;
    if (w >= params.words || y >= params.n) {
        return;
    }
    if (status[0] == 0u) {
        for (var p = 0u; p < PLANES; p++) {
            let i = (y * PLANES + p) * params.words + w;
            next[i] = cur[i];
        }
        return;
    }
    let wi = i32(w);
    let yi = i32(y);
    // N, NE, SE, S, SW, NW: their source rows and column offsets
    count(y, w, 0u, yi - 1, 0);
    count(y, w, 1u, yi - 1, 1);
    count(y, w, 2u, yi + 1, 1);
    count(y, w, 3u, yi + 1, 0);
    count(y, w, 4u, yi + 1, -1);
    count(y, w, 5u, yi - 1, -1);
    // waves: min(danger, wave) of the cell one column towards the wave's side, 15 shifted in
    // at the ends
    let pd = vec4<u32>(pad(wi));
    let west = (lowest(y, WEST, wi) << vec4<u32>(1u)) | (lowest(y, WEST, wi - 1) >> vec4<u32>(31u)) | pd;
    let east = (lowest(y, EAST, wi) >> vec4<u32>(1u)) | (lowest(y, EAST, wi + 1) << vec4<u32>(31u)) | pd;
    let base = y * PLANES * params.words + w;
    for (var i = 0u; i < 4u; i++) {
        next[base + (WEST + i) * params.words] = west[i];
        next[base + (EAST + i) * params.words] = east[i];
    }
    // the queen cell's current field bits, for the host
    let qx = queens[y] & ~HIDDEN;
    if (qx / 32u == w) {
        var f = 0u;
        for (var p = 0u; p < PLANES; p++) {
            f = f | (((at(y, p, wi) >> (qx % 32u)) & 1u) << p);
        }
        queen_fields[y] = f;
    }
}
