//! Placements of queens and an independent checker that says which queens attack which.
//!
//! A [`Placement`] is the course chapter's permutation `S`: the column of the queen on each row,
//! 0-based inside the library and 1-based in every text format ([`Placement::parse`],
//! [`fmt::Display`]). The checker ([`check_queens`], [`Placement::check`]) shares no code
//! with the searches: it groups queens by row, column and both diagonals, so a bug in a
//! search's bit tricks cannot hide behind the same bug in the checker.
//!
//! ```
//! use damier::queens::Placement;
//!
//! assert!(Placement::parse("2 4 1 3").unwrap().is_valid());
//! let diagonal = Placement::parse("1 2 3 4").unwrap();
//! let report = diagonal.check();
//! assert!(!report.is_valid() && !report.attacks.is_empty());
//! assert!(Placement::parse("1 5").is_err()); // column 5 on a 2 x 2 board
//! ```

use std::fmt;

use crate::util::{OutOfMemory, try_with_capacity};

mod listing;

pub use listing::{EMPTY_ROW_WITNESS, READ_BYTES_PER_PLACEMENT, READ_BYTES_PER_ROW, ReadSize};

/// Queens on an n x n board, some rows empty: the board size and the queens as 0-based
/// `(row, column)` ([`Placement::read_witness`]). Defined here rather than in `listing.rs`:
/// `listing.rs` and `json.rs` both read witnesses, and `listing.rs` calls `json.rs`.
pub type Witness = (u32, Vec<(u32, u32)>);

/// One queen per row: `columns()[r]` is the 0-based column of the queen on row `r`.
///
/// Serialized (feature `serde`) as the list of 0-based columns.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Placement {
    cols: Vec<u32>,
}

/// Why a text placement or a column list was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// A token is not a whole number.
    #[error("'{token}' is not a column number (item {index})")]
    NotANumber {
        /// 1-based position of the token.
        index: usize,
        /// The offending text.
        token: String,
    },
    /// A column is outside `1..=n`.
    #[error("column {column} (row {row}) is out of range: 1 to {n}")]
    OutOfRange {
        /// 1-based row.
        row: usize,
        /// The 1-based column given.
        column: u64,
        /// The board size.
        n: usize,
    },
    /// No column at all.
    #[error("empty placement: give one column per row")]
    Empty,
    /// A binary placement whose length is not a whole number of 4-byte columns.
    #[error("binary placement of {0} bytes: it takes 4 bytes per row (u32 little-endian)")]
    BinaryLength(usize),
    /// A drawn board row without exactly one queen.
    #[error("line {line}: a board row needs exactly one queen (Q), found {queens}")]
    BoardRow {
        /// 1-based line of the text.
        line: usize,
        /// Queens found on it.
        queens: usize,
    },
    /// A drawn board that is not square.
    #[error("line {line}: a board of {rows} rows needs {rows} cells per row, found {width}")]
    BoardShape {
        /// 1-based line of the text.
        line: usize,
        /// Rows of the board.
        rows: usize,
        /// Cells on that line.
        width: usize,
    },
    /// More rows than [`Placement::MAX_N`].
    #[error("placement of {0} rows is too large: at most {max} rows", max = Placement::MAX_N)]
    TooLarge(usize),
    /// A JSON answer without any `columns` or `placement` list (the answer for an n without
    /// solution, a run that found none).
    #[error(
        "no placement in the JSON (no \"columns\" or \"placement\" list: did the command find no solution?)"
    )]
    NoneInJson,
    /// Memory refused while the placements were read.
    #[error(transparent)]
    OutOfMemory(#[from] OutOfMemory),
}

/// Most characters of an offending token an error repeats: a hostile input (a line of 10^7
/// brackets) would otherwise come back whole as a message of megabytes.
const TOKEN_SHOWN: usize = 40;

