//! The pawn walk, after "Promenade binaire", a French blog post first written in 2007 ("the
//! blog post" in these docs; the README's Sources list the four source documents).
//!
//! An `L x C` board starts all white. The pawn lands first on the bottom-left cell, then moves
//! N, S, E or W one cell at a time; every landing flips the cell and its orthogonal neighbours.
//! Goal: every cell black. Only the parity of the landings on each cell matters, so a solution
//! is an *activation set* `a` (cells landed on an odd number of times) with `M a = 1` over
//! GF(2), `M` being Lights Out's press matrix: the walk is Lights Out with target all-ones.
//!
//! - Sizes are [`crate::board::Size`]; [`board_size`] maps the blog post's `L x C` (rows first)
//!   onto it (`L` the height, `C` the width) and checks the walk's limit ([`MAX_CELLS`]).
//! - Three solvers, all exact (side edges included), all returning [`Solutions`]:
//!   [`brute`] (every one of the `2^(LC)` sets, `LC <= 30`), [`rows`] (every first row,
//!   completed row by row) and [`fast`] (first-row unknowns chased down the board: a
//!   `w x w` system over GF(2), `w = min(L, C)` — Lights Out's solver with the all-on board,
//!   [`crate::lights::solve`]). [`solve`] picks one by [`Method`].
//! - Cells live in [`crate::board::Board`] (`(x, y) = (col, row)`); [`press_image`] is
//!   Lights Out's press rule on a dark board.
//! - [`path`]: activation set → move string from the bottom-left cell (two-row bands or a
//!   serpentine, whichever is shorter: at most `2·L·C + L + 3·C` moves), replay of a move
//!   string, move parsing.
//! - [`game`]: a walk in progress (colours + pawn), for the terminal game: apply a move, and
//!   the next move of a solution from the current state.
//!
//! ```
//! use damier::control::Control;
//! use damier::walk::{Method, board_size, path, solve};
//!
//! let board = board_size(4, 4)?;
//! let sols = solve(board, Method::Fast, &Control::new())?;
//! assert_eq!(sols.count_decimal(), "16");
//! let moves = path::path_for(board, &sols.particular, &Control::new())?;
//! assert!(path::replay(board, &moves).all_black());
//! # Ok::<(), damier::walk::WalkError>(())
//! ```

pub mod brute;
mod error;
pub mod fast;
pub mod game;
pub mod path;
pub mod rows;
mod solutions;

pub use error::WalkError;
pub(crate) use solutions::check_board;
pub use solutions::{MAX_LISTED_NULLITY, SolutionCount, Solutions};

use crate::board::{Board, Size};
use crate::control::Control;
use crate::lights;

/// Largest board accepted, in cells: `2^24` (e.g. 4096 x 4096). Bounds memory (the path of a
/// board is at most `2·L·C + L + 3·C` bytes, about 32 MiB here) and time (the fast solver is
/// `O(w²·h/64)` for `w x h`, about a minute at the limit on one core).
pub const MAX_CELLS: usize = 1 << 24;

/// Largest board accepted when the path goes to a file rather than to a screen: `2^30` cells
/// (e.g. 32768 x 32768). The solve is Lights Out's (up to 2^34 cells with the polynomial
/// engine); what bounds this is the path, held in memory at one byte per move (at most
/// `2·L·C + L + 3·C`, about 2 GiB here) while it is built and checked by replaying it.
pub const MAX_CELLS_PATH_TO_FILE: usize = 1 << 30;

/// The walk's `L x C` board, `rows` by `cols` (row 0 on top, the blog post's order), as a [`Size`]:
/// `rows` is its [`height`](Size::height) and `cols` its [`width`](Size::width), so cell
/// `(row, col)` of the walk is cell `(x, y) = (col, row)` of a [`Board`]. Checked: both sides
/// `>= 1`, at most [`MAX_CELLS`] cells; errors speak in rows x cols.
pub fn board_size(rows: usize, cols: usize) -> Result<Size, WalkError> {
    board_size_with_limit(rows, cols, MAX_CELLS)
}

