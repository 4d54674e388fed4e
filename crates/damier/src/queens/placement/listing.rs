//! Placements read back from what the tool prints: `S = (1, 5, 8, …)` lines, numbered
//! listings, drawn boards, bare columns, one placement per line.
//!
//! Whatever `damier queens first|list|solve` prints as a placement is accepted by
//! `damier queens check` through [`Placement::parse_all`], with or without its header lines
//! and brackets, so that `damier queens first 8 | damier queens check` works.

use super::{Placement, PlacementError, Witness};
use crate::util::try_with_capacity;

/// Characters of a drawn board row (`Q . . .`): a queen, an empty cell, the spacing.
fn is_board_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, 'Q' | 'q' | '.' | ' ' | '\t'))
}

/// The inside of every innermost `( … )` or `[ … ]` group made of digits, commas and
/// whitespace only (`(1, 5, 8, 6)`; not `(113 queens placed)`, not `(checked)`, and not an
/// argument list such as `R(6)`, whose bracket follows a letter or digit).
fn column_groups(text: &str) -> impl Iterator<Item = &str> + Clone {
    // PERF: an iterator, not a list (16 bytes a group): counted, then read.
    let mut open: Option<usize> = None;
    let mut previous = ' ';
    text.char_indices().filter_map(move |(i, c)| {
        let after = std::mem::replace(&mut previous, c);
        match c {
            '(' | '[' if after.is_alphanumeric() || after == '_' => open = None,
            '(' | '[' => open = Some(i + 1),
            ')' | ']' => {
                let inside = &text[open.take()?..i];
                let numeric = inside.chars().all(|c| c.is_ascii_digit() || c == ',' || c.is_whitespace());
                return (numeric && inside.chars().any(|c| c.is_ascii_digit())).then_some(inside);
            }
            _ => {}
        }
        None
    })
}

/// One drawn board (consecutive board lines starting at 1-based line `first_line`) as a
/// placement: a square with exactly one queen per row.
fn board_placement(first_line: usize, rows: &[&str]) -> Result<Placement, PlacementError> {
    let n = rows.len();
    let mut cols = Vec::with_capacity(n);
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        let line = first_line + r;
        if cells.len() != n {
            return Err(PlacementError::BoardShape { line, rows: n, width: cells.len() });
        }
        let queens: Vec<usize> =
            cells.iter().enumerate().filter(|(_, c)| matches!(c, 'Q' | 'q')).map(|(j, _)| j).collect();
        match queens[..] {
            [c] => cols.push(c as u32),
            _ => return Err(PlacementError::BoardRow { line, queens: queens.len() }),
        }
    }
    Placement::new(cols)
}

impl Placement {
    /// Every placement in `text`, in the forms the tool prints, tried in this order:
    ///
    /// 1. bracketed columns: each innermost `( … )` or `[ … ]` holding only 1-based columns
    ///    (`n = 8: first solution S = (1, 5, 8, 6, 3, 7, 2, 4) (113 queens placed)`, the
    ///    numbered lines of `queens list`); every other text (headers, drawn boards) is skipped;
    /// 2. else drawn boards (`Q` a queen, `.` an empty cell, one queen per row), separated by
    ///    any other line;
    /// 3. else bare columns separated by whitespace and/or commas: one placement per line when
    ///    there are several lines that each hold the same number k >= 2 of columns, all in
    ///    `1..=k` (what `--columns` prints), otherwise the whole text is one placement (one
    ///    column per line, as `queens solve --out` writes, is one placement).
    pub fn parse_all(text: &str) -> Result<Vec<Placement>, PlacementError> {
        let groups = column_groups(text);
        if groups.clone().next().is_some() {
            return groups.map(Placement::parse).collect();
        }
        if text.lines().any(is_board_line) {
            let mut found = Vec::new();
            let mut block: Vec<&str> = Vec::new();
            let mut first_line = 0;
            for (i, line) in text.lines().chain(std::iter::once("")).enumerate() {
                if is_board_line(line) {
                    if block.is_empty() {
                        first_line = i + 1;
                    }
                    block.push(line);
                } else if !block.is_empty() {
                    found.push(board_placement(first_line, &block)?);
                    block.clear();
                }
            }
            return Ok(found);
        }
        match placement_lines(text) {
            Some(lines) => lines.map(Placement::parse).collect(),
            None => Ok(vec![Placement::parse(text)?]),
        }
    }

