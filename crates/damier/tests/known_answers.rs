//! Every solver against the one known-answer file, `tests/data/known_answers.toml`.
//!
//! Fast cases run in CI; the slow ones are `#[ignore]`d: run them with
//! `cargo test --release -p damier --test known_answers -- --ignored`
//! (queens only: add `queens` after `--ignored`).

use damier::control::Control;
use damier::queens::count::{Strategy, count_with, fixed_by_half_turn, fixed_by_quarter_turn};

fn data() -> toml::Table {
    toml::from_str(include_str!("data/known_answers.toml")).expect("known_answers.toml parses")
}

fn u64_list(table: &toml::Table, section: &str, key: &str) -> Vec<u64> {
    table[section][key]
        .as_array()
        .unwrap_or_else(|| panic!("{section}.{key} is a list"))
        .iter()
        .map(|v| v.as_integer().expect("integer") as u64)
        .collect()
}

/// Every queens counting strategy, and [`damier::queens::count`] itself, against the data file.
fn check_queens_counts(range: std::ops::RangeInclusive<u32>, strategies: &[Strategy]) {
    let d = data();
    let (total, unique) = (u64_list(&d, "queens", "total"), u64_list(&d, "queens", "unique"));
    for n in range {
        let i = (n - 1) as usize;
        let got = damier::queens::count_solutions(n, &Control::new()).unwrap();
        assert_eq!((got.n, got.total, got.unique), (n, total[i], unique[i]), "count, n = {n}");
        for &s in strategies {
            let got = count_with(n, s, &Control::new()).unwrap();
            assert_eq!((got.total, got.unique), (total[i], unique[i]), "{}, n = {n}", s.name());
        }
    }
}

#[test]
fn queens_counts_small() {
    check_queens_counts(1..=12, &Strategy::ALL);
}

/// The library's own table of A000170 (what estimates check themselves against) is the data
/// file's, term for term.
#[test]
fn the_library_table_of_totals_is_the_data_file() {
    let total = u64_list(&data(), "queens", "total");
    assert_eq!(&damier::queens::count::known::A000170[1..], &total[..]);
}

#[test]
fn queens_fixed_by_rotations_fit_burnside() {
    // The rotation-fixed counts the unique numbers are made of: (total + F180 + 2 F90) / 8
    // must give the data file's unique count exactly, up to n = 20.
    let d = data();
    let (total, unique) = (u64_list(&d, "queens", "total"), u64_list(&d, "queens", "unique"));
    for n in 2..=20u32 {
        let i = (n - 1) as usize;
        let sum = total[i] + fixed_by_half_turn(n) + 2 * fixed_by_quarter_turn(n);
        assert_eq!(sum, 8 * unique[i], "n = {n}");
    }
}

#[test]
#[ignore = "slow: about 40 s in a release build on 2 cores (the backtracker at n = 17)"]
fn queens_counts_to_17() {
    check_queens_counts(13..=17, &[Strategy::Backtrack, Strategy::Quarters]);
}

#[test]
#[ignore = "slow: about 20 s in a release build on 2 cores (n = 19)"]
fn queens_counts_18_and_19() {
    check_queens_counts(18..=19, &[]);
}

// ---- automaton ----

