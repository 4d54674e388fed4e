//! Writing results: text and JSON on stdout, messages on stderr, files written atomically.
//!
//! Every write error names what was being written ("cannot write standard output: No space
//! left on device", "cannot write sweep.csv: File too large") and is a [`WriteError`], which
//! `main` reports with exit code 74 (`util::exit::FAULT`); only a broken pipe (the reader went
//! away, as in `damier ... | head`) stays quiet. A stdout closed before the start (`>&-`) fails
//! every write with `EBADF` (Rust's runtime would have put `/dev/null` there, losing the
//! result silently).
//!
//! - stdout: [`outln!`]/[`out!`] (`println!` that returns its error instead of panicking),
//!   [`print_json`], and [`stdout`] for long streams (buffered; call `flush` at the end).
//! - stderr: [`errln!`], which never fails: a message that cannot be shown is dropped (a
//!   closed or full stderr must not turn a finished run into a crash).
//! - files: [`write_file`] and [`write_bytes`], the one atomic write of the
//!   CLI: a temporary file in the target's folder (`tempfile::NamedTempFile`), renamed over the
//!   target only once everything was written ([`Durability::Synced`] also flushes it to the
//!   disk first). A failed write leaves the target as it was and no temporary file behind.

use std::fmt;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// A write that failed, naming its target (a path, or "standard output").
#[derive(Debug, thiserror::Error)]
#[error("cannot write {target}")]
pub struct WriteError {
    target: String,
    #[source]
    source: io::Error,
}

/// `err` as an I/O error of the same kind that names `target` (unless it already names one),
/// so that it can travel through `io::Result` code and still say where the write failed.
fn name_target(target: &str, err: io::Error) -> io::Error {
    if err.get_ref().is_some_and(|e| e.is::<WriteError>()) {
        return err;
    }
    io::Error::new(err.kind(), WriteError { target: target.to_string(), source: err })
}

/// Whether `err` is (or wraps) a failed write.
pub fn is_write_error(err: &(dyn std::error::Error + 'static)) -> bool {
    err.is::<WriteError>()
        || err.downcast_ref::<io::Error>().and_then(io::Error::get_ref).is_some_and(|e| e.is::<WriteError>())
}

/// What stdout is called in messages.
const STDOUT: &str = "standard output";

/// A writer whose errors name its target ([`WriteError`]).
pub struct NamedWriter<W: Write> {
    inner: W,
    target: String,
}

impl<W: Write> NamedWriter<W> {
    fn new(inner: W, target: impl Into<String>) -> NamedWriter<W> {
        NamedWriter { inner, target: target.into() }
    }
}

impl<W: Write> Write for NamedWriter<W> {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|e| name_target(&self.target, e))
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf).map_err(|e| name_target(&self.target, e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| name_target(&self.target, e))
    }
}

/// Whether stdout was closed when the process started (`damier ... >&-`). Rust's runtime
/// then opens `/dev/null` in its place (so that no file opened later takes its number), where
/// every write would vanish and the run end with 0; it is recorded before that, and every
/// write to stdout fails instead, as a write to the closed descriptor would have: exit 74.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether stdin was closed when the process started (`damier ... <&-`), recorded as
/// [`STDOUT_CLOSED`] is: the runtime's `/dev/null` in its place read as an empty input, so
/// `walk replay 3 3 - <&-` answered "6 cells stay white after 0 moves" (exit 1). Reads of
/// stdin then fail ([`super::input::stdin`]), as a read of the closed descriptor would have.
static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether stdin was closed when the process started ([`STDIN_CLOSED`]).
pub fn stdin_closed() -> bool {
    STDIN_CLOSED.load(Ordering::Relaxed)
}

/// Runs [`record_closed_streams`] before `main`, and before Rust's runtime replaces a closed
/// standard stream: the loader calls the functions of `.init_array` first.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static RECORD_CLOSED_STREAMS: extern "C" fn() = record_closed_streams;

