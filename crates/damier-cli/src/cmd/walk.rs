//! `damier walk`: the pawn walk ("promenade binaire") — solve, count, table, replay, export,
//! bench.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::{Subcommand, ValueEnum};
use damier::board::Board;
use damier::walk::{self, Method, Shape, Solutions, path, picture};

use crate::util::output::outln;
use crate::util::{board_io, exit, interrupt, output};

/// Subcommands of `damier walk`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// One solution (or all) of a board: the activation picture and a move string.
    Solve(SolveArgs),
    /// The number of solutions, 2^nullity.
    Count(CountArgs),
    /// Solution counts of the square boards 1 x 1 .. N x N (the seed's table).
    Table(TableArgs),
    /// Replay a move string from the bottom-left cell: exit 0 if all black, 1 otherwise.
    Replay(ReplayArgs),
    /// Write one solution file per board size L x C, 1 <= L, C <= N (the seed's archive).
    Export(ExportArgs),
    /// Time the fast solver and the path on large boards (up to 2000 x 2000).
    Bench(BenchArgs),
}

/// Solver choice on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum MethodArg {
    /// Every activation set (at most 30 cells).
    Brute,
    /// Every first row of the narrower side (at most 24 wide).
    Rows,
    /// First-row unknowns and a GF(2) system solved by elimination (Lights Out's chase
    /// engine; any size up to 2^24 cells).
    Fast,
    /// The same system solved with polynomials over GF(2) (Lights Out's poly engine).
    Poly,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Brute => Method::Brute,
            MethodArg::Rows => Method::Rows,
            MethodArg::Fast => Method::Fast,
            MethodArg::Poly => Method::Poly,
        }
    }
}

/// Arguments of `damier walk solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Rows (L), at least 1; rows * cols at most 2^24 (2^30 with --out).
    rows: usize,
    /// Columns (C), at least 1.
    cols: usize,
    /// Solver.
    #[arg(long, value_enum, default_value = "fast")]
    method: MethodArg,
    /// List every solution (at most 2^16 of them, Lights Out's limit), each with its path.
    #[arg(long, conflicts_with = "out")]
    all: bool,
    /// Write the path (one line of moves) to this file instead of printing it and the picture;
    /// boards up to 2^30 cells (use --method poly beyond 4096 cells across).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write the activation set (landed on an odd number of times = 1) to this file: `.pbm`
    /// (raw PBM bitmap) or `.txt` (rows of 0/1).
    #[arg(long, value_name = "FILE")]
    pattern: Option<PathBuf>,
    /// Print JSON (keys: rows, cols, solutions, pattern, path, path_length; with --all also
    /// `all`, a list of {pattern, path, path_length}; with --out no pattern and path).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier walk count`.
#[derive(Debug, clap::Args)]
pub struct CountArgs {
    /// Rows (L), at least 1.
    rows: usize,
    /// Columns (C), at least 1.
    cols: usize,
    /// Solver.
    #[arg(long, value_enum, default_value = "fast")]
    method: MethodArg,
    /// Print JSON (keys: rows, cols, solutions, nullity).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier walk table`.
#[derive(Debug, clap::Args)]
pub struct TableArgs {
    /// Largest square side [range: 1..=300].
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=300))]
    to: u32,
    /// Print JSON (a list of {rows, cols, solutions, nullity}).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier walk replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// Rows (L), at least 1.
    rows: usize,
    /// Columns (C), at least 1.
    cols: usize,
    /// Moves: N, S, E, W (O accepted for W), either case; spaces ignored.
    moves: String,
    /// Also print the final board ('#' black, '_' white, top row first).
    #[arg(long)]
    show: bool,
    /// Print JSON (keys: rows, cols, moves, all_black, white, left_board).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier walk export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Largest side [range: 1..=64].
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u32).range(1..=64))]
    to: u32,
    /// Directory to write into (created if missing).
    dir: PathBuf,
    /// Print JSON (keys: dir, files).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier walk bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Largest square side timed [range: 1..=4096].
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max: u32,
    /// Solver timed: fast or poly (brute and rows cannot reach these sizes).
    #[arg(long, value_enum, default_value = "fast")]
    method: MethodArg,
    /// Print JSON (a list of {rows, cols, solve_seconds, path_seconds, total_seconds,
    /// replay_seconds, activated, path_length}).
    #[arg(long)]
    json: bool,
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Solve(a) => solve(a),
        Command::Count(a) => count(a),
        Command::Table(a) => table(a),
        Command::Replay(a) => replay(a),
        Command::Export(a) => export(a),
        Command::Bench(a) => bench(a),
    }
}

