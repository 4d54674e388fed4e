//! CSV files of runs and results, through the `csv` crate and one serde record type per file
//! kind: written atomically, read back with every field checked, errors naming the file, the
//! line and the column.

use std::path::Path;

use anyhow::Context;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::input;

/// Why a record read from a file is refused after it parsed: the column at fault, if one.
pub struct Invalid {
    /// The column at fault.
    pub column: Option<&'static str>,
    /// What is wrong.
    pub message: String,
}

impl Invalid {
    /// A fault of the whole line.
    pub fn line(message: impl Into<String>) -> Invalid {
        Invalid { column: None, message: message.into() }
    }

    /// A fault of one column.
    pub fn column(column: &'static str, message: impl Into<String>) -> Invalid {
        Invalid { column: Some(column), message: message.into() }
    }
}

/// The bytes of the file at `path`, refused beyond [`input::CSV_MAX_BYTES`].
pub fn read_bytes(path: &Path) -> anyhow::Result<Vec<u8>> {
    input::read(input::Source::File(path), input::CSV_MAX_BYTES, "a CSV file")
}

/// The records of the CSV file at `path` (see [`parse`]); errors start with the file name.
pub fn read<T: DeserializeOwned, U>(
    path: &Path,
    kind: &str,
    headers: &[&[&str]],
    check: impl FnMut(T) -> Result<U, Invalid>,
) -> anyhow::Result<Vec<U>> {
    parse(&read_bytes(path)?, kind, headers, check).with_context(|| path.display().to_string())
}

/// The records of a CSV file's bytes as `T`, each checked into `U` by `check`. The first line
/// must be one of `headers` (a file kind can have grown columns); `kind` names the file kind
/// in the error. Blank lines and spaces around fields are skipped. Errors read
/// `line L, column C: what`.
pub fn parse<T: DeserializeOwned, U>(
    bytes: &[u8],
    kind: &str,
    headers: &[&[&str]],
    mut check: impl FnMut(T) -> Result<U, Invalid>,
) -> anyhow::Result<Vec<U>> {
    let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).from_reader(bytes);
    let header = match reader.headers() {
        Ok(h) if h.is_empty() => anyhow::bail!("empty file: no header line"),
        Ok(h) => h.clone(),
        Err(e) => anyhow::bail!("line 1: {}", describe(&e)),
    };
    let names: Vec<&str> = header.iter().collect();
    anyhow::ensure!(
        headers.iter().any(|h| names[..] == h[..]),
        "line 1: not {kind} (expected {})",
        headers.last().map(|h| h.join(",")).unwrap_or_default()
    );
    let mut out = Vec::new();
    let mut record = csv::StringRecord::new();
    let mut lines = Lines { bytes, at: 0, breaks: 0 };
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map_or(0, |p| lines.of(p));
                anyhow::bail!("line {line}: {}", describe(&e));
            }
        }
        let line = record.position().map_or(0, |p| lines.of(p));
        let row: T = record.deserialize(Some(&header)).map_err(|e| {
            let field = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => err.field(),
                _ => None,
            };
            let value = field.and_then(|i| record.get(i as usize)).unwrap_or("");
            match field.and_then(|i| names.get(i as usize)) {
                Some(name) => {
                    anyhow::anyhow!("line {line}, column {name}: {}", deserialize_message(&e, value))
                }
                None => anyhow::anyhow!("line {line}: {}", deserialize_message(&e, value)),
            }
        })?;
        out.push(check(row).map_err(|i| match i.column {
            Some(c) => anyhow::anyhow!("line {line}, column {c}: {}", i.message),
            None => anyhow::anyhow!("line {line}: {}", i.message),
        })?);
    }
    Ok(out)
}

/// Line numbers of positions in `bytes`, taken in increasing order (one pass over the file),
/// line breaks counted as `\n`, `\r\n` or a lone `\r`, blank lines before a record skipped:
/// the csv crate's own count was one short per line after a `\r\n` header, stayed at 1 in a
/// file of `\r` breaks and named the blank line before a record, so errors were on the wrong
/// lines.
struct Lines<'a> {
    bytes: &'a [u8],
    /// Bytes counted so far.
    at: usize,
    /// Line breaks in `bytes[..at]`.
    breaks: u64,
}

