//! [`Solutions`], what every solver of the walk returns, and the size check they share
//! (below the solvers, so that imports point one way).

use super::error::WalkError;
use crate::board::{Board, Size};
use crate::control::Control;
use crate::gf2::Coset;
use crate::lights;

/// Largest nullity whose solutions [`Solutions::all`] lists: Lights Out's limit
/// ([`lights::ALL_MAX_NULLITY`], `2^16` solutions; also at most [`lights::ALL_MAX_CELLS`]
/// cells in all).
pub const MAX_LISTED_NULLITY: usize = lights::ALL_MAX_NULLITY;

/// Checks that `g` has the size `size`.
pub(crate) fn check_board(size: Size, g: &Board) -> Result<(), WalkError> {
    if g.size() == size {
        Ok(())
    } else {
        Err(WalkError::SizeMismatch {
            rows: size.height(),
            cols: size.width(),
            got_rows: g.height(),
            got_cols: g.width(),
        })
    }
}

/// A board's number of solutions, with its nullity (one row of [`super::square_counts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SolutionCount {
    /// Rows (L).
    pub rows: usize,
    /// Columns (C).
    pub cols: usize,
    /// `2^nullity`, in decimal.
    pub solutions: String,
    /// The nullity.
    pub nullity: usize,
}

/// Every solution of a board: `particular + span(kernel)`, `2^nullity` activation sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solutions {
    /// The board's size.
    pub size: Size,
    /// One solution.
    pub particular: Board,
    nullity: usize,
    kernel: Kernel,
}

/// Where the kernel basis (activation sets that change no colour, `M k = 0`) comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kernel {
    /// Explicit boards (brute force and first-row enumeration: small boards).
    Listed(Vec<Board>),
    /// Computed on demand by [`lights::kernel`] with this engine: a board near [`MAX_CELLS`](super::MAX_CELLS)
    /// can have a nullity in the thousands, and materialising every kernel board would take
    /// gigabytes, while most callers only need the nullity.
    Lights(lights::Method),
}

impl Solutions {
    pub(crate) fn from_lights(size: Size, particular: Board, nullity: usize, method: lights::Method) -> Self {
        Solutions { size, particular, nullity, kernel: Kernel::Lights(method) }
    }

    /// How many solutions: [`SolutionCount`].
    pub fn counted(&self) -> SolutionCount {
        SolutionCount {
            rows: self.size.height(),
            cols: self.size.width(),
            solutions: self.count_decimal(),
            nullity: self.nullity,
        }
    }

    /// `k` such that there are `2^k` solutions.
    pub fn nullity(&self) -> usize {
        self.nullity
    }

    /// The kernel basis as boards: `nullity · L · C` bits of memory.
    pub fn kernel(&self) -> Result<Vec<Board>, WalkError> {
        match &self.kernel {
            Kernel::Listed(k) => Ok(k.clone()),
            Kernel::Lights(method) => {
                lights::kernel(self.size, *method, &Control::new()).map_err(WalkError::from_lights)
            }
        }
    }

    /// The number of solutions, `2^nullity`, in decimal (it can exceed any machine integer).
    pub fn count_decimal(&self) -> String {
        lights::power_of_two_decimal(self.nullity as u64)
    }

    /// Every solution as a coset `particular + span(kernel)` (materialises the kernel).
    pub fn coset(&self) -> Result<Coset<Board>, WalkError> {
        Ok(Coset::new(self.particular.clone(), self.kernel()?))
    }

    /// Refused when every solution cannot be listed ([`lights::check_listing`]: above
    /// [`MAX_LISTED_NULLITY`], or more than [`lights::ALL_MAX_CELLS`] cells in all): to call
    /// before anything proportional to the listing is made (a path per solution, say).
    pub fn check_listing(&self) -> Result<(), WalkError> {
        lights::check_listing(self.size, self.nullity).map_err(WalkError::from_lights)
    }

    /// Every solution, in Gray-code order from the particular one ([`Coset::elements`]);
    /// refused, before the kernel is made, as by [`Solutions::check_listing`].
    pub fn all(&self) -> Result<Vec<Board>, WalkError> {
        self.check_listing()?;
        Ok(self.coset()?.elements())
    }

    /// The affine space spanned by an explicit, complete list of solutions (brute force and
    /// first-row enumeration find them all): [`Coset::affine_hull`]. Panics on an empty list.
    pub(crate) fn from_list(size: Size, list: &[Board]) -> Solutions {
        let Coset { particular, basis } = Coset::affine_hull(list).expect("a nonempty list of solutions");
        Solutions { size, particular, nullity: basis.len(), kernel: Kernel::Listed(basis) }
    }
}
