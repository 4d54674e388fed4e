//! `damier queens speed FILE.csv`: the speed figure, drawn from hand measurements. Its upper
//! panel is the CPU time to count q(n) against n, damier on each vector unit beside the
//! fastest public counter measured on the same machine; its lower panel is the CPU time per
//! solution against n, up to the open term, estimates marked as such. The measurements (other
//! programs, hours-long counts) cannot be redone by one command, so they live in a CSV with
//! their date, build and command (docs/figures/counting_speed.csv), which this command checks,
//! tabulates and draws.

use std::collections::BTreeMap;
use std::process::ExitCode;

use damier_bench::speed::{Measurement, Metric, Source, SpeedTable};

use crate::report::queens::{OTHER_COUNTER, OTHER_COUNTER_NOTE, program_and_build};
use crate::util::chart::{self, Axis, Chart, Curve, Interval, Point, Scale};
use crate::util::csv_file::{self, Invalid};
use crate::util::output::{self, Report};
use crate::util::{InputFile, OutputPath};

/// Arguments of `damier queens speed`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The measurements: a CSV with the header
    /// program,isa,n,metric,value,source,date,build,command (metric: cpu_seconds, the CPU time
    /// of the whole count of q(n) on one core, or ns_per_solution; source: measured or
    /// estimate), as docs/figures/counting_speed.csv.
    #[arg(value_name = "FILE.csv")]
    csv: InputFile,
    /// Draw both panels (.svg or .png).
    #[arg(long, value_name = "FILE")]
    plot: Option<OutputPath>,
    /// Print JSON: the checked rows, then per n and vector unit the ratio of damier's time to
    /// the other program's (keys: rows, ratios {n, isa, other, ratio}).
    #[arg(long)]
    json: bool,
}

/// One line of the CSV as read, its names checked by [`check`] (so that an unknown one is
/// reported with its column).
#[derive(Debug, serde::Deserialize)]
struct Line {
    program: String,
    isa: String,
    n: u32,
    metric: String,
    value: f64,
    source: String,
    date: String,
    build: String,
    command: String,
}

/// Smallest and largest n a row may have (the counter's range).
const N_RANGE: std::ops::RangeInclusive<u32> = 1..=damier::queens::count::MAX_N;

fn check(line: Line) -> Result<Measurement, Invalid> {
    if line.program.is_empty() {
        return Err(Invalid::column("program", "empty"));
    }
    if line.isa.is_empty() {
        return Err(Invalid::column("isa", "empty"));
    }
    if !N_RANGE.contains(&line.n) {
        let (low, high) = (N_RANGE.start(), N_RANGE.end());
        return Err(Invalid::column("n", format!("{} is outside {low} to {high}", line.n)));
    }
    let metric = match line.metric.as_str() {
        "cpu_seconds" => Metric::CpuSeconds,
        "ns_per_solution" => Metric::NsPerSolution,
        other => {
            return Err(Invalid::column(
                "metric",
                format!("{other:?} is neither cpu_seconds nor ns_per_solution"),
            ));
        }
    };
    if !(line.value.is_finite() && line.value > 0.0) {
        return Err(Invalid::column("value", format!("{} is not a positive number", line.value)));
    }
    let source = match line.source.as_str() {
        "measured" => Source::Measured,
        "estimate" => Source::Estimate,
        other => {
            return Err(Invalid::column("source", format!("{other:?} is neither measured nor estimate")));
        }
    };
    let day = time::format_description::parse_borrowed::<2>("[year]-[month]-[day]").expect("a valid format");
    if time::Date::parse(&line.date, &day).is_err() {
        return Err(Invalid::column("date", format!("{:?} is not a date YYYY-MM-DD", line.date)));
    }
    let Line { program, isa, n, value, date, build, command, .. } = line;
    Ok(Measurement { program, isa, n, metric, value, source, date, build, command })
}

/// Smallest n of the per-solution panel: below, a count's fixed costs (starting the program,
/// building tables) outweigh its few solutions.
const PER_SOLUTION_FROM: u32 = 18;

