//! `damier walk bench`: solve and path timed on large boards.

use super::*;

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
        let board = walk::board_size(r, c)?;
        let t0 = Instant::now();
        let sols = walk::solve(board, method, interrupt::control())?;
        let t1 = Instant::now();
        let moves = path::path_for(board, &sols.particular)?;
        let t2 = Instant::now();
        let rep = path::replay(board, &moves);
        let t3 = Instant::now();
        anyhow::ensure!(rep.all_black(), "internal error: {r} x {c} path does not replay to all black");
        let row = BenchRow {
            rows: r,
            cols: c,
            solve_seconds: (t1 - t0).as_secs_f64(),
            path_seconds: (t2 - t1).as_secs_f64(),
            total_seconds: (t2 - t0).as_secs_f64(),
            replay_seconds: (t3 - t2).as_secs_f64(),
            activated: sols.particular.count_ones() as usize,
            path_length: moves.len(),
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
