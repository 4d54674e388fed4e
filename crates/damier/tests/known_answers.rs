//! Every solver against the one known-answer file, `tests/data/known_answers.toml`.
//!
//! Fast cases run in CI; the slow ones are `#[ignore]`d: run them with
//! `cargo test --release -p damier --test known_answers -- --ignored`.

use damier::control::Control;

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

fn check_queens_counts(range: std::ops::RangeInclusive<u32>) {
    let d = data();
    let (total, unique) = (u64_list(&d, "queens", "total"), u64_list(&d, "queens", "unique"));
    for n in range {
        let got = damier::queens::count(n, &Control::new()).unwrap();
        let i = (n - 1) as usize;
        assert_eq!((got.total, got.unique), (total[i], unique[i]), "n = {n}");
    }
}

#[test]
fn queens_counts_small() {
    check_queens_counts(1..=12);
}

#[test]
#[ignore = "slow: minutes in a release build"]
fn queens_counts_to_17() {
    check_queens_counts(13..=17);
}

// ---- automaton ----

// ---- lights ----

// ---- walk ----

mod walk {
    use damier::control::Control;
    use damier::walk::{Board, Grid, Method, fast, path, solve};

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
            let sols = fast::solve(Board::new(n, n).unwrap(), &Control::new()).unwrap();
            assert_eq!(sols.count_decimal(), expected.to_string(), "{n} x {n}");
            // The chosen solution and every kernel vector are checked by the press image.
            assert!(sols.particular.press_image().is_full());
            assert!(sols.kernel().iter().all(|k| k.press_image().is_zero()));
        }
        // The first-row enumeration agrees where it is allowed (narrow side <= 24).
        for (i, &expected) in counts.iter().enumerate().take(16) {
            let n = i + 1;
            let sols = solve(Board::new(n, n).unwrap(), Method::Rows, &Control::new()).unwrap();
            assert_eq!(sols.count_decimal(), expected.to_string(), "rows method, {n} x {n}");
        }
    }

    #[test]
    fn oeis_a159257_nullities_to_130() {
        let nullity = super::u64_list(&super::data(), "walk", "square_nullity");
        assert_eq!(nullity.len(), 130);
        for (i, &expected) in nullity.iter().enumerate() {
            let n = i + 1;
            let sols = fast::solve(Board::new(n, n).unwrap(), &Control::new()).unwrap();
            assert_eq!(sols.nullity() as u64, expected, "{n} x {n}");
            assert!(sols.particular.press_image().is_full(), "{n} x {n}");
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
            let replay = path::replay(Board::new(rows, cols).unwrap(), &moves);
            assert!(replay.all_black(), "{rows} x {cols}: {:?}", ex["moves"]);
            // What the walk landed on oddly is a solution: the independent check M a = 1.
            assert!(replay.landings.press_image().is_full());
        }
    }

    #[test]
    fn seed_pictures() {
        let t = walk_data();
        // 4 x 4: the seed's walk lands oddly on exactly the seed's picture, which our fast
        // solver also picks (free unknowns 0), and our own path for it replays too.
        let p4 = Grid::from_picture(&lines(&t, "picture_4x4")).unwrap();
        let b4 = Board::new(4, 4).unwrap();
        let seed_moves = path::parse_moves(t["picture_4x4_moves"].as_str().unwrap()).unwrap();
        assert_eq!(path::replay(b4, &seed_moves).landings, p4);
        let ours = path::path_for(b4, &p4).unwrap();
        assert!(path::replay(b4, &ours).all_black());
        assert_eq!(fast::solve(b4, &Control::new()).unwrap().particular, p4);
        // 20 x 20 has one solution: it must be the seed's picture.
        let p20 = Grid::from_picture(&lines(&t, "picture_20x20")).unwrap();
        let sols = fast::solve(Board::new(20, 20).unwrap(), &Control::new()).unwrap();
        assert_eq!(sols.nullity(), 0);
        assert_eq!(sols.particular, p20);
    }
}
