//! `damier queens estimate N`: the projected cost of counting n, from a timed random sample
//! of its tasks.

use crate::util::number;
use std::process::ExitCode;

use damier::queens::count::estimate::{self, EstimateRecord};
use damier::queens::count::tasks::{MAX_TASK_N, MIN_TASK_N};

use crate::util::output::{Report, errln, outln};
use crate::util::{interrupt, progress::Progress};

/// Arguments of `damier queens estimate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size (4..=28).
    #[arg(value_parser = clap::value_parser!(u32).range(i64::from(MIN_TASK_N)..=i64::from(MAX_TASK_N)))]
    n: u32,
    /// Tasks to time (drawn at random, without replacement).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    samples: u32,
    /// Seed of the draw [default: random, printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Vector unit of the counting kernels: auto (the widest this CPU has), portable, avx2 or
    /// avx512. A unit the CPU lacks is refused.
    #[arg(long, value_name = "ISA", default_value = "auto", value_parser = super::count::parse_isa)]
    isa: damier::cpu::IsaChoice,
    /// Most queries (top halves) matched per task: a task with more matches a random sample
    /// this large (32768 is a good size) and its matching time is extrapolated: much faster
    /// from n = 24 up, but since the cut bits are chosen per batch it leans low (0.6x at
    /// n = 25, 0.2x at 26, 0.09x at 27, measured), and a sampled task holds both its halves
    /// whole (about 3 GB at n = 27): quote whole tasks; `all`: whole tasks, run as a count
    /// runs them, in its bounded memory (about a second each at n = 25, a minute at 27).
    #[arg(long, value_name = "K|all", default_value = "all", value_parser = parse_queries)]
    queries: Queries,
    /// Print JSON (keys: n, tasks, core_hours, low, high (the 95% interval, core hours),
    /// samples, engine, task_seconds, task_seconds_sd, setup_seconds, clock, queries_per_task,
    /// subsampled_tasks, matched_fraction, solutions, solutions_low, solutions_high, isa,
    /// seed; for n <= 27 also known_solutions (OEIS A000170) and known_inside, false when the
    /// known term falls outside the projected solutions' interval: then do not quote the
    /// projection).
    #[arg(long)]
    json: bool,
}

/// `--queries`: a limit, or `None` for whole tasks.
#[derive(Clone, Copy, Debug)]
struct Queries(Option<u32>);

/// Parses `--queries`: a positive number or `all`.
fn parse_queries(text: &str) -> Result<Queries, String> {
    match text {
        "all" => Ok(Queries(None)),
        _ => match text.parse::<u32>() {
            Ok(k) if k >= 1 => Ok(Queries(Some(k))),
            _ => Err("expected a positive number of queries, or all".to_string()),
        },
    }
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let isa = a.isa.resolve_below(crate::util::test_hooks::read()?.cpu_lacks)?;
    let seed = crate::util::pick_seed(a.seed);
    let control = interrupt::control();
    // One more than the sample: the first task also runs once as a warm-up.
    let bar = Progress::start(control, u64::from(a.samples) + 1, "timing tasks");
    let options = estimate::EstimateOptions { samples: a.samples, seed, isa, queries: a.queries.0 };
    let e = estimate::estimate_cost(a.n, &options, control)?;
    drop(bar);
    let check = e.known_check();
    if let Some(c) = check.filter(|c| !c.inside) {
        errln!(
            "damier: warning: the sample projects {} solutions (95% interval {} to {}), \
             but q({}) = {} ({:.2}x): the sample is not representative, do not quote this \
             projection (take more --samples, or another --seed)",
            number(e.solutions),
            number(e.solutions_low),
            number(e.solutions_high),
            e.n,
            c.known,
            c.ratio
        );
    }
    EstimateRecord::new(e, isa, seed).print(a.json)?;
    Ok(ExitCode::SUCCESS)
}

impl Report for EstimateRecord {
    fn print_text(&self) -> anyhow::Result<()> {
        let (e, seed, isa) = (&self.estimate, self.seed, self.isa);
        let check = e.known_check();
        outln!(
            "n = {}: {} tasks; {} timed (seed {seed}, {} clock, {isa} kernels) at {} s each on average (sd {} s), set-up {} s",
            e.n,
            e.tasks,
            e.samples,
            e.clock,
            number(e.task_seconds),
            number(e.task_seconds_sd),
            number(e.setup_seconds)
        )?;
        if e.subsampled_tasks > 0 {
            outln!(
                "{} of the {} tasks matched a random {} of their queries ({:.2}% of the matching ran, the rest scaled up)",
                e.subsampled_tasks,
                e.samples,
                e.queries_per_task.unwrap_or(0),
                100.0 * e.matched_fraction
            )?;
        }
        outln!(
            "projected: {} core seconds = {} core hours (95% interval {} to {} h), {} h on 2 cores",
            number(e.core_hours * 3600.0),
            number(e.core_hours),
            number(e.low),
            number(e.high),
            number(e.core_hours / 2.0)
        )?;
        let known = match check {
            Some(c) => format!(
                "; known q({}) = {} ({}, {}, projected/known {:.3})",
                e.n,
                c.known,
                number(c.known as f64),
                if c.inside { "inside the interval" } else { "OUTSIDE the interval" },
                c.ratio
            ),
            None => String::new(),
        };
        outln!(
            "solutions, projected by the same sample (a check of it): {} (95% interval {} to {}){known}",
            number(e.solutions),
            number(e.solutions_low),
            number(e.solutions_high)
        )?;
        Ok(())
    }
}
