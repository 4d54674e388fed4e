//! What the automaton's commands share: the model argument, the experiments' options and
//! checks (η's among them), the summary columns of the sweep and scale tables.

use clap::Args;
use damier::automaton::experiment::Summary;
use damier::automaton::{self as engine, Model};

use crate::util::csv_file::format;

/// `--model`: the library's [`Model`], by its name (every command that takes `--model` uses
/// this one), with what `--help` says of each.
pub(crate) fn model() -> impl clap::builder::TypedValueParser<Value = Model> {
    crate::util::named(&Model::ALL, Model::name, |m| {
        Some(match m {
            Model::Pair => "Model 1: adjacent-pair updates (ε)",
            Model::Cell => "Model 2: cell updates (ε, η)",
            Model::Row => {
                "Model 3: one queen per row walking along it; every cell per step (ε: uphill steps)"
            }
        })
    })
}

/// Default step cap of a run: 10^10 updates (minutes at the engine's speed).
pub(super) const DEFAULT_MAX_STEPS: u64 = 10_000_000_000;

/// Options shared by the experiments (`sweep`, `scale`): reproducibility and resources.
#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// Seed of the experiment (sample i uses a stream derived from it) [default: from the OS].
    #[arg(long)]
    pub(super) seed: Option<u64>,
    /// Step cap per run (censored beyond).
    #[arg(long, default_value_t = DEFAULT_MAX_STEPS)]
    pub(super) max_steps: u64,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = crate::util::ranged::<u32>(1, damier::util::POOL_MAX_THREADS))]
    pub(super) threads: Option<u32>,
}

pub(super) fn check_probability(name: &str, v: f64) -> anyhow::Result<()> {
    anyhow::ensure!(
        (0.0..=1.0).contains(&v),
        "--{name} {} is not a probability in [0, 1]",
        damier::util::given(v)
    );
    Ok(())
}

/// η for runs of `models`: [`engine::eta_for`], the check every front end shares (refused
/// when no model of the list uses it), after the range check phrased with the flag.
pub(crate) fn eta_for(models: &[Model], eta: Option<f64>) -> anyhow::Result<Option<f64>> {
    if let Some(v) = eta {
        check_probability("eta", v)?;
    }
    Ok(engine::eta_for(models, eta)?)
}

/// The help of `--eta` in every command that runs the automaton.
pub(crate) fn eta_help() -> String {
    format!(
        "Model 2: probability of a uniform destination [default: {}] [range: 0 to 1]; refused \
         when no model of the run uses it (models 1 and 3 do not)",
        engine::DEFAULT_ETA
    )
}

/// `n` within `model`'s range ([`engine::Model::max_n`]), refused as the request layer refuses
/// it ([`damier_api::automaton::side_refused`]).
pub(crate) fn check_n(model: engine::Model, n: u32) -> anyhow::Result<()> {
    match damier_api::automaton::side_refused(model, n) {
        Some(why) => anyhow::bail!(why),
        None => Ok(()),
    }
}

/// The statistics columns of the sweep and scale CSVs ([`SUMMARY_HEADER`]).
#[derive(serde::Serialize)]
pub(super) struct SummaryCells {
    runs: usize,
    solved: usize,
    censored: usize,
    #[serde(serialize_with = "format::sci6_opt")]
    mean_steps: Option<f64>,
    #[serde(serialize_with = "format::sci6_opt")]
    ci95_low: Option<f64>,
    #[serde(serialize_with = "format::sci6_opt")]
    ci95_high: Option<f64>,
    #[serde(serialize_with = "format::sci6_opt")]
    median_steps: Option<f64>,
    #[serde(serialize_with = "format::sci6_opt")]
    mean_moves: Option<f64>,
}

impl From<&Summary> for SummaryCells {
    fn from(s: &Summary) -> SummaryCells {
        SummaryCells {
            runs: s.runs,
            solved: s.solved,
            censored: s.censored,
            mean_steps: s.mean_steps,
            ci95_low: s.ci95.map(|c| c.0),
            ci95_high: s.ci95.map(|c| c.1),
            median_steps: s.median_steps,
            mean_moves: s.mean_moves,
        }
    }
}

pub(super) const SUMMARY_HEADER: [&str; 8] =
    ["runs", "solved", "censored", "mean_steps", "ci95_low", "ci95_high", "median_steps", "mean_moves"];

/// `--rule NAME`: model 3's rule by its name (`damier::automaton::row::RuleName`); a typo is
/// refused with the list of names.
pub(super) fn parse_rule(name: &str) -> Result<damier::automaton::row::RuleName, String> {
    name.parse().map_err(|e: damier::automaton::row::UnknownRule| e.to_string())
}

/// The help of `--rule`, with every name.
pub(super) fn rule_help() -> String {
    format!(
        "Model 3's rule (--model row), by name: {} [default: kept]. The designs of docs/automaton.md; the GPU runs those with waves on the synchronous schedule (all but gradient, no-waves and random-cells)",
        damier::automaton::row::rule_names()
    )
}
