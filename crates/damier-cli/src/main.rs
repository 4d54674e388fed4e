//! The `damier` command-line tool: a thin layer over the `damier` library.

use std::process::ExitCode;

use clap::Parser;

mod cmd;
mod tui;
mod util;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(err) => util::exit::report(&err),
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = match cmd::Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help/version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = err.print();
            return Ok(ExitCode::from(if err.use_stderr() { 2 } else { 0 }));
        }
    };
    util::interrupt::install();
    cmd::run(cli)
}
