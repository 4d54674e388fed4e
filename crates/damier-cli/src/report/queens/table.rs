//! The text of the tables of `queens timing` and `queens speed`.

use damier_bench::speed::{Metric, Source, SpeedTable};
use damier_bench::tables::QueensTiming;

use crate::util::number;
use crate::util::output::{Report, outln};

/// The table of `queens timing` (its JSON: the list of rows).
#[derive(serde::Serialize)]
#[serde(transparent)]
pub(crate) struct Table {
    pub(crate) rows: Vec<QueensTiming>,
    /// Largest n of the naive counter (the text says where it stopped).
    #[serde(skip)]
    pub(crate) naive_max: u32,
    /// Largest n.
    #[serde(skip)]
    pub(crate) to: u32,
}

impl Report for Table {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!("{:>3} {:>14} {:>14} {:>16}", "n", "naive (s)", "fast (s)", "solutions")?;
        for r in &self.rows {
            let naive = r.naive_seconds.map_or_else(|| "-".into(), number);
            outln!("{:>3} {naive:>14} {:>14} {:>16}", r.n, number(r.fast_seconds), r.total)?;
        }
        if self.to > self.naive_max {
            outln!("(the naive counter stops at n = {}: it grows like n!; see --naive-max)", self.naive_max)?;
        }
        Ok(())
    }
}

impl Report for SpeedTable {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "{:>3}  {:<16} {:<10} {:<16} {:>12}  {:<9} {}",
            "n",
            "metric",
            "program",
            "build",
            "value",
            "source",
            "date"
        )?;
        for r in &self.rows {
            let metric = match r.metric {
                Metric::CpuSeconds => "CPU seconds",
                Metric::NsPerSolution => "ns / solution",
            };
            let source = match r.source {
                Source::Measured => "measured",
                Source::Estimate => "estimate",
            };
            outln!(
                "{:>3}  {metric:<16} {:<10} {:<16} {:>12}  {source:<9} {}",
                r.n,
                r.program,
                r.isa,
                number(r.value),
                r.date
            )?;
        }
        if !self.ratios.is_empty() {
            outln!("damier's CPU time over the other program's fastest, whole counts:")?;
            for r in &self.ratios {
                outln!("{:>3}  {:<10} {}x  ({})", r.n, r.isa, number(r.ratio), r.other)?;
            }
        }
        Ok(())
    }
}
