//! The one table of the 8 directions, used by every rule, the signals and the pictures.
//!
//! Coordinates are `(x, y)` with `x` the column (growing to the right) and `y` the row
//! (growing downwards), so `N` is `(0, -1)`. Signal bit `d` of a cell is set when a queen lies
//! further away from the cell along `DIRECTIONS[d]`. The dynamics do not depend on which name
//! goes with which offset (the names are labels only); only the consistency of this one table
//! matters.
//!
//! ```
//! use damier::automaton::dir::{DIRECTIONS, NAMES, opposite};
//!
//! for d in 0..8 {
//!     let (dx, dy) = DIRECTIONS[d];
//!     assert_eq!(DIRECTIONS[opposite(d)], (-dx, -dy));
//! }
//! assert_eq!((NAMES[0], NAMES[opposite(0)]), ("N", "S"));
//! ```

/// Offsets `(dx, dy)` of the 8 directions, indexed by the signal bit.
pub const DIRECTIONS: [(i32, i32); 8] =
    [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];

/// Names of the directions, in the order of [`DIRECTIONS`].
pub const NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// The opposite direction: `DIRECTIONS[opposite(d)] = -DIRECTIONS[d]`.
#[inline(always)]
pub const fn opposite(d: usize) -> usize {
    // PERF: the table lists the directions around the compass, so the opposite is 4 away.
    d ^ 4
}

/// The direction `d` with `DIRECTIONS[d] = (dx, dy)`, for a unit step.
pub fn of_offset(dx: i32, dy: i32) -> Option<usize> {
    DIRECTIONS.iter().position(|&o| o == (dx, dy))
}

/// δ(a, b): the direction in which cell `a` lies, seen from its neighbour `b`
/// (`None` when the cells are not adjacent).
pub fn delta(a: (usize, usize), b: (usize, usize)) -> Option<usize> {
    of_offset(a.0 as i32 - b.0 as i32, a.1 as i32 - b.1 as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposite_negates_the_offset() {
        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            assert_eq!(DIRECTIONS[opposite(d)], (-dx, -dy));
        }
    }

    #[test]
    fn delta_is_the_direction_of_a_seen_from_b() {
        // a = (3, 2) lies east of b = (2, 2).
        assert_eq!(delta((3, 2), (2, 2)).map(|d| NAMES[d]), Some("E"));
        // a = (1, 1) lies north-west of b = (2, 2).
        assert_eq!(delta((1, 1), (2, 2)).map(|d| NAMES[d]), Some("NW"));
        assert_eq!(delta((2, 2), (2, 2)), None);
        assert_eq!(delta((4, 2), (2, 2)), None);
        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            let b = (5usize, 5usize);
            let a = ((5 + dx) as usize, (5 + dy) as usize);
            assert_eq!(delta(a, b), Some(d));
            assert_eq!(delta(b, a), Some(opposite(d)));
        }
    }
}
