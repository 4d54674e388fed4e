// The constants model 3's two kernels share with each other and with the host (row.wgsl,
// row_queens.wgsl; row.rs puts this prelude before each), each written once and tested
// against the host's own (prelude.rs, `the_preludes_constants_are_the_hosts`).

// The mark on a queen column that the counts do not see (an unseen walker).
const HIDDEN: u32 = 0x80000000u;
// Bit planes of a row (the library's `PLANES`: the 6 counts' two bits, the west wave's 4,
// the east wave's 4), the first of the waves' planes.
const PLANES: u32 = 20u;
const WAVES: u32 = 12u;
// Words of the run's status: conflicts left, steps and moves (low, high), the generator's
// four words (low, high each).
const STATUS_WORDS: u32 = 13u;