    /// An upper bound on what reading `text` back (the request layer's reader of answers,
    /// [`Placement::parse_all`], [`Placement::read_witness`]) finds, for a bound on the memory of reading and checking
    /// it ([`ReadSize::bytes`]) before anything is read: the rows (every whole number and every
    /// token counts as one) and the placements (those [`Placement::parse_all`] finds, or in
    /// JSON, one per `[`).
    ///
    /// ```
    /// use damier::queens::Placement;
    ///
    /// let size = Placement::read_size("(1)(1)(1)");
    /// assert_eq!((size.rows, size.placements), (3, 3));
    /// ```
    pub fn read_size(text: &str) -> ReadSize {
        let tokens = text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).count();
        let mut previous = b' ';
        let numbers = text
            .bytes()
            .filter(|&b| {
                let starts = b.is_ascii_digit() && !previous.is_ascii_digit();
                previous = b;
                starts
            })
            .count();
        let groups = column_groups(text).count();
        let in_text = if groups > 0 {
            groups
        } else if text.lines().any(is_board_line) {
            let mut inside = false;
            text.lines()
                .filter(|l| {
                    let starts = is_board_line(l) && !inside;
                    inside = is_board_line(l);
                    starts
                })
                .count()
        } else {
            placement_lines(text).map_or(1, Iterator::count)
        };
        let t = text.trim_start();
        let json = if t.starts_with('{') || t.starts_with('[') {
            t.bytes().filter(|&b| b == b'[').count()
        } else {
            0
        };
        ReadSize { rows: tokens.max(numbers), placements: in_text.max(json) }
    }
}

/// The lines of `text` that hold columns, when each is one placement (what `--columns`
/// prints): several lines, each of the same number k >= 2 of columns, all in `1..=k`.
fn placement_lines(text: &str) -> Option<impl Iterator<Item = &str> + Clone> {
    // PERF: the lines are walked again rather than collected (a list of tokens per line
    // would hold about 100 bytes a row of `queens solve --out`).
    fn tokens_of(l: &str) -> impl Iterator<Item = &str> {
        l.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty())
    }
    let lines = text.lines().filter(|l| tokens_of(l).next().is_some());
    let k = lines.clone().next().map_or(0, |l| tokens_of(l).count());
    let per_line = lines.clone().nth(1).is_some()
        && k >= 2
        && lines.clone().all(|l| {
            let mut len = 0;
            let in_range = tokens_of(l).all(|t| {
                len += 1;
                t.parse::<u64>().is_ok_and(|c| (1..=k as u64).contains(&c))
            });
            in_range && len == k
        });
    per_line.then_some(lines)
}

/// Bytes held a row by reading a placement back and checking it: its column (4; 12 for a
/// moment while a list of JSON grows by doubling, before any check) and the checker's copy of
/// the queen ([`super::CHECK_BYTES_PER_QUEEN`]).
pub const READ_BYTES_PER_ROW: u64 = 4 + super::CHECK_BYTES_PER_QUEEN;

/// Bytes held a placement of a listing besides its rows: its place in the list (twice its
/// size: the list grows by doubling), the allocator's minimum block and rounding for its
/// columns (32), and its report ([`super::CheckReport`]).
pub const READ_BYTES_PER_PLACEMENT: u64 =
    (2 * size_of::<Placement>() + 32 + size_of::<super::CheckReport>()) as u64;

/// An upper bound on the rows and placements of a text read back ([`Placement::read_size`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadSize {
    /// Rows: every whole number and every token (a cell of a drawn board) counts as one.
    pub rows: usize,
    /// Placements.
    pub placements: usize,
}

impl ReadSize {
    /// The bytes reading and checking them holds besides the text: [`READ_BYTES_PER_ROW`] a
    /// row and [`READ_BYTES_PER_PLACEMENT`] a placement (attacks found aside).
    pub fn bytes(&self) -> u64 {
        (self.rows as u64)
            .saturating_mul(READ_BYTES_PER_ROW)
            .saturating_add((self.placements as u64).saturating_mul(READ_BYTES_PER_PLACEMENT))
    }
}

/// The label of a `queens max` witness with empty rows (R(n) < n): `witness (column per
/// row, 0 = empty row): 1 3 0`. Printed by the CLI, read back by [`Placement::read_witness`].
pub const EMPTY_ROW_WITNESS: &str = "witness (column per row, 0 = empty row):";

