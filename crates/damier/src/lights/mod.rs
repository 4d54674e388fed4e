//! Lights Out over GF(2) (SPEC §3, seed 002).
