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

#[test]
fn automaton_pair_counts() {
    use damier::automaton::pairs;
    let d = data();
    for (i, &want) in u64_list(&d, "automaton", "pairs").iter().enumerate() {
        let n = i + 1;
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

// ---- walk ----
