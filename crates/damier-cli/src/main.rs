//! The `damier` command-line tool: a thin layer over the `damier` library.

// Output goes through `util::output` (`outln!`, `errln!`, ...): `println!` and `eprintln!`
// panic when a write fails, and a failed write of a result must be reported (exit 74).
#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

use clap::Parser;

mod cmd;
mod tui;
mod util;

fn main() -> ExitCode {
    util::output::report_file_size_limit();
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
    let code = cmd::run(cli)?;
    // What stdout still buffers is written now, so that a failure is reported, not lost at exit.
    util::output::flush_stdout()?;
    Ok(code)
}