#[cfg(target_os = "linux")]
extern "C" fn record_closed_streams() {
    // SAFETY: `fcntl(F_GETFD)` only reads the flags of descriptors 1 and 0; it fails with
    // `EBADF` when no such descriptor is open. It touches no Rust state and allocates nothing.
    if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
    // SAFETY: as above, for descriptor 0.
    if unsafe { libc::fcntl(0, libc::F_GETFD) } == -1 {
        STDIN_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// The process's stdout, whose writes fail with `EBADF` when it was closed at the start
/// ([`STDOUT_CLOSED`]).
pub struct RawStdout(io::StdoutLock<'static>);

impl RawStdout {
    fn lock() -> RawStdout {
        RawStdout(io::stdout().lock())
    }

    fn check_open() -> io::Result<()> {
        if STDOUT_CLOSED.load(Ordering::Relaxed) {
            // EBADF, what a write to a closed descriptor gives (9 on every Unix).
            return Err(io::Error::from_raw_os_error(9));
        }
        Ok(())
    }
}

impl Write for RawStdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        RawStdout::check_open()?;
        self.0.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        RawStdout::check_open()?;
        self.0.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        // Nothing was buffered when it is closed: only writes fail (a run that prints nothing
        // on a closed stdout succeeds).
        self.0.flush()
    }
}

/// Buffered stdout whose errors say "standard output"; call `flush` at the end (a buffered
/// writer dropped without it loses its last error).
pub fn stdout() -> NamedWriter<BufWriter<RawStdout>> {
    NamedWriter::new(BufWriter::with_capacity(1 << 16, RawStdout::lock()), STDOUT)
}

/// Writes formatted text to stdout, returning the error (a closed pipe, a closed stdout, a
/// full disk) instead of panicking.
pub fn write_stdout(args: fmt::Arguments<'_>, newline: bool) -> io::Result<()> {
    let mut out = RawStdout::lock();
    out.write_fmt(args)
        .and_then(|()| if newline { out.write_all(b"\n") } else { Ok(()) })
        .map_err(|e| name_target(STDOUT, e))
}

/// Flushes what stdout still buffers (a last line without its newline): at the end of every
/// command, so that its error is reported rather than lost at exit.
pub fn flush_stdout() -> io::Result<()> {
    io::stdout().flush().map_err(|e| name_target(STDOUT, e))
}

/// Prints what clap answers on stdout (the help of `--help`, the version of `-V`), flushed; a
/// failed write (a full disk, a stdout closed at the start) is a [`WriteError`] naming
/// standard output, as every other write to stdout (exit 74; a broken pipe stays quiet).
pub fn print_clap(answer: &clap::Error) -> io::Result<()> {
    RawStdout::check_open()
        .and_then(|()| answer.print())
        .and_then(|()| io::stdout().flush())
        .map_err(|e| name_target(STDOUT, e))
}

/// `println!` that returns `std::io::Result<()>`: use as `outln!(...)?`.
macro_rules! outln {
    () => {
        $crate::util::output::write_stdout(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::util::output::write_stdout(format_args!($($arg)*), true)
    };
}
pub(crate) use outln;

/// `print!` that returns `std::io::Result<()>`: use as `out!(...)?`.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::util::output::write_stdout(format_args!($($arg)*), false)
    };
}
pub(crate) use out;

/// Writes a line to stderr, ignoring a failure (nothing is left to tell it to).
pub fn write_stderr(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// `eprintln!` that never panics (`eprintln!` does when stderr is a closed pipe or a full disk).
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::util::output::write_stderr(format_args!($($arg)*))
    };
}
pub(crate) use errln;

/// Stderr as a writer that never fails: what cannot be written is dropped, as by [`errln!`].
pub struct Stderr;

