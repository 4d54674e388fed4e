//! `damier automaton`: the queens cellular automaton: single runs with traces, the
//! ε sweep (fig. 5), the scale over n (figs. 6 and 8), the trap positions (figs. 1 and 7) and
//! a throughput benchmark.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use damier::automaton::experiment::{self, Censored, ScalePoint, Summary, SweepPoint};
use damier::automaton::{self as engine, Automaton, Model, Params, StartSignals, Stop, text, trap};

use crate::util::output::{out, outln};
use crate::util::plot::{Axis, Chart, Curve, Interval, Point, Scale};
use crate::util::progress::Progress;
use crate::util::{exit, interrupt, output};

mod growth;
mod long_run;

/// Subcommands of `damier automaton`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// One run to the first solution (or the step cap).
    Run(RunArgs),
    /// Fig. 5: steps and moves to a solution against ε.
    Sweep(SweepArgs),
    /// Figs. 6 and 8: steps to a solution against n, for each model, beside 1/d.
    Scale(ScaleArgs),
    /// Figs. 1 and 7: find a trap position by search and show its behaviour.
    Trap(TrapArgs),
    /// Updates per second of both models, one thread and all threads.
    Bench(BenchArgs),
    /// Mean cost against n (both models, min-conflicts) with the fitted growth per n.
    Growth(growth::GrowthArgs),
}

/// The update rule, as named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModelArg {
    /// Model 1: adjacent-pair updates (ε).
    Pair,
    /// Model 2: cell updates (ε, η).
    Cell,
}

impl From<ModelArg> for Model {
    fn from(m: ModelArg) -> Model {
        match m {
            ModelArg::Pair => Model::Pair,
            ModelArg::Cell => Model::Cell,
        }
    }
}

/// Largest n for which `scale` computes 1/d (the exact count Q(n) takes minutes at 17).
const DENSITY_MAX_N: usize = 17;

/// Default step cap of a run: 10^10 updates (minutes at the engine's speed).
const DEFAULT_MAX_STEPS: u64 = 10_000_000_000;

/// Arguments of `damier automaton run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Update rule.
    #[arg(long, value_enum, default_value = "pair")]
    model: ModelArg,
    /// Board side (1..=2048); optional with --from (taken from the file).
    #[arg(short = 'n', long = "n")]
    n: Option<usize>,
    /// Probability of accepting a move to a dangerous cell [range: 0..=1].
    #[arg(long, default_value_t = engine::DEFAULT_EPS)]
    eps: f64,
    /// Model 2: probability of a uniform destination [range: 0..=1].
    #[arg(long, default_value_t = engine::DEFAULT_ETA)]
    eta: f64,
    /// Generator seed [default: picked from the OS and printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Give up after this many updates.
    #[arg(long, default_value_t = DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// Start from this position: n lines of n cells, a digit = queens on the cell, `.` = none;
    /// blank lines and lines starting with `#` are skipped. Signals start empty.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Print the board with its signals every K updates (on stderr with --json).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    trace: Option<u64>,
    /// Save the whole state (board, signals, generator) to FILE every --checkpoint-every
    /// seconds, on Ctrl-C and at the end; if FILE exists, resume from it (model, n, ε, η and
    /// seed then come from the file; --max-steps counts all steps).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["trace", "from"])]
    checkpoint: Option<PathBuf>,
    /// Seconds between two checkpoints.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, requires = "checkpoint",
          value_parser = clap::value_parser!(u64).range(1..))]
    checkpoint_every: u64,
    /// Print JSON (keys: model, n, eps, eta, seed, steps, moves, solved, absorbing, placement,
    /// censored, seconds).
    #[arg(long)]
    json: bool,
}

/// Options shared by the experiments (`sweep`, `scale`): reproducibility and resources.
#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// Seed of the experiment (sample i uses a stream derived from it) [default: from the OS].
    #[arg(long)]
    seed: Option<u64>,
    /// Step cap per run (censored beyond).
    #[arg(long, default_value_t = DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
}

