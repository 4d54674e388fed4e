//! `damier queens estimate N`: the projected cost of counting n, from a timed random sample
//! of its tasks.

use std::process::ExitCode;

use damier::queens::count::estimate::{self, EstimateRecord};
use damier::queens::count::tasks::{MAX_TASK_N, MIN_TASK_N};

use crate::util::output::Report;
use crate::util::{interrupt, progress::Progress};

/// Arguments of `damier queens estimate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (4 to 28).
    #[arg(value_parser = crate::util::ranged::<u32>(MIN_TASK_N, MAX_TASK_N))]
    n: u32,
    /// Tasks to time (drawn at random, without replacement).
    #[arg(long, default_value_t = damier_api::queens::ESTIMATE_SAMPLES, value_parser = crate::util::ranged::<u32>(1, 1_000_000))]
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
    #[arg(long, default_value_t = 1, value_parser = crate::util::ranged::<u32>(1, 1024))]
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
    let seed = crate::util::pick_seed(a.seed);
    if a.device == EstimateDevice::Gpu {
        anyhow::ensure!(
            a.queries.0.is_none(),
            "--queries samples the quarters engine's matching on the CPU: --device gpu counts whole tasks"
        );
        return super::device::estimate(a.n, a.samples, seed, a.json, a.gpu);
    }
    let hooks = crate::util::test_hooks::read()?;
    let isa = a.isa.resolve_below(hooks.cpu_lacks)?;
    let delay = std::time::Duration::from_millis(hooks.task_delay_ms);
    let control = interrupt::control();
    // One more than the sample: the first task also runs once as a warm-up.
    let tasks = damier::queens::count::task_count(a.n).unwrap_or(0);
    let what = format!(
        "timing {} random tasks of the {tasks} of n = {} ({}), {} at a time, seed {seed}, and a warm-up task",
        u64::from(a.samples).min(tasks),
        a.n,
        if a.queries.0.is_some() { "queries sampled" } else { "whole tasks" },
        a.threads
    );
    let bar = Progress::long_run(control, u64::from(a.samples).min(tasks) + 1, "queens estimate", &what);
    let threads = a.threads as usize;
    let options = estimate::EstimateOptions { samples: a.samples, seed, isa, queries: a.queries.0, threads };
    // Ctrl-C keeps the tasks that finished (`Estimate::stopped_early`).
    let e = estimate::estimate_cost_with(a.n, &options, control, &|_| std::thread::sleep(delay))?;
    drop(bar);
    crate::report::queens::warn_about_the_sample(&e, a.samples);
    let stopped_early = e.stopped_early;
    EstimateRecord::new(e, isa, seed).print(a.json)?;
    Ok(if stopped_early { ExitCode::from(crate::util::exit::INTERRUPTED) } else { ExitCode::SUCCESS })
}
