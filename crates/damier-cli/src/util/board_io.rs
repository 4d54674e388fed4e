//! Boards in and out of files: text or PBM on input (told apart by content), picked by the
//! extension on output (`.pbm`: raw PBM, `.txt`: the text format). On input, `lights solve`'s
//! own report, text or `--json`, stands for the random start it prints (issue 52:
//! `damier lights solve --random 5x5 --winnable | damier lights solve -`).

use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::path::Path;

use anyhow::Context;
use damier::board::{self, Board, PbmKind};

use super::input::{self, Source};

/// Reads a board file in the text format or as a PBM bitmap, or the start of a `lights solve`
/// report; `-` reads stdin.
pub fn read(path: &Path) -> anyhow::Result<Board> {
    let source = Source::of(path);
    match source {
        Source::Stdin => read_from(input::stdin(), source),
        Source::File(_) => {
            let file =
                std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
            read_from(BufReader::with_capacity(1 << 20, file), source)
        }
    }
}

/// What the first bytes of a board's input show it to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A board, text or PBM (the library's reader tells which).
    Board,
    /// `lights solve`'s text report.
    TextReport,
    /// `lights solve --json`'s report.
    JsonReport,
}

/// The most bytes of the input looked at to tell a report from a board.
const HEAD_BYTES: usize = 64;

/// Which kind of input starts with `head` (its first [`HEAD_BYTES`] bytes, or all of it). A
/// report starts with `{`, `random ` (a random start), `unknown x_k` (`--explain`) or
/// `WxH board` (a board given to it), none of which a board can start with.
fn kind_of(head: &[u8]) -> Kind {
    let head = head.trim_ascii_start();
    if head.starts_with(b"{") {
        return Kind::JsonReport;
    }
    if head.starts_with(b"random ") || head.starts_with(b"unknown x_k") {
        return Kind::TextReport;
    }
    // `WxH board`: digits, `x`, digits, a space.
    let digits = |s: &[u8]| s.iter().take_while(|b| b.is_ascii_digit()).count();
    let w = digits(head);
    let rest = &head[w..];
    if w > 0 && rest.first() == Some(&b'x') {
        let h = digits(&rest[1..]);
        if h > 0 && rest[1 + h..].starts_with(b" board") {
            return Kind::TextReport;
        }
    }
    Kind::Board
}

/// The board (or a report's start) in `reader`, named after `source` in errors.
fn read_from(mut reader: impl BufRead, source: Source<'_>) -> anyhow::Result<Board> {
    let name = source.name();
    // The first bytes, however the pipe splits them, then the rest behind them.
    let mut head = Vec::with_capacity(HEAD_BYTES);
    (&mut reader)
        .take(HEAD_BYTES as u64)
        .read_to_end(&mut head)
        .with_context(|| format!("cannot read {name}"))?;
    let kind = kind_of(&head);
    let reader = Cursor::new(head).chain(reader);
    if kind == Kind::Board {
        return board::read_board(reader).context(name);
    }
    let bytes = input::read_from(reader, &name, input::REPORT_MAX_BYTES, "a report of `lights solve`")?;
    let text = input::text_of(bytes, source)?;
    let rows = match kind {
        Kind::JsonReport => start_of_json(&text),
        _ => start_of_text(&text),
    }
    .with_context(|| name.clone())?;
    Board::parse(&rows).with_context(|| format!("{name}: the start in the report"))
}

/// Why a report gives no start board: only a random start is printed in it (and not when it
/// was written to a file, or with `--summary`).
const NO_START: &str = "this report of `lights solve` holds no start board: it prints a --random start \
                        only, up to 10^7 cells, and not with --save-start, --out or --summary; solve the board it was given";

/// The start's rows in `lights solve`'s text report: the lines after `random ... start, seed
/// S:`.
fn start_of_text(text: &str) -> anyhow::Result<String> {
    let mut lines = text.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if !line.starts_with("random ") {
            continue;
        }
        if line.ends_with(':') {
            let rows: Vec<&str> =
                lines.take_while(|l| !l.is_empty() && l.bytes().all(|b| b == b'0' || b == b'1')).collect();
            anyhow::ensure!(!rows.is_empty(), "no board after `{line}`");
            return Ok(rows.join("\n"));
        }
        // `random start, seed S, written to FILE; ...`: the start is in FILE.
        if let Some(file) = line.split(", written to ").nth(1).and_then(|rest| rest.split("; ").next()) {
            anyhow::bail!("this report's start was written to {file}, not printed: solve that file");
        }
    }
    anyhow::bail!(NO_START)
}

/// The start's rows in `lights solve --json`'s report: its `start` key.
fn start_of_json(text: &str) -> anyhow::Result<String> {
    #[derive(serde::Deserialize)]
    struct Report {
        #[serde(default)]
        start: Option<JoinedRows>,
    }
    let report: Report = serde_json::from_str(text)
        .map_err(|e| anyhow::anyhow!("not a board, nor the JSON of `lights solve` ({e})"))?;
    Ok(report.start.ok_or_else(|| anyhow::anyhow!(NO_START))?.0)
}

/// A list of rows (JSON strings) joined by line ends as they are read: what is held is the
/// board's text, not a string per row.
struct JoinedRows(String);

impl<'de> serde::Deserialize<'de> for JoinedRows {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<JoinedRows, D::Error> {
        struct Rows;
        impl<'de> serde::de::Visitor<'de> for Rows {
            type Value = JoinedRows;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of rows of 0/1")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<JoinedRows, A::Error> {
                let mut text = String::new();
                while let Some(row) = seq.next_element::<std::borrow::Cow<'de, str>>()? {
                    text.push_str(&row);
                    text.push('\n');
                }
                Ok(JoinedRows(text))
            }
        }
        d.deserialize_seq(Rows)
    }
}

/// How a board file is written, from its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardFormat {
    /// Raw PBM (`P4`), 8 cells per byte.
    Pbm,
    /// The text format, rows of `0`/`1`.
    Text,
}

/// The format for `path`, or an error naming the accepted extensions.
/// `-` (standard output) is the text format.
pub fn format_of(path: &Path) -> anyhow::Result<BoardFormat> {
    if super::output::is_stdout(path) {
        return Ok(BoardFormat::Text);
    }
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("pbm") => Ok(BoardFormat::Pbm),
        Some("txt") => Ok(BoardFormat::Text),
        _ => anyhow::bail!("board file {} must end in .pbm (bitmap) or .txt (rows of 0/1)", path.display()),
    }
}

/// Writes `b` to `path` (format from the extension), atomically; `-` writes the text format
/// on standard output.
pub fn write(path: &Path, b: &Board) -> anyhow::Result<()> {
    let format = format_of(path)?;
    if super::output::is_stdout(path) {
        let mut out = super::output::stdout();
        write_text(&mut out, b)?;
        out.flush()?;
        return Ok(());
    }
    super::output::write_file(path, super::output::Durability::Renamed, |out| {
        match format {
            BoardFormat::Pbm => b.write_pbm(out, PbmKind::Raw)?,
            BoardFormat::Text => write_text(out, b)?,
        }
        Ok(())
    })
}

/// The text format, streamed (a big board's text never sits in memory whole).
fn write_text(out: &mut impl Write, b: &Board) -> std::io::Result<()> {
    let mut line = Vec::with_capacity(b.width() + 1);
    for y in 0..b.height() {
        line.clear();
        let row = b.row(y);
        line.extend((0..b.width()).map(|x| if (row[x / 64] >> (x % 64)) & 1 == 1 { b'1' } else { b'0' }));
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}