/// Output options shared by the experiments: a CSV table, a figure, JSON on stdout.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Write the table as CSV.
    #[arg(long, value_name = "F")]
    pub(crate) csv: Option<PathBuf>,
    /// Draw the figure (.svg or .png).
    #[arg(long, value_name = "F")]
    pub(crate) plot: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

impl OutputArgs {
    /// Refuses, before any run, a figure format we cannot draw and a file in a missing folder.
    pub(crate) fn check(&self) -> anyhow::Result<()> {
        if let Some(p) = &self.plot {
            crate::util::plot::format_of(p)?;
        }
        for p in self.csv.iter().chain(&self.plot) {
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                anyhow::ensure!(dir.is_dir(), "cannot write {}: no directory {}", p.display(), dir.display());
            }
        }
        Ok(())
    }
}

/// Arguments of `damier automaton sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Update rule.
    #[arg(long, value_enum, default_value = "pair")]
    model: ModelArg,
    /// Board side.
    #[arg(short = 'n', long = "n", default_value_t = 8)]
    n: usize,
    /// The ε values, comma separated.
    #[arg(long, value_delimiter = ',', default_value = "0.001,0.003,0.01,0.03,0.1,0.3")]
    eps: Vec<f64>,
    /// Model 2: η [range: 0..=1].
    #[arg(long, default_value_t = engine::DEFAULT_ETA)]
    eta: f64,
    /// Runs per ε.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    samples: u64,
    #[command(flatten)]
    exp: ExperimentArgs,
    #[command(flatten)]
    out: OutputArgs,
}

/// Arguments of `damier automaton scale`.
#[derive(Debug, Args)]
pub struct ScaleArgs {
    /// Models, comma separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "pair,cell")]
    model: Vec<ModelArg>,
    /// Board sides: `A..B` (inclusive) or a comma list, or both (`4..8,10`).
    #[arg(short = 'n', long = "n", default_value = "4..12")]
    n: String,
    /// ε [range: 0..=1].
    #[arg(long, default_value_t = engine::DEFAULT_EPS)]
    eps: f64,
    /// Model 2: η [range: 0..=1].
    #[arg(long, default_value_t = engine::DEFAULT_ETA)]
    eta: f64,
    /// Runs per (model, n).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    samples: u64,
    /// Wall-clock budget per (model, n) point, seconds; runs still going are censored.
    #[arg(long, value_name = "SECONDS")]
    budget: Option<f64>,
    #[command(flatten)]
    exp: ExperimentArgs,
    /// Skip 1/d (it needs the exact solution count of every n, slow for large n; never
    /// computed beyond n = 17).
    #[arg(long)]
    no_density: bool,
    #[command(flatten)]
    out: OutputArgs,
}

/// Arguments of `damier automaton trap`.
#[derive(Debug, Args)]
pub struct TrapArgs {
    /// Which figure of the seed: 1 (model 1, every move blocked) or 7 (model 2, η = 0 loop).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=7))]
    figure: u8,
    /// Seed of the search (fig. 1) and of the demonstration runs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Demonstration runs per setting.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    samples: u64,
    /// Step cap of the demonstration runs.
    #[arg(long, default_value_t = 10_000_000)]
    max_steps: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier automaton bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Board sides, comma separated.
    #[arg(short = 'n', long = "n", value_delimiter = ',', default_value = "8,12,16")]
    n: Vec<usize>,
    /// Seconds per measurement (about).
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Run(a) => run_one(a),
        Command::Sweep(a) => sweep(a),
        Command::Scale(a) => scale(a),
        Command::Trap(a) => trap_cmd(a),
        Command::Bench(a) => bench(a),
        Command::Growth(a) => growth::run(a),
    }
}

fn pick_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(rand::random::<u64>)
}

fn pool(threads: Option<u32>) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0) as usize)
        .build()
        .context("cannot start the thread pool")
}

