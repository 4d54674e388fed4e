//! Small integer-only helpers over the library's generator, so a seed gives the same draws on
//! every machine (no float, no platform-sized integer in a draw).

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::Rng;

/// Most draws [`below`] rejects in a row before it takes the last one as it is.
///
/// A draw is rejected with probability below `m / 2^64`, so a working generator never comes
/// near this (at `m = 2^40`, 16 rejections in a row have a probability of 2^-384): the bound
/// changes no trajectory. It exists for a generator that can never pass, a xoshiro state of
/// all zeros (it only ever yields 0), which a damaged or forged checkpoint could set: the
/// checkpoint reader refuses that state, and this bound makes sure no other way into it can
/// hang a loop that draws.
pub(crate) const MAX_REJECTIONS: u32 = 16;

/// A uniform integer in `0..m` (`m > 0`), by Lemire's multiply-shift with rejection:
/// exactly uniform, and the rejection loop almost never runs (probability `m / 2^64`); it
/// gives up after [`MAX_REJECTIONS`] draws, so it always ends.
#[inline(always)]
pub(crate) fn below(rng: &mut Xoshiro256PlusPlus, m: u64) -> u64 {
    debug_assert!(m > 0);
    // PERF: one 64x64→128 multiply instead of a division per draw.
    let mut p = u128::from(rng.next_u64()) * u128::from(m);
    if (p as u64) < m {
        let floor = m.wrapping_neg() % m;
        let mut tries = 0;
        while (p as u64) < floor && tries < MAX_REJECTIONS {
            p = u128::from(rng.next_u64()) * u128::from(m);
            tries += 1;
        }
    }
    (p >> 64) as u64
}

#[cfg(test)]
mod tests {
    use rand_xoshiro::rand_core::SeedableRng;

    use super::*;

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[below(&mut rng, 7) as usize] += 1;
        }
        assert!(seen.iter().all(|&k| (800..1200).contains(&k)), "{seen:?}");
        assert_eq!(below(&mut rng, 1), 0);
    }

    /// A generator stuck at zero (every draw rejected) still gets an answer in range: a
    /// loop that draws cannot hang on it. (Only the serde form sets such a state.)
    #[cfg(feature = "serde")]
    #[test]
    fn below_ends_on_a_generator_that_only_yields_zero() {
        let mut rng: Xoshiro256PlusPlus = serde_json::from_value(serde_json::json!({ "s": [0, 0, 0, 0] }))
            .expect("the serde form takes any state");
        assert_eq!(rng.next_u64(), 0);
        for m in [3, 7, 1000, u64::MAX] {
            assert!(below(&mut rng, m) < m);
        }
    }
}