/// [`board_size`] with at most `max` cells, `max` itself at most [`MAX_CELLS_PATH_TO_FILE`]
/// (for a path written to a file).
pub fn board_size_with_limit(rows: usize, cols: usize, max: usize) -> Result<Size, WalkError> {
    let max = max.min(MAX_CELLS_PATH_TO_FILE);
    if rows == 0 || cols == 0 {
        return Err(WalkError::EmptyBoard { rows, cols });
    }
    match rows.checked_mul(cols) {
        // A narrow board can pass the walk's count yet not the board's, whose rows are whole
        // words.
        Some(n) if n <= max => Size::new(cols, rows).map_err(|e| WalkError::from_lights(e.into())),
        _ => Err(WalkError::TooLarge { rows, cols, max }),
    }
}

/// The pawn's first cell, bottom-left: `(row, col) = (rows - 1, 0)` with row 0 on top.
pub fn start_cell(size: Size) -> (usize, usize) {
    (size.height() - 1, 0)
}

/// The colours produced by landing once on every activated cell of `a`: `M a` (black = on).
/// This is Lights Out's press rule applied to a dark board ([`lights::apply_presses`]).
pub fn press_image(a: &Board) -> Board {
    let dark = Board::new(a.size());
    lights::apply_presses(&dark, a)
}

/// The blog post's picture of a board: one line per row, top row first, `#` on, `_` off.
pub fn picture(g: &Board) -> Vec<String> {
    g.to_rows('#', '_')
}

/// Which solver to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Method {
    /// [`brute`]: every activation set, `rows * cols <= 30`.
    Brute,
    /// [`rows`]: every first row, completed row by row.
    Rows,
    /// [`fast`], the blog post's "le bon": first-row unknowns chased down the board, a
    /// `min(L, C)`-wide system solved by elimination ([`lights::Method::Chase`]).
    Fast,
    /// [`fast`] with Lights Out's polynomial engine ([`lights::Method::Poly`]): the same
    /// chase, the system solved with polynomials over GF(2).
    Poly,
}

impl Method {
    /// Every method, in the order of their names' list.
    pub const ALL: [Method; 4] = [Method::Brute, Method::Rows, Method::Fast, Method::Poly];

    /// The method's name: `brute`, `rows`, `fast` or `poly`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Brute => "brute",
            Method::Rows => "rows",
            Method::Fast => "fast",
            Method::Poly => "poly",
        }
    }
}

impl std::str::FromStr for Method {
    type Err = String;

    /// `brute`, `rows`, `fast` or `poly`, as [`Method::name`] writes them.
    fn from_str(s: &str) -> Result<Method, String> {
        crate::util::named(s, &Method::ALL, Method::name, "brute, rows, fast or poly")
    }
}

/// Solves the board of this size (target all black from all white) with `method`.
pub fn solve(size: Size, method: Method, control: &Control) -> Result<Solutions, WalkError> {
    match method {
        Method::Brute => Ok(Solutions::from_list(size, &brute::solutions(size, control)?)),
        Method::Rows => Ok(Solutions::from_list(size, &rows::solutions(size, control)?)),
        Method::Fast => fast::solve_with(size, lights::Method::Chase, control),
        Method::Poly => fast::solve_with(size, lights::Method::Poly, control),
    }
}

/// Refused when every solution of a board of this size cannot be listed: the walk's
/// solutions are Lights Out's from the dark board to the all-on one, so this is
/// [`lights::check_listing_of_size`], from the size alone, before the board is solved (each
/// solution listed also carries its path, at most `2·L·C + L + 3·C` moves). Returns the
/// nullity.
pub fn check_listing(size: Size) -> Result<usize, WalkError> {
    lights::check_listing_of_size(size).map_err(WalkError::from_lights)
}

