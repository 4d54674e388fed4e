use super::*;

/// The 8 symmetries of the square applied to a solution given as 0-based columns per row.
fn images(cols: &[u8]) -> Vec<Vec<u8>> {
    let n = cols.len();
    let mut out = Vec::with_capacity(8);
    let mut cur = cols.to_vec();
    for _ in 0..4 {
        // Quarter turn: the queen (r, c) goes to (c, n-1-r).
        let mut next = vec![0u8; n];
        for (r, &c) in cur.iter().enumerate() {
            next[c as usize] = (n - 1 - r) as u8;
        }
        let mirrored: Vec<u8> = cur.iter().map(|&c| (n - 1) as u8 - c).collect();
        out.push(cur);
        out.push(mirrored);
        cur = next;
    }
    out
}

/// Unique classes by listing every solution and keeping the smallest image of each.
fn unique_by_canonical_forms(n: u32) -> u64 {
    let mut canon: Vec<Vec<u8>> = solutions(n).iter().map(|s| images(s).into_iter().min().unwrap()).collect();
    canon.sort();
    canon.dedup();
    canon.len() as u64
}

fn is_valid(cols: &[u8]) -> bool {
    let n = cols.len();
    (0..n).all(|i| {
        (i + 1..n).all(|j| {
            let (a, b) = (cols[i] as i64, cols[j] as i64);
            a != b && (a - b).abs() != (j - i) as i64
        })
    })
}

#[test]
fn listed_solutions_are_valid_and_counted_by_the_plain_counter() {
    for n in 1..=10 {
        let all = solutions(n);
        assert!(all.iter().all(|s| s.len() == n as usize && is_valid(s)), "n = {n}");
        assert_eq!(all.len() as u64, total_plain(n), "n = {n}");
    }
}

#[test]
fn rotation_fixed_counts_match_the_listing() {
    for n in 1..=12u32 {
        let all = solutions(n);
        let fixed = |k: usize| all.iter().filter(|s| images(s)[2 * k] == **s).count() as u64;
        assert_eq!(fixed_by_quarter_turn(n), fixed(1), "F90, n = {n}");
        assert_eq!(fixed_by_half_turn(n), fixed(2), "F180, n = {n}");
        assert_eq!(fixed(3), fixed(1), "F270 = F90, n = {n}");
    }
}

#[test]
fn burnside_unique_matches_canonical_forms() {
    for n in 1..=12 {
        let c = count_with(n, Strategy::Backtrack, &Control::new()).unwrap();
        assert_eq!(c.unique, unique_by_canonical_forms(n), "n = {n}");
    }
}

#[test]
fn every_strategy_agrees_with_the_plain_counter() {
    for n in 0..=12 {
        let want = total_plain(n);
        for s in Strategy::ALL {
            let c = count_with(n, s, &Control::new()).unwrap();
            assert_eq!((c.n, c.total), (n, want), "{} n = {n}", s.name());
        }
    }
}

/// n counted with `strategy` on a fresh rayon pool of `threads` threads (checked to be the
/// pool the count ran on).
fn count_on_pool(n: u32, threads: usize, strategy: Strategy) -> Counts {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        assert_eq!(rayon::current_num_threads(), threads);
        count_with(n, strategy, &Control::new()).unwrap()
    })
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    for threads in [1, 2, 3] {
        for s in Strategy::ALL {
            let c = count_on_pool(11, threads, s);
            assert_eq!((c.total, c.unique), (2680, 341), "{} {threads}", s.name());
        }
    }
}

#[test]
fn progress_reaches_the_announced_task_count() {
    for n in [2, 5, 8, 9, 13] {
        for s in Strategy::ALL {
            let control = Control::new();
            count_with(n, s, &control).unwrap();
            assert_eq!(Some(control.done()), task_count_with(n, s, Share::WHOLE), "{} n = {n}", s.name());
        }
    }
}

#[test]
fn a_cancelled_count_is_interrupted() {
    let control = Control::new();
    control.cancel();
    for s in Strategy::ALL {
        assert_eq!(count_with(12, s, &control), Err(CountError::Interrupted(Interrupted)));
    }
}

#[test]
fn interrupted_is_the_source_of_the_error() {
    // The CLI finds `Interrupted` by walking the error chain (exit 130): the variant must
    // expose it as its source, not forward to it transparently.
    let err = CountError::Interrupted(Interrupted);
    let source = std::error::Error::source(&err).expect("Interrupted has a source");
    assert!(source.downcast_ref::<Interrupted>().is_some());
}

#[test]
fn too_large_is_refused() {
    assert_eq!(count_solutions(33, &Control::new()), Err(CountError::TooLarge(33)));
    assert_eq!(task_count(33), None);
}

