//! The text of the queens automaton: `automaton run`, `sweep`, `scale`, `trap`, `growth` and
//! `bench`.

use damier::automaton::experiment::{RunRecord, ScaleRecord, SweepRecord, UnsolvableRun};
use damier::automaton::growth::{Fit, GrowthResult, PowerFit};
use damier::automaton::trap::TrapExperiment;
use damier::automaton::{Automaton, Params, StartSignals, text};
use damier::queens::count::known::LAST_KNOWN_N;
use damier_bench::tables::AutomatonRate;

use crate::util::number;
use crate::util::output::{Report, out, outln};

fn show(v: Option<f64>) -> String {
    v.map(crate::util::number).unwrap_or_else(|| "-".into())
}

impl Report for RunRecord {
    fn print_text(&self) -> anyhow::Result<()> {
        if let Some(p) = self.placement.as_ref().filter(|_| self.solved) {
            outln!(
                "solved at step {} after {} moves ({}absorbing), {} s",
                self.steps,
                self.moves,
                if self.absorbing { "" } else { "not yet " },
                crate::util::number(self.seconds)
            )?;
            // The placement as every command writes it, which `queens check` reads back.
            outln!("solution S = {p}")?;
        } else {
            outln!(
                "no solution within {} steps ({} moves), {} s",
                self.steps,
                self.moves,
                crate::util::number(self.seconds)
            )?;
        }
        Ok(())
    }
}

impl Report for UnsolvableRun {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!("no solution exists for n = {}", self.record.params.n)?;
        Ok(())
    }
}

impl Report for SweepRecord {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "model {} n = {}{} seed = {}, {} runs per eps",
            self.model,
            self.n,
            self.eta.map(|e| format!(" eta = {}", damier::util::given(e))).unwrap_or_default(),
            self.seed,
            self.samples
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
        for p in &self.points {
            let s = &p.summary;
            let ci = s
                .ci95
                .map(|c| format!("[{}, {}]", crate::util::number(c.0), crate::util::number(c.1)))
                .unwrap_or_else(|| "-".into());
            outln!(
                "{:>8} {:>7} {:>9} {:>12} {:>25} {:>12} {:>12}",
                damier::util::given(p.eps),
                s.solved,
                s.censored,
                show(s.mean_steps),
                ci,
                show(s.median_steps),
                show(s.mean_moves)
            )?;
        }
        outln!("{} s", crate::util::number(self.seconds))?;
        Ok(())
    }
}

impl Report for ScaleRecord {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "eps = {}{} seed = {}, {} runs per point; 1/d with C(n^2, n) positions and q(n) of OEIS A000170",
            damier::util::given(self.eps),
            self.eta.map(|e| format!(" eta = {}", damier::util::given(e))).unwrap_or_default(),
            self.seed,
            self.samples
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
        for p in &self.points {
            let s = &p.summary;
            let d = match self.inverse_density_at(p.n) {
                // No one has counted the solutions past the known terms: no number to show.
                None if !self.density_left_out && p.n > LAST_KNOWN_N => "unknown".into(),
                d => show(d),
            };
            outln!(
                "{:>5} {:>3} {:>7} {:>9} {:>12} {:>12} {:>12} {:>12} {:>9}",
                p.model.name(),
                p.n,
                s.solved,
                s.censored,
                show(s.mean_steps),
                show(s.median_steps),
                show(s.mean_moves),
                d,
                crate::util::number(p.seconds)
            )?;
        }
        outln!("{} s", crate::util::number(self.seconds))?;
        Ok(())
    }
}

/// The text of a trap experiment also says the runs' number and cap.
#[derive(serde::Serialize)]
#[serde(transparent)]
pub(crate) struct TrapText<'a> {
    pub(crate) report: &'a TrapExperiment,
    #[serde(skip)]
    pub(crate) samples: u64,
    #[serde(skip)]
    pub(crate) max_steps: u64,
}

impl Report for TrapText<'_> {
    fn print_text(&self) -> anyhow::Result<()> {
        let report = self.report;
        let (t, robust, model) = (report, report.robust, report.model);
        match report.figure {
            1 => outln!(
                "fig. 1 ({0} x {0}): not a solution, every queen threatened, and no queen has a \
                 neighbour where SAFEGO holds (so no one-cell move reaches a safe cell)",
                t.n
            )?,
            _ => outln!(
                "fig. 7 (6 x 6): 4 fixed queens in columns c..f (3 to 6), 2 queens in the triangle of \
                 cells {}; the fixed queens never share a line with the triangle{}",
                report
                    .triangle
                    .iter()
                    .map(|[r, c]| format!("(row {r}, column {c})"))
                    .collect::<Vec<_>>()
                    .join(", "),
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
            self.samples,
            self.max_steps
        )?;
        for c in &report.cases {
            outln!(
                "  model {} eps = {}{}{}: {} solved, {} censored, mean steps {}",
                c.model,
                damier::util::given(c.eps),
                if c.model.uses_eta() {
                    format!(" eta = {}", damier::util::given(c.eta))
                } else {
                    String::new()
                },
                if c.ideal_signals { " (signals reset to the truth after each move)" } else { "" },
                c.summary.solved,
                c.summary.censored,
                show(c.summary.mean_steps)
            )?;
        }
        Ok(())
    }
}

