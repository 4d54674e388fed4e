//! A walk in progress, for the terminal game: the colours, the pawn, and hints.
//!
//! ```
//! use damier::control::Control;
//! use damier::walk::{Board, game::WalkState};
//!
//! let mut state = WalkState::start(Board::new(3, 3)?);
//! while !state.is_solved() {
//!     let mv = state.next_move(&Control::new())?.expect("not solved yet");
//!     state.apply(mv)?;
//! }
//! # Ok::<(), damier::walk::WalkError>(())
//! ```

use crate::control::Control;

use super::path::{Move, path_from};
use super::{Board, Grid, WalkError, fast};

/// The state of a game: which cells are black, where the pawn stands, moves made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkState {
    board: Board,
    black: Grid,
    pawn: (usize, usize),
    moves: usize,
}

impl WalkState {
    /// A new game: the pawn has just landed on the bottom-left cell (which, with its
    /// neighbours, is now black).
    pub fn start(board: Board) -> WalkState {
        let mut black = Grid::zeros(board.rows(), board.cols());
        let pawn = board.start();
        black.flip_plus(pawn.0, pawn.1);
        WalkState { board, black, pawn, moves: 0 }
    }

    /// Any state: `black` (the board's shape) and the pawn's cell (row 0 on top).
    /// Not every such state can be finished: [`WalkState::plan`] says so.
    pub fn from_parts(board: Board, black: Grid, pawn: (usize, usize)) -> Result<WalkState, WalkError> {
        board.check(&black)?;
        if pawn.0 >= board.rows() || pawn.1 >= board.cols() {
            return Err(WalkError::PawnOutside { row: pawn.0, col: pawn.1 });
        }
        Ok(WalkState { board, black, pawn, moves: 0 })
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The black cells.
    pub fn black(&self) -> &Grid {
        &self.black
    }

    /// The pawn's cell `(row, col)`, row 0 on top.
    pub fn pawn(&self) -> (usize, usize) {
        self.pawn
    }

    /// Moves applied since the start (or since [`WalkState::from_parts`]).
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// True when every cell is black.
    pub fn is_solved(&self) -> bool {
        self.black.is_full()
    }

    /// Moves the pawn and flips the cell it lands on and its neighbours; a move off the board
    /// is refused and changes nothing.
    pub fn apply(&mut self, mv: Move) -> Result<(), WalkError> {
        let Some(next) = mv.step(self.board, self.pawn) else {
            return Err(WalkError::OffBoard { mv: mv.letter(), row: self.pawn.0, col: self.pawn.1 });
        };
        self.pawn = next;
        self.black.flip_plus(next.0, next.1);
        self.moves += 1;
        Ok(())
    }

    /// A complete list of moves from here to all black (empty if already solved), or
    /// [`WalkError::Unsolvable`] for a state no walk can finish (never reached from
    /// [`WalkState::start`]). Costs one fast solve: `O(w²·h/64)`.
    pub fn plan(&self, control: &Control) -> Result<Vec<Move>, WalkError> {
        if self.is_solved() {
            return Ok(Vec::new());
        }
        let mut white = Grid::ones(self.board.rows(), self.board.cols());
        white.xor_assign(&self.black);
        let sols = fast::solve_target(self.board, &white, control)?.ok_or(WalkError::Unsolvable)?;
        path_from(self.board, self.pawn, &sols.particular)
    }

    /// The next move of a solution from here (`None` when already solved).
    pub fn next_move(&self, control: &Control) -> Result<Option<Move>, WalkError> {
        Ok(self.plan(control)?.first().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::path::parse_moves;

    #[test]
    fn following_hints_finishes_every_small_board() {
        let control = Control::new();
        for rows in 1..=6 {
            for cols in 1..=6 {
                let mut s = WalkState::start(Board::new(rows, cols).unwrap());
                // Wander first, then follow the hints from wherever the pawn is.
                for mv in parse_moves("ENNESWS").unwrap() {
                    let _ = s.apply(mv);
                }
                let plan = s.plan(&control).unwrap();
                for mv in plan {
                    s.apply(mv).unwrap();
                }
                assert!(s.is_solved(), "{rows} x {cols}");
                assert_eq!(s.next_move(&control).unwrap(), None);
            }
        }
    }

    #[test]
    fn off_board_moves_are_refused_and_bad_states_reported() {
        let b = Board::new(2, 2).unwrap();
        let mut s = WalkState::start(b);
        assert!(matches!(s.apply(Move::S), Err(WalkError::OffBoard { .. })));
        assert_eq!(s, WalkState::start(b));
        // 4 x 4 has a 4-dimensional kernel, so M is not onto: some states are unreachable.
        let b4 = Board::new(4, 4).unwrap();
        let mut black = Grid::ones(4, 4);
        black.flip(0, 0);
        let odd = WalkState::from_parts(b4, black, (3, 0)).unwrap();
        assert_eq!(odd.plan(&Control::new()), Err(WalkError::Unsolvable));
        assert!(WalkState::from_parts(b4, Grid::ones(4, 4), (4, 0)).is_err());
    }
}
