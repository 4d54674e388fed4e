//! `damier lights bench`: the performance table. The timed calls are the library's
//! (`damier::bench::timers`), shared with `damier bench`.

use std::process::ExitCode;
use std::time::Instant;

use damier::bench;
use damier::control::Control;
use damier::lights::{self};
use serde::Serialize;

use crate::util::output::{errln, outln};
use crate::util::{interrupt, output};

/// Arguments of `damier lights bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Square sides to solve from a random start, comma-separated.
    #[arg(long, default_value = "10000,100000", value_delimiter = ',')]
    sizes: Vec<usize>,
    /// Compute the nullities of all n x n boards up to this n (0: skip).
    #[arg(long, default_value_t = 25_000)]
    nullities_to: usize,
    /// Also time the phases of the polynomial method (on stderr).
    #[arg(long)]
    breakdown: bool,
    /// Seed of the random boards.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct BenchRow {
    task: String,
    seconds: f64,
    verify_seconds: Option<f64>,
    target_seconds: Option<f64>,
    nullity: Option<usize>,
}

pub(super) fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    let control: &Control = interrupt::control();
    let mut out = Vec::new();
    for &n in &a.sizes {
        let (start, generated) = bench::timers::random_square(n, a.seed)?;
        let size = start.size();
        // A random start has no solution with probability 1 - 2^-k (k the nullity): the
        // work is the same either way, and the row says which.
        let reps = if n <= 20_000 { 5 } else { 1 };
        let timing = bench::timers::lights_solve(&start, reps, control)?;
        if a.breakdown {
            // The phases of the polynomial method, timed one by one.
            let t = Instant::now();
            let sys = lights::poly::PolySystem::new(size);
            let t_sys = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let r = lights::chase::chase_residual(&start, &vec![0; start.stride()], control)?;
            let t_res = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let x0 = sys.solve_first_row(&r);
            let t_first = t.elapsed().as_secs_f64();
            let mut x = start.clone();
            let t = Instant::now();
            if let Some(x0) = &x0 {
                lights::chase::chase_in_place(&mut x, x0, control)?;
            }
            let t_full = t.elapsed().as_secs_f64();
            errln!(
                "{n}x{n}: polynomial setup (p_W, p_H(x+1) mod p_W, gcd with cofactor) {t_sys:.4} s; \
                 chase for the last row {t_res:.4} s; first row (conversions, division, product) {t_first:.4} s; \
                 chase writing the presses in place {t_full:.4} s"
            );
        }
        let target = bench::lights_solve_target(n);
        out.push(BenchRow {
            task: format!(
                "solve random {n}x{n} (seed {}, {}; generate {generated:.2} s, copy {copy_time:.2} s)",
                a.seed,
                if timing.solvable { "solved" } else { "no solution" },
                copy_time = timing.copy_seconds,
            ),
            seconds: timing.solve_seconds,
            verify_seconds: Some(timing.verify_seconds),
            target_seconds: target,
            nullity: Some(timing.nullity),
        });
    }
    if a.nullities_to > 0 {
        let (s, max) = bench::timers::square_nullities(a.nullities_to, control)?;
        out.push(BenchRow {
            task: format!("nullities of all n x n, n <= {} (max {max})", a.nullities_to),
            seconds: s,
            verify_seconds: None,
            target_seconds: bench::lights_nullities_target(a.nullities_to),
            nullity: None,
        });
    }
    if a.json {
        output::print_json(&out)?;
    } else {
        outln!("{:<80} {:>10} {:>10} {:>10} {:>8}", "task", "seconds", "verify s", "target s", "ratio")?;
        for r in &out {
            outln!(
                "{:<80} {:>10.4} {:>10} {:>10} {:>8}",
                r.task,
                r.seconds,
                r.verify_seconds.map(|v| format!("{v:.4}")).unwrap_or_else(|| "-".into()),
                r.target_seconds.map(|v| format!("{v}")).unwrap_or_else(|| "-".into()),
                r.target_seconds.map(|t| format!("{:.2}", r.seconds / t)).unwrap_or_else(|| "-".into()),
            )?;
        }
        outln!("(ratio = measured / target; below 1 meets the target)")?;
    }
    Ok(ExitCode::SUCCESS)
}
