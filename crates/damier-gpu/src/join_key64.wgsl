// The join kernel's keys as u64 (where the adapter has SHADER_INT64; join.wgsl assembles it).
// PERF: a chunk is one shift and mask, not the two words' cases.

alias Key = u64;

fn key_of(q: vec2<u32>) -> Key {
    return (u64(q.y) << 32u) | u64(q.x);
}

// Chunk c's 5 bits (c < 12).
fn chunk_of(k: Key, c: u32) -> u32 {
    return u32(k >> (c * CHUNK_BITS)) & (CHUNK_ROWS - 1u);
}

// Whether tail key `k` matches query `q`: no key bit in common.
fn matches_tail_key(q: vec2<u32>, k: vec2<u32>) -> bool {
    // The key bits of a query, below its weight exponent (a constant the compiler folds:
    // naga evaluates no u64 shift in a `const`).
    let key_bits = (1lu << WEIGHT_AT) - 1lu;
    return (key_of(q) & key_of(k) & key_bits) == 0lu;
}
