//! Writing results: text and JSON on stdout, files written atomically.
//!
//! Output goes through [`outln!`]/[`out!`], which return the write error instead of panicking as
//! `println!` does: when the reader goes away (`damier ... | head`) the error travels up to
//! `main`, which exits quietly on a broken pipe.

use std::fmt;
use std::io::Write;
use std::path::Path;

use anyhow::Context;

/// Writes formatted text to stdout, returning the error (a closed pipe) instead of panicking.
pub fn write_stdout(args: fmt::Arguments<'_>, newline: bool) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)?;
    if newline {
        out.write_all(b"\n")?;
    }
    Ok(())
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

/// Prints `value` as pretty JSON on stdout, followed by a newline.
pub fn print_json<T: serde::Serialize + ?Sized>(value: &T) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, value)?;
    writeln!(out)?;
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

/// Writes `bytes` to `path` atomically: a temporary file beside it, then a rename, so an
/// interrupted run never leaves a half-written file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let tmp = temp_path(path);
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes `path` atomically through a buffered writer: `fill` writes the content into a
/// temporary file beside it, which is renamed into place only when everything was written.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let tmp = temp_path(path);
    let result = (|| -> std::io::Result<()> {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
        fill(&mut out)?;
        out.flush()?;
        Ok(())
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write {}", path.display()));
    }
    commit(&tmp, path)
}

/// A temporary sibling of `path` (same directory, so a rename is atomic); callers that
/// write through a library (a plot backend) write there and then [`commit`] it.
pub fn temp_path(path: &Path) -> std::path::PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
    // Keep the extension last: plot backends pick the image format from it.
    path.with_file_name(format!(".{name}.{}.tmp.{ext}", std::process::id()))
}

/// Moves a finished temporary file from [`temp_path`] into place.
pub fn commit(tmp: &Path, path: &Path) -> anyhow::Result<()> {
    std::fs::rename(tmp, path).with_context(|| format!("cannot write {}", path.display()))
}
