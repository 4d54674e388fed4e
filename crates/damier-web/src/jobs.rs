//! Running one command as a child process of the `damier` executable, with bounds.
//!
//! The child is `damier __api GROUP COMMAND`, the JSON object on its stdin; it maps the object
//! onto its own arguments, checks them against its bounds (both the CLI's, with its commands)
//! and runs the command with `--json`, so the answer is byte for byte what the command line
//! prints. The server only bounds the run: a permit from
//! a semaphore (at most `max_jobs` children at once), a time limit, a cap on the answer's size,
//! and `kill_on_drop`, so a page that goes away (or cancels) kills its job.
//!
//! The server owns each job's private folder (0700, [`private_folder`]), where the child writes
//! the request's input files (0600): the folder is removed when the job ends, whatever ends it
//! (an answer, the time limit, the page gone: the [`Job`] guard's `Drop` kills the child and
//! removes the folder once the child is gone).

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;
use tokio::sync::mpsc;

/// Largest answer returned (bytes of JSON); `queens list 14` is about 20 MB.
pub const MAX_OUTPUT: u64 = 64 << 20;

/// Most bytes of the child's messages kept for the error line.
const MAX_MESSAGES: usize = 64 << 10;

/// The environment variable that makes the child print its progress as JSON lines on stderr.
pub const PROGRESS_ENV: &str = "DAMIER_PROGRESS";

/// The prefix of a progress line on the child's stderr (the rest is `{"label", "done",
/// "total"}`).
pub const PROGRESS_PREFIX: &str = "damier-progress ";

/// How a job ended.
#[derive(Debug)]
pub enum Outcome {
    /// Exit 0 (yes / done) or 1 (a "no" answer): the JSON the command printed (or, when it
    /// printed nothing, `{"exit", "message"}` with its messages).
    Answer {
        /// The command's stdout, verbatim.
        json: Vec<u8>,
        /// 0 or 1.
        exit: i32,
    },
    /// Exit 2: the command refused its input; its one-line message.
    Refused(String),
    /// Exit [`EXIT_BEYOND_BOUND`]: the arguments exceed the server's bounds; the message names
    /// the bound.
    BeyondBound(String),
    /// The time limit passed; the child was killed.
    TimedOut(Duration),
    /// The answer exceeded [`MAX_OUTPUT`]; the child was killed.
    TooLarge,
    /// The child could not start, failed on the server's side (a write error, exit 74) or
    /// ended abnormally (a crash): what happened, for the server's log.
    Failed(String),
}

/// The exit code of `damier __api` when the request's arguments exceed the server's bounds
/// (the CLI's bounds of its served commands): `EX_NOPERM` of `sysexits.h`, a code no command uses.
pub const EXIT_BEYOND_BOUND: i32 = 77;

/// Runs `group command` on `body` (a JSON object, already checked) and waits for the end.
/// `progress` receives the progress lines as they come. Dropping the future kills the child.
pub async fn run(
    runner: &Runner<'_>,
    group: &str,
    command: &str,
    body: &[u8],
    progress: Option<&mpsc::Sender<String>>,
) -> Outcome {
    let limit = runner.timeout;
    let work = async {
        let Ok(slot) = runner.slots.clone().acquire_owned().await else {
            return Outcome::Failed("the job queue is closed".into());
        };
        run_child(runner, group, command, body, progress, slot).await
    };
    tokio::time::timeout(limit, work).await.unwrap_or(Outcome::TimedOut(limit))
}

/// What running a job needs from the server: its settings and its slots (given by the
/// router, so that this module imports nothing of it).
pub struct Runner<'a> {
    /// The `damier` executable.
    pub executable: &'a std::path::Path,
    /// Run with `--allow-heavy`.
    pub allow_heavy: bool,
    /// Time limit, waiting included.
    pub timeout: Duration,
    /// One permit per running command, held until its child is gone.
    pub slots: &'a std::sync::Arc<tokio::sync::Semaphore>,
}

/// The prefix of a job's folder name in the system's temporary folder.
pub const FOLDER_PREFIX: &str = "damier-job-";

/// A new private folder for one job's input files: in the system's temporary folder, readable
/// by its owner only (0700 on Unix).
pub fn private_folder() -> std::io::Result<tempfile::TempDir> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(FOLDER_PREFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o700));
    }
    builder.tempdir()
}

/// A running job: its child, its folder and its slot. Dropping it before the child was waited
/// for (the request's future dropped: the page went away, or the time limit passed) kills the
/// child, and removes the folder and frees the slot once the child is gone, so nothing is
/// written there after the removal and the slots count the children still dying; otherwise
/// the folder is removed and the slot freed at once.
pub struct Job {
    child: Option<tokio::process::Child>,
    folder: Option<tempfile::TempDir>,
    slot: Option<tokio::sync::OwnedSemaphorePermit>,
}

impl Drop for Job {
    fn drop(&mut self) {
        let (folder, slot) = (self.folder.take(), self.slot.take());
        let Some(mut child) = self.child.take() else { return };
        let _ = child.start_kill();
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                // If the runtime is stopping, the task is dropped unrun: the folder goes then.
                runtime.spawn(async move {
                    let _ = child.wait().await;
                    drop((folder, slot));
                });
            }
            Err(_) => drop((folder, slot)),
        }
    }
}

