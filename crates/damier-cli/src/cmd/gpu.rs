//! `damier gpu`: the GPU adapters this machine offers (and which one a count uses); with
//! `--bench N`, random tasks of N timed on the GPU and on the CPU cores, their counts compared
//! (scripts/gpu-bench.sh runs it).

use std::process::ExitCode;

/// Arguments of `damier gpu`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON (the adapters: index, name, backend, kind, driver, max_storage_binding,
    /// max_buffer, max_workgroups, default; with --bench: the timing's record).
    #[arg(long)]
    json: bool,
    /// Time random tasks of N (4 to 28) on the GPU, then on every CPU core, compare their counts
    /// (exit 1 if any differs) and print the time per solution of each.
    #[arg(long, value_name = "N", value_parser = crate::util::ranged::<u32>(4, 28))]
    bench: Option<u32>,
    /// Tasks drawn for --bench.
    #[arg(long, default_value_t = 8, requires = "bench", value_parser = crate::util::ranged::<u32>(1, 1_000_000))]
    tasks: u32,
    /// Seed of --bench's draw.
    #[arg(long, default_value_t = 1, requires = "bench")]
    seed: u64,
    /// Skip the CPU's half of --bench.
    #[arg(long, requires = "bench")]
    no_cpu: bool,
    /// Worker threads of the CPU's half [default: all cores].
    #[arg(long, requires = "bench", value_parser = crate::util::ranged::<u32>(1, damier::util::POOL_MAX_THREADS))]
    threads: Option<u32>,
    #[command(flatten)]
    gpu: crate::gpu::GpuArgs,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    a.gpu.refuse_unless(a.bench.is_some(), "--bench N")?;
    match a.bench {
        None => crate::gpu::list(a.json),
        Some(n) => bench::run(n, &a),
    }
}

#[cfg(not(feature = "gpu"))]
mod bench {
    pub(super) fn run(_: u32, _: &super::Args) -> anyhow::Result<std::process::ExitCode> {
        anyhow::bail!(crate::gpu::NO_GPU_FEATURE)
    }
}

#[cfg(feature = "gpu")]
mod bench {
    use std::collections::HashMap;
    use std::process::ExitCode;
    use std::sync::Mutex;
    use std::time::Instant;

    use damier::cpu::Isa;
    use damier::queens::count::known::known_total;
    use damier::queens::count::tasks::{TaskEngine, TaskList, count_tasks, sample_tasks};

    use crate::util::output::{Report, errln, outln};
    use crate::util::{exit, number, plural};

    /// The record of `damier gpu --bench`.
    #[derive(Debug, serde::Serialize)]
    struct GpuBench {
        n: u32,
        adapter: String,
        backend: String,
        driver: String,
        /// The GPU kernel (`--gpu-kernel`).
        kernel: &'static str,
        tasks: u32,
        seed: u64,
        /// Solutions in the tasks (weighted counts added).
        solutions: u64,
        gpu_seconds: f64,
        gpu_ns_per_solution: f64,
        /// q(n) at that rate, where q(n) is known.
        gpu_projected_hours: Option<f64>,
        cpu_engine: Option<&'static str>,
        cpu_threads: Option<usize>,
        cpu_seconds: Option<f64>,
        /// CPU time per solution: the tasks' own times summed (the cores' busy time), not the
        /// wall time x threads, which would count the idle threads of a sample smaller than
        /// the pool (4 tasks on 16 threads made one H200 look 3 to 4 times as many cores).
        cpu_core_ns_per_solution: Option<f64>,
        /// How many of these CPU cores one GPU is worth.
        cores_per_gpu: Option<f64>,
        /// Where the GPU run's time went (the join kernel's breakdown):
        /// seconds the sealing workers spent assembling and sealing (summed over them).
        sealing_cpu_seconds: Option<f64>,
        /// Seconds they spent packing batches and copying them into the upload.
        upload_prep_seconds: Option<f64>,
        /// Bytes written to the device (rows, queries, tails, pairs, parameters).
        bytes_uploaded: Option<u64>,
        /// Those bytes by what they were, with the stored keys and queries they carried: the
        /// part to cut next on a lent card.
        uploaded: Option<damier_gpu::Uploaded>,
        /// Those bytes over the GPU run's wall time, in GB/s.
        upload_gb_per_s: Option<f64>,
        /// The GPU's busy time over the run's wall time, in [0, 1].
        gpu_busy_fraction: Option<f64>,
        /// How the busy time was measured: `timestamps` (the adapter's timestamp queries) or
        /// `dispatch wall times` (each job's submission to its end, as the host saw them).
        gpu_busy_from: Option<&'static str>,
        /// Seconds the sealing workers waited for a ring slot or a batch's count (summed).
        host_wait_seconds: Option<f64>,
        /// Those seconds over the workers' time (their number times the GPU run's wall time).
        host_wait_fraction: Option<f64>,
        /// Sealing workers, and the batches each left on the GPU while it sealed on
        /// (`--gpu-ahead`).
        sealing_workers: Option<u32>,
        gpu_ahead: Option<u32>,
        /// Jobs (up to 8 dispatches of one batch), submissions (the jobs waiting together go in
        /// one) and dispatches run.
        jobs: Option<u64>,
        submissions: Option<u64>,
        /// Small whole batches the submitter gathered with others into one dispatch.
        merged_batches: Option<u64>,
        dispatches: Option<u64>,
        /// Most jobs in flight at once, and the slots of the ring (the most there can be).
        most_in_flight: Option<u32>,
        ring: Option<u32>,
    }

