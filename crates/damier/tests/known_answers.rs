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
