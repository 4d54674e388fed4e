//! The pawn walk: the requests of `walk solve`, `count`, `table` and `replay`, their bounds,
//! and their runs on the library; and the reading of what `walk solve` prints, which `walk
//! replay` takes back.

use damier::board::{Board, Size};
use damier::control::Control;
use damier::walk::path::{self, ReplayRecord, Replayer};
use damier::walk::{self, Method, Solutions, WalkError, picture};
use serde::Deserialize;

use crate::de;
use crate::fields::{Fields, Refused, UpTo, WRITES};
use crate::host::Host;
use crate::lights::BOARD_MAX_SIDE;
use crate::queens::at_most;
use crate::records::{PathedSolution, Record, WalkSolved};
use crate::refusal::Refusal;

/// Largest square side of `walk table` (the command line's range).
const TABLE_MAX_SIDE: u64 = 300;
/// The default largest side of `walk table`.
const TABLE_TO: u64 = 20;

/// Refuses a board wider or taller than [`BOARD_MAX_SIDE`] (the Lights Out commands' bound).
fn sides(rows: usize, cols: usize) -> Result<(), Refusal> {
    at_most("rows", rows as u64, BOARD_MAX_SIDE)?;
    at_most("cols", cols as u64, BOARD_MAX_SIDE)
}

/// The solver of the field `method` (`fast` when `None`).
fn method(name: Option<&str>) -> Result<Method, Refusal> {
    let method = name.map(str::parse::<Method>).transpose();
    Ok(method.map_err(|e| Refusal::Input(format!("field `method`: {e}")))?.unwrap_or(Method::Fast))
}

/// The path of `activation` on `board`, checked by replaying it cell by cell.
pub fn checked_path(board: Size, activation: &Board, control: &Control) -> Result<String, WalkError> {
    Ok(path::into_string(path::solution_path(board, activation, control)?))
}

/// Every solution of `sols` with its path, as `walk solve --all` lists them (the listing's
/// size checked first: [`walk::check_listing`]).
pub fn pathed_solutions(
    board: Size,
    sols: &Solutions,
    control: &Control,
) -> Result<Vec<PathedSolution>, WalkError> {
    let all = sols.all()?;
    let mut list = Vec::with_capacity(all.len());
    for g in all {
        if control.cancelled() {
            return Err(damier::control::Interrupted.into());
        }
        let p = checked_path(board, &g, control)?;
        list.push(PathedSolution { pattern: picture(&g), path_length: p.len(), path: p });
    }
    Ok(list)
}

/// The fields of `walk solve`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solve {
    /// Rows (L).
    #[serde(deserialize_with = "de::int")]
    pub rows: usize,
    /// Columns (C).
    #[serde(deserialize_with = "de::int")]
    pub cols: usize,
    /// The solver: `brute`, `rows`, `fast` (the default) or `poly`.
    #[serde(default, deserialize_with = "de::opt_text")]
    pub method: Option<String>,
    /// Every solution, each with its path.
    #[serde(default, deserialize_with = "de::flag")]
    pub all: bool,
}

impl Fields for Solve {
    const FIELDS: &'static [&'static str] = &["rows", "cols", "method", "all"];
    const REFUSED: Refused = &[("out", WRITES), ("pattern", WRITES)];

    fn check(&self) -> Result<(), Refusal> {
        method(self.method.as_deref()).map(|_| ())
    }
}

impl Solve {
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        sides(self.rows, self.cols)
    }
}

/// `walk solve`: the number of solutions, one solution's picture and path, or every solution.
pub(crate) fn solve(r: &Solve, host: &dyn Host) -> Result<Record, Refusal> {
    let method = method(r.method.as_deref())?;
    let control = host.control();
    let board = walk::board_size(r.rows, r.cols).map_err(Refusal::input)?;
    if r.all {
        // The listing's size is known from the board's: refused before the solve.
        walk::check_listing(board).map_err(Refusal::input)?;
    }
    // What the path holds at once is known from the size: refused before the solve.
    path::check_path_memory(board).map_err(Refusal::input)?;
    let sols = walk::solve(board, method, control).map_err(Refusal::input)?;
    let path = checked_path(board, &sols.particular, control).map_err(Refusal::input)?;
    let all =
        if r.all { Some(pathed_solutions(board, &sols, control).map_err(Refusal::input)?) } else { None };
    Ok(Record::WalkSolve(WalkSolved {
        rows: board.height(),
        cols: board.width(),
        solutions: sols.count_decimal(),
        pattern: Some(picture(&sols.particular)),
        path_length: path.len(),
        path: Some(path),
        out: None,
        pattern_file: None,
        all,
        nullity: sols.nullity(),
        activated: sols.particular.count_ones(),
    }))
}

/// The fields of `walk count`: those of `walk solve` but `all` (refused by name as unknown
/// before the fields are read, so it stays `false`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct Count(pub Solve);

impl Fields for Count {
    const FIELDS: &'static [&'static str] = &["rows", "cols", "method"];

    fn check(&self) -> Result<(), Refusal> {
        self.0.check()
    }
}

impl Count {
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        self.0.bound()
    }
}

/// `walk count`: the number of solutions, 2^nullity.
pub(crate) fn count(Count(r): &Count, host: &dyn Host) -> Result<Record, Refusal> {
    let method = method(r.method.as_deref())?;
    let board = walk::board_size(r.rows, r.cols).map_err(Refusal::input)?;
    let sols = walk::solve(board, method, host.control()).map_err(Refusal::input)?;
    Ok(Record::WalkCount(sols.counted()))
}

/// The fields of `walk table`: the largest square side, 1 to 300 (20 when absent).
pub type Table = UpTo<TABLE_TO, 1, TABLE_MAX_SIDE>;

