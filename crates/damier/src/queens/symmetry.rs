//! The 8 symmetries of the square (the dihedral group D8) acting on placements.
//!
//! Each [`Transform`] is stored as "maybe transpose, then maybe mirror the rows, then maybe
//! mirror the columns": three bits, so composition and inverses are bit arithmetic checked
//! against the action on squares by property tests. Two solutions are the same up to
//! symmetry when a transform maps one onto the other; the *canonical* member of a class is
//! its lexicographically smallest `S`.
//!
//! ```
//! use damier::queens::{Placement, symmetry};
//!
//! let p = Placement::parse("2 4 1 3").unwrap();
//! // A quarter turn maps it onto itself: its class holds 8 / 4 = 2 solutions (all of n = 4).
//! assert_eq!(8 / symmetry::stabiliser(&p).len(), 2);
//! let (canonical, _) = symmetry::canonical(&p);
//! assert!(canonical.is_valid());
//! ```

use crate::control::Control;
use crate::queens::Placement;
use crate::queens::search::{SearchError, Solutions};

/// An element of D8, acting on the squares `(row, column)` of an n x n board (0-based, row 0
/// at the top, rotations clockwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum Transform {
    /// `(r, c) -> (r, c)`.
    Identity,
    /// Quarter turn clockwise: `(r, c) -> (c, n-1-r)`.
    Rot90,
    /// Half turn: `(r, c) -> (n-1-r, n-1-c)`.
    Rot180,
    /// Quarter turn counter-clockwise: `(r, c) -> (n-1-c, r)`.
    Rot270,
    /// Left-right mirror: `(r, c) -> (r, n-1-c)`.
    MirrorColumns,
    /// Top-bottom mirror: `(r, c) -> (n-1-r, c)`.
    MirrorRows,
    /// Reflection in the main diagonal: `(r, c) -> (c, r)`.
    Transpose,
    /// Reflection in the anti-diagonal: `(r, c) -> (n-1-c, n-1-r)`.
    AntiTranspose,
}

impl Transform {
    /// The whole group, identity first.
    pub const ALL: [Transform; 8] = [
        Transform::Identity,
        Transform::Rot90,
        Transform::Rot180,
        Transform::Rot270,
        Transform::MirrorColumns,
        Transform::MirrorRows,
        Transform::Transpose,
        Transform::AntiTranspose,
    ];

    /// (transpose first, then mirror rows, then mirror columns).
    const fn bits(self) -> (bool, bool, bool) {
        match self {
            Transform::Identity => (false, false, false),
            Transform::Rot90 => (true, false, true),
            Transform::Rot180 => (false, true, true),
            Transform::Rot270 => (true, true, false),
            Transform::MirrorColumns => (false, false, true),
            Transform::MirrorRows => (false, true, false),
            Transform::Transpose => (true, false, false),
            Transform::AntiTranspose => (true, true, true),
        }
    }

    const fn from_bits(bits: (bool, bool, bool)) -> Transform {
        match bits {
            (false, false, false) => Transform::Identity,
            (true, false, true) => Transform::Rot90,
            (false, true, true) => Transform::Rot180,
            (true, true, false) => Transform::Rot270,
            (false, false, true) => Transform::MirrorColumns,
            (false, true, false) => Transform::MirrorRows,
            (true, false, false) => Transform::Transpose,
            (true, true, true) => Transform::AntiTranspose,
        }
    }

    /// The image of square `(r, c)` on an n x n board.
    pub fn apply(self, n: u32, (r, c): (u32, u32)) -> (u32, u32) {
        let (t, mr, mc) = self.bits();
        let (r, c) = if t { (c, r) } else { (r, c) };
        (if mr { n - 1 - r } else { r }, if mc { n - 1 - c } else { c })
    }

    /// `self.then(other)`: first `self`, then `other`.
    pub const fn then(self, other: Transform) -> Transform {
        let (t1, r1, c1) = self.bits();
        let (t2, r2, c2) = other.bits();
        // Moving other's transpose before self's mirrors swaps which axis they mirror.
        let (r1, c1) = if t2 { (c1, r1) } else { (r1, c1) };
        Transform::from_bits((t1 ^ t2, r1 ^ r2, c1 ^ c2))
    }

    /// The transform undoing `self`.
    pub const fn inverse(self) -> Transform {
        match self {
            Transform::Rot90 => Transform::Rot270,
            Transform::Rot270 => Transform::Rot90,
            other => other,
        }
    }

    /// The image of a placement. Rows and columns are both permuted, so the image of a
    /// permutation is a permutation.
    pub fn placement(self, p: &Placement) -> Placement {
        let n = p.n();
        let mut cols = vec![0u32; n as usize];
        for q in p.queens() {
            let (r, c) = self.apply(n, q);
            cols[r as usize] = c;
        }
        Placement::from_trusted(cols)
    }
}

/// The canonical member of `p`'s class (lexicographically smallest `S`) and a transform
/// mapping `p` onto it.
pub fn canonical(p: &Placement) -> (Placement, Transform) {
    Transform::ALL.iter().map(|&t| (t.placement(p), t)).min().expect("the group is not empty")
}

