//! Move strings: from an activation set to a walk, and a walk replayed cell by cell.
//!
//! ## The construction ([`path_for`]) and its bound
//!
//! Number the cells along a serpentine from the bottom-left cell: the bottom row west to
//! east, the row above east to west, and so on; consecutive cells are neighbours. The pawn
//! walks this serpentine, standing on cell `i` with a known landing parity, and before leaving
//! `i` for good makes the parity right:
//!
//! - parity right: one step forward (`i → i+1`);
//! - parity wrong: forward, back, forward (`i → i+1 → i → i+1`): one more landing on `i`,
//!   and two on `i+1`, which therefore arrives with parity 0 instead of 1.
//!
//! It stops at the last activated cell `e` of the serpentine (cells beyond are never landed
//! on). If `e` itself ends with the wrong parity, `e → e-1 → e → e-1` adds one landing on `e`
//! and two on `e-1`. So a set whose last activated cell is `e` costs
//! `e + 2·(fixes) (+ 3) <= 3e + 3 < 3·L·C` moves; a random-looking dense solution costs about
//! `2e` (a fix on roughly every other cell). The seed's alternative — the diagonal step
//! `E N S N` that moves the pawn without changing the board — is not needed.
//!
//! [`path_from`] starts from any cell whose landing is already counted (the game's current
//! position): it first walks straight west then south to the bottom-left cell and corrects
//! the target for the cells landed on the way, then sweeps as above.

use super::{Board, Grid, WalkError};

/// One move of the pawn. Row 0 is the top row: `N` decreases the row, `E` increases the column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Up.
    N,
    /// Down.
    S,
    /// Right.
    E,
    /// Left (the seed writes `O`, ouest).
    W,
}

impl Move {
    /// The letter printed: `N`, `S`, `E` or `W`.
    pub fn letter(self) -> char {
        match self {
            Move::N => 'N',
            Move::S => 'S',
            Move::E => 'E',
            Move::W => 'W',
        }
    }

    /// The move for a letter: `N S E W`, and `O` for west; lower case accepted.
    pub fn from_letter(ch: char) -> Option<Move> {
        match ch.to_ascii_uppercase() {
            'N' => Some(Move::N),
            'S' => Some(Move::S),
            'E' => Some(Move::E),
            'W' | 'O' => Some(Move::W),
            _ => None,
        }
    }

    /// The move that undoes this one.
    pub fn opposite(self) -> Move {
        match self {
            Move::N => Move::S,
            Move::S => Move::N,
            Move::E => Move::W,
            Move::W => Move::E,
        }
    }

    /// Where the pawn lands from `(row, col)`, or `None` off the board.
    pub fn step(self, board: Board, (r, c): (usize, usize)) -> Option<(usize, usize)> {
        match self {
            Move::N => r.checked_sub(1).map(|r| (r, c)),
            Move::S => (r + 1 < board.rows()).then_some((r + 1, c)),
            Move::E => (c + 1 < board.cols()).then_some((r, c + 1)),
            Move::W => c.checked_sub(1).map(|c| (r, c)),
        }
    }
}

/// Parses a move string (`N S E W`, `O` for west, either case; whitespace ignored).
pub fn parse_moves(s: &str) -> Result<Vec<Move>, WalkError> {
    s.chars()
        .enumerate()
        .filter(|(_, ch)| !ch.is_whitespace())
        .map(|(i, ch)| Move::from_letter(ch).ok_or(WalkError::BadMove { letter: ch, position: i + 1 }))
        .collect()
}

/// The move string, one letter per move.
pub fn moves_to_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// How a replayed walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every cell is black.
    AllBlack,
    /// The walk stayed on the board but `count` cells are still white.
    White {
        /// White cells left.
        count: usize,
    },
    /// Move number `step` (1-based) leaves the board; the replay stops there.
    LeftBoard {
        /// 1-based index of the move.
        step: usize,
        /// The move.
        mv: Move,
        /// Pawn row before the move (0 = top).
        row: usize,
        /// Pawn column before the move.
        col: usize,
    },
}

/// The result of [`replay`].
#[derive(Debug, Clone)]
pub struct Replay {
    /// Cells landed on an odd number of times (up to where the walk stopped).
    pub landings: Grid,
    /// Black cells at the end.
    pub black: Grid,
    /// Where the pawn stands at the end.
    pub pawn: (usize, usize),
    /// How it ended.
    pub outcome: Outcome,
}

