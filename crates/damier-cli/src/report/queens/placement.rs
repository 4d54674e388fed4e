//! The text of placements: `queens first`, `list --random`, `solve` (none), `max`, `corners`
//! and `check`.

use std::io::Write;

use damier::queens::corners::{Corners, EXTEND_CONDITION, REDUCE_CONDITION, Side};
use damier::queens::max::{Max, Method};
use damier::queens::placement::{CheckReport, CheckedListing};
use damier::queens::sample;
use damier::queens::search::FirstSolution;
use damier::queens::solve::NoSolution;

use super::{BOARD_MAX, columns_line};
use crate::util::output::{self, Report, errln, out, outln};
use crate::util::plural;

impl Report for FirstSolution {
    fn print_text(&self) -> anyhow::Result<()> {
        match &self.placement {
            Some(p) => {
                outln!(
                    "n = {}: first solution S = {p} ({} placed, {} s)",
                    self.n,
                    crate::util::plural(self.nodes, "queen"),
                    crate::util::number(self.seconds)
                )?;
                if p.n() <= BOARD_MAX {
                    out!("{}", p.board())?;
                }
            }
            None => outln!("n = {}: no solution ({} queens placed)", self.n, self.nodes)?,
        }
        Ok(())
    }
}

/// The text of a draw: as the listing, or the columns alone (the header on stderr).
#[derive(serde::Serialize)]
#[serde(transparent)]
pub(crate) struct DrawnText<'a> {
    pub(crate) drawn: &'a sample::Drawn,
    #[serde(skip)]
    pub(crate) columns: bool,
    #[serde(skip)]
    pub(crate) boards: bool,
}

impl Report for DrawnText<'_> {
    fn print_text(&self) -> anyhow::Result<()> {
        let d = self.drawn;
        let mut out = output::stdout();
        if d.solutions.is_empty() {
            if self.columns {
                errln!("n = {}: no solution", d.n);
            } else {
                writeln!(out, "n = {}: no solution", d.n)?;
            }
        } else {
            let how = match d.sampler {
                sample::Sampler::Uniform => "uniformly among all solutions",
                sample::Sampler::LocalSearch => "by local search (random, not uniform)",
            };
            let header = format!("n = {}: {} solutions drawn {how}, seed {}", d.n, d.solutions.len(), d.seed);
            if self.columns {
                errln!("{header}");
                for p in &d.solutions {
                    writeln!(out, "{}", columns_line(&p.one_based()))?;
                }
            } else {
                writeln!(out, "{header}")?;
                for (i, p) in d.solutions.iter().enumerate() {
                    writeln!(out, "{}: {p}", i + 1)?;
                    if self.boards {
                        writeln!(out, "{}", p.board())?;
                    }
                }
            }
        }
        out.flush()?;
        Ok(())
    }
}

impl Report for NoSolution {
    /// Nothing on stdout: the command says it on stderr.
    fn print_text(&self) -> anyhow::Result<()> {
        Ok(())
    }
}

impl Report for Max {
    fn print_text(&self) -> anyhow::Result<()> {
        let m = self;
        let how = match m.method {
            Method::Search => "by exhaustive branch-and-bound search",
            Method::Construction => "by construction (a full solution; R(n) <= n)",
        };
        outln!("R({}) = {} ({how})", m.n, m.max)?;
        if m.n <= 1000 {
            if m.max == u64::from(m.n) {
                // A full placement, printed as `queens check` reads it back.
                let p = damier::queens::Placement::new(m.witness.iter().map(|c| c.unwrap_or(0)).collect())?;
                outln!("witness S = {p}")?;
            } else {
                let cols: Vec<String> =
                    m.witness.iter().map(|c| c.map_or(0, |c| u64::from(c) + 1).to_string()).collect();
                outln!("{} {}", damier::queens::placement::EMPTY_ROW_WITNESS, cols.join(" "))?;
            }
        }
        if m.n <= BOARD_MAX {
            for c in &m.witness {
                let row: Vec<&str> = (0..m.n).map(|j| if *c == Some(j) { "Q" } else { "." }).collect();
                outln!("{}", row.join(" "))?;
            }
        }
        Ok(())
    }
}

