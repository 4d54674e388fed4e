//! Cross-checks of the three engines, each answer checked by the cell-by-cell simulator.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::press::apply_presses_naive;
use super::*;
use crate::gf2::BitMatrix;

const METHODS: [Method; 3] = [Method::Dense, Method::Chase, Method::Poly];

/// Rank of a set of boards as vectors (to compare kernel spans).
fn rank(boards: &[Board]) -> usize {
    if boards.is_empty() {
        return 0;
    }
    let n = boards[0].width() * boards[0].height();
    let mut m = BitMatrix::zeros(boards.len(), n);
    for (i, b) in boards.iter().enumerate() {
        m.set_row(i, &b.to_bitvec());
    }
    m.rank()
}

/// Solves `start` with every method in `methods` and checks they agree: same nullity, same
/// solvability, every pattern verified by the naive simulator, kernels of the same span, and
/// solutions differing by neutral configurations.
fn check_all(start: &Board, methods: &[Method]) -> Solution {
    let (w, h) = (start.width(), start.height());
    let c = Control::new();
    let sols: Vec<Solution> = methods.iter().map(|&m| solve(start, None, m, &c).unwrap()).collect();
    let kernels: Vec<Vec<Board>> =
        methods.iter().map(|&m| kernel(Size::new(w, h).unwrap(), m, &Control::new()).unwrap()).collect();
    let first = &sols[0];
    for (s, k) in sols.iter().zip(&kernels) {
        assert_eq!(s.nullity, first.nullity, "{w}x{h}: nullity");
        assert_eq!(k.len(), s.nullity, "{w}x{h}: kernel size");
        assert_eq!(s.solvable(), first.solvable(), "{w}x{h}: solvability");
        for v in k {
            assert!(
                apply_presses_naive(&Board::new(Size::new(w, h).unwrap()), v).is_zero(),
                "{w}x{h}: kernel vector not neutral"
            );
        }
        assert_eq!(rank(k), s.nullity, "{w}x{h}: kernel basis not independent");
        if let Some(p) = &s.presses {
            assert!(apply_presses_naive(start, p).is_zero(), "{w}x{h}: presses do not solve");
        }
        // Winnable by orthogonality agrees with solving.
        assert_eq!(winnable_by_orthogonality(start, k), s.solvable(), "{w}x{h}: orthogonality");
    }
    let mut all = kernels[0].clone();
    all.extend(kernels[1..].iter().flatten().cloned());
    assert_eq!(rank(&all), first.nullity, "{w}x{h}: kernels span different spaces");
    if let Some(p0) = &first.presses {
        for s in &sols[1..] {
            let mut d = s.presses.clone().unwrap();
            d.xor_assign(p0);
            assert!(apply_presses_naive(&Board::new(Size::new(w, h).unwrap()), &d).is_zero());
        }
    }
    sols.into_iter().next_back().unwrap()
}

#[test]
fn three_engines_agree_on_every_board_up_to_12x12() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    for w in 1..=12 {
        for h in 1..=12 {
            check_all(&Board::ones(Size::new(w, h).unwrap()), &METHODS);
            check_all(&Board::random(Size::new(w, h).unwrap(), &mut rng), &METHODS);
            // A winnable random start (the image of random presses) must be solved.
            let p = Board::random(Size::new(w, h).unwrap(), &mut rng);
            let b = apply_presses_naive(&Board::new(Size::new(w, h).unwrap()), &p);
            assert!(check_all(&b, &METHODS).solvable());
        }
    }
}

#[test]
fn all_on_is_always_winnable_up_to_30x30() {
    let c = Control::new();
    for w in 1..=30 {
        for h in 1..=30 {
            let on = Board::ones(Size::new(w, h).unwrap());
            let s = solve(&on, None, Method::Poly, &c).unwrap();
            assert!(apply_presses_naive(&on, s.presses.as_ref().expect("all-on is winnable")).is_zero());
        }
    }
}

#[test]
fn seed_examples() {
    // 5x5: nullity 2; 4x4: 4; 3x2 (L = 3, H = 2): 4 solutions; 14x3: 4 solutions.
    assert_eq!(nullity(Size::new(5, 5).unwrap()), 2);
    assert_eq!(nullity(Size::new(4, 4).unwrap()), 4);
    assert_eq!(nullity(Size::new(3, 2).unwrap()), 2);
    assert_eq!(nullity(Size::new(14, 3).unwrap()), 2);
    assert_eq!(nullity(Size::new(3, 14).unwrap()), 2);
    let k = kernel(Size::new(5, 5).unwrap(), Method::Poly, &Control::new()).unwrap();
    assert!(k.iter().all(|v| v.count_ones() % 2 == 0), "neutral configurations have even size");
}