/// `token` as an error repeats it: whole when short, else its first [`TOKEN_SHOWN`]
/// characters and how long it was.
fn excerpt(token: &str) -> String {
    match token.char_indices().nth(TOKEN_SHOWN) {
        None => token.to_string(),
        Some((end, _)) => format!("{}... ({} bytes)", &token[..end], token.len()),
    }
}

/// Whether `n` rows are more than [`Placement::MAX_N`]: a length no `u32` holds (never, where
/// `usize` has 32 bits, as on WebAssembly: written so rather than `n > MAX_N`, which is
/// always false there).
fn above_max_n(n: usize) -> bool {
    u32::try_from(n).is_err()
}

impl Placement {
    /// Largest board a placement may describe (columns are `u32`).
    pub const MAX_N: usize = u32::MAX as usize;

    /// A placement from 0-based columns, one per row; every column must be `< len`.
    pub fn new(cols: Vec<u32>) -> Result<Placement, PlacementError> {
        let n = cols.len();
        if above_max_n(n) {
            return Err(PlacementError::TooLarge(n));
        }
        if let Some((r, &c)) = cols.iter().enumerate().find(|&(_, &c)| c as usize >= n) {
            return Err(PlacementError::OutOfRange { row: r + 1, column: u64::from(c) + 1, n });
        }
        Ok(Placement { cols })
    }

    /// Like [`Placement::new`] for columns already known to be in range.
    pub(crate) fn from_trusted(cols: Vec<u32>) -> Placement {
        debug_assert!(cols.iter().all(|&c| (c as usize) < cols.len()));
        Placement { cols }
    }

    /// Parses 1-based columns separated by whitespace and/or commas (`"2 4 1 3"`, `"2,4,1,3"`).
    pub fn parse(text: &str) -> Result<Placement, PlacementError> {
        // PERF: the tokens are walked twice (counted, then read) rather than collected: the
        // placement holds 4 bytes a row, a list of tokens would hold 16 more.
        let tokens = || text.split(|ch: char| ch.is_whitespace() || ch == ',').filter(|t| !t.is_empty());
        Self::from_token_iter(tokens().count(), tokens())
    }

    /// Parses one 1-based column per token.
    pub fn from_tokens<S: AsRef<str>>(tokens: &[S]) -> Result<Placement, PlacementError> {
        Self::from_token_iter(tokens.len(), tokens.iter().map(AsRef::as_ref))
    }

