//! The n-queens problem, exhaustive and constructive, after "Algorithmique III — Le problème
//! des 8 reines", a French course chapter on backtracking ("the course chapter" in these docs;
//! the README's Sources list the four source documents).
//!
//! - [`placement`]: the course chapter's permutation `S` ([`Placement`]) and an independent checker
//!   that says which queens attack which;
//! - [`naive`]: the course chapter's naive backtracker (`EstLibre`, "is the square free",
//!   `PlacerReine`, "place a queen"), the readable reference;
//! - [`search`]: bit-vector backtracking with the course chapter's `V`, `G`, `D` vectors: every
//!   solution in backtracking order, or the first, without collecting them;
//! - [`symmetry`]: the 8 symmetries of the square, canonical forms, one solution per class;
//! - [`count`](mod@count): the fast counter (total and unique in one run);
//! - [`reach`]: the counts refused before they run (past the fast engine, years of work);
//! - [`construct`]: one solution for any n >= 4 up to 10^9 by an explicit formula;
//! - [`local`]: a random solution for n up to 10^8 by conflict-minimising local search;
//! - [`solve`]: one solution for a given n by either, as `damier queens solve` reports it;
//! - [`sample`]: solutions drawn at random (exactly uniform for n <= 14);
//! - [`max`]: R(n), the most non-attacking queens on n x n, with a witness;
//! - [`corners`]: the course chapter's exercises on adding or removing a corner queen.
//!
//! ```
//! use damier::control::Control;
//! use damier::queens::{search, symmetry, Placement};
//!
//! let first = search::first(8, &Control::new()).unwrap().unwrap();
//! assert_eq!(first.to_string(), "(1, 5, 8, 6, 3, 7, 2, 4)");
//! let (canon, _) = symmetry::canonical(&first);
//! assert!(canon.is_valid());
//! assert!(!Placement::parse("1 2 3 4").unwrap().is_valid());
//! ```

pub mod construct;
pub mod corners;
pub mod count;
pub mod local;
pub mod max;
pub mod naive;
pub mod placement;
pub mod reach;
pub mod sample;
pub mod search;
pub mod solve;
pub mod symmetry;

pub use count::{CountError, Counts, count_solutions};
pub use placement::Placement;

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::control::Control;

    #[test]
    fn naive_and_bit_vector_searches_list_the_same_solutions_up_to_11() {
        let c = Control::new();
        for n in 0..=11 {
            let naive = naive::solutions(n, &c).unwrap();
            let fast: Vec<Placement> = search::Solutions::new(n).unwrap().collect();
            assert_eq!(naive, fast, "n = {n}");
            assert!(fast.iter().all(Placement::is_valid), "n = {n}");
            assert!(fast.windows(2).all(|w| w[0] < w[1]), "n = {n}: not in backtracking order");
            if n >= 1 {
                assert_eq!(count_solutions(n, &c).unwrap().total, fast.len() as u64, "n = {n}");
            }
        }
    }

    #[test]
    fn unique_listing_matches_the_counter_up_to_12() {
        let c = Control::new();
        for n in 1..=12 {
            let mut reps = Vec::new();
            symmetry::visit_unique(n, &c, |p| {
                reps.push(p.clone());
                true
            })
            .unwrap();
            let counts = count_solutions(n, &c).unwrap();
            assert_eq!(reps.len() as u64, counts.unique, "n = {n}");
            // Orbit sizes add up to the total, and canonicalising every solution gives
            // exactly the listed representatives.
            let orbits: u64 = reps.iter().map(|p| symmetry::class_size(p) as u64).sum();
            assert_eq!(orbits, counts.total, "n = {n}");
            let canon: HashSet<Placement> =
                search::Solutions::new(n).unwrap().map(|p| symmetry::canonical(&p).0).collect();
            assert_eq!(canon, reps.iter().cloned().collect(), "n = {n}");
        }
    }
}
