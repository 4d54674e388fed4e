//! Lights Out's records and text: `lights solve`, `winnable`, `chase`, `chase-table`, and the
//! answers that depend on the size only, `count`, `kernel`, `table`.

use std::path::PathBuf;

use damier::board::{Board, Size};
use damier::lights;
use damier::lights::chase::{ChaseTable, ExplainedChase};
use damier::lights::records::Winnability;
use damier::lights::sizes::{SizeCount, SquareRow};

use crate::util::output::{Report, outln};

impl Report for SizeCount {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "{}x{}: nullity {}; {} way{} from all-on to all-off; {}",
            self.width,
            self.height,
            self.nullity,
            self.solutions,
            if self.nullity == 0 { "" } else { "s" },
            // "1/1 of the starts" read oddly (issue 38, section 3).
            if self.nullity == 0 {
                "every start is winnable".to_string()
            } else {
                format!("{} of the starts are winnable", self.winnable_fraction)
            }
        )?;
        Ok(())
    }
}

/// The square table (its JSON: the list of rows).
impl Report for Vec<SquareRow> {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!("{:>5}  solutions (from all on to all off, on L x L)", "L")?;
        for r in self {
            outln!("{:>5}  {}", r.size, r.solutions)?;
        }
        Ok(())
    }
}

/// What `lights kernel` prints: the request layer's record (a basis of the kernel of a size,
/// as rows of 0/1), or, with `--out`, the files the basis was written to instead.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Kernel {
    /// The answer, as the lab answers it too (the basis left out when written to files).
    #[serde(flatten)]
    pub record: damier_api::Kernel,
    /// The files the basis was written to (`--out`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<PathBuf>>,
    /// The folder of those files (in the text, which names it even when no file was written).
    #[serde(skip)]
    pub folder: Option<PathBuf>,
}

impl Kernel {
    /// `basis`, a basis of the kernel of `size`, printed as rows of 0/1.
    pub fn listed(size: Size, basis: &[Board]) -> Kernel {
        Kernel { record: damier_api::Kernel::listed(size, basis), files: None, folder: None }
    }

    /// A basis of `nullity` vectors written to `files` in `folder`.
    pub fn written(size: Size, nullity: usize, folder: PathBuf, files: Vec<PathBuf>) -> Kernel {
        Kernel {
            record: damier_api::Kernel::unlisted(size, nullity),
            files: Some(files),
            folder: Some(folder),
        }
    }
}

impl Report for Kernel {
    fn print_text(&self) -> anyhow::Result<()> {
        let (w, h, k) = (self.record.width, self.record.height, self.record.nullity);
        outln!("{w}x{h}: nullity {k} ({} neutral configurations)", lights::power_of_two_decimal(k as u64))?;
        if let (Some(dir), Some(files)) = (&self.folder, &self.files) {
            outln!("basis written to {} ({} files kernel-{w}x{h}-K.pbm)", dir.display(), files.len())?;
        }
        for (i, v) in self.record.basis.iter().flatten().enumerate() {
            outln!("basis vector {}:", i + 1)?;
            for r in v {
                outln!("{r}")?;
            }
        }
        Ok(())
    }
}

/// What `lights solve` prints: the request layer's record (the JSON), with what only the text
/// says: whether the random start was drawn winnable, and the file it was saved to.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Solve {
    /// The answer, as the lab answers it too.
    #[serde(flatten)]
    pub record: damier_api::LightsSolved,
    /// The random start was drawn winnable (`--winnable`; in the text).
    #[serde(skip)]
    pub winnable: bool,
    /// The file the random start was saved to (`--save-start`; in the text).
    #[serde(skip)]
    pub start_file: Option<PathBuf>,
}

impl std::ops::Deref for Solve {
    type Target = damier_api::LightsSolved;

    fn deref(&self) -> &damier_api::LightsSolved {
        &self.record
    }
}

impl Solve {
    /// What was solved and the answer, in one line: "random winnable start, seed 5, written to
    /// big.pbm; 2000x2000 board, nullity 0: 1 solution; N presses written to presses.pbm". With a file written (`--save-start`, `--out`) this line is the whole
    /// summary (issue 38: five lines, and before that a 4 MB start, for one answer).
    fn one_line(&self) -> String {
        let mut parts = Vec::new();
        if let (Some(seed), Some(path)) = (self.seed, &self.start_file) {
            let kind = if self.winnable { "random winnable start" } else { "random start" };
            parts.push(format!("{kind}, seed {seed}, written to {}", path.display()));
        }
        let board = format!("{}x{} board, nullity {}", self.width, self.height, self.nullity);
        if !self.solvable {
            parts.push(format!("{board}: no solution (the start cannot reach the target)"));
            return parts.join("; ");
        }
        let s = if self.solutions == "1" { "" } else { "s" };
        parts.push(format!("{board}: {} solution{s}", self.solutions));
        if self.all.is_none() {
            let n = self.press_count.unwrap_or(0);
            let which = match self.exact_min {
                Some(true) => " (fewest)",
                Some(false) => " (few: heuristic above nullity 30, not proven fewest)",
                None => "",
            };
            let presses = if n == 1 { "press" } else { "presses" };
            parts.push(match &self.out {
                Some(path) => format!("{n} {presses}{which} written to {}", path.display()),
                None => format!("{n} {presses}{which}"),
            });
        }
        parts.join("; ")
    }

