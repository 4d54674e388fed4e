//! Prints the n-queens counting benchmark table: every n given, on 1 and 2 threads.
//!
//! `cargo run --release -p damier --example queens_bench -- 16 17 18`
//! Options: `--threads 1,2` (pool sizes), `--strategy NAME` (repeatable; default: the one
//! `count` uses).

use std::time::Instant;

use damier::control::Control;
use damier::queens::count::{self, Counts, Strategy};

fn main() {
    let mut ns = Vec::new();
    let mut threads = vec![1usize, 2];
    let mut strategies = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--threads" => {
                let v = args.next().unwrap_or_default();
                threads = v.split(',').filter_map(|t| t.trim().parse().ok()).collect();
            }
            "--strategy" => {
                let v = args.next().unwrap_or_default();
                match Strategy::ALL.iter().find(|s| s.name() == v) {
                    Some(&s) => strategies.push(s),
                    None => {
                        eprintln!("queens_bench: unknown strategy {v:?}");
                        std::process::exit(2);
                    }
                }
            }
            _ => match a.parse::<u32>() {
                Ok(n) if n <= count::MAX_N => ns.push(n),
                _ => {
                    eprintln!("queens_bench: bad n {a:?} (1..={})", count::MAX_N);
                    std::process::exit(2);
                }
            },
        }
    }
    if ns.is_empty() {
        ns = vec![12, 14, 16];
    }
    println!(
        "{:>3} {:>10} {:>7} {:>20} {:>18} {:>10}",
        "n", "strategy", "threads", "total", "unique", "seconds"
    );
    let control = Control::new();
    for &n in &ns {
        let list = if strategies.is_empty() { vec![Strategy::best_for(n)] } else { strategies.clone() };
        for &s in &list {
            for &t in &threads {
                match time_count(n, t, s, &control) {
                    Ok((c, seconds)) => println!(
                        "{:>3} {:>10} {:>7} {:>20} {:>18} {:>10.3}",
                        n,
                        s.name(),
                        t,
                        c.total,
                        c.unique,
                        seconds
                    ),
                    Err(e) => {
                        eprintln!("queens_bench: {e}");
                        std::process::exit(2);
                    }
                }
            }
        }
    }
}

/// Times one [`count::count_with`] call (total, F90 and F180) on a fresh rayon pool of
/// `threads` threads; the pool's start-up is not timed.
fn time_count(
    n: u32,
    threads: usize,
    strategy: Strategy,
    control: &Control,
) -> Result<(Counts, f64), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("cannot start a pool of {threads} threads: {e}"))?;
    pool.install(|| {
        let start = Instant::now();
        let counts = count::count_with(n, strategy, control).map_err(|e| e.to_string())?;
        Ok((counts, start.elapsed().as_secs_f64()))
    })
}
