//! The records: what a request answers, and their JSON as the command line's `--json` prints
//! it.

use std::io::Write;

use damier::lights::records::ExplainedStep;
use damier::lights::request;
use damier::queens::local::SearchStats;
use damier::queens::solve::{Method, Solution};
use serde::Serialize;

/// The answer of a request: what the command's `--json` prints, and whether it is a "yes"
/// (exit 0) or a "no" (exit 1: no solution, an invalid placement).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Record {
    /// `queens count`.
    Counts(damier::queens::count::TimedCounts),
    /// `queens count --share`.
    Share(damier::queens::count::ShareCount),
    /// `queens count` on the task list (a chosen engine, a sampled recount, a share of it).
    LongCount(damier::queens::count::long::LongCountResult),
    /// `queens list`: the listing.
    Listing(Vec<damier::queens::symmetry::Listed>),
    /// `queens list --random`.
    Drawn(damier::queens::sample::Drawn),
    /// `queens first`.
    First(damier::queens::search::FirstSolution),
    /// `queens solve`.
    Solved(Solved),
    /// `queens solve` of an n without solution.
    NoSolution(damier::queens::solve::NoSolution),
    /// `queens max`.
    Max(damier::queens::max::Max),
    /// `queens corners`.
    Corners(damier::queens::corners::Corners),
    /// `queens check` of one placement.
    Check(damier::queens::placement::CheckReport),
    /// `queens check` of several placements.
    Checks(damier::queens::placement::CheckedListing),
    /// `queens estimate`.
    Estimate(Box<damier::queens::count::estimate::EstimateRecord>),
    /// `lights solve`.
    LightsSolve(LightsSolved),
    /// `lights count`.
    LightsCount(damier::lights::sizes::SizeCount),
    /// `lights kernel`.
    LightsKernel(Kernel),
    /// `lights winnable`.
    LightsWinnable(damier::lights::records::Winnability),
    /// `lights table`.
    LightsTable(Vec<damier::lights::sizes::SquareRow>),
    /// `lights chase`.
    LightsChase(damier::lights::chase::ExplainedChase),
    /// `lights chase-table`.
    LightsChaseTable(damier::lights::chase::ChaseTable),
    /// `walk solve`.
    WalkSolve(WalkSolved),
    /// `walk count`.
    WalkCount(damier::walk::SolutionCount),
    /// `walk table`.
    WalkTable(Vec<damier::walk::SolutionCount>),
    /// `walk replay`.
    WalkReplay(damier::walk::path::ReplayRecord),
    /// `automaton run`.
    AutomatonRun(damier::automaton::experiment::RunRecord),
    /// `automaton run` of an n without solution: the record of its start, nothing run.
    AutomatonUnsolvable(damier::automaton::experiment::UnsolvableRun),
    /// `automaton trap`.
    AutomatonTrap(Box<damier::automaton::trap::TrapExperiment>),
}

impl Record {
    /// A "yes" (exit 0), or a "no" (exit 1) that still answers this record.
    pub fn yes(&self) -> bool {
        match self {
            Record::Counts(c) => c.total > 0,
            Record::Listing(l) => !l.is_empty(),
            Record::Drawn(d) => !d.solutions.is_empty(),
            Record::First(f) => f.placement.is_some(),
            Record::NoSolution(_) => false,
            Record::Check(c) => c.is_valid(),
            Record::Checks(c) => c.valid,
            Record::LightsSolve(s) => s.solvable,
            Record::LightsWinnable(w) => w.winnable,
            Record::LightsChase(c) => c.first_row.is_some(),
            Record::WalkReplay(r) => r.all_black,
            Record::AutomatonRun(r) => r.solved,
            Record::AutomatonUnsolvable(_) => false,
            Record::Share(_)
            | Record::LongCount(_)
            | Record::Solved(_)
            | Record::Max(_)
            | Record::Corners(_)
            | Record::Estimate(_)
            | Record::LightsCount(_)
            | Record::LightsKernel(_)
            | Record::LightsTable(_)
            | Record::LightsChaseTable(_)
            | Record::WalkSolve(_)
            | Record::WalkCount(_)
            | Record::WalkTable(_)
            | Record::AutomatonTrap(_) => true,
        }
    }

