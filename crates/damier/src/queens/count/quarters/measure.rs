//! Measurement aids of the quarter-board engine (docs/performance.md), behind the Cargo
//! feature `measure` and hidden from the documentation: not API. They print what they
//! measure; the example `quarters` runs them (`cargo run -p damier --release --features
//! measure --example quarters -- --help`). Each takes n in 4..=28 and panics otherwise (the
//! example checks it first); a count that disagrees between settings panics too.

use rand::{RngExt, SeedableRng};

use super::*;

/// [`count_task`] with a control nobody cancels.
fn uncancelled(g: &Geometry, quarters: &Quarters, task: Task, w: &mut Work) -> u64 {
    count_task(g, quarters, task, w, &Control::new()).expect("a control nobody cancels")
}

/// The largest worker buffers over a sample of tasks (`tasks` of them, by default 200, or
/// 40 from n = 22), for each n from 12 to 27 or `only_n` (to size [`worker_bytes`]), with
/// batches of `batch` stored keys (by default [`STORED_KEYS`]), beside what [`worker_bytes`]
/// allows; stops after an n whose tasks take over 5 s each.
pub fn worker_buffer_peaks(only_n: Option<u32>, tasks_per_n: Option<usize>, batch: Option<usize>) {
    let batch = batch.unwrap_or(STORED_KEYS).max(1);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    let ns = match only_n {
        None => 12..=27,
        Some(n) => n..=n,
    };
    for n in ns {
        let g = Geometry::new(n);
        let all = tasks(&g);
        let quarters = Quarters::new(&g, false, 0, &Control::new()).unwrap();
        let mut w = Work::new(&g, Isa::best());
        w.batch = batch;
        let sample = tasks_per_n.unwrap_or(if n >= 22 { 40 } else { 200 });
        let start = std::time::Instant::now();
        for _ in 0..sample {
            uncancelled(&g, &quarters, all[rng.random_range(0..all.len())], &mut w);
        }
        let per_task = start.elapsed().as_secs_f64() / sample as f64;
        let [cells, matcher, sides] = w.bytes();
        println!(
            "n = {n}: peak worker buffers {} bytes over {sample} tasks ({per_task:.4} s per task): \
             quarter cells {cells}, matcher {matcher}, both sides' keys {sides}; \
             batches of {batch} keys, the plan allows {}",
            cells + matcher + sides,
            worker_bytes(n, batch, wide_tables(Isa::best()))
        );
        if per_task > 5.0 {
            break;
        }
    }
}

/// Time per task of the two layouts (the whole quarter table, or the cells searched per
/// task) on the same 300 random tasks, n = 16 to 20.
pub fn layouts_per_task() {
    for n in 16..=20 {
        let g = Geometry::new(n);
        let all = tasks(&g);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let sample: Vec<Task> = (0..300).map(|_| all[rng.random_range(0..all.len())]).collect();
        for table in [true, false, true, false] {
            let quarters = Quarters::new(&g, table, u64::MAX, &Control::new()).unwrap();
            let mut w = Work::new(&g, Isa::best());
            let start = std::time::Instant::now();
            let total: u64 = sample.iter().map(|&t| uncancelled(&g, &quarters, t, &mut w)).sum();
            let per_task = start.elapsed().as_secs_f64() / sample.len() as f64;
            println!("n = {n}, table {table}: {per_task:.5} s per task (sum {total})");
        }
    }
}