#[test]
fn fewest_presses_matches_brute_force() {
    let c = Control::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for (w, h) in [(4, 4), (5, 5), (3, 2), (4, 3), (5, 3), (2, 2)] {
        let n = w * h;
        let k = kernel(Size::new(w, h).unwrap(), Method::Poly, &Control::new()).unwrap();
        for _ in 0..4 {
            let p = Board::random(Size::new(w, h).unwrap(), &mut rng);
            let b = apply_presses_naive(&Board::new(Size::new(w, h).unwrap()), &p);
            let s = solve(&b, None, Method::Poly, &c).unwrap();
            let f = fewest_presses(s.presses.as_ref().unwrap(), &k, &c).unwrap();
            assert!(f.exact);
            assert!(apply_presses_naive(&b, &f.presses).is_zero());
            // Brute force over every press pattern of the board (Gray code over the cells,
            // each cell's effect from the naive simulator as a bit mask).
            let effect: Vec<u64> = (0..n)
                .map(|i| {
                    let mut q = Board::new(Size::new(w, h).unwrap());
                    q.set(i % w, i / w, true);
                    let e = apply_presses_naive(&Board::new(Size::new(w, h).unwrap()), &q);
                    (0..n).filter(|&j| e.get(j % w, j / w)).map(|j| 1u64 << j).sum()
                })
                .collect();
            let target: u64 = (0..n).filter(|&j| b.get(j % w, j / w)).map(|j| 1u64 << j).sum();
            let (mut state, mut best) = (0u64, if target == 0 { 0 } else { u64::MAX });
            for g in 1u64..(1 << n) {
                state ^= effect[g.trailing_zeros() as usize];
                if state == target {
                    best = best.min(u64::from((g ^ (g >> 1)).count_ones()));
                }
            }
            assert_eq!(f.presses.count_ones(), best, "{w}x{h}");
        }
    }
    let five = solve(&Board::ones(Size::new(5, 5).unwrap()), None, Method::Poly, &c).unwrap();
    let all = all_solutions(
        five.presses.as_ref().unwrap(),
        &kernel(Size::new(5, 5).unwrap(), Method::Poly, &Control::new()).unwrap(),
    )
    .unwrap();
    assert_eq!(all.len(), 4);
    assert!(all.iter().all(|p| apply_presses_naive(&Board::ones(Size::new(5, 5).unwrap()), p).is_zero()));
}

#[test]
fn fewest_and_all_solutions_to_a_target_are_verified_with_every_engine() {
    let c = Control::new();
    let size = Size::new(4, 4).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let start = Board::random(size, &mut rng);
    // 4x4 has nullity 4: a target reachable from the start, as the start plus an effect.
    let mut target = start.clone();
    target.xor_assign(&apply_presses(&Board::new(size), &Board::random(size, &mut rng)));
    for method in [Method::Dense, Method::Chase, Method::Poly] {
        let one = solve(&start, Some(&target), method, &c).unwrap().presses.unwrap();
        let all = solve_all(&start, Some(&target), &one, method).unwrap();
        assert_eq!(all.len(), 16, "{method:?}");
        assert!(all.iter().all(|p| apply_presses_naive(&start, p) == target), "{method:?}");
        let fewest = solve_fewest(&start, Some(&target), &one, method, &c).unwrap();
        assert!(fewest.exact && apply_presses_naive(&start, &fewest.presses) == target);
        assert_eq!(fewest.presses.count_ones(), all.iter().map(Board::count_ones).min().unwrap());
        // A pattern that is not a solution is refused, not passed on.
        let mut wrong = one.clone();
        wrong.set(0, 0, !wrong.get(0, 0));
        assert_eq!(solve_all(&start, Some(&target), &wrong, method), Err(LightsError::Unverified(method)));
        assert!(matches!(
            solve_fewest(&start, Some(&target), &wrong, method, &c),
            Err(LightsError::Unverified(m)) if m == method
        ));
    }
}

#[test]
fn heuristic_fewest_is_a_solution_and_labelled() {
    // 39x39 has nullity 32 > EXACT_MAX_NULLITY: the heuristic runs and says so.
    let c = Control::new();
    let on = Board::ones(Size::new(39, 39).unwrap());
    let s = solve(&on, None, Method::Poly, &c).unwrap();
    let k = kernel(Size::new(39, 39).unwrap(), Method::Poly, &Control::new()).unwrap();
    assert_eq!(k.len(), 32);
    let f = fewest_presses(s.presses.as_ref().unwrap(), &k, &c).unwrap();
    assert!(!f.exact);
    assert!(apply_presses_naive(&on, &f.presses).is_zero());
    assert!(f.presses.count_ones() <= s.presses.unwrap().count_ones());
    assert!(matches!(all_solutions(&f.presses, &k), Err(LightsError::TooManySolutions { .. })));
}

