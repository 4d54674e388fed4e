//! The rules on hand-made positions, against a slow reference written from the automaton report's
//! formulas, and invariants under random runs.

use proptest::prelude::*;

use super::*;
use crate::automaton::dir::{NAMES, delta};
use crate::automaton::row::Rule;

/// Reference state: plain counts and signal booleans, `(x, y)` addressing.
#[derive(Clone, Debug, PartialEq)]
struct Ref {
    n: usize,
    count: Vec<u32>,
    sig: Vec<[bool; 8]>,
}

impl Ref {
    fn of(a: &Automaton) -> Ref {
        let n = a.n() as usize;
        Ref {
            n,
            count: a.counts(),
            sig: (0..n * n).map(|i| std::array::from_fn(|d| a.signals(i % n, i / n) >> d & 1 == 1)).collect(),
        }
    }
    fn at(&self, c: (usize, usize)) -> usize {
        c.1 * self.n + c.0
    }
    fn safestay(&self, c: (usize, usize)) -> bool {
        let i = self.at(c);
        self.count[i] <= 1 && self.sig[i].iter().all(|&s| !s)
    }
    fn safego(&self, c: (usize, usize), from: usize) -> bool {
        let i = self.at(c);
        self.count[i] == 0 && (0..8).all(|d| d == from || !self.sig[i][d])
    }
    /// MOVE with ε in {0, 1}: `None` if it would need a random draw with 0 < ε < 1.
    fn move_(&self, from: (usize, usize), to: (usize, usize), eps: f64) -> bool {
        if self.count[self.at(from)] == 0 || self.safestay(from) {
            return false;
        }
        if self.safego(to, delta(from, to).unwrap()) {
            return true;
        }
        eps == 1.0
    }
    /// s^{c'}_{c, d} for d = δ(c', c), on this configuration.
    fn signal_from(&self, c: (usize, usize), other: (usize, usize)) -> bool {
        let d = delta(other, c).unwrap();
        self.count[self.at(other)] >= 1 || self.sig[self.at(other)][d]
    }
    fn pair_step(&self, c1: (usize, usize), c2: (usize, usize), eps: f64) -> Ref {
        let mut x = self.clone();
        let (m12, m21) = (self.move_(c1, c2, eps), self.move_(c2, c1, eps));
        let (i1, i2) = (x.at(c1), x.at(c2));
        if m12 && !m21 {
            x.count[i1] -= 1;
            x.count[i2] += 1;
        } else if m21 && !m12 {
            x.count[i2] -= 1;
            x.count[i1] += 1;
        }
        let mut y = x.clone();
        let (i1, i2) = (y.at(c1), y.at(c2));
        y.sig[i1][delta(c2, c1).unwrap()] = x.signal_from(c1, c2);
        y.sig[i2][delta(c1, c2).unwrap()] = x.signal_from(c2, c1);
        y
    }
    fn neighbours(&self, c: (usize, usize)) -> Vec<(usize, usize)> {
        DIRECTIONS
            .iter()
            .filter_map(|&(dx, dy)| {
                let (u, v) = (c.0 as i32 + dx, c.1 as i32 + dy);
                let n = self.n as i32;
                ((0..n).contains(&u) && (0..n).contains(&v)).then_some((u as usize, v as usize))
            })
            .collect()
    }
    /// Model 2 on `c` with ε ∈ {0, 1}: the signals, then every possible outcome of the move
    /// (one per allowed destination, or staying).
    fn cell_outcomes(&self, c: (usize, usize), eps: f64, eta: f64) -> Vec<Ref> {
        let mut x = self.clone();
        let i = x.at(c);
        x.sig[i] = [false; 8];
        for o in self.neighbours(c) {
            x.sig[i][delta(o, c).unwrap()] = self.signal_from(c, o);
        }
        if x.count[i] == 0 || x.safestay(c) {
            return vec![x];
        }
        let omega = |o: (usize, usize)| {
            let j = x.at(o);
            if x.count[j] > 0 { u32::MAX } else { x.sig[j].iter().filter(|&&s| s).count() as u32 }
        };
        let vs = x.neighbours(c);
        let best = vs.iter().map(|&o| omega(o)).min();
        let mut dests: Vec<(usize, usize)> = Vec::new();
        if eta > 0.0 {
            dests.extend(&vs);
        }
        if eta < 1.0 {
            dests.extend(vs.iter().filter(|&&o| Some(omega(o)) == best));
        }
        let mut out = Vec::new();
        for to in dests {
            let mut y = x.clone();
            if x.move_(c, to, eps) {
                y.count[i] -= 1;
                let j = y.at(to);
                y.count[j] += 1;
            }
            out.push(y);
        }
        if out.is_empty() {
            out.push(x);
        }
        out
    }
}