/// Solves with the process-wide control (Ctrl-C interrupts).
fn solutions(board: Shape, method: Method) -> anyhow::Result<Solutions> {
    Ok(walk::solve(board, method, interrupt::control())?)
}

/// The path of `activation`, checked by replaying it cell by cell.
fn checked_path(board: Shape, activation: &Board) -> anyhow::Result<String> {
    let moves = path::path_for(board, activation)?;
    let replay = path::replay(board, &moves);
    anyhow::ensure!(
        replay.all_black() && replay.landings == *activation,
        "internal error: the path built for this {} x {} solution does not replay to all black",
        board.rows(),
        board.cols()
    );
    Ok(path::moves_to_string(&moves))
}

#[derive(serde::Serialize)]
struct OneSolution {
    pattern: Vec<String>,
    path: String,
    path_length: usize,
}

#[derive(serde::Serialize)]
struct SolveReport {
    rows: usize,
    cols: usize,
    solutions: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pattern: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    path_length: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pattern_file: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    all: Option<Vec<OneSolution>>,
}

fn solve(a: SolveArgs) -> anyhow::Result<ExitCode> {
    let limit = if a.out.is_some() { walk::MAX_CELLS_PATH_TO_FILE } else { walk::MAX_CELLS };
    let board = Shape::with_limit(a.rows, a.cols, limit)?;
    if let Some(p) = &a.pattern {
        board_io::format_of(p)?; // refuse a bad extension before the work
    }
    let sols = solutions(board, a.method.into())?;
    let path = checked_path(board, &sols.particular)?;
    if let Some(p) = &a.pattern {
        board_io::write(p, &sols.particular)?;
    }
    if let Some(f) = &a.out {
        output::write_atomic_with(f, |w| {
            w.write_all(path.as_bytes())?;
            w.write_all(b"\n")
        })?;
    }
    let to_screen = a.out.is_none();
    let all = if a.all {
        let mut list = Vec::new();
        for g in sols.all()? {
            interrupt::check()?;
            let p = checked_path(board, &g)?;
            list.push(OneSolution { pattern: picture(&g), path_length: p.len(), path: p });
        }
        Some(list)
    } else {
        None
    };
    let report = SolveReport {
        rows: board.rows(),
        cols: board.cols(),
        solutions: sols.count_decimal(),
        pattern: to_screen.then(|| picture(&sols.particular)),
        path_length: path.len(),
        path: to_screen.then_some(path),
        out: a.out.clone(),
        pattern_file: a.pattern.clone(),
        all,
    };
    if a.json {
        output::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    writeln!(
        out,
        "{} x {}: {} solution{} (2^{})",
        report.rows,
        report.cols,
        report.solutions,
        if report.solutions == "1" { "" } else { "s" },
        sols.nullity()
    )?;
    let print_one =
        |out: &mut dyn Write, pattern: &[String], path: &str, activated: usize| -> anyhow::Result<()> {
            for line in pattern {
                writeln!(out, "{line}")?;
            }
            writeln!(out, "path: {} moves for {} activated cells", path.len(), activated)?;
            writeln!(out, "{path}")?;
            Ok(())
        };
    if let Some(p) = &report.pattern_file {
        writeln!(out, "activation set written to {}", p.display())?;
    }
    match &report.all {
        None if !to_screen => {
            let f = a.out.as_ref().expect("--out");
            let activated = sols.particular.count_ones();
            writeln!(
                out,
                "path: {} moves for {activated} activated cells, written to {}",
                report.path_length,
                f.display()
            )?;
        }
        None => {
            writeln!(out, "one solution ('#' = landed on an odd number of times, top row first):")?;
            let (pattern, path) =
                (report.pattern.as_deref().unwrap_or_default(), report.path.as_deref().unwrap_or_default());
            print_one(&mut out, pattern, path, sols.particular.count_ones() as usize)?;
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
    Ok(ExitCode::SUCCESS)
}

#[derive(serde::Serialize)]
struct CountReport {
    rows: usize,
    cols: usize,
    solutions: String,
    nullity: usize,
}

fn count(a: CountArgs) -> anyhow::Result<ExitCode> {
    let board = Shape::new(a.rows, a.cols)?;
    let sols = solutions(board, a.method.into())?;
    let report = CountReport {
        rows: board.rows(),
        cols: board.cols(),
        solutions: sols.count_decimal(),
        nullity: sols.nullity(),
    };
    if a.json {
        output::print_json(&report)?;
    } else {
        let plural = if report.solutions == "1" { "" } else { "s" };
        outln!(
            "{} x {}: {} solution{plural} (2^{})",
            report.rows,
            report.cols,
            report.solutions,
            report.nullity
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn table(a: TableArgs) -> anyhow::Result<ExitCode> {
    let mut rows = Vec::new();
    for n in 1..=a.to as usize {
        let board = Shape::new(n, n)?;
        // Counts only: the polynomial engine is the fastest, and the nullity is the same.
        let sols = walk::solve(board, Method::Poly, interrupt::control())?;
        rows.push(CountReport { rows: n, cols: n, solutions: sols.count_decimal(), nullity: sols.nullity() });
    }
    if a.json {
        output::print_json(&rows)?;
    } else {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        writeln!(out, "{:>9}  {:>7}  solutions", "board", "nullity")?;
        for r in &rows {
            writeln!(out, "{:>9}  {:>7}  {}", format!("{}x{}", r.rows, r.cols), r.nullity, r.solutions)?;
        }
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(serde::Serialize)]
struct LeftBoard {
    step: usize,
    #[serde(rename = "move")]
    mv: char,
    row: usize,
    col: usize,
}

#[derive(serde::Serialize)]
struct ReplayReport {
    rows: usize,
    cols: usize,
    moves: usize,
    all_black: bool,
    white: usize,
    left_board: Option<LeftBoard>,
}

fn replay(a: ReplayArgs) -> anyhow::Result<ExitCode> {
    let board = Shape::new(a.rows, a.cols)?;
    let moves = path::parse_moves(&a.moves)?;
    let r = path::replay(board, &moves);
    let white = board.cells() - r.black.count_ones() as usize;
    let left_board = match r.outcome {
        path::Outcome::LeftBoard { step, mv, row, col } => {
            Some(LeftBoard { step, mv: mv.letter(), row, col })
        }
        _ => None,
    };
    let code = if r.all_black() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) };
    if a.json {
        let report = ReplayReport {
            rows: board.rows(),
            cols: board.cols(),
            moves: moves.len(),
            all_black: r.all_black(),
            white,
            left_board,
        };
        output::print_json(&report)?;
        return Ok(code);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match r.outcome {
        path::Outcome::AllBlack => writeln!(out, "all black after {} moves", moves.len())?,
        path::Outcome::White { count } => writeln!(
            out,
            "{count} cell{} stay white after {} moves",
            if count == 1 { "" } else { "s" },
            moves.len()
        )?,
        path::Outcome::LeftBoard { step, mv, row, col } => writeln!(
            out,
            "move {step} ({}) leaves the board from row {}, column {} (counted from the top-left, from 1)",
            mv.letter(),
            row + 1,
            col + 1
        )?,
    }
    if a.show {
        for line in picture(&r.black) {
            writeln!(out, "{line}")?;
        }
    }
    out.flush()?;
    Ok(code)
}

#[derive(serde::Serialize)]
struct ExportReport {
    dir: String,
    files: usize,
}

fn export(a: ExportArgs) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&a.dir).with_context(|| format!("cannot create {}", a.dir.display()))?;
    let mut files = 0;
    for rows in 1..=a.to as usize {
        for cols in 1..=a.to as usize {
            interrupt::check()?;
            let board = Shape::new(rows, cols)?;
            let sols = walk::fast::solve(board, interrupt::control())?;
            let path = checked_path(board, &sols.particular)?;
            let mut text = format!(
                "# damier walk: {rows} x {cols} board, {} solution(s); one shown, '#' = cell landed on an odd number of times, top row first\n",
                sols.count_decimal()
            );
            for line in picture(&sols.particular) {
                text.push_str(&line);
                text.push('\n');
            }
            text.push_str(&format!(
                "# path from the bottom-left cell, {} moves (N, S, E, W)\n{path}\n",
                path.len()
            ));
            output::write_atomic(&a.dir.join(format!("{rows}x{cols}.txt")), text.as_bytes())?;
            files += 1;
        }
    }
    if a.json {
        output::print_json(&ExportReport { dir: a.dir.display().to_string(), files })?;
    } else {
        outln!("wrote {files} files to {}", a.dir.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(serde::Serialize)]
struct BenchRow {
    rows: usize,
    cols: usize,
    solve_seconds: f64,
    path_seconds: f64,
    total_seconds: f64,
    replay_seconds: f64,
    activated: usize,
    path_length: usize,
}

fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    let max = a.max as usize;
    let mut sizes: Vec<(usize, usize)> =
        [100, 250, 500, 1000, 2000, 4096].iter().copied().filter(|&n| n < max).map(|n| (n, n)).collect();
    sizes.push((max, max));
    if max >= 2 {
        sizes.push((max / 2, max));
    }
    let method = Method::from(a.method);
    anyhow::ensure!(
        matches!(method, Method::Fast | Method::Poly),
        "walk bench times the fast and poly methods only"
    );
    let mut rows = Vec::new();
    for (r, c) in sizes {
        let board = Shape::new(r, c)?;
        let t0 = Instant::now();
        let sols = walk::solve(board, method, interrupt::control())?;
        let t1 = Instant::now();
        let moves = path::path_for(board, &sols.particular)?;
        let t2 = Instant::now();
        let rep = path::replay(board, &moves);
        let t3 = Instant::now();
        anyhow::ensure!(rep.all_black(), "internal error: {r} x {c} path does not replay to all black");
        let row = BenchRow {
            rows: r,
            cols: c,
            solve_seconds: (t1 - t0).as_secs_f64(),
            path_seconds: (t2 - t1).as_secs_f64(),
            total_seconds: (t2 - t0).as_secs_f64(),
            replay_seconds: (t3 - t2).as_secs_f64(),
            activated: sols.particular.count_ones() as usize,
            path_length: moves.len(),
        };
        if !a.json {
            if rows.is_empty() {
                outln!(
                    "{:>11}  {:>8}  {:>8}  {:>8}  {:>9}  {:>10}  {:>10}  {:>6}",
                    "board",
                    "solve s",
                    "path s",
                    "total s",
                    "replay s",
                    "activated",
                    "moves",
                    "ratio"
                )?;
            }
            outln!(
                "{:>11}  {:>8.3}  {:>8.3}  {:>8.3}  {:>9.3}  {:>10}  {:>10}  {:>6.2}",
                format!("{r}x{c}"),
                row.solve_seconds,
                row.path_seconds,
                row.total_seconds,
                row.replay_seconds,
                row.activated,
                row.path_length,
                row.path_length as f64 / row.activated as f64
            )?;
        }
        rows.push(row);
    }
    if a.json {
        output::print_json(&rows)?;
    } else {
        outln!("(total = solve + path; the target is 2000x2000 in at most 1 s with a release build)")?;
    }
    Ok(ExitCode::SUCCESS)
}