/// Where one task's time goes at large n: for `count` random tasks of n (drawn from `seed`),
/// the sizes of both halves, the stored side, its batches (of `batch` keys, by default the
/// engine's) and cut bits, and the seconds of assembling, sealing and matching; `max_cut` and
/// `group_keys` replace the matcher's settings.
pub fn profile_tasks(
    n: u32,
    count: usize,
    seed: u64,
    batch: Option<usize>,
    max_cut: Option<usize>,
    group_keys: Option<usize>,
) {
    let g = Geometry::new(n);
    let all = tasks(&g);
    let quarters = Quarters::new(&g, false, 0, &Control::new()).unwrap();
    let isa = Isa::available().last().unwrap();
    let mut w = Work::new(&g, isa);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    println!("n = {n}, {} tasks, isa {}", all.len(), isa.name());
    for _ in 0..count {
        let task = all[rng.random_range(0..all.len())];
        let t0 = std::time::Instant::now();
        let c = uncancelled(&g, &quarters, task, &mut w);
        let whole = t0.elapsed().as_secs_f64();
        // The parts again, timed apart.
        let ((top_left, top_right), (bottom_left, bottom_right)) = g.quarter_columns(task.cols);
        let t0 = std::time::Instant::now();
        let mut top = Vec::new();
        let splits = &quarters.top_rows[top_left.count_ones() as usize];
        assemble(
            isa,
            &g,
            &quarters.source,
            (&mut w.top_left, &mut w.top_right),
            (top_left, top_right),
            g.top_rows(),
            splits,
            u64::MAX,
            &mut top,
            &Control::new(),
        )
        .unwrap();
        let mut bottom = Vec::new();
        let splits = &quarters.bottom_rows[bottom_left.count_ones() as usize];
        assemble(
            isa,
            &g,
            &quarters.source,
            (&mut w.bottom_left, &mut w.bottom_right),
            (bottom_left, bottom_right),
            g.bottom_rows(),
            splits,
            (1 << WEIGHT_AT) - 1,
            &mut bottom,
            &Control::new(),
        )
        .unwrap();
        let assembling = t0.elapsed().as_secs_f64();
        let swap = stores_top(w.swap, top.len(), bottom.len());
        let (stored, queries) = if swap { (&top, &bottom) } else { (&bottom, &top) };
        // Key bits either side never sets ("holes"), and how often each side sets the others.
        let bits = (1u64 << WEIGHT_AT) - 1;
        let or = |v: &Vec<u64>| v.iter().fold(0, |a, &k| a | (k & bits));
        let relevant = or(stored) & or(queries);
        let density =
            |v: &Vec<u64>, b: u32| v.iter().filter(|&&k| k >> b & 1 == 1).count() as f64 / v.len() as f64;
        let mut conflict: Vec<(f64, u32)> =
            (0..g.key_bits()).map(|b| (density(stored, b) * density(queries, b), b)).collect();
        conflict.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
        println!(
            "  relevant key bits {} of {}; best cut bits by conflict: {:?}; fixed candidates: {:?}",
            relevant.count_ones(),
            g.key_bits(),
            conflict.iter().take(14).map(|(p, b)| format!("{b}:{p:.2}")).collect::<Vec<_>>(),
            g.cut_candidates()
                .iter()
                .take(14)
                .map(|&b| format!("{b}:{:.2}", density(stored, b) * density(queries, b)))
                .collect::<Vec<_>>()
        );
        let batch = batch.unwrap_or(STORED_KEYS);
        w.matcher.max_cut = max_cut.unwrap_or(w.matcher.max_cut);
        w.matcher.group_keys = group_keys.unwrap_or(w.matcher.group_keys);
        // Thread CPU seconds: on a shared machine the clock also counts the other programs.
        let cpu = || crate::util::thread_cpu_seconds().expect("a thread CPU clock on this system");
        for adaptive in [false, true] {
            let (mut sealing, mut matching, mut batches, mut found) = (0.0, 0.0, 0, 0);
            for keys in stored.chunks(batch) {
                let t = cpu();
                w.matcher.order_cuts(
                    keys,
                    if adaptive { queries } else { &[] },
                    queries.len(),
                    key_bits_of(queries),
                );
                w.matcher.seal_all(isa, keys);
                sealing += cpu() - t;
                let t = cpu();
                found += w.matcher.count_all(isa, queries);
                matching += cpu() - t;
                batches += 1;
            }
            assert_eq!(found * task.weight, c);
            println!(
                "cols {:#x}: count {c}, top {} bottom {} ({}), {batches} batches of {batch}, cut {}, {} order: \
                 whole {whole:.3} s (clock) = assemble {assembling:.3} + seal {sealing:.3} (CPU) + match {matching:.3} (CPU); \
                 {:.3} ns per pair-block",
                task.cols,
                top.len(),
                bottom.len(),
                if swap { "top stored" } else { "bottom stored" },
                w.matcher.cut,
                if adaptive { "adaptive" } else { "fixed" },
                matching * 1e9 / (top.len() as f64 * bottom.len() as f64 / 512.0),
            );
        }
    }
}

/// Thread CPU seconds per solution of the same random tasks (the whole quarter table, as a
/// count uses it up to n = 23, and each task after its predecessor's quarter cells) under the
/// current settings and earlier or candidate ones, in `rounds` alternating rounds over `count`
/// tasks of n drawn from `seed`, on the vector unit `isa`. Edit the list to try others.
pub fn settings_sweep(n: u32, count: usize, isa: Isa, seed: u64, rounds: u32) {
    let g = Geometry::new(n);
    let all = tasks(&g);
    let quarters = Quarters::new(&g, true, u64::MAX, &Control::new()).unwrap();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    // Each task with its predecessor in the list, whose quarter cells a count holds before it.
    let sample: Vec<(Task, Option<u32>)> = (0..count)
        .map(|_| rng.random_range(0..all.len()))
        .map(|i| (all[i], i.checked_sub(1).map(|p| all[p].cols)))
        .collect();
    let cpu = || crate::util::thread_cpu_seconds().expect("a thread CPU clock on this system");
    // (label, (swap ratio, swap min), matcher's group keys, matcher's large batch)
    let current = Work::new(&g, isa);
    let settings = [
        ("current", current.swap, current.matcher.group_keys, current.matcher.large_batch),
        ("session 11: stored from 4 times and 4096 at every n", (4, 4096), 2048, 1 << 12),
        ("session 10", (4, 16384), 2048, 1 << 20),
    ];
    let mut sums = vec![0.0; settings.len()];
    let mut want = None;
    for round in 0..rounds {
        for (i, &(label, swap, group_keys, large_batch)) in settings.iter().enumerate() {
            let mut w = Work::new(&g, isa);
            w.swap = swap;
            w.matcher.group_keys = group_keys;
            w.matcher.large_batch = large_batch;
            let (mut total, mut seconds) = (0, 0.0);
            for &(task, previous) in &sample {
                if let Some(previous) = previous {
                    load_quarters(&g, &quarters, previous, &mut w, &Control::new()).unwrap();
                }
                let t = cpu();
                total += uncancelled(&g, &quarters, task, &mut w);
                seconds += cpu() - t;
            }
            assert_eq!(*want.get_or_insert(total), total, "{label}: every setting counts the same");
            sums[i] += seconds;
            println!(
                "round {round}, {label}: {:.3} ns a solution ({seconds:.3} s)",
                seconds * 1e9 / total as f64
            );
        }
    }
    for (sum, (label, ..)) in sums.iter().zip(&settings) {
        println!("{label}: {:.3}x the first", sum / sums[0]);
    }
}
