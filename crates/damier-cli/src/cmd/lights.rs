//! `damier lights`: solve, count, kernel, winnable, table, chase, chase-table, bench.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Subcommand, ValueEnum};
use damier::board::{self, Board};
use damier::control::Control;
use damier::gf2::RowOp;
use damier::lights::{self, Method, chase, dense};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

use crate::util::output::outln;
use crate::util::{board_io, exit, interrupt, output, progress::Progress};

/// Press patterns are printed up to this many cells; beyond, only the summary.
const PRINT_MAX_CELLS: usize = 10_000_000;

/// Boards are printed in the step-by-step chase up to this width.
const CHASE_PRINT_MAX_WIDTH: usize = 80;

/// Subcommands of `damier lights`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve a board: no solution, or 2^k (k = nullity); one, all, or the fewest presses.
    Solve(SolveArgs),
    /// Nullity, number of ways from all-on to all-off, fraction of winnable starts.
    Count(SizeArgs),
    /// A basis of the neutral configurations (presses that change nothing).
    Kernel(KernelArgs),
    /// Is a board winnable? By the orthogonality criterion and by solving (exit 1 if not).
    Winnable(WinnableArgs),
    /// The seed's table: solutions from all-on to all-off on L x L boards, L = 2..=N.
    Table(TableArgs),
    /// Light chasing step by step: chase down, fix the first row, chase again.
    Chase(ChaseArgs),
    /// Which first-row presses fix which last row after chasing.
    ChaseTable(SizeArgs),
    /// Time the engines on big random boards and the square nullities (the performance table).
    Bench(BenchArgs),
}

/// The engine that solves the system.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum MethodArg {
    /// Elimination on the N x N press matrix (up to 4096 cells).
    Dense,
    /// Light chasing, then elimination on the W x W system (width up to 4096).
    Chase,
    /// Light chasing, then polynomials over GF(2) (any size).
    Poly,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Dense => Method::Dense,
            MethodArg::Chase => Method::Chase,
            MethodArg::Poly => Method::Poly,
        }
    }
}

/// Arguments of `damier lights solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Board file: rows of 0/1, ./# or _/#, or a PBM bitmap (P1 or P4, black = on); `-`
    /// reads stdin.
    #[arg(required_unless_present_any = ["all_on", "random"], conflicts_with_all = ["all_on", "random"])]
    file: Option<String>,
    /// Start from the all-on WxH board.
    #[arg(long, value_name = "WxH", conflicts_with = "random")]
    all_on: Option<String>,
    /// Start from a random WxH board.
    #[arg(long, value_name = "WxH")]
    random: Option<String>,
    /// Seed of the random board [default: from the OS, printed].
    #[arg(long, requires = "random")]
    seed: Option<u64>,
    /// Target board file, text or PBM [default: all off].
    #[arg(long)]
    target: Option<String>,
    /// Write the presses to this file instead of printing them: `.pbm` (raw PBM bitmap, any
    /// size) or `.txt` (rows of 0/1).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["all", "summary"])]
    out: Option<PathBuf>,
    /// List every solution (refused above nullity 16).
    #[arg(long, conflicts_with = "min")]
    all: bool,
    /// The solution with the fewest presses (exact up to nullity 30, a labelled heuristic above).
    #[arg(long)]
    min: bool,
    /// Show the elimination step by step (boards up to 64 cells).
    #[arg(long)]
    explain: bool,
    /// Engine.
    #[arg(long, value_enum, default_value = "poly")]
    method: MethodArg,
    /// Omit the press pattern (only the counts).
    #[arg(long)]
    summary: bool,
    /// Print JSON (keys: width, height, nullity, solvable, solutions, presses, press_count;
    /// `out` with --out).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier lights kernel`.
#[derive(Debug, clap::Args)]
pub struct KernelArgs {
    /// Board size, WIDTHxHEIGHT (e.g. 5x5).
    size: String,
    /// Write each basis vector to DIR/kernel-WxH-K.pbm (K = 1..nullity) instead of printing.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print JSON (keys: width, height, nullity, basis; `files` instead of `basis` with --out).
    #[arg(long)]
    json: bool,
}

