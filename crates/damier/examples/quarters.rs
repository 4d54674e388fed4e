//! The quarter-board engine's measurement aids (docs/performance.md), which print what they
//! measure; they were `#[ignore]` tests. Run in release with the feature `measure`:
//!
//! `cargo run -p damier --release --features measure --example quarters -- AID`
//!
//! - `worker-buffer-peaks`: the largest worker buffers per n (`DAMIER_PEAK_N` one n only,
//!   `DAMIER_PEAK_TASKS` tasks per n, `DAMIER_PEAK_BATCH` stored keys per batch [the engine's],
//!   beside the bytes the count's plan allows a worker);
//! - `layouts-per-task`: time per task of the two quarter layouts, n = 16 to 20;
//! - `profile-tasks`: where a task's time goes (`DAMIER_PROFILE_N` [23], `_TASKS` [4],
//!   `_SEED` [1], `_BATCH`, `_MAX_CUT`, `_GROUP_KEYS`);
//! - `settings-sweep`: CPU time per solution under the current and earlier settings
//!   (`DAMIER_SWEEP_N` [21], `_TASKS` [300], `_ISA` [the widest], `_SEED` [1], `_ROUNDS` [3]);
//! - `count`: one count on a one-thread pool, the call `damier queens count N --threads 1
//!   --isa X [--share K/M]` makes, without the command line's build (`DAMIER_COUNT_N` [18],
//!   `_ISA` [the widest], `_SHARE` [whole; `K/M`, 1-based as `--share`]): prints n, the unit,
//!   the total and the seconds; time it with `/usr/bin/time` for its CPU seconds.

use std::process::ExitCode;

use damier::control::Control;
use damier::cpu::Isa;
use damier::queens::count::{CountOptions, Share, count_share_with, measure};

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
            measure::worker_buffer_peaks(
                only,
                size(env("DAMIER_PEAK_TASKS")?),
                size(env("DAMIER_PEAK_BATCH")?),
            );
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
        "count" => count_one_thread()?,
        _ => {
            return Err(format!(
                "unknown aid {aid:?}: worker-buffer-peaks, layouts-per-task, profile-tasks, settings-sweep or count"
            ));
        }
    }
    Ok(())
}

/// The `count` aid: n, the unit and the share from the environment, counted on one thread.
fn count_one_thread() -> Result<(), String> {
    let n = board("DAMIER_COUNT_N", 18)?;
    let isa = match std::env::var("DAMIER_COUNT_ISA") {
        Err(_) => Isa::best(),
        Ok(name) => name.parse().map_err(|e| format!("DAMIER_COUNT_ISA: {e}"))?,
    };
    let share = match std::env::var("DAMIER_COUNT_SHARE") {
        Err(_) => Share::WHOLE,
        Ok(text) => text
            .split_once('/')
            .and_then(|(k, m)| Share::new(k.parse::<u32>().ok()?.checked_sub(1)?, m.parse().ok()?))
            .ok_or(format!("DAMIER_COUNT_SHARE={text}: expected K/M with 1 <= K <= M"))?,
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().map_err(|e| e.to_string())?;
    let options = CountOptions::on_this_machine(isa, None);
    let start = std::time::Instant::now();
    let total =
        pool.install(|| count_share_with(n, share, &options, &Control::new())).map_err(|e| e.to_string())?;
    println!("{n} {isa} {total} {:.3}", start.elapsed().as_secs_f64());
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
