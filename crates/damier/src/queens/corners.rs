//! The course chapter's two corner exercises, between solutions of n + 1 and solutions of n.
//!
//! **Reduce.** Removing a row and a column from a solution of n + 1 leaves n queens on an
//! n x n board only if the queen of that row sits in that column; the row and column must
//! also be on the border so the rest stays a square board. Hence the condition: *the solution
//! of n + 1 has a queen in a corner*, and the result is then always a solution of n (a subset
//! of non-attacking queens does not attack). The course chapter asks about the last row and column:
//! that is the south-east corner, `S[n+1] = n+1`.
//!
//! **Extend.** Adding a row and a column on two sides of a solution of n and a queen in the
//! new corner gives a solution of n + 1 exactly when no old queen lies on the new queen's
//! diagonal: the new row and column are empty, so only the diagonal through the corner can
//! clash. North-west and south-east: *the main diagonal is empty* (`S[i] != i` for every i);
//! north-east and south-west: *the anti-diagonal is empty* (`S[i] != n + 1 - i`).
//!
//! The two are inverse bijections for each corner, so the number of solutions of n + 1 with a
//! queen in the south-east corner equals the number of solutions of n with an empty main
//! diagonal; the report checks that.
//!
//! ```
//! use damier::control::Control;
//! use damier::queens::corners::exercises;
//!
//! let c = exercises(5, 2, &Control::new()).unwrap();
//! assert_eq!(c.n, 5);
//! assert_eq!(c.extend.solutions, 10); // every solution of n = 5 is examined
//! // Each example's second placement is a solution, one row and column larger.
//! assert!(c.extend.examples.iter().all(|(_, before, after)| after.n() == before.n() + 1 && after.is_valid()));
//! ```

use std::ops::ControlFlow;

use crate::control::Control;
use crate::queens::Placement;
use crate::queens::search::{self, SearchError};

/// Largest n for [`exercises`]: it enumerates every solution of n + 1 (2.3 million for 15).
pub const MAX_N: u32 = 14;

/// A corner of the board (north = row 0, west = column 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum Corner {
    /// Top left.
    Nw,
    /// Top right.
    Ne,
    /// Bottom left.
    Sw,
    /// Bottom right.
    Se,
}

impl Corner {
    /// All four, in the order nw, ne, sw, se.
    pub const ALL: [Corner; 4] = [Corner::Nw, Corner::Ne, Corner::Sw, Corner::Se];

    /// The lower-case name: `nw`, `ne`, `sw`, `se`.
    pub fn name(self) -> &'static str {
        match self {
            Corner::Nw => "nw",
            Corner::Ne => "ne",
            Corner::Sw => "sw",
            Corner::Se => "se",
        }
    }

    fn north(self) -> bool {
        matches!(self, Corner::Nw | Corner::Ne)
    }

    fn west(self) -> bool {
        matches!(self, Corner::Nw | Corner::Sw)
    }
}

/// The solution of n obtained from `big` (a placement of n + 1) by removing the row and
/// column of its queen in `corner`, or `None` if that corner holds no queen.
pub fn reduce(big: &Placement, corner: Corner) -> Option<Placement> {
    let m = big.n() as usize;
    if m < 2 {
        return None;
    }
    let cols = big.columns();
    let row = if corner.north() { 0 } else { m - 1 };
    let col = if corner.west() { 0 } else { m as u32 - 1 };
    if cols[row] != col {
        return None;
    }
    let rest = if corner.north() { &cols[1..] } else { &cols[..m - 1] };
    let shift = u32::from(corner.west());
    Some(Placement::from_trusted(rest.iter().map(|&c| c - shift).collect()))
}

/// The necessary and sufficient condition for [`extend`]: the diagonal through `corner`
/// (main diagonal for nw/se, anti-diagonal for ne/sw) holds no queen of `p`.
pub fn can_extend(p: &Placement, corner: Corner) -> bool {
    let n = p.n();
    let main = corner.north() == corner.west();
    p.queens().all(|(r, c)| if main { r != c } else { r + c != n - 1 })
}

