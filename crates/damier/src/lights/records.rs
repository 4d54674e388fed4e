//! An elimination step explained and a winnability test as plain records, so that the CLI,
//! the web lab and the Python package return the same ones. Boards are rows of 0/1, top row
//! first; the elimination's unknowns and equations are counted from 1.
//!
//! ```
//! use damier::board::{Board, Size};
//! use damier::lights::dense;
//! use damier::lights::records::ExplainedStep;
//!
//! // The elimination of the 2 x 2 all-on board, step by step: column 1 is pivoted on L1.
//! let (_, steps) = dense::explain(&Board::ones(Size::new(2, 2)?));
//! let first = ExplainedStep::of(&steps[0]);
//! assert_eq!((first.column, first.pivot_row), (1, Some(1)));
//! assert_eq!(first.matrix.len(), 4);
//! assert!(first.matrix[0].ends_with(" | 1"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{LightsError, Method, Solution, difference, kernel, winnable_by_orthogonality};
use crate::board::Board;
use crate::control::Control;
use crate::gf2::{EliminationStep, RowOp};

/// One elimination step: the column (unknown x_k, the press of cell k) it clears, its pivot
/// row (equation L_k, the light of cell k), the row operations, and the augmented matrix after
/// it as rows `matrix | right-hand side`; columns and rows counted from 1, cells row by row
/// from the top left.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ExplainedStep {
    /// The column cleared, from 1.
    pub column: usize,
    /// The pivot row, from 1, or `None` for a free unknown.
    pub pivot_row: Option<usize>,
    /// The row operations, as `L2 <-> L5` and `L3 -> L3 + L1`.
    pub ops: Vec<String>,
    /// The augmented matrix after the step, one `0101 | 1` line per row.
    pub matrix: Vec<String>,
}

impl ExplainedStep {
    /// The record of `step`.
    pub fn of(step: &EliminationStep) -> ExplainedStep {
        let m = &step.matrix;
        ExplainedStep {
            column: step.column + 1,
            pivot_row: step.pivot_row.map(|r| r + 1),
            ops: step.ops.iter().map(op_text).collect(),
            matrix: (0..m.rows())
                .map(|r| {
                    let mut line: String =
                        (0..m.cols()).map(|c| if m.get(r, c) { '1' } else { '0' }).collect();
                    line.push_str(" | ");
                    line.push(if step.rhs.as_ref().is_some_and(|b| b.get(r)) { '1' } else { '0' });
                    line
                })
                .collect(),
        }
    }
}

/// A row operation with its equations counted from 1.
fn op_text(op: &RowOp) -> String {
    match op {
        RowOp::Swap(a, b) => format!("L{} <-> L{}", a + 1, b + 1),
        RowOp::Add { src, dst } => format!("L{} -> L{} + L{}", dst + 1, dst + 1, src + 1),
    }
}

/// Whether a start can reach a target, by both tests.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Winnability {
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// Nullity of the press matrix.
    pub nullity: usize,
    /// The answer (both tests agree).
    pub winnable: bool,
    /// Even overlap with every kernel vector ([`super::winnable_by_orthogonality`]).
    pub by_orthogonality: bool,
    /// A solution exists ([`super::solve`]).
    pub by_solving: bool,
}

impl Winnability {
    /// Both tests of `start → target` (all off when `None`): `solution`, from [`super::solve`],
    /// is the second; the first is the orthogonality test against the kernel (the polynomial
    /// engine). An error when they disagree.
    pub fn of(
        start: &Board,
        target: Option<&Board>,
        solution: &Solution,
    ) -> Result<Winnability, LightsError> {
        let by_orthogonality = winnable_by_orthogonality(
            &difference(start, target)?,
            &kernel(start.size(), Method::Poly, &Control::new())?,
        );
        if by_orthogonality != solution.solvable() {
            return Err(LightsError::WinnabilityDisagrees);
        }
        Ok(Winnability {
            width: start.width(),
            height: start.height(),
            nullity: solution.nullity,
            winnable: solution.solvable(),
            by_orthogonality,
            by_solving: solution.solvable(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::control::Control;
    use crate::lights::solve;

    #[test]
    fn winnability_by_both_tests_and_a_disagreement_caught() {
        let c = Control::new();
        let size = Size::new(5, 5).unwrap();
        // 5 x 5 has nullity 2: some one-light boards are winnable, some are not.
        let mut seen = [false; 2];
        for y in 0..5 {
            for x in 0..5 {
                let mut b = Board::new(size);
                b.set(x, y, true);
                let sol = solve(&b, None, Method::Poly, &c).unwrap();
                let w = Winnability::of(&b, None, &sol).unwrap();
                let s = sol.solvable();
                assert_eq!((w.winnable, w.by_orthogonality, w.by_solving, w.nullity), (s, s, s, 2));
                seen[usize::from(s)] = true;
                // A solve that says the opposite is caught.
                let wrong = Solution { nullity: 2, presses: if s { None } else { Some(Board::new(size)) } };
                assert_eq!(Winnability::of(&b, None, &wrong), Err(LightsError::WinnabilityDisagrees));
            }
        }
        assert_eq!(seen, [true, true]);
    }
}
