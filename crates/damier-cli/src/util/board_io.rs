//! Boards in and out of files: text or PBM on input (told apart by content), picked by the
//! extension on output (`.pbm`: raw PBM, `.txt`: the text format).

use std::io::{BufReader, Write};
use std::path::Path;

use anyhow::Context;
use damier::board::{self, Board, PbmKind};

/// Reads a board file in the text format or as a PBM bitmap; `-` reads stdin.
pub fn read(path: &Path) -> anyhow::Result<Board> {
    if path == Path::new("-") {
        return board::read_board(std::io::stdin().lock()).context("stdin");
    }
    let file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    board::read_board(BufReader::with_capacity(1 << 20, file)).with_context(|| path.display().to_string())
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
