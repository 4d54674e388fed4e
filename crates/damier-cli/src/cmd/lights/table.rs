//! `damier lights count`, `kernel` and `table`: answers that depend on the size only.

use std::path::PathBuf;
use std::process::ExitCode;

use damier::board::{Board, Size};
use damier::lights::{self, Method};
use serde::Serialize;

use crate::util::OutputPath;
use crate::util::output::{errln, outln};
use crate::util::{board_io, interrupt, output, progress::Progress};

use super::shared::*;

/// Arguments of `damier lights kernel`.
#[derive(Debug, clap::Args)]
pub struct KernelArgs {
    /// Board size, WIDTHxHEIGHT (e.g. 5x5).
    size: String,
    /// Write each basis vector to DIR/kernel-WxH-K.pbm (K = 1..nullity) instead of printing.
    #[arg(long, value_name = "DIR")]
    out: Option<OutputPath>,
    /// Print JSON (keys: width, height, nullity, basis; `files` instead of `basis` with --out).
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

#[derive(Serialize)]
struct CountReport {
    width: usize,
    height: usize,
    nullity: usize,
    solutions: String,
    winnable_fraction: String,
}

pub(super) fn count(a: SizeArgs) -> anyhow::Result<ExitCode> {
    let size: Size = a.size.parse()?;
    let (w, h) = (size.width(), size.height());
    let k = lights::nullity(size);
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

pub(super) fn kernel(a: KernelArgs) -> anyhow::Result<ExitCode> {
    let size: Size = a.size.parse()?;
    // The folder is made ready (only its last part created, said so) before the work.
    if let Some(dir) = &a.out
        && output::ensure_last_dir(dir)?
    {
        errln!("created the folder {}", dir.display());
    }
    let (w, h) = (size.width(), size.height());
    let k = lights::nullity(size);
    let limit = if a.out.is_some() { KERNEL_FILE_MAX_CELLS } else { PRINT_MAX_CELLS };
    anyhow::ensure!(
        k.saturating_mul(w * h) <= limit,
        "{w}x{h} has nullity {k}: a basis of {k} boards of {} cells is too large {} ({limit} cells at most)",
        w * h,
        if a.out.is_some() { "to hold" } else { "to print (--out DIR writes it as bitmaps)" }
    );
    let basis = lights::kernel(size, Method::Poly)?;
    for v in &basis {
        anyhow::ensure!(
            lights::apply_presses(&Board::new(size), v).is_zero(),
            "internal error: a kernel vector is not neutral"
        );
    }
    let files = match &a.out {
        Some(dir) => {
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
struct TableRow {
    size: usize,
    nullity: usize,
    solutions: String,
}

pub(super) fn table(a: TableArgs) -> anyhow::Result<ExitCode> {
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
