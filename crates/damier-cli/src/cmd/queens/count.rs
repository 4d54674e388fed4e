//! `damier queens count`: total and unique counts in one run.

use std::process::ExitCode;
use std::time::Instant;

use damier::cpu::IsaChoice;
use damier::queens;
use damier::queens::count::journal::JournalDevice;
use damier::queens::count::long::LongCount;
use damier::queens::count::request::CountRequest;
use damier::queens::count::tasks::TaskEngine;
use damier::queens::count::{CountOptions, Share, TimedCounts};

use super::device::Device;
use crate::gpu::GpuArgs;
use crate::util::OutputPath;
use crate::util::output::Report;
use crate::util::{interrupt, test_hooks};

/// Arguments of `damier queens count`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (1 to 32).
    n: u32,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = crate::util::ranged::<u32>(1, damier::util::POOL_MAX_THREADS))]
    threads: Option<u32>,
    /// Count only share K of M (1 <= K <= M): run the M shares on as many processes or
    /// machines, then add them with `damier queens sum`.
    #[arg(long, value_name = "K/M", value_parser = parse_share)]
    share: Option<Share>,
    /// Split the count over the processes of an MPI job (`mpirun -n P damier queens count N
    /// --mpi`): process 0 hands out batches of tasks on demand (and keeps the --journal), every
    /// process counts them on all its cores (or its GPU, with --device gpu|all: one adapter
    /// per process, by its rank on its machine), process 0 prints the counts.
    #[cfg(feature = "mpi")]
    #[arg(long, conflicts_with = "share")]
    mpi: bool,
    /// Vector unit of the counting kernels: auto (the widest this CPU has), portable, neon
    /// (ARM), avx2 or avx512 (x86-64). A unit the CPU lacks is refused.
    #[arg(long, value_name = "ISA", default_value = "auto", value_parser = parse_isa)]
    isa: IsaChoice,
    /// Most memory the count may take, as bytes or with a K, M, G or T suffix (powers of 1024;
    /// KB, MB, GB, TB: powers of 1000):
    /// the whole quarter table is built only if it fits, else each task searches what it needs
    /// (slower); a count that cannot fit at all is refused [default: the memory available now;
    /// either way at most the address-space limit, `ulimit -v`, where one is set].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    memory: Option<u64>,
    /// Print JSON (keys: n, total, unique, seconds; with --share: n, share, shares,
    /// share_total, seconds, tasks; with --mpi, also processes, tasks_by_process; on the task
    /// list, also strategy, resumed_tasks with --journal, verified_tasks and seed with
    /// --verify-sample).
    #[arg(long)]
    json: bool,
    /// Engine counting each task of the task list (n in 4 to 28): the quarter-board matcher, or
    /// an independent backtracker that recounts any share [default: quarters where it runs].
    #[arg(long, value_parser = crate::util::named(&TaskEngine::ALL, TaskEngine::name, |_| None))]
    strategy: Option<TaskEngine>,
    /// Record every finished task in FILE (created if missing); a rerun with the same FILE
    /// skips the tasks it holds. Refused if FILE was written for another count.
    #[arg(long, value_name = "FILE")]
    journal: Option<OutputPath>,
    /// After the count, recount K random tasks of the share with both engines; exit 1 naming
    /// the task and the counts if any disagree.
    #[arg(long, value_name = "K", value_parser = crate::util::ranged::<u32>(1, damier_api::queens::VERIFY_SAMPLE_MAX))]
    verify_sample: Option<u32>,
    /// Seed of --verify-sample's draw [default: random, printed].
    #[arg(long, requires = "verify_sample")]
    seed: Option<u64>,
    /// Where the tasks are counted: cpu; gpu (a build with the `gpu` feature; docs/gpu.md);
    /// all (the GPU and the CPU cores, taking tasks from one queue); list (print the GPU
    /// adapters and exit). A GPU count is on the task list: n in 4 to 28.
    #[arg(long, value_enum, default_value = "cpu")]
    device: Device,
    #[command(flatten)]
    gpu: GpuArgs,
}

/// Parses `K/M` (1-based share K of M).
fn parse_share(text: &str) -> Result<Share, String> {
    Share::parse(text).map_err(|e| e.to_string())
}

