//! One module per subcommand; each parses its arguments, calls the library and prints.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod automaton;
mod bench;
mod factor;
mod lights;
mod play;
mod queens;
mod serve;
mod walk;
mod watch;

/// Board problems: n queens, Lights Out over GF(2), the pawn walk.
#[derive(Debug, Parser)]
#[command(name = "damier", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The n-queens problem: count, list, construct, check.
    #[command(subcommand)]
    Queens(queens::Command),
    /// n queens solved by a cellular automaton with local signals.
    #[command(subcommand)]
    Automaton(automaton::Command),
    /// Lights Out over GF(2).
    #[command(subcommand)]
    Lights(lights::Command),
    /// The pawn walk ("promenade binaire").
    #[command(subcommand)]
    Walk(walk::Command),
    /// Play Lights Out or the walk in the terminal.
    #[command(subcommand)]
    Play(play::Command),
    /// Factor N with a cellular automaton of local signals on the multiplication grid.
    Factor(factor::FactorArgs),
    /// Watch the queens automaton live in the terminal.
    Watch(watch::Args),
    /// The web lab: every problem in the browser, the API answering the commands' JSON.
    Serve(serve::Args),
    /// Every figure of docs/performance.md's summary in one run: the table with the machine,
    /// the date and the commit.
    Bench(bench::Args),
    /// One API call of `damier serve` (the JSON object on stdin).
    #[command(name = "__api", hide = true)]
    Api(serve::ApiArgs),
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Queens(c) => queens::run(c),
        Command::Automaton(c) => automaton::run(c),
        Command::Lights(c) => lights::run(c),
        Command::Walk(c) => walk::run(c),
        Command::Play(c) => play::run(c),
        Command::Factor(a) => factor::run(a),
        Command::Watch(a) => watch::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Api(a) => serve::api(a),
    }
}
