// The constants and the partial sum that the join's passes share (join.wgsl and its parts,
// join_reduce.wgsl, seal.wgsl, unpack.wgsl, pairs.wgsl): the host puts this prelude before
// each of their modules (prelude.rs's `join_module!`, device.rs's `join_source`), so that
// each value is written once. Every constant here is tested against the host's own
// (prelude.rs, `the_preludes_constants_are_the_hosts`), and no module declares one of them
// again.

// Fault bits of a partial sum (the host's `FAULT_CUT`, `FAULT_OVERFLOW`): a loop cut short
// or a bound failed; a 64-bit sum that overflowed.
const FAULT_CUT: u32 = 1u;
const FAULT_OVERFLOW: u32 = 2u;
// Partial sums of a dispatch (a power of two; the host reads as many: pipeline.rs).
const SUM_SLOTS: u32 = 32u;
// Stored keys of a block (the library's `BLOCK`), and so of a tail at most.
const BLOCK: u32 = 512u;
const MAX_TAIL: u32 = BLOCK;
// Key bits a chunk, rows of a block a chunk (one per chunk value: the library's `CHUNK`,
// `ROWS_PER_CHUNK`), and chunks of a key at most (the host's check).
const CHUNK_BITS: u32 = 5u;
const CHUNK_ROWS: u32 = 32u;
const MAX_CHUNKS: u32 = 12u;
// The bit of a query from which its weight exponent is stored (the library's `WEIGHT_AT`);
// the key bits are below it.
const WEIGHT_AT: u32 = 60u;
// Queries of a tile at most: a tile is one block (or a tail) against up to as many queries.
const TILE_QUERIES: u32 = 256u;
// Keys or queries of one entry of the unpack pass, pairs of one entry of the pairs pass
// (one workgroup each).
const UNPACK_ENTRY: u32 = 512u;
const PAIR_ENTRY: u32 = 512u;
// The mark in a pair's weight word of a batch the host gathered with others into one
// dispatch (its place among them in bits 8-15 picks its partial sum).
const MERGED: u32 = 0x10000u;

// A partial sum of a dispatch, as the host reads it (16 bytes): its 64-bit sum (low word,
// high word with the low word's carry), its fault bits, its units (the host checks them).
struct Control {
    lo: atomic<u32>,
    hi: atomic<u32>,
    fault: atomic<u32>,
    units: atomic<u32>,
}
