//! Text formats: the starting position of `--from FILE` and the trace picture.
//!
//! ## Position format
//!
//! `n` lines of `n` cells, one line per row from the top (`y = 0`), cells from the left
//! (`x = 0`): a digit is the queen count of the cell, `.` means 0. Spaces and tabs inside a
//! line are ignored, blank lines and lines starting with `#` are skipped. Example (a 4 × 4
//! solution):
//!
//! ```text
//! # 4 queens
//! .1..
//! ...1
//! 1...
//! ..1.
//! ```

use super::Automaton;
use super::MAX_N;

/// What is wrong with a position text, and where (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct PositionError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (character) number.
    pub column: usize,
    /// What was expected.
    pub message: String,
}

/// Parses a position: returns `n` and the queen counts row-major (`y * n + x`).
pub fn parse_position(text: &str) -> Result<(u32, Vec<u32>), PositionError> {
    let mut rows: Vec<(usize, Vec<u32>)> = Vec::new();
    let mut last_line = 0;
    for (i, line) in text.lines().enumerate() {
        last_line = i + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut row = Vec::new();
        for (j, ch) in line.chars().enumerate() {
            match ch {
                ' ' | '\t' | '\r' => {}
                '.' => row.push(0),
                '0'..='9' => row.push(ch as u32 - '0' as u32),
                _ => {
                    return Err(PositionError {
                        line: i + 1,
                        column: j + 1,
                        message: format!("unexpected {ch:?}: a cell is a digit (queens) or '.' (none)"),
                    });
                }
            }
            if row.len() > MAX_N as usize {
                return Err(PositionError {
                    line: i + 1,
                    column: j + 1,
                    message: format!("row longer than the largest board side, {MAX_N}"),
                });
            }
        }
        rows.push((i + 1, row));
        if rows.len() > MAX_N as usize {
            return Err(PositionError {
                line: i + 1,
                column: 1,
                message: format!("more rows than the largest board side, {MAX_N}"),
            });
        }
    }
    let n = rows.len();
    if n == 0 {
        return Err(PositionError {
            line: last_line.max(1),
            column: 1,
            message: "no rows: expected n lines of n cells".into(),
        });
    }
    let mut counts = Vec::with_capacity(n * n);
    for (line, row) in rows {
        if row.len() != n {
            return Err(PositionError {
                line,
                column: 1,
                message: format!(
                    "row has {} cells, but the position has {n} rows (a square is needed)",
                    row.len()
                ),
            });
        }
        counts.extend(row);
    }
    // At most MAX_N rows: fits a u32.
    Ok((n as u32, counts))
}

/// Writes queen counts (row-major) in the position format.
pub fn format_position(n: u32, counts: &[u32]) -> String {
    let n = n as usize;
    let mut s = String::with_capacity(n * (n + 1));
    for y in 0..n {
        for x in 0..n {
            let k = counts[y * n + x];
            s.push(match k {
                0 => '.',
                1..=9 => char::from(b'0' + k as u8),
                _ => '9',
            });
        }
        s.push('\n');
    }
    s
}

/// The characters drawn for each signal bit, at their compass position around the cell.
const GLYPH: [char; 8] = ['|', '/', '-', '\\', '|', '/', '-', '\\'];

/// The board as text: each cell is a 3 × 3 block whose centre is the queen count (`.` none,
/// `Q` one, a digit for 2..9, `+` for more) and whose 8 border characters are the signals,
/// drawn where the direction points (`|` north and south, `-` east and west, `/` and `\` on the
/// diagonals), blank when absent. Blocks are separated by one space. Model 3 has no signal
/// along the row: its west and east wave values (0..=9, blank for "no cell on that side")
/// stand left and right of the centre instead.
pub fn render(a: &Automaton) -> String {
    let n = a.n() as usize;
    // Position of each direction's glyph in the 3 x 3 block: (column, row).
    let at = super::dir::DIRECTIONS.map(|(dx, dy)| ((dx + 1) as usize, (dy + 1) as usize));
    let mut s = String::new();
    for y in 0..n {
        for r in 0..3 {
            for x in 0..n {
                if x > 0 {
                    s.push(' ');
                }
                let sig = a.signals(x, y);
                for c in 0..3 {
                    if (c, r) == (1, 1) {
                        s.push(match a.count(x, y) {
                            0 => '.',
                            1 => 'Q',
                            k @ 2..=9 => char::from(b'0' + k as u8),
                            _ => '+',
                        });
                    } else {
                        let d = at.iter().position(|&p| p == (c, r)).expect("8 border cells");
                        let (dx, dy) = super::dir::DIRECTIONS[d];
                        match a.model3() {
                            // Model 3 carries no signal along the row: its two waves instead.
                            Some(b) if dy == 0 => {
                                let (west, east) = b.waves(x, y);
                                let v = if dx < 0 { west } else { east };
                                s.push(if v >= super::row::FAR { ' ' } else { char::from(b'0' + v.min(9)) });
                            }
                            _ => s.push(if sig >> d & 1 == 1 { GLYPH[d] } else { ' ' }),
                        }
                    }
                }
            }
            // No trailing blanks.
            while s.ends_with(' ') {
                s.pop();
            }
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_example() {
        let (n, c) = parse_position("# 4 queens\n.1..\n...1\n\n1...\n. . 1 .\n").unwrap();
        assert_eq!(n, 4);
        assert_eq!(c, vec![0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0]);
        assert_eq!(format_position(n, &c), ".1..\n...1\n1...\n..1.\n");
    }

    #[test]
    fn errors_say_where() {
        let e = parse_position("..\n.x\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 2));
        let e = parse_position("...\n..\n...\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse_position("# only a comment\n\n").unwrap_err();
        assert!(e.message.contains("no rows"));
        assert!(parse_position("").is_err());
    }
}
