//! The kernel run for real on whatever adapter this machine has (lavapipe in CI, from
//! `mesa-vulkan-drivers`), every count compared with the CPU engines: a driver that cut the
//! work short could not pass unnoticed.
//!
//! Without an adapter each test fails, naming what is missing: the crate is left out of the
//! README's `cargo test` (its default members), so these tests run only where they are asked
//! for, `cargo test -p damier-gpu` (CI, which installs lavapipe, or a deliberate run), and there
//! a test that cannot run must not pass.

use std::collections::HashMap;
use std::sync::Mutex;

use damier::automaton::row::{RowBoard, Rule, RuleName, Schedule};
use damier::control::Control;
use damier::cpu::Isa;
use damier::queens::count::known::known_total;
use damier::queens::count::tasks::{TaskEngine, TaskList, count_tasks, sample_tasks};
use damier_gpu::{Gpu, GpuError, GpuSettings, RowEngine};

/// The default adapter with `settings`; without one the test fails naming what is missing (this
/// crate is left out of the README's `cargo test`: its tests run where they are asked for, in
/// CI or by `cargo test -p damier-gpu`).
fn gpu(settings: GpuSettings) -> Gpu {
    match Gpu::open(None, settings) {
        Ok(g) => {
            eprintln!("adapter: {} ({}, {})", g.adapter().name, g.adapter().backend, g.adapter().driver);
            g
        }
        Err(GpuError::NoAdapter) => panic!(
            "no Vulkan adapter: these tests need one (Mesa's software driver will do: apt-get install \
             mesa-vulkan-drivers libvulkan1)"
        ),
        Err(e) => panic!("cannot open the GPU: {e}"),
    }
}

/// Per-task counts of `indices` by the GPU.
fn on_gpu(gpu: &Gpu, list: &TaskList, indices: &[u32]) -> Result<HashMap<u32, u64>, GpuError> {
    let counts = Mutex::new(HashMap::new());
    gpu.count_tasks(list, indices, &Control::new(), &|d| {
        let old = counts.lock().unwrap().insert(d.index, d.count);
        assert!(old.is_none(), "task {} reported twice", d.index);
    })?;
    Ok(counts.into_inner().unwrap())
}

/// Per-task counts of `indices` by a CPU engine.
fn on_cpu(list: &TaskList, engine: TaskEngine, indices: &[u32]) -> HashMap<u32, u64> {
    let counts = Mutex::new(HashMap::new());
    count_tasks(list, engine, Isa::best(), None, indices, &Control::new(), &|d| {
        counts.lock().unwrap().insert(d.index, d.count);
    })
    .unwrap();
    counts.into_inner().unwrap()
}

fn all(list: &TaskList) -> Vec<u32> {
    (0..list.len()).collect()
}

/// q(n) on the GPU: every task, summed without overflow.
fn total_on_gpu(gpu: &Gpu, n: u32) -> u64 {
    let list = TaskList::new(n).unwrap();
    let sum: u128 = on_gpu(gpu, &list, &all(&list)).unwrap().values().map(|&c| u128::from(c)).sum();
    u64::try_from(sum).unwrap()
}

/// q(n) for the sizes of `ns`, each timed on stderr.
fn totals_are_a000170(ns: std::ops::RangeInclusive<u32>) {
    let gpu = gpu(GpuSettings::default());
    for n in ns {
        let start = std::time::Instant::now();
        assert_eq!(Some(total_on_gpu(&gpu, n)), known_total(n), "n = {n}");
        eprintln!("q({n}) on {}: {:.2} s", gpu.adapter().name, start.elapsed().as_secs_f64());
    }
}

/// The join kernel's q(16) (n <= 15: every task, below). PERF: about 5 to 11 s on lavapipe.
#[test]
fn join_q_of_16_is_a000170() {
    totals_are_a000170(16..=16);
}

#[test]
#[ignore = "slow on a software driver: cargo test --release -p damier-gpu --test lavapipe -- --ignored q_of_17"]
fn join_q_of_17_is_a000170() {
    totals_are_a000170(17..=17);
}

#[test]
fn a_cancelled_count_reports_no_task_and_a_missing_task_is_refused() {
    let gpu = gpu(GpuSettings::default());
    let list = TaskList::new(10).unwrap();
    let stop = Control::new();
    stop.cancel();
    let e = gpu.count_tasks(&list, &all(&list), &stop, &|_| panic!("nothing is counted")).unwrap_err();
    assert!(matches!(e, GpuError::Interrupted(_)), "{e}");
    let e = on_gpu(&gpu, &list, &[list.len()]).unwrap_err();
    assert_eq!(e.to_string(), format!("task {0} does not exist: n = 10 has {0} tasks", list.len()));
}

