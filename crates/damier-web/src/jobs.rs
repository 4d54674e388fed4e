//! Running one command as a child process of the `damier` executable, with bounds.
//!
//! The child is `damier __api GROUP COMMAND`, the JSON object on its stdin; it reads the object
//! as a typed request of the request layer (`damier-api`), checks it against its bounds and
//! runs it, so the answer is byte for byte what `damier GROUP COMMAND --json` prints. The
//! server only bounds the run: a permit from
//! a semaphore (at most `max_jobs` children at once), a time limit, a cap on the answer's size,
//! the server-wide [`Budget`] of bytes held (the answer is read into chunks taken from it), and
//! `kill_on_drop`, so a page that goes away (or cancels) kills its job.
//!
//! A job writes no file and makes no folder: a request's files come as content in its JSON,
//! nothing of a request names a path, and the request layer refuses every option that writes.
//! The child runs in a fixed working folder, [`JOB_FOLDER`] (the file system's root), where
//! nothing is read or written. Whatever ends a job (an answer, the time limit, the page gone,
//! the server stopping), the [`Job`] guard's `Drop` kills the child and frees its slot once it
//! is gone.
//!
//! A server that cannot clean up (killed by SIGKILL, or the machine stopped) still leaves
//! nothing running: on Linux each child gets the parent-death signal (SIGKILL when the server
//! is gone); and nothing on the disk, since its jobs made nothing there.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;
use tokio::sync::mpsc;

use crate::budget::{Budget, Chunk};

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
        /// The command's stdout, verbatim, in chunks held in the server's [`Budget`].
        json: Vec<Chunk>,
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
    /// The bytes the whole server may hold for answers: the child's output is read into it.
    pub budget: &'a Budget,
}

/// The working folder of every job: the file system's root, the same for every job and never
/// written by one (a job writes no file; a relative path, were one ever used, would not land
/// in the folder the server was started from).
pub const JOB_FOLDER: &str = "/";

/// A running job: its child and its slot. Dropping it before the child was waited for (the
/// request's future dropped: the page went away, the time limit passed, or the server is
/// stopping) kills the child and frees the slot once the child is gone, so that the slots
/// count the children still dying; otherwise the slot is freed at once.
pub struct Job {
    child: Option<tokio::process::Child>,
    slot: Option<tokio::sync::OwnedSemaphorePermit>,
}

impl Drop for Job {
    fn drop(&mut self) {
        let slot = self.slot.take();
        let Some(child) = self.child.take() else { return };
        let mut killed = Killed { child, _slot: slot };
        let _ = killed.child.start_kill();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            // If the runtime is stopping, the task is dropped unrun: `Killed`'s drop waits then.
            runtime.spawn(async move {
                let _ = killed.child.wait().await;
            });
        }
    }
}

/// A killed child with its slot, released once the child is gone. Dropped before the child
/// was waited for (no runtime, or a runtime that is stopping: the server is stopping), it
/// waits for the child here, at most [`REAP_WAIT`] (a killed child goes in milliseconds), so
/// that a stopped server exits after its jobs.
struct Killed {
    child: tokio::process::Child,
    _slot: Option<tokio::sync::OwnedSemaphorePermit>,
}

/// The longest a stopping server waits for one killed child.
const REAP_WAIT: Duration = Duration::from_secs(2);

impl Drop for Killed {
    fn drop(&mut self) {
        let start = std::time::Instant::now();
        while matches!(self.child.try_wait(), Ok(None)) && start.elapsed() < REAP_WAIT {
            std::thread::sleep(Duration::from_millis(2));
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
    let mut child = Command::new(runner.executable);
    child.arg("__api");
    if runner.allow_heavy {
        child.arg("--allow-heavy");
    }
    child
        .args([group, command])
        .current_dir(JOB_FOLDER)
        .env(PROGRESS_ENV, if progress.is_some() { "lines" } else { "none" })
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    end_with_the_server(&mut child);
    let child = match child.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Outcome::Failed(format!("cannot start {}: {e}", runner.executable.display()));
        }
    };
    let mut job = Job { child: Some(child), slot: Some(slot) };
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
    // PERF: chunks taken from the server's budget, never one buffer doubling to the size.
    let read_out = runner.budget.read_to_end(stdout, MAX_OUTPUT);
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
        Ok(None) => return Outcome::TooLarge,
        Ok(Some(o)) => o,
        Err(e) => return Outcome::Failed(format!("cannot read the answer: {e}")),
    };
    let Some(child) = job.child.as_mut() else { return Outcome::Failed("no child".into()) };
    let status = match child.wait().await {
        Ok(s) => s,
        Err(e) => return Outcome::Failed(format!("cannot wait for the command: {e}")),
    };
    // Waited for: the slot is freed now, with the job.
    job.child = None;
    drop(job);
    match status.code() {
        // Every answer is a JSON body: a command that printed nothing (a "no" said only on
        // stderr) answers its exit code and its message.
        Some(code @ (0 | 1)) if out.iter().all(|c| c.as_slice().iter().all(u8::is_ascii_whitespace)) => {
            drop(out);
            let json =
                serde_json::json!({ "exit": code, "message": messages.trim() }).to_string().into_bytes();
            match runner.budget.hold(json).await {
                Ok(json) => Outcome::Answer { json: vec![json], exit: code },
                Err(e) => Outcome::Failed(format!("cannot hold the answer: {e}")),
            }
        }
        Some(code @ (0 | 1)) => Outcome::Answer { json: out, exit: code },
        Some(2) => Outcome::Refused(one_line(&messages)),
        Some(EXIT_BEYOND_BOUND) => Outcome::BeyondBound(one_line(&messages)),
        _ => Outcome::Failed(abnormal_end(status, &messages)),
    }
}

