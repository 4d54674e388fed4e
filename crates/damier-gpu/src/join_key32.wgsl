// The join kernel's keys as two u32 words (the portable path; join.wgsl assembles it).

alias Key = vec2<u32>;

// Bits of a query's high word below its weight exponent (key bits 32..59).
const HIGH_KEY: u32 = (1u << (WEIGHT_AT - 32u)) - 1u;

fn key_of(q: vec2<u32>) -> Key {
    return q;
}

// Chunk c's 5 bits (c < 12: bits 5c..5c+4, which may straddle the two words).
fn chunk_of(k: Key, c: u32) -> u32 {
    let s = c * CHUNK_BITS;
    var v = 0u;
    if (s < 32u) {
        v = k.x >> s;
        if (s > 27u) {
            v |= k.y << (32u - s);
        }
    } else {
        v = k.y >> (s - 32u);
    }
    return v & (CHUNK_ROWS - 1u);
}

// Whether tail key `k` matches query `q`: no key bit in common.
fn matches_tail_key(q: vec2<u32>, k: vec2<u32>) -> bool {
    return ((k.x & q.x) | (k.y & q.y & HIGH_KEY)) == 0u;
}