/// The estimate's sample, counted as a count counts it: every sampled task has the CPU's
/// count, and the projected solutions (from the same sample as the time) bracket q(n).
#[test]
fn estimates_count_their_tasks_as_the_cpu_and_bracket_the_known_totals() {
    let gpu = gpu(GpuSettings::default());
    let (mut inside, mut tried) = (0, 0);
    for n in 10..=13 {
        let list = TaskList::new(n).unwrap();
        for seed in 1..=3 {
            let counts = Mutex::new(HashMap::new());
            let e = gpu
                .estimate(&list, 40, seed, &Control::new(), &|d| {
                    counts.lock().unwrap().insert(d.index, d.count);
                })
                .unwrap();
            let counts = counts.into_inner().unwrap();
            let picked: Vec<u32> = counts.keys().copied().collect();
            assert_eq!(counts, on_cpu(&list, TaskEngine::Backtrack, &picked), "n = {n} seed {seed}");
            assert_eq!((e.n, e.samples, e.tasks), (n, 40, u64::from(list.len())));
            assert!(!e.stopped_early && e.clock == "wall");
            for t in &e.timed_tasks {
                assert_eq!(t.solutions, counts[&t.index] as f64);
            }
            assert!(e.low <= e.core_hours && e.core_hours <= e.high && e.core_hours > 0.0, "{e:?}");
            assert!(e.ns_per_solution > 0.0 && e.ns_per_solution.is_finite(), "{e:?}");
            let known = known_total(n).unwrap() as f64;
            tried += 1;
            if (e.solutions_low..=e.solutions_high).contains(&known) {
                inside += 1;
            }
            assert!((e.solutions / known - 1.0).abs() < 0.5, "n = {n} seed {seed}: {e:?}");
        }
    }
    eprintln!("GPU estimates: {inside} of {tried} intervals hold the known total");
    // 95% intervals: at most one miss in 12 (a fixed draw: the test is repeatable).
    assert!(inside + 1 >= tried, "{inside} of {tried} intervals hold the total");
    let stop = Control::new();
    stop.cancel();
    let list = TaskList::new(10).unwrap();
    let e = gpu.estimate(&list, 5, 1, &stop, &|_| panic!("nothing is counted")).unwrap_err();
    assert!(matches!(e, GpuError::Interrupted(_)), "{e}");
}

/// The join kernel's settings: the default ones, or a fixed number of tiles per dispatch.
fn join(budget: Option<u32>) -> GpuSettings {
    GpuSettings { budget, ..GpuSettings::default() }
}

/// The join kernel (the quarters engine's matching on the GPU, its halves sealed on the CPU):
/// every task of n = 4..=15 gets the CPU quarters engine's count, task by task.
///
/// PERF: about 8 s on lavapipe with 2 loaded cores in the test profile.
#[test]
fn join_every_task_to_15_has_the_cpu_engines_count() {
    let gpu = gpu(join(None));
    for n in 4..=15 {
        let list = TaskList::new(n).unwrap();
        let start = std::time::Instant::now();
        let got = on_gpu(&gpu, &list, &all(&list)).unwrap();
        let took = start.elapsed().as_secs_f64();
        assert_eq!(got, on_cpu(&list, TaskEngine::Quarters, &all(&list)), "n = {n}");
        if n <= 9 {
            assert_eq!(got, on_cpu(&list, TaskEngine::Backtrack, &all(&list)), "n = {n}");
        }
        eprintln!("join: every task of n = {n} agrees ({took:.2} s on {})", gpu.adapter().name);
    }
}