/// The solution counts of the square boards `1 x 1 ..= to x to` (the blog post's table), by
/// the polynomial engine (the fastest; the nullity is the same for every method).
pub fn square_counts(to: usize, control: &Control) -> Result<Vec<SolutionCount>, WalkError> {
    (1..=to).map(|n| Ok(solve(board_size(n, n)?, Method::Poly, control)?.counted())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardError;
    use crate::lights::LightsError;

    #[test]
    fn board_limits() {
        assert!(matches!(board_size(0, 3), Err(WalkError::EmptyBoard { .. })));
        assert!(matches!(board_size(3, 0), Err(WalkError::EmptyBoard { .. })));
        assert!(matches!(board_size(4097, 4096), Err(WalkError::TooLarge { .. })));
        assert!(matches!(board_size(usize::MAX, 2), Err(WalkError::TooLarge { .. })));
        assert!(board_size(4096, 4096).is_ok());
        let msg = board_size(5000, 5000).unwrap_err().to_string();
        assert!(msg.contains("16777216"), "{msg}");
        assert!(board_size_with_limit(5000, 5000, MAX_CELLS_PATH_TO_FILE).is_ok());
        assert!(board_size_with_limit(32768, 32769, usize::MAX).is_err(), "capped at the file limit");
        // One column of 2^30 rows holds 2^36 bits as a board (rows are whole words): an error,
        // where it was a panic.
        assert!(matches!(
            board_size_with_limit(1 << 30, 1, MAX_CELLS_PATH_TO_FILE),
            Err(WalkError::Lights(LightsError::Board(BoardError::TooLarge { .. })))
        ));
    }

    #[test]
    fn listings_are_refused_from_the_size() {
        assert_eq!(check_listing(board_size(4, 4).unwrap()), Ok(4));
        let err = check_listing(board_size(237, 237).unwrap()).unwrap_err().to_string();
        assert!(err.contains("65536 solutions of 56169 cells"), "{err}");
        let sols = solve(board_size(237, 237).unwrap(), Method::Poly, &Control::new()).unwrap();
        assert!(sols.all().is_err());
    }

    /// The walk's `L x C` is the board's `C x L`: rows are the height, columns the width.
    #[test]
    fn rows_are_the_height_and_columns_the_width() {
        let size = board_size(3, 7).unwrap();
        assert_eq!((size.width(), size.height()), (7, 3));
        assert_eq!(size.to_string(), "7x3");
        assert_eq!(start_cell(size), (2, 0));
        let g = Board::new(size);
        assert_eq!((g.width(), g.height()), (7, 3));
        assert!(check_board(size, &g).is_ok());
        let err = check_board(size.transposed(), &g).unwrap_err().to_string();
        assert_eq!(err, "grid is 3 x 7, the board is 7 x 3");
    }
}

#[cfg(test)]
mod agreement {
    use super::*;

    fn sorted(mut v: Vec<Board>) -> Vec<Vec<String>> {
        let mut p: Vec<Vec<String>> = v.drain(..).map(|g| picture(&g)).collect();
        p.sort();
        p
    }

    /// The three solvers find the same set of solutions on every board of at most 30 cells
    /// with sides up to 6 (so every board up to 5 x 6 and 6 x 5), and every solution's path
    /// replays to all black.
    #[test]
    fn brute_rows_and_fast_agree_up_to_5_by_6() {
        let control = Control::new();
        for rows in 1..=6 {
            for cols in (1..=6).filter(|c| rows * c <= brute::MAX_CELLS) {
                let board = board_size(rows, cols).unwrap();
                let brute = brute::solutions(board, &control).unwrap();
                let by_rows = rows::solutions(board, &control).unwrap();
                let fast = fast::solve(board, &control).unwrap();
                assert_eq!(brute.len(), 1 << fast.nullity(), "{rows} x {cols}");
                let fast_all = fast.all().unwrap();
                for g in &fast_all {
                    let moves = path::path_for(board, g, &control).unwrap();
                    let replay = path::replay(board, &moves);
                    assert!(replay.all_black(), "{rows} x {cols}");
                    assert_eq!(&replay.landings, g);
                }
                let expected = sorted(brute.clone());
                assert_eq!(sorted(by_rows.clone()), expected, "rows vs brute, {rows} x {cols}");
                assert_eq!(sorted(fast_all), expected, "fast vs brute, {rows} x {cols}");
                assert_eq!(Solutions::from_list(board, &brute).nullity(), fast.nullity());
                assert_eq!(Solutions::from_list(board, &by_rows).nullity(), fast.nullity());
            }
        }
    }

    /// The solutions built from brute force's complete list ([`Coset::affine_hull`]) are that
    /// list again, with the nullity of its size: compared with the brute-force list itself.
    #[test]
    fn from_list_gives_back_every_brute_force_solution() {
        let control = Control::new();
        for rows in 1..=5 {
            for cols in (1..=5).filter(|c| rows * c <= 20) {
                let board = board_size(rows, cols).unwrap();
                let brute = brute::solutions(board, &control).unwrap();
                let sols = Solutions::from_list(board, &brute);
                assert_eq!(brute.len(), 1 << sols.nullity(), "{rows} x {cols}");
                assert_eq!(sorted(sols.all().unwrap()), sorted(brute), "{rows} x {cols}");
            }
        }
    }
}