fn params(model: Model, n: usize, eps: f64, eta: f64) -> Params {
    Params { model, n: n as u32, eps, eta }
}

fn with_signals(a: &mut Automaton, x: usize, y: usize, sig: u8) {
    let c = a.idx(x, y);
    a.set_signals(c, u32::from(sig));
}

fn bit(name: &str) -> u8 {
    1 << NAMES.iter().position(|&m| m == name).unwrap()
}

fn pair_index(n: usize, p: (usize, usize), q: (usize, usize)) -> usize {
    (0..pairs::count(n as u32))
        .find(|&k| {
            let (a, b) = pairs::pair(n as u32, k);
            (a, b) == (p, q) || (a, b) == (q, p)
        })
        .unwrap()
}

/// The automaton report's fig. 2: the queen at 1, threatened from the north, moves to 2, a safe cell east of
/// it; then 1 gets a signal from the east.
#[test]
fn figure2_move_to_a_safe_cell() {
    let n = 4;
    let mut counts = vec![0; 16];
    counts[5] = 1; // (1, 1)
    counts[1] = 1; // (1, 0), north of it
    counts[15] = 1;
    counts[8] = 1;
    let mut a =
        Automaton::from_position(&params(Model::Pair, n, 0.0, 0.0), &counts, StartSignals::None, 1).unwrap();
    with_signals(&mut a, 1, 1, bit("N"));
    let k = pair_index(n, (1, 1), (2, 1));
    assert!(a.update_pair(k));
    assert_eq!((a.count(1, 1), a.count(2, 1)), (0, 1));
    assert_eq!(a.signals(1, 1), bit("N") | bit("E"));
    // The queen now at 2 has its west bit from 1: 1 holds no queen and no west signal.
    assert_eq!(a.signals(2, 1) & bit("W"), 0);
}

/// SAFESTAY: a lone queen with no signal never moves, even with ε = 1.
#[test]
fn safestay_keeps_a_queen() {
    let counts = [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0];
    let mut a =
        Automaton::from_position(&params(Model::Pair, 5, 1.0, 0.0), &counts, StartSignals::None, 1).unwrap();
    let k = pair_index(5, (4, 0), (3, 0));
    a.update_pair(k);
    assert_eq!(a.count(4, 0), 1);
    // Two queens on one cell: not SAFESTAY, one leaves to the safe empty neighbour.
    let mut counts2 = [0u32; 25];
    counts2[12] = 2;
    counts2[0] = 1;
    counts2[24] = 1;
    counts2[4] = 1;
    let mut b =
        Automaton::from_position(&params(Model::Pair, 5, 0.0, 0.0), &counts2, StartSignals::None, 1).unwrap();
    assert!(b.update_pair(pair_index(5, (2, 2), (2, 3))));
    assert_eq!((b.count(2, 2), b.count(2, 3)), (1, 1));
}

/// SAFEGO ignores the signal coming from the mover's direction, and only that one.
#[test]
fn safego_ignores_only_the_movers_direction() {
    let mut counts = [0u32; 25];
    counts[12] = 1; // (2, 2)
    counts[0] = 1;
    counts[9] = 1;
    counts[21] = 1;
    counts[18] = 1;
    let p = params(Model::Pair, 5, 0.0, 0.0);
    let mut a = Automaton::from_position(&p, &counts, StartSignals::None, 1).unwrap();
    with_signals(&mut a, 2, 2, bit("S"));
    // Destination (3, 2) east of the mover: a signal from W (the mover's side) is fine.
    with_signals(&mut a, 3, 2, bit("W"));
    let mut b = a.clone();
    assert!(a.update_pair(pair_index(5, (2, 2), (3, 2))));
    // A signal from N at the destination makes it dangerous: with ε = 0 nothing moves.
    with_signals(&mut b, 3, 2, bit("W") | bit("N"));
    assert!(!b.update_pair(pair_index(5, (2, 2), (3, 2))));
}