/// True if `p` is the canonical member of its class.
pub fn is_canonical(p: &Placement) -> bool {
    // Cheap early exits first: most images differ from p in the first row.
    Transform::ALL[1..].iter().all(|&t| t.placement(p) >= *p)
}

/// The transforms fixing `p` (its stabiliser); the class has `8 / len` members.
pub fn stabiliser(p: &Placement) -> Vec<Transform> {
    Transform::ALL.iter().copied().filter(|&t| t.placement(p) == *p).collect()
}

/// The number of solutions in `p`'s class: 8 over the size of its stabiliser.
pub fn class_size(p: &Placement) -> usize {
    8 / stabiliser(p).len()
}

/// One solution of a listing, as a listing streams them (serialised as `index`, `columns` 1-based, and `class_size` in a listing of one per class).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Listed {
    /// Its place in the listing, from 1.
    pub index: u64,
    /// The solution.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "columns", serialize_with = "crate::queens::placement::serialize_columns_one_based")
    )]
    pub placement: Placement,
    /// The solutions in its class ([`class_size`]), in a listing of one per class.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub class_size: Option<usize>,
}

impl Listed {
    /// `p` as solution `index` of a listing; with `unique` (one per class), `None` unless `p`
    /// is the canonical member of its class, listed with its class's size.
    pub fn of(p: Placement, index: u64, unique: bool) -> Option<Listed> {
        if !unique {
            return Some(Listed { index, placement: p, class_size: None });
        }
        is_canonical(&p).then(|| Listed { index, class_size: Some(class_size(&p)), placement: p })
    }
}

/// Calls `f` with one canonical representative per class, in backtracking order of the
/// representatives, until `f` returns false.
pub fn visit_unique(
    n: u32,
    control: &Control,
    mut f: impl FnMut(&Placement) -> bool,
) -> Result<(), SearchError> {
    let mut s = Solutions::new(n)?;
    while let Some(cols) = s.next_with(control)? {
        let p = Placement::from_trusted(cols.to_vec());
        if is_canonical(&p) && !f(&p) {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn transform() -> impl Strategy<Value = Transform> {
        (0..8usize).prop_map(|i| Transform::ALL[i])
    }

    proptest! {
        #[test]
        fn composition_matches_the_action(a in transform(), b in transform(), n in 1u32..50, r in 0u32..50, c in 0u32..50) {
            let (r, c) = (r % n, c % n);
            prop_assert_eq!(a.then(b).apply(n, (r, c)), b.apply(n, a.apply(n, (r, c))));
        }

        #[test]
        fn inverses_and_identity(a in transform(), n in 1u32..50, r in 0u32..50, c in 0u32..50) {
            let (r, c) = (r % n, c % n);
            prop_assert_eq!(a.then(a.inverse()), Transform::Identity);
            prop_assert_eq!(a.inverse().then(a), Transform::Identity);
            prop_assert_eq!(a.then(Transform::Identity), a);
            prop_assert_eq!(Transform::Identity.then(a), a);
            prop_assert_eq!(a.inverse().apply(n, a.apply(n, (r, c))), (r, c));
        }

        #[test]
        fn associative(a in transform(), b in transform(), c in transform()) {
            prop_assert_eq!(a.then(b).then(c), a.then(b.then(c)));
        }
    }

    #[test]
    fn a_unique_listing_keeps_canonical_members_with_their_class_size() {
        // n = 6: four solutions in one class of 4 (a half turn fixes each).
        let all: Vec<Placement> = Solutions::new(6).unwrap().collect();
        assert_eq!(all.iter().map(class_size).collect::<Vec<_>>(), [4, 4, 4, 4]);
        let kept: Vec<Listed> = all.iter().filter_map(|p| Listed::of(p.clone(), 1, true)).collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].class_size, Some(4));
        assert_eq!(kept[0].placement, canonical(&all[0]).0);
        let plain = Listed::of(all[1].clone(), 2, false).unwrap();
        assert_eq!((plain.index, plain.class_size, &plain.placement), (2, None, &all[1]));
    }

    #[test]
    fn the_eight_are_distinct_and_closed() {
        let images: std::collections::HashSet<Vec<(u32, u32)>> = Transform::ALL
            .iter()
            .map(|t| (0..3).flat_map(|r| (0..3).map(move |c| (r, c))).map(|q| t.apply(3, q)).collect())
            .collect();
        assert_eq!(images.len(), 8);
        assert_eq!(Transform::Rot90.then(Transform::Rot90), Transform::Rot180);
        assert_eq!(Transform::Rot90.then(Transform::Rot180), Transform::Rot270);
        assert_eq!(Transform::MirrorColumns.then(Transform::MirrorRows), Transform::Rot180);
        assert_ne!(Transform::Rot90.then(Transform::Transpose), Transform::Transpose.then(Transform::Rot90));
    }

    #[test]
    fn solutions_map_to_solutions_and_classes_are_consistent() {
        for p in Solutions::new(6).unwrap() {
            let (canon, t) = canonical(&p);
            assert_eq!(t.placement(&p), canon);
            assert!(is_canonical(&canon));
            assert_eq!(8 % stabiliser(&p).len(), 0);
            for t in Transform::ALL {
                assert!(t.placement(&p).is_valid());
            }
        }
    }
}
