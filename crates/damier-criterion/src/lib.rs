//! The criterion benchmarks of the `damier` library, in `benches/`: `cargo bench -p
//! damier-criterion --bench queens` (also `automaton`, `lights`, `walk`, `factor`). A crate
//! of their own, outside the workspace's default members, so that criterion's dependencies
//! stay out of the README's `cargo test` (ARCHITECTURE.md).
