//! What the automaton's commands share: the model argument, the experiments' options and
//! checks, the summary columns of the sweep and scale tables, the names in figures.

use clap::{Args, ValueEnum};
use damier::automaton::experiment::Summary;
use damier::automaton::{self as engine, Model};

use crate::util::csv_file::format;

/// The update rule, as named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModelArg {
    /// Model 1: adjacent-pair updates (ε).
    Pair,
    /// Model 2: cell updates (ε, η).
    Cell,
    /// Model 3: one queen per row walking along it; every cell per step (ε: uphill steps).
    Row,
}

impl From<ModelArg> for Model {
    fn from(m: ModelArg) -> Model {
        match m {
            ModelArg::Pair => Model::Pair,
            ModelArg::Cell => Model::Cell,
            ModelArg::Row => Model::Row,
        }
    }
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
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(super) threads: Option<u32>,
}

pub(super) fn check_probability(name: &str, v: f64) -> anyhow::Result<()> {
    anyhow::ensure!((0.0..=1.0).contains(&v), "--{name} {v} is not a probability in [0, 1]");
    Ok(())
}

/// η for an experiment over `models`, checked: the value given, or [`engine::DEFAULT_ETA`];
/// `None` when no model of the list uses it. Given for models that all ignore it (models 1
/// and 3), it is refused: the runs would silently not be what was asked for.
pub(super) fn eta_for(models: &[Model], eta: Option<f64>) -> anyhow::Result<Option<f64>> {
    if let Some(v) = eta {
        check_probability("eta", v)?;
        if !models.iter().any(|m| m.uses_eta()) {
            let mut names: Vec<&str> = models.iter().map(|&m| model_name(m)).collect();
            names.sort_unstable();
            names.dedup();
            let verb = if names.len() == 1 { "does" } else { "do" };
            anyhow::bail!(
                "--eta {v} is refused: {} {verb} not use η, only {} does",
                names.join(" and "),
                model_name(Model::Cell)
            );
        }
    }
    Ok(models.iter().any(|m| m.uses_eta()).then(|| eta.unwrap_or(engine::DEFAULT_ETA)))
}

pub(super) fn check_n(n: u32) -> anyhow::Result<()> {
    anyhow::ensure!(
        (1..=engine::MAX_N).contains(&n),
        "n = {n} is out of range: 1..={} is supported (the board must fit in memory)",
        engine::MAX_N
    );
    Ok(())
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

pub(super) fn show(v: Option<f64>) -> String {
    v.map(crate::util::number).unwrap_or_else(|| "-".into())
}

/// The model's name in figures: its number in the automaton report and its option name.
pub(super) fn model_name(m: Model) -> &'static str {
    match m {
        Model::Pair => "model 1 (pair)",
        Model::Cell => "model 2 (cell)",
        Model::Row => "model 3 (row)",
    }
}