/// `p` (a placement of n) grown by one row and one column towards `corner`, with a queen in
/// the new corner; it is a solution of n + 1 iff `p` is one and [`can_extend`] holds.
pub fn extend(p: &Placement, corner: Corner) -> Placement {
    let n = p.n();
    let shift = u32::from(corner.west());
    let corner_col = if corner.west() { 0 } else { n };
    let moved = p.columns().iter().map(|&c| c + shift);
    let cols: Vec<u32> = if corner.north() {
        std::iter::once(corner_col).chain(moved).collect()
    } else {
        moved.chain(std::iter::once(corner_col)).collect()
    };
    Placement::from_trusted(cols)
}

/// Counts per corner (order nw, ne, sw, se), the number with at least one, and examples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// Solutions examined.
    pub solutions: u64,
    /// Per corner, in [`Corner::ALL`] order.
    pub per_corner: [u64; 4],
    /// Solutions that work with at least one corner.
    pub any: u64,
    /// Up to the requested number of `(corner, before, after)` examples, in backtracking order.
    pub examples: Vec<(Corner, Placement, Placement)>,
}

/// The condition the reduction asks for, in words.
pub const REDUCE_CONDITION: &str = "a solution of n+1 gives a solution of n by removing a border row and a border \
column only if the queen of that row is in that column, i.e. it has a queen in that corner; \
the condition is also sufficient (the course chapter's 'last row and last column' is the se corner: S[n+1] = n+1)";

/// The condition the extension asks for, in words.
pub const EXTEND_CONDITION: &str = "a solution of n extends to n+1 with a queen in the new nw or se corner iff its \
main diagonal is empty (S[i] != i for all i), in the new ne or sw corner iff its anti-diagonal is \
empty (S[i] != n+1-i); the new row and column are empty, so only that diagonal can clash";

/// Both exercises for one n. Serialised as `n`, `reduce` and `extend`,
/// each with `solutions`, `per_corner` (`nw`, `ne`, `sw`, `se`), `any`, `examples` (`corner`,
/// `from`, `to` as 1-based columns) and its `condition`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Corners {
    /// n: solutions of n + 1 are reduced to n, solutions of n extended to n + 1.
    pub n: u32,
    /// Solutions of n + 1 with a corner queen, reduced to solutions of n.
    pub reduce: Side,
    /// Solutions of n extended to n + 1 by a corner queen.
    pub extend: Side,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Corners {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Corners", 3)?;
        st.serialize_field("n", &self.n)?;
        st.serialize_field("reduce", &SideJson(&self.reduce, REDUCE_CONDITION))?;
        st.serialize_field("extend", &SideJson(&self.extend, EXTEND_CONDITION))?;
        st.end()
    }
}

/// A [`Side`] with its condition, as it is serialised.
#[cfg(feature = "serde")]
struct SideJson<'a>(&'a Side, &'static str);

#[cfg(feature = "serde")]
impl serde::Serialize for SideJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        #[derive(serde::Serialize)]
        struct PerCorner {
            nw: u64,
            ne: u64,
            sw: u64,
            se: u64,
        }
        #[derive(serde::Serialize)]
        struct Example {
            corner: Corner,
            from: Vec<u64>,
            to: Vec<u64>,
        }
        let SideJson(side, condition) = *self;
        let [nw, ne, sw, se] = side.per_corner;
        let examples: Vec<Example> = side
            .examples
            .iter()
            .map(|(corner, from, to)| Example { corner: *corner, from: from.one_based(), to: to.one_based() })
            .collect();
        let mut st = s.serialize_struct("Side", 5)?;
        st.serialize_field("solutions", &side.solutions)?;
        st.serialize_field("per_corner", &PerCorner { nw, ne, sw, se })?;
        st.serialize_field("any", &side.any)?;
        st.serialize_field("examples", &examples)?;
        st.serialize_field("condition", condition)?;
        st.end()
    }
}

