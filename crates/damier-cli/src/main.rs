//! The `damier` command-line tool: a thin layer over the `damier` library.

// Output goes through `util::output` (`outln!`, `errln!`, ...): `println!` and `eprintln!`
// panic when a write fails, and a failed write of a result must be reported (exit 74).
#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::io::Write;
use std::process::ExitCode;

mod cmd;
mod gpu;
mod report;
mod tui;
mod util;

fn main() -> ExitCode {
    util::output::report_file_size_limit();
    keep_within_the_address_space_limit();
    match run() {
        Ok(code) => code,
        Err(err) => util::exit::report(&err),
    }
}

/// Under an address-space limit (`ulimit -v`), holds glibc's malloc to one arena and its mmap
/// threshold at 128 KiB, so that the memory a count plans for ([`damier::queens::count`]'s
/// `--memory` room, at most the limit) is the address space it takes: each thread's arena
/// reserved 64 MiB heaps, and with the threshold raised to the largest block freed (glibc's
/// default) the workers' buffers of up to 32 MB came from those heaps, split between threads.
/// `queens count 25 --share 1/2000` aborted under `ulimit -v 1000000` with its buffers planned
/// to fit (it ran with `MALLOC_ARENA_MAX=1`). Without a limit nothing changes. Elsewhere
/// (another allocator) it does nothing.
fn keep_within_the_address_space_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if damier::util::address_space_limit().is_some() {
        // SAFETY: `mallopt` only sets parameters of glibc's allocator, under the allocator's
        // own lock, before any other thread starts; no memory is touched.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
            libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let (cli, matches) = match cmd::parse() {
        Ok(parsed) => parsed,
        // A usage error goes to stderr (exit 2; a message that cannot be shown is dropped),
        // under the program's one prefix, `damier: error: ` (issue 52 §5: clap's began
        // `error: `).
        Err(err) if err.use_stderr() => {
            // (The help that a missing command prints there is no error: it keeps its text.)
            let text = util::exit::usage_text(&err);
            let prefix = if text.starts_with("error: ") { "damier: " } else { "" };
            let _ = write!(std::io::stderr(), "{prefix}{}", util::exit::long_words_cut(&text));
            return Ok(ExitCode::from(util::exit::USAGE));
        }
        // Help and version go to stdout (exit 0); a failed write is exit 74 like any other.
        Err(answer) => {
            util::output::print_clap(&answer)?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    // Every file or folder the command will write is checked before any work (exit 2).
    util::output::check_output_paths(&cmd::command(), &matches)?;
    util::interrupt::install();
    let code = cmd::run(cli)?;
    // What stdout still buffers is written now, so that a failure is reported, not lost at exit.
    util::output::flush_stdout()?;
    Ok(code)
}
