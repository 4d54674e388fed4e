//! Small integer-only helpers over the library's generator, so a seed gives the same draws on
//! every machine (no float, no platform-sized integer in a draw).

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::Rng;

/// A uniform integer in `0..m` (`m > 0`), by Lemire's multiply-shift with rejection:
/// exactly uniform, and the rejection loop almost never runs (probability `m / 2^64`).
#[inline(always)]
pub(crate) fn below(rng: &mut Xoshiro256PlusPlus, m: u64) -> u64 {
    debug_assert!(m > 0);
    // PERF: one 64x64→128 multiply instead of a division per draw.
    let mut p = u128::from(rng.next_u64()) * u128::from(m);
    if (p as u64) < m {
        let floor = m.wrapping_neg() % m;
        while (p as u64) < floor {
            p = u128::from(rng.next_u64()) * u128::from(m);
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
}