#[test]
fn automaton_pair_counts() {
    use damier::automaton::pairs;
    let d = data();
    for (i, &want) in u64_list(&d, "automaton", "pairs").iter().enumerate() {
        let n = i as u32 + 1;
        assert_eq!(pairs::count(n) as u64, want, "n = {n}");
        // Independent: count ordered neighbour pairs, halve.
        let mut ordered = 0u64;
        for x in 0..n as i64 {
            for y in 0..n as i64 {
                for dx in -1..=1i64 {
                    for dy in -1..=1i64 {
                        let (u, v) = (x + dx, y + dy);
                        if (dx, dy) != (0, 0) && (0..n as i64).contains(&u) && (0..n as i64).contains(&v) {
                            ordered += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(ordered / 2, want, "n = {n}");
    }
}

// ---- lights ----

fn lights_table() -> toml::Table {
    data()["lights"].as_table().expect("[lights] table").clone()
}

#[test]
fn lights_text_table_l_2_to_39() {
    let t = lights_table();
    let from = t["square_solutions_from"].as_integer().unwrap() as usize;
    let want: Vec<u64> =
        t["square_solutions"].as_array().unwrap().iter().map(|v| v.as_integer().unwrap() as u64).collect();
    let nul = damier::lights::square_nullities(from + want.len() - 1, &Control::new()).unwrap();
    for (i, &w) in want.iter().enumerate() {
        let l = from + i;
        assert_eq!(damier::lights::power_of_two_decimal(nul[l - 1] as u64), w.to_string(), "L = {l}");
        // The direct gcd agrees with the square formula.
        assert_eq!(damier::lights::nullity(damier::board::Size::new(l, l).unwrap()), nul[l - 1], "L = {l}");
    }
    // And the all-on board really has that many solutions: one verified, plus the kernel.
    for l in [4usize, 5, 9, 11] {
        let on = damier::board::Board::ones(damier::board::Size::new(l, l).unwrap());
        let s = damier::lights::solve(&on, None, damier::lights::Method::Poly, &Control::new()).unwrap();
        assert!(damier::lights::press::apply_presses_naive(&on, s.presses.as_ref().unwrap()).is_zero());
        assert_eq!(1u64 << s.nullity, want[l - from]);
    }
}

#[test]
fn lights_rectangles() {
    for r in lights_table()["rect_solutions"].as_array().unwrap() {
        let r: Vec<u64> = r.as_array().unwrap().iter().map(|v| v.as_integer().unwrap() as u64).collect();
        let (w, h) = (r[0] as usize, r[1] as usize);
        for m in [damier::lights::Method::Dense, damier::lights::Method::Chase, damier::lights::Method::Poly]
        {
            let on = damier::board::Board::ones(damier::board::Size::new(w, h).unwrap());
            let s = damier::lights::solve(&on, None, m, &Control::new()).unwrap();
            assert_eq!(1u64 << s.nullity, r[2], "{w}x{h} {m:?}");
        }
    }
}

#[test]
fn lights_oeis_a159257() {
    let want = u64_list(&data(), "lights", "square_nullity");
    let got = damier::lights::square_nullities(want.len(), &Control::new()).unwrap();
    for (i, (&w, &g)) in want.iter().zip(&got).enumerate() {
        assert_eq!(g as u64, w, "n = {}", i + 1);
    }
}

#[test]
#[ignore = "slow in the dev profile: run with --release (about 10 s)"]
fn lights_nullities_to_25000() {
    // Properties from OEIS A159257: a(n) is even and a(n) <= n; and the square formula agrees
    // with the direct gcd deg gcd(p_n(x), p_n(x+1)) on a sample.
    let got = damier::lights::square_nullities(25_000, &Control::new()).unwrap();
    for (i, &a) in got.iter().enumerate() {
        assert!(a % 2 == 0 && a <= i + 1, "n = {}", i + 1);
    }
    for n in [1023usize, 4095, 9999, 12_287, 24_999, 25_000] {
        assert_eq!(got[n - 1], damier::lights::nullity(damier::board::Size::new(n, n).unwrap()), "n = {n}");
    }
}

// ---- walk ----

mod walk {
    use damier::board::{Board, Size};
    use damier::control::Control;
    use damier::walk::{Method, board_size, fast, path, press_image, solve};

    fn walk_data() -> toml::Table {
        super::data()["walk"].as_table().expect("[walk] table").clone()
    }

    fn lines(t: &toml::Table, key: &str) -> Vec<String> {
        t[key].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
    }

    #[test]
    fn seed_square_counts_1_to_20() {
        let counts = super::u64_list(&super::data(), "walk", "square_solutions");
        assert_eq!(counts.len(), 20);
        for (i, &expected) in counts.iter().enumerate() {
            let n = i + 1;
            let sols = fast::solve(board_size(n, n).unwrap(), &Control::new()).unwrap();
            assert_eq!(sols.count_decimal(), expected.to_string(), "{n} x {n}");
            // The chosen solution and every kernel vector are checked by the press image.
            assert_eq!(press_image(&sols.particular), Board::ones(Size::new(n, n).unwrap()));
            assert!(sols.kernel().unwrap().iter().all(|k| press_image(k).is_zero()));
        }
        // The first-row enumeration agrees where it is allowed (narrow side <= 24).
        for (i, &expected) in counts.iter().enumerate().take(16) {
            let n = i + 1;
            let sols = solve(board_size(n, n).unwrap(), Method::Rows, &Control::new()).unwrap();
            assert_eq!(sols.count_decimal(), expected.to_string(), "rows method, {n} x {n}");
        }
    }

    #[test]
    fn oeis_a159257_nullities_to_130() {
        let nullity = super::u64_list(&super::data(), "walk", "square_nullity");
        assert_eq!(nullity.len(), 130);
        for (i, &expected) in nullity.iter().enumerate() {
            let n = i + 1;
            let sols = fast::solve(board_size(n, n).unwrap(), &Control::new()).unwrap();
            assert_eq!(sols.nullity() as u64, expected, "{n} x {n}");
            assert_eq!(press_image(&sols.particular), Board::ones(Size::new(n, n).unwrap()), "{n} x {n}");
        }
    }

    #[test]
    fn seed_example_walks_replay_to_all_black() {
        let t = walk_data();
        for ex in t["examples"].as_array().unwrap() {
            let ex = ex.as_table().unwrap();
            let (rows, cols) =
                (ex["rows"].as_integer().unwrap() as usize, ex["cols"].as_integer().unwrap() as usize);
            let moves = path::parse_moves(ex["moves"].as_str().unwrap()).unwrap();
            let replay = path::replay(board_size(rows, cols).unwrap(), &moves);
            assert!(replay.all_black(), "{rows} x {cols}: {:?}", ex["moves"]);
            // What the walk landed on oddly is a solution: the independent check M a = 1.
            assert_eq!(press_image(&replay.landings), Board::ones(Size::new(cols, rows).unwrap()));
        }
    }

    #[test]
    fn seed_pictures() {
        let t = walk_data();
        // 4 x 4: the blog post's walk lands oddly on exactly its picture, which our fast
        // solver also picks (free unknowns 0), and our own path for it replays too.
        let p4 = Board::parse(&lines(&t, "picture_4x4").join("\n")).unwrap();
        let b4 = board_size(4, 4).unwrap();
        let seed_moves = path::parse_moves(t["picture_4x4_moves"].as_str().unwrap()).unwrap();
        assert_eq!(path::replay(b4, &seed_moves).landings, p4);
        let ours = path::path_for(b4, &p4, &Control::new()).unwrap();
        assert!(path::replay(b4, &ours).all_black());
        assert_eq!(fast::solve(b4, &Control::new()).unwrap().particular, p4);
        // 20 x 20 has one solution: it must be the blog post's picture.
        let p20 = Board::parse(&lines(&t, "picture_20x20").join("\n")).unwrap();
        let sols = fast::solve(board_size(20, 20).unwrap(), &Control::new()).unwrap();
        assert_eq!(sols.nullity(), 0);
        assert_eq!(sols.particular, p20);
    }
}
