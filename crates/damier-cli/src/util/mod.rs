//! Conventions shared by every subcommand: exit codes, Ctrl-C, progress, output files, plots.

pub mod board_io;
pub mod exit;
pub mod interrupt;
pub mod output;
pub mod plot;
pub mod progress;
pub mod test_hooks;

/// The types of file arguments: an [`OutputPath`] is written (and so never given by a web
/// request), an [`InputFile`] is read (its content comes in a web request). Every file
/// argument is declared with one of them; the web lab's rules read the type.
pub use damier_web::trust::{InputFile, OutputPath};
