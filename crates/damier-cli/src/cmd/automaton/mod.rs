//! `damier automaton`: the queens cellular automaton: single runs with traces, the
//! ε sweep (fig. 5), the scale over n (figs. 6 and 8), the trap positions (figs. 1 and 7) and
//! a throughput benchmark.
//!
//! This file is the list of commands and the dispatch; each command's arguments and run are in
//! its own file (`run.rs` (with `long_run.rs` for progress and checkpoints, `gpu_run.rs` for model 3 on a GPU), `sweep.rs`,
//! `scale.rs`, `trap.rs`, `bench.rs`, `growth.rs`), what they share in `shared.rs`, so that
//! imports point one way: here -> commands -> shared.

mod bench;
mod gpu_run;
mod growth;
mod long_run;
mod run;
mod scale;
mod shared;
mod sweep;
mod trap;

use std::process::ExitCode;

use clap::Subcommand;

/// η's help and check, shared with `damier watch`, which runs the automaton too.
pub(crate) use shared::{check_n, eta_for, eta_help, model};

/// Subcommands of `damier automaton`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// One run to the first solution (or the step cap).
    Run(run::RunArgs),
    /// The automaton report's fig. 5: mean steps and moves to a solution against ε.
    Sweep(sweep::SweepArgs),
    /// The automaton report's figs. 6 and 8: mean steps to a solution against n, for each
    /// model, beside 1/d (d: solutions over placements).
    Scale(scale::ScaleArgs),
    /// The automaton report's figs. 1 (every queen threatened, no safe step) and 7 (model 2
    /// loops at η = 0): find such a position by search and show how each model behaves.
    Trap(trap::TrapArgs),
    /// Cell updates per second of the three models, one thread and all threads.
    Bench(bench::BenchArgs),
    /// Mean cost against n (both models, min-conflicts) with the fitted growth per n.
    Growth(growth::GrowthArgs),
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