impl Lines<'_> {
    /// The 1-based line where `p` lies.
    fn of(&mut self, p: &csv::Position) -> u64 {
        let mut to = usize::try_from(p.byte()).map_or(self.bytes.len(), |b| b.min(self.bytes.len()));
        // A record's position is where the reader began, before the blank lines it skipped.
        while matches!(self.bytes.get(to), Some(b'\n' | b'\r')) {
            to += 1;
        }
        while self.at < to {
            let b = self.bytes[self.at];
            if b == b'\n' || (b == b'\r' && self.bytes.get(self.at + 1) != Some(&b'\n')) {
                self.breaks += 1;
            }
            self.at += 1;
        }
        self.breaks + 1
    }
}

/// What a reader error says, without the position (the caller puts the line first).
fn describe(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
            format!("{len} fields, the header has {expected_len}")
        }
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".into(),
        _ => e.to_string(),
    }
}

/// What a field that did not parse is, in words.
fn deserialize_message(e: &csv::Error, value: &str) -> String {
    let csv::ErrorKind::Deserialize { err, .. } = e.kind() else { return e.to_string() };
    match err.kind() {
        csv::DeserializeErrorKind::ParseInt(p) if matches!(p.kind(), std::num::IntErrorKind::PosOverflow) => {
            format!("too large: {value:?}")
        }
        csv::DeserializeErrorKind::ParseInt(_) => format!("not a whole number: {value:?}"),
        csv::DeserializeErrorKind::ParseFloat(_) => format!("not a number: {value:?}"),
        csv::DeserializeErrorKind::ParseBool(_) => format!("{value:?} is neither true nor false"),
        csv::DeserializeErrorKind::Message(m) => m.clone(),
        _ => err.to_string(),
    }
}

/// `rows` as CSV bytes, header first (the field names of `T`).
pub fn to_bytes<T: Serialize>(rows: &[T]) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)?;
    }
    w.into_inner().map_err(|e| anyhow::anyhow!("cannot make the CSV: {e}"))
}

/// `rows` as CSV bytes under the given header line (rows that are tuples, whose structs'
/// fields are written in order, have no field names to head them).
pub fn to_bytes_headed<T: Serialize>(header: &[&str], rows: &[T]) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.write_record(header)?;
    for r in rows {
        w.serialize(r)?;
    }
    w.into_inner().map_err(|e| anyhow::anyhow!("cannot make the CSV: {e}"))
}

/// Serde helpers for the number formats of the CSV files.
pub mod format {
    use serde::Serializer;

    /// `1.234560e-3`: seconds as the files have always held them.
    pub fn sci6<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{v:.6e}"))
    }

    /// [`sci6`], empty when absent.
    pub fn sci6_opt<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.map(|v| format!("{v:.6e}")).unwrap_or_default())
    }

    /// Rust's shortest form (`0.001`), as the files have always held it.
    pub fn plain<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    /// Milliseconds: `0.125`.
    pub fn milli<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{v:.3}"))
    }

    /// Nanoseconds: `0.000041869`.
    pub fn nano<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{v:.9}"))
    }

    /// [`nano`], empty when absent.
    pub fn nano_opt<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.map(|v| format!("{v:.9}")).unwrap_or_default())
    }

    /// Microseconds: `0.000125`, empty when absent (a run of min-conflicts below n = 1 000
    /// takes less than a millisecond).
    pub fn micro_opt<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.map(|v| format!("{v:.6}")).unwrap_or_default())
    }
}

/// A duration read from `column`: a finite number of seconds, not negative.
pub fn seconds(column: &'static str, v: f64) -> Result<f64, Invalid> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(Invalid::column(column, format!("not a number of seconds: {}", damier::util::given(v))))
    }
}
