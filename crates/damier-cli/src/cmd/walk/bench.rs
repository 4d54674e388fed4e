//! `damier walk bench`: solve and path timed on large boards. The timed call is the
//! library's (`damier::bench::timers::walk`), shared with `damier bench`.

use std::process::ExitCode;

use damier::bench;
use damier::walk::Method;

use crate::util::output::outln;
use crate::util::{interrupt, output};

use super::shared::*;

/// Arguments of `damier walk bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Largest square side timed [range: 1..=4096].
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max: u32,
    /// Solver timed: fast or poly (brute and rows cannot reach these sizes).
    #[arg(long, value_enum, default_value = "fast")]
    method: MethodArg,
    /// Print JSON (a list of {rows, cols, solve_seconds, path_seconds, total_seconds,
    /// replay_seconds, activated, path_length}).
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct BenchRow {
    rows: usize,
    cols: usize,
    solve_seconds: f64,
    path_seconds: f64,
    total_seconds: f64,
    replay_seconds: f64,
    activated: usize,
    path_length: usize,
}

pub(super) fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    let max = a.max as usize;
    let mut sizes: Vec<(usize, usize)> =
        [100, 250, 500, 1000, 2000, 4096].iter().copied().filter(|&n| n < max).map(|n| (n, n)).collect();
    sizes.push((max, max));
    if max >= 2 {
        sizes.push((max / 2, max));
    }
    let method = Method::from(a.method);
    anyhow::ensure!(
        matches!(method, Method::Fast | Method::Poly),
        "walk bench times the fast and poly methods only"
    );
    let mut rows = Vec::new();
    for (r, c) in sizes {
        let t = bench::timers::walk(r, c, method, interrupt::control())?;
        let row = BenchRow {
            rows: r,
            cols: c,
            solve_seconds: t.solve_seconds,
            path_seconds: t.path_seconds,
            total_seconds: t.solve_seconds + t.path_seconds,
            replay_seconds: t.replay_seconds,
            activated: t.activated,
            path_length: t.path_length,
        };
        if !a.json {
            if rows.is_empty() {
                outln!(
                    "{:>11}  {:>8}  {:>8}  {:>8}  {:>9}  {:>10}  {:>10}  {:>6}",
                    "board",
                    "solve s",
                    "path s",
                    "total s",
                    "replay s",
                    "activated",
                    "moves",
                    "ratio"
                )?;
            }
            outln!(
                "{:>11}  {:>8.3}  {:>8.3}  {:>8.3}  {:>9.3}  {:>10}  {:>10}  {:>6.2}",
                format!("{r}x{c}"),
                row.solve_seconds,
                row.path_seconds,
                row.total_seconds,
                row.replay_seconds,
                row.activated,
                row.path_length,
                row.path_length as f64 / row.activated as f64
            )?;
        }
        rows.push(row);
    }
    if a.json {
        output::print_json(&rows)?;
    } else {
        outln!("(total = solve + path; the target is 2000x2000 in at most 1 s with a release build)")?;
    }
    Ok(ExitCode::SUCCESS)
}