/// A board size argument.
#[derive(Debug, clap::Args)]
pub struct SizeArgs {
    /// Board size, WIDTHxHEIGHT (e.g. 5x5).
    size: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier lights winnable`.
#[derive(Debug, clap::Args)]
pub struct WinnableArgs {
    /// Board file, text or PBM; `-` reads stdin.
    file: String,
    /// Target board file, text or PBM [default: all off].
    #[arg(long)]
    target: Option<String>,
    /// Print JSON (keys: width, height, nullity, winnable, by_orthogonality, by_solving).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier lights table`.
#[derive(Debug, clap::Args)]
pub struct TableArgs {
    /// Largest side L (2..=100000).
    #[arg(long, default_value_t = 39, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    to: u64,
    /// Print JSON (a list of {size, nullity, solutions}).
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier lights chase`.
#[derive(Debug, clap::Args)]
pub struct ChaseArgs {
    /// Board file, text or PBM; `-` reads stdin.
    file: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `damier lights bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Square sides to solve from a random start, comma-separated.
    #[arg(long, default_value = "10000,100000", value_delimiter = ',')]
    sizes: Vec<usize>,
    /// Compute the nullities of all n x n boards up to this n (0: skip).
    #[arg(long, default_value_t = 25_000)]
    nullities_to: usize,
    /// Also time the phases of the polynomial method (on stderr).
    #[arg(long)]
    breakdown: bool,
    /// Seed of the random boards.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Solve(a) => solve(a),
        Command::Count(a) => count(a),
        Command::Kernel(a) => kernel(a),
        Command::Winnable(a) => winnable(a),
        Command::Table(a) => table(a),
        Command::Chase(a) => chase_cmd(a),
        Command::ChaseTable(a) => chase_table(a),
        Command::Bench(a) => bench(a),
    }
}

/// Reads a board file, text or PBM (`-`: stdin).
fn read_board(path: &str) -> anyhow::Result<Board> {
    board_io::read(path)
}

fn rows(b: &Board) -> Vec<String> {
    b.to_rows('1', '0')
}

fn print_board(b: &Board) -> std::io::Result<()> {
    for r in rows(b) {
        outln!("{r}")?;
    }
    Ok(())
}

#[derive(Serialize)]
struct SolveReport {
    width: usize,
    height: usize,
    nullity: usize,
    solvable: bool,
    solutions: String,
    presses: Option<Vec<String>>,
    press_count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    out: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact_min: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    all: Option<Vec<Vec<String>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<StepReport>>,
    seconds: f64,
}

#[derive(Serialize)]
struct StepReport {
    column: usize,
    pivot_row: Option<usize>,
    ops: Vec<String>,
    matrix: Vec<String>,
}

fn op_text(op: &RowOp) -> String {
    match op {
        RowOp::Swap(a, b) => format!("L{a} <-> L{b}"),
        RowOp::Add { src, dst } => format!("L{dst} -> L{dst} + L{src}"),
    }
}

