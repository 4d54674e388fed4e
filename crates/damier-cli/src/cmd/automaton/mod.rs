//! `damier automaton`: the queens cellular automaton: single runs with traces, the
//! ε sweep (fig. 5), the scale over n (figs. 6 and 8), the trap positions (figs. 1 and 7) and
//! a throughput benchmark.
//!
//! This file is the command line (the argument structs, parsed by clap) and the helpers the
//! commands share; each command runs in its own file: `run.rs` (with `long_run.rs` for
//! progress and checkpoints), `sweep.rs`, `scale.rs`, `trap.rs`, `bench.rs`.

mod bench;
mod growth;
mod long_run;
mod run;
mod scale;
mod sweep;
mod trap;

use std::process::ExitCode;

use crate::util::csv_file::format;
use crate::util::{InputFile, OutputPath};
use clap::{Args, Subcommand, ValueEnum};
use damier::automaton::experiment::Summary;
use damier::automaton::{self as engine, Model};

/// Subcommands of `damier automaton`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// One run to the first solution (or the step cap).
    Run(RunArgs),
    /// The automaton report's fig. 5: mean steps and moves to a solution against ε.
    Sweep(SweepArgs),
    /// The automaton report's figs. 6 and 8: mean steps to a solution against n, for each
    /// model, beside 1/d (d: solutions over placements).
    Scale(ScaleArgs),
    /// The automaton report's figs. 1 (every queen threatened, no safe step) and 7 (model 2
    /// loops at η = 0): find such a position by search and show how each model behaves.
    Trap(TrapArgs),
    /// Cell updates per second of the three models, one thread and all threads.
    Bench(BenchArgs),
    /// Mean cost against n (both models, min-conflicts) with the fitted growth per n.
    Growth(growth::GrowthArgs),
}

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

/// Largest n for which `scale` computes 1/d (the exact count Q(n) takes minutes at 17).
const DENSITY_MAX_N: u32 = 17;

/// Default step cap of a run: 10^10 updates (minutes at the engine's speed).
const DEFAULT_MAX_STEPS: u64 = 10_000_000_000;

/// Arguments of `damier automaton run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Update rule.
    #[arg(long, value_enum, default_value = "pair")]
    model: ModelArg,
    /// Board side (1..=2048); optional with --from (taken from the file).
    #[arg(short = 'n', long = "n")]
    n: Option<u32>,
    /// Probability of accepting a move to a dangerous cell [range: 0..=1].
    #[arg(long, default_value_t = engine::DEFAULT_EPS)]
    eps: f64,
    /// Model 2: probability of a uniform destination [range: 0..=1].
    #[arg(long, default_value_t = engine::DEFAULT_ETA)]
    eta: f64,
    /// Generator seed [default: picked from the OS and printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Give up after this many updates (model 3: generations, each updating every cell).
    #[arg(long, default_value_t = DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// Start from this position: n lines of n cells, a digit = queens on the cell, `.` = none;
    /// blank lines and lines starting with `#` are skipped. Signals start empty.
    #[arg(long, value_name = "FILE")]
    from: Option<InputFile>,
    /// Print the board with its signals every K updates (on stderr with --json).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    trace: Option<u64>,
    /// Save the whole state (board, signals, generator) to FILE every --checkpoint-every
    /// seconds, on Ctrl-C and at the end; if FILE exists, resume from it (model, n, ε, η and
    /// seed then come from the file; --max-steps counts all steps).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["trace", "from"])]
    checkpoint: Option<OutputPath>,
    /// Seconds between two checkpoints.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, requires = "checkpoint",
          value_parser = clap::value_parser!(u64).range(1..))]
    checkpoint_every: u64,
    /// Print JSON (keys: model, n, eps, eta (null for model 1), seed, steps, moves, solved,
    /// absorbing, placement, censored, seconds).
    #[arg(long)]
    json: bool,
}

/// Options shared by the experiments (`sweep`, `scale`): reproducibility and resources.
#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// Seed of the experiment (sample i uses a stream derived from it) [default: from the OS].
    #[arg(long)]
    seed: Option<u64>,
    /// Step cap per run (censored beyond).
    #[arg(long, default_value_t = DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
}

/// Output options shared by the experiments: a CSV table, a figure, JSON on stdout.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Write the table as CSV.
    #[arg(long, value_name = "F")]
    pub(crate) csv: Option<OutputPath>,
    /// Draw the figure (.svg or .png).
    #[arg(long, value_name = "F")]
    pub(crate) plot: Option<OutputPath>,
    /// Print JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

