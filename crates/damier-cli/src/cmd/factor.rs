//! `damier factor`: factoring N with the local-signal automaton (one run), and the sweep over
//! sizes of random balanced semiprimes beside trial division and Pollard's rho.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Args, Subcommand};
use damier::automaton::{Stop, experiment::Censored};
use damier::factor::run::{self, SweepSample, SweepSummary};
use damier::factor::{self as engine, Automaton, FactorError, Params};

use crate::util::output::outln;
use crate::util::plot::{LineChart, Series};
use crate::util::progress::Progress;
use crate::util::{exit, interrupt, output};

/// Arguments of `damier factor`: either a number to factor or a subcommand.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, allow_negative_numbers = true)]
pub struct FactorArgs {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    one: OneArgs,
}

/// Subcommands of `damier factor`.
#[derive(Debug, Subcommand)]
enum Command {
    /// Steps and time against size on random balanced semiprimes, beside trial division and
    /// Pollard's rho on the same numbers.
    Sweep(SweepArgs),
}

/// The automaton's probabilities, shared by every subcommand.
#[derive(Debug, Args)]
struct ParamArgs {
    /// Flip probability when a border cell's column is the lowest wrong one [range: (0, 1]].
    #[arg(long, default_value_t = engine::DEFAULT_Q)]
    q: f64,
    /// Noise: flip probability when the lowest wrong column cannot fix itself [range: (0, 1]].
    #[arg(long, default_value_t = engine::DEFAULT_EPS)]
    eps: f64,
}

impl ParamArgs {
    fn params(&self) -> anyhow::Result<Params> {
        Params { q: self.q, eps: self.eps }.validated().map_err(|e| anyhow::anyhow!("--{e}"))
    }
}

/// One run on N.
#[derive(Debug, Args)]
struct OneArgs {
    /// The number to factor, 2..=18446744073709551615 (2^64 - 1).
    #[arg(value_name = "N")]
    n: Option<String>,
    /// Generator seed [default: picked from the OS and printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Give up after this many updates (exit 1).
    #[arg(long, default_value_t = engine::DEFAULT_MAX_STEPS)]
    max_steps: u64,
    #[command(flatten)]
    params: ParamArgs,
    /// Print JSON (keys: n, factors, steps, seconds, seed, flips, prime, censored, q, eps).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier factor sweep`.
#[derive(Debug, Args)]
struct SweepArgs {
    /// Sizes in bits: `A..B` (inclusive) or a comma-separated list, each in 6..=64.
    #[arg(long, default_value = "8..24")]
    bits: String,
    /// Semiprimes per size.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    samples: u64,
    /// Seed of the sweep (numbers and runs derive from it) [default: from the OS, printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Step cap per run (censored beyond).
    #[arg(long, default_value_t = engine::DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// Wall-clock budget per size, seconds: runs still going then are censored, and the
    /// sweep stops after the first size where every run is censored by it.
    #[arg(long, value_name = "SECONDS")]
    budget: Option<f64>,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    #[command(flatten)]
    params: ParamArgs,
    /// Also hand the same multiplication grid to the SAT solver varisat (one solve per
    /// number; Ctrl-C waits for a running solve).
    #[arg(long)]
    sat: bool,
    #[command(flatten)]
    out: super::automaton::OutputArgs,
}

/// Arguments of `damier watch factor`.
#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub struct WatchArgs {
    /// The number to factor (its grid must fit the terminal: up to 40 bits).
    #[arg(value_name = "N")]
    n: String,
    /// Seed of the run; the same seed gives the trajectory of `damier factor N --seed`.
    #[arg(long)]
    seed: Option<u64>,
    /// Starting speed, in updates per second (changed live with + and -).
    #[arg(long, default_value_t = 1000)]
    speed: u64,
    #[command(flatten)]
    params: ParamArgs,
}

/// Largest N shown live: 40 bits make a grid 118 characters wide.
const WATCH_MAX_BITS: u32 = 40;

