use super::layout::{EAST_P, WEST, WORD_QUEEN, WORD_WALKING};
use super::*;
use crate::automaton::dir::DIRECTIONS;
use crate::automaton::{Automaton, Model, Params, StartSignals};

/// Every placement with one queen per row on an n x n board, as columns.
fn every_placement(n: usize) -> impl Iterator<Item = Vec<u32>> {
    (0..(n as u64).pow(n as u32)).map(move |mut k| {
        (0..n)
            .map(|_| {
                let x = (k % n as u64) as u32;
                k /= n as u64;
                x
            })
            .collect()
    })
}

/// Independent solution test: no two queens share a column or a diagonal.
fn is_solution(cols: &[u32]) -> bool {
    let n = cols.len();
    (0..n).all(|i| (i + 1..n).all(|j| cols[i] != cols[j] && cols[i].abs_diff(cols[j]) as usize != j - i))
}

fn words(b: &RowBoard) -> Vec<u32> {
    (0..b.n() * b.n()).map(|i| b.word(i % b.n(), i / b.n())).collect()
}

/// The danger of each row's queen in the true field.
fn queen_dangers(b: &RowBoard) -> Vec<u8> {
    let (s, _, _) = b.true_fields();
    let (n, nn) = (b.n(), b.n() * b.n());
    b.columns()
        .iter()
        .enumerate()
        .map(|(y, &x)| (0..6).map(|k| s[k * nn + y * n + x as usize]).sum())
        .collect()
}

#[test]
fn absorbing_exactly_on_solutions_exhaustive_for_small_n() {
    let rule = Rule::model3(0.01);
    for n in 1..=6 {
        let (mut solutions, mut total) = (0, 0);
        for cols in every_placement(n) {
            total += 1;
            let mut b = RowBoard::from_columns(rule, &cols, 7);
            b.set_true_fields();
            assert!(b.is_absorbing());
            let solved = is_solution(&cols);
            assert_eq!(b.is_solution(), solved, "{cols:?}");
            // A solution is exactly a placement where no queen has a positive true danger
            // (the condition under which no queen of the rule ever acts).
            assert_eq!(queen_dangers(&b).iter().all(|&d| d == 0), solved, "{cols:?}");
            if solved {
                solutions += 1;
                let before = words(&b);
                for _ in 0..3 * n {
                    b.step();
                }
                assert_eq!(words(&b), before, "a solution with true fields changed: {cols:?}");
                assert_eq!(b.moves(), 0);
            }
        }
        // OEIS A000170.
        assert_eq!(solutions, [1, 0, 0, 2, 10, 4][n - 1], "n = {n} of {total}");
    }
}

#[test]
fn every_non_solution_with_true_fields_moves_eventually() {
    // The other half of "absorbing exactly on solutions": from true fields, some queen of a
    // non-solution has a positive danger and moves with positive probability (towards a
    // lower side, on a plateau, or uphill with ε).
    let rule = Rule::model3(0.01);
    for n in 2..=5 {
        for (i, cols) in every_placement(n).enumerate() {
            if is_solution(&cols) {
                continue;
            }
            let mut b = RowBoard::from_columns(rule, &cols, i as u64);
            b.set_true_fields();
            let mut k = 0;
            while b.moves() == 0 {
                b.step();
                k += 1;
                assert!(k < 2_000_000, "no move from {cols:?}");
            }
        }
    }
}

#[test]
fn fields_become_true_when_the_queens_stand_still() {
    // Activity 0: nobody moves, so counts settle in n generations and waves n later.
    for schedule in [Schedule::Synchronous, Schedule::RandomCell] {
        for (n, seed) in [(1, 1), (5, 2), (8, 3), (13, 4)] {
            let rule = Rule { activity: 0.0, south_activity: 0.0, schedule, ..Rule::model3(0.01) };
            let mut b = RowBoard::from_seed(rule, n, seed);
            let steps = match schedule {
                Schedule::Synchronous => 2 * n + 1,
                // Enough random cell updates that every cell is visited in order many times.
                Schedule::RandomCell => 200 * n * n * n,
            };
            for _ in 0..steps {
                b.step();
            }
            assert!(b.is_absorbing(), "n = {n}, {schedule:?}");
            assert_eq!(b.moves(), 0);
        }
    }
}

