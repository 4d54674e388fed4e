//! Model 3 (`--model row`): queens that walk along their row, guided by saturating conflict
//! counts and a min-propagation wave (design and measurements in `docs/automaton.md`).
//!
//! The contract (what "local" means here):
//! - a cell's update reads only its own state and its 8 neighbours' states and writes only its
//!   own state (and, when its queen moves, the queen count of the neighbour it moves to);
//! - a cell's state is finite and independent of n: its queen count, 6 conflict counts
//!   saturating at [`Rule::cap`], and two wave values at most [`FAR`] (and, for the rules with
//!   [`Rule::patience`] or [`Rule::rest`], its settled queen's two 4-bit counts);
//! - the schedule is synchronous (every cell at once, from the previous generation) or the
//!   automaton report's one random cell per step ([`Schedule`]); the generator is the only shared thing;
//! - a configuration is absorbing exactly when the queens form a solution and every count
//!   and wave value is true (see [`RowBoard::is_absorbing`] for the argument).
//!
//! The state: one queen per row from the start, and a queen only ever moves to the cell east
//! or west of it, so every row keeps exactly one queen. Count `s_d(c)` (for the 6 directions
//! that leave the row: N, NE, SE, S, SW, NW) is the number of queens further from `c` along
//! `d`, saturated at `cap`: `s_d(c) <- min(cap, q(c + d) + s_d(c + d))`. The *danger* of a cell
//! is the sum of its 6 counts (queens of other rows that attack it, each line saturated): the
//! local analogue of min-conflicts' conflict count, which the queen of that row would have
//! there. The waves carry along the row the least danger seen on each side:
//! `west(c) <- min(danger(c - 1), west(c - 1))` and the same eastwards; off the board both are
//! [`FAR`]. A queen in danger steps towards the side whose wave is lower than its own danger
//! (the analogue of moving to the row's least conflicted cell, one cell at a time), takes a
//! plateau step with probability [`Rule::plateau`], and an uphill step with probability ε.
//!
//! Bookkeeping outside the rule (never read by it): each row's queen column, so the
//! generation loop does not scan for queens, and the line counts of the O(1) solution test.
//!
//! The layout is bit-sliced: each of a cell's 20 field bits (6 counts of 2 bits, 2 waves of
//! 4) lives in its own bit plane, 64 cells a word, so a synchronous generation updates 256
//! cells with a few dozen word operations (a count is the source row's plane shifted by one
//! column, the danger a bit-sliced adder, a wave's minimum a bit-sliced comparison), with
//! AVX2 where the processor has it. Every kernel computes the same bits as the plain
//! cell-at-a-time rule (a property test checks it), and the trajectories are pinned.
//!
//! ```
//! use damier::automaton::row::{RowBoard, Rule};
//!
//! let mut board = RowBoard::from_seed(Rule::model3(0.01), 8, 3);
//! while !board.run_steps(1_000) {}
//! assert!(board.is_solution() && board.conflicts() == 0);
//! assert_eq!(board.columns().len(), 8);
//! ```

mod board;
mod kernel;
mod layout;
mod named;
mod queens;
mod rule;
mod words;

pub use board::{PARALLEL_N, RowBoard};
pub use layout::{FAR, LINE_DIRS, PLANES};
pub use named::{RuleName, RuleSpecError, UnknownRule, rule_names};
pub use rule::{ACTIVITY, PLATEAU, Rule, SOUTH_ACTIVITY, SOUTH_ACTIVITY_V1, Schedule};
pub use words::RowStateError;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod golden;