/// Every variant of the join kernel (docs/gpu.md, "The kernel"): with the adapter's optional
/// features (64-bit keys, subgroup sums) where it has them, the portable path without them,
/// blocks read from global memory (no workgroup memory), and blocks of more than 2 chunks
/// read there while smaller ones are copied, each with its tiles' sums in slots of their own
/// added by the reduce pass (the default); and the sums added atomically into 32 shared
/// partial sums (the way before), with the features and on the portable path: every task of
/// n = 4..=13 gets the CPU quarters engine's count, and random tasks of n = 16..=18 too.
/// PERF: about 10 s a variant on lavapipe with 2 loaded cores.
#[test]
fn join_kernel_variants_give_every_tasks_count() {
    let variants = [
        ("features", GpuSettings::default()),
        ("portable", GpuSettings { portable: true, ..GpuSettings::default() }),
        ("global", GpuSettings { workgroup_bytes: Some(0), ..GpuSettings::default() }),
        (
            "two chunks staged",
            GpuSettings { workgroup_bytes: Some(4096), portable: true, ..GpuSettings::default() },
        ),
        ("shared sums", GpuSettings { shared_sums: true, ..GpuSettings::default() }),
        (
            "shared sums, portable",
            GpuSettings { shared_sums: true, portable: true, ..GpuSettings::default() },
        ),
    ];
    for (name, settings) in variants {
        let gpu = gpu(settings);
        let k = gpu.join_kernel();
        eprintln!("{name}: {k:?}");
        match name {
            "portable" | "two chunks staged" => assert!(!k.int64 && !k.subgroups, "{name}: {k:?}"),
            "global" => assert_eq!(k.staged_chunks, 0),
            _ => {}
        }
        if name == "two chunks staged" {
            assert_eq!(k.staged_chunks, 2);
        }
        assert_eq!(k.tile_sums, !name.starts_with("shared sums"), "{name}: {k:?}");
        for n in 4..=13 {
            let list = TaskList::new(n).unwrap();
            let got = on_gpu(&gpu, &list, &all(&list)).unwrap();
            assert_eq!(got, on_cpu(&list, TaskEngine::Quarters, &all(&list)), "{name}: n = {n}");
        }
        for n in 16..=18 {
            let list = TaskList::new(n).unwrap();
            let tasks = sample_tasks(&all(&list), 3, u64::from(n));
            let got = on_gpu(&gpu, &list, &tasks).unwrap();
            assert_eq!(got, on_cpu(&list, TaskEngine::Quarters, &tasks), "{name}: n = {n}, tasks {tasks:?}");
        }
    }
}

/// Where the adapter has them (lavapipe has both), the default join kernel uses 64-bit keys
/// and subgroup sums, and copies blocks of up to 11 chunks when its workgroup memory holds
/// 22.5 KB (lavapipe's 32 KB does); it stores each tile's sum in a slot of its own.
#[test]
fn the_join_kernel_uses_the_adapters_features() {
    let gpu = gpu(join(None));
    let k = gpu.join_kernel();
    if gpu.adapter().is_software() {
        assert_eq!((k.int64, k.subgroups, k.staged_chunks), (true, true, 11), "{k:?}");
    }
    assert!(k.tile_sums, "a slot per tile by default: {k:?}");
}

/// One or three tiles per dispatch: every batch runs in many dispatches, each checked (units
/// done, faults), and the counts stay the same.
#[test]
fn join_in_tiny_dispatches_gives_the_same_counts() {
    for (n, tiles) in [(8, 1), (10, 3), (11, 1)] {
        let gpu = gpu(join(Some(tiles)));
        let list = TaskList::new(n).unwrap();
        assert_eq!(
            on_gpu(&gpu, &list, &all(&list)).unwrap(),
            on_cpu(&list, TaskEngine::Quarters, &all(&list)),
            "n = {n}, {tiles} tiles a dispatch"
        );
    }
}

/// The pipeline with several batches in flight: 4 sealing workers share a ring of 2 slots
/// (and dispatches of a few tiles, so that jobs hold several dispatches), every slot reused
/// for many batches, each worker sealing 0, 1 or 3 batches ahead; every task of n = 11 and
/// 12 gets the CPU quarters engine's count, and the breakdown adds up (bytes uploaded,
/// dispatches per job, at most the ring's jobs in flight). How many jobs were in flight at
/// once depends on the schedule: src/join.rs tests that jobs waiting together are in flight
/// together under a controlled one.
#[test]
fn join_with_batches_in_flight_on_a_small_ring_gives_every_tasks_count() {
    for ahead in [0, 1, 3] {
        let gpu = gpu(GpuSettings { ring: Some(2), ahead: Some(ahead), ..join(Some(2)) });
        on_a_small_ring(&gpu);
        let b = gpu.breakdown();
        assert_eq!((b.ahead, b.workers), (ahead, 4), "{b:?}");
    }
}

/// [`join_with_batches_in_flight_on_a_small_ring_gives_every_tasks_count`] with one setting.
fn on_a_small_ring(gpu: &Gpu) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    for n in [11, 12] {
        let list = TaskList::new(n).unwrap();
        let before = gpu.breakdown();
        let got = pool.install(|| on_gpu(gpu, &list, &all(&list))).unwrap();
        assert_eq!(got, on_cpu(&list, TaskEngine::Quarters, &all(&list)), "n = {n}");
        let b = gpu.breakdown();
        eprintln!("n = {n}: {b:?}");
        assert_eq!(b.ring, 2);
        assert!(b.jobs > before.jobs + 2 * u64::from(b.ring), "slots reused: {b:?}");
        assert!(b.dispatches >= b.jobs && b.dispatches <= 8 * b.jobs, "{b:?}");
        assert!(b.submissions > before.submissions && b.submissions <= b.jobs, "{b:?}");
        assert!(b.bytes_uploaded > before.bytes_uploaded, "{b:?}");
        assert!(b.sealing_seconds > 0.0 && b.wait_seconds > 0.0 && b.gpu_busy_seconds > 0.0, "{b:?}");
        assert!((1..=2).contains(&b.most_in_flight), "at most the ring's slots: {b:?}");
    }
}