#[test]
fn one_queen_per_row_always() {
    let mut b = RowBoard::from_seed(Rule::model3(0.05), 12, 9);
    for _ in 0..2000 {
        b.step();
        for y in 0..12 {
            let queens: u32 = (0..12).map(|x| u32::from(b.queens(x, y))).sum();
            assert_eq!(queens, 1);
            assert_eq!(b.queens(b.columns()[y] as usize, y), 1);
        }
    }
}

#[test]
fn solves_and_the_solution_checks() {
    for (n, seed) in [(4, 1), (8, 2), (16, 3), (32, 4), (64, 5)] {
        let params = Params::new(Model::Row, n).unwrap();
        let mut a = Automaton::from_seed(&params, seed).unwrap();
        assert!(a.run_steps(10_000_000), "n = {n} seed {seed}");
        let p = a.placement().expect("a solution is a permutation");
        let cols: Vec<u32> = p.columns().to_vec();
        assert!(is_solution(&cols), "{cols:?}");
        assert!(p.is_valid());
    }
}

#[test]
fn a_seed_gives_one_trajectory() {
    let params = Params::new(Model::Row, 24).unwrap();
    let run = |seed| {
        let mut a = Automaton::from_seed(&params, seed).unwrap();
        a.run_steps(1_000_000);
        (a.steps(), a.moves(), a.placement().map(|p| p.columns().to_vec()))
    };
    assert_eq!(run(9), run(9));
    assert_ne!(run(9), run(7));
    // Stepping one generation at a time follows the same trajectory.
    let mut a = Automaton::from_seed(&params, 9).unwrap();
    while !a.is_solution() {
        a.step();
    }
    assert_eq!((a.steps(), a.moves(), a.placement().map(|p| p.columns().to_vec())), run(9));
}

#[test]
fn from_position_keeps_one_queen_per_row() {
    let params = Params::new(Model::Row, 3).unwrap();
    let two_in_row = [1, 1, 0, 0, 0, 0, 0, 0, 1];
    let err = Automaton::from_position(&params, &two_in_row, StartSignals::None, 1).unwrap_err();
    assert!(err.to_string().contains("row 0 holds 2"), "{err}");
    let stacked = [2, 0, 0, 0, 0, 0, 0, 0, 1];
    assert!(Automaton::from_position(&params, &stacked, StartSignals::None, 1).is_err());
    let ok = [0, 1, 0, 0, 0, 1, 1, 0, 0];
    let a = Automaton::from_position(&params, &ok, StartSignals::True, 1).unwrap();
    assert!(a.is_absorbing());
    assert_eq!(a.count(1, 0), 1);
    // The queen at (1, 0) is seen from (1, 2) to the north, and from (0, 1) to the north-east.
    assert_eq!(a.signals(1, 2) & 1, 1);
    assert_eq!(a.signals(0, 1) >> 1 & 1, 1);
}

#[test]
fn eps_zero_is_refused() {
    let params = Params { eps: 0.0, ..Params::new(Model::Row, 8).unwrap() };
    assert!(params.validated().is_err());
}

#[test]
fn words_round_trip_and_refuse_impossible_states() {
    let mut b = RowBoard::from_seed(Rule::model3(0.01), 9, 4);
    for _ in 0..37 {
        b.step();
    }
    let w = words(&b);
    let back = RowBoard::from_words(*b.rule(), 9, &w, b.steps(), b.moves(), b.generator().clone()).unwrap();
    assert_eq!(words(&back), w);
    let (mut x, mut y) = (b.clone(), back);
    for _ in 0..500 {
        x.step();
        y.step();
    }
    assert_eq!(words(&x), words(&y));
    assert_eq!((x.steps(), x.moves()), (y.steps(), y.moves()));
    // A second queen in row 0, a count above the cap, a count from off the board.
    let mut bad = w.clone();
    let x0 = b.columns()[0] as usize;
    bad[(x0 + 1) % 9] |= WORD_QUEEN;
    assert!(RowBoard::from_words(*b.rule(), 9, &bad, 0, 0, b.generator().clone()).is_err());
    let mut bad = w.clone();
    bad[40] = (bad[40] & !3) | 3;
    assert!(RowBoard::from_words(*b.rule(), 9, &bad, 0, 0, b.generator().clone()).is_err());
    let mut bad = w;
    bad[4] |= 1; // cell (4, 0): a queen to its north would be off the board
    assert!(RowBoard::from_words(*b.rule(), 9, &bad, 0, 0, b.generator().clone()).is_err());
}

