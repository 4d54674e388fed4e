//! Counting speed measured by hand: damier on each vector unit beside other public counters,
//! whole counts timed and projections from timed tasks, as a table (`damier queens speed`,
//! which reads them from a CSV and draws the speed figure) with the ratio of damier's time
//! to the fastest other program's wherever both timed the whole count.
//!
//! ```
//! use damier_bench::speed::{Measurement, Metric, Source, SpeedTable};
//!
//! let row = |program: &str, isa: &str, value| Measurement {
//!     program: program.into(),
//!     isa: isa.into(),
//!     n: 16,
//!     metric: Metric::CpuSeconds,
//!     value,
//!     source: Source::Measured,
//!     date: "2026-11-25".into(),
//!     build: "a1b2c3d".into(),
//!     command: "...".into(),
//! };
//! let table = SpeedTable::new(vec![row("other", "-O3", 2.0), row("damier", "avx2", 1.0)]);
//! assert_eq!(table.rows[0].program, "damier"); // sorted by metric, n, program, build
//! assert_eq!((table.ratios[0].other.as_str(), table.ratios[0].ratio), ("other -O3", 0.5));
//! // q(16) = 14 772 512 solutions in a second: about 67.7 ns each.
//! assert_eq!(table.rows[0].ns_per_solution().map(f64::round), Some(68.0));
//! ```

use std::collections::BTreeMap;

use damier::queens::count::known::known_total;

/// What a measurement measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// CPU seconds of the whole count of q(n), on one core.
    CpuSeconds,
    /// CPU nanoseconds per solution of q(n).
    NsPerSolution,
}

/// How a measurement's value was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Timed on a whole count.
    Measured,
    /// Projected by `damier queens estimate` from timed tasks.
    Estimate,
}

/// One measurement.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Measurement {
    /// `damier`, or the other program's name.
    pub program: String,
    /// The vector unit (`avx512`, `avx2`, `portable`), or the other program's build.
    pub isa: String,
    /// Board size.
    pub n: u32,
    /// What `value` is.
    pub metric: Metric,
    /// The figure, in the metric's unit.
    pub value: f64,
    /// Measured or estimated.
    pub source: Source,
    /// Day of the measurement, `YYYY-MM-DD`.
    pub date: String,
    /// The build measured (a commit, or the other program's compiler flags).
    pub build: String,
    /// The command that measured it.
    pub command: String,
}

impl Measurement {
    /// CPU nanoseconds per solution: the value itself, or a whole count's seconds over q(n)
    /// (OEIS A000170; `None` where q(n) is not known, or 0).
    pub fn ns_per_solution(&self) -> Option<f64> {
        match self.metric {
            Metric::CpuSeconds => known_total(self.n).filter(|&q| q > 0).map(|q| self.value * 1e9 / q as f64),
            Metric::NsPerSolution => Some(self.value),
        }
    }

    /// Timed on a whole count, in CPU seconds: what the ratios compare.
    fn whole_count(&self) -> bool {
        self.metric == Metric::CpuSeconds && self.source == Source::Measured
    }
}

/// damier's time over the other program's, for one n and vector unit (both measured).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Ratio {
    /// Board size.
    pub n: u32,
    /// damier's vector unit.
    pub isa: String,
    /// The other program and its build (the fastest one at this n), as the CSV names them.
    pub other: String,
    /// damier's CPU seconds over the other program's.
    pub ratio: f64,
    /// The other program, as the CSV names it (for a front end to word it; in `other`).
    #[serde(skip)]
    pub other_program: String,
    /// The other program's build, as the CSV names it (in `other`).
    #[serde(skip)]
    pub other_isa: String,
}

/// The measurements and the ratios (the JSON of `damier queens speed`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SpeedTable {
    /// The measurements, by metric, n, program and build.
    pub rows: Vec<Measurement>,
    /// Per n and damier vector unit, damier's time over the fastest other program's.
    pub ratios: Vec<Ratio>,
}

