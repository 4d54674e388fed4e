//! The blog post's "le bon", made exact: first-row unknowns chased down the board — which is
//! Lights Out's solver ([`crate::lights`]) asked to light an all-off board.
//!
//! Give the `w` cells of the first row unknown values. Every later cell is then an affine
//! function of them (light chasing, [`crate::lights::chase`]): row `r + 1` must fix what rows
//! `r - 1`, `r` leave wrong on row `r`, with the terms for cells outside the board simply
//! absent — this is where the blog post's coefficient triangle (which ignores the side edges) would
//! go wrong. The fictitious row below the board must vanish: `w` equations in `w` unknowns.
//! [`lights::Method::Chase`] solves them by Gauss–Jordan elimination (the blog post's algorithm),
//! [`lights::Method::Poly`] with polynomials over GF(2). The board is transposed when it has
//! more columns than rows, so `w = min(L, C)`. The kernel of the system gives the walk's
//! kernel: `2^nullity` solutions ([`lights::kernel`]).
//!
//! ```
//! use damier::control::Control;
//! use damier::walk::{board_size, fast};
//!
//! let solutions = fast::solve(board_size(4, 4).unwrap(), &Control::new()).unwrap();
//! assert_eq!(solutions.nullity(), 4); // 16 solutions, the blog post's count for 4 x 4
//! ```

use crate::board::{Board, Size};
use crate::control::Control;
use crate::lights;

use super::error::WalkError;
use super::solutions::{Solutions, check_board};

/// Solves the walk with the blog post's algorithm ([`lights::Method::Chase`]): activation sets
/// `a` with `M a = 1` (all black from all white).
pub fn solve(size: Size, control: &Control) -> Result<Solutions, WalkError> {
    solve_with(size, lights::Method::Chase, control)
}

/// Solves the walk with Lights Out's engine `method`.
pub fn solve_with(size: Size, method: lights::Method, control: &Control) -> Result<Solutions, WalkError> {
    // All-ones is always in the image of a symmetric matrix with ones on the diagonal
    // (Sutner's theorem), so `None` would be a bug; report it rather than panic.
    let ones = Board::try_ones(size)
        .map_err(|e| WalkError::from_lights(crate::board::BoardError::from(e).into()))?;
    solve_target(size, &ones, method, control)?.ok_or(WalkError::Unsolvable)
}