/// Erratum: an empty cell never moves a queen, even with ε = 1; and when both cells want to
/// move (both threatened, ε = 1), nothing moves.
#[test]
fn move_erratum_and_simultaneous_moves() {
    let mut counts = [0u32; 16];
    counts[0] = 2;
    counts[5] = 1;
    counts[10] = 1;
    let p = params(Model::Pair, 4, 1.0, 0.0);
    let mut a = Automaton::from_position(&p, &counts, StartSignals::True, 1).unwrap();
    // (0, 0) holds two queens, (1, 1) one threatened queen: both MOVE = 1 → no move.
    assert!(!a.update_pair(pair_index(4, (0, 0), (1, 1))));
    assert_eq!((a.count(0, 0), a.count(1, 1)), (2, 1));
    // (3, 3) is empty: MOVE((3, 3), (2, 2)) = 0 although ε = 1; the queen of (2, 2) moves.
    assert!(a.update_pair(pair_index(4, (3, 3), (2, 2))));
    assert_eq!((a.count(3, 3), a.count(2, 2)), (1, 0));
}

/// The signal rule: relay of a far signal, disappearance, and no memory.
#[test]
fn signal_relay_and_disappearance() {
    let mut counts = [0u32; 16];
    counts[0] = 1;
    counts[7] = 1;
    counts[9] = 1;
    counts[14] = 1;
    let p = params(Model::Pair, 4, 0.0, 0.0);
    let mut a = Automaton::from_position(&p, &counts, StartSignals::None, 1).unwrap();
    // Fig. 3: (2, 0) has a signal from the west; the pair (2, 0)-(3, 0) relays it to (3, 0).
    with_signals(&mut a, 2, 0, bit("W"));
    a.update_pair(pair_index(4, (2, 0), (3, 0)));
    assert_eq!(a.signals(3, 0) & bit("W"), bit("W"));
    // Fig. 4: (2, 0) believes in a queen to the east; (3, 0) is empty with no east signal.
    with_signals(&mut a, 2, 0, bit("E") | bit("W"));
    a.update_pair(pair_index(4, (2, 0), (3, 0)));
    assert_eq!(a.signals(2, 0), bit("W"));
}

/// Model 2 picks among the least-ω neighbours and recomputes all 8 signals.
#[test]
fn model2_goes_to_the_least_signalled_neighbour() {
    let mut counts = [0u32; 25];
    counts[12] = 1; // (2, 2)
    counts[2] = 1; // (2, 0): threatens it from the north
    counts[5] = 1;
    counts[19] = 1;
    counts[23] = 1;
    let p = params(Model::Cell, 5, 0.0, 0.0);
    let a0 = Automaton::from_position(&p, &counts, StartSignals::True, 1).unwrap();
    let r = Ref::of(&a0);
    let c = (2, 2);
    let outcomes = r.cell_outcomes(c, 0.0, 0.0);
    for seed in 0..20 {
        let mut a = Automaton::from_position(&p, &counts, StartSignals::True, seed).unwrap();
        let idx = a.idx(2, 2);
        a.update_cell(idx);
        assert!(outcomes.contains(&Ref::of(&a)), "seed {seed}");
    }
}

fn arb_state(model: Model) -> impl Strategy<Value = (usize, Vec<u32>, Vec<u8>, f64, f64, u64)> {
    (2usize..=6).prop_flat_map(move |n| {
        (
            Just(n),
            proptest::collection::vec(0usize..n * n, n),
            proptest::collection::vec(any::<u8>(), n * n),
            prop_oneof![Just(0.0), Just(1.0)],
            if model == Model::Cell { prop_oneof![Just(0.0), Just(1.0)].boxed() } else { Just(0.0).boxed() },
            any::<u64>(),
        )
            .prop_map(move |(n, cells, sig, eps, eta, seed)| {
                let mut counts = vec![0u32; n * n];
                for c in cells {
                    counts[c] += 1;
                }
                (n, counts, sig, eps, eta, seed)
            })
    })
}

