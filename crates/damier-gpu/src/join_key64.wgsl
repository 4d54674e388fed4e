// The join kernel's keys as u64 (where the adapter has SHADER_INT64; join.wgsl assembles it).
// PERF: a chunk is one shift and mask, not the two words' cases.

alias Key = u64;

// The key bits of a query (below its weight exponent at bit 60).
const KEY_BITS: u64 = 0x0ffffffffffffffflu;

fn key_of(q: vec2<u32>) -> Key {
    return (u64(q.y) << 32u) | u64(q.x);
}

// Chunk c's 5 bits (c < 12).
fn chunk_of(k: Key, c: u32) -> u32 {
    return u32(k >> (c * 5u)) & 31u;
}

// Whether tail key `k` matches query `q`: no key bit in common.
fn matches_tail_key(q: vec2<u32>, k: vec2<u32>) -> bool {
    return (key_of(q) & key_of(k) & KEY_BITS) == 0lu;
}
