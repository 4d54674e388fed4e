//! `damier lights solve` and `damier lights winnable`.

use std::process::ExitCode;
use std::time::Instant;

use damier::board::Size;
use damier::lights::request::{SolveRequest, Start};

use crate::report::lights::Solve;
use crate::util::output::{Report, errln};
use crate::util::{InputFile, OutputPath};
use crate::util::{board_io, exit, interrupt, layer, output};

use super::shared::*;

/// Arguments of `damier lights solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Board file: rows of 0/1, ./# or _/#, or a PBM bitmap (P1 or P4, black = on); `-`
    /// reads stdin.
    #[arg(required_unless_present_any = ["all_on", "random"], conflicts_with_all = ["all_on", "random"])]
    file: Option<InputFile>,
    /// Start from the all-on WxH board.
    #[arg(long, value_name = "WxH", conflicts_with = "random")]
    all_on: Option<String>,
    /// Start from a random WxH board (each light on with probability 1/2; on most sizes most
    /// such boards cannot be solved: add --winnable). The start is printed (and in the JSON)
    /// unless --save-start, --out or --summary is given: then its seed only. With
    /// --save-start or --out the text is one line (the start, the files, the presses).
    #[arg(long, value_name = "WxH")]
    random: Option<String>,
    /// With --random: draw a random winnable board (the lights left by random presses on a
    /// dark board, every winnable board equally likely), as the games do: three boards at once.
    #[arg(long, requires = "random", conflicts_with_all = ["file", "all_on"])]
    winnable: bool,
    /// With --random: also write the start to FILE (`.pbm` or `.txt`), to solve it again or
    /// play it (`damier play lights --from FILE`); `-` writes it alone on stdout instead of the
    /// report (`| damier lights solve -`).
    #[arg(long, value_name = "FILE", requires = "random", conflicts_with_all = ["file", "all_on"])]
    save_start: Option<OutputPath>,
    /// Seed of the random board [default: from the OS, printed].
    // `conflicts_with_all` besides `requires`: clap lets `requires = "random"` pass when the
    // required argument conflicts with one given (clap issue 4520), so `--all-on 5x5 --seed 3`
    // ran with the seed silently ignored.
    #[arg(long, requires = "random", conflicts_with_all = ["file", "all_on"])]
    seed: Option<u64>,
    /// Target board file, text or PBM [default: all off].
    #[arg(long)]
    target: Option<InputFile>,
    /// Write the presses to this file instead of printing them: `.pbm` (raw PBM bitmap, any
    /// size) or `.txt` (rows of 0/1); `-` writes them alone on stdout (rows of 0/1), without
    /// the report.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all", "summary"])]
    out: Option<OutputPath>,
    /// List every solution (refused above nullity 16, or beyond 10^7 cells in all, before the
    /// solve).
    #[arg(long, conflicts_with = "min")]
    all: bool,
    /// The solution with the fewest presses (exact up to nullity 30, a labelled heuristic above;
    /// refused when the kernel would hold more than 2^33 cells).
    #[arg(long)]
    min: bool,
    /// Show the elimination step by step (boards up to 64 cells).
    #[arg(long)]
    explain: bool,
    /// Engine.
    #[arg(long, value_parser = method(), default_value = "poly")]
    method: damier::lights::Method,
    /// Omit the press pattern (only the counts); not with --all, which lists patterns.
    #[arg(long, conflicts_with = "all")]
    summary: bool,
    /// Print JSON (keys: width, height, nullity, solvable, solutions, presses, press_count;
    /// `out` with --out; `seed` with --random, and `start` unless --save-start, --out or
    /// --summary).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier lights winnable`.
#[derive(Debug, clap::Args)]
pub struct WinnableArgs {
    /// Board file, text or PBM; `-` reads stdin. Memory: three boards of ceil(W/64) x 8 x H
    /// bytes (four with a target) and the kernel basis, checked before the solve.
    file: InputFile,
    /// Target board file, text or PBM [default: all off].
    #[arg(long)]
    target: Option<InputFile>,
    /// Print JSON (keys: width, height, nullity, winnable, by_orthogonality, by_solving).
    #[arg(long)]
    json: bool,
}

pub(super) fn solve(a: SolveArgs) -> anyhow::Result<ExitCode> {
    // `-` (--out or --save-start): that board alone on stdout, in the text format, for
    // `| damier lights solve -`; the report is not printed.
    let start_to_stdout = a.save_start.as_deref().is_some_and(output::is_stdout);
    let presses_to_stdout = a.out.as_deref().is_some_and(output::is_stdout);
    anyhow::ensure!(
        !(start_to_stdout && presses_to_stdout),
        "--save-start - and --out - both write to standard output: give one of them a file name"
    );
    anyhow::ensure!(
        !(a.json && (start_to_stdout || presses_to_stdout)),
        "--{} - writes the board alone on standard output: it takes no --json",
        if start_to_stdout { "save-start" } else { "out" }
    );
    for path in [&a.out, &a.save_start].into_iter().flatten().filter(|p| !output::is_stdout(p)) {
        // A bad extension or folder is refused before the work.
        board_io::format_of(path)?;
        output::check_folder(path)?;
    }
    let request = SolveRequest {
        method: a.method,
        target: a.target.is_some(),
        all: a.all,
        min: a.min,
        explain: a.explain,
    };
    let mut seed = None;
    let start = if let Some(size) = &a.all_on {
        request.make(&Start::AllOn(size.parse()?))?
    } else if let Some(size) = &a.random {
        let size: Size = size.parse()?;
        let drawn = crate::util::pick_seed(a.seed);
        seed = Some(drawn);
        let start = request.make(&Start::Random { size, seed: drawn, winnable: a.winnable })?;
        if let Some(path) = &a.save_start {
            board_io::write(path, &start)?;
        }
        start
    } else {
        let start = read_board(a.file.as_deref().expect("clap requires a board"))?;
        request.check_size(start.size())?;
        start
    };
    let target = a.target.as_deref().map(read_board).transpose()?;
    let (w, h) = (start.width(), start.height());
    let t0 = Instant::now();
    let solved = request.solve(start, target.as_ref(), interrupt::control())?;
    let seconds = t0.elapsed().as_secs_f64();
    let solvable = solved.solvable();
    if let (Some(path), Some(p)) = (&a.out, &solved.presses) {
        board_io::write(path, p)?;
    }
    if start_to_stdout || presses_to_stdout {
        if !solvable {
            errln!("damier: {w}x{h}: this start cannot be solved (no presses turn it into the target)");
        }
        return Ok(if solvable { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) });
    }
    if !a.summary && a.out.is_none() && w * h > PRINT_MAX_CELLS {
        errln!(
            "damier: {w}x{h} is too large to print the presses ({PRINT_MAX_CELLS} cells at most): summary only \
             (--out FILE.pbm writes them)"
        );
    }
    let record = damier_api::LightsSolved::of(
        &solved,
        seed,
        seconds,
        a.summary,
        a.out.as_deref(),
        a.save_start.is_some(),
    );
    let report = Solve {
        record,
        winnable: a.winnable,
        start_file: a.save_start.as_deref().map(std::path::Path::to_path_buf),
    };
    report.print(a.json)?;
    Ok(if solvable { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

pub(super) fn winnable(a: WinnableArgs) -> anyhow::Result<ExitCode> {
    let start = read_board(&a.file)?;
    let target = a.target.as_deref().map(read_board).transpose()?;
    let report = damier_api::lights::winnability(&start, target.as_ref(), interrupt::control())
        .map_err(layer::error)?;
    report.print(a.json)?;
    Ok(if report.winnable { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}