    /// [`Placement::from_tokens`] from the `n` tokens of `tokens`.
    fn from_token_iter<'a>(
        n: usize,
        tokens: impl Iterator<Item = &'a str>,
    ) -> Result<Placement, PlacementError> {
        if n == 0 {
            return Err(PlacementError::Empty);
        }
        if above_max_n(n) {
            return Err(PlacementError::TooLarge(n));
        }
        let mut cols = Vec::with_capacity(n);
        for (i, t) in tokens.enumerate() {
            let c: u64 =
                t.parse().map_err(|_| PlacementError::NotANumber { index: i + 1, token: excerpt(t) })?;
            if c == 0 || c > n as u64 {
                return Err(PlacementError::OutOfRange { row: i + 1, column: c, n });
            }
            cols.push((c - 1) as u32);
        }
        Ok(Placement { cols })
    }

    /// Board size (= number of rows = number of queens).
    pub fn n(&self) -> u32 {
        // At most MAX_N rows: checked when built.
        self.cols.len() as u32
    }

    /// 0-based columns, one per row.
    pub fn columns(&self) -> &[u32] {
        &self.cols
    }

    /// The columns, 1-based, as the course chapter writes `S`.
    pub fn one_based(&self) -> Vec<u64> {
        self.cols.iter().map(|&c| u64::from(c) + 1).collect()
    }

    /// Consumes the placement, returning its 0-based columns.
    pub fn into_columns(self) -> Vec<u32> {
        self.cols
    }

    /// The queens as `(row, column)` pairs, 0-based.
    pub fn queens(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.cols.iter().enumerate().map(|(r, &c)| (r as u32, c))
    }

    /// Checks the placement with the independent checker ([`check_queens`]).
    pub fn check(&self) -> CheckReport {
        self.try_check().unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Placement::check`], or [`OutOfMemory`]: the checker holds
    /// [`CHECK_BYTES_PER_QUEEN`] a row besides the placement.
    pub fn try_check(&self) -> Result<CheckReport, OutOfMemory> {
        let mut queens = try_with_capacity(self.cols.len())?;
        queens.extend(self.queens());
        try_check_owned(self.n(), queens)
    }

    /// True if no two queens attack each other.
    pub fn is_valid(&self) -> bool {
        self.check().is_valid()
    }

    /// The board drawn with `Q` for a queen and `.` elsewhere, one line per row.
    pub fn board(&self) -> String {
        let n = self.cols.len();
        let mut s = String::with_capacity(n * (2 * n + 1));
        for &c in &self.cols {
            for j in 0..n {
                if j > 0 {
                    s.push(' ');
                }
                s.push(if j == c as usize { 'Q' } else { '.' });
            }
            s.push('\n');
        }
        s
    }
}

/// Prints `S` 1-based: `(2, 4, 1, 3)`, as the course chapter does.
impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, c) in self.cols.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", u64::from(*c) + 1)?;
        }
        f.write_str(")")
    }
}

/// The line two attacking queens share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum Line {
    /// Same row.
    Row,
    /// Same column.
    Column,
    /// Same diagonal going down to the right (`row - column` constant).
    Diagonal,
    /// Same diagonal going down to the left (`row + column` constant).
    AntiDiagonal,
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Line::Row => "same row",
            Line::Column => "same column",
            Line::Diagonal => "same diagonal (\\)",
            Line::AntiDiagonal => "same anti-diagonal (/)",
        })
    }
}

/// Two queens that attack each other along `line`: `a` comes before `b` in reading order.
/// Serialised, it gives the queens as 1-based `[row, column]`, as every message counts cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Attack {
    /// First queen, `(row, column)`, 0-based.
    pub a: (u32, u32),
    /// Second queen, `(row, column)`, 0-based.
    pub b: (u32, u32),
    /// The line they share.
    pub line: Line,
}

/// Serialises an optional placement as its 1-based columns, or null.
#[cfg(feature = "serde")]
pub(crate) fn serialize_one_based<S: serde::Serializer>(
    placement: &Option<Placement>,
    s: S,
) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&placement.as_ref().map(Placement::one_based), s)
}

/// Serialises a placement as its 1-based columns.
#[cfg(feature = "serde")]
pub(crate) fn serialize_columns_one_based<S: serde::Serializer>(
    placement: &Placement,
    s: S,
) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&placement.one_based(), s)
}

/// Serialises placements as lists of their 1-based columns.
#[cfg(feature = "serde")]
pub(crate) fn serialize_all_one_based<S: serde::Serializer>(
    placements: &[Placement],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(placements.iter().map(Placement::one_based))
}

/// What the checker found. Serialised as `n`, `valid` and `attacks`,
/// each attack `{a, b, line}` with the queens as 1-based `[row, column]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// Board size.
    pub n: u32,
    /// Queens outside the board, `(row, column)` as given.
    pub outside: Vec<(u32, u32)>,
    /// Attacking pairs, sorted. Along one line only neighbours are listed: a queen between
    /// two others blocks them, as in chess, so k queens on a line give k - 1 pairs.
    pub attacks: Vec<Attack>,
}

