//! Answers that depend on the board's size only: the nullity, the number of solutions, the square table,
//! the kernel's basis checked neutral ([`neutral_basis`]).
//!
//! ```
//! use damier::board::Size;
//! use damier::control::Control;
//! use damier::lights::sizes::{size_count, square_table};
//!
//! // 5 x 5: nullity 2, so 4 ways from all-on to all-off and a quarter of the starts winnable.
//! let c = size_count(Size::new(5, 5)?);
//! assert_eq!((c.nullity, c.solutions.as_str(), c.winnable_fraction.as_str()), (2, "4", "1/4"));
//! // The Lights Out text's table starts at L = 2; 4 x 4 has 16 solutions.
//! let table = square_table(5, &Control::new())?;
//! assert_eq!(table[2].size, 4);
//! assert_eq!(table[2].solutions, "16");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::error::LightsError;
use super::method::Method;
use super::poly::{nullity, square_nullities};
use super::press::verify;
use crate::board::{Board, Size};
use crate::control::{Control, Interrupted};
use crate::gf2::power_of_two_decimal;

/// What the size alone tells: the nullity and the number of solvable starts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SizeCount {
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// Nullity of the press matrix.
    pub nullity: usize,
    /// `2^nullity`: the ways from all-on to all-off (every winnable start has as many).
    pub solutions: String,
    /// The fraction of the starts that are winnable, `1/2^nullity`.
    pub winnable_fraction: String,
}

/// [`SizeCount`] of `size`.
pub fn size_count(size: Size) -> SizeCount {
    let k = nullity(size);
    let solutions = power_of_two_decimal(k as u64);
    SizeCount {
        width: size.width(),
        height: size.height(),
        nullity: k,
        winnable_fraction: format!("1/{solutions}"),
        solutions,
    }
}

/// One row of the square table (the Lights Out text's table).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SquareRow {
    /// L, the side.
    pub size: usize,
    /// Nullity of the L x L board.
    pub nullity: usize,
    /// `2^nullity`: the solutions from all-on to all-off.
    pub solutions: String,
}

/// The rows L = 2..=to of the square table.
pub fn square_table(to: usize, control: &Control) -> Result<Vec<SquareRow>, Interrupted> {
    let nul = square_nullities(to, control)?;
    Ok((2..=to)
        .map(|l| SquareRow {
            size: l,
            nullity: nul[l - 1],
            solutions: power_of_two_decimal(nul[l - 1] as u64),
        })
        .collect())
}

/// A basis of the kernel of `size` (the poly engine), each vector checked neutral before it
/// is shown: pressing it on the dark board leaves the board dark.
pub fn neutral_basis(size: Size, control: &Control) -> Result<Vec<Board>, LightsError> {
    let basis = super::kernel(size, Method::Poly, control)?;
    check_neutral(&basis, Method::Poly)?;
    Ok(basis)
}

/// [`LightsError::Unverified`] unless every vector of `basis`, from `method`, is neutral.
fn check_neutral(basis: &[Board], method: Method) -> Result<(), LightsError> {
    match basis.iter().all(|v| verify(&Board::new(v.size()), None, v)) {
        true => Ok(()),
        false => Err(LightsError::Unverified(method)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_basis_is_checked_neutral() {
        let size = Size::new(5, 5).unwrap();
        let basis = neutral_basis(size, &Control::new()).unwrap();
        assert_eq!(basis.len(), 2);
        // A single press lights its cell and its neighbours: not neutral.
        let mut wrong = basis.clone();
        let mut press = Board::new(size);
        press.set(0, 0, true);
        wrong.push(press);
        assert_eq!(check_neutral(&wrong, Method::Poly), Err(LightsError::Unverified(Method::Poly)));
    }
}