/// Solves `M a = target` for any target (the cells whose colour must change), or `None` when
/// the target is not reachable. `target` must have the board's shape. Lights Out verifies the
/// answer before returning it.
pub fn solve_target(
    size: Size,
    target: &Board,
    method: lights::Method,
    control: &Control,
) -> Result<Option<Solutions>, WalkError> {
    check_board(size, target)?;
    // Presses x with M x = start + 0: start from the target, aim at all off.
    let sol = lights::solve(target, None, method, control).map_err(WalkError::from_lights)?;
    Ok(sol.presses.map(|p| Solutions::from_lights(size, p, sol.nullity, method)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gf2::BitMatrix;
    use crate::lights::press::press_matrix;
    use crate::walk::board_size;
    use crate::walk::press_image;
    use proptest::prelude::*;

    fn rank_of(boards: &[Board]) -> usize {
        if boards.is_empty() {
            return 0;
        }
        let n = boards[0].width() * boards[0].height();
        let mut m = BitMatrix::zeros(boards.len(), n);
        for (i, g) in boards.iter().enumerate() {
            m.set_row(i, &g.to_bitvec());
        }
        m.rank()
    }

    /// Checks the walk's answer for `target` against dense elimination of the press matrix
    /// (built independently of the chase): same solvability, same nullity, solution and
    /// kernel verified by `M`.
    fn agrees_with_dense(rows: usize, cols: usize, target: &Board) {
        let size = board_size(rows, cols).unwrap();
        let dense = press_matrix(size);
        let ech = dense.echelon(Some(&target.to_bitvec()));
        let got = solve_target(size, target, lights::Method::Chase, &Control::new()).unwrap();
        let dense_nullity = rows * cols - ech.rank();
        match (ech.particular_solution(), got) {
            (None, None) => {}
            (Some(_), Some(sol)) => {
                assert_eq!(sol.nullity(), dense_nullity, "{rows} x {cols}");
                assert_eq!(dense.mul_vec(&sol.particular.to_bitvec()), target.to_bitvec());
                assert_eq!(press_image(&sol.particular), *target);
                let kernel = sol.kernel().unwrap();
                for k in &kernel {
                    assert!(dense.mul_vec(&k.to_bitvec()).is_zero(), "{rows} x {cols}: kernel vector");
                }
                assert_eq!(rank_of(&kernel), sol.nullity(), "kernel vectors independent");
            }
            (dense_sol, fast_sol) => panic!(
                "{rows} x {cols}: dense solvable {}, fast solvable {}",
                dense_sol.is_some(),
                fast_sol.is_some()
            ),
        }
    }

    /// The walk's fast solver (chase + elimination) against Lights Out's other engine (the
    /// polynomial one) and its nullity formula: equal nullities, and every activation set of
    /// both — the particular solutions, every kernel combination when there are at most 2^8
    /// solutions — passes the independent check `apply_presses(dark, a)` is all on.
    fn agrees_with_lights(rows: usize, cols: usize) {
        let control = Control::new();
        let size = board_size(rows, cols).unwrap();
        let ours = solve(size, &control).unwrap();
        let ones = Board::ones(size);
        let lo = lights::solve(&ones, None, lights::Method::Poly, &control).unwrap();
        assert_eq!(ours.nullity(), lo.nullity, "{rows} x {cols}");
        assert_eq!(ours.nullity(), lights::nullity(size), "{rows} x {cols}");
        let theirs = lo.presses.expect("all-on is always solvable");
        let dark = Board::new(size);
        for a in [&ours.particular, &theirs] {
            assert_eq!(lights::apply_presses(&dark, a), ones, "{rows} x {cols}");
        }
        if ours.nullity() <= 8 {
            let mut mine: Vec<Vec<String>> =
                ours.all().unwrap().iter().map(|g| g.to_rows('#', '_')).collect();
            let kernel = lights::kernel(size, lights::Method::Poly, &Control::new()).unwrap();
            let mut other: Vec<Vec<String>> = lights::all_solutions(&theirs, &kernel)
                .unwrap()
                .iter()
                .map(|g| g.to_rows('#', '_'))
                .collect();
            for a in ours.all().unwrap() {
                assert_eq!(lights::apply_presses(&dark, &a), ones, "{rows} x {cols}");
            }
            mine.sort();
            other.sort();
            assert_eq!(mine, other, "{rows} x {cols}: same solution sets");
        }
    }

    #[test]
    fn every_board_up_to_12_agrees_with_lights_out() {
        for rows in 1..=12 {
            for cols in 1..=12 {
                agrees_with_lights(rows, cols);
            }
        }
    }

    #[test]
    fn all_ones_small_boards_agree_with_dense() {
        for rows in 1..=9 {
            for cols in 1..=9 {
                agrees_with_dense(rows, cols, &Board::ones(board_size(rows, cols).unwrap()));
            }
        }
    }

    #[test]
    fn wide_rows_cross_word_boundaries() {
        // w + 1 = 65 bits: the constant lands in a second word; 64 columns exactly too.
        for (rows, cols) in [(64, 64), (64, 3), (3, 64), (65, 65), (2, 70)] {
            agrees_with_dense(rows, cols, &Board::ones(board_size(rows, cols).unwrap()));
        }
    }

    /// Wider boards, both orientations: the answer is checked by the press image, and a board
    /// and its transpose have the same nullity.
    #[test]
    fn wide_boards_and_their_transposes() {
        let control = Control::new();
        for (rows, cols) in [(300, 260), (260, 300)] {
            let sol = solve(board_size(rows, cols).unwrap(), &control).unwrap();
            assert_eq!(press_image(&sol.particular), Board::ones(board_size(rows, cols).unwrap()));
            let kernel = sol.kernel().unwrap();
            assert!(kernel.iter().all(|k| press_image(k).is_zero()));
            assert_eq!(rank_of(&kernel), sol.nullity());
        }
        let a = solve(board_size(300, 260).unwrap(), &control).unwrap().nullity();
        let b = solve(board_size(260, 300).unwrap(), &control).unwrap().nullity();
        assert_eq!(a, b);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn random_boards_up_to_60_agree_with_lights_out(rows in 1usize..=60, cols in 1usize..=60) {
            agrees_with_lights(rows, cols);
        }

        #[test]
        fn fast_agrees_with_dense_up_to_40(rows in 1usize..=40, cols in 1usize..=40) {
            agrees_with_dense(rows, cols, &Board::ones(board_size(rows, cols).unwrap()));
        }

        #[test]
        fn any_target_agrees_with_dense(rows in 1usize..=12, cols in 1usize..=12, seed in any::<u64>()) {
            let mut s = seed | 1;
            let mut t = Board::new(board_size(rows, cols).unwrap());
            for r in 0..rows {
                for c in 0..cols {
                    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
                    t.set(c, r, s & 1 == 1);
                }
            }
            agrees_with_dense(rows, cols, &t);
        }
    }
}