/// A row's bytes gathered 64 cells at a time (the checkpoint's) are each cell's word, on
/// every rule, boards of one to three plane words a row (waves, walking and settled queens,
/// the counts after some generations).
#[test]
fn row_bytes_are_the_cells_words() {
    for (i, name) in RuleName::ALL.into_iter().enumerate() {
        for n in [1, 7, 63, 64, 65, 130, 200] {
            let mut b = RowBoard::from_seed(name.rule(0.05), n, 11 + i as u64);
            for _ in 0..(n % 50 + 3) {
                b.step();
            }
            let mut row = vec![0; 4 * n];
            let mut gathered = Vec::new();
            for y in 0..n {
                b.row_bytes(y, &mut row);
                gathered.extend(row.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])));
            }
            assert_eq!(gathered, words(&b), "rule {} n = {n}", name.name());
        }
    }
}

/// `b`'s cell words, after checking that a board read back from them (with `b`'s generator
/// and counters) follows `b`'s trajectory for 300 generations.
fn resumes_alike(b: &RowBoard) -> Vec<u32> {
    let w = words(b);
    let back =
        RowBoard::from_words(*b.rule(), b.n(), &w, b.steps(), b.moves(), b.generator().clone()).unwrap();
    let (mut x, mut y) = (b.clone(), back);
    for _ in 0..300 {
        x.step();
        y.step();
    }
    assert_eq!(words(&x), words(&y));
    w
}

#[test]
fn patience_and_rest_counts_round_trip_and_impossible_ones_are_refused() {
    // The queens' patience and rest counts (bits 23..27 and 27..31 of a cell word) are part
    // of the state: a run resumed from its words follows the same trajectory, and a count
    // above the rule's, or on a walking queen, is refused.
    let rule = Rule { rest: 3, rest_rate: 0.5, patience: 4, patience_rate: 0.5, ..Rule::model3(0.01) };
    let mut b = RowBoard::from_seed(rule, 24, 5);
    let (mut patient, mut resting) = (false, false);
    for _ in 0..400 {
        b.step();
        let w = words(&b);
        patient |= w.iter().any(|&c| c >> 23 & 15 != 0);
        resting |= w.iter().any(|&c| c >> 27 & 15 != 0);
        if patient && resting {
            break;
        }
    }
    assert!(patient && resting, "the run filled both counts");
    let w = resumes_alike(&b);
    let settled = (0..24 * 24).find(|&i| w[i] & WORD_QUEEN != 0 && w[i] & WORD_WALKING == 0).unwrap();
    let refused = |i: usize, word: u32| {
        let mut bad = w.clone();
        bad[i] = word;
        RowBoard::from_words(rule, 24, &bad, 0, 0, b.generator().clone()).is_err()
    };
    assert!(refused(settled, w[settled] & !(15 << 23) | 5 << 23), "patience above the rule's 4");
    assert!(refused(settled, w[settled] & !(15 << 27) | 4 << 27), "rest above the rule's 3");
    assert!(refused(settled, w[settled] | WORD_WALKING | 1 << 23), "patience on a walking queen");
    let empty = (0..24 * 24).find(|&i| w[i] & WORD_QUEEN == 0).unwrap();
    assert!(refused(empty, w[empty] | 1 << 27), "rest on a cell without a queen");
    assert!(!refused(settled, w[settled] & !(15 << 23) | 4 << 23));
}

