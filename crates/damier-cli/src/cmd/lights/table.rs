//! `damier lights count`, `kernel` and `table`: answers that depend on the size only.

use std::process::ExitCode;

use damier::board::Size;
use damier::lights;

use crate::report::lights::Kernel;
use crate::util::OutputPath;
use crate::util::output::{Report, errln};
use crate::util::progress::{self, Progress};
use crate::util::{board_io, interrupt, layer, output};

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
    /// Largest side L (2 to 100000).
    #[arg(long, default_value_t = 39, value_parser = crate::util::ranged::<u64>(2, damier::lights::TABLE_MAX_N))]
    to: u64,
    /// Print JSON (a list of {size, nullity, solutions}).
    #[arg(long)]
    json: bool,
}

pub(super) fn count(a: SizeArgs) -> anyhow::Result<ExitCode> {
    let count =
        damier_api::lights::count(&damier_api::lights::Sized { size: a.size }).map_err(layer::error)?;
    count.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn kernel(a: KernelArgs) -> anyhow::Result<ExitCode> {
    let size: Size = a.size.parse()?;
    let (w, h) = (size.width(), size.height());
    // What the basis holds is refused before anything is made, the folder included.
    damier_api::lights::check_basis(size, a.out.is_some()).map_err(layer::error)?;
    // The folder is made ready (only its last part created, said so) before the work.
    if let Some(dir) = &a.out
        && output::ensure_last_dir(dir)?
    {
        errln!("created the folder {}", dir.display());
    }
    let basis = lights::sizes::neutral_basis(size, interrupt::control())?;
    let record = match &a.out {
        Some(dir) => {
            let mut files = Vec::with_capacity(basis.len());
            for (i, v) in basis.iter().enumerate() {
                interrupt::check()?;
                let path = dir.join(format!("kernel-{w}x{h}-{}.pbm", i + 1));
                board_io::write(&path, v)?;
                files.push(path);
            }
            Kernel::written(size, basis.len(), dir.to_path_buf(), files)
        }
        None => Kernel::listed(size, &basis),
    };
    record.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}

/// From this largest side on `lights table` lasts seconds (1.1 s to 10 000 and 12.6 s to
/// 30 000 in a release build on 2 loaded cores; about L^2.2), so it says it is alive.
const LONG_TABLE_FROM: u64 = 10_000;

pub(super) fn table(a: TableArgs) -> anyhow::Result<ExitCode> {
    let n = a.to as usize;
    let control = interrupt::control();
    let bar = Progress::sized(a.to >= LONG_TABLE_FROM, control, (n as u64 + 2) / 2, "lights table", || {
        // 1.1 s at 10 000, about L^2.2.
        let seconds = 1.1 * (n as f64 / 1e4).powf(2.2);
        format!("the nullities of the L x L boards, L = 2 to {n}: {}", progress::projected(seconds))
    });
    let table = lights::sizes::square_table(n, control)?;
    drop(bar);
    table.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