impl Placement {
    /// The placement `damier queens solve --format binary` writes: 1-based columns as `u32`
    /// little-endian, 4 bytes per row, no header.
    ///
    /// ```
    /// use damier::queens::Placement;
    ///
    /// let bytes: Vec<u8> = [2u32, 4, 1, 3].iter().flat_map(|c| c.to_le_bytes()).collect();
    /// assert!(Placement::is_binary(&bytes));
    /// assert_eq!(Placement::from_binary(&bytes).unwrap(), Placement::parse("2 4 1 3").unwrap());
    /// ```
    pub fn from_binary(bytes: &[u8]) -> Result<Placement, PlacementError> {
        if bytes.is_empty() {
            return Err(PlacementError::Empty);
        }
        if !bytes.len().is_multiple_of(4) {
            return Err(PlacementError::BinaryLength(bytes.len()));
        }
        let n = bytes.len() / 4;
        if super::above_max_n(n) {
            return Err(PlacementError::TooLarge(n));
        }
        // Exactly n columns (a collect of results would grow by doubling).
        let mut cols = try_with_capacity(n)?;
        for (r, b) in bytes.chunks_exact(4).enumerate() {
            match u32::from_le_bytes([b[0], b[1], b[2], b[3]]) {
                0 => return Err(PlacementError::OutOfRange { row: r + 1, column: 0, n }),
                c if c as usize > n => {
                    return Err(PlacementError::OutOfRange { row: r + 1, column: c.into(), n });
                }
                c => cols.push(c - 1),
            }
        }
        Ok(Placement { cols })
    }

    /// Whether `bytes` are the binary form ([`Placement::from_binary`]) rather than text: text
    /// holds no NUL byte, and the binary form of every placement does (its column 1 is
    /// `01 00 00 00`).
    pub fn is_binary(bytes: &[u8]) -> bool {
        bytes.contains(&0)
    }

    /// The witness `damier queens max` prints when fewer than n queens fit (R(n) < n): queens
    /// on an n x n board with some rows empty, as the line [`EMPTY_ROW_WITNESS`] followed by
    /// one 1-based column per row, 0 for an empty row (its JSON is the request layer's to
    /// read). The board size and the queens as 0-based `(row, column)`, for
    /// [`super::check_queens`]; `None` when `text` holds no such witness.
    ///
    /// ```
    /// use damier::queens::Placement;
    ///
    /// let text = "R(3) = 2\nwitness (column per row, 0 = empty row): 1 3 0\n";
    /// assert_eq!(Placement::read_witness(text).unwrap().unwrap(), (3, vec![(0, 0), (1, 2)]));
    /// assert!(Placement::read_witness("S = (2, 4, 1, 3)").is_none());
    /// ```
    pub fn read_witness(text: &str) -> Option<Result<Witness, PlacementError>> {
        let (_, cols) = text.lines().find_map(|l| l.split_once(EMPTY_ROW_WITNESS))?;
        Some(text_witness(cols))
    }
}