impl Write for Stderr {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _ = io::stderr().write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Prints `value` as pretty JSON on stdout, followed by a newline.
pub fn print_json<T: serde::Serialize + ?Sized>(value: &T) -> anyhow::Result<()> {
    let mut out = stdout();
    // An I/O failure comes back out of serde_json as the error the writer gave (naming stdout).
    serde_json::to_writer_pretty(&mut out, value).map_err(io::Error::from)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}

/// A command's result: printed as text, or as JSON with `--json`, by one call at the end of
/// the command instead of an `if json { .. } else { .. }` tail in each.
pub trait Report: serde::Serialize {
    /// Prints the human-readable form on stdout.
    fn print_text(&self) -> anyhow::Result<()>;

    /// Prints as JSON when `json`, else as text.
    fn print(&self, json: bool) -> anyhow::Result<()> {
        if json { print_json(self) } else { self.print_text() }
    }
}

/// Makes a write past the file-size limit (`ulimit -f`) fail with "File too large" instead of
/// killing the process (the default action of `SIGXFSZ`), so that it is reported like any other
/// failed write and the temporary file is removed.
pub fn report_file_size_limit() {
    #[cfg(unix)]
    // SAFETY: setting a signal's action to "ignore" installs no handler code; called at the
    // start of `main`, before any thread exists.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// How far a file is pushed towards the disk before it takes its final name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// Renamed into place once written: an interrupted run never leaves half a file. For what
    /// is cheap to make again (pictures, exports, tables).
    Renamed,
    /// Also flushed to the disk (`sync_all`) before the rename, and the folder after it: for the
    /// results of long runs (solutions, experiment CSVs, checkpoints), which a power cut right
    /// after the run must not lose.
    Synced,
}

/// A file being written: a temporary file in the target's folder, or the target itself when
/// that is not a regular file (`/dev/null`, a device, a named pipe), which cannot be replaced.
struct Pending {
    target: PathBuf,
    temp: Option<tempfile::NamedTempFile>,
    /// The temporary file registered for a second Ctrl-C to remove (dropped after `temp`).
    _abandoned: Option<super::interrupt::Temporary>,
}

impl Pending {
    fn start(path: &Path) -> io::Result<Pending> {
        let existing = std::fs::metadata(path).ok();
        if existing.as_ref().is_some_and(|m| !m.is_file()) {
            return Ok(Pending { target: path.to_path_buf(), temp: None, _abandoned: None });
        }
        // Write where a symbolic link points, so that the link stays a link.
        let target = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                std::fs::canonicalize(path).unwrap_or_else(|_| path.into())
            }
            _ => path.to_path_buf(),
        };
        let folder = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // A new file gets the usual mode (0666 less the umask), a replaced one keeps its own.
        #[cfg(unix)]
        let mode = {
            use std::os::unix::fs::PermissionsExt;
            std::fs::Permissions::from_mode(existing.map_or(0o666, |m| m.permissions().mode() & 0o7777))
        };
        #[cfg(unix)]
        builder.permissions(mode);
        // tempfile's message names the temporary path: keep the plain OS error only.
        let temp = builder.tempfile_in(folder).map_err(plain_os_error)?;
        let abandoned = super::interrupt::Temporary::new(temp.path(), &target);
        Ok(Pending { target, temp: Some(temp), _abandoned: Some(abandoned) })
    }

    /// A writer into the file (the temporary one, or the target itself).
    fn writer(&self) -> io::Result<std::fs::File> {
        match &self.temp {
            Some(t) => t.as_file().try_clone(),
            None => std::fs::OpenOptions::new().write(true).truncate(true).open(&self.target),
        }
    }

    /// Moves the finished file into place (after flushing it to the disk when asked).
    fn finish(self, durability: Durability) -> io::Result<()> {
        let Some(temp) = self.temp else { return Ok(()) };
        if durability == Durability::Synced {
            temp.as_file().sync_all()?;
        }
        // On failure the temporary file is dropped with the error, so removed.
        temp.persist(&self.target).map_err(|e| e.error)?;
        if durability == Durability::Synced
            && let Some(folder) = self.target.parent().filter(|p| !p.as_os_str().is_empty())
        {
            // Makes the rename itself durable. Some file systems cannot sync a folder; the
            // file is in place either way, so this one is best effort.
            let _ = std::fs::File::open(folder).and_then(|f| f.sync_all());
        }
        Ok(())
    }
}

