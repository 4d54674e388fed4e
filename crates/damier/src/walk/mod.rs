//! The pawn walk, "promenade binaire" (SPEC §4, seed 003).