impl CheckReport {
    /// True if every queen is on the board and none attacks another.
    pub fn is_valid(&self) -> bool {
        self.outside.is_empty() && self.attacks.is_empty()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for CheckReport {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("CheckReport", 3)?;
        st.serialize_field("n", &self.n)?;
        st.serialize_field("valid", &self.is_valid())?;
        st.serialize_field("attacks", &self.attacks)?;
        st.end()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Attack {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let one = |(r, c): (u32, u32)| [u64::from(r) + 1, u64::from(c) + 1];
        let mut st = s.serialize_struct("Attack", 3)?;
        st.serialize_field("a", &one(self.a))?;
        st.serialize_field("b", &one(self.b))?;
        st.serialize_field("line", &self.line)?;
        st.end()
    }
}

/// Several placements checked (a listing read back by [`Placement::parse_all`]), serialised
/// as `count`, `valid` (all of them) and `placements`, one [`CheckReport`] each.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CheckedListing {
    /// Placements checked.
    pub count: usize,
    /// All of them valid.
    pub valid: bool,
    /// Each placement's report, in order.
    pub placements: Vec<CheckReport>,
}

impl CheckedListing {
    /// Checks every placement of `list`.
    pub fn of(list: &[Placement]) -> CheckedListing {
        CheckedListing::try_of(list).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`CheckedListing::of`], or [`OutOfMemory`].
    pub fn try_of(list: &[Placement]) -> Result<CheckedListing, OutOfMemory> {
        let mut placements = try_with_capacity(list.len())?;
        for p in list {
            placements.push(p.try_check()?);
        }
        Ok(CheckedListing {
            count: placements.len(),
            valid: placements.iter().all(CheckReport::is_valid),
            placements,
        })
    }
}

/// Bytes the checker ([`try_check_queens`]) holds per queen besides its answer: one copy of
/// the queens, sorted along each kind of line in turn.
pub const CHECK_BYTES_PER_QUEEN: u64 = size_of::<(u32, u32)>() as u64;

/// Bytes of each attacking pair the checker reports (at most three per queen when each row
/// holds one, four in general) and of each queen outside the board.
pub const CHECK_BYTES_PER_ATTACK: u64 = size_of::<Attack>() as u64;

/// Checks any set of queens on an `n` x `n` board: which lie outside, which pairs attack.
///
/// Runs in O(q log q) for q queens, independently of every search in this module: one copy
/// of the queens ([`CHECK_BYTES_PER_QUEEN`] a queen) is sorted by row, column and each
/// diagonal in turn, and neighbours on a line are the attacking pairs. For the small sets of
/// the tests and the searches; a request's placement goes through [`try_check_queens`].
pub fn check_queens(n: u32, queens: &[(u32, u32)]) -> CheckReport {
    try_check_queens(n, queens).unwrap_or_else(|e| panic!("{e}"))
}

/// [`check_queens`], every buffer allocated without aborting: [`OutOfMemory`] when the
/// allocator refuses one.
pub fn try_check_queens(n: u32, queens: &[(u32, u32)]) -> Result<CheckReport, OutOfMemory> {
    let mut copy = try_with_capacity(queens.len())?;
    copy.extend_from_slice(queens);
    try_check_owned(n, copy)
}

/// [`try_check_queens`] on its own copy of the queens, which it sorts (no second copy).
pub fn try_check_owned(n: u32, mut queens: Vec<(u32, u32)>) -> Result<CheckReport, OutOfMemory> {
    let off = |&(r, c): &(u32, u32)| r >= n || c >= n;
    let mut outside = try_with_capacity(queens.iter().filter(|q| off(q)).count())?;
    outside.extend(queens.iter().copied().filter(off));
    let mut attacks: Vec<Attack> = Vec::new();
    for line in [Line::Row, Line::Column, Line::Diagonal, Line::AntiDiagonal] {
        // The line through a queen (offset by 2^32 so that `row - column` is not negative),
        // then its row and column: one integer, so that sorting compares words.
        let key = |&(r, c): &(u32, u32)| {
            let (r, c) = (u64::from(r), u64::from(c));
            let on = match line {
                Line::Row => r,
                Line::Column => c,
                Line::Diagonal => r + (1 << 32) - c,
                Line::AntiDiagonal => r + c,
            };
            u128::from(on) << 64 | u128::from(r) << 32 | u128::from(c)
        };
        // PERF: the queens themselves are sorted (8 bytes each), not indices into them: no
        // second array, and the comparisons read memory in order.
        queens.sort_unstable_by_key(key);
        for w in queens.windows(2) {
            if key(&w[0]) >> 64 == key(&w[1]) >> 64 {
                attacks.try_reserve(1).map_err(|_| OutOfMemory::refused(CHECK_BYTES_PER_ATTACK))?;
                attacks.push(Attack { a: w[0], b: w[1], line });
            }
        }
    }
    drop(queens);
    attacks.sort_unstable();
    Ok(CheckReport { n, outside, attacks })
}

/// Streaming O(n)-memory verifier for huge placements produced row by row.
///
/// Keeps one occupancy bit per column and per diagonal (5n bits in all); rows need no
/// storage since queens arrive one per row in order.
#[derive(Debug)]
pub struct Occupancy {
    n: u64,
    row: u64,
    cols: Vec<u64>,
    diag: Vec<u64>,
    anti: Vec<u64>,
}

/// The first conflict an [`Occupancy`] saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OccupancyError {
    /// A column outside the board.
    #[error("row {}: column {} is off the board", .row + 1, .col + 1)]
    Outside {
        /// 0-based row.
        row: u64,
        /// 0-based column.
        col: u64,
    },
    /// The queen shares a line with an earlier one.
    #[error("row {}, column {}: {line} as an earlier queen", .row + 1, .col + 1)]
    Conflict {
        /// 0-based row.
        row: u64,
        /// 0-based column.
        col: u64,
        /// The shared line.
        line: Line,
    },
    /// More or fewer rows than n.
    #[error("expected {expected} rows, got {got}")]
    RowCount {
        /// n.
        expected: u64,
        /// Rows placed.
        got: u64,
    },
}

