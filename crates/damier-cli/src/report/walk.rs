//! The pawn walk's records and text: `walk count`, `table`, `solve`, `export`, `replay`.

use std::io::Write;
use std::path::PathBuf;

use damier::walk::SolutionCount;
use damier::walk::path::{LeftBoard, ReplayRecord};

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

/// One solution with its path, as `walk solve --all` lists them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PathedSolution {
    /// The activation set's picture ([`damier::walk::picture`]).
    pub pattern: Vec<String>,
    /// The moves, `N`, `S`, `E`, `W`.
    pub path: String,
    /// Moves in the path.
    pub path_length: usize,
}

/// What `walk solve` prints: the count, one solution's picture and path when shown, the files
/// they were written to, or every solution.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Solve {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// `2^nullity`, in decimal.
    pub solutions: String,
    /// One solution's picture, when shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Vec<String>>,
    /// Its path, when shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Moves in its path.
    pub path_length: usize,
    /// The file the path was written to (`--out`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out: Option<PathBuf>,
    /// The file the activation set was written to (`--pattern`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern_file: Option<PathBuf>,
    /// Every solution, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all: Option<Vec<PathedSolution>>,
    /// The nullity (in the text).
    #[serde(skip)]
    pub nullity: usize,
    /// Cells of the solution shown (in the text).
    #[serde(skip)]
    pub activated: u64,
}

impl Report for Solve {
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
