//! Solutions drawn at random, for teaching and for tests.
//!
//! Two ways, chosen by n:
//! - n <= [`EXACT_MAX`] (14: 365 596 solutions): every solution is listed once by the
//!   bit-vector search, then each draw picks one of them with an exactly uniform index, so
//!   every solution has the same probability;
//! - up to [`MAX_N`]: each draw is a [`local`] search from its own seed. That is
//!   random but not uniform (the greedy start favours some solutions), hence "uniform-ish".
//!
//! Draws are independent (with replacement: a solution may come twice) and reproducible: the
//! same `(n, k, seed)` gives the same list on every machine.
//!
//! ```
//! use damier::control::Control;
//! use damier::queens::sample::draw;
//!
//! let (drawn, _) = draw(10, 5, 42, &Control::new()).unwrap();
//! assert_eq!(drawn.len(), 5);
//! assert!(drawn.iter().all(|p| p.n() == 10 && p.is_valid()));
//! assert_eq!(draw(10, 5, 42, &Control::new()).unwrap().0, drawn); // reproducible from the seed
//! ```

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::control::{Control, Interrupted};
use crate::queens::Placement;
use crate::queens::local::{self, LocalError};
use crate::queens::search::{self, Solutions};
use crate::random::below;

/// Largest n drawn exactly uniformly (all its solutions are listed first).
pub const EXACT_MAX: u32 = 14;
/// Largest n accepted: beyond it, use [`local::solve`] directly (one solution per call).
pub const MAX_N: u32 = 1000;
/// Most queens drawn in all (`k · n`, the columns held until they are printed): `2^24`, 64 MiB
/// of columns; checked before the first draw.
pub const MAX_QUEENS: u64 = 1 << 24;

/// How the draws were made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "kebab-case"))]
pub enum Sampler {
    /// Uniform over the listed solutions.
    Uniform,
    /// One local search per draw (random, not uniform).
    LocalSearch,
}

/// Why no sample was drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    /// n above [`MAX_N`].
    #[error("n = {0} is too large for random draws: at most {MAX_N}")]
    TooLarge(u32),
    /// More than [`MAX_QUEENS`] queens in all.
    #[error("{k} draws of {n} queens are too many: at most {MAX_QUEENS} queens in all")]
    TooMany {
        /// Draws asked for.
        k: u64,
        /// Board side.
        n: u32,
    },
    /// Cancelled through the [`Control`].
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
    /// Local search failed its check (a bug).
    #[error(transparent)]
    Local(#[from] LocalError),
}

/// `k` solutions of n queens drawn at random from `seed` (empty when n has none: 2 and 3),
/// and the way they were drawn. Polls `control` between draws.
pub fn draw(n: u32, k: u64, seed: u64, control: &Control) -> Result<(Vec<Placement>, Sampler), SampleError> {
    if n > MAX_N {
        return Err(SampleError::TooLarge(n));
    }
    if k.saturating_mul(u64::from(n)) > MAX_QUEENS {
        return Err(SampleError::TooMany { k, n });
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    if n <= EXACT_MAX {
        debug_assert!(n <= search::MAX_N);
        let mut all = Vec::new();
        let mut solutions = Solutions::new(n).expect("n <= 14 is within the search's range");
        while let Some(cols) = solutions.next_with(control)? {
            all.push(cols.to_vec());
        }
        if all.is_empty() {
            return Ok((Vec::new(), Sampler::Uniform));
        }
        let mut out = Vec::new();
        for _ in 0..k {
            if control.cancelled() {
                return Err(Interrupted.into());
            }
            let i = below(&mut rng, all.len() as u64) as usize;
            out.push(Placement::from_trusted(all[i].clone()));
            control.advance(1);
        }
        return Ok((out, Sampler::Uniform));
    }
    let mut out = Vec::new();
    for _ in 0..k {
        let found = local::solve(n, rng.next_u64(), &Control::new())?;
        if control.cancelled() {
            return Err(Interrupted.into());
        }
        out.push(found.placement);
        control.advance(1);
    }
    Ok((out, Sampler::LocalSearch))
}

/// Solutions drawn at random with what drew them (serialised with the solutions as 1-based
/// columns).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Drawn {
    /// Board size.
    pub n: u32,
    /// How the draws were made.
    pub sampler: Sampler,
    /// The seed of the draws.
    pub seed: u64,
    /// The solutions, in the order drawn; empty when n has none.
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "crate::queens::placement::serialize_all_one_based")
    )]
    pub solutions: Vec<Placement>,
}

impl Drawn {
    /// [`draw`] with its settings.
    pub fn draw(n: u32, k: u64, seed: u64, control: &Control) -> Result<Drawn, SampleError> {
        let (solutions, sampler) = draw(n, k, seed, control)?;
        Ok(Drawn { n, sampler, seed, solutions })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn sample(n: u32, k: u64, seed: u64) -> (Vec<Placement>, Sampler) {
        draw(n, k, seed, &Control::new()).unwrap()
    }

    #[test]
    fn every_draw_is_a_solution_and_draws_repeat_per_seed() {
        for n in [1, 4, 5, 8, 12, 15, 40, 200] {
            let (a, how) = sample(n, 20, 3);
            assert_eq!(a.len(), 20);
            assert!(a.iter().all(|p| p.n() == n && p.is_valid()), "n = {n}");
            assert_eq!(how, if n <= EXACT_MAX { Sampler::Uniform } else { Sampler::LocalSearch });
            assert_eq!(sample(n, 20, 3).0, a, "n = {n}: same seed, same draws");
        }
        assert_ne!(sample(40, 5, 1).0, sample(40, 5, 2).0);
        assert!(sample(3, 5, 1).0.is_empty());
        // What the draws would hold is checked before the first.
        assert_eq!(draw(1000, 20_000, 1, &Control::new()), Err(SampleError::TooMany { k: 20_000, n: 1000 }));
        let drawn = Drawn::draw(8, 4, 9, &Control::new()).unwrap();
        assert_eq!(
            (drawn.n, drawn.sampler, drawn.seed, drawn.solutions),
            (8, Sampler::Uniform, 9, sample(8, 4, 9).0)
        );
        assert_eq!(draw(MAX_N + 1, 1, 0, &Control::new()), Err(SampleError::TooLarge(MAX_N + 1)));
    }

    #[test]
    fn small_boards_are_drawn_uniformly() {
        // n = 6 has 4 solutions: 8000 draws give each 2000 ± a few standard deviations (sd ≈ 39).
        let (draws, _) = sample(6, 8000, 11);
        let mut seen: HashMap<Placement, u32> = HashMap::new();
        for p in draws {
            *seen.entry(p).or_default() += 1;
        }
        assert_eq!(seen.len(), 4);
        assert!(seen.values().all(|&c| (1800..2200).contains(&c)), "{seen:?}");
    }
}