    fn per_task(
        list: &TaskList,
        tasks: &[u32],
        run: impl FnOnce(&(dyn Fn(u32, u64) + Sync)) -> anyhow::Result<()>,
    ) -> anyhow::Result<HashMap<u32, u64>> {
        let counts = Mutex::new(HashMap::new());
        run(&|i, c| {
            counts.lock().unwrap_or_else(|e| e.into_inner()).insert(i, c);
        })?;
        let counts = counts.into_inner().unwrap_or_else(|e| e.into_inner());
        anyhow::ensure!(
            counts.len() == tasks.len(),
            "{} of {} tasks of n = {} reported",
            counts.len(),
            tasks.len(),
            list.n()
        );
        Ok(counts)
    }

    pub(super) fn run(n: u32, a: &super::Args) -> anyhow::Result<ExitCode> {
        let gpu = crate::gpu::open(a.gpu)?;
        let list = TaskList::new(n)?;
        let all: Vec<u32> = (0..list.len()).collect();
        let tasks = sample_tasks(&all, a.tasks, a.seed);
        let control = crate::util::interrupt::control();
        let start = Instant::now();
        let on_gpu = per_task(&list, &tasks, |put| {
            gpu.count_tasks(&list, &tasks, control, &|d| put(d.index, d.count)).map_err(crate::gpu::error)
        })?;
        let gpu_seconds = start.elapsed().as_secs_f64();
        let solutions = u64::try_from(on_gpu.values().map(|&c| u128::from(c)).sum::<u128>())?;
        let per_solution = |s: f64| if solutions == 0 { f64::NAN } else { s * 1e9 / solutions as f64 };
        let gpu_ns = per_solution(gpu_seconds);
        let info = gpu.adapter();
        let mut record = GpuBench {
            n,
            adapter: info.name.clone(),
            backend: info.backend.clone(),
            driver: info.driver.clone(),
            kernel: gpu.kernel().name(),
            tasks: tasks.len() as u32,
            seed: a.seed,
            solutions,
            gpu_seconds,
            gpu_ns_per_solution: gpu_ns,
            gpu_projected_hours: known_total(n).map(|q| q as f64 * gpu_ns * 1e-9 / 3600.0),
            cpu_engine: None,
            cpu_threads: None,
            cpu_seconds: None,
            cpu_core_ns_per_solution: None,
            cores_per_gpu: None,
            sealing_cpu_seconds: None,
            upload_prep_seconds: None,
            bytes_uploaded: None,
            uploaded: None,
            upload_gb_per_s: None,
            gpu_busy_fraction: None,
            gpu_busy_from: None,
            host_wait_seconds: None,
            host_wait_fraction: None,
            sealing_workers: None,
            gpu_ahead: None,
            jobs: None,
            submissions: None,
            merged_batches: None,
            dispatches: None,
            most_in_flight: None,
            ring: None,
        };
        let b = gpu.breakdown();
        if b.jobs > 0 {
            record.sealing_cpu_seconds = Some(b.sealing_seconds);
            record.upload_prep_seconds = Some(b.upload_seconds);
            record.bytes_uploaded = Some(b.bytes_uploaded);
            record.uploaded = Some(b.uploaded);
            record.upload_gb_per_s = Some(b.bytes_uploaded as f64 / gpu_seconds / 1e9);
            // Jobs' times can overlap a little on a device that runs passes side by side.
            record.gpu_busy_fraction = Some((b.gpu_busy_seconds / gpu_seconds).clamp(0.0, 1.0));
            record.gpu_busy_from =
                Some(if b.busy_from_timestamps { "timestamps" } else { "dispatch wall times" });
            record.host_wait_seconds = Some(b.wait_seconds);
            record.host_wait_fraction = Some(b.wait_seconds / (f64::from(b.workers.max(1)) * gpu_seconds));
            record.sealing_workers = Some(b.workers);
            record.gpu_ahead = Some(b.ahead);
            record.jobs = Some(b.jobs);
            record.submissions = Some(b.submissions);
            record.merged_batches = Some(b.merged);
            record.dispatches = Some(b.dispatches);
            record.most_in_flight = Some(b.most_in_flight);
            record.ring = Some(b.ring);
        }
        if !a.no_cpu {
            let pool = crate::util::pool(a.threads)?;
            let engine = TaskEngine::best_for(n);
            let start = Instant::now();
            let busy = Mutex::new(std::time::Duration::ZERO);
            let on_cpu = per_task(&list, &tasks, |put| {
                pool.install(|| {
                    count_tasks(&list, engine, Isa::best(), None, &tasks, control, &|d| {
                        *busy.lock().unwrap_or_else(|e| e.into_inner()) += d.elapsed;
                        put(d.index, d.count)
                    })
                })?;
                Ok(())
            })?;
            let cpu_seconds = start.elapsed().as_secs_f64();
            let core_seconds = busy.into_inner().unwrap_or_else(|e| e.into_inner()).as_secs_f64();
            let threads = pool.current_num_threads();
            let differ: Vec<u32> = tasks.iter().copied().filter(|i| on_gpu.get(i) != on_cpu.get(i)).collect();
            if !differ.is_empty() {
                for i in &differ {
                    errln!(
                        "damier: MISMATCH: n = {n}, task {i}: GPU {:?}, CPU ({}) {:?}",
                        on_gpu.get(i),
                        engine.name(),
                        on_cpu.get(i)
                    );
                }
                return Ok(ExitCode::from(exit::NO));
            }
            record.cpu_engine = Some(engine.name());
            record.cpu_threads = Some(threads);
            record.cpu_seconds = Some(cpu_seconds);
            record.cpu_core_ns_per_solution = Some(per_solution(core_seconds));
            record.cores_per_gpu = Some(core_seconds / gpu_seconds);
        }
        record.print(a.json)?;
        Ok(ExitCode::SUCCESS)
    }