    /// Writes the JSON as `--json` prints it: pretty, with a final newline; a listing one
    /// solution a line; a solution's columns on one line, streamed (10^9 of them fit no
    /// vector).
    pub fn write_json(&self, w: &mut dyn Write) -> std::io::Result<()> {
        match self {
            Record::Listing(list) => {
                w.write_all(b"[")?;
                for (i, listed) in list.iter().enumerate() {
                    w.write_all(if i == 0 { b"\n  " } else { b",\n  " })?;
                    serde_json::to_writer(&mut *w, listed)?;
                }
                w.write_all(if list.is_empty() { b"]\n" } else { b"\n]\n" })
            }
            Record::Solved(s) => s.write_json(w),
            other => {
                serde_json::to_writer_pretty(&mut *w, other)?;
                w.write_all(b"\n")
            }
        }
    }

    /// [`Record::write_json`] as a string.
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        // Writing to a vector fails only on a serializer's error, which these records have not.
        let _ = self.write_json(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// A solution of `queens solve`: its JSON is the command line's, columns 1-based on one line.
#[derive(Debug)]
pub struct Solved {
    /// How it was found.
    pub method: Method,
    /// The seed of the local search.
    pub seed: Option<u64>,
    /// The local search's figures.
    pub search: Option<SearchStats>,
    /// Seconds to find and check it.
    pub seconds: f64,
    /// The solution (the construction's columns computed when written, never stored).
    pub solution: Solution,
}

impl Solved {
    /// The 1-based column of 0-based `row` (0: none).
    fn one_based(&self, row: u32) -> u64 {
        self.solution.column(row).map_or(0, |c| u64::from(c) + 1)
    }

    /// Writes the JSON up to the columns' opening bracket, `{"n", "method", "seed", "search",
    /// "seconds", "columns": [`, for a writer that streams the columns itself (then `]\n}\n`).
    pub fn write_json_head(&self, w: &mut dyn Write) -> std::io::Result<()> {
        let n = self.solution.n();
        write!(w, "{{\n  \"n\": {n},\n  \"method\": \"{}\",\n", self.method.name())?;
        if let Some(seed) = self.seed {
            writeln!(w, "  \"seed\": {seed},")?;
        }
        if let Some(stats) = &self.search {
            writeln!(w, "  \"search\": {},", serde_json::to_string(stats)?)?;
        }
        write!(w, "  \"seconds\": {},\n  \"columns\": [", self.seconds)
    }

    /// Writes `{"n", "method", "seed", "search", "seconds", "columns"}` as the command line
    /// does, the columns streamed.
    pub fn write_json(&self, w: &mut dyn Write) -> std::io::Result<()> {
        let n = self.solution.n();
        self.write_json_head(w)?;
        for row in 0..n {
            if row > 0 {
                w.write_all(b", ")?;
            }
            write!(w, "{}", self.one_based(row))?;
        }
        w.write_all(b"]\n}\n")
    }
}

impl serde::Serialize for Solved {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("n", &self.solution.n())?;
        m.serialize_entry("method", self.method.name())?;
        if let Some(seed) = self.seed {
            m.serialize_entry("seed", &seed)?;
        }
        if let Some(stats) = &self.search {
            m.serialize_entry("search", stats)?;
        }
        m.serialize_entry("seconds", &self.seconds)?;
        let columns: Vec<u64> = (0..self.solution.n()).map(|r| self.one_based(r)).collect();
        m.serialize_entry("columns", &columns)?;
        m.end()
    }
}

/// Press patterns are listed up to this many cells; beyond, only the summary. The limit of a
/// listing of every solution too ([`damier::lights::ALL_MAX_CELLS`]).
pub const PRINT_MAX_CELLS: usize = damier::lights::ALL_MAX_CELLS as usize;

/// What `lights solve` answers: the library's solve (verified), the random start it drew, the
/// fewest presses, every solution or the elimination when asked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LightsSolved {
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// Nullity of the press matrix.
    pub nullity: usize,
    /// The start reaches the target.
    pub solvable: bool,
    /// Number of solutions, in decimal (`0` or `2^nullity`).
    pub solutions: String,
    /// The presses shown, rows of 0/1 (none when too large to print or not asked for).
    pub presses: Option<Vec<String>>,
    /// Presses in the solution shown.
    pub press_count: Option<u64>,
    /// The file the presses were written to (the command line's `--out`; never a request's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out: Option<std::path::PathBuf>,
    /// The random seed of a random start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The random start, rows of 0/1, when small enough to print.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<Vec<String>>,
    /// With the fewest presses asked for: whether they are proven fewest (exact search).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_min: Option<bool>,
    /// Every solution, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all: Option<Vec<Vec<String>>>,
    /// The elimination step by step, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<ExplainedStep>>,
    /// Seconds of solving.
    pub seconds: f64,
}

