//! Measures the local rules of model 3's design family (docs/automaton.md): for each design
//! and n, runs seeds 1..=k one after another and prints one CSV line per run with the
//! process's CPU seconds (every thread's: from n = 512 a generation's rows run on all of them
//! unless `RAYON_NUM_THREADS=1`; the thread's alone, as before 2026-11-28, left theirs out).
//!
//! `cargo run --release -p damier --example model3_designs -- DESIGN N[,N...] SEEDS MAX_STEPS`
//! (DESIGN: a rule name of `automaton run --rule`, or `key=value` overrides; SEEDS: k for
//! seeds 1 to k, or a-b), `... -- trace DESIGN N SEED EVERY TOTAL` (a run's
//! statistics every EVERY generations) and `... -- jam DESIGN N SEED GEN` (the queens on a
//! crowded line after GEN generations). ABSORB=0 skips the check of the absorbing state.
//! `... -- table FILE...` sums runs files up (the report's tables) and `... -- crowded
//! GEN[,GEN...] FILE...` reads the crowded lines of traces at given generations; `...
//! crossings FILE...` tabulates board crossings (generations / n) by design and n (a growth
//! runs file's `row` series read as the kept rule).
//! scripts/model3-report.sh runs every measurement of the report with these modes.

use damier::automaton::row::{RowBoard, Rule, RuleName, Schedule, rule_names};
use damier::stats::{self, quantile};
use damier::util::process_cpu_seconds;

/// A design by name (`RuleName`: the kept rule and the designs of docs/automaton.md, uphill
/// probability 0.01), or as `key=value` overrides of the kept rule (`Rule::from_overrides`,
/// e.g. `south=0.001,plat=0.3`).
fn design(name: &str) -> Option<Rule> {
    match name.parse::<RuleName>() {
        Ok(r) => Some(r.rule(0.01)),
        Err(_) => Rule::from_overrides(name, 0.01).ok(),
    }
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
    if args.len() == 6 && args[0] == "trace" {
        // trace DESIGN N SEED EVERY TOTAL: one line of statistics every EVERY generations.
        let rule = design(&args[1]).expect("design");
        let num = |i: usize| args[i].parse::<u64>().expect("a number");
        trace(rule, num(2) as usize, num(3), num(4), num(5));
        return;
    }
    if args.len() == 5 && args[0] == "jam" {
        // jam DESIGN N SEED GEN: after GEN generations, every queen on a crowded line with
        // its counts, waves, true danger, the least true danger of its row and the state bits.
        let rule = design(&args[1]).expect("design");
        let n: usize = args[2].parse().unwrap();
        let mut b = RowBoard::from_seed(rule, n, args[3].parse().unwrap());
        b.run_steps(args[4].parse().unwrap());
        let (s, _, _) = b.true_fields();
        let nn = n * n;
        let cols = b.columns().to_vec();
        let lines = line_counts(&cols);
        let td = |x: usize, y: usize| (0..6).map(|k| s[k * nn + y * n + x]).sum::<u8>();
        for (y, &x) in cols.iter().enumerate() {
            let x = x as usize;
            let l = [lines[x], lines[n + x + n - 1 - y], lines[3 * n + x + y]];
            if l.iter().all(|&c| c < 2) {
                continue;
            }
            let counts: Vec<u8> = (0..6).map(|k| b.count(k, x, y)).collect();
            let mins: Vec<u8> =
                (0..=12).map(|d| (0..n).filter(|&xx| td(xx, y) == d).count().min(99) as u8).collect();
            println!(
                "gen {} row {y} col {x} lines {l:?} counts N,NE,SE,S,SW,NW {counts:?} waves {:?} true {} row cells by true danger 0..: {:?} word {:#x}",
                b.steps(),
                b.waves(x, y),
                td(x, y),
                &mins[..6],
                b.word(x, y) >> 20
            );
        }
        return;
    }
    if args.len() >= 2 && args[0] == "table" {
        // table FILE...: the runs files summed up, a Markdown row per design and n.
        return table(&args[1..]);
    }
    if args.len() >= 2 && args[0] == "crossings" {
        // crossings FILE...: board crossings (generations / n) by design and n, with slopes.
        return crossings(&args[1..]);
    }
    if args.len() >= 3 && args[0] == "crowded" {
        // crowded GEN[,GEN...] FILE...: each trace's crowded lines at those generations.
        return crowded(&args[1], &args[2..]);
    }
    let usage = "usage: model3_designs DESIGN N[,N...] SEEDS MAX_STEPS";
    let [name, ns, seeds, cap] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Some(rule) = design(name) else {
        eprintln!("unknown design {name}: a rule name ({}) or key=value overrides", rule_names());
        std::process::exit(2);
    };
    // SEEDS: k (seeds 1 to k) or a-b (seeds a to b)
    let seeds: std::ops::RangeInclusive<u64> = match seeds.split_once('-') {
        Some((a, b)) => a.parse().expect("SEEDS")..=b.parse().expect("SEEDS"),
        None => 1..=seeds.parse().expect("SEEDS"),
    };
    let cap: u64 = cap.parse().expect("MAX_STEPS");
    println!("design,n,seed,steps,moves,solved,absorbing,cpu_s,moves_after,generations_to_absorbing");
    for n in ns.split(',').map(|s| s.parse::<usize>().expect("N")) {
        for seed in seeds.clone() {
            let t0 = process_cpu_seconds().unwrap_or(0.0);
            let mut b = RowBoard::from_seed(rule, n, seed);
            let solved = b.run_steps(cap);
            let t = process_cpu_seconds().unwrap_or(0.0) - t0;
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
            // ABSORB=0 in the environment skips this (O(n^2) per check: slow from n = 1 000).
            let check = std::env::var("ABSORB").map_or(true, |v| v != "0");
            let mut settled = absorbing || !check;
            while solved && !settled && extra < most {
                for _ in 0..every {
                    b.step();
                }
                extra += every;
                settled = b.is_solution() && b.is_absorbing();
            }
            let after = b.moves() - moves;
            let settled = if settled && check { (extra / every) as i64 } else { -1 };
            let label = name.replace(',', ";");
            println!("{label},{n},{seed},{steps},{moves},{solved},{absorbing},{t:.3},{after},{settled}");
        }
    }
}