impl Replay {
    /// True when the walk stayed on the board and left every cell black.
    pub fn all_black(&self) -> bool {
        self.outcome == Outcome::AllBlack
    }
}

/// Replays `moves` cell by cell: the pawn lands on the bottom-left cell, then on each cell it
/// moves to, flipping the cell and its neighbours every time.
pub fn replay(board: Board, moves: &[Move]) -> Replay {
    let mut black = Grid::zeros(board.rows(), board.cols());
    let mut landings = Grid::zeros(board.rows(), board.cols());
    let mut pos = board.start();
    black.flip_plus(pos.0, pos.1);
    landings.flip(pos.0, pos.1);
    for (i, &mv) in moves.iter().enumerate() {
        let Some(next) = mv.step(board, pos) else {
            let outcome = Outcome::LeftBoard { step: i + 1, mv, row: pos.0, col: pos.1 };
            return Replay { landings, black, pawn: pos, outcome };
        };
        pos = next;
        black.flip_plus(pos.0, pos.1);
        landings.flip(pos.0, pos.1);
    }
    let white = board.cells() - black.count_ones();
    let outcome = if white == 0 { Outcome::AllBlack } else { Outcome::White { count: white } };
    Replay { landings, black, pawn: pos, outcome }
}

/// A walk from the bottom-left cell (its first landing included) whose cells landed on an odd
/// number of times are exactly `activation`; at most `3·L·C` moves (see the module doc).
///
/// Fails only for the empty set on the 1 x 1 board (the first landing cannot be undone).
pub fn path_for(board: Board, activation: &Grid) -> Result<Vec<Move>, WalkError> {
    board.check(activation)?;
    sweep(board, activation)
}

/// A walk from `start`, whose landing is already counted (a game in progress), landing an odd
/// number of times exactly on the cells of `landings` (not counting the pawn's present cell
/// again). At most `L + C + 3·L·C` moves.
pub fn path_from(board: Board, start: (usize, usize), landings: &Grid) -> Result<Vec<Move>, WalkError> {
    board.check(landings)?;
    if start.0 >= board.rows() || start.1 >= board.cols() {
        return Err(WalkError::PawnOutside { row: start.0, col: start.1 });
    }
    // Straight to the bottom-left cell; the sweep's first landing is that route's last one
    // (or, if the pawn is already there, a landing that must not count: flip it back).
    let mut target = landings.clone();
    let mut moves = Vec::new();
    let mut pos = start;
    let bottom_left = board.start();
    while pos != bottom_left {
        let mv = if pos.1 > 0 { Move::W } else { Move::S };
        pos = mv.step(board, pos).expect("the route stays on the board");
        target.flip(pos.0, pos.1);
        moves.push(mv);
    }
    target.flip(bottom_left.0, bottom_left.1);
    moves.extend(sweep(board, &target)?);
    Ok(moves)
}