/// Parses a memory size (the request layer's reading: one-letter units in powers of 1024).
pub(super) fn parse_size(text: &str) -> Result<u64, String> {
    damier_api::queens::parse_size(text)
}

/// Parses `--isa`: `auto` (the widest unit this CPU runs) or a unit's name.
pub(super) fn parse_isa(text: &str) -> Result<IsaChoice, String> {
    damier_api::queens::parse_isa(text)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    a.gpu.refuse_unless(matches!(a.device, Device::Gpu | Device::All), "--device gpu or all")?;
    if a.device == Device::List {
        return crate::gpu::list(a.json);
    }
    // Past the fast engine only the backtracker is left: years of counting, refused unless
    // an engine is forced.
    damier::queens::reach::check_count(a.n, a.strategy.is_some())?;
    let hooks = test_hooks::read()?;
    let options = CountOptions::on_this_machine(a.isa.resolve_below(hooks.cpu_lacks)?, a.memory);
    let long = super::long::Run {
        plan: LongCount {
            n: a.n,
            share: a.share,
            engine: a.strategy,
            isa: options.isa,
            memory: options.memory,
            journal: a.journal.as_deref().map(std::path::Path::to_path_buf),
            recount_sample: a.verify_sample,
            device: JournalDevice::Cpu,
        },
        seed: a.seed,
        threads: a.threads,
        json: a.json,
        delay: std::time::Duration::from_millis(hooks.task_delay_ms),
        miscount: hooks.miscount_task,
    };
    #[cfg(feature = "mpi")]
    if a.mpi {
        return super::mpi_queue::run(long, hooks.slow_rank, hooks.hold_task, a.device, a.gpu);
    }
    if a.device != Device::Cpu {
        return super::device::run(long, a.device, a.gpu);
    }
    if long.plan.needs_task_list() {
        return super::long::run(long);
    }
    let pool = crate::util::pool(a.threads)?;
    // A count that cannot fit --memory is refused before its start line.
    pool.install(|| queens::count::check_memory(a.n, a.share.unwrap_or(Share::WHOLE), &options))?;
    let start = Instant::now();
    if let Some(share) = a.share {
        let share_total = pool.install(|| super::shared::count_share(a.n, share, &options))?;
        let report = queens::count::ShareCount {
            n: a.n,
            share: share.index() + 1,
            shares: share.of(),
            share_total,
            seconds: start.elapsed().as_secs_f64(),
            tasks: queens::count::task_count_share(a.n, share).unwrap_or(0),
            fingerprint: None,
        };
        report.print(a.json)?;
        return Ok(ExitCode::SUCCESS);
    }
    let request = CountRequest::new(a.n, options)?;
    let warning = request.warning(super::cost::threshold()?, rand::random(), interrupt::control())?;
    if let Some(warning) = &warning {
        super::cost::announce(warning);
    }
    let counts = pool.install(|| super::shared::count_with(&request))?;
    let report = TimedCounts {
        n: counts.n,
        total: counts.total,
        unique: counts.unique,
        seconds: start.elapsed().as_secs_f64(),
    };
    report.print(a.json)?;
    // No solution is a "no" answer, as for `queens list`, `first` and `solve` (exit 1).
    Ok(if report.total == 0 { ExitCode::from(crate::util::exit::NO) } else { ExitCode::SUCCESS })
}

#[cfg(test)]
mod tests {
    #[test]
    fn memory_sizes_count_one_letter_units_in_powers_of_1024() {
        use super::parse_size;
        assert_eq!(parse_size("4M"), Ok(4 << 20));
        assert_eq!(parse_size(" 1.5g "), Ok(3 << 29));
        assert_eq!(parse_size("800"), Ok(800));
        assert_eq!(parse_size("2 GiB"), Ok(2 << 30));
        assert_eq!(parse_size("2GB"), Ok(2_000_000_000));
        for bad in ["0", "abc", "12Q", "-5M", "1e30T", "99999999999999E", ""] {
            let err = parse_size(bad).unwrap_err();
            assert!(err.starts_with(&format!("{bad:?} is not a size")), "{bad}: {err}");
        }
    }
}
