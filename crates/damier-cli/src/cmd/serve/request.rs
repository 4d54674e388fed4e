//! A served request of the request layer ([`damier_api`]), in the `__api` child: read as a
//! typed request, bounded, run in this process's surroundings (Ctrl-C, progress lines), and
//! its record printed as `--json` prints it. No command line is built and clap parses nothing.

use std::io::Write;
use std::process::ExitCode;

use damier_api::{Refusal, Request};

use crate::util::layer::Process;
use crate::util::output::errln;
use crate::util::{exit, output};

/// The advice at the end of every refusal beyond the bounds.
const HEAVY: &str = "(start the server with --allow-heavy for more)";

/// Answers the request at `path` with the JSON fields `body`: the record on stdout (exit 0, or
/// 1 for a "no"), or a refusal: one line on stderr, exit 2 (bad input), the server's
/// [`damier_web::jobs::EXIT_BEYOND_BOUND`] (beyond its bounds, unless `heavy`), 1 (a "no" with
/// messages only) or 74 (a fault).
pub(super) fn answer(path: &str, body: &serde_json::Value, heavy: bool) -> anyhow::Result<ExitCode> {
    let ran = Request::parse(path, body)
        .and_then(|r| r.bound(heavy).map(|()| r))
        .and_then(|r| damier_api::run(&r, &Process));
    let record = match ran {
        Ok(record) => record,
        Err(Refusal::Bound(m)) => {
            errln!("damier: error: {m} {HEAVY}");
            return Ok(ExitCode::from(damier_web::jobs::EXIT_BEYOND_BOUND as u8));
        }
        Err(Refusal::No(lines)) => {
            for line in lines.lines() {
                errln!("damier: {line}");
            }
            return Ok(ExitCode::from(exit::NO));
        }
        Err(Refusal::Fault(m)) => return Err(exit::fault(m)),
        Err(Refusal::Input(m) | Refusal::NotHere(m)) => anyhow::bail!("{m}"),
    };
    let mut out = output::stdout();
    record.write_json(&mut out)?;
    out.flush()?;
    Ok(if record.yes() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}