fn solve(a: SolveArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &a.out {
        board_io::format_of(path)?; // refuse a bad extension before the work
    }
    let control = interrupt::control();
    let mut seed_used = None;
    let start = if let Some(size) = &a.all_on {
        let (w, h) = board::parse_size(size)?;
        Board::ones(w, h)?
    } else if let Some(size) = &a.random {
        let (w, h) = board::parse_size(size)?;
        let seed = a.seed.unwrap_or_else(rand::random);
        seed_used = Some(seed);
        Board::random(w, h, &mut Xoshiro256PlusPlus::seed_from_u64(seed))?
    } else {
        read_board(a.file.as_deref().expect("clap requires a board"))?
    };
    let target = a.target.as_deref().map(read_board).transpose()?;
    let (w, h) = (start.width(), start.height());
    let method: Method = a.method.into();
    let t0 = Instant::now();
    let sol = lights::solve(&start, target.as_ref(), method, control)?;
    let mut steps = None;
    if a.explain {
        anyhow::ensure!(
            w * h <= dense::EXPLAIN_MAX_CELLS,
            "--explain shows the {n} x {n} matrix at each step: boards up to {} cells only",
            dense::EXPLAIN_MAX_CELLS,
            n = w * h
        );
        let mut b = start.clone();
        if let Some(t) = &target {
            b.xor_assign(t);
        }
        let (_, st) = dense::explain(&b);
        steps = Some(
            st.iter()
                .map(|s| StepReport {
                    column: s.column,
                    pivot_row: s.pivot_row,
                    ops: s.ops.iter().map(op_text).collect(),
                    matrix: (0..s.matrix.rows())
                        .map(|r| {
                            let mut line: String = (0..s.matrix.cols())
                                .map(|c| if s.matrix.get(r, c) { '1' } else { '0' })
                                .collect();
                            line.push_str(" | ");
                            line.push(if s.rhs.as_ref().is_some_and(|b| b.get(r)) { '1' } else { '0' });
                            line
                        })
                        .collect(),
                })
                .collect::<Vec<_>>(),
        );
    }
    let mut exact_min = None;
    let mut all = None;
    let mut presses = sol.presses.clone();
    if let Some(p) = &sol.presses
        && (a.min || a.all)
    {
        let k = lights::kernel(w, h, if method == Method::Dense { Method::Dense } else { Method::Poly })?;
        if a.min {
            let f = lights::fewest_presses(p, &k, control)?;
            let mut b = start.clone();
            if let Some(t) = &target {
                b.xor_assign(t);
            }
            anyhow::ensure!(
                lights::verify(&b, None, &f.presses),
                "internal error: fewest presses do not verify"
            );
            exact_min = Some(f.exact);
            presses = Some(f.presses);
        } else {
            let list = lights::all_solutions(p, &k)?;
            anyhow::ensure!(
                list.len().saturating_mul(w * h) <= PRINT_MAX_CELLS,
                "{} solutions of {} cells are too many to print",
                list.len(),
                w * h
            );
            let mut b = start.clone();
            if let Some(t) = &target {
                b.xor_assign(t);
            }
            for s in &list {
                anyhow::ensure!(lights::verify(&b, None, s), "internal error: a solution does not verify");
            }
            all = Some(list.iter().map(rows).collect::<Vec<_>>());
        }
    }
    let seconds = t0.elapsed().as_secs_f64();
    if let (Some(path), Some(p)) = (&a.out, &presses) {
        board_io::write(path, p)?;
    }
    let printable = !a.summary && a.out.is_none() && w * h <= PRINT_MAX_CELLS;
    if !a.summary && a.out.is_none() && !printable {
        eprintln!(
            "damier: {w}x{h} is too large to print the presses ({PRINT_MAX_CELLS} cells at most): summary only \
             (--out FILE.pbm writes them)"
        );
    }
    let report = SolveReport {
        width: w,
        height: h,
        nullity: sol.nullity,
        solvable: sol.solvable(),
        solutions: if sol.solvable() { lights::power_of_two_decimal(sol.nullity as u64) } else { "0".into() },
        press_count: presses.as_ref().map(Board::count_ones),
        presses: presses.as_ref().filter(|_| printable).map(rows),
        out: a.out.clone().filter(|_| presses.is_some()),
        seed: seed_used,
        exact_min,
        all,
        steps,
        seconds,
    };
    if a.json {
        output::print_json(&report)?;
    } else {
        if let Some(seed) = seed_used {
            outln!("random start, seed {seed}")?;
        }
        if let Some(steps) = &report.steps {
            for s in steps {
                match s.pivot_row {
                    Some(r) => outln!("column {}: pivot row L{r}", s.column)?,
                    None => outln!("column {}: no pivot (free unknown x{})", s.column, s.column)?,
                }
                for op in &s.ops {
                    outln!("  {op}")?;
                }
                for line in &s.matrix {
                    outln!("  {line}")?;
                }
            }
        }
        if report.solvable {
            outln!(
                "{w}x{h} board, nullity {}: {} solution{}",
                report.nullity,
                report.solutions,
                if report.solutions == "1" { "" } else { "s" }
            )?;
            if let Some(list) = &report.all {
                for (i, s) in list.iter().enumerate() {
                    outln!("solution {}:", i + 1)?;
                    for r in s {
                        outln!("{r}")?;
                    }
                }
            } else {
                let label = match exact_min {
                    Some(true) => "fewest presses",
                    Some(false) => "few presses (heuristic: nullity above 30, not proven fewest)",
                    None => "presses",
                };
                outln!("{label}: {}", report.press_count.unwrap_or(0))?;
                if let Some(path) = &report.out {
                    outln!("presses written to {}", path.display())?;
                }
                if let (Some(p), true) = (&presses, printable) {
                    print_board(p)?;
                }
            }
        } else {
            outln!(
                "{w}x{h} board, nullity {}: no solution (the start cannot reach the target)",
                report.nullity
            )?;
        }
    }
    Ok(if sol.solvable() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

#[derive(Serialize)]
struct CountReport {
    width: usize,
    height: usize,
    nullity: usize,
    solutions: String,
    winnable_fraction: String,
}

fn count(a: SizeArgs) -> anyhow::Result<ExitCode> {
    let (w, h) = board::parse_size(&a.size)?;
    let k = lights::nullity(w, h);
    let report = CountReport {
        width: w,
        height: h,
        nullity: k,
        solutions: lights::power_of_two_decimal(k as u64),
        winnable_fraction: format!("1/{}", lights::power_of_two_decimal(k as u64)),
    };
    if a.json {
        output::print_json(&report)?;
    } else {
        outln!(
            "{w}x{h}: nullity {k}; {} way{} from all-on to all-off; {} of the starts are winnable",
            report.solutions,
            if k == 0 { "" } else { "s" },
            report.winnable_fraction
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct KernelReport {
    width: usize,
    height: usize,
    nullity: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    basis: Option<Vec<Vec<String>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    files: Option<Vec<PathBuf>>,
}

/// The most cells a kernel basis may hold when it goes to files (2^33 bits: 1 GiB in memory).
const KERNEL_FILE_MAX_CELLS: usize = 1 << 33;

fn kernel(a: KernelArgs) -> anyhow::Result<ExitCode> {
    let (w, h) = board::parse_size(&a.size)?;
    let k = lights::nullity(w, h);
    let limit = if a.out.is_some() { KERNEL_FILE_MAX_CELLS } else { PRINT_MAX_CELLS };
    anyhow::ensure!(
        k.saturating_mul(w * h) <= limit,
        "{w}x{h} has nullity {k}: a basis of {k} boards of {} cells is too large {} ({limit} cells at most)",
        w * h,
        if a.out.is_some() { "to hold" } else { "to print (--out DIR writes it as bitmaps)" }
    );
    let basis = lights::kernel(w, h, Method::Poly)?;
    for v in &basis {
        anyhow::ensure!(
            lights::apply_presses(&Board::new(w, h)?, v).is_zero(),
            "internal error: a kernel vector is not neutral"
        );
    }
    let files = match &a.out {
        Some(dir) => {
            board_io::ensure_dir(dir)?;
            let mut files = Vec::with_capacity(basis.len());
            for (i, v) in basis.iter().enumerate() {
                interrupt::check()?;
                let path = dir.join(format!("kernel-{w}x{h}-{}.pbm", i + 1));
                board_io::write(&path, v)?;
                files.push(path);
            }
            Some(files)
        }
        None => None,
    };
    let report = KernelReport {
        width: w,
        height: h,
        nullity: basis.len(),
        basis: files.is_none().then(|| basis.iter().map(rows).collect()),
        files,
    };
    if a.json {
        output::print_json(&report)?;
    } else {
        outln!("{w}x{h}: nullity {} ({} neutral configurations)", k, lights::power_of_two_decimal(k as u64))?;
        if let (Some(dir), Some(files)) = (&a.out, &report.files) {
            outln!("basis written to {} ({} files kernel-{w}x{h}-K.pbm)", dir.display(), files.len())?;
        }
        for (i, v) in report.basis.iter().flatten().enumerate() {
            outln!("basis vector {}:", i + 1)?;
            for r in v {
                outln!("{r}")?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct WinnableReport {
    width: usize,
    height: usize,
    nullity: usize,
    winnable: bool,
    by_orthogonality: bool,
    by_solving: bool,
}

fn winnable(a: WinnableArgs) -> anyhow::Result<ExitCode> {
    let start = read_board(&a.file)?;
    let target = a.target.as_deref().map(read_board).transpose()?;
    let (w, h) = (start.width(), start.height());
    let sol = lights::solve(&start, target.as_ref(), Method::Poly, interrupt::control())?;
    let mut b = start.clone();
    if let Some(t) = &target {
        b.xor_assign(t);
    }
    anyhow::ensure!(
        sol.nullity.saturating_mul(w * h) <= 4 * PRINT_MAX_CELLS,
        "{w}x{h} has nullity {}: the orthogonality test needs the whole kernel, too large here",
        sol.nullity
    );
    let k = lights::kernel(w, h, Method::Poly)?;
    let by_orth = lights::winnable_by_orthogonality(&b, &k);
    let report = WinnableReport {
        width: w,
        height: h,
        nullity: sol.nullity,
        winnable: sol.solvable(),
        by_orthogonality: by_orth,
        by_solving: sol.solvable(),
    };
    anyhow::ensure!(by_orth == sol.solvable(), "internal error: the two winnability tests disagree");
    if a.json {
        output::print_json(&report)?;
    } else {
        let yes = |b: bool| if b { "yes" } else { "no" };
        outln!(
            "{w}x{h}: winnable: {} (orthogonal to the {} kernel vectors: {}; solving: {})",
            yes(report.winnable),
            sol.nullity,
            yes(by_orth),
            yes(report.by_solving)
        )?;
    }
    Ok(if report.winnable { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

#[derive(Serialize)]
struct TableRow {
    size: usize,
    nullity: usize,
    solutions: String,
}

fn table(a: TableArgs) -> anyhow::Result<ExitCode> {
    let n = a.to as usize;
    let control = interrupt::control();
    let bar = Progress::start(control, (n as u64 + 2) / 2, "nullities");
    let nul = lights::square_nullities(n, control)?;
    drop(bar);
    let table: Vec<TableRow> = (2..=n)
        .map(|l| TableRow {
            size: l,
            nullity: nul[l - 1],
            solutions: lights::power_of_two_decimal(nul[l - 1] as u64),
        })
        .collect();
    if a.json {
        output::print_json(&table)?;
    } else {
        for r in &table {
            outln!("L = {:>3}  {}", r.size, r.solutions)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct ChaseReport {
    width: usize,
    height: usize,
    chase_presses: Vec<String>,
    last_row: String,
    solvable: bool,
    first_row: Option<String>,
    presses: Option<Vec<String>>,
    press_count: Option<u64>,
}

fn row_string(words: &[u64], w: usize) -> String {
    (0..w).map(|i| if (words[i / 64] >> (i % 64)) & 1 == 1 { '1' } else { '0' }).collect()
}

fn chase_cmd(a: ChaseArgs) -> anyhow::Result<ExitCode> {
    let start = read_board(&a.file)?;
    anyhow::ensure!(
        start.width() * start.height() <= PRINT_MAX_CELLS && start.width() <= 100_000,
        "chase prints boards: up to {PRINT_MAX_CELLS} cells and 100000 columns"
    );
    let control = interrupt::control();
    let (w, h) = (start.width(), start.height());
    let zero = vec![0u64; start.stride()];
    // 1. Chase down: press under every light, row after row.
    let (down, last) = chase::chase_presses(&start, &zero, control)?;
    let after = lights::apply_presses(&start, &down);
    // 2. Which first row fixes the last row.
    let sys = lights::poly::PolySystem::new(w, h);
    let first = sys.solve_first_row(&last).map(|x0| {
        // The lightest first row that works (as in the seed's table): walk the kernel's first
        // rows when there are few of them.
        let kernel = sys.kernel_first_rows();
        if kernel.len() > 20 {
            return x0;
        }
        let weight = |v: &[u64]| v.iter().map(|x| x.count_ones()).sum::<u32>();
        let (mut cur, mut best) = (x0.clone(), x0);
        for i in 1u64..(1 << kernel.len()) {
            for (c, k) in cur.iter_mut().zip(&kernel[i.trailing_zeros() as usize]) {
                *c ^= k;
            }
            if weight(&cur) < weight(&best) {
                best = cur.clone();
            }
        }
        best
    });
    // 3. Press it and chase again.
    let full = match &first {
        Some(x0) => {
            let (p, residual) = chase::chase_presses(&start, x0, control)?;
            anyhow::ensure!(
                residual.iter().all(|&x| x == 0) && lights::verify(&start, None, &p),
                "internal error"
            );
            Some(p)
        }
        None => None,
    };
    let report = ChaseReport {
        width: w,
        height: h,
        chase_presses: rows(&down),
        last_row: row_string(&last, w),
        solvable: first.is_some(),
        first_row: first.as_ref().map(|x| row_string(x, w)),
        press_count: full.as_ref().map(Board::count_ones),
        presses: full.as_ref().map(rows),
    };
    if a.json {
        output::print_json(&report)?;
    } else {
        let show = w <= CHASE_PRINT_MAX_WIDTH;
        outln!("1. chase down (press under every light, row after row); presses:")?;
        if show {
            print_board(&down)?;
            outln!("   board after chasing:")?;
            print_board(&after)?;
        }
        outln!("   lights left on the last row: {}", report.last_row)?;
        match &report.first_row {
            None => outln!("2. no first row fixes this last row: the board is not winnable")?,
            Some(f) => {
                outln!("2. press the first row {f}, then chase again")?;
                outln!("3. total presses ({}):", report.press_count.unwrap_or(0))?;
                if show {
                    print_board(full.as_ref().expect("solvable"))?;
                }
            }
        }
    }
    Ok(if report.solvable { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

#[derive(Serialize)]
struct ChaseTableReport {
    width: usize,
    height: usize,
    rank: usize,
    entries: Option<Vec<ChaseEntry>>,
    generators: Vec<ChaseEntry>,
}

#[derive(Serialize)]
struct ChaseEntry {
    last_row: String,
    first_row: String,
}

fn bits_string(v: &damier::gf2::BitVec) -> String {
    v.to_bools().iter().map(|&b| if b { '1' } else { '0' }).collect()
}

fn chase_table(a: SizeArgs) -> anyhow::Result<ExitCode> {
    let (w, h) = board::parse_size(&a.size)?;
    let t = chase::chase_table(w, h)?;
    let generators = (0..w)
        .map(|j| {
            let mut f = damier::gf2::BitVec::zeros(w);
            f.set(j, true);
            ChaseEntry { last_row: bits_string(&t.generators[j]), first_row: bits_string(&f) }
        })
        .collect();
    let entries = t.entries.as_ref().map(|e| {
        e.iter()
            .map(|(l, f)| ChaseEntry { last_row: bits_string(l), first_row: bits_string(f) })
            .collect::<Vec<_>>()
    });
    let report = ChaseTableReport { width: w, height: h, rank: t.rank, entries, generators };
    if a.json {
        output::print_json(&report)?;
    } else {
        outln!(
            "{w}x{h}: after chasing, {} nonzero last rows can be fixed (rank {}); any other last row means no solution",
            lights::power_of_two_minus_one_decimal(t.rank as u64),
            t.rank
        )?;
        match &report.entries {
            Some(e) => {
                outln!("last row -> press on the first row (fewest presses), then chase again")?;
                for x in e {
                    outln!("{}  ->  {}", x.last_row, x.first_row)?;
                }
            }
            None => {
                outln!(
                    "too many to list; generators (first-row press -> last row it changes; combine by XOR):"
                )?;
                for x in &report.generators {
                    outln!("{}  ->  {}", x.first_row, x.last_row)?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct BenchRow {
    task: String,
    seconds: f64,
    verify_seconds: Option<f64>,
    target_seconds: Option<f64>,
    nullity: Option<usize>,
}

fn bench(a: BenchArgs) -> anyhow::Result<ExitCode> {
    let control: &Control = interrupt::control();
    let mut out = Vec::new();
    for &n in &a.sizes {
        board::check_size(n as u64, n as u64)?;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(a.seed);
        let t = Instant::now();
        let start = Board::random(n, n, &mut rng)?;
        let generated = t.elapsed().as_secs_f64();
        // A random start has no solution with probability 1 - 2^-k (k the nullity): the
        // work is the same either way, and the row says which.
        let reps = if n <= 20_000 { 5 } else { 1 };
        let mut best = f64::INFINITY;
        let mut copy_time = 0.0;
        let mut result = None;
        for _ in 0..reps {
            // The press pattern is written over a copy of the start (made outside the timing).
            let t = Instant::now();
            let mut x = start.clone();
            copy_time = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let (nullity, solvable) = lights::solve_in_place(&mut x, Method::Poly, control)?;
            best = best.min(t.elapsed().as_secs_f64());
            result = Some((nullity, solvable, x));
        }
        let (nullity, solvable, presses) = result.expect("at least one run");
        if a.breakdown {
            // The phases of the polynomial method, timed one by one.
            let t = Instant::now();
            let sys = lights::poly::PolySystem::new(n, n);
            let t_sys = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let r = chase::chase_residual(&start, &vec![0; start.stride()], control)?;
            let t_res = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let x0 = sys.solve_first_row(&r);
            let t_first = t.elapsed().as_secs_f64();
            let mut x = start.clone();
            let t = Instant::now();
            if let Some(x0) = &x0 {
                chase::chase_in_place(&mut x, x0, control)?;
            }
            let t_full = t.elapsed().as_secs_f64();
            eprintln!(
                "{n}x{n}: polynomial setup (p_W, p_H(x+1) mod p_W, gcd with cofactor) {t_sys:.4} s; \
                 chase for the last row {t_res:.4} s; first row (conversions, division, product) {t_first:.4} s; \
                 chase writing the presses in place {t_full:.4} s"
            );
        }
        let t = Instant::now();
        let ok = !solvable || lights::verify(&start, None, &presses);
        let verify = t.elapsed().as_secs_f64();
        anyhow::ensure!(ok, "the press pattern for {n}x{n} does not verify");
        let target = match n {
            10_000 => Some(0.015),
            100_000 => Some(1.5),
            _ => None,
        };
        out.push(BenchRow {
            task: format!(
                "solve random {n}x{n} (seed {}, {}; generate {generated:.2} s, copy {copy_time:.2} s)",
                a.seed,
                if solvable { "solved" } else { "no solution" }
            ),
            seconds: best,
            verify_seconds: Some(verify),
            target_seconds: target,
            nullity: Some(nullity),
        });
    }
    if a.nullities_to > 0 {
        let t = Instant::now();
        let nul = lights::square_nullities(a.nullities_to, control)?;
        let s = t.elapsed().as_secs_f64();
        out.push(BenchRow {
            task: format!(
                "nullities of all n x n, n <= {} (max {})",
                a.nullities_to,
                nul.iter().max().unwrap_or(&0)
            ),
            seconds: s,
            verify_seconds: None,
            target_seconds: (a.nullities_to == 25_000).then_some(10.0),
            nullity: None,
        });
    }
    if a.json {
        output::print_json(&out)?;
    } else {
        outln!("{:<80} {:>10} {:>10} {:>10} {:>8}", "task", "seconds", "verify s", "target s", "ratio")?;
        for r in &out {
            outln!(
                "{:<80} {:>10.4} {:>10} {:>10} {:>8}",
                r.task,
                r.seconds,
                r.verify_seconds.map(|v| format!("{v:.4}")).unwrap_or_else(|| "-".into()),
                r.target_seconds.map(|v| format!("{v}")).unwrap_or_else(|| "-".into()),
                r.target_seconds.map(|t| format!("{:.2}", r.seconds / t)).unwrap_or_else(|| "-".into()),
            )?;
        }
        outln!("(ratio = measured / target; below 1 meets the target)")?;
    }
    Ok(ExitCode::SUCCESS)
}