/// The fitted factor per n, `×3.63 per n [3.26, 4.04]`; within 10% of 1, where three
/// significant digits of the factor say nothing (`×1.00 [1.00, 1.01]`), the growth per n
/// in percent: `+0.431% per n [+0.365%, +0.5%]`.
pub(crate) fn fit_text(f: &Fit) -> String {
    let (lo, hi) = f.rate_interval;
    if [f.rate, lo, hi].iter().all(|r| (0.9..=1.1).contains(r)) {
        let percent = |r: f64| {
            let p = (r - 1.0) * 100.0;
            format!("{}{}%", if p > 0.0 { "+" } else { "" }, number(p))
        };
        format!("{} per n [{}, {}]", percent(f.rate), percent(lo), percent(hi))
    } else {
        format!("×{} per n [{}, {}]", number(f.rate), number(lo), number(hi))
    }
}

pub(crate) fn power_text(p: &PowerFit) -> String {
    format!("n^{} [{}, {}]", number(p.exponent), number(p.exponent_interval.0), number(p.exponent_interval.1))
}

impl Report for GrowthResult {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "{} runs; eps = {}{}; censored beyond {} steps (model 1), {} (model 2), {} generations (model 3); intervals: 95% bootstrap, {} resamples, seed {}",
            self.runs,
            damier::util::given(self.eps),
            self.eta.map(|e| format!(" eta = {}", damier::util::given(e))).unwrap_or_default(),
            self.pair_max_steps,
            self.cell_max_steps,
            self.row_max_steps,
            self.resamples,
            self.boot_seed
        )?;
        for s in &self.series {
            outln!("\n{}", s.name)?;
            outln!(
                "{:>5} {:>5} {:>8} {:>10} {:>24} {:>10} {:>10}",
                "n",
                "runs",
                "censored",
                "mean",
                "95% interval",
                "median",
                "cpu s/run"
            )?;
            for p in &s.points {
                let ci = p.point.interval.map(|(l, h)| format!("[{}, {}]", show(Some(l)), show(Some(h))));
                outln!(
                    "{:>5} {:>5} {:>8} {:>10} {:>24} {:>10} {:>10}",
                    p.point.n,
                    p.point.runs,
                    p.point.censored,
                    show(p.point.mean),
                    ci.unwrap_or_else(|| "-".into()),
                    show(p.point.median),
                    show(p.mean_cpu_s)
                )?;
            }
            match (&s.fit, &s.fit_error) {
                (Some(f), _) => {
                    outln!("growth: {} (fitted on n = {:?}), residuals {}", fit_text(f), f.ns, number(f.rss))?
                }
                (None, Some(e)) => outln!("growth: no fit: {e}")?,
                (None, None) => {}
            }
            if let Some(p) = &s.power_fit {
                outln!("power law: {}, residuals {}", power_text(p), number(p.rss))?;
            }
            if let Some(b) = s.better_fit {
                outln!("better fit: {b}")?;
            }
        }
        Ok(())
    }
}

/// The table (its JSON: the list of rows).
impl Report for Vec<AutomatonRate> {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "{:>5} {:>4} {:>7} {:>14} {:>9} {:>16}",
            "model",
            "n",
            "threads",
            "updates",
            "seconds",
            "M updates/s"
        )?;
        for r in self {
            outln!(
                "{:>5} {:>4} {:>7} {:>14} {:>9} {:>16}",
                r.model.name(),
                r.n,
                r.threads,
                r.updates,
                crate::util::number(r.seconds),
                crate::util::number(r.updates_per_second / 1e6)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit(rate: f64, lo: f64, hi: f64) -> Fit {
        Fit { rate, rate_interval: (lo, hi), intercept: 0.0, ns: vec![], resamples: 0, seed: 0, rss: 0.0 }
    }

    /// Issue 40: model 3's fits printed `×1.01 per n [1.01, 1.01]`, an interval of one value.
    #[test]
    fn a_factor_near_one_is_printed_as_a_percentage() {
        assert_eq!(fit_text(&fit(3.63, 3.26, 4.04)), "×3.63 per n [3.26, 4.04]");
        assert_eq!(fit_text(&fit(1.00431, 1.00365, 1.005)), "+0.431% per n [+0.365%, +0.5%]");
        assert_eq!(fit_text(&fit(0.9988, 0.998, 1.0004)), "-0.12% per n [-0.2%, +0.04%]");
        // One end far from 1: the factor, as before.
        assert_eq!(fit_text(&fit(1.05, 0.95, 1.2)), "×1.05 per n [0.95, 1.2]");
    }
}
