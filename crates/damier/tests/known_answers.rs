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
        let got = damier::queens::count(n, &Control::new()).unwrap();
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
#[ignore = "slow: about 5 minutes in a release build on the loaded 2-core machine (backtracker, n = 17)"]
fn queens_counts_to_17() {
    check_queens_counts(13..=17, &[Strategy::Backtrack, Strategy::Halves]);
}

#[test]
#[ignore = "slow: several minutes in a release build on the loaded 2-core machine (n = 19)"]
fn queens_counts_18_and_19() {
    check_queens_counts(18..=19, &[]);
}

// ---- automaton ----

// ---- lights ----

// ---- walk ----
