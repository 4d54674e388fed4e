//! Prints the n-queens counting benchmark table: every n given, on 1 and 2 threads.
//!
//! `cargo run --release -p damier --example queens_bench -- 16 17 18`
//! Options: `--threads 1,2` (pool sizes), `--strategy NAME` (repeatable; default: the one
//! `count` uses).

use damier::control::Control;
use damier::queens::count::{self, Strategy};

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
                match count::bench_row(n, t, s, &control) {
                    Ok(r) => println!(
                        "{:>3} {:>10} {:>7} {:>20} {:>18} {:>10.3}",
                        r.n, r.strategy, r.threads, r.counts.total, r.counts.unique, r.seconds
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