fn build(model: Model, n: usize, counts: &[u32], sig: &[u8], eps: f64, eta: f64, seed: u64) -> Automaton {
    let mut a =
        Automaton::from_position(&params(model, n, eps, eta), counts, StartSignals::None, seed).unwrap();
    for (i, &s) in sig.iter().enumerate() {
        with_signals(&mut a, i % n, i / n, s);
    }
    a
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Model 1's fast update equals the automaton report's formulas on any state and any pair.
    #[test]
    fn pair_update_matches_the_reference((n, counts, sig, eps, _eta, seed) in arb_state(Model::Pair), k in any::<prop::sample::Index>()) {
        let mut a = build(Model::Pair, n, &counts, &sig, eps, 0.0, seed);
        let r = Ref::of(&a);
        let k = k.index(pairs::count(n as u32));
        let (c1, c2) = pairs::pair(n as u32, k);
        a.update_pair(k);
        prop_assert_eq!(Ref::of(&a), r.pair_step(c1, c2, eps));
    }

    /// Model 2's fast update is one of the outcomes the automaton report allows.
    #[test]
    fn cell_update_matches_the_reference((n, counts, sig, eps, eta, seed) in arb_state(Model::Cell), k in any::<prop::sample::Index>()) {
        let mut a = build(Model::Cell, n, &counts, &sig, eps, eta, seed);
        let r = Ref::of(&a);
        let k = k.index(n * n);
        a.update_cell(a.cells[k] as usize);
        prop_assert!(r.cell_outcomes((k % n, k / n), eps, eta).contains(&Ref::of(&a)));
    }

    /// The emitted bits gathered around a cell (vector and scalar versions) are model 2's new
    /// signals by the automaton report's formula, and every cell's emitted byte stays in step along a run.
    #[test]
    fn gathered_emits_are_the_signal_rule((n, counts, sig, eps, eta, seed) in arb_state(Model::Cell), steps in 0usize..300) {
        let mut a = build(Model::Cell, n, &counts, &sig, eps, eta, seed);
        for _ in 0..steps {
            a.step();
        }
        let r = Ref::of(&a);
        for y in 0..n {
            for x in 0..n {
                let c = a.idx(x, y);
                let w = a.st[c];
                prop_assert_eq!(w, with_emit(w), "emitted byte of ({}, {})", x, y);
                // SAFETY: c is a board cell of the padded array.
                let (fast, slow) = unsafe { (gather_emit(a.st.as_ptr(), c, a.w), gather_emit_scalar(a.st.as_ptr(), c, a.w)) };
                prop_assert_eq!(fast, slow);
                let want = r.neighbours((x, y)).iter().fold(0u32, |acc, &o| {
                    let d = delta(o, (x, y)).unwrap();
                    acc | u32::from(r.signal_from((x, y), o)) << d
                });
                prop_assert_eq!(fast >> EMIT_SHIFT, want, "signals of ({}, {})", x, y);
            }
        }
    }

    /// Invariants along random runs: queens conserved, the O(1) solution flag equals a
    /// direct check, and a queen on a SAFESTAY cell never leaves it.
    #[test]
    fn invariants_under_random_runs(n in 1usize..=7, seed in any::<u64>(), cell in any::<bool>(), eps in prop_oneof![Just(0.01), Just(0.5)]) {
        let model = if cell { Model::Cell } else { Model::Pair };
        let mut a = Automaton::from_seed(&params(model, n, eps, 0.1), seed).unwrap();
        for _ in 0..1500 {
            let before = Ref::of(&a);
            // Model 1 reads the signals as they are: SAFESTAY alone keeps a queen. Model 2
            // first recomputes the cell's signals, so it needs them true around it.
            let keeps = model == Model::Pair || a.is_absorbing();
            a.step();
            let after = Ref::of(&a);
            prop_assert_eq!(after.count.iter().sum::<u32>(), n as u32);
            for y in 0..n {
                for x in 0..n {
                    if keeps && before.safestay((x, y)) && before.count[before.at((x, y))] == 1 {
                        prop_assert!(after.count[after.at((x, y))] >= 1);
                    }
                }
            }
            let direct = direct_solution(n, &after.count);
            prop_assert_eq!(a.is_solution(), direct);
        }
    }
}

