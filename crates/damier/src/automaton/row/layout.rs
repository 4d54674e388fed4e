//! The bit-sliced layout of a model 3 board: the planes of a row (each of a cell's 20 field
//! bits in its own plane, 64 cells a word), the bits of a row's queen state and of a cell's
//! checkpoint word, and the field bits' danger.

/// The 6 directions (indices into [`DIRECTIONS`](crate::automaton::dir::DIRECTIONS)) that
/// leave the row: N, NE, SE, S, SW, NW.
pub const LINE_DIRS: [usize; 6] = [0, 1, 3, 4, 5, 7];

/// The wave value of "no cell on this side" (and the danger of a frame cell): larger than any
/// danger (at most `6 * cap`).
pub const FAR: u8 = 15;

/// A cell holding its row's queen.
pub(super) const QUEEN: u16 = 1;
/// The queen of the cell is walking (only with [`Rule::hide_walkers`](super::Rule::hide_walkers)).
pub(super) const WALKING: u16 = 2;
/// A walking queen's direction: east when set, else west.
pub(super) const EAST: u16 = 4;
/// A settled queen's patience count ([`Rule::patience`](super::Rule::patience)): 4 bits from this one.
pub(super) const PATIENCE_SHIFT: u32 = 3;
/// A settled queen's rest count ([`Rule::rest`](super::Rule::rest)): 4 bits from this one.
pub(super) const REST_SHIFT: u32 = 7;

/// A settled queen that was out of danger at its last generation
/// ([`Rule::backoff_hits`](super::Rule::backoff_hits) only).
pub(super) const SAFE: u16 = 1 << 11;

/// Bit of a cell word: the cell holds its row's queen.
pub(super) const WORD_QUEEN: u32 = 1 << 20;
/// Bit of a cell word: that queen walks.
pub(super) const WORD_WALKING: u32 = 1 << 21;
/// Bit of a cell word: the walk goes east.
pub(super) const WORD_EAST: u32 = 1 << 22;
/// First of the 4 bits of a cell word that hold its settled queen's patience count.
pub(super) const WORD_PATIENCE_SHIFT: u32 = 23;
/// First of the 4 bits of a cell word that hold its settled queen's rest count.
pub(super) const WORD_REST_SHIFT: u32 = 27;
/// Bit of a cell word: its settled queen was out of danger ([`SAFE`]).
pub(super) const WORD_SAFE: u32 = 1 << 31;

/// Bit planes of a row: plane `2k` holds bit 0 and plane `2k + 1` bit 1 of the count along
/// `LINE_DIRS[k]`, then the west wave's 4 planes (12..16) and the east wave's (16..20), bit 0
/// first. Public for the engines that compute the fields elsewhere
/// ([`RowBoard::plane`](super::RowBoard::plane)).
pub const PLANES: usize = 20;
/// First plane of the west wave.
pub(super) const WEST: usize = 12;
/// First plane of the east wave.
pub(super) const EAST_P: usize = 16;
/// Words of a plane row come in blocks of this many (the width of the bit-sliced kernel).
pub(super) const BLOCK: usize = 4;
/// The field bits ([`RowBoard::fields`](super::RowBoard::fields)) of the counts towards the
/// north (N, NE and NW are `LINE_DIRS[0]`, `[1]` and `[5]`).
pub(super) const NORTH: u32 = 3 | 3 << 2 | 3 << 10;
/// Column offsets of the 6 counts' sources (`DIRECTIONS[LINE_DIRS[k]].0`).
pub(super) const DX: [i32; 6] = [0, 1, 1, 0, -1, -1];

/// The danger (sum of the 6 counts) of a cell's field bits
/// ([`RowBoard::fields`](super::RowBoard::fields)).
#[inline(always)]
pub(super) fn danger_of_fields(f: u32) -> u8 {
    let mut d = 0;
    for k in 0..6 {
        d += (f >> (2 * k)) as u8 & 3;
    }
    d
}
