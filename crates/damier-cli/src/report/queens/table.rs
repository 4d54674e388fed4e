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

/// The CSV's name of the other counter (docs/figures/counting_speed.csv; old files keep it):
/// printed in words, since only docs/performance.md defined it (issue 38, section 3).
pub(crate) const OTHER_COUNTER: &str = "anchor";

/// What the other counter is, under the speed table and in the figure's subtitle.
pub(crate) const OTHER_COUNTER_NOTE: &str = "fastest other counter: the fastest public n-queens counter known to us, \
     EvgenyKluev/N-Queens-Count-Sol (C++20, meet in the middle)";

/// A program of the speed table in words: the other counter by what it is, any other by its
/// CSV name.
pub(crate) fn program_words(program: &str) -> &str {
    if program == OTHER_COUNTER { "fastest other counter (C++)" } else { program }
}

/// A program's build in words: the other counter's compiler target (`native` is "built for
/// this CPU"), damier's vector unit as named.
pub(crate) fn build_words(program: &str, isa: &str) -> String {
    if program != OTHER_COUNTER {
        return isa.to_string();
    }
    match isa {
        "native" => "built for this CPU".to_string(),
        "haswell" => "built for AVX2".to_string(),
        "portable" => "built without vector units".to_string(),
        other => format!("built with -march={other}"),
    }
}

/// A program and its build in one label (the figure's legend, the ratios' lines).
pub(crate) fn program_and_build(program: &str, isa: &str) -> String {
    if program == OTHER_COUNTER {
        format!("{}, {}", program_words(program), build_words(program, isa))
    } else {
        format!("{program} {isa}")
    }
}

impl Report for SpeedTable {
    fn print_text(&self) -> anyhow::Result<()> {
        let program_width =
            self.rows.iter().map(|r| program_words(&r.program).len()).max().unwrap_or(0).max(7);
        let build_width =
            self.rows.iter().map(|r| build_words(&r.program, &r.isa).len()).max().unwrap_or(0).max(5);
        outln!(
            "{:>3}  {:<16} {:<program_width$} {:<build_width$} {:>12}  {:<9} {}",
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
                "{:>3}  {metric:<16} {:<program_width$} {:<build_width$} {:>12}  {source:<9} {}",
                r.n,
                program_words(&r.program),
                build_words(&r.program, &r.isa),
                number(r.value),
                r.date
            )?;
        }
        if !self.ratios.is_empty() {
            outln!("damier's CPU time over the other program's fastest, whole counts:")?;
            for r in &self.ratios {
                let other = program_and_build(&r.other_program, &r.other_isa);
                outln!("{:>3}  {:<10} {:>7}x  ({other})", r.n, r.isa, number(r.ratio))?;
            }
        }
        if self.rows.iter().any(|r| r.program == OTHER_COUNTER) {
            outln!("{OTHER_COUNTER_NOTE}")?;
        }
        Ok(())
    }
}
