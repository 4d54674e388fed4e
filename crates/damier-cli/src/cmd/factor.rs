//! `damier factor`: factoring N with the local-signal automaton (one run), and the sweep over
//! sizes of random balanced semiprimes beside trial division and Pollard's rho.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Args, Subcommand};
use damier::control::{Censored, Stop};
use damier::factor::run::{CapWarning, Factoring};
use damier::factor::sweep::{self, SweepPlan, SweepSample};
use damier::factor::{self as engine, FactorAutomaton, FactorError, FactorParams, FactorRun};

use crate::report::factor::{Replot, row};
use crate::util::csv_file::{self, Invalid, format};
use crate::util::output::{Report, errln, outln};
use crate::util::plot::{Axis, Chart, Curve, Interval, Point, Scale};
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
    fn params(&self) -> anyhow::Result<FactorParams> {
        FactorParams { q: self.q, eps: self.eps }.validated().map_err(|e| anyhow::anyhow!("--{e}"))
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
    /// Run nothing: redraw the figure (--plot) from the runs of a CSV written by --csv.
    #[arg(long, value_name = "CSV", requires = "plot", conflicts_with_all = ["csv", "sat", "budget", "seed"])]
    replot: Option<std::path::PathBuf>,
    #[command(flatten)]
    out: crate::util::OutputArgs,
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
    let seed = crate::util::pick_seed(a.seed);
    let au = match FactorAutomaton::new(n, &params, seed) {
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

fn run_one(a: OneArgs) -> anyhow::Result<ExitCode> {
    let Some(text) = &a.n else {
        anyhow::bail!("give the number to factor: damier factor N (or damier factor sweep)");
    };
    let n = parse_n(text)?;
    let params = a.params.params()?;
    let seed = crate::util::pick_seed(a.seed);
    let clock = Instant::now();
    let report = match FactorAutomaton::new(n, &params, seed) {
        Err(FactorError::Prime(_)) => Factoring::prime(n, &params, seed, clock.elapsed().as_secs_f64()),
        Err(e) => return Err(e).context("nothing to factor"),
        Ok(mut au) => {
            if let Some(warning) = CapWarning::of(n, a.max_steps) {
                errln!("damier: warning: {warning}");
            }
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
                au.run_until(a.max_steps, &Stop::new(control))?
            };
            Factoring::of_run(&r, &params, clock.elapsed().as_secs_f64())
        }
    };
    report.print(a.json)?;
    Ok(if report.factors.is_some() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

fn sweep(a: SweepArgs) -> anyhow::Result<ExitCode> {
    a.out.check()?;
    if let Some(csv) = &a.replot {
        return replot(csv, a.out.plot.as_deref().expect("clap requires --plot"), a.out.json);
    }
    let bits =
        crate::util::parse_sizes(&a.bits, "--bits", "size in bits", damier::factor::arith::SEMIPRIME_BITS)?;
    let params = a.params.params()?;
    if let Some(b) = a.budget {
        anyhow::ensure!(b.is_finite() && b > 0.0, "--budget {b}: give a positive number of seconds");
    }
    let seed = crate::util::pick_seed(a.seed);
    let pool = crate::util::pool(a.threads)?;
    let control = interrupt::control();
    let plan = SweepPlan {
        samples: a.samples,
        seed,
        params,
        max_steps: a.max_steps,
        with_sat: a.sat,
        budget: a.budget.map(Duration::from_secs_f64),
        bits,
    };
    let report = {
        let _bar = Progress::start(control, a.samples * plan.bits.len() as u64, "sweep");
        pool.install(|| {
            sweep::sweep(&plan, control, |summary| {
                // The rows as they come, on a terminal only: a log gets the table once, on stdout.
                if !a.out.json && std::io::stderr().is_terminal() {
                    errln!("{}", row(summary));
                }
            })
        })?
    };
    if let Some(path) = &a.out.csv {
        output::write_bytes(path, output::Durability::Synced, &sweep_csv(&report.runs)?)?;
    }
    if let Some(path) = &a.out.plot {
        let detail = format!(
            "{} semiprimes per size, seed {seed}, q = {}, ε = {}, each run capped at {} steps",
            a.samples,
            params.q,
            params.eps,
            crate::util::plot::number(a.max_steps as f64)
        );
        sweep_chart(&report.runs, detail).draw(path)?;
    }
    report.print(a.out.json)?;
    Ok(ExitCode::SUCCESS)
}

/// The columns of the sweep's CSV, in order (`sat_seconds` is empty when the SAT solver did
/// not run; files from before that column existed have only the first twelve).
const CSV_COLUMNS: [&str; 13] = [
    "bits",
    "n",
    "p",
    "q",
    "seed",
    "steps",
    "flips",
    "factored",
    "censored",
    "seconds",
    "trial_seconds",
    "rho_seconds",
    "sat_seconds",
];

/// One line of the sweep's CSV: one semiprime (see [`CSV_COLUMNS`]).
#[derive(serde::Serialize, serde::Deserialize)]
struct SweepRow {
    bits: u32,
    n: u64,
    p: u64,
    q: u64,
    seed: u64,
    steps: u64,
    flips: u64,
    factored: bool,
    /// `step-cap`, `budget` or empty.
    censored: String,
    #[serde(serialize_with = "format::sci6")]
    seconds: f64,
    #[serde(serialize_with = "format::sci6")]
    trial_seconds: f64,
    #[serde(serialize_with = "format::sci6")]
    rho_seconds: f64,
    #[serde(default, serialize_with = "format::sci6_opt")]
    sat_seconds: Option<f64>,
}

impl From<&SweepSample> for SweepRow {
    fn from(r: &SweepSample) -> SweepRow {
        SweepRow {
            bits: r.bits,
            n: r.n,
            p: r.p,
            q: r.q,
            seed: r.run.seed,
            steps: r.run.steps,
            flips: r.run.flips,
            factored: r.run.factors.is_some(),
            censored: censored_name(r.run.censored).into(),
            seconds: r.seconds,
            trial_seconds: r.trial_seconds,
            rho_seconds: r.rho_seconds,
            sat_seconds: r.sat_seconds,
        }
    }
}

impl TryFrom<SweepRow> for SweepSample {
    type Error = Invalid;

    /// Checks what a line claims: a size in bits, `p q = n`, factored or censored.
    fn try_from(r: SweepRow) -> Result<SweepSample, Invalid> {
        if !(1..=64).contains(&r.bits) {
            return Err(Invalid::column("bits", format!("{} is not a size in bits (1..=64)", r.bits)));
        }
        let (n, p, q) = (r.n, r.p, r.q);
        if p.checked_mul(q) != Some(n) || p > q {
            return Err(Invalid::line(format!(
                "p = {p} and q = {q} are not the factors of n = {n} (p <= q)"
            )));
        }
        let censored = match r.censored.as_str() {
            "" => None,
            "step-cap" => Some(Censored::StepCap),
            "budget" => Some(Censored::Budget),
            v => return Err(Invalid::column("censored", format!("{v:?} is not step-cap, budget or empty"))),
        };
        if r.factored != censored.is_none() {
            return Err(Invalid::line(format!(
                "a run is either factored or censored (factored {}, censored {:?})",
                r.factored, r.censored
            )));
        }
        let run = FactorRun {
            n,
            seed: r.seed,
            steps: r.steps,
            flips: r.flips,
            factors: r.factored.then_some((p, q)),
            censored,
        };
        Ok(SweepSample {
            bits: r.bits,
            n,
            p,
            q,
            run,
            seconds: csv_file::seconds("seconds", r.seconds)?,
            trial_seconds: csv_file::seconds("trial_seconds", r.trial_seconds)?,
            rho_seconds: csv_file::seconds("rho_seconds", r.rho_seconds)?,
            sat_seconds: r.sat_seconds.map(|v| csv_file::seconds("sat_seconds", v)).transpose()?,
        })
    }
}

fn censored_name(c: Option<Censored>) -> &'static str {
    match c {
        Some(Censored::StepCap) => "step-cap",
        Some(Censored::Budget) => "budget",
        None => "",
    }
}

/// The runs as CSV, one line per semiprime.
fn sweep_csv(runs: &[SweepSample]) -> anyhow::Result<Vec<u8>> {
    csv_file::to_bytes(&runs.iter().map(SweepRow::from).collect::<Vec<_>>())
}

/// Reads back the runs of a CSV written by `--csv`, checking every field: errors name the
/// line and the column.
fn read_sweep_csv(bytes: &[u8]) -> anyhow::Result<Vec<SweepSample>> {
    let runs = csv_file::parse(
        bytes,
        "a factor sweep CSV header",
        &[&CSV_COLUMNS[..12], &CSV_COLUMNS],
        |r: SweepRow| SweepSample::try_from(r),
    )?;
    anyhow::ensure!(!runs.is_empty(), "no runs after the header");
    Ok(runs)
}

/// `damier factor sweep --replot CSV --plot FIGURE`: the figure from the runs of an earlier
/// sweep, nothing run.
fn replot(csv: &Path, figure: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let bytes = csv_file::read_bytes(csv)?;
    let runs = read_sweep_csv(&bytes).with_context(|| format!("{}", csv.display()))?;
    let name =
        csv.file_name().map_or_else(|| csv.display().to_string(), |f| f.to_string_lossy().into_owned());
    sweep_chart(&runs, format!("{}, redrawn from {name}", per_size(&runs))).draw(figure)?;
    let points = sweep::summaries(&runs);
    Replot { csv: csv.to_path_buf(), plot: figure.to_path_buf(), runs: runs.len(), points }.print(json)?;
    Ok(ExitCode::SUCCESS)
}

/// "20 semiprimes per size" (or the range when the sizes differ).
fn per_size(runs: &[SweepSample]) -> String {
    let (lo, hi) = sweep::runs_per_size(runs);
    if lo == hi { format!("{lo} semiprimes per size") } else { format!("{lo} to {hi} semiprimes per size") }
}

/// The sweep's figure: mean seconds against bits for the automaton (factored runs, with the
/// 95% interval of the mean; marked censored where some runs were not factored) and for each
/// baseline, on a log scale.
fn sweep_chart(runs: &[SweepSample], detail: String) -> Chart {
    let automaton = sweep::automaton_times(runs)
        .into_iter()
        .map(|t| Point {
            x: f64::from(t.bits),
            y: t.mean,
            // Kept above the fastest run so that it can be drawn on a log scale.
            interval: t.ci95.map(|(lo, hi)| (lo.max(t.fastest), hi)),
            censored: t.censored,
        })
        .collect();
    let baseline = |f: &dyn Fn(&SweepSample) -> Option<f64>| -> Vec<Point> {
        sweep::baseline_times(runs, f).into_iter().map(|(b, m)| Point::new(f64::from(b), m)).collect()
    };
    let curve = |name: &str, points: Vec<Point>, interval: Interval| Curve {
        name: name.into(),
        points,
        interval,
        line: true,
    };
    let curves = vec![
        curve(
            "automaton: mean over the factored runs",
            automaton,
            Interval::Bars("automaton: 95% confidence interval of the mean".into()),
        ),
        curve("trial division", baseline(&|s| Some(s.trial_seconds)), Interval::None),
        curve("Pollard's rho (Brent)", baseline(&|s| Some(s.rho_seconds)), Interval::None),
        curve("SAT solver (varisat)", baseline(&|s| s.sat_seconds), Interval::None),
    ];
    let bits: Vec<u32> = sweep::by_bits(runs).into_keys().collect();
    let range = match (bits.first(), bits.last()) {
        (Some(lo), Some(hi)) if lo != hi => format!("{lo} to {hi} bits"),
        (Some(b), _) => format!("{b} bits"),
        _ => String::new(),
    };
    let curves: Vec<Curve> = curves.into_iter().filter(|c| !c.points.is_empty()).collect();
    Chart {
        // Short enough for the chart's width; the legend names the methods.
        title: format!("Factoring random balanced semiprimes of {range}: time per number"),
        subtitle: vec![detail, censoring(runs)],
        x: Axis { label: "size of N (bits)".into(), scale: Scale::Integer },
        y: Axis { label: "mean wall time per number (seconds)".into(), scale: Scale::Log },
        curves,
        censored_note: "censored: some runs stopped unfactored, so the mean is a lower bound".into(),
    }
}

/// What stopped the unfactored runs: "every run factored", or the counts by cause.
fn censoring(runs: &[SweepSample]) -> String {
    let c = sweep::censoring(runs);
    if c.step_cap + c.budget == 0 {
        return "every run factored".into();
    }
    let mut causes = Vec::new();
    if c.step_cap > 0 {
        let steps = crate::util::plot::number(c.step_cap_steps as f64);
        causes.push(format!("{} at the step cap ({steps} steps)", c.step_cap));
    }
    if c.budget > 0 {
        causes.push(format!("{} at the time budget per size", c.budget));
    }
    format!("{} of {} runs stopped unfactored: {}", c.step_cap + c.budget, c.runs, causes.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(bits: u32, n: u64, p: u64, q: u64, factored: bool, sat: Option<f64>) -> SweepSample {
        SweepSample {
            bits,
            n,
            p,
            q,
            run: FactorRun {
                n,
                seed: 7,
                steps: 1234,
                flips: 56,
                factors: factored.then_some((p, q)),
                censored: (!factored).then_some(Censored::StepCap),
            },
            seconds: 0.25,
            trial_seconds: 1.5e-6,
            rho_seconds: 2.5e-7,
            sat_seconds: sat,
        }
    }

    #[test]
    fn the_csv_reads_back_what_it_wrote() {
        let runs = vec![
            sample(8, 143, 11, 13, true, None),
            sample(8, 169, 13, 13, false, None),
            sample(9, 323, 17, 19, true, Some(0.125)),
        ];
        let back = read_sweep_csv(&sweep_csv(&runs).unwrap()).unwrap();
        assert_eq!(back, runs);
        // A file from before the sat_seconds column.
        let old = "bits,n,p,q,seed,steps,flips,factored,censored,seconds,trial_seconds,rho_seconds\n\
                   8,143,11,13,7,1234,56,true,,2.5e-1,1.5e-6,2.5e-7\n";
        assert_eq!(read_sweep_csv(old.as_bytes()).unwrap(), vec![runs[0].clone()]);
    }

    #[test]
    fn a_bad_csv_is_refused_with_its_line_and_column() {
        let header = CSV_COLUMNS.join(",");
        let good = "8,143,11,13,7,1234,56,true,,2.5e-1,1.5e-6,2.5e-7,";
        let err = |text: &str| format!("{:#}", read_sweep_csv(text.as_bytes()).unwrap_err());
        assert!(err("").contains("empty file"));
        assert!(err("a,b,c\n").contains("line 1: not a factor sweep CSV header"));
        assert!(err(&format!("{header}\n")).contains("no runs"));
        assert!(err(&format!("{header}\n{good}\n8,143\n")).contains("line 3: 2 fields, the header has 13"));
        let bad = |from: &str, to: &str| err(&format!("{header}\n{}\n", good.replacen(from, to, 1)));
        assert!(bad("1234", "12x4").contains("line 2, column steps: not a whole number"));
        assert!(bad("2.5e-1", "-1").contains("line 2, column seconds: not a number of seconds"));
        assert!(bad("2.5e-1", "NaN").contains("column seconds"));
        assert!(bad("8,143,11", "8,144,11").contains("are not the factors of n = 144"));
        assert!(bad("true", "yes").contains("column factored"));
        assert!(bad("true,", "true,budget").contains("either factored or censored"));
        assert!(bad("true,", "false,later").contains("column censored"));
        assert!(bad("8,", "99,").contains("column bits"));
    }

    #[test]
    fn the_chart_marks_censored_sizes_and_skips_empty_curves() {
        let runs = vec![
            sample(8, 143, 11, 13, true, None),
            sample(8, 169, 13, 13, false, None),
            sample(9, 323, 17, 19, true, None),
            sample(9, 323, 17, 19, true, None),
        ];
        let chart = sweep_chart(&runs, String::new());
        let names: Vec<&str> = chart.curves.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["automaton: mean over the factored runs", "trial division", "Pollard's rho (Brent)"]
        );
        let automaton = &chart.curves[0].points;
        assert_eq!(automaton.iter().map(|p| p.censored).collect::<Vec<_>>(), [true, false]);
        assert_eq!(automaton[1].interval, Some((0.25, 0.25)), "two equal times: a zero-width interval");
        assert!(chart.title.contains("8 to 9 bits"), "{}", chart.title);
    }
}
