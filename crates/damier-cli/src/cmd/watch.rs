//! `damier watch`: the queens automaton animated in the terminal.

use std::process::ExitCode;

use anyhow::Context;
use damier::automaton::{self, Automaton, Model, Params};

use crate::tui;
use crate::util::output::outln;

/// Arguments of `damier watch`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    /// Another automaton to watch instead of the queens.
    #[command(subcommand)]
    other: Option<Other>,
    /// Board side.
    #[arg(short = 'n', long, default_value_t = 8)]
    n: u32,
    /// Update rule: `pair` (model 1), `cell` (model 2) or `row` (model 3).
    #[arg(long, value_parser = super::automaton::model(), default_value = "pair")]
    model: Model,
    /// Probability of accepting a dangerous move. [range: 0 to 1]
    #[arg(long, default_value_t = damier::automaton::DEFAULT_EPS)]
    eps: f64,
    #[arg(long, help = super::automaton::eta_help())]
    eta: Option<f64>,
    /// Seed of the run; the same seed gives the trajectory of `damier automaton run --seed`.
    #[arg(long)]
    seed: Option<u64>,
    /// Starting speed, in updates per second (changed live with + and -).
    #[arg(long, default_value_t = 100)]
    speed: u64,
}

/// Automata other than the queens one.
#[derive(Debug, clap::Subcommand)]
enum Other {
    /// The factoring automaton on N: the multiplication grid and its signals.
    Factor(super::factor::WatchArgs),
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if let Some(Other::Factor(f)) = a.other {
        return super::factor::watch(f);
    }
    let model = a.model;
    let eta = super::automaton::eta_for(&[model], a.eta)?.unwrap_or(automaton::DEFAULT_ETA);
    super::automaton::check_n(model, a.n)?;
    let params = Params { model, n: a.n, eps: a.eps, eta }.validated()?;
    // Any side the model accepts is watched: from `tui::watch::BLOCKS_N` in blocks of cells.
    tui::require_terminal("watch")?;
    let seed = crate::util::pick_seed(a.seed);
    let automaton = Automaton::from_seed(&params, seed).context("cannot start the automaton")?;
    let mut app = tui::watch::Watch::new(automaton, a.speed, false);
    tui::run(&mut app, "watch")?;
    let au = app.automaton();
    match app.solved_at() {
        Some(s) => {
            outln!("seed {seed}: solved at step {s} ({} steps, {} moves shown)", au.steps(), au.moves())?
        }
        None => outln!("seed {seed}: not solved after {} steps ({} moves)", au.steps(), au.moves())?,
    }
    Ok(ExitCode::SUCCESS)
}
