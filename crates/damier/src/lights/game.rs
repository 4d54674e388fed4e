//! A Lights Out game in progress, for front ends (the terminal game, a web page) that only draw:
//! the board, the presses made (for undo), and hints from a fewest-presses solution.
//!
//! ```
//! use damier::board::Size;
//! use damier::control::Control;
//! use damier::lights::game::LightsState;
//! use rand::SeedableRng;
//!
//! let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
//! let start = LightsState::random_winnable(Size::new(5, 5)?, &mut rng);
//! let mut game = LightsState::new(start)?;
//! game.press(0, 0); // the player tries a cell...
//! while !game.won() {
//!     // ...then follows hints: presses of a fewest-presses solution from the current board.
//!     let (x, y) = game.hint((2, 2), &Control::new())?.expect("a winnable board");
//!     game.press(x, y);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rand::Rng;

use super::press::try_apply_presses;
use super::{LightsError, Method, fewest_presses, kernel, press_cell, solve, winnable_by_orthogonality};
use crate::board::{Board, Size};
use crate::control::Control;
use crate::util::OutOfMemory;

/// The state of a game: the lights, the presses made, the neutral configurations of the board
/// size, and a cached fewest-presses solution from the current lights.
#[derive(Debug, Clone)]
pub struct LightsState {
    board: Board,
    presses: Vec<(usize, usize)>,
    kernel: Vec<Board>,
    solution: Option<Board>,
}

/// The boards [`LightsState::try_random_winnable`] holds at once: the dark board, the presses
/// drawn and the lights they leave.
pub const RANDOM_WINNABLE_BOARDS: u64 = 3;

impl LightsState {
    /// A game starting from `start` (its size's kernel is computed once, here).
    pub fn new(start: Board) -> Result<LightsState, LightsError> {
        let kernel = kernel(start.size(), Method::Poly, &Control::new())?;
        Ok(LightsState { board: start, presses: Vec::new(), kernel, solution: None })
    }