/// The witness of the columns `cols` (text, 1-based, 0 an empty row).
fn text_witness(cols: &str) -> Result<Witness, PlacementError> {
    // PERF: the tokens are walked twice (counted, then read) rather than collected.
    let tokens = || cols.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty());
    let n = tokens().count();
    if n == 0 {
        return Err(PlacementError::Empty);
    }
    let size = u32::try_from(n).map_err(|_| PlacementError::TooLarge(n))?;
    let mut queens = try_with_capacity(n)?;
    for (r, t) in tokens().enumerate() {
        let Ok(c) = t.parse::<u64>() else {
            return Err(PlacementError::NotANumber { index: r + 1, token: super::excerpt(t) });
        };
        match c {
            0 => {}
            c if c <= n as u64 => queens.push((r as u32, (c - 1) as u32)),
            c => return Err(PlacementError::OutOfRange { row: r + 1, column: c, n }),
        }
    }
    Ok((size, queens))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(ps: &[Placement]) -> Vec<Vec<u64>> {
        ps.iter().map(Placement::one_based).collect()
    }

    #[test]
    fn reads_what_first_list_and_solve_print() {
        let p = Placement::parse("1 5 8 6 3 7 2 4").unwrap();
        let first = format!("n = 8: first solution S = {p} (113 queens placed, 0.000 s)\n{}", p.board());
        assert_eq!(Placement::parse_all(&first).unwrap(), vec![p.clone()]);
        let q = Placement::parse("2 4 6 8 3 1 7 5").unwrap();
        let list = format!(
            "1: {p}\n{}\n2: {q}  (class of 8)\n{}\n(stopped at --limit 2; `damier queens count 8` counts them all)\n",
            p.board(),
            q.board()
        );
        assert_eq!(Placement::parse_all(&list).unwrap(), vec![p.clone(), q.clone()]);
        // The bare printed form, brackets included or not, and a compact JSON list.
        assert_eq!(Placement::parse_all("(1, 5, 8, 6, 3, 7, 2, 4)").unwrap(), vec![p.clone()]);
        assert_eq!(Placement::parse_all("[1,5,8,6,3,7,2,4]").unwrap(), vec![p.clone()]);
        assert_eq!(Placement::parse_all("1, 5, 8, 6, 3, 7, 2, 4").unwrap(), vec![p.clone()]);
        // Boards alone (a header line is skipped), one queen per row.
        let boards = format!("solutions:\n{}\n{}", p.board(), q.board());
        assert_eq!(Placement::parse_all(&boards).unwrap(), vec![p.clone(), q.clone()]);
        // --columns: one placement per line; `solve --out`: one column per line.
        assert_eq!(
            cols(&Placement::parse_all("1 5 8 6 3 7 2 4\n2 4 6 8 3 1 7 5\n").unwrap()),
            cols(&[p.clone(), q])
        );
        assert_eq!(Placement::parse_all("1\n5\n8\n6\n3\n7\n2\n4\n").unwrap(), vec![p.clone()]);
        // `queens max`: "R(8) = 8" is not a placement, its witness is.
        let max = format!("R(8) = 8 (by exhaustive branch-and-bound search)\nwitness S = {p}\n{}", p.board());
        assert_eq!(Placement::parse_all(&max).unwrap(), vec![p]);
    }

    /// Issue 38: `queens check` could not read `queens solve --format binary`, nor the witness
    /// of `queens max 3` (text or JSON: a 0 for its empty row).
    #[test]
    fn binary_placements_and_witnesses_with_empty_rows_are_read() {
        let bin = |cols: &[u32]| cols.iter().flat_map(|c| c.to_le_bytes()).collect::<Vec<u8>>();
        let eight = Placement::parse("1 5 8 6 3 7 2 4").unwrap();
        assert!(Placement::is_binary(&bin(&[1, 5, 8, 6, 3, 7, 2, 4])));
        assert!(!Placement::is_binary(b"1 5 8 6 3 7 2 4\n"));
        assert_eq!(Placement::from_binary(&bin(&[1, 5, 8, 6, 3, 7, 2, 4])).unwrap(), eight);
        assert_eq!(Placement::from_binary(&[1, 0, 0]), Err(PlacementError::BinaryLength(3)));
        assert!(matches!(
            Placement::from_binary(&bin(&[1, 0])),
            Err(PlacementError::OutOfRange { row: 2, .. })
        ));
        assert!(matches!(
            Placement::from_binary(&bin(&[1, 3])),
            Err(PlacementError::OutOfRange { column: 3, .. })
        ));
        let max3 = "R(3) = 2 (by exhaustive branch-and-bound search)\n\
                    witness (column per row, 0 = empty row): 1 3 0\nQ . .\n. . Q\n. . .\n";
        assert_eq!(Placement::read_witness(max3), Some(Ok((3, vec![(0, 0), (1, 2)]))));
        let bad = "witness (column per row, 0 = empty row): 1 4 0";
        assert!(matches!(
            Placement::read_witness(bad),
            Some(Err(PlacementError::OutOfRange { column: 4, .. }))
        ));
        assert_eq!(Placement::read_witness("R(8) = 8\nwitness S = (1, 5, 8, 6, 3, 7, 2, 4)"), None);
    }

    #[test]
    fn lines_of_unequal_or_out_of_range_columns_are_one_placement() {
        // "1 3" then "2": one placement of 3 rows, as before.
        assert_eq!(cols(&Placement::parse_all("1 3\n2\n").unwrap()), vec![vec![1, 3, 2]]);
        // "2 4" cannot be a placement of 2 rows: the two lines are one placement of 4.
        assert_eq!(cols(&Placement::parse_all("2 4\n1 3\n").unwrap()), vec![vec![2, 4, 1, 3]]);
    }

    #[test]
    fn refuses_malformed_boards_and_text() {
        assert!(matches!(
            Placement::parse_all("Q . .\n. . Q\n"),
            Err(PlacementError::BoardShape { line: 1, rows: 2, width: 3 })
        ));
        assert!(matches!(
            Placement::parse_all("Q Q\n. .\n"),
            Err(PlacementError::BoardRow { line: 1, queens: 2 })
        ));
        assert!(matches!(Placement::parse_all("n = 3: no solution"), Err(PlacementError::NotANumber { .. })));
        assert!(matches!(Placement::parse_all(""), Err(PlacementError::Empty)));
        assert!(matches!(Placement::parse_all("(1, 3)"), Err(PlacementError::OutOfRange { .. })));
    }
}