/// Queens per line: columns, then diagonals `x - y + n - 1` from `n`, then anti-diagonals
/// `x + y` from `3 n`.
fn line_counts(cols: &[u32]) -> Vec<u32> {
    let n = cols.len();
    let mut lines = vec![0u32; 5 * n];
    for (y, &x) in cols.iter().enumerate() {
        let x = x as usize;
        lines[x] += 1;
        lines[n + x + n - 1 - y] += 1;
        lines[3 * n + x + y] += 1;
    }
    lines
}

/// Every `every` generations: moves in the stretch, crowded lines, queens on a crowded line
/// (true conflicts), walkers, settled queens whose counts show danger (perceived), of them
/// with a conflict north, queens whose true danger is positive, queens whose perceived danger
/// differs from the true one, and the process's CPU seconds so far (every thread: from
/// n = 512 a generation's rows run on all of them).
fn trace(rule: Rule, n: usize, seed: u64, every: u64, total: u64) {
    let mut b = RowBoard::from_seed(rule, n, seed);
    let t0 = process_cpu_seconds().unwrap_or(0.0);
    let mut last = 0;
    println!("gen,moves,crowded,in_conflict,walkers,perceived,perceived_north,true_danger,stale,cpu_s");
    while b.steps() < total {
        b.run_steps(every);
        let (s, _, _) = b.true_fields();
        let nn = n * n;
        let cols = b.columns().to_vec();
        let lines = line_counts(&cols);
        let (mut conflict, mut walkers, mut perceived, mut north, mut truly, mut stale) = (0, 0, 0, 0, 0, 0);
        for (y, &x) in cols.iter().enumerate() {
            let x = x as usize;
            if lines[x] > 1 || lines[n + x + n - 1 - y] > 1 || lines[3 * n + x + y] > 1 {
                conflict += 1;
            }
            let seen: u8 = (0..6).map(|k| b.count(k, x, y)).sum();
            let t: u8 = (0..6).map(|k| s[k * nn + y * n + x]).sum();
            if b.walking(x, y) {
                walkers += 1;
            } else if seen > 0 {
                perceived += 1;
                if [0, 1, 5].iter().any(|&k| b.count(k, x, y) > 0) {
                    north += 1;
                }
            }
            truly += u32::from(t > 0);
            stale += u32::from(t != seen);
        }
        let cpu = process_cpu_seconds().unwrap_or(0.0) - t0;
        println!(
            "{},{},{},{conflict},{walkers},{perceived},{north},{truly},{stale},{cpu:.2}",
            b.steps(),
            b.moves() - last,
            b.conflicts()
        );
        last = b.moves();
        if b.is_solution() {
            break;
        }
    }
}

