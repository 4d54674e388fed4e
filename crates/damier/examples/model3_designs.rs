//! Measures the local rules of model 3's design family (docs/automaton.md): for each design
//! and n, runs seeds 1..=k one after another on this thread and prints one CSV line per run
//! with the thread's CPU seconds.
//!
//! `cargo run --release -p damier --example model3_designs -- DESIGN N[,N...] SEEDS MAX_STEPS`

use damier::automaton::row::{RowBoard, Rule, Schedule};
use damier::util::thread_cpu_seconds;

fn design(name: &str) -> Option<Rule> {
    let base = Rule {
        cap: 2,
        wave: true,
        schedule: Schedule::Synchronous,
        hide_walkers: false,
        activity: 0.5,
        south_activity: 0.5,
        plateau: 0.5,
        eps: 0.01,
    };
    Some(match name {
        "gradient" => Rule { wave: false, ..base },
        "binary-wave" => Rule { cap: 1, ..base },
        "count-wave" => base,
        "count-wave-async" => Rule { schedule: Schedule::RandomCell, activity: 1.0, ..base },
        _ => {
            // key=value overrides on count-wave: cap=1,wave=0,act=0.3,plat=0.2,eps=0.01,async=1
            let mut r = base;
            for kv in name.split(',') {
                let (k, v) = kv.split_once('=')?;
                match k {
                    "cap" => r.cap = v.parse().ok()?,
                    "wave" => r.wave = v == "1",
                    "act" => {
                        r.activity = v.parse().ok()?;
                        r.south_activity = r.activity;
                    }
                    "south" => r.south_activity = v.parse().ok()?,
                    "plat" => r.plateau = v.parse().ok()?,
                    "eps" => r.eps = v.parse().ok()?,
                    "hide" => r.hide_walkers = v == "1",
                    "async" => {
                        r.schedule = if v == "1" { Schedule::RandomCell } else { Schedule::Synchronous }
                    }
                    _ => return None,
                }
            }
            r
        }
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() == 5 && args[0] == "cols" {
        // cols DESIGN N SEED FROM: the columns (and walking flags) for 200 generations.
        let rule = design(&args[1]).expect("design");
        let n: usize = args[2].parse().unwrap();
        let mut b = RowBoard::from_seed(rule, n, args[3].parse().unwrap());
        for _ in 0..args[4].parse::<u64>().unwrap() {
            b.step();
        }
        for _ in 0..200 {
            let row: Vec<String> = (0..n)
                .map(|y| {
                    let x = b.columns()[y] as usize;
                    format!("{x}{}", if b.walking(x, y) { "w" } else { " " })
                })
                .collect();
            println!("{} {} conflicts {}", b.steps(), row.join(" "), b.conflicts());
            b.step();
        }
        return;
    }
    if args.len() == 5 && args[0] == "trace" {
        let rule = design(&args[1]).expect("design");
        trace(rule, args[2].parse().unwrap(), 1, args[3].parse().unwrap(), args[4].parse().unwrap());
        return;
    }
    let usage = "usage: model3_designs DESIGN N[,N...] SEEDS MAX_STEPS";
    let [name, ns, seeds, cap] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Some(rule) = design(name) else {
        eprintln!("unknown design {name}");
        std::process::exit(2);
    };
    let seeds: u64 = seeds.parse().expect("SEEDS");
    let cap: u64 = cap.parse().expect("MAX_STEPS");
    println!("design,n,seed,steps,moves,solved,absorbing,cpu_s,moves_after,generations_to_absorbing");
    for n in ns.split(',').map(|s| s.parse::<usize>().expect("N")) {
        for seed in 1..=seeds {
            let t0 = thread_cpu_seconds().unwrap_or(0.0);
            let mut b = RowBoard::from_seed(rule, n, seed);
            let solved = b.run_steps(cap);
            let t = thread_cpu_seconds().unwrap_or(0.0) - t0;
            let (steps, moves, absorbing) = (b.steps(), b.moves(), solved && b.is_absorbing());
            // Then on until the state is absorbing (a solution with true fields, checked every
            // generation, or every n^2 cells), at most 100 n generations: the extra generations
            // and moves, or -1 when it never settled within that.
            let (every, most) = if rule.schedule == Schedule::Synchronous {
                (1, 100 * n as u64)
            } else {
                ((n * n) as u64, 100 * (n as u64).pow(3))
            };
            let mut extra = 0;
            let mut settled = absorbing;
            while solved && !settled && extra < most {
                for _ in 0..every {
                    b.step();
                }
                extra += every;
                settled = b.is_solution() && b.is_absorbing();
            }
            let after = b.moves() - moves;
            let settled = if settled { (extra / every) as i64 } else { -1 };
            let label = name.replace(',', ";");
            println!("{label},{n},{seed},{steps},{moves},{solved},{absorbing},{t:.3},{after},{settled}");
        }
    }
}

fn trace(rule: Rule, n: usize, seed: u64, every: u64, total: u64) {
    let mut b = RowBoard::from_seed(rule, n, seed);
    let mut last = 0;
    for _ in 0..total / every {
        b.run_steps(every);
        let (s, west, _) = b.true_fields();
        let nn = n * n;
        let cols = b.columns().to_vec();
        let mut hot = 0;
        let mut hist = [0u32; 16];
        let mut better = 0;
        for (y, &x) in cols.iter().enumerate() {
            let i = y * n + x as usize;
            let d: u8 = (0..6).map(|k| s[k * nn + i]).sum();
            hist[d as usize] += 1;
            if d > 0 {
                hot += 1;
            }
            let rowmin = (0..n).map(|xx| (0..6).map(|k| s[k * nn + y * n + xx]).sum::<u8>()).min().unwrap();
            if rowmin < d {
                better += 1;
            }
        }
        let _ = west;
        println!(
            "step {} moves {} conflicts {} hot {hot} better {better} hist {:?} absorbing {}",
            b.steps(),
            b.moves() - last,
            b.conflicts(),
            &hist[..8],
            b.is_absorbing()
        );
        last = b.moves();
        if b.is_solution() {
            break;
        }
    }
}