/// The serpentine sweep of the module doc, for `target` (first landing on the bottom-left
/// cell included).
fn sweep(board: Board, target: &Grid) -> Result<Vec<Move>, WalkError> {
    let (rows, cols) = (board.rows(), board.cols());
    // Serpentine band k is row `rows - 1 - k`, walked east when k is even, west when odd.
    let band_dir = |k: usize| if k.is_multiple_of(2) { Move::E } else { Move::W };
    // The last activated cell along the serpentine: in the highest non-empty band, the
    // set cell furthest along that band's direction.
    let last = (0..rows).rev().find_map(|k| {
        let row = target.row(rows - 1 - k);
        let first_set = row
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)?;
        let last_set = row
            .iter()
            .enumerate()
            .rev()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + 63 - w.leading_zeros() as usize)?;
        Some(k * cols + if band_dir(k) == Move::E { last_set } else { cols - 1 - first_set })
    });
    let Some(last) = last else {
        // Nothing may stay landed, but the bottom-left cell already is: 0 → 1 → 0 → 1.
        if board.cells() == 1 {
            return Err(WalkError::NoWalk { rows, cols });
        }
        let f = if cols == 1 { Move::N } else { Move::E };
        return Ok(vec![f, f.opposite(), f]);
    };
    let mut moves = Vec::with_capacity(last + last / 2 + 4);
    let mut odd = true; // landing parity of the cell the pawn stands on
    let mut i = 0; // serpentine index of the pawn's cell
    let mut previous = Move::E; // the move that reached cell `i` (for the final fix)
    'bands: for k in 0..rows {
        let row = target.row(rows - 1 - k);
        let dir = band_dir(k);
        for j in 0..cols {
            if i == last {
                break 'bands;
            }
            let c = if dir == Move::E { j } else { cols - 1 - j };
            let wanted = (row[c / 64] >> (c % 64)) & 1 == 1;
            let f = if j + 1 == cols { Move::N } else { dir };
            // PERF: no per-move allocation; `moves` was sized for the typical case.
            if odd != wanted {
                moves.extend_from_slice(&[f, f.opposite(), f]);
                odd = false;
            } else {
                moves.push(f);
                odd = true;
            }
            previous = f;
            i += 1;
        }
    }
    if !odd {
        // `last >= 1` here: cell 0 always arrives odd and is left at once if it is the last.
        let b = previous.opposite();
        moves.extend_from_slice(&[b, previous, b]);
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(r: usize, c: usize) -> Board {
        Board::new(r, c).unwrap()
    }

    #[test]
    fn parse_accepts_o_and_rejects_other_letters() {
        assert_eq!(parse_moves("NOse w").unwrap(), vec![Move::N, Move::W, Move::S, Move::E, Move::W]);
        assert_eq!(parse_moves("NEX").unwrap_err(), WalkError::BadMove { letter: 'X', position: 3 });
        assert_eq!(moves_to_string(&parse_moves("EEENNOOOS").unwrap()), "EEENNWWWS");
    }

    #[test]
    fn replay_reports_each_outcome() {
        assert!(replay(board(2, 2), &parse_moves("NES").unwrap()).all_black());
        assert_eq!(replay(board(2, 2), &parse_moves("NE").unwrap()).outcome, Outcome::White { count: 3 });
        assert_eq!(
            replay(board(2, 2), &parse_moves("NN").unwrap()).outcome,
            Outcome::LeftBoard { step: 2, mv: Move::N, row: 0, col: 0 }
        );
        assert_eq!(replay(board(1, 1), &[]).outcome, Outcome::AllBlack);
    }

    /// Every activation set of every board up to 12 cells: the path realises it exactly.
    #[test]
    fn every_set_of_small_boards_is_realised() {
        for rows in 1..=4 {
            for cols in 1..=4 {
                let b = board(rows, cols);
                for bits in 0u32..(1 << b.cells()) {
                    let mut a = Grid::zeros(rows, cols);
                    for i in (0..b.cells()).filter(|i| (bits >> i) & 1 == 1) {
                        a.set(i / cols, i % cols, true);
                    }
                    match path_for(b, &a) {
                        Ok(moves) => {
                            assert_eq!(replay(b, &moves).landings, a, "{rows} x {cols} set {bits:b}");
                            assert!(moves.len() < 3 * b.cells() + 3);
                        }
                        Err(e) => assert!(b.cells() == 1 && bits == 0, "{e}"),
                    }
                }
            }
        }
    }

    #[test]
    fn path_from_any_start_realises_the_set() {
        let b = board(3, 4);
        for start_r in 0..3 {
            for start_c in 0..4 {
                for bits in [0u32, 1, 0b1010_0110_1001, 0xfff, 0b1000_0000_0000] {
                    let mut a = Grid::zeros(3, 4);
                    for i in (0..12).filter(|i| (bits >> i) & 1 == 1) {
                        a.set(i / 4, i % 4, true);
                    }
                    let moves = path_from(b, (start_r, start_c), &a).unwrap();
                    // Replay from the start cell without counting it.
                    let mut pos = (start_r, start_c);
                    let mut got = Grid::zeros(3, 4);
                    for mv in moves {
                        pos = mv.step(b, pos).expect("stays on the board");
                        got.flip(pos.0, pos.1);
                    }
                    assert_eq!(got, a, "start ({start_r}, {start_c}), set {bits:b}");
                }
            }
        }
        assert!(path_from(b, (3, 0), &Grid::zeros(3, 4)).is_err());
    }
}