/// A CSV file as its header and rows, or an error line naming the file.
fn read_csv(path: &str) -> Result<(Vec<String>, Vec<Vec<String>>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut lines = text.lines().filter(|l| !l.is_empty());
    let split = |l: &str| l.split(',').map(str::to_string).collect::<Vec<_>>();
    let head = split(lines.next().ok_or(format!("{path}: empty"))?);
    Ok((head, lines.map(split).collect()))
}

/// Exits with status 2 after an error line.
fn fail(msg: String) -> ! {
    eprintln!("model3_designs: {msg}");
    std::process::exit(2)
}

/// One Markdown row per design and n of the runs files: runs, solved, generations (unsolved
/// runs counted at their cap, so the mean is a lower bound when some are unsolved), moves and
/// CPU seconds, in the order the files list them.
fn table(files: &[String]) {
    /// A run's generations, moves, whether it solved, and CPU seconds.
    struct Run(f64, f64, bool, f64);
    let mut groups: Vec<((String, u64), Vec<Run>)> = Vec::new();
    for path in files {
        let (head, rows) = read_csv(path).unwrap_or_else(|e| fail(e));
        let col = |name: &str| {
            head.iter().position(|h| h == name).unwrap_or_else(|| fail(format!("{path}: no column {name}")))
        };
        let (d, n, st, mv, so, cpu) =
            (col("design"), col("n"), col("steps"), col("moves"), col("solved"), col("cpu_s"));
        for r in rows {
            let num = |i: usize| -> f64 {
                r.get(i)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| fail(format!("{path}: bad row {r:?}")))
            };
            let key = (r[d].replace(';', ","), num(n) as u64);
            let run = Run(num(st), num(mv), r.get(so).is_some_and(|v| v == "true"), num(cpu));
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, runs)) => runs.push(run),
                None => groups.push((key, vec![run])),
            }
        }
    }
    println!("| design | n | solved | generations: mean | median | range | moves: mean | CPU-s per run |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for ((design, n), runs) in groups {
        let mut gens: Vec<f64> = runs.iter().map(|r| r.0).collect();
        gens.sort_by(f64::total_cmp);
        let median = quantile(&gens, 0.5);
        let mean =
            |f: fn(&Run) -> f64| stats::mean(&runs.iter().map(f).collect::<Vec<_>>()).unwrap_or(f64::NAN);
        let solved = runs.iter().filter(|r| r.2).count();
        println!(
            "| {design} | {n} | {solved} of {} | {}{:.0} | {median:.0} | {:.0} – {:.0} | {:.0} | {:.2} |",
            runs.len(),
            if solved < runs.len() { "≥ " } else { "" },
            mean(|r| r.0),
            gens[0],
            gens[gens.len() - 1],
            mean(|r| r.1),
            mean(|r| r.3),
        );
    }
}

/// The size from which [`carried`] asks most runs solved, not one.
const CARRY_FROM: u64 = 512;

/// Fewest runs at a size for [`carried`] to stop a design there: the study's 10 seeds (a
/// size with fewer, a study stopped early, says too little to stop on). scripts/model3-report.sh's
/// `CARRY_MIN_RUNS` is the same number, whatever seeds it is asked to run.
const CARRY_MIN_RUNS: usize = 10;

