//! Conventions shared by every subcommand: exit codes, Ctrl-C, progress, output files, plots.

// Some helpers serve commands still being written.
#![allow(dead_code)]

pub mod exit;
pub mod interrupt;
pub mod output;
pub mod plot;
pub mod progress;