impl Report for Corners {
    fn print_text(&self) -> anyhow::Result<()> {
        let (n, m) = (self.n, self.n + 1);
        let show = |s: &Side| -> std::io::Result<()> {
            let [nw, ne, sw, se] = s.per_corner;
            outln!("  per corner: nw {nw}, ne {ne}, sw {sw}, se {se}; at least one corner: {}", s.any)?;
            for (corner, from, to) in &s.examples {
                let f: Vec<String> = from.one_based().iter().map(u64::to_string).collect();
                let t: Vec<String> = to.one_based().iter().map(u64::to_string).collect();
                outln!("  e.g. {}: ({}) -> ({})", corner.name(), f.join(", "), t.join(", "))?;
            }
            Ok(())
        };
        outln!(
            "Reduce: solutions of {m} that give a solution of {n} by removing a corner queen's row and column"
        )?;
        outln!("  condition: {REDUCE_CONDITION}")?;
        outln!("  {} of {m}", crate::util::plural(self.reduce.solutions, "solution"))?;
        show(&self.reduce)?;
        outln!("Extend: solutions of {n} that extend to {m} with a queen in a new corner")?;
        outln!("  condition: {EXTEND_CONDITION}")?;
        outln!("  {} of {n}", crate::util::plural(self.extend.solutions, "solution"))?;
        show(&self.extend)?;
        outln!("(per corner the two counts agree: removing and adding a corner queen are inverse maps)")?;
        Ok(())
    }
}

/// Most attacking pairs printed as text (JSON lists them all).
const PRINT_MAX: usize = 50;

impl Report for CheckReport {
    fn print_text(&self) -> anyhow::Result<()> {
        print_report(self, self.n.into(), "")
    }
}

/// The witness of `queens max` with empty rows checked: fewer queens than rows.
#[derive(serde::Serialize)]
#[serde(transparent)]
pub(crate) struct WitnessCheck {
    pub(crate) report: CheckReport,
    #[serde(skip)]
    pub(crate) queens: u64,
}

impl Report for WitnessCheck {
    fn print_text(&self) -> anyhow::Result<()> {
        print_report(&self.report, self.queens, "")
    }
}

impl Report for CheckedListing {
    fn print_text(&self) -> anyhow::Result<()> {
        for (i, r) in self.placements.iter().enumerate() {
            print_report(r, r.n.into(), &format!("{}: ", i + 1))?;
        }
        match self.placements.iter().filter(|r| !r.is_valid()).count() {
            0 => outln!("{} placements, all valid", self.count)?,
            bad => outln!("{} placements, {bad} invalid", self.count)?,
        }
        Ok(())
    }
}

/// The text lines of one report of `queens` queens; `prefix` names the placement when there
/// are several.
fn print_report(report: &CheckReport, queens: u64, prefix: &str) -> anyhow::Result<()> {
    let n = report.n;
    if report.is_valid() {
        let queens = plural(queens, "queen");
        outln!("{prefix}valid: {queens} on the {n}x{n} board, no two attack each other")?;
        return Ok(());
    }
    let pairs = report.attacks.len();
    outln!(
        "{prefix}invalid: {pairs} attacking {} on the {n}x{n} board",
        if pairs == 1 { "pair" } else { "pairs" }
    )?;
    for x in report.attacks.iter().take(PRINT_MAX) {
        outln!(
            "  queen at row {}, column {} and queen at row {}, column {}: {}",
            x.a.0 + 1,
            x.a.1 + 1,
            x.b.0 + 1,
            x.b.1 + 1,
            x.line
        )?;
    }
    if pairs > PRINT_MAX {
        outln!("  … and {} more (--json lists them all)", pairs - PRINT_MAX)?;
    }
    Ok(())
}
