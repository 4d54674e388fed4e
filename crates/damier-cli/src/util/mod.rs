//! Conventions shared by every subcommand: exit codes, Ctrl-C, progress, output files, plots.

pub mod board_io;
pub mod exit;
pub mod interrupt;
pub mod output;
pub mod plot;
pub mod progress;