    fn print_steps(&self) -> std::io::Result<()> {
        let Some(steps) = &self.steps else { return Ok(()) };
        outln!(
            "unknown x_k: press cell k; equation L_k: the light of cell k (cells numbered from 1, \
             row by row from the top left); each row is [matrix | right-hand side]"
        )?;
        for s in steps {
            let k = s.column;
            match s.pivot_row {
                Some(r) => outln!("column {k}: pivot row L{r}")?,
                None => outln!("column {k}: no pivot (free unknown x{k})")?,
            }
            for op in &s.ops {
                outln!("  {op}")?;
            }
            for line in &s.matrix {
                outln!("  {line}")?;
            }
        }
        Ok(())
    }

    fn print_all(&self) -> std::io::Result<()> {
        for (i, s) in self.all.iter().flatten().enumerate() {
            outln!("solution {}:", i + 1)?;
            for r in s {
                outln!("{r}")?;
            }
        }
        Ok(())
    }
}

impl Report for Solve {
    fn print_text(&self) -> anyhow::Result<()> {
        if self.start_file.is_some() || self.out.is_some() {
            // A file was written: one line, then only what was asked for on stdout (the
            // steps, every solution, or the presses when not written and small enough).
            self.print_steps()?;
            outln!("{}", self.one_line())?;
            self.print_all()?;
            for r in self.presses.iter().flatten() {
                outln!("{r}")?;
            }
            return Ok(());
        }
        if let Some(seed) = self.seed {
            let kind = if self.winnable { "random winnable start" } else { "random start" };
            match &self.start {
                Some(start) => {
                    outln!("{kind}, seed {seed}:")?;
                    for r in start {
                        outln!("{r}")?;
                    }
                }
                None => outln!("{kind}, seed {seed}")?,
            }
        }
        self.print_steps()?;
        if self.solvable {
            outln!(
                "{}x{} board, nullity {}: {} solution{}",
                self.width,
                self.height,
                self.nullity,
                self.solutions,
                if self.solutions == "1" { "" } else { "s" }
            )?;
            if self.all.is_some() {
                self.print_all()?;
            } else {
                let label = match self.exact_min {
                    Some(true) => "fewest presses",
                    Some(false) => "few presses (heuristic: nullity above 30, not proven fewest)",
                    None => "presses",
                };
                outln!("{label}: {}", self.press_count.unwrap_or(0))?;
                for r in self.presses.iter().flatten() {
                    outln!("{r}")?;
                }
            }
        } else {
            outln!(
                "{}x{} board, nullity {}: no solution (the start cannot reach the target)",
                self.width,
                self.height,
                self.nullity
            )?;
        }
        Ok(())
    }
}

impl Report for Winnability {
    fn print_text(&self) -> anyhow::Result<()> {
        let yes = |b: bool| if b { "yes" } else { "no" };
        outln!(
            "{}x{}: winnable: {} (orthogonal to the {} kernel vectors: {}; solving: {})",
            self.width,
            self.height,
            yes(self.winnable),
            self.nullity,
            yes(self.by_orthogonality),
            yes(self.by_solving)
        )?;
        Ok(())
    }
}

impl Report for ExplainedChase {
    fn print_text(&self) -> anyhow::Result<()> {
        let w = self.down.width();
        let show = w <= CHASE_PRINT_MAX_WIDTH;
        let bits = |words: &[u64]| -> String {
            (0..w).map(|i| if (words[i / 64] >> (i % 64)) & 1 == 1 { '1' } else { '0' }).collect()
        };
        outln!("1. chase down (press under every light, row after row); presses:")?;
        if show {
            print_board(&self.down)?;
            outln!("   board after chasing:")?;
            print_board(&self.after)?;
        }
        outln!("   lights left on the last row: {}", bits(&self.last_row))?;
        match (&self.first_row, &self.presses) {
            (Some(f), Some(full)) => {
                outln!("2. press the first row {}, then chase again", bits(f))?;
                outln!("3. total presses ({}):", full.count_ones())?;
                if show {
                    print_board(full)?;
                }
            }
            _ => outln!("2. no first row fixes this last row: the board is not winnable")?,
        }
        Ok(())
    }
}

impl Report for ChaseTable {
    fn print_text(&self) -> anyhow::Result<()> {
        let (w, h) = (self.size.width(), self.size.height());
        let bits = |v: &damier::gf2::BitVec| -> String {
            v.to_bools().iter().map(|&b| if b { '1' } else { '0' }).collect()
        };
        outln!(
            "{w}x{h}: after chasing, {} nonzero last rows can be fixed (rank {}); any other last row means no solution",
            lights::power_of_two_minus_one_decimal(self.rank as u64),
            self.rank
        )?;
        match &self.entries {
            Some(e) => {
                outln!("last row -> press on the first row (fewest presses), then chase again")?;
                for (l, f) in e {
                    outln!("{}  ->  {}", bits(l), bits(f))?;
                }
            }
            None => {
                outln!(
                    "too many to list; generators (first-row press -> last row it changes; combine by XOR):"
                )?;
                for (j, g) in self.generators.iter().enumerate() {
                    let mut f = damier::gf2::BitVec::zeros(w);
                    f.set(j, true);
                    outln!("{}  ->  {}", bits(&f), bits(g))?;
                }
            }
        }
        Ok(())
    }
}

/// Boards are printed in the step-by-step chase up to this width.
const CHASE_PRINT_MAX_WIDTH: usize = 80;

fn print_board(b: &Board) -> std::io::Result<()> {
    for r in b.to_rows('1', '0') {
        outln!("{r}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listed_kernel_shows_each_vector_as_rows() {
        let size = Size::new(5, 5).unwrap();
        let basis = lights::sizes::neutral_basis(size, &damier::control::Control::new()).unwrap();
        let kernel = Kernel::listed(size, &basis);
        let k = kernel.record;
        assert_eq!((k.width, k.height, k.nullity), (5, 5, 2));
        assert_eq!(k.basis.unwrap()[0], basis[0].to_rows('1', '0'));
    }
}
