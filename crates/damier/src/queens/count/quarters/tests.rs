//! Tests of the quarter-board engine: each column set against the listed solutions, every
//! ISA's kernels against the others and against plain double loops.

use proptest::prelude::*;

use super::matcher::{Matcher, transpose64};
use super::table::Cell;
use super::*;

/// The ISAs this machine runs, said once per test run (a CI machine may lack AVX-512: the
/// tests then cover fewer paths, and say so).
fn covered() -> impl Iterator<Item = Isa> {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        let all: Vec<&str> = Isa::available().map(Isa::name).collect();
        let missing: Vec<&str> = Isa::ALL.into_iter().filter(|i| !i.is_available()).map(Isa::name).collect();
        let missing = if missing.is_empty() { "none".to_string() } else { missing.join(", ") };
        println!("quarters kernels tested on: {} (not on this CPU: {missing})", all.join(", "));
    });
    Isa::available()
}

/// Every column set of the top half is counted once, directly or through its mirror.
#[test]
fn tasks_cover_every_column_set() {
    for n in MIN_N..=MAX_N {
        let g = Geometry::new(n);
        let binomial = (0..g.q as u64).fold(1u64, |acc, i| acc * (n as u64 - i) / (i + 1));
        assert_eq!(tasks(&g).iter().map(|t| t.weight).sum::<u64>(), binomial, "n = {n}");
    }
}

/// The engine's count for each column set, against its definition evaluated on the listed
/// solutions: over the solutions whose top half uses exactly these columns and whose
/// bottom half avoids both long diagonals, 2 per long-diagonal queen of the top half
/// other than the centre.
#[test]
fn each_column_set_gets_its_weighted_count() {
    for n in MIN_N..=10 {
        let g = Geometry::new(n);
        let q = g.q as usize;
        let mut want = vec![0u64; 1 << n];
        for s in crate::queens::count::solutions(n) {
            let cols = s[..q].iter().fold(0usize, |m, &c| m | 1 << c);
            let on_long = |r: usize, c: usize| r == c || r + c == n as usize - 1;
            let centre = |r: usize, c: usize| 2 * r + 1 == n as usize && r == c;
            if (q..n as usize).any(|r| on_long(r, s[r] as usize)) {
                continue;
            }
            let e = (0..q).filter(|&r| on_long(r, s[r] as usize) && !centre(r, s[r] as usize)).count();
            want[cols] += 1 << e;
        }
        let quarters = Quarters::new(&g);
        for isa in covered() {
            let mut w = Work::new(&g, isa);
            for cols in subsets((1 << n) - 1, g.q) {
                let got = count_task(&g, &quarters, Task { cols, weight: 1 }, &mut w);
                assert_eq!(got, want[cols as usize], "n = {n}, columns {cols:b}, {isa}");
            }
        }
    }
}

#[test]
fn transpose_moves_every_bit() {
    let mut m = [0u64; 64];
    for (i, w) in m.iter_mut().enumerate() {
        *w = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (1 << i);
    }
    let before = m;
    transpose64(&mut m);
    for (i, row) in before.iter().enumerate() {
        for (j, col) in m.iter().enumerate() {
            assert_eq!(row >> j & 1, col >> i & 1, "bit ({i}, {j})");
        }
    }
}

#[test]
fn quarter_table_holds_every_partial_placement() {
    // 4 x 4: count placements by brute force over all subsets of cells.
    let h = 4u32;
    let t = QuarterTable::new(h);
    let mut want = 0;
    for cells in 0u32..1 << 16 {
        let q: Vec<(i32, i32)> = (0..16).filter(|&i| cells >> i & 1 == 1).map(|i| (i / 4, i % 4)).collect();
        let ok = q.iter().enumerate().all(|(x, &(r1, c1))| {
            q[x + 1..].iter().all(|&(r2, c2)| r1 != r2 && c1 != c2 && (r1 - r2).abs() != (c1 - c2).abs())
        });
        want += ok as usize;
    }
    assert_eq!(t.entries.len(), want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every vector unit joins the same pairs as the double loop.
    #[test]
    fn join_keeps_the_pairs_without_a_common_diagonal(
        left in proptest::collection::vec((any::<u64>(), any::<u64>(), 0u64..1 << 40), 0..12),
        right in proptest::collection::vec((any::<u64>(), any::<u64>(), 0u64..1 << 40), 0..21),
        keep in prop_oneof![Just(u64::MAX), Just((1u64 << WEIGHT_AT) - 1)],
    ) {
        // Sparse masks, so that a fair share of pairs fit.
        let cols = |v: &Vec<(u64, u64, u64)>| -> (Vec<u64>, Vec<u64>, Vec<u64>) {
            (v.iter().map(|x| x.0 & x.0.rotate_left(13) & x.0.rotate_left(29)).collect(),
             v.iter().map(|x| x.1 & x.1.rotate_left(17) & x.1.rotate_left(31)).collect(),
             v.iter().map(|x| x.2 | 1 << WEIGHT_AT).collect())
        };
        let (ls, ld, lk) = cols(&left);
        let (rs, rd, rk) = cols(&right);
        let l = Cell { sums: &ls, diffs: &ld, keys: &lk };
        let r = Cell { sums: &rs, diffs: &rd, keys: &rk };
        let mut want = vec![7];
        for i in 0..l.len() {
            for j in 0..r.len() {
                if ls[i] & rs[j] == 0 && ld[i] & rd[j] == 0 {
                    want.push((lk[i] + rk[j]) & keep);
                }
            }
        }
        want.sort_unstable();
        for isa in covered() {
            let mut got = vec![7];
            kernel::join(isa, l, r, keep, &mut got);
            got.sort_unstable();
            prop_assert_eq!(&got, &want, "{}", isa);
        }
    }

    /// The matcher counts the same disjoint pairs as the obvious double loop, on every
    /// vector unit, for any number of keys (full blocks, a sliced tail, a scanned tail).
    #[test]
    fn matcher_counts_disjoint_pairs(
        bits in 6u32..=52,
        stored in proptest::collection::vec(any::<u64>(), 0..1300),
        queries in proptest::collection::vec((any::<u64>(), 0u64..3), 0..40),
        sparse in 0u32..4,
    ) {
        let mask = (1u64 << bits) - 1;
        let thin = |v: &Vec<u64>| -> Vec<u64> {
            v.iter().map(|&k| {
                let mut k = k & mask;
                for i in 0..sparse { k &= k.rotate_left(7 + i) }
                k
            }).collect()
        };
        let stored = thin(&stored);
        let keys = thin(&queries.iter().map(|q| q.0).collect());
        // Each query carries a weight exponent 0..=2 in its top bits.
        let queries: Vec<u64> = keys.iter().zip(&queries).map(|(&k, q)| k | q.1 << WEIGHT_AT).collect();
        let weighted = |keys: &[u64]| -> u64 {
            queries.iter().map(|&q| (keys.iter().filter(|&&k| k & q == 0).count() as u64) << (q >> WEIGHT_AT)).sum()
        };
        let want = weighted(&stored);
        let mut m = Matcher::new(bits);
        m.keys.extend_from_slice(&stored);
        m.seal();
        let tail_count = weighted(&m.keys[m.sliced..]);
        for isa in covered() {
            prop_assert_eq!(kernel::count(isa, &m.rows, m.chunks, &queries) + tail_count, want, "{}", isa);
            prop_assert_eq!(kernel::scan(isa, &stored, &queries), want, "scan, {}", isa);
            prop_assert_eq!(m.count(isa, &queries), want, "matcher, {}", isa);
        }
    }
}