fn direct_solution(n: usize, count: &[u32]) -> bool {
    let queens: Vec<(i64, i64)> = (0..n * n)
        .flat_map(|i| std::iter::repeat_n(((i % n) as i64, (i / n) as i64), count[i] as usize))
        .collect();
    queens.len() == n
        && queens.iter().enumerate().all(|(i, a)| {
            queens[i + 1..].iter().all(|b| a.0 != b.0 && a.1 != b.1 && (a.0 - b.0).abs() != (a.1 - b.1).abs())
        })
}

/// With the queens frozen, the signal rules alone converge to the true field.
#[test]
fn frozen_queens_signals_converge() {
    for (model, seed) in [(Model::Pair, 1u64), (Model::Cell, 2), (Model::Pair, 3), (Model::Cell, 4)] {
        let n = 7;
        let mut a = Automaton::from_seed(&params(model, n, 0.0, 0.0), seed).unwrap();
        // Start from garbage signals.
        for i in 0..n * n {
            // Only in-board directions: model 1 never touches a bit pointing off the board.
            let c = a.idx(i % n, i / n);
            let garbage = (i * 37 % 256) as u8 & a.inboard[c];
            with_signals(&mut a, i % n, i / n, garbage);
        }
        for _ in 0..400_000 {
            match model {
                Model::Pair => {
                    let k = a.below(a.pairs.len() as u64) as usize;
                    let (c, b, bit, _) = pair_cells(a.pairs[k]);
                    a.pair_signals(c, b, bit.trailing_zeros() as usize);
                }
                Model::Cell => {
                    let k = a.below((n * n) as u64) as usize;
                    a.cell_signals(a.cells[k] as usize);
                }
                Model::Row => unreachable!("models 1 and 2 only"),
            }
        }
        assert!(a.is_absorbing(), "{model} seed {seed}");
    }
}

/// The pair choice is uniform: a chi-square test on 1000 draws per pair, fixed seed, wide band.
#[test]
fn pair_choice_is_uniform() {
    let n = 8;
    let m = pairs::count(n as u32);
    let mut a = Automaton::from_seed(&params(Model::Pair, n, 0.01, 0.0), 12345).unwrap();
    let mut hits = vec![0u64; m];
    let draws = 1000 * m as u64;
    for _ in 0..draws {
        hits[a.below(m as u64) as usize] += 1;
    }
    let e = draws as f64 / m as f64;
    let chi2: f64 = hits.iter().map(|&h| (h as f64 - e).powi(2) / e).sum();
    let dof = (m - 1) as f64;
    // Mean dof, standard deviation sqrt(2 dof): 8 standard deviations either way.
    assert!((chi2 - dof).abs() < 8.0 * (2.0 * dof).sqrt(), "chi2 = {chi2}, dof = {dof}");
}

/// The initial placement is uniform over the cells, queens independent (may share a cell).
#[test]
fn initial_queens_are_uniform() {
    let n = 5;
    let mut hits = [0u64; 25];
    let mut shared = 0;
    for seed in 0..4000 {
        let a = Automaton::from_seed(&params(Model::Pair, n, 0.01, 0.0), seed).unwrap();
        let c = a.counts();
        assert_eq!(c.iter().sum::<u32>(), 5);
        shared += u64::from(c.iter().any(|&k| k > 1));
        for (i, &k) in c.iter().enumerate() {
            hits[i] += u64::from(k);
        }
        assert_eq!(a.signals(0, 0), 0);
    }
    let e = 4000.0 * 5.0 / 25.0;
    let chi2: f64 = hits.iter().map(|&h| (h as f64 - e).powi(2) / e).sum();
    assert!(chi2 < 24.0 + 8.0 * 48f64.sqrt(), "chi2 = {chi2}");
    // P(some cell shared) = 1 - 25·24·23·22·21/25^5 ≈ 0.3376.
    let p = shared as f64 / 4000.0;
    assert!((p - 0.3376).abs() < 0.05, "shared fraction {p}");
}

