//! Every file (or stdin) the CLI reads, each within a byte cap: the caps in one place, and the
//! one capped read, whose error names the file and the cap. A device such as `/dev/zero` never
//! ends, so nothing is read without one.
//!
//! Boards are read by the library's streaming reader through `board_io`: capped at
//! [`damier::board::MAX_BOARD_BYTES`] (two bytes a cell of the largest board), it holds the
//! board's bits rather than its text. The rest is read whole through [`read`] or
//! [`read_text`], within the caps below.

use std::io::Read;
use std::path::Path;

use anyhow::Context;

/// A CSV file read back (about two million runs of a sweep).
pub const CSV_MAX_BYTES: u64 = 256 << 20;
/// The placements `queens check` reads from stdin (ten million columns and separators).
pub const PLACEMENTS_MAX_BYTES: u64 = 256 << 20;
/// The share reports `queens sum` adds up (a report is about 100 bytes).
pub const SHARES_MAX_BYTES: u64 = 256 << 20;
/// An automaton position (`automaton run --from`): the largest board, 2048 x 2048, with room
/// for comments and spaces.
pub const POSITION_MAX_BYTES: u64 = 64 << 20;
/// A report of `lights solve` read for its start (`lights solve --random ... | lights solve -`):
/// the largest it prints, two boards of 10^7 cells as JSON one cell a row (about 180 MiB).
pub const REPORT_MAX_BYTES: u64 = 256 << 20;
/// An automaton checkpoint: the largest one (model 3 at n = 16384, 1 GiB).
pub const CHECKPOINT_MAX_BYTES: u64 = damier::automaton::checkpoint::MAX_LEN;

/// Where the bytes come from: a file, or stdin for `-`.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// A file.
    File(&'a Path),
    /// Standard input.
    Stdin,
}

impl<'a> Source<'a> {
    /// The file `path`, or stdin when it is `-`.
    pub fn of(path: &'a Path) -> Source<'a> {
        if path == Path::new("-") { Source::Stdin } else { Source::File(path) }
    }

    /// What the messages call it.
    pub fn name(self) -> String {
        match self {
            Source::File(p) => p.display().to_string(),
            Source::Stdin => "stdin".to_string(),
        }
    }
}

/// The process's stdin, locked: every read fails with `EBADF` when it was closed at the start
/// ([`super::output::stdin_closed`]), where the runtime's `/dev/null` read as an empty input.
pub struct Stdin(std::io::StdinLock<'static>);

/// [`Stdin`], locked.
pub fn stdin() -> Stdin {
    Stdin(std::io::stdin().lock())
}

impl Stdin {
    fn check_open() -> std::io::Result<()> {
        if super::output::stdin_closed() {
            // EBADF, what a read of a closed descriptor gives (9 on every Unix).
            return Err(std::io::Error::from_raw_os_error(9));
        }
        Ok(())
    }
}

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        Stdin::check_open()?;
        self.0.read(buf)
    }
}

impl std::io::BufRead for Stdin {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        Stdin::check_open()?;
        self.0.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.0.consume(amount);
    }
}

/// `limit` for messages: in MiB when a whole number of them.
pub fn bytes_text(limit: u64) -> String {
    if limit >= 1 << 20 && limit.is_multiple_of(1 << 20) {
        format!("{} MiB", limit >> 20)
    } else {
        format!("{limit} bytes")
    }
}

/// The bytes of `source`, refused beyond `limit` (one byte more is read to tell): "NAME:
/// larger than LIMIT, the most WHAT takes".
pub fn read(source: Source<'_>, limit: u64, what: &str) -> anyhow::Result<Vec<u8>> {
    let name = source.name();
    match source {
        Source::File(path) => {
            let file = std::fs::File::open(path).with_context(|| format!("cannot read {name}"))?;
            read_from(file, &name, limit, what)
        }
        Source::Stdin => read_from(stdin(), &name, limit, what),
    }
}

/// [`read`] from an open reader named `name`. What it holds stays within `limit` (a vector
/// left to double could reserve twice the cap before the byte past it arrives).
pub fn read_from(mut reader: impl Read, name: &str, limit: u64, what: &str) -> anyhow::Result<Vec<u8>> {
    let limit_len = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot read {name}")),
        };
        anyhow::ensure!(
            n <= limit_len - bytes.len(),
            "{name}: larger than {}, the most {what} takes",
            bytes_text(limit)
        );
        if bytes.capacity() - bytes.len() < n {
            let want = (2 * bytes.capacity()).clamp(bytes.len() + n, limit_len);
            bytes.try_reserve_exact(want - bytes.len()).map_err(|_| {
                anyhow::anyhow!("{name}: {}", damier::util::OutOfMemory::refused((want - bytes.len()) as u64))
            })?;
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}

/// [`read`] as UTF-8 text.
pub fn read_text(source: Source<'_>, limit: u64, what: &str) -> anyhow::Result<String> {
    text_of(read(source, limit, what)?, source)
}

/// The bytes read from `source` as UTF-8 text: "NAME: byte B: not UTF-8 text"; a lone `\r`
/// becomes a line break ([`lone_cr_as_newline`]).
pub fn text_of(mut bytes: Vec<u8>, source: Source<'_>) -> anyhow::Result<String> {
    lone_cr_as_newline(&mut bytes);
    String::from_utf8(bytes).map_err(|e| not_utf8(source, e.utf8_error()))
}

/// Makes each `\r` not followed by `\n` a `\n`, in place: a text whose lines end at `\r`
/// alone (an old Mac's) was read as one line (`queens check` of two placements of 4 checked
/// one of 8; a position's rows ran together), since Rust's `lines()` breaks at `\n` only.
/// `\r\n` stays (`lines()` drops its `\r`). A byte outside ASCII never holds `\r` in
/// UTF-8, so the text's characters are left alone.
pub fn lone_cr_as_newline(bytes: &mut [u8]) {
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
}

/// [`text_of`], borrowed.
pub fn str_of<'a>(bytes: &'a [u8], source: Source<'_>) -> anyhow::Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|e| not_utf8(source, e))
}

/// The error of bytes of `source` that are not UTF-8 text.
fn not_utf8(source: Source<'_>, e: std::str::Utf8Error) -> anyhow::Error {
    anyhow::anyhow!("{}: byte {}: not UTF-8 text", source.name(), e.valid_up_to())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_read_past_by_one_byte_and_named() {
        let ok = read_from(&b"abcd"[..], "x", 4, "a test").unwrap();
        assert_eq!(ok, b"abcd");
        let err = read_from(&b"abcde"[..], "x", 4, "a test").unwrap_err();
        assert_eq!(err.to_string(), "x: larger than 4 bytes, the most a test takes");
        // An endless input is read to the cap only.
        let err = read_from(std::io::repeat(0), "zeros", 1 << 20, "a test").unwrap_err();
        assert_eq!(err.to_string(), "zeros: larger than 1 MiB, the most a test takes");
        assert_eq!(bytes_text(256 << 20), "256 MiB");
    }
}
