//! `automaton run --model row --device gpu`: model 3's generations wholly on the GPU, fields
//! and queens, many a submission (`damier_gpu::RowEngine`: the CPU's trajectory, bit for
//! bit), with the same progress, checkpoints and result as a run on the CPU.

use std::path::Path;
use std::time::Duration;

use damier::automaton::experiment::RunResult;
use damier::automaton::{Automaton, Stop};

/// Runs model 3's `aut` on GPU adapter `adapter` (`None`: the default one) as
/// [`super::long_run::run`] runs it on the CPU.
#[cfg(feature = "gpu")]
pub(super) fn run(
    aut: &mut Automaton,
    max_steps: u64,
    stop: &Stop,
    checkpoint: Option<&Path>,
    every: Duration,
    adapter: Option<usize>,
) -> anyhow::Result<RunResult> {
    use std::time::Instant;

    use anyhow::Context;
    use damier::automaton::experiment::Censored;
    use damier::control::Interrupted;
    use damier_gpu::{Gpu, GpuSettings, RowEngine};

    use super::long_run::{Progress, save, save_at_the_end};
    use crate::gpu::error as gpu_error;

    let gpu = Gpu::open(adapter, GpuSettings::default()).map_err(gpu_error)?;
    let board = aut.model3().context("--device gpu runs model 3 (--model row)")?.clone();
    let mut engine = RowEngine::new(&gpu, board).map_err(gpu_error)?;
    let mut progress = Progress::new(max_steps);
    let period = progress.period(checkpoint.is_some(), every);
    if let Some(path) = checkpoint {
        save(aut, path)?;
    }
    let (mut last_show, mut last_save) = (Instant::now(), Instant::now());
    // One submission per poll (`RowEngine::advance`: as many generations as take about 50 ms
    // of device time), so progress, Ctrl-C and checkpoints are seen within it.
    let mut generations = || -> anyhow::Result<Option<Censored>> {
        loop {
            if engine.is_solution() {
                return Ok(None);
            }
            if engine.steps() >= max_steps {
                return Ok(Some(Censored::StepCap));
            }
            if stop.control.cancelled() {
                return Err(Interrupted.into());
            }
            if stop.deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(Some(Censored::Budget));
            }
            engine.advance(max_steps - engine.steps()).map_err(gpu_error)?;
            if last_show.elapsed() >= period {
                progress.show((engine.steps(), engine.moves(), engine.conflicts()));
                last_show = Instant::now();
            }
            if let Some(path) = checkpoint
                && last_save.elapsed() >= every
            {
                aut.set_model3(engine.board().map_err(gpu_error)?.clone())?;
                save(aut, path)?;
                last_save = Instant::now();
            }
        }
    };
    let result = generations();
    progress.finish(engine.steps());
    // The state after the last whole submission, downloaded (a device fault leaves the file
    // of the last checkpoint as it was).
    let interrupted = result.as_ref().is_err_and(|e| e.downcast_ref::<Interrupted>().is_some());
    if result.is_ok() || interrupted {
        aut.set_model3(engine.into_board().map_err(gpu_error)?)?;
    }
    save_at_the_end(aut, checkpoint, &result)?;
    Ok(aut.result(result?))
}

/// Without the `gpu` feature: says how to build it.
#[cfg(not(feature = "gpu"))]
pub(super) fn run(
    _: &mut Automaton,
    _: u64,
    _: &Stop,
    _: Option<&Path>,
    _: Duration,
    _: Option<usize>,
) -> anyhow::Result<RunResult> {
    anyhow::bail!(crate::gpu::NO_GPU_FEATURE)
}