#[test]
fn bad_parameters_are_refused() {
    for (n, eps, eta) in
        [(0, 0.1, 0.1), (MAX_PLUS, 0.1, 0.1), (4, -0.1, 0.1), (4, 0.1, 1.5), (4, f64::NAN, 0.1)]
    {
        assert!(Automaton::from_seed(&params(Model::Pair, n, eps, eta), 0).is_err());
    }
    let p = params(Model::Pair, 3, 0.1, 0.1);
    assert!(matches!(
        Automaton::from_position(&p, &[1, 1, 0, 0], StartSignals::None, 0),
        Err(AutomatonError::PositionSize { .. })
    ));
    assert!(matches!(
        Automaton::from_position(&p, &[1, 1, 0, 0, 0, 0, 0, 0, 0], StartSignals::None, 0),
        Err(AutomatonError::QueenCount { .. })
    ));
}

const MAX_PLUS: usize = crate::automaton::MAX_N as usize + 1;

#[test]
fn tiny_boards() {
    // n = 1: one queen, already a solution, absorbing.
    let mut a = Automaton::from_seed(&params(Model::Pair, 1, 0.01, 0.0), 0).unwrap();
    assert!(a.is_solution() && a.is_absorbing());
    assert_eq!(a.placement().map(Placement::into_columns), Some(vec![0]));
    assert!(!a.step());
    let mut b = Automaton::from_seed(&params(Model::Cell, 1, 0.01, 0.5), 0).unwrap();
    assert!(!b.step());
    // n = 2 and 3 have no solution: runs only stop at the cap.
    let mut c = Automaton::from_seed(&params(Model::Cell, 3, 0.5, 0.5), 0).unwrap();
    assert!(!c.run_steps(10_000));
    assert_eq!(c.steps(), 10_000);
}

/// A solution with true signals is absorbing: nothing moves again, in either model.
#[test]
fn absorbing_solutions_never_move() {
    for model in [Model::Pair, Model::Cell] {
        for seed in 0..4 {
            let mut a = Automaton::from_seed(&params(model, 6, 0.3, 0.3), seed).unwrap();
            assert!(a.run_steps(50_000_000));
            a.set_true_signals();
            assert!(a.is_absorbing());
            let (moves, counts) = (a.moves(), a.counts());
            for _ in 0..100_000 {
                a.step();
            }
            assert_eq!((a.moves(), a.counts()), (moves, counts));
            assert!(a.is_absorbing());
        }
    }
}

