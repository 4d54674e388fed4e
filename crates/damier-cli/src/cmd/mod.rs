//! One module per subcommand; each parses its arguments, calls the library and prints.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod automaton;
mod bench;
mod factor;
mod gpu;
mod lights;
mod manual;
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
    /// No progress on stderr: no bar, and no start, progress or end line of a long run
    /// (warnings and errors are still printed).
    #[arg(long, global = true)]
    quiet: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The n-queens problem: count, list, construct, check.
    ///
    /// Place n queens on an n x n board so that no two attack each other: no two share a row,
    /// a column or a diagonal. A placement is written S = (S[1], ..., S[n]), S[i] the column
    /// (from 1, at the left) of the queen on row i (from 1, at the top); `queens check` reads
    /// back every placement the other commands print.
    #[command(subcommand)]
    Queens(queens::Command),
    /// n queens solved by a cellular automaton with local signals.
    ///
    /// Each cell of the n x n board holds a number of queens and 8 signal bits, one per
    /// direction ("a queen lies further that way"). Starting from n queens dropped at random,
    /// each step updates one random pair of neighbouring cells (model pair) or one random cell
    /// (model cell) from its neighbours alone: signals are refreshed, and a threatened queen
    /// moves to a neighbouring cell that no signal reaches (or, with probability ε, anyway). A
    /// run stops at the first step where the queens form a solution (docs/automaton.md).
    #[command(subcommand)]
    Automaton(automaton::Command),
    /// Lights Out over GF(2).
    ///
    /// A W x H board of lights; pressing a cell toggles it and its (up to 4) orthogonal
    /// neighbours. The goal: from a start, reach all off (or a target board). Pressing twice
    /// undoes a press and the order does not matter, so a solution is a set of cells, found by
    /// solving a linear system over GF(2); it has no solution or 2^k (k, the nullity, depends
    /// on the size only). Boards are rows of 0/1 (or ./#, _/#) or PBM bitmaps.
    #[command(subcommand)]
    Lights(lights::Command),
    /// The pawn walk ("promenade binaire").
    ///
    /// A board of ROWS x COLS cells, all white. A pawn lands first on the bottom-left cell and
    /// then moves one cell north, south, east or west (N, S, E, W; O is accepted for west, the
    /// French "ouest") at a time; each landing flips the colour of the cell landed on and of
    /// its (up to 4) orthogonal neighbours. The goal: every cell black. Only which cells are
    /// landed on an odd number of times matters (the "activation set"); every board has 2^k
    /// of them, k >= 0, and a path through any of them exists.
    #[command(subcommand)]
    Walk(walk::Command),
    /// Play Lights Out or the walk in the terminal.
    #[command(subcommand)]
    Play(play::Command),
    /// Factor N with a cellular automaton of local signals on the multiplication grid.
    ///
    /// The bits of two unknown factors p and q sit on the borders of the grid of partial
    /// products p_i q_j, whose column sums with carries must spell the bits of N. Each cell
    /// only sees its neighbours' signals; the factors' bits flip at random, guided by signals
    /// that say which column sum disagrees with N, until the grid is consistent (then
    /// p x q = N, checked) or the step cap is reached (docs/factor.md). A prime is told at
    /// once (Miller-Rabin): nothing to factor.
    Factor(factor::FactorArgs),
    /// Watch the queens automaton live in the terminal.
    Watch(watch::Args),
    /// The GPU adapters (which one `queens count --device gpu` uses); --bench N times random
    /// tasks of N on the GPU and the CPU cores.
    Gpu(gpu::Args),
    /// The web lab: every problem in the browser, the API answering the commands' JSON.
    Serve(serve::Args),
    /// Every figure of docs/performance.md's summary in one run: the table with the machine,
    /// the date and the commit.
    Bench(bench::Args),
    /// Print the completion script of a shell (bash, zsh, fish, elvish, powershell).
    Completions(manual::CompletionsArgs),
    /// Print the manual page, or write every command's page to a folder (--out DIR).
    Man(manual::ManArgs),
    /// One API call of `damier serve` (the JSON object on stdin).
    #[command(name = "__api", hide = true)]
    Api(serve::ApiArgs),
}

/// The command line as parsed: every argument that takes a value also takes a negative number
/// (`--eps -0.1` is then refused by the command for its range, not by clap as an unknown
/// `-0` flag).
pub fn command() -> clap::Command {
    fn negatives_are_values(cmd: clap::Command) -> clap::Command {
        let subs: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
        let mut cmd =
            cmd.mut_args(|a| if a.get_action().takes_values() { a.allow_negative_numbers(true) } else { a });
        for name in subs {
            cmd = cmd.mut_subcommand(name, negatives_are_values);
        }
        cmd
    }
    negatives_are_values(Cli::command())
}

/// Parses the process's arguments with [`command`].
pub fn parse() -> Result<(Cli, clap::ArgMatches), clap::Error> {
    let matches = command().try_get_matches()?;
    let cli = Cli::from_arg_matches(&matches)?;
    Ok((cli, matches))
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    crate::util::progress::set_quiet(cli.quiet);
    match cli.command {
        Command::Queens(c) => queens::run(c),
        Command::Automaton(c) => automaton::run(c),
        Command::Lights(c) => lights::run(c),
        Command::Walk(c) => walk::run(c),
        Command::Play(c) => play::run(c),
        Command::Factor(a) => factor::run(a),
        Command::Watch(a) => watch::run(a),
        Command::Gpu(a) => gpu::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Bench(a) => bench::run(a),
        // The commands that read the whole command line get it here, so that they import
        // nothing of this dispatcher (imports point one way).
        Command::Completions(a) => manual::completions(a, command()),
        Command::Man(a) => manual::man(a, command()),
        Command::Api(a) => serve::api(a),
    }
}
