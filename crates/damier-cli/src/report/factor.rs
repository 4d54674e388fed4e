//! The factoring automaton's records and text: `factor N`, `factor sweep` and its `--replot`.

use std::path::PathBuf;

use damier::factor::run::Factoring;
use damier::factor::sweep::{Sweep, SweepSummary};

use crate::util::output::{Report, outln};

impl Report for Factoring {
    fn print_text(&self) -> anyhow::Result<()> {
        let n = self.n;
        if self.prime {
            outln!("{n} is prime (deterministic Miller-Rabin): no factorization a x b with 1 < a <= b")?;
        } else if let Some((lo, hi)) = self.factors {
            outln!("{n} = {lo} x {hi}")?;
            outln!(
                "absorbed at step {} after {} flips, {} s (checked by multiplication)",
                self.steps,
                self.flips,
                crate::util::number(self.seconds)
            )?;
        } else {
            outln!(
                "no factorization within {} steps ({} flips), {} s",
                self.steps,
                self.flips,
                crate::util::number(self.seconds)
            )?;
        }
        Ok(())
    }
}

impl Report for Sweep {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "seed {}, {} semiprimes per size, q = {} eps = {}",
            self.seed,
            self.samples,
            damier::util::given(self.q),
            damier::util::given(self.eps)
        )?;
        outln!("{}", HEADER)?;
        for p in &self.points {
            outln!("{}", row(p))?;
        }
        let show = |v: Option<f64>| {
            v.map_or("-".to_string(), |s| {
                format!("{} (x{} per bit)", crate::util::number(s), crate::util::number(s.exp2()))
            })
        };
        outln!("growth, doublings per bit: automaton median steps {}", show(self.steps_doublings_per_bit))?;
        outln!("  trial division time {}", show(self.trial_doublings_per_bit))?;
        outln!("  Pollard's rho time {}", show(self.rho_doublings_per_bit))?;
        // The SAT solver ran on every number or on none.
        if self.runs.iter().any(|r| r.sat_seconds.is_some()) {
            outln!("  SAT solver time {}", show(self.sat_doublings_per_bit))?;
        }
        Ok(())
    }
}

/// The header of the sweep's table, above its [`row`]s.
pub const HEADER: &str = "bits  runs  censored      mean steps    median steps   mean s (automaton)   trial division s   \
                      Pollard rho s       SAT s";

/// One size of a sweep as a line of its table.
pub fn row(p: &SweepSummary) -> String {
    let f = |v: Option<f64>| v.map_or("-".to_string(), crate::util::number);
    format!(
        "{:>4}  {:>4}  {:>8}  {:>14}  {:>14}  {:>19}  {:>17}  {:>14}  {:>10}",
        p.bits,
        p.runs,
        p.censored,
        f(p.mean_steps),
        f(p.median_steps),
        f(p.mean_seconds),
        crate::util::number(p.trial_seconds),
        crate::util::number(p.rho_seconds),
        f(p.sat_seconds)
    )
}

/// What `factor sweep --replot` prints: where the runs were read from and drawn to, and the
/// library's statistics of each size.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Replot {
    /// The CSV the runs were read from.
    pub csv: PathBuf,
    /// The figure drawn.
    pub plot: PathBuf,
    /// Runs read.
    pub runs: usize,
    /// Statistics per size, sizes increasing ([`damier::factor::sweep::summaries`]).
    pub points: Vec<SweepSummary>,
}

impl Report for Replot {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "{}: {} runs, {} sizes, drawn to {}",
            self.csv.display(),
            self.runs,
            self.points.len(),
            self.plot.display()
        )?;
        outln!("{}", HEADER)?;
        for p in &self.points {
            outln!("{}", row(p))?;
        }
        Ok(())
    }
}
