//! `damier completions SHELL` and `damier man`: the shell completions (`clap_complete`) and
//! the manual pages (`clap_mangen`), generated from the same clap definitions as the parser,
//! so they never drift from the real arguments. Install lines are in the README.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;

use crate::util::OutputPath;
use crate::util::output::{self, Durability, errln};

/// Arguments of `damier completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell whose completion script is printed on stdout.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Arguments of `damier man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write one page per command into DIR (damier.1, damier-queens.1,
    /// damier-queens-count.1, …; DIR itself is created if its parent exists) instead of
    /// printing the page of `damier` on stdout.
    #[arg(long, value_name = "DIR")]
    out: Option<OutputPath>,
}

/// `tree`, the whole command line as clap knows it, built (subcommands named
/// `damier-queens-count`).
fn built(tree: clap::Command) -> clap::Command {
    let mut cmd = tree.disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// `full` (the whole command line) without its hidden subcommands (the web lab's `__api`),
/// which the completion generators would otherwise offer (clap_complete lists hidden
/// subcommands).
fn visible_command(full: clap::Command) -> clap::Command {
    let visible: Vec<clap::Command> = full.get_subcommands().filter(|s| !s.is_hide_set()).cloned().collect();
    let mut cmd = clap::Command::new("damier")
        .version(env!("CARGO_PKG_VERSION"))
        .about(full.get_about().cloned().unwrap_or_default())
        .propagate_version(true)
        .disable_help_subcommand(true)
        .subcommand_required(true)
        .subcommands(visible);
    cmd.build();
    cmd
}

pub fn completions(a: CompletionsArgs, tree: clap::Command) -> anyhow::Result<ExitCode> {
    let mut cmd = visible_command(tree);
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "damier", &mut script);
    output::write_stdout(format_args!("{}", String::from_utf8_lossy(&script)), false)?;
    Ok(ExitCode::SUCCESS)
}

/// The page of `cmd`, in roff.
fn page(cmd: &clap::Command) -> anyhow::Result<Vec<u8>> {
    let mut roff = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .source(concat!("damier ", env!("CARGO_PKG_VERSION")))
        .render(&mut roff)
        .context("cannot render the manual page")?;
    Ok(roff)
}

/// Writes the page of `cmd` and of each of its visible subcommands into `dir`; returns how
/// many pages were written.
fn write_pages(cmd: &clap::Command, dir: &Path) -> anyhow::Result<usize> {
    let name = format!("{}.1", cmd.get_display_name().unwrap_or(cmd.get_name()));
    output::write_bytes(&dir.join(name), Durability::Renamed, &page(cmd)?)?;
    let mut written = 1;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        written += write_pages(sub, dir)?;
    }
    Ok(written)
}

pub fn man(a: ManArgs, tree: clap::Command) -> anyhow::Result<ExitCode> {
    let cmd = built(tree);
    let Some(dir) = &a.out else {
        output::write_stdout(format_args!("{}", String::from_utf8_lossy(&page(&cmd)?)), false)?;
        return Ok(ExitCode::SUCCESS);
    };
    let created = output::ensure_last_dir(dir)?;
    let pages = write_pages(&cmd, dir)?;
    let note = if created { " (folder created)" } else { "" };
    errln!("{pages} manual pages written to {}{note}", dir.display());
    Ok(ExitCode::SUCCESS)
}
