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

fn lights_table() -> toml::Table {
    data()["lights"].as_table().expect("[lights] table").clone()
}

#[test]
fn lights_seed_table_l_2_to_39() {
    let t = lights_table();
    let from = t["square_solutions_from"].as_integer().unwrap() as usize;
    let want: Vec<u64> =
        t["square_solutions"].as_array().unwrap().iter().map(|v| v.as_integer().unwrap() as u64).collect();
    let nul = damier::lights::square_nullities(from + want.len() - 1, &Control::new()).unwrap();
    for (i, &w) in want.iter().enumerate() {
        let l = from + i;
        assert_eq!(damier::lights::power_of_two_decimal(nul[l - 1] as u64), w.to_string(), "L = {l}");
        // The direct gcd agrees with the square formula.
        assert_eq!(damier::lights::nullity(l, l), nul[l - 1], "L = {l}");
    }
    // And the all-on board really has that many solutions: one verified, plus the kernel.
    for l in [4usize, 5, 9, 11] {
        let on = damier::board::Board::ones(l, l).unwrap();
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
            let on = damier::board::Board::ones(w, h).unwrap();
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
        assert_eq!(got[n - 1], damier::lights::nullity(n, n), "n = {n}");
    }
}

// ---- walk ----
