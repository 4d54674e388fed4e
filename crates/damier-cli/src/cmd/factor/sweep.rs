//! `damier factor sweep`: steps and time against size, beside the baselines; its table, CSV
//! and figure, and `--replot`, the figure again from the CSV.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use damier::factor as engine;
use damier::factor::sweep::{self, SweepPlan, SweepSample};

use crate::report::factor::{Replot, row};
use crate::util::chart::{Axis, Chart, Curve, Interval, Point, Scale};
use crate::util::output::{Report, errln};
use crate::util::progress::Progress;
use crate::util::{csv_file, interrupt, output};

use super::csv::{SweepSetting, read_sweep_csv, sweep_csv};
use super::shared::ParamArgs;

/// Arguments of `damier factor sweep`.
#[derive(Debug, Args)]
pub(super) struct SweepArgs {
    /// Sizes in bits: `A..B` (inclusive) or a comma-separated list, each in 6 to 64.
    #[arg(long, default_value = "8..24")]
    bits: String,
    /// Semiprimes per size.
    #[arg(long, default_value_t = 30, value_parser = crate::util::ranged::<u64>(1, 100_000))]
    samples: u64,
    /// Seed of the sweep (numbers and runs derive from it) [default: from the OS, printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Step cap per run (censored beyond).
    #[arg(long, default_value_t = engine::DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// Wall-clock budget per size, seconds: runs still going then are censored, and the
    /// sweep stops after the first size where every run is censored by it (at most a year).
    #[arg(long, value_name = "SECONDS", value_parser = crate::util::budget_seconds)]
    budget: Option<f64>,
    /// Worker threads [default: all cores].
    #[arg(long, value_parser = crate::util::ranged::<u32>(1, damier::util::POOL_MAX_THREADS))]
    threads: Option<u32>,
    #[command(flatten)]
    params: ParamArgs,
    /// Also hand the same multiplication grid to the SAT solver varisat (one solve per
    /// number; Ctrl-C waits for a running solve).
    #[arg(long)]
    sat: bool,
    /// Run nothing: redraw the figure (--plot) from the runs of a CSV written by --csv.
    // Every option of a run conflicts: `--replot F --plot G --bits 8` ran nothing and drew
    // the CSV's sizes, the --bits given silently ignored.
    #[arg(long, value_name = "CSV", requires = "plot",
          conflicts_with_all = ["csv", "sat", "budget", "seed", "bits", "samples", "max_steps", "threads", "q", "eps"])]
    replot: Option<std::path::PathBuf>,
    #[command(flatten)]
    out: crate::util::OutputArgs,
}

pub(super) fn sweep(a: SweepArgs) -> anyhow::Result<ExitCode> {
    a.out.check()?;
    if let Some(csv) = &a.replot {
        return replot(csv, a.out.plot.as_deref().expect("clap requires --plot"), a.out.json);
    }
    let bits =
        crate::util::parse_sizes(&a.bits, "--bits", "size in bits", damier::factor::arith::SEMIPRIME_BITS)?;
    let params = a.params.params()?;
    let seed = crate::util::pick_seed(a.seed);
    let pool = crate::util::pool(a.threads)?;
    let control = interrupt::control();
    let setting = SweepSetting { seed, q: params.q, eps: params.eps, max_steps: a.max_steps };
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
        let numbers = a.samples * plan.bits.len() as u64;
        let what = format!(
            "{numbers} semiprimes ({} per size, {} sizes, seed {seed}){}",
            a.samples,
            plan.bits.len(),
            if a.sat { ", each also by the SAT solver" } else { "" }
        );
        let _bar = Progress::long_run(control, numbers, "factor sweep", &what);
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
        output::write_bytes(path, output::Durability::Synced, &sweep_csv(&report.runs, &setting)?)?;
    }
    if let Some(path) = &a.out.plot {
        let detail = format!("{} semiprimes per size, {}", a.samples, setting_text(&setting));
        sweep_chart(&report.runs, detail).draw(path)?;
    }
    report.print(a.out.json)?;
    Ok(ExitCode::SUCCESS)
}

/// `damier factor sweep --replot CSV --plot FIGURE`: the figure from the runs of an earlier
/// sweep, nothing run.
fn replot(csv: &Path, figure: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let bytes = csv_file::read_bytes(csv)?;
    let (runs, setting) = read_sweep_csv(&bytes).with_context(|| format!("{}", csv.display()))?;
    let name =
        csv.file_name().map_or_else(|| csv.display().to_string(), |f| f.to_string_lossy().into_owned());
    let setting = setting.map(|s| format!(", {}", setting_text(&s))).unwrap_or_default();
    sweep_chart(&runs, format!("{}{setting}, redrawn from {name}", per_size(&runs))).draw(figure)?;
    let points = sweep::summaries(&runs);
    Replot { csv: csv.to_path_buf(), plot: figure.to_path_buf(), runs: runs.len(), points }.print(json)?;
    Ok(ExitCode::SUCCESS)
}

/// "seed 1, q = 0.5, ε = 0.02, each run capped at 2·10⁹ steps": the figure's words for a
/// sweep's setting, drawn or redrawn.
fn setting_text(s: &SweepSetting) -> String {
    format!(
        "seed {}, q = {}, ε = {}, each run capped at {} steps",
        s.seed,
        damier::util::given(s.q),
        damier::util::given(s.eps),
        crate::util::chart::label(s.max_steps as f64)
    )
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
        let steps = crate::util::chart::label(c.step_cap_steps as f64);
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
    use crate::cmd::factor::csv::tests::sample;

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
