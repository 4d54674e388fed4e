// The join kernel's output, a slot per tile (the default; join.wgsl assembles it): the tile's
// sum, and its units with its fault bits, stored in the tile's own slot of the dispatch, which
// the reduce pass (join_reduce.wgsl) adds up after the dispatch. PERF: a plain store to an
// address no other workgroup touches, not an atomic add on one of 32 words that every
// workgroup of the dispatch shares.

// Tile t of the dispatch (t = tile - tile_begin): (sum, units | faults << 16). A tile's sum is
// at most 2^23 (256 units of at most 512 << 6), its units at most 256. The host makes the
// buffer hold every tile of each dispatch it binds it for (`Slot::load_params`).
@group(0) @binding(5) var<storage, read_write> partials: array<vec2<u32>>;

// Puts out the tile's sum and units (`total`) and fault bits (`c`, the partial sum the shared
// output would pick, is the reduce's to find: the tile's range).
fn put_tile(tile: u32, c: u32, total: vec2<u32>, fault: u32) {
    partials[tile - params.tile_begin] = vec2<u32>(total.x, total.y | (fault << 16u));
}