async fn run_child(
    runner: &Runner<'_>,
    group: &str,
    command: &str,
    body: &[u8],
    progress: Option<&mpsc::Sender<String>>,
    slot: tokio::sync::OwnedSemaphorePermit,
) -> Outcome {
    let folder = match private_folder() {
        Ok(f) => f,
        Err(e) => return Outcome::Failed(format!("cannot create a job folder: {e}")),
    };
    let mut child = Command::new(runner.executable);
    child.arg("__api");
    if runner.allow_heavy {
        child.arg("--allow-heavy");
    }
    child.arg("--files").arg(folder.path());
    let child = match child
        .args([group, command])
        .env(PROGRESS_ENV, if progress.is_some() { "lines" } else { "none" })
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            return Outcome::Failed(format!("cannot start {}: {e}", runner.executable.display()));
        }
    };
    let mut job = Job { child: Some(child), folder: Some(folder), slot: Some(slot) };
    let Some(child) = job.child.as_mut() else { return Outcome::Failed("no child".into()) };
    let (Some(mut stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Outcome::Failed("the child's pipes are missing".into());
    };
    let body = body.to_vec();
    let feed = async move {
        // A child that exits early closes its stdin: not an error of ours.
        let _ = stdin.write_all(&body).await;
        drop(stdin);
    };
    let read_out = async move {
        let mut out = Vec::new();
        let r = stdout.take(MAX_OUTPUT + 1).read_to_end(&mut out).await;
        r.map(|_| out)
    };
    let read_err = async move {
        let mut lines = BufReader::new(stderr).lines();
        let mut messages = String::new();
        while let Ok(Some(line)) = lines.next_line().await {
            if let Some(p) = line.strip_prefix(PROGRESS_PREFIX) {
                if let Some(tx) = progress {
                    let _ = tx.try_send(p.to_string());
                }
            } else if messages.len() < MAX_MESSAGES {
                messages.push_str(&line);
                messages.push('\n');
            }
        }
        messages
    };
    let ((), out, messages) = tokio::join!(feed, read_out, read_err);
    let out = match out {
        Ok(o) if o.len() as u64 > MAX_OUTPUT => return Outcome::TooLarge,
        Ok(o) => o,
        Err(e) => return Outcome::Failed(format!("cannot read the answer: {e}")),
    };
    let Some(child) = job.child.as_mut() else { return Outcome::Failed("no child".into()) };
    let status = match child.wait().await {
        Ok(s) => s,
        Err(e) => return Outcome::Failed(format!("cannot wait for the command: {e}")),
    };
    // Waited for: the folder goes now, with the job.
    job.child = None;
    drop(job);
    match status.code() {
        // Every answer is a JSON body: a command that printed nothing (a "no" said only on
        // stderr) answers its exit code and its message.
        Some(code @ (0 | 1)) if out.iter().all(u8::is_ascii_whitespace) => Outcome::Answer {
            json: serde_json::json!({ "exit": code, "message": messages.trim() }).to_string().into_bytes(),
            exit: code,
        },
        Some(code @ (0 | 1)) => Outcome::Answer { json: out, exit: code },
        Some(2) => Outcome::Refused(one_line(&messages)),
        Some(EXIT_BEYOND_BOUND) => Outcome::BeyondBound(one_line(&messages)),
        other => Outcome::Failed(format!(
            "the command ended abnormally ({}): {}",
            other.map_or("killed by a signal".to_string(), |c| format!("exit {c}")),
            one_line(&messages)
        )),
    }
}

/// The first meaningful line of the child's messages, without the `damier: error: ` prefix.
/// A line ending with `:` (clap's "the following required arguments were not provided:") is
/// joined with the line after it, which names what is missing.
pub fn one_line(messages: &str) -> String {
    let mut lines = messages.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("the command refused its input");
    let first = first.strip_prefix("damier: ").unwrap_or(first);
    let mut line = first.strip_prefix("error: ").unwrap_or(first).to_string();
    if line.ends_with(':')
        && let Some(next) = lines.next()
    {
        line.push(' ');
        line.push_str(next);
    }
    // A message that echoes a huge value (clap's "invalid value '999...'") stays one short line.
    if let Some((cut, _)) = line.char_indices().nth(MAX_LINE) {
        line.truncate(cut);
        line.push_str("… (cut)");
    }
    line
}

/// Most characters of an error line answered to a page.
const MAX_LINE: usize = 300;

/// The default number of concurrent jobs: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// The default time limit of one job.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn error_line_is_the_first_meaningful_line() {
        assert_eq!(one_line("\ndamier: error: bad size `3`\nmore\n"), "bad size `3`");
        assert_eq!(
            one_line("error: unexpected argument '--x' found\n\nUsage: ..."),
            "unexpected argument '--x' found"
        );
        assert_eq!(one_line(""), "the command refused its input");
        let long = one_line(&format!("error: invalid value '{}'", "9".repeat(10_000)));
        assert!(long.chars().count() < 320 && long.ends_with("(cut)"), "{long}");
        assert_eq!(
            one_line("error: the following required arguments were not provided:\n  <N>\n\nUsage: damier"),
            "the following required arguments were not provided: <N>"
        );
    }
}