/// `damier watch factor N`.
pub fn watch(a: WatchArgs) -> anyhow::Result<ExitCode> {
    let n = parse_n(&a.n)?;
    let params = a.params.params()?;
    anyhow::ensure!(
        n < 1 << WATCH_MAX_BITS,
        "N = {n} is too large to watch: at most {WATCH_MAX_BITS} bits fit a terminal"
    );
    let seed = a.seed.unwrap_or_else(rand::random::<u64>);
    let au = match Automaton::new(n, &params, seed) {
        Err(FactorError::Prime(_)) => {
            outln!("{n} is prime (deterministic Miller-Rabin): nothing to watch")?;
            return Ok(ExitCode::from(exit::NO));
        }
        r => r.context("nothing to factor")?,
    };
    crate::tui::require_terminal("watch factor")?;
    let mut app = crate::tui::factor::FactorWatch::new(au, a.speed, false);
    crate::tui::run(&mut app, "watch factor")?;
    let au = app.automaton();
    match au.factors() {
        Some((lo, hi)) => outln!("seed {seed}: {n} = {lo} x {hi}, absorbed at step {}", au.steps())?,
        None => outln!("seed {seed}: not factored after {} steps ({} flips)", au.steps(), au.flips())?,
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(a: FactorArgs) -> anyhow::Result<ExitCode> {
    match a.command {
        Some(Command::Sweep(s)) => sweep(s),
        None => run_one(a.one),
    }
}

/// Parses N with a message for each way it can be wrong.
fn parse_n(text: &str) -> anyhow::Result<u64> {
    let t = text.trim();
    if let Ok(n) = t.parse::<u64>() {
        return Ok(n);
    }
    let digits = t.strip_prefix('+').unwrap_or(t);
    if let Some(rest) = t.strip_prefix('-')
        && !rest.is_empty()
        && rest.bytes().all(|b| b.is_ascii_digit())
    {
        anyhow::bail!("N = {t} is negative: give a number in 2..={}", u64::MAX);
    }
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        anyhow::bail!("N = {t} is too large: at most 2^64 - 1 = {} is supported", u64::MAX);
    }
    anyhow::bail!("N = {text:?} is not a whole number (decimal digits expected)")
}

#[derive(serde::Serialize)]
struct OneReport {
    n: u64,
    /// The two factors as decimal strings, smaller first (JSON numbers beyond 2^53 lose
    /// precision in many readers).
    factors: Option<[String; 2]>,
    steps: u64,
    seconds: f64,
    seed: u64,
    flips: u64,
    prime: bool,
    censored: Option<Censored>,
    q: f64,
    eps: f64,
}

fn run_one(a: OneArgs) -> anyhow::Result<ExitCode> {
    let Some(text) = &a.n else {
        anyhow::bail!("give the number to factor: damier factor N (or damier factor sweep)");
    };
    let n = parse_n(text)?;
    let params = a.params.params()?;
    let seed = a.seed.unwrap_or_else(rand::random::<u64>);
    let clock = Instant::now();
    let mut report = OneReport {
        n,
        factors: None,
        steps: 0,
        seconds: 0.0,
        seed,
        flips: 0,
        prime: false,
        censored: None,
        q: params.q,
        eps: params.eps,
    };
    match Automaton::new(n, &params, seed) {
        Err(FactorError::Prime(_)) => report.prime = true,
        Err(e) => return Err(e).context("nothing to factor"),
        Ok(mut au) => {
            if !a.json {
                outln!(
                    "n = {n}: grid of {} x {} cells, q = {} eps = {} seed = {seed}",
                    au.lb(),
                    au.la(),
                    params.q,
                    params.eps
                )?;
            }
            let control = interrupt::control();
            let r = {
                let _bar = Progress::start(control, a.max_steps, "factor");
                au.run(a.max_steps, &Stop::new(control))?
            };
            report.steps = r.steps;
            report.flips = r.flips;
            report.censored = r.censored;
            report.factors = r.factors.map(|(lo, hi)| [lo.to_string(), hi.to_string()]);
        }
    }
    report.seconds = clock.elapsed().as_secs_f64();
    if a.json {
        output::print_json(&report)?;
    } else if report.prime {
        outln!("{n} is prime (deterministic Miller-Rabin): no factorization a x b with 1 < a <= b")?;
    } else if let Some([lo, hi]) = &report.factors {
        outln!("{n} = {lo} x {hi}")?;
        outln!(
            "absorbed at step {} after {} flips, {:.3} s (checked by multiplication)",
            report.steps,
            report.flips,
            report.seconds
        )?;
    } else {
        outln!(
            "no factorization within {} steps ({} flips), {:.3} s",
            report.steps,
            report.flips,
            report.seconds
        )?;
    }
    Ok(if report.factors.is_some() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

/// Parses `A..B` or `A..=B` (inclusive) or a list `A,B,C` of sizes in bits.
fn parse_bits(spec: &str) -> anyhow::Result<Vec<u32>> {
    let range = damier::factor::arith::SEMIPRIME_BITS;
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim) {
        let num = |s: &str| -> anyhow::Result<u32> {
            let v =
                s.trim().parse::<u32>().with_context(|| format!("--bits {spec:?}: {s:?} is not a size"))?;
            anyhow::ensure!(
                range.contains(&v),
                "--bits {spec:?}: {v} is out of range: {range:?} is supported"
            );
            Ok(v)
        };
        match part.split_once("..") {
            Some((lo, hi)) => {
                let (lo, hi) = (num(lo)?, num(hi.trim_start_matches('='))?);
                anyhow::ensure!(lo <= hi, "--bits {spec:?}: empty range {part}");
                out.extend(lo..=hi);
            }
            None => out.push(num(part)?),
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

#[derive(serde::Serialize)]
struct SweepReport {
    seed: u64,
    samples: u64,
    max_steps: u64,
    budget: Option<f64>,
    q: f64,
    eps: f64,
    points: Vec<SweepSummary>,
    /// Least-squares slope of log2(median steps) against bits: doublings per bit.
    steps_doublings_per_bit: Option<f64>,
    /// The same for the mean time of trial division, Pollard's rho and the SAT solver.
    trial_doublings_per_bit: Option<f64>,
    rho_doublings_per_bit: Option<f64>,
    sat_doublings_per_bit: Option<f64>,
    runs: Vec<SweepSample>,
    seconds: f64,
}

fn sweep(a: SweepArgs) -> anyhow::Result<ExitCode> {
    let bits = parse_bits(&a.bits)?;
    let params = a.params.params()?;
    if let Some(b) = a.budget {
        anyhow::ensure!(b.is_finite() && b > 0.0, "--budget {b}: give a positive number of seconds");
    }
    a.out.check()?;
    let seed = a.seed.unwrap_or_else(rand::random::<u64>);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.unwrap_or(0) as usize)
        .build()
        .context("cannot start the thread pool")?;
    let control = interrupt::control();
    let clock = Instant::now();
    let mut runs: Vec<SweepSample> = Vec::new();
    let mut points = Vec::new();
    {
        let _bar = Progress::start(control, a.samples * bits.len() as u64, "sweep");
        for &b in &bits {
            let deadline = a.budget.map(|s| Instant::now() + Duration::from_secs_f64(s));
            let stop = Stop { control, deadline };
            let samples = pool.install(|| {
                run::sweep_point(b, a.samples as usize, seed, &params, a.max_steps, a.sat, &stop)
            })?;
            let summary = run::summarize(b, &samples);
            let all_censored = samples.iter().all(|s| s.run.censored == Some(Censored::Budget));
            if !a.out.json {
                eprintln!("{}", row(&summary));
            }
            points.push(summary);
            runs.extend(samples);
            if all_censored {
                break;
            }
        }
    }
    let fit = |f: &dyn Fn(&SweepSummary) -> Option<f64>| {
        let pts: Vec<(f64, f64)> =
            points.iter().filter_map(|p| f(p).map(|v| (f64::from(p.bits), v))).collect();
        run::fit_log2(&pts).map(|(slope, _)| slope)
    };
    let report = SweepReport {
        seed,
        samples: a.samples,
        max_steps: a.max_steps,
        budget: a.budget,
        q: params.q,
        eps: params.eps,
        steps_doublings_per_bit: fit(&|p| p.median_steps),
        trial_doublings_per_bit: fit(&|p| Some(p.trial_seconds)),
        rho_doublings_per_bit: fit(&|p| Some(p.rho_seconds)),
        sat_doublings_per_bit: fit(&|p| p.sat_seconds),
        points,
        runs,
        seconds: clock.elapsed().as_secs_f64(),
    };
    if let Some(path) = &a.out.csv {
        let mut s =
            String::from("bits,n,p,q,seed,steps,flips,factored,censored,seconds,trial_seconds,rho_seconds\n");
        for r in &report.runs {
            let censored = match r.run.censored {
                Some(Censored::StepCap) => "step-cap",
                Some(Censored::Budget) => "budget",
                None => "",
            };
            s += &format!(
                "{},{},{},{},{},{},{},{},{},{:.6e},{:.6e},{:.6e},{}\n",
                r.bits,
                r.n,
                r.p,
                r.q,
                r.run.seed,
                r.run.steps,
                r.run.flips,
                r.run.factors.is_some(),
                censored,
                r.seconds,
                r.trial_seconds,
                r.rho_seconds,
                r.sat_seconds.map(|v| format!("{v:.6e}")).unwrap_or_default()
            );
        }
        output::write_atomic(path, s.as_bytes())?;
    }
    if let Some(path) = &a.out.plot {
        let pick = |f: &dyn Fn(&SweepSummary) -> Option<f64>| -> Vec<(f64, f64)> {
            report.points.iter().filter_map(|p| f(p).map(|v| (f64::from(p.bits), v))).collect()
        };
        LineChart {
            title: format!("Factoring balanced semiprimes: mean time ({} per size)", a.samples),
            x_label: "bits of N".into(),
            y_label: "seconds".into(),
            log_x: false,
            log_y: true,
            series: vec![
                Series { name: "automaton (factored runs)".into(), points: pick(&|p| p.mean_seconds) },
                Series { name: "trial division".into(), points: pick(&|p| Some(p.trial_seconds)) },
                Series { name: "Pollard's rho (Brent)".into(), points: pick(&|p| Some(p.rho_seconds)) },
                Series { name: "SAT (varisat)".into(), points: pick(&|p| p.sat_seconds) },
            ]
            .into_iter()
            .filter(|s| !s.points.is_empty())
            .collect(),
        }
        .draw(path)?;
    }
    if a.out.json {
        output::print_json(&report)?;
    } else {
        outln!("seed {seed}, {} semiprimes per size, q = {} eps = {}", a.samples, params.q, params.eps)?;
        outln!("{}", HEADER)?;
        for p in &report.points {
            outln!("{}", row(p))?;
        }
        let show =
            |v: Option<f64>| v.map_or("-".to_string(), |s| format!("{s:.2} (x{:.2} per bit)", s.exp2()));
        outln!("growth, doublings per bit: automaton median steps {}", show(report.steps_doublings_per_bit))?;
        outln!("  trial division time {}", show(report.trial_doublings_per_bit))?;
        outln!("  Pollard's rho time {}", show(report.rho_doublings_per_bit))?;
        if a.sat {
            outln!("  SAT solver time {}", show(report.sat_doublings_per_bit))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

const HEADER: &str = "bits  runs  censored      mean steps    median steps   mean s (automaton)   trial division s   \
                      Pollard rho s       SAT s";

fn row(p: &SweepSummary) -> String {
    let f = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.3e}"));
    format!(
        "{:>4}  {:>4}  {:>8}  {:>14}  {:>14}  {:>19}  {:>17.3e}  {:>14.3e}  {:>10}",
        p.bits,
        p.runs,
        p.censored,
        f(p.mean_steps),
        f(p.median_steps),
        f(p.mean_seconds),
        p.trial_seconds,
        p.rho_seconds,
        f(p.sat_seconds)
    )
}