fn check_probability(name: &str, v: f64) -> anyhow::Result<()> {
    anyhow::ensure!((0.0..=1.0).contains(&v), "--{name} {v} is not a probability in [0, 1]");
    Ok(())
}

fn check_n(n: usize) -> anyhow::Result<()> {
    anyhow::ensure!(
        (1..=engine::MAX_N).contains(&n),
        "n = {n} is out of range: 1..={} is supported (the board must fit in memory)",
        engine::MAX_N
    );
    Ok(())
}

#[derive(serde::Serialize)]
struct RunReport {
    model: Model,
    n: usize,
    eps: f64,
    eta: f64,
    seed: u64,
    steps: u64,
    moves: u64,
    solved: bool,
    absorbing: bool,
    /// 1-based columns per row, when solved.
    placement: Option<Vec<usize>>,
    censored: Option<Censored>,
    seconds: f64,
}

fn run_one(a: RunArgs) -> anyhow::Result<ExitCode> {
    check_probability("eps", a.eps)?;
    check_probability("eta", a.eta)?;
    let resumed = match &a.checkpoint {
        Some(path) => long_run::load(path)?,
        None => None,
    };
    if let Some(r) = &resumed {
        anyhow::ensure!(
            a.n.is_none_or(|n| n == r.n()) && a.seed.is_none_or(|s| s == r.seed()),
            "{} holds a run with n = {} and seed {}: drop -n/--seed or use another file",
            a.checkpoint.as_ref().expect("resumed from a file").display(),
            r.n(),
            r.seed()
        );
    }
    let seed = resumed.as_ref().map_or_else(|| pick_seed(a.seed), Automaton::seed);
    let start_pos = match &a.from {
        Some(path) => {
            let body =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            let (n, counts) = text::parse_position(&body).with_context(|| format!("{}", path.display()))?;
            if let Some(given) = a.n {
                anyhow::ensure!(
                    given == n,
                    "{}: the position is {n} x {n} but -n {given} was given",
                    path.display()
                );
            }
            Some((n, counts))
        }
        None => None,
    };
    let n = match (&start_pos, a.n) {
        _ if resumed.is_some() => resumed.as_ref().map_or(0, Automaton::n),
        (Some((n, _)), _) => *n,
        (None, Some(n)) => n,
        (None, None) => anyhow::bail!("give the board side with -n N (or a position with --from FILE)"),
    };
    check_n(n)?;
    let params = match &resumed {
        Some(r) => *r.params(),
        None => Params { model: a.model.into(), n, eps: a.eps, eta: a.eta }.validated()?,
    };
    let mut aut = match (resumed, &start_pos) {
        (Some(r), _) => {
            if !a.json {
                eprintln!("resuming at step {} ({} moves)", r.steps(), r.moves());
            }
            r
        }
        (None, Some((_, counts))) => Automaton::from_position(&params, counts, StartSignals::None, seed)
            .with_context(|| format!("{}", a.from.as_ref().expect("from").display()))?,
        (None, None) => Automaton::from_seed(&params, seed)?,
    };
    if !a.json {
        outln!("model {} n = {n} eps = {} eta = {} seed = {seed}", params.model, params.eps, params.eta)?;
    }
    let control = interrupt::control();
    let stop = Stop::new(control);
    let clock = Instant::now();
    let result = match a.trace {
        None => {
            let every = Duration::from_secs(a.checkpoint_every);
            long_run::run(&mut aut, a.max_steps, &stop, a.checkpoint.as_deref(), every)?
        }
        Some(k) => {
            let mut sink: Box<dyn Write> =
                if a.json { Box::new(std::io::stderr()) } else { Box::new(std::io::stdout()) };
            loop {
                writeln!(sink, "step {} moves {}", aut.steps(), aut.moves())?;
                write!(sink, "{}", text::render(&aut))?;
                if aut.is_solution() || aut.steps() >= a.max_steps {
                    break;
                }
                let next = aut.steps().saturating_add(k).min(a.max_steps);
                let r = aut.run(next, &stop)?;
                if r.solved || aut.steps() >= a.max_steps {
                    writeln!(sink, "step {} moves {}", aut.steps(), aut.moves())?;
                    write!(sink, "{}", text::render(&aut))?;
                    break;
                }
            }
            let censored = (!aut.is_solution()).then_some(Censored::StepCap);
            aut.result(censored)
        }
    };
    let report = RunReport {
        model: params.model,
        n,
        eps: params.eps,
        eta: params.eta,
        seed,
        steps: result.steps,
        moves: result.moves,
        solved: result.solved,
        absorbing: result.absorbing,
        placement: result.placement.map(|p| p.into_iter().map(|c| c + 1).collect()),
        censored: result.censored,
        seconds: clock.elapsed().as_secs_f64(),
    };
    if a.json {
        output::print_json(&report)?;
    } else if report.solved {
        let cols: Vec<String> = report.placement.iter().flatten().map(|c| c.to_string()).collect();
        outln!(
            "solved at step {} after {} moves ({}absorbing), {:.3} s",
            report.steps,
            report.moves,
            if report.absorbing { "" } else { "not yet " },
            report.seconds
        )?;
        outln!("placement (1-based column per row): {}", cols.join(" "))?;
    } else {
        outln!(
            "no solution within {} steps ({} moves), {:.3} s",
            report.steps,
            report.moves,
            report.seconds
        )?;
    }
    Ok(if report.solved { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

fn fmt_opt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.6e}")).unwrap_or_default()
}

fn summary_csv(s: &Summary) -> String {
    format!(
        "{},{},{},{},{},{},{},{}",
        s.runs,
        s.solved,
        s.censored,
        fmt_opt(s.mean_steps),
        fmt_opt(s.ci95.map(|c| c.0)),
        fmt_opt(s.ci95.map(|c| c.1)),
        fmt_opt(s.median_steps),
        fmt_opt(s.mean_moves)
    )
}

const SUMMARY_HEADER: &str = "runs,solved,censored,mean_steps,ci95_low,ci95_high,median_steps,mean_moves";

fn show(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.4e}")).unwrap_or_else(|| "-".into())
}