/// The crossings study's coverage rule (scripts/model3-report.sh's `stalled` applies the same):
/// a design that solved `solved` of its `runs` at n is carried to the next size while it solved
/// at least one below [`CARRY_FROM`] and at least 8 in 10 from it up. Below n = 512 the capped
/// runs say little about large boards (kept patience solved 7 of 10 at n = 256, 10 of 10 at
/// 1 024); from it a doubling costs up to hours of CPU, spent only on designs that solve most
/// of their runs.
fn carried(n: u64, solved: usize, runs: usize) -> bool {
    runs < CARRY_MIN_RUNS || if n < CARRY_FROM { solved > 0 } else { 5 * solved >= 4 * runs }
}

/// One Markdown row per design of the runs files: the mean board crossings (generations / n;
/// cell updates / n^3 on the random-cell schedule) at each n, mean and median, with the runs
/// solved (a capped run counts at its cap, and a figure it makes a lower bound reads "≥"), the
/// slope of ln(median crossings) against ln(n) over the n from 128 where more than half the
/// runs solved (0: flat; negative: falling; the generations then grow like n^(1 + slope)) and
/// the ratio of the last two of those medians. A size a design has no runs at reads "—" below
/// its smallest run, "stopped" above a size where [`carried`] stops it, and "not run" otherwise.
fn crossings(files: &[String]) {
    // Below it the generations are about constant (1e4 to 2e4), so crossings fall like 1/n
    // whatever the rule: the slope reads the sizes where the light cone starts to bind.
    const SLOPE_FROM: u64 = 128;
    // (design, [(n, [(crossings, solved)])]) in the order the files list them.
    type Runs = Vec<(u64, Vec<(f64, bool)>)>;
    let mut designs: Vec<(String, Runs)> = Vec::new();
    let mut seen: Vec<((String, u64, u64), u64)> = Vec::new();
    for path in files {
        let (head, rows) = read_csv(path).unwrap_or_else(|e| fail(e));
        let col = |name: &str| {
            head.iter().position(|h| h == name).unwrap_or_else(|| fail(format!("{path}: no column {name}")))
        };
        // The growth study's runs files name no design: their `row` series is the kept rule.
        let d = head.iter().position(|h| h == "design");
        let series = d.is_none().then(|| col("series"));
        let (n, seed, st, so) = (col("n"), col("seed"), col("steps"), col("solved"));
        for r in rows {
            let num = |i: usize| -> u64 {
                r.get(i)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| fail(format!("{path}: bad row {r:?}")))
            };
            let name = match (d, series) {
                (Some(d), _) => r[d].replace(';', ","),
                (None, Some(c)) if r[c] == "row" => "kept".to_string(),
                _ => continue,
            };
            let rule = design(&name).unwrap_or_else(|| fail(format!("{path}: unknown design {name}")));
            let size = num(n);
            let per_generation = if rule.schedule == Schedule::Synchronous { 1 } else { size * size };
            // A design, n and seed met twice (in two files) is one seeded trajectory: counted
            // once, and its generations must agree.
            let key = (name.clone(), size, num(seed));
            match seen.iter().find(|(k, _)| *k == key) {
                Some((_, steps)) if *steps == num(st) => continue,
                Some((_, steps)) => {
                    fail(format!("{path}: {key:?} took {} generations, elsewhere {steps}", num(st)))
                }
                None => seen.push((key, num(st))),
            }
            let run =
                (num(st) as f64 / (per_generation * size) as f64, r.get(so).is_some_and(|v| v == "true"));
            let i = designs.iter().position(|(k, _)| *k == name).unwrap_or_else(|| {
                designs.push((name, Vec::new()));
                designs.len() - 1
            });
            let by_n = &mut designs[i].1;
            match by_n.iter_mut().find(|(m, _)| *m == size) {
                Some((_, runs)) => runs.push(run),
                None => by_n.push((size, vec![run])),
            }
        }
    }
    let mut sizes: Vec<u64> = designs.iter().flat_map(|(_, r)| r.iter().map(|(n, _)| *n)).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let heads: Vec<String> = sizes.iter().map(|n| format!("n = {n}")).collect();
    println!("| design | {} | slope of the median from n = {SLOPE_FROM} | last step |", heads.join(" | "));
    println!("|{}", " --- |".repeat(sizes.len() + 3));
    for (name, by_n) in designs {
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        let smallest = by_n.iter().map(|(m, _)| *m).min().unwrap_or(0);
        // The smallest size at which the coverage rule stops the design, if any.
        let stop = by_n
            .iter()
            .filter(|(m, runs)| !carried(*m, runs.iter().filter(|r| r.1).count(), runs.len()))
            .map(|(m, _)| *m)
            .min();
        let cells: Vec<String> = sizes
            .iter()
            .map(|size| {
                let Some((_, runs)) = by_n.iter().find(|(m, _)| m == size) else {
                    return match stop {
                        _ if *size < smallest => "—",
                        Some(m) if m < *size => "stopped",
                        _ => "not run",
                    }
                    .to_string();
                };
                let mean = runs.iter().map(|r| r.0).sum::<f64>() / runs.len() as f64;
                let solved = runs.iter().filter(|r| r.1).count();
                let mut sorted: Vec<f64> = runs.iter().map(|r| r.0).collect();
                sorted.sort_by(f64::total_cmp);
                let median = quantile(&sorted, 0.5);
                // A capped run lies at or above every solved one: the median is exact when
                // more than half the runs solved.
                let exact = 2 * solved > runs.len();
                if exact && *size >= SLOPE_FROM {
                    xs.push((*size as f64).ln());
                    ys.push(median.ln());
                }
                let at_least = |b: bool| if b { "" } else { "≥ " };
                format!(
                    "{}{mean:.0}, {}{median:.0} ({solved} of {})",
                    at_least(solved == runs.len()),
                    at_least(exact),
                    runs.len()
                )
            })
            .collect();
        let slope =
            if xs.len() >= 2 { format!("{:+.2}", stats::least_squares(&xs, &ys).0) } else { "—".into() };
        // The last doubling (or step) of n among those: the ratio of its median crossings.
        let k = ys.len();
        let last = if k >= 2 { format!("×{:.2}", (ys[k - 1] - ys[k - 2]).exp()) } else { "—".into() };
        println!("| {name} | {} | {slope} | {last} |", cells.join(" | "));
    }
}

