//! CLI tests of `damier play`.