impl Occupancy {
    /// Bytes an occupancy for `n` needs (5n bits, rounded up to words).
    pub fn bytes_for(n: u32) -> u64 {
        let n = u64::from(n);
        8 * (n.div_ceil(64) + 2 * (2 * n).div_ceil(64))
    }

    /// An empty board of size `n`.
    pub fn new(n: u32) -> Occupancy {
        let n = u64::from(n);
        let words = |bits: u64| vec![0u64; bits.div_ceil(64) as usize];
        Occupancy { n, row: 0, cols: words(n), diag: words(2 * n), anti: words(2 * n) }
    }

    fn test_and_set(v: &mut [u64], i: u64) -> bool {
        let (w, b) = ((i / 64) as usize, i % 64);
        let was = v[w] >> b & 1 == 1;
        v[w] |= 1 << b;
        was
    }

    /// Places the queen of the next row in column `col` (0-based).
    #[inline]
    pub fn push(&mut self, col: u64) -> Result<(), OccupancyError> {
        let row = self.row;
        if col >= self.n || row >= self.n {
            return Err(OccupancyError::Outside { row, col });
        }
        if Self::test_and_set(&mut self.cols, col) {
            return Err(OccupancyError::Conflict { row, col, line: Line::Column });
        }
        if Self::test_and_set(&mut self.diag, row + self.n - 1 - col) {
            return Err(OccupancyError::Conflict { row, col, line: Line::Diagonal });
        }
        if Self::test_and_set(&mut self.anti, row + col) {
            return Err(OccupancyError::Conflict { row, col, line: Line::AntiDiagonal });
        }
        self.row += 1;
        Ok(())
    }

    /// [`Occupancy::push`] for the queens of the next `cols.len()` rows, in order.
    pub fn push_all(&mut self, cols: &[u32]) -> Result<(), OccupancyError> {
        // PERF: a huge placement hits the three bitmaps at random; the words of the row
        // AHEAD rows further are prefetched, so their cache misses overlap.
        const AHEAD: usize = 16;
        for (k, &c) in cols.iter().enumerate() {
            if let Some(&next) = cols.get(k + AHEAD) {
                let (row, col) = (self.row + AHEAD as u64, u64::from(next));
                if col < self.n && row < self.n {
                    crate::cpu::prefetch(&self.cols[(col / 64) as usize]);
                    crate::cpu::prefetch(&self.diag[((row + self.n - 1 - col) / 64) as usize]);
                    crate::cpu::prefetch(&self.anti[((row + col) / 64) as usize]);
                }
            }
            self.push(u64::from(c))?;
        }
        Ok(())
    }