/// `walk table`: the solution counts of the square boards 1 x 1 .. to x to (bounded by its own
/// range).
pub(crate) fn table(r: &Table, host: &dyn Host) -> Result<Record, Refusal> {
    r.check()?;
    let to = r.side() as usize;
    Ok(Record::WalkTable(walk::square_counts(to, host.control()).map_err(Refusal::input)?))
}

/// The fields of `walk replay`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// Rows (L).
    #[serde(deserialize_with = "de::int")]
    pub rows: usize,
    /// Columns (C).
    #[serde(deserialize_with = "de::int")]
    pub cols: usize,
    /// The moves: N, S, E, W (O for W), either case; whitespace ignored.
    #[serde(default, deserialize_with = "de::opt_text")]
    pub moves: Option<String>,
    /// A file's content instead of `moves`: a path, or what `walk solve` prints (text or JSON)
    /// and the files of `walk export`.
    #[serde(default, deserialize_with = "de::opt_content")]
    pub from: Option<String>,
    /// The final board's picture (in the text only: the JSON has none).
    #[serde(default, deserialize_with = "de::flag")]
    pub show: bool,
}

impl Fields for Replay {
    const FIELDS: &'static [&'static str] = &["rows", "cols", "moves", "from", "show"];

    fn check(&self) -> Result<(), Refusal> {
        match (&self.moves, &self.from) {
            (None, None) => Err(Refusal::Input("give the moves, or a file's content as `from`".into())),
            (Some(_), Some(_)) => Err(Refusal::Input("give the moves or `from`, not both".into())),
            (Some(m), None) if m == "-" => Err(Refusal::Input(
                "field `moves`: `-` reads standard input, which a request has none of: give the moves, or a file's content as `from`"
                    .into(),
            )),
            _ => Ok(()),
        }
    }
}

impl Replay {
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        sides(self.rows, self.cols)
    }
}

/// `walk replay`: the moves played from the bottom-left cell; a "yes" when all black.
pub(crate) fn replay(r: &Replay) -> Result<Record, Refusal> {
    r.check()?;
    let board = walk::board_size(r.rows, r.cols).map_err(Refusal::input)?;
    let moves = match (&r.moves, &r.from) {
        (Some(m), _) => path::parse_moves(m).map_err(|e| match e {
            WalkError::BadMove { .. } => Refusal::Input(format!(
                "{e}; a path in a file (what walk solve --out wrote) goes in the field `from`, as its content"
            )),
            e => Refusal::input(e),
        })?,
        (None, text) => {
            // Bare moves (their positions counted from the content's start), or, when it starts
            // with `{`, `#` or a digit, what `walk solve` prints or a `walk export` file.
            let text = text.as_deref().unwrap_or_default();
            let from = |e: &dyn std::fmt::Display| Refusal::Input(format!("from: {e}"));
            let body = text.trim_start();
            let moves = match body.bytes().next() {
                Some(b'{' | b'#' | b'0'..=b'9') => solution_path(body, board).map_err(|e| from(&e))?,
                _ => text.to_string(),
            };
            path::parse_moves(&moves).map_err(|e| from(&e))?
        }
    };
    let mut replayer = Replayer::new(board);
    for mv in moves {
        replayer.play(mv);
    }
    let count = replayer.moves();
    Ok(Record::WalkReplay(ReplayRecord::new(board, count, &replayer.finish())))
}

/// The path in `walk solve`'s text or JSON, or in a `walk export` file, checked to be of
/// `board`'s size when it names one.
pub fn solution_path(text: &str, board: Size) -> Result<String, String> {
    let same_size = |rows: u64, cols: u64, said: &str| {
        if (rows, cols) != (board.height() as u64, board.width() as u64) {
            return Err(format!(
                "the path is of a {rows} x {cols} board ({said}), not {} x {}",
                board.height(),
                board.width()
            ));
        }
        Ok(())
    };
    let several =
        "the input holds several paths (walk solve --all): replay one, as walk replay ROWS COLS MOVES";
    if text.starts_with('{') {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not the JSON of walk solve: {e}"))?;
        if let (Some(rows), Some(cols)) = (v["rows"].as_u64(), v["cols"].as_u64()) {
            same_size(rows, cols, "its rows and cols")?;
        }
        if v.get("all").is_some() {
            return Err(several.into());
        }
        return match (v["path"].as_str(), v["out"].as_str()) {
            (Some(path), _) => Ok(path.to_string()),
            (None, Some(file)) => {
                Err(format!("the JSON holds no path: replay the file it names, --from {file}"))
            }
            (None, None) => {
                Err("the JSON holds no path (key \"path\"), as walk solve --json prints it".into())
            }
        };
    }
    let mut lines = text.lines();
    if let Some((rows, cols)) = lines.clone().next().and_then(size_named) {
        same_size(rows, cols, "its first line")?;
    }
    let header = |l: &str| l.starts_with("path:") || l.starts_with("# path");
    let mut paths = Vec::new();
    while let Some(line) = lines.next() {
        if header(line.trim_start()) {
            paths.push(lines.next().unwrap_or("").to_string());
        }
    }
    match paths.len() {
        0 => Err("no path in the input: moves (N, S, E, W), or what walk solve prints (its path under a line \"path: ...\")".into()),
        1 => Ok(paths.pop().unwrap_or_default()),
        _ => Err(several.into()),
    }
}

/// The board size a first line names: `4 x 5` in `4 x 5: 16 solutions` or `# damier walk: 4 x 5
/// board`.
fn size_named(line: &str) -> Option<(u64, u64)> {
    let (left, right) = line.split_once(" x ")?;
    let rows = left.rsplit(|c: char| !c.is_ascii_digit()).next()?.parse().ok()?;
    let cols = right.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()?;
    Some((rows, cols))
}