impl LightsSolved {
    /// The record of `solved`, solved in `seconds` from the random start drawn from `seed`
    /// (`None`: a start given or all on). The boards are shown up to
    /// [`PRINT_MAX_CELLS`] cells, unless `summary` or the presses were written
    /// to the file `out`; the random start not either when it was saved to a file
    /// (`start_saved`).
    pub fn of(
        solved: &request::Solved,
        seed: Option<u64>,
        seconds: f64,
        summary: bool,
        out: Option<&std::path::Path>,
        start_saved: bool,
    ) -> LightsSolved {
        let rows = |b: &damier::board::Board| b.to_rows('1', '0');
        let (w, h) = (solved.start.width(), solved.start.height());
        let (nullity, solvable, presses) = (solved.nullity, solved.solvable(), solved.presses.as_ref());
        let printable = !summary && out.is_none() && w * h <= PRINT_MAX_CELLS;
        LightsSolved {
            width: w,
            height: h,
            nullity,
            solvable,
            solutions: if solvable {
                damier::lights::power_of_two_decimal(nullity as u64)
            } else {
                "0".into()
            },
            press_count: presses.map(damier::board::Board::count_ones),
            presses: presses.filter(|_| printable).map(rows),
            out: out.map(std::path::Path::to_path_buf).filter(|_| presses.is_some()),
            seed,
            // Written to a file, or only summed up, a start is not printed: a 2000 x 2000 one
            // is 4 MB.
            start: seed.filter(|_| printable && !start_saved).map(|_| rows(&solved.start)),
            exact_min: solved.exact_min,
            all: solved.all.as_ref().map(|list| list.iter().map(rows).collect()),
            steps: solved.steps.as_ref().map(|st| st.iter().map(ExplainedStep::of).collect()),
            seconds,
        }
    }
}

/// What `lights kernel` answers: a basis of the neutral configurations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Kernel {
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// The nullity (basis vectors).
    pub nullity: usize,
    /// The basis, each vector as rows of 0/1; `None` where the command line wrote it to files
    /// instead (its record names them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub basis: Option<Vec<Vec<String>>>,
}

impl Kernel {
    /// `basis`, a basis of the kernel of `size`, as rows of 0/1.
    pub fn listed(size: damier::board::Size, basis: &[damier::board::Board]) -> Kernel {
        Kernel {
            width: size.width(),
            height: size.height(),
            nullity: basis.len(),
            basis: Some(basis.iter().map(|b| b.to_rows('1', '0')).collect()),
        }
    }

    /// The kernel of `size`, of `nullity` vectors, its basis not listed.
    pub fn unlisted(size: damier::board::Size, nullity: usize) -> Kernel {
        Kernel { width: size.width(), height: size.height(), nullity, basis: None }
    }
}

/// One solution with its path, as `walk solve --all` lists them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathedSolution {
    /// The activation set's picture ([`damier::walk::picture`]).
    pub pattern: Vec<String>,
    /// The moves, `N`, `S`, `E`, `W`.
    pub path: String,
    /// Moves in the path.
    pub path_length: usize,
}

/// What `walk solve` answers: the count, one solution's picture and path when shown, the
/// files the command line wrote them to, or every solution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WalkSolved {
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
    /// The file the path was written to (the command line's `--out`; never a request's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out: Option<std::path::PathBuf>,
    /// The file the activation set was written to (the command line's `--pattern`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern_file: Option<std::path::PathBuf>,
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
