//! CLI tests of `damier walk`.
