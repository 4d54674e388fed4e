//! The quarter-board engine's measurement aids (docs/performance.md), which print what they
//! measure; they were `#[ignore]` tests. Run in release with the feature `measure`:
//!
//! `cargo run -p damier --release --features measure --example quarters -- AID`
//!
//! - `worker-buffer-peaks`: the largest worker buffers per n (`DAMIER_PEAK_N` one n only,
//!   `DAMIER_PEAK_TASKS` tasks per n);
//! - `layouts-per-task`: time per task of the two quarter layouts, n = 16 to 20;
//! - `profile-tasks`: where a task's time goes (`DAMIER_PROFILE_N` [23], `_TASKS` [4],
//!   `_SEED` [1], `_BATCH`, `_MAX_CUT`, `_GROUP_KEYS`);
//! - `settings-sweep`: CPU time per solution under the current and earlier settings
//!   (`DAMIER_SWEEP_N` [21], `_TASKS` [300], `_ISA` [the widest], `_SEED` [1], `_ROUNDS` [3]).

use std::process::ExitCode;

use damier::cpu::Isa;
use damier::queens::count::measure;

/// The number in the environment variable `key`, if set; an error names a bad one.
fn env(key: &str) -> Result<Option<u64>, String> {
    match std::env::var(key) {
        Err(_) => Ok(None),
        Ok(v) => v.parse().map(Some).map_err(|_| format!("{key}={v}: not a whole number")),
    }
}

/// n from `key` (or `default`), within the engine's 4..=28.
fn board(key: &str, default: u32) -> Result<u32, String> {
    let n = env(key)?.map_or(Ok(default), |n| u32::try_from(n).map_err(|_| format!("{key}: too large")))?;
    if (4..=28).contains(&n) { Ok(n) } else { Err(format!("{key}={n}: the engine takes n = 4..=28")) }
}

fn run(aid: &str) -> Result<(), String> {
    let size = |v: Option<u64>| v.map(|v| v as usize);
    match aid {
        "worker-buffer-peaks" => {
            let only = env("DAMIER_PEAK_N")?.map(|_| board("DAMIER_PEAK_N", 0)).transpose()?;
            measure::worker_buffer_peaks(only, size(env("DAMIER_PEAK_TASKS")?));
        }
        "layouts-per-task" => measure::layouts_per_task(),
        "profile-tasks" => measure::profile_tasks(
            board("DAMIER_PROFILE_N", 23)?,
            size(env("DAMIER_PROFILE_TASKS")?).unwrap_or(4),
            env("DAMIER_PROFILE_SEED")?.unwrap_or(1),
            size(env("DAMIER_PROFILE_BATCH")?),
            size(env("DAMIER_PROFILE_MAX_CUT")?),
            size(env("DAMIER_PROFILE_GROUP_KEYS")?),
        ),
        "settings-sweep" => {
            let isa = match std::env::var("DAMIER_SWEEP_ISA") {
                Err(_) => Isa::best(),
                Ok(name) => name.parse().map_err(|e| format!("DAMIER_SWEEP_ISA: {e}"))?,
            };
            let rounds = env("DAMIER_SWEEP_ROUNDS")?.unwrap_or(3);
            measure::settings_sweep(
                board("DAMIER_SWEEP_N", 21)?,
                size(env("DAMIER_SWEEP_TASKS")?).unwrap_or(300),
                isa,
                env("DAMIER_SWEEP_SEED")?.unwrap_or(1),
                u32::try_from(rounds).map_err(|_| "DAMIER_SWEEP_ROUNDS: too large".to_string())?,
            );
        }
        _ => {
            return Err(format!(
                "unknown aid {aid:?}: worker-buffer-peaks, layouts-per-task, profile-tasks or settings-sweep"
            ));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let aid = std::env::args().nth(1).unwrap_or_default();
    match run(&aid) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quarters: {e}");
            ExitCode::from(2)
        }
    }
}
