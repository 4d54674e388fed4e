//! `damier queens timing --to N`: time against n for the naive and the fast counter (the
//! course chapter's gnuplot exercise), as a table, a CSV file and a log-scale plot.
//!
//! The naive backtracker grows like n!: it stops at `--naive-max` (default 13, about a
//! second of CPU in a release build; 14 takes ~8 s, 15 about a minute), and the output says
//! where it stopped.
//! Each point is the mean over repeated runs totalling at least `--min-ms` milliseconds,
//! so tiny n are not pure timer noise. The rows are measured by the bench crate
//! (`damier_bench::tables::queens_timing`); this command draws and writes them.

use std::process::ExitCode;
use std::time::Duration;

use damier::control::Control;
use damier::queens;
use damier_bench::tables::{self, QueensTiming};

use crate::report::queens::Table;
use crate::util::OutputPath;
use crate::util::chart::{Axis, Chart, Curve, Interval, Point, Scale};
use crate::util::csv_file::{self, format};
use crate::util::output::Report;
use crate::util::{interrupt, output, progress::Progress};

/// The longest `--min-ms`: an hour per measurement (the floor of the run's time is this
/// times the number of measurements, which must not overflow).
const MIN_MS_MAX: u64 = 3_600_000;

/// Arguments of `damier queens timing`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Largest n (1 to 28: past the fast engine's range a count takes core years).
    #[arg(long, value_name = "N")]
    to: u32,
    /// Smallest n.
    #[arg(long, value_name = "N", default_value_t = 1)]
    from: u32,
    /// Largest n for the naive counter (0 to 16).
    #[arg(long, value_name = "N", default_value_t = 13, value_parser = crate::util::ranged::<u32>(0, 16))]
    naive_max: u32,
    /// Repeat each measurement until this many milliseconds are spent (0 to 3600000, an hour).
    #[arg(long, value_name = "MS", default_value_t = 50, value_parser = crate::util::ranged::<u64>(0, MIN_MS_MAX))]
    min_ms: u64,
    /// Worker threads for the fast counter [default: all cores].
    #[arg(long, value_parser = crate::util::ranged::<u32>(1, damier::util::POOL_MAX_THREADS))]
    threads: Option<u32>,
    /// Write the table as CSV (n,naive_seconds,fast_seconds,total), atomically.
    #[arg(long, value_name = "FILE")]
    csv: Option<OutputPath>,
    /// Draw time against n on a log scale (.svg or .png).
    #[arg(long, value_name = "FILE")]
    plot: Option<OutputPath>,
    /// Print JSON (a list of {n, naive_seconds, fast_seconds, total}).
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(a.from >= 1, "--from must be at least 1");
    anyhow::ensure!(a.to >= a.from, "--to ({}) must be at least --from ({})", a.to, a.from);
    // Past the fast engine's range a count takes core years and its total passes 64 bits:
    // refused as `queens count` refuses it.
    queens::reach::check_count(a.to, false)?;
    if let Some(p) = &a.plot {
        crate::util::chart::format_of(p)?;
    }
    for p in a.csv.iter().chain(&a.plot) {
        output::check_folder(p)?;
    }
    // The fast counter's count of q(--to), on the widest unit as it runs, said when long.
    super::cost::warn_if_whole_count_costly("queens timing", a.to, damier::cpu::Isa::best())?;
    let pool = crate::util::pool(a.threads)?;
    let control = interrupt::control();
    // A private counter for the bar: the engines report progress in their own units.
    let steps: &'static Control = Box::leak(Box::new(Control::new()));
    let mut rows = Vec::new();
    {
        let sizes = a.to - a.from + 1;
        let naive = (a.from..=a.to).filter(|&n| n <= a.naive_max).count() as u64;
        // Seconds at least: every measurement is repeated for --min-ms; the naive counter
        // takes about 1.5 s at n = 13 and the fast one 0.5 s at 16 (release, 2 loaded cores).
        let floor_ms = (u64::from(sizes) + naive) * a.min_ms;
        let long = a.to >= 16 || a.naive_max.min(a.to) >= 13 || floor_ms >= 5_000;
        let _bar = Progress::sized(long, steps, u64::from(sizes), "queens timing", || {
            format!(
                "timing the fast counter for n = {} to {} and the naive one to n = {}, each for at least {} ms: \
                 at least {} s in all",
                a.from,
                a.to,
                a.naive_max.min(a.to),
                a.min_ms,
                crate::util::number(floor_ms as f64 / 1e3)
            )
        });
        let min = Duration::from_millis(a.min_ms);
        for n in a.from..=a.to {
            rows.push(tables::queens_timing(n, n <= a.naive_max, min, &pool, control)?);
            steps.advance(1);
        }
    }
    if let Some(path) = &a.csv {
        /// One line of the timing CSV: one n.
        #[derive(serde::Serialize)]
        struct Line {
            n: u32,
            #[serde(serialize_with = "format::nano_opt")]
            naive_seconds: Option<f64>,
            #[serde(serialize_with = "format::nano")]
            fast_seconds: f64,
            total: u64,
        }
        let lines: Vec<Line> = rows
            .iter()
            .map(|r| Line {
                n: r.n,
                naive_seconds: r.naive_seconds,
                fast_seconds: r.fast_seconds,
                total: r.total,
            })
            .collect();
        output::write_bytes(path, output::Durability::Synced, &csv_file::to_bytes(&lines)?)?;
    }
    if let Some(path) = &a.plot {
        let curve = |name: String, f: &dyn Fn(&QueensTiming) -> Option<f64>| Curve {
            name,
            points: rows.iter().filter_map(|r| f(r).map(|s| Point::new(f64::from(r.n), s))).collect(),
            interval: Interval::None,
            line: true,
        };
        let threads = pool.current_num_threads();
        let chart = Chart {
            title: format!("n queens: time to count all solutions, n = {}..{}", a.from, a.to),
            subtitle: vec![format!(
                "mean of repeated runs lasting at least {} ms in all; fast counter on {threads} thread{}",
                a.min_ms,
                if threads == 1 { "" } else { "s" }
            )],
            x: Axis { label: "n (board side, queens)".into(), scale: Scale::Integer },
            y: Axis { label: "seconds".into(), scale: Scale::Log },
            curves: vec![
                curve(
                    format!("naive backtracking, EstLibre/PlacerReine (n <= {}, one thread)", a.naive_max),
                    &|r| r.naive_seconds,
                ),
                curve("fast counter (bit vectors, symmetry)".into(), &|r| Some(r.fast_seconds)),
            ],
            censored_note: String::new(),
        };
        chart.draw(path)?;
    }
    Table { rows, naive_max: a.naive_max, to: a.to }.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