/// Batch boundaries in the middle of tasks: batches of at most 20 stored keys cut the
/// stored side of most tasks of n = 12 and 13 into several batches, each sealed on the GPU
/// and counted apart, on a ring of 2 slots with 3 workers each 0, 1 or 3 batches ahead (the
/// pipelined path); every task gets the CPU quarters engine's count.
#[test]
fn join_with_tasks_cut_into_several_batches_gives_every_tasks_count() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    for n in [12, 13] {
        let list = TaskList::new(n).unwrap();
        let want = on_cpu(&list, TaskEngine::Quarters, &all(&list));
        // The jobs (one a batch at this size) of whole tasks, and of tasks cut.
        let jobs = |settings| {
            let gpu = gpu(settings);
            let got = pool.install(|| on_gpu(&gpu, &list, &all(&list))).unwrap();
            assert_eq!(got, want, "n = {n}, {settings:?}");
            gpu.breakdown().jobs
        };
        let whole = jobs(GpuSettings { ring: Some(2), ..join(None) });
        for ahead in [0, 1, 3] {
            let cut = GpuSettings { ring: Some(2), ahead: Some(ahead), batch_keys: Some(20), ..join(None) };
            let jobs = jobs(cut);
            assert!(jobs > whole + whole / 4, "n = {n}, ahead {ahead}: {jobs} jobs, {whole} whole");
        }
    }
}

/// A sample of tasks of larger n (random ones of n = 17, 19, 21, 22), their keys sealed on
/// the GPU, whole and at n = 17 and 19 in batches of at most 512 and 2 048 stored keys
/// (tasks of several batches of full blocks, sealed ahead on the default ring), each against
/// the CPU quarters engine's count.
///
/// PERF: about 6 s on lavapipe with 2 loaded cores in the test profile (batches that small
/// at n = 21 and 22 take minutes: every batch matches all of its task's queries).
#[test]
fn join_sampled_tasks_of_larger_n_have_the_cpu_engines_count() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let runs = [
        (17, 40, None),
        (17, 40, Some(512)),
        (19, 16, None),
        (19, 16, Some(2048)),
        (21, 6, None),
        (22, 3, None),
    ];
    for (n, k, batch_keys) in runs {
        let list = TaskList::new(n).unwrap();
        let tasks = sample_tasks(&all(&list), k, u64::from(n));
        let gpu = gpu(GpuSettings { batch_keys, ..join(None) });
        let start = std::time::Instant::now();
        let got = pool.install(|| on_gpu(&gpu, &list, &tasks)).unwrap();
        let took = start.elapsed().as_secs_f64();
        assert_eq!(
            got,
            on_cpu(&list, TaskEngine::Quarters, &tasks),
            "n = {n}, batches of {batch_keys:?} keys"
        );
        let jobs = gpu.breakdown().jobs;
        eprintln!("n = {n}, {k} tasks, batches of {batch_keys:?} keys: {took:.2} s, {jobs} jobs");
        if batch_keys.is_some() {
            assert!(jobs > u64::from(k), "n = {n}: tasks cut into batches, {jobs} jobs");
        }
    }
}

/// Small whole batches gathered into one dispatch (many tasks per dispatch at small n): 8
/// workers on a ring of 8, the budget adapted (a fixed one gathers nothing); every task of
/// n = 10..=13 gets the CPU quarters engine's count, whichever batches were gathered (that
/// depends on the schedule: src/join.rs tests the gathering under a controlled one).
#[test]
fn join_gathers_small_batches_into_one_dispatch_and_counts_each() {
    let gpu = gpu(GpuSettings { ring: Some(8), ..join(None) });
    let pool = rayon::ThreadPoolBuilder::new().num_threads(8).build().unwrap();
    for n in 10..=13 {
        let list = TaskList::new(n).unwrap();
        let got = pool.install(|| on_gpu(&gpu, &list, &all(&list))).unwrap();
        assert_eq!(got, on_cpu(&list, TaskEngine::Quarters, &all(&list)), "n = {n}");
    }
    let b = gpu.breakdown();
    eprintln!("{b:?}");
    assert!(b.merged <= b.jobs && b.submissions <= b.jobs, "{b:?}");
    // Every job not gathered has a dispatch of its own at least; gathered ones share one.
    assert!(b.dispatches + b.merged >= b.jobs, "{b:?}");
}