#[test]
fn backoff_levels_follow_the_walks_round_trip_and_impossible_ones_are_refused() {
    // With backoff the rest bits (27..31 of a cell word) hold a queen's level: one up for a
    // walk that settles in danger (at most the rule's), cleared by one that settles out of
    // danger, kept on a walk; a run resumed from its words follows the same trajectory.
    let rule = Rule::from_overrides("back=3,act=0.5,south=0.5", 0.01).unwrap();
    assert!(Rule::from_overrides("back=3,rest=2", 0.01).is_err(), "backoff and rest share their bits");
    let n = 24;
    let mut b = RowBoard::from_seed(rule, n, 5);
    let level = |b: &RowBoard, y: usize| b.word(b.columns()[y] as usize, y) >> 27 & 15;
    let (mut up, mut cleared, mut walking_with_a_level) = (false, false, false);
    for _ in 0..2_000 {
        let before: Vec<(u32, bool)> =
            (0..n).map(|y| (level(&b, y), b.walking(b.columns()[y] as usize, y))).collect();
        b.step();
        for (y, &(was, walked)) in before.iter().enumerate() {
            let (x, now) = (b.columns()[y] as usize, level(&b, y));
            assert!(now <= 3, "a level above the rule's");
            if walked && !b.walking(x, y) {
                // The walk settled: one up in danger, cleared out of it.
                up |= now == was + 1;
                cleared |= was > 0 && now == 0;
                assert!(now == 0 || now == (was + 1).min(3), "row {y}: level {was} -> {now}");
            } else if !walked {
                // A settled queen's level changes only by a walk (it may start one).
                assert_eq!(now, was, "row {y}");
            }
            walking_with_a_level |= b.walking(x, y) && now > 0;
        }
    }
    assert!(up && cleared && walking_with_a_level, "the run raised, cleared and carried levels");
    let w = resumes_alike(&b);
    let queen = (0..n * n).find(|&i| w[i] & WORD_QUEEN != 0).unwrap();
    let refused = |rule: Rule, i: usize, word: u32| {
        let mut bad = w.clone();
        bad[i] = word;
        RowBoard::from_words(rule, n, &bad, 0, 0, b.generator().clone()).is_err()
    };
    let walking = w[queen] & !(15 << 27) | WORD_WALKING | 2 << 27;
    assert!(!refused(rule, queen, walking), "a level on a walking queen");
    assert!(refused(Rule::model3(0.01), queen, walking), "rest on a walking queen");
    assert!(refused(rule, queen, w[queen] & !(15 << 27) | 4 << 27), "a level above the rule's 3");
    let empty = (0..n * n).find(|&i| w[i] & WORD_QUEEN == 0).unwrap();
    assert!(refused(rule, empty, w[empty] | 1 << 27), "a level on a cell without a queen");
}

#[test]
fn backoff_by_hits_rises_on_a_hit_falls_when_safe_and_round_trips() {
    // Backoff raised by hits: a settled queen's level goes one up when it finds itself in
    // danger after a safe generation (bit 31 of its word: it was safe), walks keep it, and a
    // safe queen lowers it now and then; the safe bit and level are part of the state.
    let rule = Rule::from_overrides("back=3,hit=1,backq=0.2,act=0.5,south=0.5", 0.01).unwrap();
    assert!(Rule::from_overrides("hit=1", 0.01).is_err(), "hits need a top level");
    let n = 24;
    let mut b = RowBoard::from_seed(rule, n, 7);
    let state = |b: &RowBoard, y: usize| {
        let x = b.columns()[y] as usize;
        (b.word(x, y) >> 27 & 15, b.word(x, y) >> 31 == 1, b.walking(x, y))
    };
    let (mut hit, mut fell) = (false, false);
    for _ in 0..2_000 {
        let before: Vec<_> = (0..n).map(|y| state(&b, y)).collect();
        b.step();
        for (y, &(was, safe, walked)) in before.iter().enumerate() {
            let (now, safe_now, walking) = state(&b, y);
            assert!(now <= 3 && !(safe_now && walking), "row {y}");
            if walked {
                assert_eq!(now, was, "row {y}: a walk keeps the level");
            } else if now > was {
                assert!(safe && now == was + 1 && !safe_now, "row {y}: up only on a hit");
                hit = true;
            } else if now < was {
                assert!(now + 1 == was && safe_now, "row {y}: down by one, when safe");
                fell = true;
            }
        }
    }
    assert!(hit && fell, "the run raised and lowered levels");
    let w = resumes_alike(&b);
    let settled = (0..n * n).find(|&i| w[i] & WORD_QUEEN != 0 && w[i] & WORD_WALKING == 0).unwrap();
    let refused = |rule: Rule, word: u32| {
        let mut bad = w.clone();
        bad[settled] = word;
        RowBoard::from_words(rule, n, &bad, 0, 0, b.generator().clone()).is_err()
    };
    assert!(!refused(rule, w[settled] | 1 << 31));
    assert!(refused(rule, w[settled] | 1 << 31 | WORD_WALKING), "safe on a walking queen");
    let settle_variant = Rule { backoff_hits: false, ..rule };
    assert!(refused(settle_variant, w[settled] | 1 << 31), "safe under a rule without hits");
}