    impl Report for GpuBench {
        fn print_text(&self) -> anyhow::Result<()> {
            let mut line = format!(
                "n = {}: {} tasks, {} solutions; GPU {} ({}, kernel {}): {} s, {} ns per solution",
                self.n,
                self.tasks,
                self.solutions,
                self.adapter,
                self.backend,
                self.kernel,
                number(self.gpu_seconds),
                number(self.gpu_ns_per_solution)
            );
            if let Some(h) = self.gpu_projected_hours {
                line += &format!(" (q({}) projected at {} GPU hours)", self.n, number(h));
            }
            if let (Some(e), Some(t), Some(s), Some(ns), Some(k)) = (
                self.cpu_engine,
                self.cpu_threads,
                self.cpu_seconds,
                self.cpu_core_ns_per_solution,
                self.cores_per_gpu,
            ) {
                line += &format!(
                    "; CPU {e} engine on {t} threads: {} s, {} core-ns per solution, the same counts; one GPU = {} cores",
                    number(s),
                    number(ns),
                    number(k)
                );
            }
            outln!("{line}")?;
            if let (Some(seal), Some(prep), Some(bytes), Some(rate), Some(busy), Some(from), Some(wait)) = (
                self.sealing_cpu_seconds,
                self.upload_prep_seconds,
                self.bytes_uploaded,
                self.upload_gb_per_s,
                self.gpu_busy_fraction,
                self.gpu_busy_from,
                self.host_wait_seconds,
            ) {
                outln!(
                    "  where the time went: sealing {} CPU-s; {} bytes uploaded ({}; {} GB/s over the run; {} s preparing them); GPU busy {}% of the run ({from}); {} ({} ahead each) waited {} s for the GPU ({}% of their time); {} in {} ({} gathered with others into one dispatch), {}, up to {} of {} in flight",
                    number(seal),
                    number(bytes as f64),
                    self.uploaded.map(parts).unwrap_or_default(),
                    number(rate),
                    number(prep),
                    number(100.0 * busy),
                    plural(self.sealing_workers.unwrap_or(0), "sealing worker"),
                    plural(self.gpu_ahead.unwrap_or(0), "batch"),
                    number(wait),
                    number(100.0 * self.host_wait_fraction.unwrap_or(0.0)),
                    plural(self.jobs.unwrap_or(0), "job"),
                    plural(self.submissions.unwrap_or(0), "submission"),
                    self.merged_batches.unwrap_or(0),
                    plural(self.dispatches.unwrap_or(0), "dispatch"),
                    self.most_in_flight.unwrap_or(0),
                    plural(self.ring.unwrap_or(0), "ring slot")
                )?;
            }
            Ok(())
        }
    }

    /// The bytes uploaded by what they were, each part with its share of the whole.
    fn parts(u: damier_gpu::Uploaded) -> String {
        let all = u.bytes().max(1) as f64;
        let part = |name: &str, b: u64| format!("{name} {}%", number(100.0 * b as f64 / all));
        [
            part("keys", u.keys),
            part("queries", u.queries),
            part("blocks", u.blocks),
            part("pairs", u.pairs),
            part("parameters", u.params),
            part("gathered", u.gathered),
        ]
        .join(", ")
    }
}