#[test]
fn quarters_agree_with_the_backtracker_to_14() {
    // n = 4..=14 covers both parities, mirror-symmetric column sets, stored sets small enough
    // to be scanned and large enough to fill whole blocks.
    for n in 4..=14 {
        let control = Control::new();
        let fast = count_with(n, Strategy::Quarters, &control).unwrap();
        let slow = count_with(n, Strategy::Backtrack, &control).unwrap();
        assert_eq!(fast, slow, "n = {n}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    /// Any n the engines share, any pool size: the same counts as the plain counter.
    #[test]
    fn quarters_match_the_plain_counter(n in 4u32..=11, threads in 1usize..=4) {
        let c = count_on_pool(n, threads, Strategy::Quarters);
        proptest::prop_assert_eq!(c.total, total_plain(n));
    }
}

#[test]
fn shares_add_up_to_the_total() {
    let control = Control::new();
    for n in [0, 1, 2, 6, 9, 12] {
        let want = total_plain(n);
        for of in [1, 2, 3, 7] {
            for s in Strategy::ALL {
                let shares: Vec<Share> = (0..of).map(|i| Share::new(i, of).unwrap()).collect();
                let sum: u64 = shares
                    .iter()
                    .map(|&sh| total_with(n, s, sh, &CountOptions::default(), &control).unwrap())
                    .sum();
                assert_eq!(sum, want, "{} n = {n}, {of} shares", s.name());
                let tasks: u64 = shares.iter().map(|&sh| task_count_with(n, s, sh).unwrap()).sum();
                if s != Strategy::Plain {
                    assert_eq!(Some(tasks), task_count_with(n, s, Share::WHOLE), "{} n = {n}", s.name());
                }
            }
        }
    }
    assert_eq!(Share::new(3, 3), None);
}

#[test]
fn share_parse_accepts_k_of_m_and_names_each_fault() {
    assert_eq!(Share::parse("3/8"), Ok(Share::new(2, 8).unwrap()));
    assert_eq!(Share::parse(" 1 / 1 "), Ok(Share::WHOLE));
    let max = format!("{MAX_SHARES}/{MAX_SHARES}");
    assert_eq!(Share::parse(&max), Ok(Share::new(MAX_SHARES - 1, MAX_SHARES).unwrap()));
    assert_eq!(Share::parse("3"), Err(ShareError::NoSlash));
    assert_eq!(Share::parse("x/8"), Err(ShareError::BadIndex("x".into())));
    assert_eq!(Share::parse("-1/8"), Err(ShareError::BadIndex("-1".into())));
    assert_eq!(Share::parse("1/8/2"), Err(ShareError::BadCount("8/2".into())));
    assert_eq!(Share::parse("1/0"), Err(ShareError::CountOutOfRange));
    assert_eq!(Share::parse(&format!("1/{}", MAX_SHARES + 1)), Err(ShareError::CountOutOfRange));
    assert_eq!(Share::parse("0/8"), Err(ShareError::IndexOutOfRange { k: "0".into(), m: 8 }));
    assert_eq!(Share::parse("9/8"), Err(ShareError::IndexOutOfRange { k: "9".into(), m: 8 }));
    // Whole numbers past a u32 are out of range, not "not a positive integer".
    let huge = "18446744073709551616";
    assert_eq!(Share::parse(&format!("1/{huge}")), Err(ShareError::CountOutOfRange));
    assert_eq!(Share::parse(&format!("{huge}/8")), Err(ShareError::IndexOutOfRange { k: huge.into(), m: 8 }));
}

#[test]
fn counts_from_total_checks_the_total() {
    assert_eq!(counts_from_total(8, 92), Ok(Counts { n: 8, total: 92, unique: 12 }));
    assert_eq!(counts_from_total(8, 91), Err(CountError::ImpossibleTotal { n: 8, total: 91 }));
    assert_eq!(counts_from_total(1, 1), Ok(Counts { n: 1, total: 1, unique: 1 }));
    assert!(counts_from_total(1, 2).is_err());
    assert!(counts_from_total(8, u64::MAX).is_err());
    assert_eq!(counts_from_total(33, 1), Err(CountError::TooLarge(33)));
    // Near the top of a u64 the Burnside sum no longer fits one, and is still checked: at
    // n = 12, F180 + 2 F90 = 8 * 1787 - 14200 = 96, so a multiple of 8 passes.
    let top = u64::MAX - 7;
    assert_eq!(counts_from_total(12, top).map(|c| c.unique), Ok((u64::MAX >> 3) + 12));
    assert!(counts_from_total(12, top + 1).is_err());
}

#[test]
fn sums_past_a_u64_are_refused_as_totals() {
    assert_eq!(total_from_sum(u128::from(u64::MAX)), Ok(u64::MAX));
    let past = u128::from(u64::MAX) + 1;
    assert_eq!(total_from_sum(past), Err(CountError::TotalTooLarge { total: past }));
}
