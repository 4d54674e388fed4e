//! CLI tests of `damier lights`.