    /// A random winnable board that is not already dark: the lights left by uniformly random
    /// presses on a dark board (every winnable board equally likely). For the boards of games;
    /// a board of a request goes through [`LightsState::try_random_winnable`].
    pub fn random_winnable<R: Rng + ?Sized>(size: Size, rng: &mut R) -> Board {
        Self::try_random_winnable(size, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`LightsState::random_winnable`], its boards ([`RANDOM_WINNABLE_BOARDS`] at once)
    /// allocated without aborting: [`OutOfMemory`] when the allocator refuses one.
    pub fn try_random_winnable<R: Rng + ?Sized>(size: Size, rng: &mut R) -> Result<Board, OutOfMemory> {
        let dark = Board::try_new(size)?;
        for _ in 0..64 {
            let board = try_apply_presses(&dark, &Board::try_random(size, rng)?)?;
            if !board.is_zero() {
                return Ok(board);
            }
        }
        // Every pattern drawn was neutral (a tiny kernel-only chance): one press is never neutral.
        let mut board = dark;
        press_cell(&mut board, 0, 0);
        Ok(board)
    }

    /// Starts over from `start`, of the same size (the kernel is kept).
    pub fn restart(&mut self, start: Board) -> Result<(), LightsError> {
        if start.size() != self.board.size() {
            return Err(LightsError::SizeMismatch { start: self.board.size(), target: start.size() });
        }
        self.board = start;
        self.presses.clear();
        self.solution = None;
        Ok(())
    }

    /// The lights.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Presses made so far (undone ones excluded).
    pub fn press_count(&self) -> usize {
        self.presses.len()
    }

    /// The nullity `k` of the board size: `2^k` ways to win from a winnable board.
    pub fn nullity(&self) -> usize {
        self.kernel.len()
    }

    /// True when every light is off.
    pub fn won(&self) -> bool {
        self.board.is_zero()
    }

    /// True when the lights can still be turned off (orthogonal to every neutral pattern).
    pub fn winnable(&self) -> bool {
        winnable_by_orthogonality(&self.board, &self.kernel)
    }

    /// Presses `(x, y)`: flips it and its neighbours. Ignored (false) once won. Panics outside
    /// the board.
    pub fn press(&mut self, x: usize, y: usize) -> bool {
        if self.won() {
            return false;
        }
        press_cell(&mut self.board, x, y);
        self.presses.push((x, y));
        self.after_press(x, y);
        true
    }

    /// Takes back the last press; returns its cell, or `None` when there is nothing to undo.
    pub fn undo(&mut self) -> Option<(usize, usize)> {
        let (x, y) = self.presses.pop()?;
        press_cell(&mut self.board, x, y);
        self.after_press(x, y);
        Some((x, y))
    }

    /// A press flips one cell of a cached solution: the rest is still a solution, and the
    /// fewest presses stay fewest only if that cell was in it (it then drops out).
    fn after_press(&mut self, x: usize, y: usize) {
        if self.solution.as_ref().is_some_and(|s| !s.get(x, y)) {
            self.solution = None;
        } else if let Some(s) = &mut self.solution {
            s.flip(x, y);
        }
    }

    /// A fewest-presses solution from the current lights (computed once, then kept while the
    /// player follows it); `None` when the board is not winnable.
    pub fn solution(&mut self, control: &Control) -> Result<Option<&Board>, LightsError> {
        if self.solution.is_none() {
            let Some(p) = solve(&self.board, None, Method::Poly, control)?.presses else { return Ok(None) };
            self.solution = Some(fewest_presses(&p, &self.kernel, control)?.presses);
        }
        Ok(self.solution.as_ref())
    }

    /// The press of the fewest-presses solution nearest `near` (Manhattan distance); `None`
    /// when won or not winnable.
    pub fn hint(
        &mut self,
        near: (usize, usize),
        control: &Control,
    ) -> Result<Option<(usize, usize)>, LightsError> {
        if self.won() {
            return Ok(None);
        }
        let Some(sol) = self.solution(control)? else { return Ok(None) };
        Ok((0..sol.height())
            .flat_map(|y| sol.row_ones(y).map(move |x| (x, y)))
            .min_by_key(|&(x, y)| x.abs_diff(near.0) + y.abs_diff(near.1)))
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::lights::press::apply_presses_naive;

    #[test]
    fn hints_win_in_the_fewest_presses_on_every_small_size() {
        let control = Control::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for (w, h) in [(1, 1), (2, 3), (4, 4), (5, 5), (7, 3), (9, 9)] {
            for _ in 0..5 {
                let start = LightsState::random_winnable(Size::new(w, h).unwrap(), &mut rng);
                assert!(!start.is_zero());
                let mut game = LightsState::new(start.clone()).unwrap();
                assert!(game.winnable());
                let fewest = game.solution(&control).unwrap().unwrap().count_ones() as usize;
                // The solution checks independently: pressing it cell by cell turns all off.
                let sol = game.solution(&control).unwrap().unwrap().clone();
                assert!(apply_presses_naive(&start, &sol).is_zero());
                while let Some((x, y)) = game.hint((0, 0), &control).unwrap() {
                    assert!(game.press(x, y));
                }
                assert!(game.won() && game.press_count() == fewest, "{w}x{h}");
                assert!(!game.press(0, 0), "no press after the win");
            }
        }
    }

    #[test]
    fn undo_restores_and_a_wrong_press_keeps_hints_correct() {
        let control = Control::new();
        let start = Board::parse("010\n111\n010\n").unwrap();
        let mut game = LightsState::new(start.clone()).unwrap();
        assert_eq!(game.undo(), None);
        game.press(0, 0);
        game.press(2, 2);
        assert_eq!(game.undo(), Some((2, 2)));
        assert_eq!(game.undo(), Some((0, 0)));
        assert_eq!(game.board(), &start);
        assert_eq!(game.hint((1, 1), &control).unwrap(), Some((1, 1)));
        game.press(0, 2); // off the plan: the next hints still win
        while let Some((x, y)) = game.hint((1, 1), &control).unwrap() {
            game.press(x, y);
        }
        assert!(game.won());
        assert!(game.restart(Board::new(Size::new(2, 2).unwrap())).is_err());
    }

    #[test]
    fn unwinnable_boards_give_no_hint() {
        // 4x4 has nullity 4; one lit corner is not orthogonal to the kernel.
        let mut b = Board::new(Size::new(4, 4).unwrap());
        b.set(0, 0, true);
        let mut game = LightsState::new(b).unwrap();
        assert_eq!(game.nullity(), 4);
        assert!(!game.winnable());
        assert_eq!(game.hint((0, 0), &Control::new()).unwrap(), None);
    }
}