/// `err` without the words tempfile adds (which name the temporary path, not the target):
/// its kind alone ("permission denied", "no storage space").
fn plain_os_error(err: io::Error) -> io::Error {
    if err.get_ref().is_some() { io::Error::from(err.kind()) } else { err }
}

/// Refuses, before a run, an output file in a folder that does not exist: a wrong argument
/// (exit 2), told at once rather than after hours of work. A write that fails later is a
/// fault (exit 74).
pub fn check_folder(path: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(!path.is_dir(), "cannot write {}: it is a directory", path.display());
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    anyhow::ensure!(dir.is_dir(), "cannot write {}: no directory {}", path.display(), dir.display());
    check_writable(dir).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// Whether a file can be made in `dir` (read-only file system, no permission): tried with a
/// temporary file, removed at once.
fn check_writable(dir: &Path) -> anyhow::Result<()> {
    tempfile::Builder::new()
        .prefix(".damier-check-")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| anyhow::anyhow!("{} is not writable ({})", dir.display(), plain_os_error(e)))
}

/// Checks, before any work, every file or folder argument the command will write (typed
/// [`super::OutputPath`]): a file's folder exists and is writable; a folder argument (value
/// name `DIR`) exists, or its parent does (the last folder is created by the command).
///
/// `-` is standard output for the options in [`TO_STDOUT`]; any other option refuses it (it
/// names a file, a folder or a journal that is written more than once).
pub fn check_output_paths(cmd: &clap::Command, m: &clap::ArgMatches) -> anyhow::Result<()> {
    check_output_paths_in(cmd, m, "")
}

/// The options (subcommand path, argument id) where `-` is standard output: each writes one
/// text or board that is the next command's input (issue 52 §4).
pub const TO_STDOUT: &[(&str, &str)] = &[
    ("walk solve", "out"),
    ("queens solve", "out"),
    ("lights solve", "out"),
    ("lights solve", "save_start"),
];

/// Whether `path` is `-`, standard output for the options in [`TO_STDOUT`].
pub fn is_stdout(path: &Path) -> bool {
    path == Path::new("-")
}

fn check_output_paths_in(cmd: &clap::Command, m: &clap::ArgMatches, path_name: &str) -> anyhow::Result<()> {
    for arg in cmd.get_arguments() {
        let id = arg.get_id().as_str();
        let Ok(Some(path)) = m.try_get_one::<super::OutputPath>(id) else { continue };
        if is_stdout(path) {
            let long = arg.get_long().unwrap_or(id);
            anyhow::ensure!(
                TO_STDOUT.contains(&(path_name, id)),
                "--{long} - : standard output is not offered here (--{long} names a file to write); \
                 give a file name (./- for a file named -)"
            );
            continue;
        }
        let folder = arg.get_value_names().is_some_and(|names| names.iter().any(|n| n.as_str() == "DIR"));
        if folder {
            check_dir(path)?;
        } else {
            check_folder(path)?;
        }
    }
    if let Some((name, sub)) = m.subcommand()
        && let Some(sub_cmd) = cmd.find_subcommand(name)
    {
        check_output_paths_in(sub_cmd, sub, format!("{path_name} {name}").trim_start())?;
    }
    Ok(())
}