/// Ctrl-C in the middle of a pipelined count (4 workers, a ring of 2, jobs in flight): the
/// count stops with `Interrupted` (no hang waiting for the submitter), every task reported
/// before has the CPU's count, and the same `Gpu` then counts the whole list right.
#[test]
fn join_cancelled_with_batches_in_flight_stops_and_the_gpu_counts_on() {
    let gpu = gpu(GpuSettings { ring: Some(2), ..join(Some(2)) });
    let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let list = TaskList::new(13).unwrap();
    let want = on_cpu(&list, TaskEngine::Quarters, &all(&list));
    let stop = Control::new();
    let seen = Mutex::new(HashMap::new());
    let r = pool.install(|| {
        gpu.count_tasks(&list, &all(&list), &stop, &|d| {
            let mut seen = seen.lock().unwrap();
            seen.insert(d.index, d.count);
            if seen.len() == 20 {
                stop.cancel();
            }
        })
    });
    assert!(matches!(r, Err(GpuError::Interrupted(_))), "{r:?}");
    let seen = seen.into_inner().unwrap();
    assert!(seen.len() >= 20 && seen.len() < want.len(), "{} of {}", seen.len(), want.len());
    for (i, c) in &seen {
        assert_eq!(Some(c), want.get(i), "task {i}");
    }
    assert_eq!(pool.install(|| on_gpu(&gpu, &list, &all(&list))).unwrap(), want);
}

/// The join kernel's estimate counts its sample as the CPU does, headed with the quarters
/// engine; a cancelled join count reports nothing.
#[test]
fn join_estimates_and_cancels() {
    let gpu = gpu(join(None));
    let list = TaskList::new(13).unwrap();
    let counts = Mutex::new(HashMap::new());
    let e = gpu
        .estimate(&list, 40, 7, &Control::new(), &|d| {
            counts.lock().unwrap().insert(d.index, d.count);
        })
        .unwrap();
    let counts = counts.into_inner().unwrap();
    let picked: Vec<u32> = counts.keys().copied().collect();
    assert_eq!(picked.len(), 40);
    assert_eq!(counts, on_cpu(&list, TaskEngine::Backtrack, &picked));
    assert_eq!(e.engine, TaskEngine::Quarters);
    assert!(e.core_hours > 0.0 && e.low <= e.core_hours && e.core_hours <= e.high, "{e:?}");
    let stop = Control::new();
    stop.cancel();
    let r = gpu.count_tasks(&list, &all(&list), &stop, &|_| panic!("nothing is counted"));
    assert!(matches!(r, Err(GpuError::Interrupted(_))), "{r:?}");
}

/// The sizes (`DAMIER_JOIN_NS=A..=B`, else `ns`) and tasks per size (`DAMIER_GPU_TASKS`,
/// else `tasks`) of a measurement.
fn sizes_and_tasks(ns: &str, tasks: u32) -> (std::ops::RangeInclusive<u32>, u32) {
    let ns = std::env::var("DAMIER_JOIN_NS").unwrap_or_else(|_| ns.into());
    let (lo, hi) = ns.split_once("..=").expect("DAMIER_JOIN_NS is A..=B");
    let k = std::env::var("DAMIER_GPU_TASKS").map_or(tasks, |v| v.parse().unwrap());
    (lo.parse().unwrap()..=hi.parse().unwrap(), k)
}