#[test]
fn a_trajectory_does_not_depend_on_the_thread_count() {
    // Above PARALLEL_N the rows of a generation run on every core; the fields draw nothing
    // from the generator, so one, two or three threads follow the same trajectory.
    let n = PARALLEL_N + 9;
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| {
            let mut b = RowBoard::from_seed(Rule::model3(0.01), n, 3);
            b.run_steps(700);
            (b.steps(), b.moves(), b.columns().to_vec(), words(&b))
        })
    };
    let one = run(1);
    assert!(one.1 > 0, "queens moved");
    assert_eq!(run(2), one);
    assert_eq!(run(3), one);
}

/// Every plane of `b` in [`RowBoard::set_planes`]'s layout.
fn planes(b: &RowBoard) -> Vec<u64> {
    (0..b.n()).flat_map(|y| (0..PLANES).flat_map(move |p| b.plane(p, y).to_vec())).collect()
}

/// The current field bits of each row's queen cell, read from the exported planes.
fn queen_fields_of(b: &RowBoard) -> Vec<u32> {
    (0..b.n())
        .map(|y| {
            let x = b.columns()[y] as usize;
            (0..PLANES).map(|p| ((b.plane(p, y)[x / 64] >> (x % 64)) as u32 & 1) << p).sum()
        })
        .collect()
}

#[test]
fn generations_driven_from_outside_follow_the_boards_own_trajectory() {
    // An outside field engine (here another board's generations, read through `plane`)
    // drives a board through `queens_generation` and `set_planes`: the same trajectory, bit
    // for bit, as the board's own generations (what the GPU engine relies on).
    let m3 = Rule::model3(0.01);
    let rules = [
        (m3, 9),
        (Rule::model3_v1(0.01), 70),
        (Rule { cap: 1, ..m3 }, 33),
        (Rule { hide_walkers: false, ..m3 }, 64),
        (m3, 1),
    ];
    for (rule, n) in rules {
        let mut own = RowBoard::from_seed(rule, n, 5);
        let mut driven = RowBoard::from_seed(rule, n, 5);
        for _ in 0..300 {
            if own.is_solution() {
                break;
            }
            let fields = queen_fields_of(&driven);
            own.step();
            driven.queens_generation(&fields);
            driven.set_planes(&planes(&own)).unwrap();
        }
        assert!(n < 9 || own.moves() > 0, "queens moved");
        assert_eq!(
            (driven.steps(), driven.moves(), driven.columns(), words(&driven)),
            (own.steps(), own.moves(), own.columns(), words(&own)),
            "{rule:?}, n = {n}"
        );
    }
}

#[test]
fn set_planes_refuses_impossible_planes_and_keeps_the_board() {
    let mut b = RowBoard::from_seed(Rule { cap: 1, ..Rule::model3(0.01) }, 70, 2);
    for _ in 0..50 {
        b.step();
    }
    let (good, before) = (planes(&b), words(&b));
    let m = 70usize.div_ceil(64);
    // (plane, row, word, bits): a count of 2 under cap 1, a N count on row 0, a NW count in
    // column 0, a NE count in the last column, a count beyond the board, a west wave below
    // FAR in column 0, an east wave below FAR in the last column.
    let cases = [(1, 5, 0, 1 << 3), (0, 0, 0, 1 << 7), (10, 4, 0, 1), (2, 4, 1, 1 << 5), (6, 9, 1, 1 << 6)];
    for (p, y, j, bits) in cases {
        let mut bad = good.clone();
        bad[(y * PLANES + p) * m + j] |= bits;
        assert!(matches!(b.set_planes(&bad), Err(RowStateError::Cell { .. })), "plane {p} row {y}");
    }
    for (p, y, j, bits) in [(WEST, 3, 0, 1u64), (EAST_P + 2, 3, 1, 1 << 5)] {
        let mut bad = good.clone();
        bad[(y * PLANES + p) * m + j] &= !bits;
        assert!(matches!(b.set_planes(&bad), Err(RowStateError::Cell { .. })), "plane {p} row {y}");
    }
    assert!(matches!(b.set_planes(&good[1..]), Err(RowStateError::Planes { .. })));
    assert_eq!(words(&b), before, "a refused set changed the board");
    b.set_planes(&good).unwrap();
    assert_eq!(words(&b), before);
}