#[test]
fn powers_of_two_in_decimal() {
    for k in 0..128 {
        assert_eq!(power_of_two_decimal(k), (1u128 << k).to_string());
    }
    assert_eq!(power_of_two_decimal(130), "1361129467683753853853498429727072845824");
    for k in 0..128 {
        assert_eq!(power_of_two_minus_one_decimal(k), ((1u128 << k) - 1).to_string());
    }
    assert_eq!(power_of_two_minus_one_decimal(130), "1361129467683753853853498429727072845823");
    assert_eq!(power_of_two_decimal(200), "1606938044258990275541962092341162602522202993782792835301376");
}

#[test]
fn wide_boards_are_transposed_consistently() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for (w, h) in [(40, 3), (70, 2), (129, 5), (1000, 3), (300, 1)] {
        let b = Board::random(Size::new(w, h).unwrap(), &mut rng);
        check_all(&b, &[Method::Chase, Method::Poly]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn chase_and_poly_agree_up_to_60x60(w in 1usize..=60, h in 1usize..=60, seed in any::<u64>(), winnable in any::<bool>()) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut b = Board::random(Size::new(w, h).unwrap(), &mut rng);
        if winnable {
            b = apply_presses_naive(&Board::new(Size::new(w, h).unwrap()), &b);
        }
        let s = check_all(&b, &[Method::Chase, Method::Poly]);
        prop_assert!(!winnable || s.solvable());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5))]
    #[test]
    fn dense_agrees_on_random_boards_up_to_60x60(w in 30usize..=60, h in 30usize..=60, seed in any::<u64>()) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let b = Board::random(Size::new(w, h).unwrap(), &mut rng);
        let c = Control::new();
        let dense = solve(&b, None, Method::Dense, &c).unwrap();
        let poly = solve(&b, None, Method::Poly, &c).unwrap();
        prop_assert_eq!(dense.nullity, poly.nullity);
        prop_assert_eq!(dense.solvable(), poly.solvable());
        for p in [&dense.presses, &poly.presses].into_iter().flatten() {
            prop_assert!(apply_presses_naive(&b, p).is_zero());
        }
    }
}

#[test]
fn listings_and_kernels_are_bounded_from_the_size_alone() {
    let size = |w, h| Size::new(w, h).unwrap();
    // 1991x1991: 2^14 solutions of 3964081 cells, refused (it was built, 5.8 GB, then refused).
    assert!(matches!(
        check_listing_of_size(size(1991, 1991)),
        Err(LightsError::TooManySolutions { nullity: 14, cells: 3_964_081, .. })
    ));
    assert_eq!(check_listing_of_size(size(5, 5)), Ok(2));
    // 2^k · cells against ALL_MAX_CELLS, k against ALL_MAX_NULLITY, without overflow.
    assert!(check_listing(size(100, 100), 9).is_ok());
    assert!(check_listing(size(100, 100), 10).is_err());
    assert!(check_listing(size(1, 1), ALL_MAX_NULLITY).is_ok());
    assert!(check_listing(size(1, 1), ALL_MAX_NULLITY + 1).is_err());
    assert!(check_listing(size(1, 1), usize::MAX).is_err());
    let on = Board::ones(size(1991, 1991));
    let one = Board::new(size(1991, 1991));
    assert!(matches!(solve_all(&on, None, &one, Method::Poly), Err(LightsError::TooManySolutions { .. })));
    // A kernel of 2072 boards of 4096x4096 would hold 4.3 GB: refused, before it is computed.
    assert!(check_kernel(size(4096, 4096), 2072).is_err());
    // 511 boards and the zero board they are chased on: 1 GiB, the limit.
    assert!(check_kernel(size(4096, 4096), 511).is_ok());
    assert!(check_kernel(size(4096, 4096), 512).is_err());
    assert!(check_kernel(size(1, 1), usize::MAX).is_err());
}