#[test]
fn placement_is_the_permutation_of_the_queens() {
    let p = params(Model::Pair, 4, 0.01, 0.0);
    let at = |cols: &[usize]| {
        let mut counts = vec![0u32; 16];
        for (y, &x) in cols.iter().enumerate() {
            counts[y * 4 + x] += 1;
        }
        Automaton::from_position(&p, &counts, StartSignals::None, 0).unwrap()
    };
    // A solution, and a permutation whose queens share diagonals: both one per row and column.
    let solved = at(&[1, 3, 0, 2]);
    assert!(solved.is_solution());
    let placement = solved.placement().unwrap();
    assert_eq!(placement.columns(), &[1, 3, 0, 2]);
    assert!(placement.is_valid());
    let diagonal = at(&[0, 1, 2, 3]);
    assert!(!diagonal.is_solution());
    let placement = diagonal.placement().unwrap();
    assert_eq!(placement.columns(), &[0, 1, 2, 3]);
    assert!(!placement.is_valid());
    // Two queens in one column, two on one cell (then a row without a queen): no permutation.
    assert_eq!(at(&[0, 0, 2, 3]).placement(), None);
    assert_eq!(at(&[0, 2, 3, 3]).placement(), None);
    let mut counts = vec![0u32; 16];
    counts[0] = 2;
    counts[6] = 1;
    counts[11] = 1;
    assert_eq!(Automaton::from_position(&p, &counts, StartSignals::None, 0).unwrap().placement(), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Against the obvious reading of the board: `Some` exactly when every row and every
    /// column holds one queen, with each row's column.
    #[test]
    fn placement_matches_a_scan_of_the_board(n in 1usize..=7, seed in any::<u64>(), steps in 0u64..200) {
        let mut a = Automaton::from_seed(&params(Model::Cell, n, 0.3, 0.3), seed).unwrap();
        a.run_steps(steps);
        let row = |y: usize| (0..n).map(|x| a.count(x, y)).sum::<u32>();
        let col = |x: usize| (0..n).map(|y| a.count(x, y)).sum::<u32>();
        let permutation = (0..n).all(|i| row(i) == 1 && col(i) == 1);
        let want = permutation
            .then(|| (0..n).map(|y| (0..n).position(|x| a.count(x, y) == 1).unwrap() as u32).collect::<Vec<_>>());
        prop_assert_eq!(a.placement().map(Placement::into_columns), want);
        if a.is_solution() {
            prop_assert!(a.placement().is_some_and(|p| p.is_valid()));
        }
    }
}

/// Issue 40 §3: per block, the queens and those on a crowded line (a row, column or
/// diagonal of two queens or more, the lines `conflicts` counts), against a pairwise count;
/// blocks of one cell are the queen counts themselves.
#[test]
fn block_density_counts_queens_and_queens_in_conflict() {
    for (model, n, seed) in
        [(Model::Row, 100, 1), (Model::Row, 37, 5), (Model::Pair, 9, 2), (Model::Cell, 11, 3)]
    {
        let a = Automaton::from_seed(&Params::new(model, n).unwrap(), seed).unwrap();
        let n = n as usize;
        let queens: Vec<(usize, usize)> =
            (0..n * n).filter(|&i| a.count(i % n, i / n) > 0).map(|i| (i % n, i / n)).collect();
        let attacked = |&(x, y): &(usize, usize)| {
            queens
                .iter()
                .any(|&(u, v)| (u, v) != (x, y) && (u == x || v == y || u.abs_diff(x) == v.abs_diff(y)))
                || a.count(x, y) > 1
        };
        for side in [0, 1, 7, 10, n] {
            let blocks = n.div_ceil(side.max(1));
            let d = a.block_density(side);
            assert_eq!(d.len(), blocks * blocks);
            let mut want = vec![(0, 0); blocks * blocks];
            for q in &queens {
                let k = a.count(q.0, q.1);
                let b = &mut want[q.1 / side.max(1) * blocks + q.0 / side.max(1)];
                b.0 += k;
                if attacked(q) {
                    b.1 += k;
                }
            }
            assert_eq!(d, want, "{model:?} n = {n} side {side}");
            let in_conflict: u32 = d.iter().map(|b| b.1).sum();
            assert_eq!(in_conflict == 0, a.conflicts() == 0, "{model:?} n = {n}");
        }
    }
}

#[test]
fn set_model3_takes_the_same_runs_board_and_refuses_others() {
    let params = Params::new(Model::Row, 12).unwrap();
    let mut a = Automaton::from_seed(&params, 4).unwrap();
    let mut b = a.model3().unwrap().clone();
    b.run_steps(50);
    a.set_model3(b.clone()).unwrap();
    assert_eq!((a.steps(), a.moves(), a.conflicts()), (b.steps(), b.moves(), b.conflicts()));
    // A board of another n, of another rule, and an automaton of another model.
    let rule = *b.rule();
    assert!(a.set_model3(RowBoard::from_seed(rule, 11, 4)).is_err());
    assert!(a.set_model3(RowBoard::from_seed(Rule { eps: rule.eps / 2.0, ..rule }, 12, 4)).is_err());
    let mut pair = Automaton::from_seed(&Params::new(Model::Pair, 12).unwrap(), 4).unwrap();
    assert!(matches!(pair.set_model3(b), Err(AutomatonError::Model3Board { n: 12, got: 12 })));
    assert_eq!(a.steps(), 50);
}

/// What [`Automaton::cell_bytes`] counts is what the state of models 1 and 2 holds, and a
/// state that cannot fit is refused by the check every start makes.
#[test]
fn the_cell_states_bytes_are_what_it_holds() {
    for n in [1u32, 2, 3, 8, 64, 100] {
        let a = Automaton::from_seed(&Params::new(Model::Cell, n).unwrap(), 1).unwrap();
        let held =
            4 * a.st.len() + 8 * a.pairs.len() + 4 * a.cells.len() + a.inboard.len() + 4 * a.lines.len();
        assert_eq!(Automaton::cell_bytes(n), held as u64, "n = {n}");
    }
}
