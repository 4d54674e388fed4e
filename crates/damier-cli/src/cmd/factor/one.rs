//! `damier factor N`: one run of the automaton on N.

use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use damier::factor as engine;
use damier::factor::run::FactorRequest;

use crate::util::output::{Report, errln, outln};
use crate::util::progress::Progress;
use crate::util::{exit, interrupt};

use super::shared::{ParamArgs, parse_n};

/// One run on N.
#[derive(Debug, Args)]
pub(super) struct OneArgs {
    /// The number to factor, 2 to 2^64 - 1 (18446744073709551615).
    #[arg(value_name = "N")]
    n: Option<String>,
    /// Generator seed [default: picked from the OS and printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Give up after this many updates (exit 1).
    #[arg(long, default_value_t = engine::DEFAULT_MAX_STEPS)]
    max_steps: u64,
    #[command(flatten)]
    params: ParamArgs,
    /// Print JSON (keys: n, factors, steps, seconds, seed, flips, prime, censored, q, eps).
    #[arg(long)]
    json: bool,
}

pub(super) fn run_one(a: OneArgs) -> anyhow::Result<ExitCode> {
    let Some(text) = &a.n else {
        anyhow::bail!("give the number to factor: damier factor N (or damier factor sweep)");
    };
    let n = parse_n(text)?;
    let params = a.params.params()?;
    let seed = crate::util::pick_seed(a.seed);
    let report = match FactorRequest::new(n, &params, seed, a.max_steps).context("nothing to factor")? {
        FactorRequest::Prime(record) => record,
        FactorRequest::Run(run) => {
            if let Some(warning) = &run.warning {
                errln!("damier: warning: {warning}");
            }
            if !a.json {
                outln!(
                    "n = {n}: grid of {} x {} cells, q = {} eps = {} seed = {seed}",
                    run.automaton.lb(),
                    run.automaton.la(),
                    damier::util::given(params.q),
                    damier::util::given(params.eps)
                )?;
            }
            let control = interrupt::control();
            let _bar = Progress::start(control, a.max_steps, "factor");
            run.run(control)?
        }
    };
    report.print(a.json)?;
    Ok(if report.factors.is_some() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}
