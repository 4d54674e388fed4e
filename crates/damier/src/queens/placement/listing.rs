//! Placements read back from what the tool prints: `S = (1, 5, 8, …)` lines, numbered
//! listings, drawn boards, bare columns, one placement per line.
//!
//! Whatever `damier queens first|list|solve` prints as a placement is accepted by
//! `damier queens check` through [`Placement::parse_all`], with or without its header lines
//! and brackets, so that `damier queens first 8 | damier queens check` works.

use super::{Placement, PlacementError};

/// Characters of a drawn board row (`Q . . .`): a queen, an empty cell, the spacing.
fn is_board_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, 'Q' | 'q' | '.' | ' ' | '\t'))
}

/// The inside of every innermost `( … )` or `[ … ]` group made of digits, commas and
/// whitespace only (`(1, 5, 8, 6)`; not `(113 queens placed)`, not `(checked)`, and not an
/// argument list such as `R(6)`, whose bracket follows a letter or digit).
fn column_groups(text: &str) -> Vec<&str> {
    let mut groups = Vec::new();
    let mut open: Option<usize> = None;
    let mut previous = ' ';
    for (i, c) in text.char_indices() {
        let after = std::mem::replace(&mut previous, c);
        match c {
            '(' | '[' if after.is_alphanumeric() || after == '_' => open = None,
            '(' | '[' => open = Some(i + 1),
            ')' | ']' => {
                if let Some(start) = open.take() {
                    let inside = &text[start..i];
                    let numeric = inside.chars().all(|c| c.is_ascii_digit() || c == ',' || c.is_whitespace());
                    if numeric && inside.chars().any(|c| c.is_ascii_digit()) {
                        groups.push(inside);
                    }
                }
            }
            _ => {}
        }
    }
    groups
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
        if !groups.is_empty() {
            return groups.into_iter().map(Placement::parse).collect();
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
        let lines: Vec<Vec<&str>> = text
            .lines()
            .map(|l| l.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).collect())
            .filter(|t: &Vec<&str>| !t.is_empty())
            .collect();
        let k = lines.first().map_or(0, Vec::len);
        let per_line = lines.len() >= 2
            && k >= 2
            && lines.iter().all(|l| {
                l.len() == k && l.iter().all(|t| t.parse::<u64>().is_ok_and(|c| (1..=k as u64).contains(&c)))
            });
        if per_line {
            lines.iter().map(|l| Placement::from_tokens(l)).collect()
        } else {
            Ok(vec![Placement::parse(text)?])
        }
    }
}

#[cfg(feature = "serde")]
impl Placement {
    /// Every placement in what the tool prints, its JSON included ([`Placement::parse_all`]
    /// for text): every `columns` list and every list of `solutions` in a JSON answer of
    /// `damier queens first|list|solve --json` (1-based columns). What `damier queens check`
    /// reads. A JSON array of plain numbers (`[1, 5, 8, 6, 3, 7, 2, 4]`) is read as text: one
    /// bracketed placement.
    ///
    /// ```
    /// use damier::queens::Placement;
    ///
    /// let json = r#"{"n": 4, "method": "construct", "seconds": 0.0, "columns": [2, 4, 1, 3]}"#;
    /// assert_eq!(Placement::read_all(json).unwrap(), [Placement::parse("2 4 1 3").unwrap()]);
    /// assert_eq!(Placement::read_all("[2, 4, 1, 3]").unwrap().len(), 1);
    /// ```
    pub fn read_all(text: &str) -> Result<Vec<Placement>, PlacementError> {
        json_placements(text).unwrap_or_else(|| Placement::parse_all(text))
    }
}

/// The placements of a JSON answer: every `columns` list and every list of `solutions`;
/// `None` when the text is not JSON or holds no object (plain arrays are text's brackets).
#[cfg(feature = "serde")]
fn json_placements(text: &str) -> Option<Result<Vec<Placement>, PlacementError>> {
    use serde_json::Value;
    let t = text.trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    let v: Value = serde_json::from_str(t).ok()?;
    fn columns(v: &Value) -> Option<Vec<String>> {
        v.as_array()?.iter().map(|c| c.as_u64().map(|c| c.to_string())).collect()
    }
    /// Collects the placements under `v`; says whether `v` holds an object.
    fn walk(v: &Value, found: &mut Vec<Vec<String>>) -> bool {
        match v {
            // Every item is walked (no short circuit): each may hold placements.
            Value::Array(items) => {
                let mut object = false;
                for i in items {
                    object |= walk(i, found);
                }
                object
            }
            Value::Object(map) => {
                found.extend(map.get("columns").and_then(columns));
                if let Some(list) = map.get("solutions").and_then(Value::as_array) {
                    found.extend(list.iter().filter_map(columns));
                }
                true
            }
            _ => false,
        }
    }
    let mut found = Vec::new();
    if !walk(&v, &mut found) {
        return None;
    }
    if found.is_empty() {
        return Some(Err(PlacementError::NoneInJson));
    }
    Some(found.iter().map(|cols| Placement::from_tokens(cols)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bracketed list of columns is JSON too: it was read as a JSON answer without a
    /// `columns` key and refused.
    #[cfg(feature = "serde")]
    #[test]
    fn json_answers_are_read_and_a_plain_json_list_is_one_placement() {
        let eight = Placement::parse("1 5 8 6 3 7 2 4").unwrap();
        assert_eq!(Placement::read_all("[1, 5, 8, 6, 3, 7, 2, 4]").unwrap(), std::slice::from_ref(&eight));
        let list = r#"{"n": 4, "solutions": [[2, 4, 1, 3], [3, 1, 4, 2]], "count": 2}"#;
        assert_eq!(Placement::read_all(list).unwrap().len(), 2);
        let nested = r#"[{"columns": [1, 5, 8, 6, 3, 7, 2, 4]}, {"columns": [2, 4, 1, 3]}]"#;
        assert_eq!(Placement::read_all(nested).unwrap()[0], eight);
        let none = r#"{"columns": null, "method": "construct", "n": 3}"#;
        assert_eq!(Placement::read_all(none), Err(PlacementError::NoneInJson));
        assert!(matches!(
            Placement::read_all(r#"{"columns": [1, 9]}"#),
            Err(PlacementError::OutOfRange { .. })
        ));
        // Not JSON: the text forms.
        assert_eq!(Placement::read_all("S = (1, 5, 8, 6, 3, 7, 2, 4)").unwrap(), [eight]);
    }

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
