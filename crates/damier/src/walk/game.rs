//! A walk in progress, for the terminal game: the colours, the pawn, and hints.
//!
//! ```
//! use damier::control::Control;
//! use damier::walk::{board_size, game::WalkState, path::Move};
//!
//! let mut state = WalkState::start(board_size(3, 3)?);
//! state.apply(Move::E)?; // the player wanders...
//! while !state.is_solved() {
//!     // ...then follows hints: they come from one plan, kept while it is followed.
//!     let mv = state.next_move(&Control::new())?.expect("not solved yet");
//!     state.apply(mv)?;
//! }
//! # Ok::<(), damier::walk::WalkError>(())
//! ```

use std::collections::VecDeque;

use crate::control::Control;

use super::path::{Move, path_from};
use super::{WalkError, check_board, fast, start_cell};
use crate::board::{Board, Size};
use crate::lights::{self, press_cell};

/// The state of a game: which cells are black, where the pawn stands, moves made, and the
/// plan behind the last hint.
///
/// Hints must come from one plan: re-planning after every move could pick another solution
/// each time and walk in circles. [`WalkState::next_move`] keeps the remaining plan while the
/// player follows it, and [`WalkState::apply`] drops it as soon as the player deviates.
#[derive(Debug, Clone)]
pub struct WalkState {
    size: Size,
    black: Board,
    pawn: (usize, usize),
    moves: usize,
    plan: Option<VecDeque<Move>>,
}

impl PartialEq for WalkState {
    /// Same board, colours and pawn cell (the move count and any cached plan are ignored).
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size && self.black == other.black && self.pawn == other.pawn
    }
}

impl Eq for WalkState {}

impl WalkState {
    /// A new game: the pawn has just landed on the bottom-left cell (which, with its
    /// neighbours, is now black).
    pub fn start(size: Size) -> WalkState {
        let mut black = Board::new(size);
        let pawn = start_cell(size);
        press_cell(&mut black, pawn.1, pawn.0);
        WalkState { size, black, pawn, moves: 0, plan: None }
    }

    /// Any state: `black` (a board of this size) and the pawn's cell (row 0 on top).
    /// Not every such state can be finished: [`WalkState::plan`] says so.
    pub fn from_parts(size: Size, black: Board, pawn: (usize, usize)) -> Result<WalkState, WalkError> {
        check_board(size, &black)?;
        if pawn.0 >= size.height() || pawn.1 >= size.width() {
            return Err(WalkError::PawnOutside { row: pawn.0, col: pawn.1 });
        }
        Ok(WalkState { size, black, pawn, moves: 0, plan: None })
    }

    /// The board's size (`rows` x `cols` is its height x width).
    pub fn size(&self) -> Size {
        self.size
    }

    /// The black cells, on a board indexed `(x, y) = (col, row)`.
    pub fn black(&self) -> &Board {
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
        self.black.count_ones() == self.size.cells() as u64
    }

    /// Moves the pawn and flips the cell it lands on and its neighbours; a move off the board
    /// is refused and changes nothing.
    pub fn apply(&mut self, mv: Move) -> Result<(), WalkError> {
        let Some(next) = mv.step(self.size, self.pawn) else {
            return Err(WalkError::OffBoard { mv: mv.letter(), row: self.pawn.0, col: self.pawn.1 });
        };
        self.pawn = next;
        press_cell(&mut self.black, next.1, next.0);
        self.moves += 1;
        // Still on the plan: the rest of it is a plan from here. Otherwise forget it.
        match self.plan.as_mut() {
            Some(plan) if plan.front() == Some(&mv) => {
                plan.pop_front();
            }
            _ => self.plan = None,
        }
        Ok(())
    }

    /// A complete list of moves from here to all black (empty if already solved), or
    /// [`WalkError::Unsolvable`] for a state no walk can finish (never reached from
    /// [`WalkState::start`]). Costs one fast solve: `O(w²·h/64)`.
    pub fn plan(&self, control: &Control) -> Result<Vec<Move>, WalkError> {
        if self.is_solved() {
            return Ok(Vec::new());
        }
        let mut white = Board::ones(self.size);
        white.xor_assign(&self.black);
        let sols = fast::solve_target(self.size, &white, lights::Method::Chase, control)?
            .ok_or(WalkError::Unsolvable)?;
        path_from(self.size, self.pawn, &sols.particular, control)
    }

    /// The next move of a solution from here (`None` when already solved). Plans once (see
    /// [`WalkState::plan`]) and then serves the same plan while the player follows it, so
    /// following hints finishes in at most the plan's length.
    pub fn next_move(&mut self, control: &Control) -> Result<Option<Move>, WalkError> {
        if self.is_solved() {
            return Ok(None);
        }
        if self.plan.is_none() {
            self.plan = Some(self.plan(control)?.into());
        }
        Ok(self.plan.as_ref().and_then(|p| p.front().copied()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::board_size;
    use crate::walk::path::{Move, parse_moves};

    #[test]
    fn following_hints_finishes_every_small_board() {
        let control = Control::new();
        for rows in 1..=6 {
            for cols in 1..=6 {
                let mut s = WalkState::start(board_size(rows, cols).unwrap());
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
    fn hints_come_from_one_plan_and_deviating_replans() {
        let control = Control::new();
        for (rows, cols) in [(3, 3), (4, 4), (5, 7), (9, 9)] {
            let mut s = WalkState::start(board_size(rows, cols).unwrap());
            let _ = s.apply(Move::N);
            let budget = s.plan(&control).unwrap().len();
            let mut steps = 0;
            while let Some(mv) = s.next_move(&control).unwrap() {
                s.apply(mv).unwrap();
                steps += 1;
                assert!(steps <= budget, "{rows} x {cols}: hints exceed the plan");
                if steps == 2 {
                    // Deviate once, then keep following the (new) hints.
                    let detour =
                        [Move::N, Move::S, Move::E, Move::W].into_iter().find(|&m| s.apply(m).is_ok());
                    assert!(detour.is_some());
                    steps = 0;
                    break;
                }
            }
            let budget = s.plan(&control).unwrap().len();
            while let Some(mv) = s.next_move(&control).unwrap() {
                s.apply(mv).unwrap();
                steps += 1;
                assert!(steps <= budget);
            }
            assert!(s.is_solved());
        }
    }

    #[test]
    fn off_board_moves_are_refused_and_bad_states_reported() {
        let b = board_size(2, 2).unwrap();
        let mut s = WalkState::start(b);
        assert!(matches!(s.apply(Move::S), Err(WalkError::OffBoard { .. })));
        assert_eq!(s, WalkState::start(b));
        // 4 x 4 has a 4-dimensional kernel, so M is not onto: some states are unreachable.
        let b4 = board_size(4, 4).unwrap();
        let mut black = Board::ones(b4);
        black.flip(0, 0);
        let odd = WalkState::from_parts(b4, black, (3, 0)).unwrap();
        assert_eq!(odd.plan(&Control::new()), Err(WalkError::Unsolvable));
        assert!(WalkState::from_parts(b4, Board::ones(b4), (4, 0)).is_err());
    }
}