/// The plain loop of a synchronous generation's fields, one cell at a time from the cell
/// words: each cell's next counts and waves (bits 0..20 of its next word).
fn plain_fields(rule: &Rule, n: usize, w: &[u32]) -> Vec<u32> {
    let count = |word: u32, k: usize| (word >> (2 * k) & 3) as u8;
    let danger = |x: usize, y: usize| (0..6).map(|k| count(w[y * n + x], k)).sum::<u8>();
    let mut out = vec![0u32; n * n];
    for y in 0..n {
        for x in 0..n {
            let mut word = 0;
            for (k, &d) in LINE_DIRS.iter().enumerate() {
                let (dx, dy) = DIRECTIONS[d];
                let (u, v) = (x as i32 + dx, y as i32 + dy);
                if (0..n as i32).contains(&u) && (0..n as i32).contains(&v) {
                    let from = w[v as usize * n + u as usize];
                    let seen = from & WORD_QUEEN != 0 && (from & WORD_WALKING == 0 || !rule.hide_walkers);
                    word |= u32::from((u8::from(seen) + count(from, k)).min(rule.cap)) << (2 * k);
                }
            }
            let west = if x > 0 { danger(x - 1, y).min((w[y * n + x - 1] >> 12 & 15) as u8) } else { FAR };
            let east =
                if x + 1 < n { danger(x + 1, y).min((w[y * n + x + 1] >> 16 & 15) as u8) } else { FAR };
            out[y * n + x] = word | u32::from(west) << 12 | u32::from(east) << 16;
        }
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

    /// The bit-sliced generation (64 cells a word, rows in parallel from PARALLEL_N) computes
    /// the same next counts and waves as the plain loop, from states a run reaches, across
    /// word and block boundaries and for both caps and both kinds of walker.
    #[test]
    fn the_bit_sliced_generation_matches_the_plain_loop(
        n in proptest::prop_oneof![1usize..=70, 250usize..=300],
        seed in 0u64..1_000,
        before in 0u64..200,
        cap in 1u8..=2,
        hide in proptest::bool::ANY,
    ) {
        let rule = Rule { cap, hide_walkers: hide, ..Rule::model3(0.01) };
        let rule = if hide { rule } else { Rule { activity: 0.1, south_activity: 0.1, ..rule } };
        let mut b = RowBoard::from_seed(rule, n, seed);
        for _ in 0..before {
            b.step();
        }
        let expected = plain_fields(&rule, n, &words(&b));
        b.step();
        let got: Vec<u32> = words(&b).iter().map(|w| w & ((1 << 20) - 1)).collect();
        proptest::prop_assert_eq!(got, expected);
    }
}

/// What [`RowBoard::bytes`] counts is what a board holds: its vectors' bytes, at sides across
/// the block boundaries (the check made before a board of n = 16 384 is allocated).
#[test]
fn a_boards_bytes_are_what_it_holds() {
    for n in [1usize, 2, 63, 64, 255, 256, 257, 1000] {
        let b = RowBoard::from_seed(Rule::model3(0.01), n, 1);
        let held = 8 * (b.cur.len() + b.next.len() + b.zeros.len())
            + 4 * b.queen_fields.len()
            + 2 * b.qs.len()
            + 4 * b.col.len()
            + 4 * b.lines.len();
        assert_eq!(RowBoard::bytes(n), held as u64, "n = {n}");
    }
}
