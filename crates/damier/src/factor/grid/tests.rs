use proptest::prelude::*;

use super::*;
use crate::factor::DEFAULT_MAX_STEPS;

/// Composite numbers from 4 to 16 bits: balanced and unbalanced semiprimes, squares of
/// primes, even numbers, numbers with more than two prime factors.
const SMALL: [u64; 14] = [4, 6, 9, 15, 35, 143, 221, 323, 899, 1024, 3599, 10_403, 32_399, 57_599];

/// Semiprimes of 17 to 24 bits: one with two factors of about the same size per size, then
/// a square, a very unbalanced one, and a Carmichael number (three factors).
const LARGE: [u64; 12] = [
    95_939,     // 197 x 487, 17 bits
    235_189,    // 479 x 491, 18 bits
    337_591,    // 439 x 769, 19 bits
    621_781,    // 643 x 967, 20 bits
    1_291_033,  // 739 x 1747, 21 bits
    2_191_597,  // 1439 x 1523, 22 bits
    5_269_871,  // 1621 x 3251, 23 bits
    14_363_581, // 3701 x 3881, 24 bits
    160_801,    // 401 x 401, 18 bits
    12_345_679, // 37 x 333667, 24 bits
    16_777_119, // 3 x 5592373, 24 bits
    294_409,    // 37 x 73 x 109, 19 bits
];

fn composite(n: u64) -> bool {
    n >= 4 && !arith::is_prime(n)
}

fn factors_within_the_default_cap(n: u64, seed: u64) {
    let mut au = FactorAutomaton::new(n, &FactorParams::default(), seed).unwrap();
    assert!(
        au.run_steps(DEFAULT_MAX_STEPS),
        "n = {n}, seed {seed}: not factored in {DEFAULT_MAX_STEPS} steps"
    );
    let (lo, hi) = au.factors().expect("absorbing means factored");
    // Independent check: plain multiplication and the trial-division factor.
    assert_eq!(lo as u128 * hi as u128, n as u128);
    assert!(1 < lo && lo <= hi && hi < n);
    assert_eq!(n % arith::trial_division(n), 0);
}

#[test]
fn small_composites_factor_within_the_default_cap() {
    for (k, &n) in SMALL.iter().enumerate() {
        assert!(composite(n), "{n} is in the list by mistake");
        factors_within_the_default_cap(n, k as u64);
    }
}

/// About 12 s at the tests' opt-level 1 on this 2-core machine: part of the normal run.
#[test]
fn semiprimes_to_24_bits_factor_within_the_default_cap() {
    for (k, &n) in LARGE.iter().enumerate() {
        assert!(composite(n), "{n} is in the list by mistake");
        factors_within_the_default_cap(n, k as u64);
    }
}

#[test]
fn refuses_what_has_no_factorization() {
    let p = FactorParams::default();
    assert_eq!(FactorAutomaton::new(0, &p, 1).unwrap_err(), FactorError::TooSmall(0));
    assert_eq!(FactorAutomaton::new(1, &p, 1).unwrap_err(), FactorError::TooSmall(1));
    for n in [2u64, 3, 5, 7919, u64::MAX - 58] {
        assert_eq!(FactorAutomaton::new(n, &p, 1).unwrap_err(), FactorError::Prime(n));
    }
    assert!(matches!(
        FactorAutomaton::new(15, &FactorParams { q: 0.0, eps: 0.1 }, 1),
        Err(FactorError::Probability { name: "q", .. })
    ));
    assert!(matches!(
        FactorAutomaton::new(15, &FactorParams { q: 0.5, eps: f64::NAN }, 1),
        Err(FactorError::Probability { name: "eps", .. })
    ));
    assert!(matches!(FactorAutomaton::from_border(15, &p, 1, 8, 0), Err(FactorError::Border { .. })));
}

#[test]
fn largest_inputs_build_a_grid() {
    let mut au = FactorAutomaton::new(u64::MAX, &FactorParams::default(), 3).unwrap();
    assert_eq!((au.la(), au.lb(), au.last_column()), (32, 63, 93));
    au.run_steps(100_000);
    au.settle();
    assert!(!au.is_absorbing() || au.factors().is_some());
    // The true field of a correct factorization of 2^64 - 1 = 4294967295 x 4294967297, and
    // of a wrong one.
    let au = settled(u64::MAX, 4_294_967_295, 4_294_967_297);
    assert!(au.is_absorbing());
    assert_eq!(au.factors(), Some((4_294_967_295, 4_294_967_297)));
    assert_eq!(product_from_feet(&au), u64::MAX as u128);
    assert!(!settled(u64::MAX, 4_294_967_295, 4_294_967_299).is_absorbing());
}

fn settled(n: u64, a: u64, b: u64) -> FactorAutomaton {
    let mut au = FactorAutomaton::from_border(n, &FactorParams::default(), 0, a, b).unwrap();
    au.settle();
    au
}

