//! The listing engines (naive, bit-vector, unique listing) against the known-answer file.
//!
//! Slow cases are `#[ignore]`d: `cargo test --release -p damier --test queens_engines -- --ignored`.

use std::ops::ControlFlow;

use damier::control::Control;
use damier::queens::{naive, search, symmetry};

fn known(key: &str) -> Vec<u64> {
    let t: toml::Table =
        toml::from_str(include_str!("data/known_answers.toml")).expect("known_answers.toml parses");
    t["queens"][key]
        .as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_integer().expect("integer") as u64)
        .collect()
}

fn listed(n: u32) -> u64 {
    let mut k = 0;
    search::visit(n, &Control::new(), |cols| {
        debug_assert_eq!(cols.len(), n as usize);
        k += 1;
        ControlFlow::Continue(())
    })
    .unwrap();
    k
}

fn unique_listed(n: u32) -> u64 {
    let mut k = 0;
    symmetry::visit_unique(n, &Control::new(), |_| {
        k += 1;
        true
    })
    .unwrap();
    k
}

fn check(range: std::ops::RangeInclusive<u32>, naive_max: u32) {
    let (total, unique) = (known("total"), known("unique"));
    for n in range {
        let i = (n - 1) as usize;
        assert_eq!(listed(n), total[i], "bit-vector listing, n = {n}");
        assert_eq!(unique_listed(n), unique[i], "unique listing, n = {n}");
        if n <= naive_max {
            assert_eq!(naive::count(n, &Control::new()).unwrap(), total[i], "naive, n = {n}");
        }
    }
}

#[test]
fn listings_match_oeis_small() {
    check(1..=11, 10);
}

#[test]
#[ignore = "slow: about 7 s in a release build, minutes in the dev profile"]
fn listings_match_oeis_to_14() {
    check(12..=14, 13);
}
