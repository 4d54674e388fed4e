//! The pawn walk's records and text: `walk count`, `table`, `solve`, `export`, `replay`.

use damier::walk::SolutionCount;
use damier::walk::path::{LeftBoard, ReplayRecord};
use damier_api::WalkSolved;
use std::io::Write;

use crate::util::output::{self, Report, outln};
use crate::util::plural;

impl Report for SolutionCount {
    fn print_text(&self) -> anyhow::Result<()> {
        let plural = if self.solutions == "1" { "" } else { "s" };
        outln!("{} x {}: {} solution{plural} (2^{})", self.rows, self.cols, self.solutions, self.nullity)?;
        Ok(())
    }
}

/// The table of `walk table` (its JSON: the list of counts).
impl Report for Vec<SolutionCount> {
    fn print_text(&self) -> anyhow::Result<()> {
        let mut out = output::stdout();
        writeln!(out, "{:>9}  {:>7}  solutions", "board", "nullity")?;
        for r in self {
            writeln!(out, "{:>9}  {:>7}  {}", format!("{}x{}", r.rows, r.cols), r.nullity, r.solutions)?;
        }
        out.flush()?;
        Ok(())
    }
}

/// What `walk solve` prints: the request layer's record ([`damier_api::WalkSolved`]).
impl Report for WalkSolved {
    fn print_text(&self) -> anyhow::Result<()> {
        let mut out = output::stdout();
        writeln!(
            out,
            "{} x {}: {} solution{} (2^{})",
            self.rows,
            self.cols,
            self.solutions,
            if self.solutions == "1" { "" } else { "s" },
            self.nullity
        )?;
        let print_one =
            |out: &mut dyn Write, pattern: &[String], path: &str, activated: usize| -> anyhow::Result<()> {
                for line in pattern {
                    writeln!(out, "{line}")?;
                }
                writeln!(
                    out,
                    "path: {} for {}",
                    plural(path.len() as u64, "move"),
                    plural(activated as u64, "activated cell")
                )?;
                writeln!(out, "{path}")?;
                Ok(())
            };
        if let Some(p) = &self.pattern_file {
            writeln!(out, "activation set written to {}", p.display())?;
        }
        match &self.all {
            None if self.out.is_some() => {
                let f = self.out.as_ref().expect("--out");
                let activated = self.activated;
                writeln!(
                    out,
                    "path: {} for {}, written to {}",
                    plural(self.path_length as u64, "move"),
                    plural(activated, "activated cell"),
                    f.display()
                )?;
            }
            None => {
                writeln!(out, "one solution ('#' = landed on an odd number of times, top row first):")?;
                let (pattern, path) =
                    (self.pattern.as_deref().unwrap_or_default(), self.path.as_deref().unwrap_or_default());
                print_one(&mut out, pattern, path, self.activated as usize)?;
            }
            Some(list) => {
                for (i, s) in list.iter().enumerate() {
                    writeln!(out, "solution {}:", i + 1)?;
                    let activated = s.pattern.iter().map(|l| l.matches('#').count()).sum();
                    print_one(&mut out, &s.pattern, &s.path, activated)?;
                }
            }
        }
        out.flush()?;
        Ok(())
    }
}

/// What `walk export` wrote: the folder and the number of files.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Archive {
    /// The folder.
    pub dir: String,
    /// Files written, one per board size.
    pub files: usize,
}

impl Report for Archive {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!("wrote {} files to {}", self.files, self.dir)?;
        Ok(())
    }
}

/// What `walk replay` prints: the library's summary of the replay, and the final board's
/// picture for `--show` (`#` black, `_` white, top row first; in the text only).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Replay {
    /// The replay.
    #[serde(flatten)]
    pub record: ReplayRecord,
    /// The final board's picture, when shown.
    #[serde(skip)]
    pub board: Option<Vec<String>>,
}

impl Report for Replay {
    fn print_text(&self) -> anyhow::Result<()> {
        let mut out = output::stdout();
        let r = &self.record;
        let moves = plural(r.moves as u64, "move");
        match &r.left_board {
            Some(LeftBoard { step, mv, row, col }) => {
                writeln!(out, "move {step} ({mv}) leaves the board from row {row}, column {col}")?
            }
            None if r.all_black => writeln!(out, "all black after {moves}")?,
            None => {
                let stay =
                    if r.white == 1 { "1 cell stays".to_string() } else { format!("{} cells stay", r.white) };
                writeln!(out, "{stay} white after {moves}")?
            }
        }
        for line in self.board.iter().flatten() {
            writeln!(out, "{line}")?;
        }
        out.flush()?;
        Ok(())
    }
}