/// Makes the output folder `dir` ready before a run: an existing folder is kept; a missing
/// one is created when its parent exists (only the last folder: a whole missing path is more
/// likely a typo, refused with exit 2). Returns whether the folder was created.
pub fn ensure_last_dir(dir: &Path) -> anyhow::Result<bool> {
    if check_dir(dir)? {
        return Ok(false);
    }
    std::fs::create_dir(dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {}", dir.display(), plain_os_error(e)))?;
    Ok(true)
}

/// Whether the output folder `dir` can be used: `true` when it exists (and is writable),
/// `false` when only its last folder is missing; an error otherwise.
fn check_dir(dir: &Path) -> anyhow::Result<bool> {
    if dir.is_dir() {
        check_writable(dir)?;
        return Ok(true);
    }
    anyhow::ensure!(!dir.exists(), "cannot write into {}: it is not a directory", dir.display());
    let parent = dir.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    anyhow::ensure!(
        parent.is_dir(),
        "cannot create {}: no directory {} (only the last folder of a path is created)",
        dir.display(),
        parent.display()
    );
    Ok(false)
}

/// Writes `path` atomically through a buffered writer: `fill` writes the whole content, which
/// takes the name `path` only if `fill` and every write succeeded. A failure of `fill` (an
/// I/O error, or another, such as Ctrl-C) leaves `path` as it was.
pub fn write_file(
    path: &Path,
    durability: Durability,
    fill: impl FnOnce(&mut NamedWriter<BufWriter<std::fs::File>>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let named = |e: io::Error| name_target(&path.display().to_string(), e);
    let pending = Pending::start(path).map_err(named)?;
    let file = pending.writer().map_err(named)?;
    let mut out = NamedWriter::new(BufWriter::with_capacity(1 << 20, file), path.display().to_string());
    fill(&mut out)?;
    out.flush()?;
    drop(out);
    pending.finish(durability).map_err(named)?;
    Ok(())
}

/// [`write_file`] with content already in memory.
pub fn write_bytes(path: &Path, durability: Durability, bytes: &[u8]) -> anyhow::Result<()> {
    write_file(path, durability, |w| Ok(w.write_all(bytes)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_finished_write_replaces_the_file_and_leaves_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        std::fs::write(&path, "old\n").unwrap();
        for durability in [Durability::Renamed, Durability::Synced] {
            write_bytes(&path, durability, b"new\n").unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
            assert_eq!(names(dir.path()), ["out.csv"]);
        }
    }

    #[test]
    fn a_failed_fill_keeps_the_old_file_and_removes_the_temporary_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old\n").unwrap();
        let err = write_file(&path, Durability::Synced, |w| {
            w.write_all(b"half")?;
            anyhow::bail!("stopped")
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "stopped");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        assert_eq!(names(dir.path()), ["out.txt"]);
        assert_eq!(names(dir.path()), ["out.txt"]);
    }

    #[test]
    fn errors_name_the_target_and_keep_their_kind() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-such-folder").join("out.txt");
        let err = write_bytes(&missing, Durability::Renamed, b"x").unwrap_err();
        let text = format!("{err:#}");
        assert!(text.starts_with(&format!("cannot write {}: ", missing.display())), "{text}");
        assert!(!text.contains(".out.txt."), "names the temporary file: {text}");
        assert!(err.chain().any(is_write_error));
        #[cfg(target_os = "linux")]
        {
            // Through a link, so that a regression replaces the link, never the device.
            let full = dir.path().join("full");
            std::os::unix::fs::symlink("/dev/full", &full).unwrap();
            let err = write_bytes(&full, Durability::Synced, b"x").unwrap_err();
            let expected = format!("cannot write {}: No space left on device (os error 28)", full.display());
            assert_eq!(format!("{err:#}"), expected);
            let io = err.downcast_ref::<io::Error>().unwrap();
            assert_eq!(io.kind(), io::ErrorKind::StorageFull);
            // Written in place, never replaced.
            assert!(std::fs::symlink_metadata(&full).unwrap().file_type().is_symlink());
            assert!(!std::fs::metadata("/dev/full").unwrap().is_file());
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_stays_a_link_and_modes_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_bytes(&link, Durability::Renamed, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o640);
    }
}
