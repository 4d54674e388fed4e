//! CLI tests of `damier automaton`.