#[derive(serde::Serialize)]
struct SweepReport {
    model: Model,
    n: usize,
    eta: f64,
    seed: u64,
    samples: u64,
    max_steps: u64,
    points: Vec<SweepPoint>,
    seconds: f64,
}

/// The model's name in figures: its number in the seed and its option name.
fn model_name(m: Model) -> &'static str {
    match m {
        Model::Pair => "model 1 (pair)",
        Model::Cell => "model 2 (cell)",
    }
}

fn sweep(a: SweepArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(!a.eps.is_empty(), "--eps: the list of values is empty");
    for &e in &a.eps {
        check_probability("eps", e)?;
    }
    check_probability("eta", a.eta)?;
    check_n(a.n)?;
    a.out.check()?;
    let seed = pick_seed(a.exp.seed);
    let params = Params { model: a.model.into(), n: a.n, eps: a.eps[0], eta: a.eta }.validated()?;
    let control = interrupt::control();
    let clock = Instant::now();
    let points = {
        let _bar = Progress::start(control, a.samples * a.eps.len() as u64, "sweep");
        pool(a.exp.threads)?.install(|| {
            experiment::sweep(&params, &a.eps, a.samples as usize, seed, a.exp.max_steps, &Stop::new(control))
        })?
    };
    let report = SweepReport {
        model: params.model,
        n: a.n,
        eta: a.eta,
        seed,
        samples: a.samples,
        max_steps: a.exp.max_steps,
        points,
        seconds: clock.elapsed().as_secs_f64(),
    };
    if let Some(path) = &a.out.csv {
        let mut s = format!("eps,{SUMMARY_HEADER}\n");
        for p in &report.points {
            s += &format!("{},{}\n", p.eps, summary_csv(&p.summary));
        }
        output::write_atomic(path, s.as_bytes())?;
    }
    if let Some(path) = &a.out.plot {
        // Censored runs (stopped at the step cap) make a point a lower bound: marked as such.
        let pick = |f: &dyn Fn(&Summary) -> Option<f64>, bars: bool| -> Vec<Point> {
            let point = |p: &SweepPoint, v: f64| Point {
                x: p.eps,
                y: v,
                interval: if bars { p.summary.ci95 } else { None },
                censored: p.summary.censored > 0,
            };
            report.points.iter().filter_map(|p| f(&p.summary).map(|v| point(p, v))).collect()
        };
        let curve = |name: &str, points: Vec<Point>, interval: Interval| Curve {
            name: name.into(),
            points,
            interval,
            line: true,
        };
        let chart = Chart {
            title: format!(
                "{} (n = {}): steps and moves to a first solution against ε",
                model_name(params.model),
                a.n
            ),
            subtitle: vec![format!(
                "{} runs per ε, η = {}, seed {seed}, each run capped at {} steps",
                a.samples,
                a.eta,
                crate::util::plot::number(a.exp.max_steps as f64)
            )],
            x: Axis { label: "ε (probability of a move to a dangerous cell)".into(), scale: Scale::Log },
            y: Axis { label: "steps, moves".into(), scale: Scale::Log },
            curves: vec![
                curve(
                    "mean steps (over the solved runs)",
                    pick(&|s| s.mean_steps, true),
                    Interval::Bars("95% confidence interval of the mean steps".into()),
                ),
                curve("median steps", pick(&|s| s.median_steps, false), Interval::None),
                curve("mean moves (over the solved runs)", pick(&|s| s.mean_moves, false), Interval::None),
            ],
            censored_note: "censored: some runs hit the step cap, so the value is a lower bound".into(),
        };
        chart.draw(path)?;
    }
    if a.out.json {
        output::print_json(&report)?;
    } else {
        outln!(
            "model {} n = {} eta = {} seed = {seed}, {} runs per eps",
            params.model,
            a.n,
            a.eta,
            a.samples
        )?;
        outln!(
            "{:>8} {:>7} {:>9} {:>12} {:>25} {:>12} {:>12}",
            "eps",
            "solved",
            "censored",
            "mean steps",
            "95% interval",
            "median",
            "mean moves"
        )?;
        for p in &report.points {
            let s = &p.summary;
            let ci = s.ci95.map(|c| format!("[{:.3e}, {:.3e}]", c.0, c.1)).unwrap_or_else(|| "-".into());
            outln!(
                "{:>8} {:>7} {:>9} {:>12} {:>25} {:>12} {:>12}",
                p.eps,
                s.solved,
                s.censored,
                show(s.mean_steps),
                ci,
                show(s.median_steps),
                show(s.mean_moves)
            )?;
        }
        outln!("{:.1} s", report.seconds)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Parses `4..16`, `4,6,8` or a mix into a sorted list without repeats.
fn parse_ns(spec: &str) -> anyhow::Result<Vec<usize>> {
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim) {
        anyhow::ensure!(!part.is_empty(), "-n {spec:?}: empty item (expected A..B or a list of sizes)");
        let num = |s: &str| -> anyhow::Result<usize> {
            s.trim().parse::<usize>().with_context(|| format!("-n {spec:?}: {s:?} is not a board size"))
        };
        if let Some((lo, hi)) = part.split_once("..") {
            let (lo, hi) = (num(lo)?, num(hi.trim_start_matches('='))?);
            anyhow::ensure!(lo <= hi, "-n {spec:?}: empty range {part}");
            check_n(hi)?;
            out.extend(lo..=hi);
        } else {
            out.push(num(part)?);
        }
    }
    for &n in &out {
        check_n(n)?;
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

#[derive(serde::Serialize)]
struct ScaleReport {
    eps: f64,
    eta: f64,
    seed: u64,
    samples: u64,
    max_steps: u64,
    budget: Option<f64>,
    /// The placement count behind 1/d.
    positions: &'static str,
    points: Vec<ScalePoint>,
    /// `(n, 1/d)` for the sizes with at least one solution.
    inverse_density: Vec<(usize, f64)>,
    seconds: f64,
}

fn scale(a: ScaleArgs) -> anyhow::Result<ExitCode> {
    let ns = parse_ns(&a.n)?;
    anyhow::ensure!(!a.model.is_empty(), "--model: the list is empty");
    check_probability("eps", a.eps)?;
    check_probability("eta", a.eta)?;
    if let Some(b) = a.budget {
        anyhow::ensure!(b.is_finite() && b > 0.0, "--budget {b}: expected a positive number of seconds");
    }
    a.out.check()?;
    let seed = pick_seed(a.exp.seed);
    let mut models: Vec<Model> = a.model.iter().map(|&m| m.into()).collect();
    models.dedup();
    let control = interrupt::control();
    let clock = Instant::now();
    let pool = pool(a.exp.threads)?;
    let mut inv = Vec::new();
    // PERF: 1/d needs the exact count Q(n); beyond DENSITY_MAX_N it would take hours.
    for &n in ns.iter().filter(|&&n| !a.no_density && n <= DENSITY_MAX_N) {
        if let Some(v) = pool.install(|| experiment::inverse_density(n, control))? {
            inv.push((n, v));
        }
    }
    let points = {
        let _bar = Progress::start(control, a.samples * (ns.len() * models.len()) as u64, "scale");
        pool.install(|| {
            experiment::scale(
                &models,
                &ns,
                a.eps,
                a.eta,
                a.samples as usize,
                seed,
                a.exp.max_steps,
                a.budget.map(Duration::from_secs_f64),
                control,
            )
        })?
    };
    let report = ScaleReport {
        eps: a.eps,
        eta: a.eta,
        seed,
        samples: a.samples,
        max_steps: a.exp.max_steps,
        budget: a.budget,
        positions: "C(n^2, n): sets of n distinct cells",
        points,
        inverse_density: inv,
        seconds: clock.elapsed().as_secs_f64(),
    };
    if let Some(path) = &a.out.csv {
        let mut s = format!("model,n,{SUMMARY_HEADER},seconds,inverse_density\n");
        for p in &report.points {
            let d = report.inverse_density.iter().find(|x| x.0 == p.n).map(|x| x.1);
            s +=
                &format!("{},{},{},{:.3},{}\n", p.model, p.n, summary_csv(&p.summary), p.seconds, fmt_opt(d));
        }
        output::write_atomic(path, s.as_bytes())?;
    }
    if let Some(path) = &a.out.plot {
        let mut curves = Vec::new();
        for &m in &models {
            let label = model_name(m);
            let points = report
                .points
                .iter()
                .filter(|p| p.model == m)
                .filter_map(|p| {
                    let y = p.summary.mean_steps?;
                    Some(Point {
                        x: p.n as f64,
                        y,
                        interval: p.summary.ci95,
                        censored: p.summary.censored > 0,
                    })
                })
                .collect();
            curves.push(Curve {
                name: format!("{label}: mean steps (over the solved runs)"),
                points,
                interval: Interval::Bars(format!("{label}: 95% confidence interval of the mean")),
                line: true,
            });
        }
        curves.push(Curve {
            name: "1/d, d = solutions / C(n², n): the expected steps of a blind search".into(),
            points: report.inverse_density.iter().map(|&(n, v)| Point::new(n as f64, v)).collect(),
            interval: Interval::None,
            line: true,
        });
        let names: Vec<&str> = models.iter().map(|&m| model_name(m)).collect();
        let (n0, n1) = (ns.iter().min().copied().unwrap_or(0), ns.iter().max().copied().unwrap_or(0));
        let budget = a.budget.map(|b| format!(", at most {b} s of runs per point")).unwrap_or_default();
        let chart = Chart {
            title: format!("steps to a first solution against n: {}, n = {n0}..{n1}", names.join(" and ")),
            subtitle: vec![format!(
                "ε = {}, η = {}, {} runs per point, seed {seed}, each run capped at {} steps{budget}",
                a.eps,
                a.eta,
                a.samples,
                crate::util::plot::number(a.exp.max_steps as f64)
            )],
            x: Axis { label: "n (board side, queens)".into(), scale: Scale::Integer },
            y: Axis { label: "steps".into(), scale: Scale::Log },
            curves,
            censored_note: "censored: some runs hit the cap or the budget, so the mean is a lower bound"
                .into(),
        };
        chart.draw(path)?;
    }
    if a.out.json {
        output::print_json(&report)?;
    } else {
        outln!(
            "eps = {} eta = {} seed = {seed}, {} runs per point; 1/d with C(n^2, n) positions",
            a.eps,
            a.eta,
            a.samples
        )?;
        outln!(
            "{:>5} {:>3} {:>7} {:>9} {:>12} {:>12} {:>12} {:>12} {:>9}",
            "model",
            "n",
            "solved",
            "censored",
            "mean steps",
            "median",
            "mean moves",
            "1/d",
            "seconds"
        )?;
        for p in &report.points {
            let s = &p.summary;
            let d = report.inverse_density.iter().find(|x| x.0 == p.n).map(|x| x.1);
            outln!(
                "{:>5} {:>3} {:>7} {:>9} {:>12} {:>12} {:>12} {:>12} {:>9.2}",
                p.model.name(),
                p.n,
                s.solved,
                s.censored,
                show(s.mean_steps),
                show(s.median_steps),
                show(s.mean_moves),
                show(d),
                p.seconds
            )?;
        }
        outln!("{:.1} s", report.seconds)?;
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(serde::Serialize)]
struct TrapCase {
    model: Model,
    eps: f64,
    eta: f64,
    /// Signals reset to the true field after every move (instant propagation).
    ideal_signals: bool,
    summary: Summary,
}

#[derive(serde::Serialize)]
struct TrapReport {
    figure: u8,
    n: usize,
    position: String,
    triangle: Vec<(usize, usize)>,
    /// Fig. 7: the layout satisfies the robust trap condition (not only with true signals).
    robust: Option<bool>,
    cases: Vec<TrapCase>,
}

fn trap_cmd(a: TrapArgs) -> anyhow::Result<ExitCode> {
    let control = interrupt::control();
    let stop = Stop::new(control);
    type Settings = Vec<(f64, f64, bool)>;
    let (t, robust, model, settings): (trap::Trap, Option<bool>, Model, Settings) = match a.figure {
        1 => {
            let t = trap::find_figure1(a.seed, 1_000_000)
                .context("no fig. 1 position found for n <= 8 with this seed; try another --seed")?;
            (t, None, Model::Pair, vec![(0.0, 0.0, false), (engine::DEFAULT_EPS, 0.0, false)])
        }
        7 => {
            let (t, robust) = trap::find_figure7().context("no fig. 7 layout exists on 6 x 6")?;
            let e = engine::DEFAULT_EPS;
            (
                t,
                Some(robust),
                Model::Cell,
                vec![(e, 0.0, true), (e, 0.0, false), (e, engine::DEFAULT_ETA, false)],
            )
        }
        f => anyhow::bail!("--figure {f}: only figures 1 and 7 are trap positions"),
    };
    let mut cases = Vec::new();
    for (eps, eta, ideal) in settings {
        let params = Params { model, n: t.n, eps, eta }.validated()?;
        let start = experiment::Start { counts: &t.counts, signals: StartSignals::True, ideal };
        let runs = experiment::run_samples_from(
            &params,
            Some(start),
            a.seed,
            a.samples as usize,
            a.max_steps,
            &stop,
        )?;
        cases.push(TrapCase { model, eps, eta, ideal_signals: ideal, summary: experiment::summarize(&runs) });
    }
    let report = TrapReport {
        figure: a.figure,
        n: t.n,
        position: text::format_position(t.n, &t.counts),
        triangle: t.triangle.clone(),
        robust,
        cases,
    };
    if a.json {
        output::print_json(&report)?;
    } else {
        match a.figure {
            1 => outln!(
                "fig. 1 ({0} x {0}): not a solution, every queen threatened, and no queen has a \
                 neighbour where SAFEGO holds (so no one-cell move reaches a safe cell)",
                t.n
            )?,
            _ => outln!(
                "fig. 7 (6 x 6): 4 fixed queens in columns c..f, 2 queens in the triangle {:?}; \
                 the fixed queens never share a line with the triangle{}",
                t.triangle,
                if robust == Some(true) {
                    " and the trap holds whatever the signals do"
                } else {
                    ";\nwith true signals the free triangle cell is the unique least-signalled destination \
                     (no layout is a trap whatever the signals: stale signals can let a queen out)"
                }
            )?,
        }
        out!("{}", report.position)?;
        let mut aut = Automaton::from_position(&Params::new(model, t.n)?, &t.counts, StartSignals::True, 0)?;
        aut.set_true_signals();
        outln!("with its true signals:")?;
        out!("{}", text::render(&aut))?;
        outln!(
            "{} runs per setting from this position with true signals, cap {} steps:",
            a.samples,
            a.max_steps
        )?;
        for c in &report.cases {
            outln!(
                "  model {} eps = {} eta = {}{}: {} solved, {} censored, mean steps {}",
                c.model,
                c.eps,
                c.eta,
                if c.ideal_signals { " (signals reset to the truth after each move)" } else { "" },
                c.summary.solved,
                c.summary.censored,
                show(c.summary.mean_steps)
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(serde::Serialize)]
struct BenchRow {
    model: Model,
    n: usize,
    threads: usize,
    updates: u64,
    seconds: f64,
    updates_per_second: f64,
}

fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 600.0,
        "--seconds: expected 0 < s <= 600"
    );
    for &n in &a.n {
        check_n(n)?;
    }
    let all = std::thread::available_parallelism().map(|p| p.get()).unwrap_or(1);
    let mut rows = Vec::new();
    for model in [Model::Pair, Model::Cell] {
        for &n in &a.n {
            interrupt::check()?;
            let params = Params::new(model, n)?;
            // Calibrate: the updates one thread makes in about `seconds`.
            let (u, s) = experiment::measure(&params, 1, 2_000_000)?;
            let target = ((u as f64 / s.max(1e-9)) * a.seconds) as u64;
            for threads in [1, all] {
                if threads == 1 || all > 1 {
                    let pool = pool(Some(threads as u32))?;
                    let clock = Instant::now();
                    let total: u64 = pool.install(|| {
                        use rayon::prelude::*;
                        (0..threads as u64)
                            .into_par_iter()
                            .map(|t| experiment::measure(&params, 100 + t, target).map(|r| r.0).unwrap_or(0))
                            .sum()
                    });
                    let seconds = clock.elapsed().as_secs_f64();
                    rows.push(BenchRow {
                        model,
                        n,
                        threads,
                        updates: total,
                        seconds,
                        updates_per_second: total as f64 / seconds,
                    });
                }
            }
        }
    }
    if a.json {
        output::print_json(&rows)?;
    } else {
        outln!(
            "{:>5} {:>4} {:>7} {:>14} {:>9} {:>16}",
            "model",
            "n",
            "threads",
            "updates",
            "seconds",
            "M updates/s"
        )?;
        for r in &rows {
            outln!(
                "{:>5} {:>4} {:>7} {:>14} {:>9.3} {:>16.1}",
                r.model.name(),
                r.n,
                r.threads,
                r.updates,
                r.seconds,
                r.updates_per_second / 1e6
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