/// One Markdown row per generation asked for: each trace's crowded lines at the last line
/// recorded at or before it (its generation in brackets when it differs), "solved at G" after
/// a trace's last line when that line has none, "stopped at G" otherwise.
fn crowded(gens: &str, files: &[String]) {
    let gens: Vec<u64> =
        gens.split(',').map(|g| g.parse().unwrap_or_else(|_| fail(format!("bad generation {g}")))).collect();
    let traces: Vec<Vec<(u64, u64)>> = files
        .iter()
        .map(|path| {
            let (head, rows) = read_csv(path).unwrap_or_else(|e| fail(e));
            let at = |name: &str| head.iter().position(|h| h == name);
            let (Some(g), Some(c)) = (at("gen"), at("crowded")) else {
                fail(format!("{path}: no gen or crowded column"))
            };
            rows.iter()
                .map(|r| {
                    let num = |i: usize| r.get(i).and_then(|v| v.parse().ok());
                    num(g).zip(num(c)).unwrap_or_else(|| fail(format!("{path}: bad row {r:?}")))
                })
                .collect()
        })
        .collect();
    let names: Vec<&str> = files.iter().map(|f| f.rsplit('/').next().unwrap_or(f)).collect();
    println!("| generation | {} |", names.join(" | "));
    println!("|{}", " --- |".repeat(names.len() + 1));
    for g in gens {
        let cells: Vec<String> = traces
            .iter()
            .map(|t| {
                let last = t.last().copied();
                match t.iter().rev().find(|&&(x, _)| x <= g) {
                    _ if last.is_some_and(|(x, c)| x < g && c == 0) => {
                        format!("solved at {}", last.unwrap().0)
                    }
                    _ if last.is_some_and(|(x, _)| x < g) => format!("stopped at {}", last.unwrap().0),
                    Some(&(x, c)) if x == g => c.to_string(),
                    Some(&(x, c)) => format!("{c} ({x})"),
                    None => "—".to_string(),
                }
            })
            .collect();
        println!("| {g} | {} |", cells.join(" | "));
    }
}