impl OutputArgs {
    /// Refuses, before any run, a figure format we cannot draw and a file in a missing folder.
    pub(crate) fn check(&self) -> anyhow::Result<()> {
        if let Some(p) = &self.plot {
            crate::util::plot::format_of(p)?;
        }
        for p in self.csv.iter().chain(&self.plot) {
            crate::util::output::check_folder(p)?;
        }
        Ok(())
    }
}

/// Arguments of `damier automaton sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Update rule.
    #[arg(long, value_enum, default_value = "pair")]
    model: ModelArg,
    /// Board side.
    #[arg(short = 'n', long = "n", default_value_t = 8)]
    n: u32,
    /// The ε values, comma separated.
    #[arg(long, value_delimiter = ',', default_value = "0.001,0.003,0.01,0.03,0.1,0.3")]
    eps: Vec<f64>,
    /// Model 2: η [range: 0..=1].
    #[arg(long, default_value_t = engine::DEFAULT_ETA)]
    eta: f64,
    /// Runs per ε.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    samples: u64,
    #[command(flatten)]
    exp: ExperimentArgs,
    #[command(flatten)]
    out: OutputArgs,
}

/// Arguments of `damier automaton scale`.
#[derive(Debug, Args)]
pub struct ScaleArgs {
    /// Models, comma separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "pair,cell")]
    model: Vec<ModelArg>,
    /// Board sides: `A..B` (inclusive) or a comma list, or both (`4..8,10`).
    #[arg(short = 'n', long = "n", default_value = "4..12")]
    n: String,
    /// ε [range: 0..=1].
    #[arg(long, default_value_t = engine::DEFAULT_EPS)]
    eps: f64,
    /// Model 2: η [range: 0..=1].
    #[arg(long, default_value_t = engine::DEFAULT_ETA)]
    eta: f64,
    /// Runs per (model, n).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    samples: u64,
    /// Wall-clock budget per (model, n) point, seconds; runs still going are censored.
    #[arg(long, value_name = "SECONDS")]
    budget: Option<f64>,
    #[command(flatten)]
    exp: ExperimentArgs,
    /// Skip 1/d (it needs the exact solution count of every n, slow for large n; never
    /// computed beyond n = 17).
    #[arg(long)]
    no_density: bool,
    #[command(flatten)]
    out: OutputArgs,
}

/// Arguments of `damier automaton trap`.
#[derive(Debug, Args)]
pub struct TrapArgs {
    /// Which figure of the automaton report: 1 (model 1, every move blocked) or 7 (model 2, η = 0 loop).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=7))]
    figure: u8,
    /// Random seed of the search (the report's fig. 1 position) and of the demonstration runs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Demonstration runs per setting.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    samples: u64,
    /// Step cap of the demonstration runs.
    #[arg(long, default_value_t = 10_000_000)]
    max_steps: u64,
    /// Print JSON (keys: figure, n, position, triangle (the report's fig. 7: [row, column] from 1), robust,
    /// cases).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier automaton bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Board sides, comma separated.
    #[arg(short = 'n', long = "n", value_delimiter = ',', default_value = "8,12,16")]
    n: Vec<u32>,
    /// Seconds per measurement (about).
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Run(a) => run::run_one(a),
        Command::Sweep(a) => sweep::sweep(a),
        Command::Scale(a) => scale::scale(a),
        Command::Trap(a) => trap::trap_cmd(a),
        Command::Bench(a) => bench::bench(a),
        Command::Growth(a) => growth::run(a),
    }
}

fn check_probability(name: &str, v: f64) -> anyhow::Result<()> {
    anyhow::ensure!((0.0..=1.0).contains(&v), "--{name} {v} is not a probability in [0, 1]");
    Ok(())
}

fn check_n(n: u32) -> anyhow::Result<()> {
    anyhow::ensure!(
        (1..=engine::MAX_N).contains(&n),
        "n = {n} is out of range: 1..={} is supported (the board must fit in memory)",
        engine::MAX_N
    );
    Ok(())
}

/// The statistics columns of the sweep and scale CSVs ([`SUMMARY_HEADER`]).
#[derive(serde::Serialize)]
struct SummaryCells {
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

const SUMMARY_HEADER: [&str; 8] =
    ["runs", "solved", "censored", "mean_steps", "ci95_low", "ci95_high", "median_steps", "mean_moves"];

fn show(v: Option<f64>) -> String {
    v.map(crate::util::number).unwrap_or_else(|| "-".into())
}

/// The model's name in figures: its number in the automaton report and its option name.
fn model_name(m: Model) -> &'static str {
    match m {
        Model::Pair => "model 1 (pair)",
        Model::Cell => "model 2 (cell)",
        Model::Row => "model 3 (row)",
    }
}