/// The product the feet of a settled grid spell: column bits below the last, then its total.
fn product_from_feet(au: &FactorAutomaton) -> u128 {
    let mut v = 0u128;
    for x in 0..=au.last_column() {
        let i = x.min(au.lb() - 1);
        let t = au.signals(i, x - i).total as u128;
        v += if x == au.last_column() { t << x } else { (t & 1) << x };
    }
    v
}

#[test]
fn same_seed_same_run() {
    let run = |seed| {
        let mut au = FactorAutomaton::new(3599, &FactorParams::default(), seed).unwrap();
        au.run_steps(50_000);
        (au.steps(), au.flips(), au.a(), au.b(), au.is_absorbing())
    };
    assert_eq!(run(9), run(9));
    assert_ne!(run(9), run(10));
}

proptest! {
    /// Every link is a neighbour in the drawing of fig. 9 (Chebyshev distance 1), and the
    /// border cells touch the cell they read.
    #[test]
    fn signals_only_read_neighbours(n in 4u64..u64::MAX) {
        prop_assume!(composite(n));
        let geo = Geometry::new(n);
        let pos = |idx: u32| {
            let l = geo.links[idx as usize];
            (l.i as i64, -(l.x as i64))
        };
        for (idx, l) in geo.links.iter().enumerate() {
            let me = pos(idx as u32);
            for other in [l.row_prev, l.diag_prev, l.above, l.below, l.prev_foot, l.next_foot] {
                if other != NONE {
                    let o = pos(other);
                    prop_assert!((o.0 - me.0).abs() <= 1 && (o.1 - me.1).abs() <= 1, "{idx} -> {other}");
                }
            }
            // A_j sits at row -1 above column j; B_i at row i, one column right of (i, 0).
            if l.diag_prev == NONE { prop_assert_eq!(me, (0, -(l.j as i64))); }
            if l.row_prev == NONE { prop_assert_eq!((me.0, me.1 + 1), (l.i as i64, -(l.i as i64) + 1)); }
        }
    }

    /// Settled signals are the true column sums: the feet spell `a × b`, and the verdicts say
    /// whether it is N.
    #[test]
    fn settled_feet_spell_the_product(n in 4u64..1 << 40, a: u64, b: u64) {
        prop_assume!(composite(n));
        let geo = Geometry::new(n);
        let (a, b) = (a & mask(geo.la), b & mask(geo.lb));
        let au = settled(n, a, b);
        prop_assert_eq!(product_from_feet(&au), a as u128 * b as u128);
        prop_assert_eq!(au.is_absorbing(), a as u128 * b as u128 == n as u128);
        // Wrong: either exactly one column (the lowest wrong one) says LOW, or every column
        // says STUCK. Right: no verdict at all.
        let feet: Vec<u8> = (0..=au.last_column())
            .map(|x| au.signals(x.min(au.lb() - 1), x - x.min(au.lb() - 1)).verdict)
            .collect();
        let lows = feet.iter().filter(|&&v| v & LOW != 0).count();
        let stucks = feet.iter().filter(|&&v| v & STUCK != 0).count();
        if a as u128 * b as u128 != n as u128 {
            prop_assert!((lows == 1 && stucks == 0) || (lows == 0 && stucks == feet.len()), "{lows} {stucks}");
        } else {
            prop_assert_eq!((lows, stucks), (0, 0));
        }
    }

    /// One update changes one cell's signals or one border bit, nothing else; an update of
    /// a settled grid changes no signal.
    #[test]
    fn updates_are_local(seed: u64, warm in 0u64..5000) {
        let mut au = FactorAutomaton::new(57_599, &FactorParams::default(), seed).unwrap();
        au.run_steps(warm);
        if au.is_absorbing() { return Ok(()); }
        let before = au.clone();
        au.step();
        let changed = before.cells.iter().zip(&au.cells).filter(|(x, y)| x != y).count();
        let border = (before.a ^ au.a).count_ones() + (before.b ^ au.b).count_ones();
        prop_assert!(changed + border as usize <= 1, "{changed} cells and {border} bits changed");
        let mut s = au.clone();
        s.settle();
        let again = s.clone();
        for idx in 0..s.cells.len() {
            s.geo.update(&mut s.cells, s.a, s.b, idx);
        }
        prop_assert!(s.cells == again.cells, "a settled grid is a fixed point");
    }

    /// A correct factorization with true signals is absorbing: no update changes anything.
    #[test]
    fn factorizations_are_absorbing(p in 2u64..3000, q in 2u64..3000, seed: u64) {
        let n = p * q;
        let geo = Geometry::new(n);
        let (a, b) = (p.min(q), p.max(q));
        prop_assume!(a <= mask(geo.la) && b <= mask(geo.lb));
        let mut au = settled(n, a, b);
        prop_assert!(au.is_absorbing());
        prop_assert_eq!(au.factors(), Some((a, b)));
        let mut au2 = FactorAutomaton::from_border(n, &FactorParams::default(), seed, a, b).unwrap();
        au2.settle();
        let cells = au2.cells.clone();
        for _ in 0..2000 { au2.step(); }
        prop_assert_eq!((au2.a, au2.b), (a, b));
        prop_assert!(au2.cells == cells);
        au.step();
        prop_assert!(au.is_absorbing());
    }
}