#[test]
fn the_memory_of_a_solve_counts_every_board_and_the_transpose() {
    let size = |w, h| Size::new(w, h).unwrap();
    // Start, working copy (and target): each row in whole words.
    assert_eq!(solve_bytes(size(64, 10), false, Method::Poly), Ok(2 * 80));
    assert_eq!(solve_bytes(size(65, 10), true, Method::Poly), Ok(3 * 160));
    // Issue 49: 131072x131072 passed the 2 GiB-a-board check and then asked for 2 GiB more.
    assert_eq!(solve_bytes(size(131_072, 131_072), false, Method::Poly), Ok(4 << 30));
    // The chase engine works on the transpose of a wide board: counted.
    assert_eq!(solve_bytes(size(200, 3), false, Method::Chase), Ok(2 * 3 * 32 + 200 * 8));
    assert_eq!(solve_bytes(size(200, 3), false, Method::Poly), Ok(2 * 3 * 32));
    // A transpose past the largest board is refused, not allocated (8 GB and 128 GiB).
    for s in [size(1_000_000_000, 2), size(1 << 34, 1)] {
        assert_eq!(solve_bytes(s, false, Method::Poly), Err(LightsError::TransposeTooLarge { size: s }));
    }
    let message = LightsError::TransposeTooLarge { size: size(1_000_000_000, 2) }.to_string();
    assert!(message.contains("2x1000000000, which would hold 7.45 GB"), "{message}");
    assert!(message.contains("at most 2 GB a board"), "{message}");
    // A wide board solved on its transpose still solves: the lights come back in place.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let b = Board::random(size(300, 2), &mut rng);
    for method in [Method::Chase, Method::Poly] {
        let s = solve(&b, None, method, &Control::new()).unwrap();
        if let Some(p) = &s.presses {
            assert!(apply_presses_naive(&b, p).is_zero());
        }
    }
}

/// Issue 49: a random winnable start is drawn on three boards, and `lights winnable` holds the
/// start, the presses, the lights to change and the basis after its solve: both counted by
/// the one bound each front end calls, and their boards allocated without aborting.
#[test]
fn the_memory_of_a_winnable_draw_and_of_the_winnability_test_is_counted() {
    use super::request::{SolveRequest, Start};
    let size = |w, h| Size::new(w, h).unwrap();
    let s = size(20_000, 20_000);
    let board = s.bytes();
    let request =
        SolveRequest { method: Method::Poly, target: false, all: false, min: false, explain: false };
    assert_eq!(request.check_start(&Start::AllOn(s)), Ok(2 * board));
    assert_eq!(request.check_start(&Start::Random { size: s, seed: 1, winnable: false }), Ok(2 * board));
    assert_eq!(request.check_start(&Start::Random { size: s, seed: 1, winnable: true }), Ok(3 * board));
    // 20000x20000 has nullity 0: no basis, not even the board it is chased on.
    assert_eq!(winnable_bytes(s, false), Ok(3 * board));
    assert_eq!(winnable_bytes(s, true), Ok(4 * board));
    // 5x5, nullity 2: the basis and the board it is chased on.
    let five = size(5, 5);
    assert_eq!(winnable_bytes(five, false), Ok(3 * five.bytes() + kernel_bits(five, 2) / 8));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let drawn = game::LightsState::try_random_winnable(five, &mut rng).unwrap();
    assert!(!drawn.is_zero() && solve(&drawn, None, Method::Poly, &Control::new()).unwrap().solvable());
    assert_eq!(try_apply_presses(&drawn, &Board::new(five)).unwrap(), drawn);
}

#[test]
fn a_kernel_counts_its_transposes_and_skips_an_empty_one() {
    let size = |w, h| Size::new(w, h).unwrap();
    // 134217729x4 has nullity 4: 4 boards of 64 MB and their transposes, 1 GB each.
    let wide = size(134_217_729, 4);
    assert!(kernel_bits(wide, 4) / 8 > 5 << 30);
    assert!(matches!(check_kernel(wide, 4), Err(LightsError::KernelTooLarge { nullity: 4, .. })));
    // Issue 49: 10^9 x 2 has nullity 0; its transpose (8 GB) is never made.
    assert_eq!(kernel(size(1_000_000_000, 2), Method::Poly, &Control::new()), Ok(Vec::new()));
    // A wide board's basis, found on the transpose, is neutral on the board.
    let basis = kernel(size(9, 4), Method::Poly, &Control::new()).unwrap();
    assert_eq!(basis.len(), 4);
    assert!(basis.iter().all(|v| v.size() == size(9, 4) && verify(&Board::new(v.size()), None, v)));
}

#[test]
fn a_kernel_is_bounded_before_it_is_computed_and_stops_when_cancelled() {
    let size = |w, h| Size::new(w, h).unwrap();
    // 4096x4096 has nullity 2072: 2072 boards of 16 M cells, refused at once.
    assert!(matches!(
        kernel(size(4096, 4096), Method::Poly, &Control::new()),
        Err(LightsError::KernelTooLarge { nullity: 2072, .. })
    ));
    let cancelled = Control::new();
    cancelled.cancel();
    // 5x5 has nullity 2: the control is polled before each basis vector is chased.
    assert!(matches!(kernel(size(5, 5), Method::Poly, &cancelled), Err(LightsError::Interrupted(_))));
    assert_eq!(kernel(size(5, 5), Method::Poly, &Control::new()).unwrap().len(), 2);
}
