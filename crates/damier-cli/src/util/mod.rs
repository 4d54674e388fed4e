//! Conventions shared by every subcommand: exit codes, Ctrl-C, progress, output files, plots.

pub mod board_io;
pub mod csv_file;
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

/// A rayon pool of `threads` workers (`None` or 0: one per core), for `--threads`.
pub fn pool(threads: Option<u32>) -> anyhow::Result<rayon::ThreadPool> {
    use anyhow::Context;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0) as usize)
        .build()
        .context("cannot start the thread pool")
}
