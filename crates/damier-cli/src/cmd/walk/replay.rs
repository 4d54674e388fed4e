//! `damier walk replay`: a move string played from the bottom-left cell, given as an argument
//! or read from a file or stdin: a path `walk solve --out` wrote (millions of moves, streamed),
//! or what `walk solve` prints, as text or `--json`, and the files of `walk export` (issue 52
//! §4: every output is the next command's input).

use std::io::{BufRead, Read};
use std::process::ExitCode;

use anyhow::Context;
use damier::board::Size;
use damier::walk::path::{self, Move, ReplayRecord, Replayer};
use damier::walk::{self, WalkError, picture};

use crate::report::walk::Replay;
use crate::util::output::Report;
use crate::util::{InputFile, exit, input, interrupt};

/// Arguments of `damier walk replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// Rows (L), at least 1 (at most 2^30 cells; 2^24 with --show).
    rows: usize,
    /// Columns (C), at least 1.
    cols: usize,
    /// Moves: N, S, E, W (O accepted for W), either case; spaces and line breaks ignored.
    /// `-` reads them from stdin, as --from does.
    #[arg(required_unless_present = "from", conflicts_with = "from")]
    moves: Option<String>,
    /// Read the moves from this file (`-`: stdin): the path `walk solve --out` writes (any
    /// length, replayed as it is read), or what `walk solve` prints (text or --json) and the
    /// files of `walk export` (their path, on the board size they name).
    #[arg(long, value_name = "FILE")]
    from: Option<InputFile>,
    /// Also print the final board ('#' black, '_' white, top row first).
    #[arg(long)]
    show: bool,
    /// Print JSON (keys: rows, cols, moves, all_black, white, left_board).
    #[arg(long)]
    json: bool,
}

pub(super) fn replay(a: ReplayArgs) -> anyhow::Result<ExitCode> {
    // The boards `walk solve --out` writes the path of (up to 2^30 cells: the replayer's two
    // bit boards take 256 MB there); it refused those above 2^24 cells, so a path written by
    // `walk solve 8192 8192 --method poly --out F` could not be replayed.
    let board = walk::board_size_with_limit(a.rows, a.cols, walk::MAX_CELLS_PATH_TO_FILE)?;
    if a.show {
        // The picture is a character a cell.
        walk::board_size(a.rows, a.cols).context("--show draws the board")?;
    }
    let mut replayer = Replayer::try_new(board)?;
    let source = match (&a.moves, &a.from) {
        (Some(m), _) if m != "-" => {
            // A file name given as the moves (issue 38, second pass: `walk replay 2000 2000
            // path.txt` said only "illegal move 'p'"): the message says how a file is read.
            let moves = path::parse_moves(m).map_err(|e| match e {
                WalkError::BadMove { .. } => anyhow::anyhow!(
                    "{e}; a path in a file (what walk solve --out wrote) is replayed with --from FILE"
                ),
                e => e.into(),
            })?;
            for mv in moves {
                replayer.play(mv);
            }
            None
        }
        (_, Some(p)) => Some(input::Source::of(p)),
        _ => Some(input::Source::Stdin),
    };
    if let Some(source) = source {
        let name = source.name();
        match source {
            input::Source::Stdin => play_input(input::stdin(), &name, board, &mut replayer),
            input::Source::File(p) => {
                let file = std::fs::File::open(p).with_context(|| format!("cannot read {}", p.display()))?;
                play_input(file, &name, board, &mut replayer)
            }
        }
        .with_context(|| name)?;
    }
    let moves = replayer.moves();
    let r = replayer.finish();
    let code = if r.all_black() { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) };
    let record = ReplayRecord::new(board, moves, &r);
    Replay { record, board: a.show.then(|| picture(&r.black)) }.print(a.json)?;
    Ok(code)
}

/// The most bytes of `walk solve`'s text or JSON read back (a bare list of moves, what `walk
/// solve --out` writes, is streamed at any length): `walk solve` prints a path and a picture
/// for at most `walk::MAX_CELLS` (2^24) cells, well within it.
const SOLVE_OUTPUT_MAX_BYTES: u64 = 256 << 20;

/// Plays what `reader` holds: bare moves (streamed), or, when it starts with `{`, `#` or a
/// digit, what `walk solve` prints (text, `--json`) or a `walk export` file: its path, on a
/// board of the size it names.
fn play_input(reader: impl Read, name: &str, board: Size, replayer: &mut Replayer) -> anyhow::Result<()> {
    let mut reader = std::io::BufReader::with_capacity(1 << 20, reader);
    let mut skipped = 0usize; // leading whitespace, counted in the positions of bad moves
    let first = loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        if buf.is_empty() {
            return Ok(()); // no moves
        }
        let blank = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let first = buf.get(blank).copied();
        reader.consume(blank);
        skipped += blank;
        if let Some(first) = first {
            break first;
        }
    };
    if matches!(first, b'{' | b'#' | b'0'..=b'9') {
        let bytes = input::read_from(reader, name, SOLVE_OUTPUT_MAX_BYTES, "a walk solution")?;
        let path = damier_api::walk::solution_path(&String::from_utf8_lossy(&bytes), board)
            .map_err(|e| anyhow::anyhow!(e))?;
        play_stream(path.as_bytes(), replayer, 0)
    } else {
        play_stream(reader, replayer, skipped)
    }
}

/// Plays the moves read from `reader` a chunk at a time (Ctrl-C heard between chunks): ASCII
/// whitespace is skipped, anything but a move letter is an error at its 1-based character
/// (`start` characters came before the reader's first).
fn play_stream(mut reader: impl Read, replayer: &mut Replayer, start: usize) -> anyhow::Result<()> {
    let mut chunk = vec![0u8; 1 << 20];
    let mut position = start; // characters read so far
    loop {
        interrupt::check()?;
        let n = match reader.read(&mut chunk) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        for (i, &byte) in chunk[..n].iter().enumerate() {
            // A UTF-8 continuation byte is part of the character before it.
            if byte & 0xC0 == 0x80 {
                continue;
            }
            position += 1;
            if byte.is_ascii_whitespace() {
                continue;
            }
            match Move::from_letter(byte as char).filter(|_| byte.is_ascii()) {
                Some(mv) => {
                    replayer.play(mv);
                }
                None => {
                    let end = chunk[..n].len().min(i + 4);
                    let letter = String::from_utf8_lossy(&chunk[i..end]).chars().next().unwrap_or('\u{FFFD}');
                    return Err(WalkError::BadMove { letter, position }.into());
                }
            }
        }
    }
}