impl SpeedTable {
    /// The table of `rows`, sorted, with their ratios.
    pub fn new(mut rows: Vec<Measurement>) -> SpeedTable {
        rows.sort_by(|x, y| (x.metric, x.n, &x.program, &x.isa).cmp(&(y.metric, y.n, &y.program, &y.isa)));
        let ratios = ratios(&rows);
        SpeedTable { rows, ratios }
    }
}

/// The ratios damier / other program, per n and damier vector unit, where both measured the
/// whole count's CPU time (the other program's fastest build at that n).
fn ratios(rows: &[Measurement]) -> Vec<Ratio> {
    let mut best_other: BTreeMap<u32, &Measurement> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.whole_count() && r.program != "damier") {
        let e = best_other.entry(r.n).or_insert(r);
        if r.value < e.value {
            *e = r;
        }
    }
    rows.iter()
        .filter(|r| r.whole_count() && r.program == "damier")
        .filter_map(|r| {
            let other = best_other.get(&r.n)?;
            Some(Ratio {
                n: r.n,
                isa: r.isa.clone(),
                other: format!("{} {}", other.program, other.isa),
                ratio: r.value / other.value,
                other_program: other.program.clone(),
                other_isa: other.isa.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(program: &str, isa: &str, n: u32, metric: Metric, value: f64, source: Source) -> Measurement {
        Measurement {
            program: program.into(),
            isa: isa.into(),
            n,
            metric,
            value,
            source,
            date: "2026-11-25".into(),
            build: String::new(),
            command: String::new(),
        }
    }

    #[test]
    fn ratios_compare_whole_counts_with_the_fastest_other_build() {
        use Metric::*;
        use Source::*;
        let table = SpeedTable::new(vec![
            row("damier", "avx2", 17, CpuSeconds, 3.0, Measured),
            row("other", "-O2", 17, CpuSeconds, 8.0, Measured),
            row("other", "-O3", 17, CpuSeconds, 6.0, Measured),
            row("damier", "avx512", 17, CpuSeconds, 1.5, Measured),
            // Not compared: an estimate, a per-solution figure, an n the other did not time.
            row("damier", "avx2", 18, CpuSeconds, 9.0, Estimate),
            row("other", "-O3", 18, CpuSeconds, 20.0, Estimate),
            row("damier", "avx2", 17, NsPerSolution, 30.0, Measured),
            row("damier", "avx2", 16, CpuSeconds, 1.0, Measured),
        ]);
        let got: Vec<(u32, &str, &str, f64)> =
            table.ratios.iter().map(|r| (r.n, r.isa.as_str(), r.other.as_str(), r.ratio)).collect();
        assert_eq!(got, [(17, "avx2", "other -O3", 0.5), (17, "avx512", "other -O3", 0.25)]);
        let order: Vec<(Metric, u32, &str, &str)> =
            table.rows.iter().map(|r| (r.metric, r.n, r.program.as_str(), r.isa.as_str())).collect();
        assert_eq!(
            order[..3],
            [
                (CpuSeconds, 16, "damier", "avx2"),
                (CpuSeconds, 17, "damier", "avx2"),
                (CpuSeconds, 17, "damier", "avx512")
            ]
        );
        assert_eq!(order.last(), Some(&(NsPerSolution, 17, "damier", "avx2")));
        // q(17) = 95 815 104: 3 s is about 31.3 ns per solution; past the known terms, none.
        let per = table.rows[1].ns_per_solution().unwrap();
        assert!((per - 3e9 / 95_815_104.0).abs() < 1e-9);
        assert_eq!(row("damier", "avx2", 28, CpuSeconds, 1.0, Estimate).ns_per_solution(), None);
        assert_eq!(row("damier", "avx2", 28, NsPerSolution, 7.0, Estimate).ns_per_solution(), Some(7.0));
        assert_eq!(row("damier", "avx2", 3, CpuSeconds, 1.0, Measured).ns_per_solution(), None);
    }
}