/// What the join kernel moves and does per solution, measured on the CPU alone (no GPU
/// needed): bytes uploaded (stored keys, blocks, queries, pairs) and (query, block) visits per weighted
/// solution, on random tasks of n = 16..=21 (`DAMIER_JOIN_NS=18..=23` and `DAMIER_GPU_TASKS`
/// choose; the matching is counted by the plain reference, slow past n = 22):
/// `cargo test --release -p damier-gpu --test lavapipe -- --ignored join_work --nocapture`.
#[test]
#[ignore = "a measurement (seconds to minutes); see the doc comment for the command"]
fn join_work_per_solution() {
    use damier::queens::count::tasks::count_tasks_with_matching;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    let (ns, k) = sizes_and_tasks("16..=21", 8);
    for n in ns {
        let list = TaskList::new(n).unwrap();
        let tasks = sample_tasks(&all(&list), k, u64::from(n));
        let (bytes, visits, tests, batches) =
            (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
        let got = Mutex::new(HashMap::new());
        count_tasks_with_matching::<damier::queens::count::tasks::TaskError>(
            &list,
            Isa::best(),
            None,
            &tasks,
            &Control::new(),
            &|s| {
                // The stored keys and queries packed, the blocks and the pairs (the rows are
                // made on the device).
                bytes.fetch_add(damier_gpu::batch_bytes(s), Relaxed);
                let (v, t) = s.work();
                visits.fetch_add(v, Relaxed);
                tests.fetch_add(t, Relaxed);
                batches.fetch_add(1, Relaxed);
                Ok(s.count())
            },
            &|d| {
                got.lock().unwrap().insert(d.index, d.count);
            },
        )
        .unwrap();
        let got = got.into_inner().unwrap();
        assert_eq!(got, on_cpu(&list, TaskEngine::Quarters, &tasks), "n = {n}");
        let solutions = got.values().sum::<u64>().max(1) as f64;
        eprintln!(
            "n = {n}: {k} tasks, {} batches, {:.3e} solutions; per solution: {:.4} bytes uploaded, {:.5} visits, {:.5} tail tests",
            batches.load(Relaxed),
            solutions,
            bytes.load(Relaxed) as f64 / solutions,
            visits.load(Relaxed) as f64 / solutions,
            tests.load(Relaxed) as f64 / solutions
        );
    }
}

/// What the join kernel uploads per solution, by buffer (stored keys, queries, blocks, pairs,
/// parameters, what gathered batches write again), per stored key and per query: random
/// tasks of n = 16..=19 (seed n; `DAMIER_JOIN_NS` and `DAMIER_GPU_TASKS`, 16 by default,
/// choose) counted on the GPU with the default settings, every count against the CPU's:
/// `cargo test -p damier-gpu --test lavapipe -- --ignored join_upload --nocapture`.
#[test]
#[ignore = "a measurement (seconds); see the doc comment for the command"]
fn join_upload_per_solution() {
    let (ns, k) = sizes_and_tasks("16..=19", 16);
    for n in ns {
        let gpu = gpu(GpuSettings::default());
        let list = TaskList::new(n).unwrap();
        let tasks = sample_tasks(&all(&list), k, u64::from(n));
        let got = on_gpu(&gpu, &list, &tasks).unwrap();
        assert_eq!(got, on_cpu(&list, TaskEngine::Quarters, &tasks), "n = {n}");
        let solutions = got.values().sum::<u64>().max(1) as f64;
        let (b, u) = (gpu.breakdown(), gpu.breakdown().uploaded);
        let per = |bytes: u64| bytes as f64 / solutions;
        eprintln!(
            "n = {n}: {} tasks, {solutions:.4e} solutions, {} stored keys, {} queries, {} jobs, {} dispatches, {} gathered; \
             bytes per solution {:.4}: keys {:.4}, queries {:.4}, blocks {:.4}, pairs {:.4}, params {:.4}, gathered {:.4}; \
             {:.2} bytes per stored key and query; {} pairs, {:.2} bytes a pair (32 unpacked)",
            tasks.len(),
            u.stored_keys,
            u.query_count,
            b.jobs,
            b.dispatches,
            b.merged,
            per(b.bytes_uploaded),
            per(u.keys),
            per(u.queries),
            per(u.blocks),
            per(u.pairs),
            per(u.params),
            per(u.gathered),
            b.bytes_uploaded as f64 / (u.stored_keys + u.query_count).max(1) as f64,
            u.pair_count,
            u.pairs as f64 / u.pair_count.max(1) as f64,
        );
    }
}

/// Random tasks of large n against the CPU's fast engine. On a GPU:
/// `cargo test --release -p damier-gpu --test lavapipe -- --ignored random_tasks --nocapture`;
/// `DAMIER_GPU_NS=20..=22` and `DAMIER_GPU_TASKS=2` choose the sizes and the tasks per size
/// (the defaults, n = 20..=28, 3 tasks, take hours on a software driver); `DAMIER_GPU_PORTABLE=1`
/// runs the kernel's portable path.
#[test]
#[ignore = "long: random tasks of n = 20..=28 (hours on lavapipe); see the doc comment for the command"]
fn random_tasks_of_large_n_have_the_cpu_engines_count() {
    let portable = std::env::var("DAMIER_GPU_PORTABLE").is_ok_and(|v| v == "1");
    random_tasks_agree(GpuSettings { portable, ..GpuSettings::default() });
}

fn random_tasks_agree(settings: GpuSettings) {
    let gpu = gpu(settings);
    let ns = std::env::var("DAMIER_GPU_NS").unwrap_or_else(|_| "20..=28".into());
    let (lo, hi) = ns.split_once("..=").expect("DAMIER_GPU_NS is A..=B");
    let (lo, hi): (u32, u32) = (lo.parse().unwrap(), hi.parse().unwrap());
    let k: u32 = std::env::var("DAMIER_GPU_TASKS").map_or(3, |v| v.parse().unwrap());
    for n in lo..=hi {
        let list = TaskList::new(n).unwrap();
        let tasks = sample_tasks(&all(&list), k, u64::from(n));
        let start = std::time::Instant::now();
        let got = on_gpu(&gpu, &list, &tasks).unwrap();
        let gpu_s = start.elapsed().as_secs_f64();
        let start = std::time::Instant::now();
        assert_eq!(got, on_cpu(&list, TaskEngine::best_for(n), &tasks), "n = {n}, tasks {tasks:?}");
        eprintln!(
            "n = {n}: {k} tasks agree ({:?}); GPU {gpu_s:.2} s, CPU {:.2} s",
            gpu.join_kernel(),
            start.elapsed().as_secs_f64()
        );
    }
}

/// Every cell of a model 3 board as one word ([`RowBoard::word`]), row-major.
fn cell_words(b: &RowBoard) -> Vec<u32> {
    (0..b.n() * b.n()).map(|i| b.word(i % b.n(), i / b.n())).collect()
}

/// The rules the model 3 tests run: every named rule the GPU runs (the kept one, the first
/// kept one, patience with and without rest, counts saturating at 1, walkers seen, backoff,
/// ...), patience that acts at once (every draw of its branches taken often) and backoff
/// whose levels move often.
fn model3_rules() -> Vec<Rule> {
    let mut rules: Vec<Rule> =
        RuleName::ALL.into_iter().filter(|r| r.runs_on_gpu()).map(|r| r.rule(0.01)).collect();
    let quick =
        Rule { patience: 2, patience_rate: 0.5, rest: 3, rest_rate: 0.5, eps: 0.2, ..Rule::model3(0.2) };
    // Backoff whose levels move often (every activity 0.5), with patience, raised by walks
    // that settle in danger or by hits.
    let backoff = Rule { rest: 0, backoff: 3, activity: 0.5, south_activity: 0.5, ..quick };
    let hits = Rule { backoff_hits: true, backoff_rate: 0.3, ..backoff };
    rules.extend([quick, Rule { patience_keeps: true, plateau: 1.0, ..quick }, backoff, hits]);
    rules
}

#[test]
fn model3_on_the_gpu_follows_the_cpus_trajectory_bit_for_bit() {
    let gpu = gpu(GpuSettings::default());
    for (i, rule) in model3_rules().into_iter().enumerate() {
        // Every width for the first rules, a few for the others (the rule is in the queens'
        // phase, which reads no width).
        let ns: &[usize] = if i < 4 { &[1, 2, 5, 31, 32, 33, 63, 64, 65, 100] } else { &[2, 33, 100] };
        for &n in ns {
            let seed = n as u64 + 11;
            let mut cpu = RowBoard::from_seed(rule, n, seed);
            let mut engine = RowEngine::new(&gpu, RowBoard::from_seed(rule, n, seed)).unwrap();
            // Compared after 1, 40 and 300 generations: the downloads in between change nothing.
            for limit in [1, 39, 260] {
                let solved = cpu.run_steps(limit);
                assert_eq!(engine.run_steps(limit).unwrap(), solved, "{rule:?}, n = {n}");
                let on_gpu = engine.board().unwrap();
                assert_eq!(
                    (on_gpu.steps(), on_gpu.moves(), on_gpu.columns(), on_gpu.conflicts()),
                    (cpu.steps(), cpu.moves(), cpu.columns(), cpu.conflicts()),
                    "{rule:?}, n = {n}"
                );
                assert!(cell_words(on_gpu) == cell_words(&cpu), "a cell differs: {rule:?}, n = {n}");
                assert!(on_gpu.generator() == cpu.generator(), "the generators differ: {rule:?}, n = {n}");
            }
            assert!(n < 31 || cpu.moves() > 0, "the queens moved: {rule:?}, n = {n}");
        }
    }
}

#[test]
fn model3_on_the_gpu_matches_the_cpu_over_several_workgroups_a_row() {
    // n = 1 100: 35 words a plane row, two workgroups along the words (32 each) and 275
    // along the rows; the boards above test one.
    let gpu = gpu(GpuSettings::default());
    for rule in [RuleName::Kept, RuleName::Patience] {
        let (rule, n) = (rule.rule(0.01), 1_100);
        let mut cpu = RowBoard::from_seed(rule, n, 5);
        let mut engine = RowEngine::new(&gpu, RowBoard::from_seed(rule, n, 5)).unwrap();
        cpu.run_steps(30);
        engine.run_steps(30).unwrap();
        assert_eq!((engine.steps(), engine.moves(), engine.conflicts()), (30, cpu.moves(), cpu.conflicts()));
        let on_gpu = engine.board().unwrap();
        assert!(cpu.moves() > 0);
        assert_eq!(
            (on_gpu.steps(), on_gpu.moves(), on_gpu.columns()),
            (cpu.steps(), cpu.moves(), cpu.columns())
        );
        assert!(cell_words(on_gpu) == cell_words(&cpu), "a cell differs");
        assert!(on_gpu.generator() == cpu.generator(), "the generators differ");
    }
}

#[test]
fn model3_on_the_gpu_solves_in_the_cpus_generations() {
    let gpu = gpu(GpuSettings::default());
    // Seeds the CPU solves in 2 697 and 1 279 generations.
    for (n, seed) in [(16, 1), (24, 9)] {
        let rule = Rule::model3(0.01);
        let mut cpu = RowBoard::from_seed(rule, n, seed);
        assert!(cpu.run_steps(200_000), "the CPU solves n = {n}");
        let mut engine = RowEngine::new(&gpu, RowBoard::from_seed(rule, n, seed)).unwrap();
        assert!(engine.run_steps(200_000).unwrap(), "the GPU engine solves n = {n}");
        // Many generations a submission: the ones after the solution changed nothing.
        assert!(engine.steps() == cpu.steps() && engine.is_solution());
        let on_gpu = engine.into_board().unwrap();
        assert_eq!((on_gpu.steps(), on_gpu.moves()), (cpu.steps(), cpu.moves()), "n = {n}");
        assert!(on_gpu.generator() == cpu.generator(), "the generators differ at n = {n}");
        assert_eq!(on_gpu.columns(), cpu.columns());
        assert!(cell_words(&on_gpu) == cell_words(&cpu), "a cell differs at n = {n}");
    }
}

#[test]
fn model3_rules_the_kernel_does_not_run_are_refused() {
    let gpu = gpu(GpuSettings::default());
    let m3 = Rule::model3(0.01);
    for rule in [Rule { wave: false, ..m3 }, Rule { schedule: Schedule::RandomCell, ..m3 }] {
        let e = RowEngine::new(&gpu, RowBoard::from_seed(rule, 8, 1)).unwrap_err();
        assert!(matches!(e, GpuError::Setting(_)), "{e}");
    }
}

/// Generations per second of model 3 at n = 1 000 (200 generations from seed 1; the
/// variables `DAMIER_MODEL3_N` and `DAMIER_MODEL3_GENERATIONS` change them, e.g. n = 10 000
/// on a real GPU): the GPU engine on this machine's adapter against the CPU board on one
/// thread and on the default pool, the two runs' cells compared. A measurement, printed (on
/// lavapipe the "GPU" is the CPU too, so its figure says nothing of a real GPU's):
/// `cargo test -p damier-gpu --test lavapipe -- --ignored model3_generations_per_second --nocapture`.
#[test]
#[ignore = "a measurement; see the doc comment for the command"]
fn model3_generations_per_second() {
    let gpu = gpu(GpuSettings::default());
    let var =
        |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (rule, n, gens) =
        (Rule::model3(0.01), var("DAMIER_MODEL3_N", 1_000) as usize, var("DAMIER_MODEL3_GENERATIONS", 200));
    let rate = |start: std::time::Instant| gens as f64 / start.elapsed().as_secs_f64();
    let mut engine = RowEngine::new(&gpu, RowBoard::from_seed(rule, n, 1)).unwrap();
    let start = std::time::Instant::now();
    engine.run_steps(gens).unwrap();
    let on_gpu = rate(start);
    let board = engine.into_board().unwrap();
    let cpu = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let mut b = RowBoard::from_seed(rule, n, 1);
            let start = std::time::Instant::now();
            b.run_steps(gens);
            (rate(start), cell_words(&b))
        })
    };
    let (one, words) = cpu(1);
    let (all, _) = cpu(rayon::current_num_threads());
    assert!(words == cell_words(&board), "the runs differ");
    println!(
        "model 3, n = {n}, {gens} generations: {} {on_gpu:.0}/s, CPU 1 thread {one:.0}/s, CPU {} threads {all:.0}/s",
        gpu.adapter().name,
        rayon::current_num_threads()
    );
}
