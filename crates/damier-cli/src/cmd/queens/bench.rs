//! `damier queens bench [N...]`: the counter timed on 1 thread and on all threads.
//!
//! Each n is counted in a 1-thread rayon pool and in an all-cores pool, best of `--repeat`
//! runs; totals are compared between the two. The figures for docs/performance.md come from
//! `cargo run --release -- queens bench 16 17 18`. The timed call is the bench crate's
//! (`damier_bench::timers::best_count`), shared with `damier bench`.

use std::process::ExitCode;

use damier::queens;
use damier_bench as bench;
use damier_bench::timers::CountScaling;

use crate::util::output::outln;
use crate::util::progress::Progress;
use crate::util::{interrupt, number, output};

/// Arguments of `damier queens bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board sizes.
    #[arg(value_name = "N", default_values_t = [14u32, 15, 16])]
    n: Vec<u32>,
    /// Runs per measurement, the best one is kept (1 to 100).
    #[arg(long, default_value_t = 1, value_parser = crate::util::ranged::<u32>(1, 100))]
    repeat: u32,
    /// Vector unit of the counting kernels (auto, portable, neon, avx2, avx512), as for `count`.
    #[arg(long, value_name = "ISA", default_value = "auto", value_parser = super::count::parse_isa)]
    isa: damier::cpu::IsaChoice,
    /// Print JSON (a list of {n, total, unique, threads, seconds_1_thread, seconds_all_threads}).
    #[arg(long)]
    json: bool,
}

/// n on one thread and on all, with a progress bar (on a terminal) over its tasks.
fn scaling(
    one: &rayon::ThreadPool,
    all: &rayon::ThreadPool,
    n: u32,
    repeat: u32,
    options: &queens::count::CountOptions,
) -> anyhow::Result<CountScaling> {
    let control = interrupt::control();
    let tasks = queens::count::task_count(n).unwrap_or(0) * u64::from(repeat) * 2;
    // q(16) takes 2.4 s on one thread and then on all (release, 2 loaded cores); each n
    // from there says it is alive.
    let _bar = Progress::sized(n >= 16, control, tasks, "queens bench", || {
        format!(
            "counting q({n}) on 1 thread, then on {}, best of {}: {tasks} tasks",
            crate::util::plural(all.current_num_threads() as u64, "thread"),
            crate::util::plural(repeat, "run")
        )
    });
    Ok(bench::timers::count_scaling(one, all, n, repeat, options, control)?)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    for &n in &a.n {
        // Past the fast engine's range a count takes core years and its total passes 64
        // bits: refused as `queens count` refuses it.
        queens::reach::check_count(n, false)?;
    }
    let options = queens::count::CountOptions::on_this_machine(a.isa.resolve()?, None);
    if let Some(&largest) = a.n.iter().max() {
        super::cost::warn_if_whole_count_costly("queens bench", largest, options.isa)?;
    }
    let one = crate::util::pool(Some(1))?;
    let all = crate::util::pool(None)?;
    let threads = all.current_num_threads();
    let mut rows = Vec::new();
    if !a.json {
        outln!("counting kernels: {}", options.isa)?;
        outln!(
            "{:>3} {:>22} {:>14} {:>12} {:>12} {:>8}",
            "n",
            "total",
            "unique",
            "1 thread",
            format!("{threads} threads"),
            "speedup"
        )?;
    }
    for &n in &a.n {
        let row = scaling(&one, &all, n, a.repeat, &options)?;
        if !a.json {
            outln!(
                "{:>3} {:>22} {:>14} {:>12} {:>12} {:>8}",
                n,
                row.total,
                row.unique,
                format!("{} s", number(row.seconds_1_thread)),
                format!("{} s", number(row.seconds_all_threads)),
                format!("{}x", number(row.seconds_1_thread / row.seconds_all_threads))
            )?;
        }
        rows.push(row);
    }
    if a.json {
        output::print_json(&rows)?;
    }
    Ok(ExitCode::SUCCESS)
}