/// The log's line for a child that ended with neither an answer nor a refusal: how it ended
/// (its exit code, or the signal that killed it) and its first message, if it printed one.
fn abnormal_end(status: std::process::ExitStatus, messages: &str) -> String {
    let how = match status.code() {
        Some(c) => format!("exit {c}"),
        None => {
            #[cfg(unix)]
            let signal = std::os::unix::process::ExitStatusExt::signal(&status);
            #[cfg(not(unix))]
            let signal: Option<i32> = None;
            signal.map_or("ended without an exit code".to_string(), |s| format!("killed by signal {s}"))
        }
    };
    if messages.trim().is_empty() {
        format!("the command ended abnormally ({how})")
    } else {
        format!("the command ended abnormally ({how}): {}", one_line(messages))
    }
}

/// Makes the child end when the server is gone, however it goes (SIGKILL included): on Linux
/// the parent-death signal, SIGKILL, set in the child before it runs `damier`; a server
/// already gone by then (the child was adopted by another process) fails the start. Elsewhere
/// the server's own stop kills its children (the [`Job`] guard).
///
/// The signal comes when the thread that started the child ends: jobs start on the runtime's
/// worker threads, which live as long as the server's runtime.
fn end_with_the_server(child: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        let server = std::process::id();
        // SAFETY: the closure runs in the forked child before `exec`, where only
        // async-signal-safe calls are allowed: `prctl` and `getppid` are plain system calls,
        // and the errors hold only an error number (no allocation, no lock).
        unsafe {
            child.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                if libc::getppid() as u32 != server {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = child;
}

/// The first meaningful line of the child's messages, without the `damier: error: ` prefix.
/// A line ending with `:` (a panic's "thread 'main' panicked at src/x.rs:1:1:") is joined with
/// the line after it, which says what happened.
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
    // A message that echoes a huge value (`invalid value "999..."`) stays one short line.
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
    use super::{abnormal_end, one_line};

    #[test]
    fn error_line_is_the_first_meaningful_line() {
        assert_eq!(one_line("\ndamier: error: bad size `3`\nmore\n"), "bad size `3`");
        assert_eq!(one_line(""), "the command refused its input");
        let long = one_line(&format!("damier: error: field `n`: invalid value \"{}\"", "9".repeat(10_000)));
        assert!(long.chars().count() < 320 && long.ends_with("(cut)"), "{long}");
    }

    /// A child killed by a signal, having printed nothing, was logged "(killed by a signal):
    /// the command refused its input": the signal is named and no cause invented.
    #[cfg(unix)]
    #[test]
    fn an_abnormal_end_says_how_the_command_ended_and_nothing_more() {
        use std::os::unix::process::ExitStatusExt;
        let killed = std::process::ExitStatus::from_raw(libc::SIGKILL);
        assert_eq!(abnormal_end(killed, ""), "the command ended abnormally (killed by signal 9)");
        assert_eq!(abnormal_end(killed, "\n  \n"), "the command ended abnormally (killed by signal 9)");
        let aborted = std::process::ExitStatus::from_raw(libc::SIGABRT);
        assert_eq!(
            abnormal_end(aborted, "thread 'main' panicked at src/x.rs:1:1:\nboom\n"),
            "the command ended abnormally (killed by signal 6): thread 'main' panicked at src/x.rs:1:1: boom"
        );
        let exit_3 = std::process::ExitStatus::from_raw(3 << 8);
        assert_eq!(abnormal_end(exit_3, ""), "the command ended abnormally (exit 3)");
        assert_eq!(
            abnormal_end(exit_3, "damier: error: disk full\n"),
            "the command ended abnormally (exit 3): disk full"
        );
    }
}
