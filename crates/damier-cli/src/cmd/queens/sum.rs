//! `damier queens sum`: the counts of n from the shares of a split count.
//!
//! Reads the JSON objects printed by `damier queens count N --share K/M --json` (files, or
//! stdin when none or `-` is given; any whitespace between objects), checks that they are the M
//! shares of one n, each once, and prints the total and the unique count (Burnside), as
//! `damier queens count` would.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use damier::queens;

use super::count::ShareReport;
use crate::util::output;
use crate::util::output::outln;

/// Arguments of `damier queens sum`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files holding the shares' JSON outputs (stdin when none, or for `-`).
    files: Vec<PathBuf>,
    /// Print JSON (keys: n, total, unique, seconds = the shares' seconds added up).
    #[arg(long)]
    json: bool,
}

/// Largest input read (a share's report is about 100 bytes).
const MAX_INPUT: u64 = 256 << 20;

#[derive(serde::Serialize)]
struct SumReport {
    n: u32,
    total: u64,
    unique: u64,
    seconds: f64,
}

fn read(path: Option<&PathBuf>) -> anyhow::Result<String> {
    let mut text = String::new();
    let what = path.map_or("stdin".to_string(), |p| p.display().to_string());
    match path {
        Some(p) if p.as_os_str() != "-" => {
            std::fs::File::open(p)
                .with_context(|| format!("cannot open {what}"))?
                .take(MAX_INPUT + 1)
                .read_to_string(&mut text)
                .with_context(|| format!("cannot read {what}"))?;
        }
        _ => {
            std::io::stdin().take(MAX_INPUT + 1).read_to_string(&mut text).context("cannot read stdin")?;
        }
    }
    if text.len() as u64 > MAX_INPUT {
        bail!("{what} is larger than {} MiB", MAX_INPUT >> 20);
    }
    Ok(text)
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let mut reports = Vec::new();
    let sources: Vec<Option<&PathBuf>> =
        if a.files.is_empty() { vec![None] } else { a.files.iter().map(Some).collect() };
    for source in sources {
        let text = read(source)?;
        let what = source.map_or("stdin".to_string(), |p| p.display().to_string());
        for r in serde_json::Deserializer::from_str(&text).into_iter::<ShareReport>() {
            reports.push(r.with_context(|| {
                format!("{what}: not a share report of `damier queens count --share K/M --json`")
            })?);
        }
    }
    let Some(first) = reports.first() else { bail!("no share report given") };
    let (n, shares) = (first.n, first.shares);
    if !(1..=super::count::MAX_SHARES).contains(&shares) {
        bail!("{shares} shares: the share count must be in 1..={}", super::count::MAX_SHARES);
    }
    let mut seen = vec![false; shares as usize];
    // A u128: no set of reports can wrap it (at most 10^6 shares of a u64 each).
    let (mut total, mut seconds) = (0u128, 0f64);
    for r in &reports {
        if r.n != n || r.shares != shares {
            bail!(
                "shares of different counts: n = {}, {} shares and n = {}, {} shares",
                n,
                shares,
                r.n,
                r.shares
            );
        }
        if !(1..=shares).contains(&r.share) {
            bail!("share {} of {} is out of range", r.share, shares);
        }
        if std::mem::replace(&mut seen[r.share as usize - 1], true) {
            bail!("share {} of {} is given twice", r.share, shares);
        }
        total += u128::from(r.share_total);
        seconds += r.seconds;
    }
    let missing: Vec<String> =
        seen.iter().enumerate().filter(|(_, s)| !**s).map(|(i, _)| (i + 1).to_string()).take(20).collect();
    if !missing.is_empty() {
        bail!(
            "missing shares of {shares}: {}{}",
            missing.join(", "),
            if missing.len() == 20 { ", ..." } else { "" }
        );
    }
    let counts = queens::count::counts_from_total(n, queens::count::total_from_sum(total)?)?;
    let report = SumReport { n, total: counts.total, unique: counts.unique, seconds };
    if a.json {
        output::print_json(&report)?;
    } else {
        outln!(
            "n = {}: {} solutions, {} unique up to symmetry (from {} shares, {:.3} s of counting in all)",
            report.n,
            report.total,
            report.unique,
            shares,
            report.seconds
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
