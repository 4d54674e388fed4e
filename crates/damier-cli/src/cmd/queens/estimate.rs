//! `damier queens estimate N`: the projected cost of counting n, from a timed random sample
//! of its tasks.

use std::process::ExitCode;

use damier::queens::count::estimate::{EstimateOptions, Estimator};
use damier::queens::count::tasks::{MAX_TASK_N, MIN_TASK_N, TaskList};

use crate::util::output::Report;
use crate::util::{interrupt, progress::Progress};

/// Arguments of `damier queens estimate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (4 to 28).
    #[arg(value_parser = crate::util::ranged::<u32>(MIN_TASK_N, MAX_TASK_N))]
    n: u32,
    /// Tasks to time (drawn at random, without replacement).
    #[arg(long, default_value_t = damier_api::queens::ESTIMATE_SAMPLES, value_parser = crate::util::ranged::<u32>(1, damier::queens::count::estimate::MAX_SAMPLES))]
    samples: u32,
    /// Seed of the draw [default: random, printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Vector unit of the counting kernels: auto (the widest this CPU has), portable, neon
    /// (ARM), avx2 or avx512 (x86-64). A unit the CPU lacks is refused.
    #[arg(long, value_name = "ISA", default_value = "auto", value_parser = super::count::parse_isa)]
    isa: damier::cpu::IsaChoice,
    /// Most queries (top halves) matched per task: a task with more matches a random sample
    /// this large (32768 is a good size) and its matching time is extrapolated: much faster
    /// from n = 24 up, but since the cut bits are chosen per batch it leans low (0.6x at
    /// n = 25, 0.2x at 26, 0.09x at 27, measured): quote whole tasks. Either way a task runs
    /// as a count runs it, in its bounded memory; `all`: whole tasks (about a second each at
    /// n = 25, a minute at 27).
    #[arg(long, value_name = "K|all", default_value = "all", value_parser = parse_queries)]
    queries: Queries,
    /// Tasks timed at once, each on one thread and timed by its CPU time (the figures stay
    /// per core; with every core busy they include the cores' contention, as in a count).
    #[arg(long, default_value_t = 1, value_parser = crate::util::ranged::<u32>(1, damier::util::POOL_MAX_THREADS))]
    threads: u32,
    /// Where the sampled tasks are counted: cpu (one core each, --isa) or gpu (the GPU engine,
    /// a build with the `gpu` feature, docs/gpu.md): the sample counted on the GPU as a count
    /// counts it, the projection in GPU hours of that adapter (--gpu-* as for `queens count`).
    #[arg(long, value_enum, default_value = "cpu")]
    device: EstimateDevice,
    #[command(flatten)]
    gpu: crate::gpu::GpuArgs,
    /// Print JSON (keys: n, tasks, core_hours, low, high (the 95% interval, core hours),
    /// samples, engine, task_seconds, task_seconds_sd, setup_seconds, clock, queries_per_task,
    /// subsampled_tasks, matched_fraction, solutions, solutions_low, solutions_high,
    /// ns_per_solution, ns_per_solution_low, ns_per_solution_high (CPU time per solution and
    /// its interval), timed_tasks (index, seconds, solutions of each), isa, seed; for n <= 27
    /// also known_solutions (OEIS A000170), known_inside, false when the known term falls
    /// outside the projected solutions' interval: then do not quote the projection, and
    /// known_core_hours, known_core_hours_low, known_core_hours_high: the cost per solution
    /// times the known term, the tighter projection; with --device gpu every *_hours and
    /// ns_per_solution* figure is of the GPU (wall time of this process), isa is "wgsl", and
    /// device, adapter, backend and driver say which GPU).
    #[arg(long)]
    json: bool,
}

/// `--device` of `queens estimate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum EstimateDevice {
    Cpu,
    Gpu,
}

/// `--queries`: a limit, or `None` for whole tasks.
#[derive(Clone, Copy, Debug)]
struct Queries(Option<u32>);

/// Parses `--queries`: a positive number or `all`.
fn parse_queries(text: &str) -> Result<Queries, String> {
    damier_api::queens::parse_queries(text).map(Queries)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    a.gpu.refuse_unless(a.device == EstimateDevice::Gpu, "--device gpu")?;
    let seed = crate::util::pick_seed(a.seed);
    match a.device {
        EstimateDevice::Cpu => {
            let hooks = crate::util::test_hooks::read()?;
            let isa = a.isa.resolve_below(hooks.cpu_lacks)?;
            let threads = a.threads as usize;
            let options = EstimateOptions { samples: a.samples, seed, isa, queries: a.queries.0, threads };
            let on = format!(
                "({}), {} at a time",
                if a.queries.0.is_some() { "queries sampled" } else { "whole tasks" },
                a.threads
            );
            sample(&options, &a, seed, &on, anyhow::Error::from)
        }
        EstimateDevice::Gpu => {
            anyhow::ensure!(
                a.queries.0.is_none(),
                "--queries samples the quarters engine's matching on the CPU: --device gpu counts whole tasks"
            );
            on_the_gpu(&a, seed)
        }
    }
}

/// The sample timed on the GPU of `a.gpu` (the library's estimator on it), the whole count
/// projected in GPU hours.
#[cfg(feature = "gpu")]
fn on_the_gpu(a: &Args, seed: u64) -> anyhow::Result<ExitCode> {
    let gpu = crate::gpu::open(a.gpu)?;
    let on = format!("(whole tasks) on GPU {} ({})", gpu.adapter().name, gpu.adapter().backend);
    sample(&gpu.estimator(a.samples, seed), a, seed, &on, crate::gpu::error)
}

#[cfg(not(feature = "gpu"))]
fn on_the_gpu(_: &Args, _: u64) -> anyhow::Result<ExitCode> {
    anyhow::bail!(crate::gpu::NO_GPU_FEATURE)
}

/// Times the sample of `a.n`'s tasks (drawn with `seed`) on `estimator`, the one path of
/// either device: one progress bar (`on` says how and where in its first line), the record
/// printed, exit 130 after it when Ctrl-C stopped the sample (the projection is made from the
/// tasks that finished). `error` makes the estimator's error the CLI's (its exit code).
fn sample<E: Estimator>(
    estimator: &E,
    a: &Args,
    seed: u64,
    on: &str,
    error: impl FnOnce(E::Error) -> anyhow::Error,
) -> anyhow::Result<ExitCode> {
    let hooks = crate::util::test_hooks::read()?;
    let delay = std::time::Duration::from_millis(hooks.task_delay_ms);
    let list = TaskList::new(a.n)?;
    let control = interrupt::control();
    let timed = estimator.tasks_timed(&list);
    let sampled = u64::from(a.samples).min(u64::from(list.len()));
    let warm_up = if timed > sampled { ", and a warm-up task" } else { "" };
    let what = format!(
        "timing {sampled} random tasks of the {} of n = {} {on}, seed {seed}{warm_up}",
        list.len(),
        a.n
    );
    let bar = Progress::long_run(control, timed, "queens estimate", &what);
    let record = estimator.estimate(&list, control, &|_| std::thread::sleep(delay)).map_err(error)?;
    drop(bar);
    crate::report::queens::warn_about_the_sample(&record.estimate, a.samples);
    let stopped_early = record.estimate.stopped_early;
    record.print(a.json)?;
    Ok(if stopped_early { ExitCode::from(crate::util::exit::INTERRUPTED) } else { ExitCode::SUCCESS })
}