/// The same series in both panels (so each keeps its colour and marker): one per (program,
/// vector unit, source), damier's first, points in n order. The upper panel plots the CPU
/// seconds; the lower one the nanoseconds per solution from n = [`PER_SOLUTION_FROM`] on, given
/// or, for a count's seconds, divided by the known q(n) (OEIS A000170).
fn panels(rows: &[Measurement]) -> (Vec<Curve>, Vec<Curve>) {
    type Key = (bool, String, String, Source);
    let mut series: BTreeMap<Key, (Vec<Point>, Vec<Point>)> = BTreeMap::new();
    for r in rows {
        let key = (r.program != "damier", r.program.clone(), r.isa.clone(), r.source);
        let (times, costs) = series.entry(key).or_default();
        let x = f64::from(r.n);
        if r.metric == Metric::CpuSeconds {
            times.push(Point::new(x, r.value));
        }
        if let Some(ns) = r.ns_per_solution().filter(|_| r.n >= PER_SOLUTION_FROM) {
            costs.push(Point::new(x, ns));
        }
    }
    let curve = |program: &str, isa: &str, source: Source, mut points: Vec<Point>| {
        points.sort_by(|a, b| a.x.total_cmp(&b.x));
        let who = program_and_build(program, isa);
        let name = match source {
            Source::Measured => format!("{who}, whole counts"),
            Source::Estimate => format!("{who}, estimated from timed tasks"),
        };
        Curve { name, points, interval: Interval::None, line: source == Source::Measured }
    };
    series
        .into_iter()
        .map(|((_, program, isa, source), (times, costs))| {
            (curve(&program, &isa, source, times), curve(&program, &isa, source, costs))
        })
        .unzip()
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if let Some(p) = &a.plot {
        chart::format_of(p)?;
        output::check_folder(p)?;
    }
    let header: &[&str] = &["program", "isa", "n", "metric", "value", "source", "date", "build", "command"];
    let rows: Vec<Measurement> = csv_file::read(&a.csv, "a counting speed table", &[header], check)?;
    anyhow::ensure!(!rows.is_empty(), "{}: no measurement", a.csv.display());
    let table = SpeedTable::new(rows);
    let rows = &table.rows;
    if let Some(path) = &a.plot {
        let dates = {
            let mut d: Vec<&str> = rows.iter().map(|r| r.date.as_str()).collect();
            d.sort_unstable();
            d.dedup();
            format!("measured {} to {}", d.first().copied().unwrap_or(""), d.last().copied().unwrap_or(""))
        };
        let (times_curves, cost_curves) = panels(rows);
        // The file's name, not the path it was read from on the machine that drew it.
        let file =
            a.csv.file_name().map_or_else(|| a.csv.display().to_string(), |f| f.to_string_lossy().into());
        let mut subtitle = vec![format!("{dates}, same machine for every program (see {file})")];
        if rows.iter().any(|r| r.program == OTHER_COUNTER) {
            subtitle.push(OTHER_COUNTER_NOTE.into());
        }
        let times = Chart {
            title: "n queens: CPU time to count q(n), one core".into(),
            subtitle,
            x: Axis { label: "n (board side, queens)".into(), scale: Scale::Integer },
            y: Axis { label: "CPU seconds".into(), scale: Scale::Log },
            curves: times_curves,
            censored_note: String::new(),
        };
        let cost = Chart {
            title: "n queens: CPU time per solution".into(),
            subtitle: vec![format!(
                "the count's CPU time over q(n) (A000170), from n = {PER_SOLUTION_FROM}; points without a line: \
                 estimates from timed random tasks"
            )],
            x: Axis { label: "n (board side, queens)".into(), scale: Scale::Integer },
            y: Axis { label: "CPU nanoseconds per solution".into(), scale: Scale::Linear },
            curves: cost_curves,
            censored_note: String::new(),
        };
        chart::draw_panels(&[&times, &cost], path)?;
    }
    table.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
