//! `damier watch factor N`: the automaton's grid live in the terminal.

use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use damier::factor::{FactorAutomaton, FactorError};

use crate::util::exit;
use crate::util::output::outln;

use super::shared::{ParamArgs, parse_n};

/// Arguments of `damier watch factor`.
#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub struct WatchArgs {
    /// The number to factor (its grid must fit the terminal: up to 40 bits).
    #[arg(value_name = "N")]
    n: String,
    /// Seed of the run; the same seed gives the trajectory of `damier factor N --seed`.
    #[arg(long)]
    seed: Option<u64>,
    /// Starting speed, in updates per second (changed live with + and -).
    #[arg(long, default_value_t = 1000)]
    speed: u64,
    #[command(flatten)]
    params: ParamArgs,
}

/// Largest N shown live: 40 bits make a grid 118 characters wide.
const WATCH_MAX_BITS: u32 = 40;

/// `damier watch factor N`.
pub fn watch(a: WatchArgs) -> anyhow::Result<ExitCode> {
    let n = parse_n(&a.n)?;
    let params = a.params.params()?;
    anyhow::ensure!(
        n < 1 << WATCH_MAX_BITS,
        "N = {n} is too large to watch: at most {WATCH_MAX_BITS} bits fit a terminal"
    );
    let seed = crate::util::pick_seed(a.seed);
    let au = match FactorAutomaton::new(n, &params, seed) {
        Err(FactorError::Prime(_)) => {
            outln!("{n} is prime (deterministic Miller-Rabin): nothing to watch")?;
            return Ok(ExitCode::from(exit::NO));
        }
        r => r.context("nothing to factor")?,
    };
    crate::tui::require_terminal("watch factor")?;
    let mut app = crate::tui::factor::FactorWatch::new(au, a.speed, false);
    crate::tui::run(&mut app, "watch factor")?;
    let au = app.automaton();
    match au.factors() {
        Some((lo, hi)) => outln!("seed {seed}: {n} = {lo} x {hi}, absorbed at step {}", au.steps())?,
        None => outln!("seed {seed}: not factored after {} steps ({} flips)", au.steps(), au.flips())?,
    }
    Ok(ExitCode::SUCCESS)
}
