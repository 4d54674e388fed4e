//! `damier queens sum`: the counts of n from the shares of a split count.
//!
//! Reads the JSON objects printed by `damier queens count N --share K/M --json` (files, or
//! stdin when none or `-` is given; any whitespace between objects), checks that they are the M
//! shares of one n, each once, and prints the total and the unique count (Burnside), as
//! `damier queens count` would.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use damier::queens;

use crate::util::input;
use crate::util::output::Report;

/// Arguments of `damier queens sum`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files holding the shares' JSON outputs (stdin when none, or for `-`).
    files: Vec<PathBuf>,
    /// Print JSON (keys: n, total, unique, seconds = the shares' seconds added up).
    #[arg(long)]
    json: bool,
}

fn read(path: Option<&PathBuf>) -> anyhow::Result<String> {
    let source = path.map_or(input::Source::Stdin, |p| input::Source::of(p));
    input::read_text(source, input::SHARES_MAX_BYTES, "a file of shares' reports")
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let mut reports = Vec::new();
    let sources: Vec<Option<&PathBuf>> =
        if a.files.is_empty() { vec![None] } else { a.files.iter().map(Some).collect() };
    for source in sources {
        let text = read(source)?;
        let what = source.map_or("stdin".to_string(), |p| p.display().to_string());
        // The text of a share (`n = 10, share 1 of 3: 258 solutions ...`) lacks the fingerprint
        // of its task list, which tells that the shares belong to one count: said so, rather
        // than a JSON parse error.
        anyhow::ensure!(
            !text.trim_start().starts_with("n = "),
            "{what}: a share's text report is not summed (it lacks the fingerprint that tells the \
             shares belong together): give `queens count --share K/M` --json"
        );
        for r in serde_json::Deserializer::from_str(&text).into_iter::<queens::count::ShareCount>() {
            reports.push(r.with_context(|| {
                format!("{what}: not a share report of `damier queens count --share K/M --json`")
            })?);
        }
    }
    queens::count::SummedShares::of(&reports)?.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}