fn side(
    m: u32,
    examples: usize,
    control: &Control,
    mut apply: impl FnMut(&Placement, Corner) -> Option<Placement>,
) -> Result<Side, SearchError> {
    let mut s = Side { solutions: 0, per_corner: [0; 4], any: 0, examples: Vec::new() };
    search::visit(m, control, |cols| {
        s.solutions += 1;
        let p = Placement::from_trusted(cols.to_vec());
        let mut any = false;
        for (i, corner) in Corner::ALL.into_iter().enumerate() {
            if let Some(q) = apply(&p, corner) {
                s.per_corner[i] += 1;
                any = true;
                if s.examples.len() < examples {
                    s.examples.push((corner, p.clone(), q));
                }
            }
        }
        s.any += u64::from(any);
        ControlFlow::Continue(())
    })?;
    Ok(s)
}

/// Runs both exercises for `1 <= n <= MAX_N`, keeping `examples` examples of each.
pub fn exercises(n: u32, examples: usize, control: &Control) -> Result<Corners, SearchError> {
    if n > MAX_N {
        return Err(SearchError::TooLarge(n));
    }
    let reduce = side(n + 1, examples, control, reduce)?;
    let extend = side(n, examples, control, |p, c| can_extend(p, c).then(|| extend(p, c)))?;
    Ok(Corners { n, reduce, extend })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::naive;

    /// Brute force: every way to delete one border row and one border column of each
    /// solution of n + 1, and every way to add a border row, a border column and a queen in
    /// any of the new squares of each solution of n, checked by the independent checker.
    #[test]
    fn conditions_match_brute_force() {
        let c = Control::new();
        for n in 1..=8u32 {
            let r = exercises(n, 3, &c).unwrap();
            // Reduce.
            let big = naive::solutions(n + 1, &c).unwrap();
            let mut per = [0u64; 4];
            for p in &big {
                for (i, corner) in Corner::ALL.into_iter().enumerate() {
                    let (row, col) = (if corner.north() { 0 } else { n }, if corner.west() { 0 } else { n });
                    let qs: Vec<(u32, u32)> = p
                        .queens()
                        .filter(|&(r, c)| r != row && c != col)
                        .map(|(r, c)| (r - u32::from(r > row), c - u32::from(c > col)))
                        .collect();
                    let ok =
                        qs.len() == n as usize && crate::queens::placement::check_queens(n, &qs).is_valid();
                    per[i] += u64::from(ok);
                    assert_eq!(ok, reduce(p, corner).is_some());
                }
            }
            assert_eq!(r.reduce.per_corner, per, "n = {n}");
            // Extend: add the border row/column, try the corner queen.
            let small = naive::solutions(n, &c).unwrap();
            let mut per = [0u64; 4];
            for p in &small {
                for (i, corner) in Corner::ALL.into_iter().enumerate() {
                    let (dr, dc) = (u32::from(corner.north()), u32::from(corner.west()));
                    let mut qs: Vec<(u32, u32)> = p.queens().map(|(r, c)| (r + dr, c + dc)).collect();
                    qs.push((if corner.north() { 0 } else { n }, if corner.west() { 0 } else { n }));
                    let ok = crate::queens::placement::check_queens(n + 1, &qs).is_valid();
                    per[i] += u64::from(ok);
                    assert_eq!(ok, can_extend(p, corner));
                    if ok {
                        assert!(extend(p, corner).is_valid());
                    }
                }
            }
            assert_eq!(r.extend.per_corner, per, "n = {n}");
            // The bijection: per corner, both sides count the same pairs.
            assert_eq!(r.reduce.per_corner, r.extend.per_corner, "n = {n}");
            for (corner, before, after) in r.reduce.examples.iter().chain(&r.extend.examples) {
                assert!(before.is_valid() && after.is_valid(), "{corner:?}");
            }
            // reduce undoes extend.
            for (corner, before, after) in &r.extend.examples {
                assert_eq!(reduce(after, *corner).as_ref(), Some(before));
            }
        }
    }
}