    /// Succeeds if exactly n queens were placed.
    pub fn finish(&self) -> Result<(), OccupancyError> {
        if self.row == self.n {
            Ok(())
        } else {
            Err(OccupancyError::RowCount { expected: self.n, got: self.row })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of distinct queens on one line with no queen between them: the checker's
    /// answer, found the slow way.
    fn attacks_by_pairs(queens: &[(u32, u32)]) -> Vec<Attack> {
        let line = |(r, c): (u32, u32), (s, d): (u32, u32)| {
            let (r, c, s, d) = (i64::from(r), i64::from(c), i64::from(s), i64::from(d));
            match () {
                _ if r == s => Some(Line::Row),
                _ if c == d => Some(Line::Column),
                _ if r - c == s - d => Some(Line::Diagonal),
                _ if r + c == s + d => Some(Line::AntiDiagonal),
                _ => None,
            }
        };
        let between = |a: (u32, u32), b: (u32, u32), q: (u32, u32)| {
            q != a && q != b && line(a, q) == line(a, b) && a.min(b) < q && q < a.max(b)
        };
        let mut found = Vec::new();
        for (i, &a) in queens.iter().enumerate() {
            for &b in &queens[i + 1..] {
                if let Some(l) = line(a, b)
                    && !queens.iter().any(|&q| between(a, b, q))
                {
                    found.push(Attack { a: a.min(b), b: a.max(b), line: l });
                }
            }
        }
        found.sort_unstable();
        found
    }

    #[test]
    fn the_sorting_checker_finds_the_pairs_the_slow_way_finds() {
        use rand_xoshiro::rand_core::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(49);
        let mut below = |m: u32| crate::random::below(&mut rng, u64::from(m)) as u32;
        for _ in 0..300 {
            let n = 1 + below(8);
            let mut queens: Vec<(u32, u32)> = (0..below(12)).map(|_| (below(n + 2), below(n + 2))).collect();
            queens.sort_unstable();
            queens.dedup();
            let report = check_queens(n, &queens);
            assert_eq!(report.attacks, attacks_by_pairs(&queens), "n = {n}, {queens:?}");
            let outside: Vec<_> = queens.iter().copied().filter(|&(r, c)| r >= n || c >= n).collect();
            assert_eq!(report.outside, outside);
            assert_eq!(try_check_queens(n, &queens), Ok(report));
        }
        // What the checker holds: 8 bytes a queen, 20 a pair it reports.
        assert_eq!((CHECK_BYTES_PER_QUEEN, CHECK_BYTES_PER_ATTACK), (8, 20));
        // One column per line (`queens solve --out`) is one placement, as before.
        assert_eq!(Placement::parse_all("2\n4\n1\n3\n").unwrap(), vec![Placement::parse("2 4 1 3").unwrap()]);
        assert_eq!(Placement::parse_all("1 2\n2 1\n").unwrap().len(), 2);
    }

    #[test]
    fn parses_one_based_and_checks() {
        let p = Placement::parse("2 4,1 , 3").unwrap();
        assert_eq!(p.columns(), &[1, 3, 0, 2]);
        assert_eq!(p.to_string(), "(2, 4, 1, 3)");
        assert!(p.is_valid());
        assert_eq!(p.board(), ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
    }

    #[test]
    fn reports_each_kind_of_attack() {
        // (0,0) and (1,1) share a diagonal; (2,3) and (3,3) share a column.
        let p = Placement::parse("1 2 4 4").unwrap();
        let r = p.check();
        assert!(!r.is_valid());
        let lines: Vec<Line> = r.attacks.iter().map(|a| a.line).collect();
        assert!(lines.contains(&Line::Diagonal));
        assert!(lines.contains(&Line::Column));
        let r = check_queens(4, &[(0, 1), (0, 3), (1, 0)]);
        assert!(r.attacks.iter().any(|a| a.line == Line::Row));
        assert!(r.attacks.iter().any(|a| a.line == Line::AntiDiagonal && a.a == (0, 1) && a.b == (1, 0)));
        assert_eq!(check_queens(2, &[(5, 0)]).outside, vec![(5, 0)]);
    }

    #[test]
    fn three_on_a_line_give_two_pairs() {
        let r = check_queens(5, &[(0, 0), (2, 2), (4, 4)]);
        assert_eq!(r.attacks.len(), 2);
    }

    #[test]
    fn a_long_bad_token_is_cut_in_the_error() {
        // A line of 10^6 brackets came back whole in the message (megabytes on stderr).
        let line = "[".repeat(1_000_000);
        let e = Placement::parse(&line).unwrap_err().to_string();
        assert!(e.len() < 120, "{} bytes: {}", e.len(), &e[..200]);
        assert!(e.contains("(1000000 bytes)"), "{e}");
        let e = Placement::parse_all(&format!("{}\n", "é".repeat(50))).unwrap_err().to_string();
        assert!(e.starts_with(&format!("'{}... (100 bytes)'", "é".repeat(40))), "{e}");
        // A short one is repeated whole.
        assert_eq!(Placement::parse("1 x").unwrap_err().to_string(), "'x' is not a column number (item 2)");
    }

    #[test]
    fn rejects_bad_text() {
        assert!(matches!(Placement::parse(""), Err(PlacementError::Empty)));
        assert!(matches!(Placement::parse("1 x"), Err(PlacementError::NotANumber { index: 2, .. })));
        assert!(matches!(
            Placement::parse("1 3"),
            Err(PlacementError::OutOfRange { row: 2, column: 3, n: 2 })
        ));
        assert!(matches!(Placement::parse("0 1"), Err(PlacementError::OutOfRange { .. })));
        assert!(matches!(Placement::parse("-1 1"), Err(PlacementError::NotANumber { .. })));
        assert!(Placement::new(vec![0, 2]).is_err());
    }

    #[test]
    fn batched_pushes_find_the_same_first_conflict() {
        let n = 100_000u32;
        let good: Vec<u32> = (0..n).map(|r| crate::queens::construct::column(n, r)).collect();
        let mut occ = Occupancy::new(n);
        occ.push_all(&good).unwrap();
        occ.finish().unwrap();
        let mut bad = good.clone();
        bad.swap(40_000, 70_001);
        let (mut one, mut all) = (Occupancy::new(n), Occupancy::new(n));
        let first = bad.iter().map(|&c| one.push(u64::from(c))).find_map(Result::err);
        assert!(first.is_some());
        assert_eq!(all.push_all(&bad).err(), first);
    }

    #[test]
    fn occupancy_agrees_with_the_checker_on_all_small_permutations() {
        fn perms(n: u32, prefix: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
            if prefix.len() == n as usize {
                out.push(prefix.clone());
                return;
            }
            for c in 0..n {
                if !prefix.contains(&c) {
                    prefix.push(c);
                    perms(n, prefix, out);
                    prefix.pop();
                }
            }
        }
        for n in 1..=6 {
            let mut all = Vec::new();
            perms(n, &mut Vec::new(), &mut all);
            for cols in all {
                let p = Placement::new(cols.clone()).unwrap();
                let mut occ = Occupancy::new(n);
                let ok = cols.iter().all(|&c| occ.push(u64::from(c)).is_ok()) && occ.finish().is_ok();
                assert_eq!(ok, p.is_valid(), "{p}");
                let mut batch = Occupancy::new(n);
                assert_eq!(batch.push_all(&cols).is_ok() && batch.finish().is_ok(), ok, "{p}");
            }
        }
    }
}
