//! Tests of the quarter-board engine: each column set against the listed solutions, every
//! ISA's kernels against the others and against plain double loops.

use proptest::prelude::*;

use super::matcher::Matcher;
use super::sliced::{BLOCK, CHUNK, WIDE_CHUNK, slice_block, transpose};
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

/// Every column set of the top half is counted once, directly or through its mirror (up to
/// n = 22 here; `cargo test -p damier --release -- --ignored tasks_cover` checks up to
/// [`MAX_N`]).
#[test]
fn tasks_cover_every_column_set() {
    tasks_cover(MIN_N..=22);
}

#[test]
#[ignore = "slow: 2^27 subsets; run with --release -- --ignored"]
fn tasks_cover_every_column_set_up_to_max_n() {
    tasks_cover(23..=MAX_N);
}

fn tasks_cover(ns: std::ops::RangeInclusive<u32>) {
    for n in ns {
        let g = Geometry::new(n);
        let binomial = (0..g.q as u64).fold(1u64, |acc, i| acc * (n as u64 - i) / (i + 1));
        assert_eq!(tasks(&g).iter().map(|t| t.weight).sum::<u64>(), binomial, "n = {n}");
    }
}

/// The tasks counted without listing them are those listed, for the whole list and for
/// shares of it (more shares than tasks included), and a share's list is the whole list's
/// share, in order.
#[test]
fn task_count_is_the_listed_tasks() {
    for n in MIN_N..=20 {
        let g = Geometry::new(n);
        let all = tasks(&g);
        assert_eq!(column_sets(n), all.len() as u64, "n = {n}");
        for (index, of) in [(0, 1), (0, 2), (1, 2), (0, 7), (6, 7), (12, 1000), (999, 1000), (5, 1_000_000)] {
            let share = Share::new(index, of).unwrap();
            let listed = share.take(all.clone());
            assert_eq!(task_count(n, share), listed.len() as u64, "n = {n}, share {index}/{of}");
            let picked = share_tasks(&g, share);
            assert_eq!(
                picked.iter().map(|t| t.cols).collect::<Vec<_>>(),
                listed.iter().map(|t| t.cols).collect::<Vec<_>>()
            );
        }
    }
}

proptest! {
    /// Any share of any n up to 16: the count without the list is the list's length.
    #[test]
    fn task_count_of_any_share_is_its_list_length(n in MIN_N..=16u32, of in 1u32..=3000, at in 0u32..3000) {
        let share = Share::new(at % of, of).unwrap();
        prop_assert_eq!(task_count(n, share), share.take(tasks(&Geometry::new(n))).len() as u64);
    }
}

/// The counts up to [`MAX_N`], where listing is slow: the binomials against Pascal's
/// triangle, and n = 28's count by hand.
#[test]
fn column_sets_up_to_max_n() {
    let mut row = vec![1u64];
    for n in 1..=MAX_N {
        row =
            (0..=row.len()).map(|k| if k == 0 || k == row.len() { 1 } else { row[k - 1] + row[k] }).collect();
        for k in 0..=n + 1 {
            assert_eq!(binomial(n, k), row.get(k as usize).copied().unwrap_or(0), "C({n}, {k})");
        }
    }
    // n = 28: C(28, 14) = 40 116 600, of which C(14, 7) = 3 432 are their own mirror image.
    assert_eq!(column_sets(28), (40_116_600 + 3_432) / 2);
}

/// [`count_task`] with a control nobody cancels.
fn uncancelled(g: &Geometry, quarters: &Quarters, task: Task, w: &mut Work) -> u64 {
    count_task(g, quarters, task, w, &Control::new()).expect("a control nobody cancels")
}

/// A cancelled control stops every task at its start, whole or made in pieces (batches,
/// query chunks), so that Ctrl-C never waits for a task of n = 28 to end.
#[test]
fn a_cancelled_task_stops_at_once() {
    let n = 12;
    let g = Geometry::new(n);
    let quarters = Quarters::new(&g, false, u64::MAX, &Control::new()).unwrap();
    let cancelled = Control::new();
    cancelled.cancel();
    for cols in subsets((1 << n) - 1, g.q) {
        let task = Task { cols, weight: 1 };
        let mut w = Work::new(&g, Isa::Portable);
        for (batch, query_chunk) in [(STORED_KEYS, QUERY_CHUNK), (5, QUERY_CHUNK), (5, 3)] {
            w.batch = batch;
            w.query_chunk = query_chunk;
            w.matcher.group_keys = 2;
            let got = count_task(&g, &quarters, task, &mut w, &cancelled);
            assert_eq!(got, Err(Interrupted), "columns {cols:b}");
        }
        // The worker's buffers stay usable: the next task counts right.
        assert_eq!(
            uncancelled(&g, &quarters, task, &mut w),
            uncancelled(&g, &quarters, task, &mut Work::new(&g, Isa::Portable))
        );
    }
}

/// Each long stretch inside a task polls the control itself: the quarter table and a quarter's
/// search, a seal and a match, so that none runs to its end once cancelled.
#[test]
fn every_long_stretch_of_a_task_polls_the_control() {
    use rand::{RngExt, SeedableRng};
    let cancelled = Control::new();
    cancelled.cancel();
    assert_eq!(QuarterTable::size(8, &cancelled).err(), Some(Interrupted));
    let g = Geometry::new(16);
    assert_eq!(Quarters::new(&g, true, u64::MAX, &cancelled).err(), Some(Interrupted));
    let search = Quarters::new(&g, false, u64::MAX, &Control::new()).unwrap();
    let mut cells = PlacedCells::new(g.quarter(0, 0), g.q, false);
    assert_eq!(cells.load(&g, &search.source, 0b1111_0000, &cancelled), Err(Interrupted));
    // Stored keys and queries on 20 bits, as a task's: both the seal and the match stop.
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
    let mut keys = |k: usize| -> Vec<u64> {
        (0..k).map(|_| rng.random::<u64>() & rng.random::<u64>() & 0xf_ffff).collect()
    };
    let (stored, queries) = (keys(1 << 14), keys(1 << 12));
    let mut m = Matcher::new(20, (0..20).collect());
    m.order_cuts(&stored, &queries, queries.len(), 0xf_ffff);
    assert_eq!(m.seal(Isa::Portable, &stored, &cancelled), Err(Interrupted));
    m.seal_all(Isa::Portable, &stored);
    assert_eq!(m.count(Isa::Portable, &queries, &cancelled), Err(Interrupted));
    let want = stored.iter().map(|s| queries.iter().filter(|&&q| q & s == 0).count() as u64).sum::<u64>();
    assert_eq!(m.count_all(Isa::Portable, &queries), want, "a stopped match leaves the matcher usable");
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
        for table in [true, false] {
            let quarters = Quarters::new(&g, table, u64::MAX, &Control::new()).unwrap();
            assert_eq!(matches!(quarters.source, Source::Table(_)), table);
            // Each side stored: the bottom halves, or the top halves with their weights.
            // Small batches make the stored side in pieces, small query chunks the queries too.
            let layouts = [
                (STORED_KEYS, QUERY_CHUNK, (usize::MAX, usize::MAX)),
                (5, QUERY_CHUNK, (usize::MAX, usize::MAX)),
                (5, QUERY_CHUNK, (0, 0)),
                (5, 3, (usize::MAX, usize::MAX)),
                (5, 3, (0, 0)),
            ];
            for (isa, (batch, query_chunk, swap)) in covered().flat_map(|isa| layouts.map(|l| (isa, l))) {
                let mut w = Work::new(&g, isa);
                w.batch = batch;
                w.query_chunk = query_chunk;
                w.swap = swap;
                // Small batches also cut small groups.
                if batch < STORED_KEYS {
                    w.matcher.group_keys = 2;
                }
                for cols in subsets((1 << n) - 1, g.q) {
                    let got = uncancelled(&g, &quarters, Task { cols, weight: 1 }, &mut w);
                    assert_eq!(
                        got, want[cols as usize],
                        "n = {n}, columns {cols:b}, {isa}, table {table}, batch {batch}, queries {query_chunk}, \
                         swap {swap:?}"
                    );
                }
            }
        }
    }
}

/// The weighted count of one column set by a plain backtracker over the whole board (the
/// definition of [`count_task`]'s result): the top half's queens on exactly `cols`, the bottom
/// half's off both long diagonals, each solution weighing 2 per long-diagonal queen of the top
/// half other than the centre.
/// The weighted pairs of plain pair checks: every (query, stored key) with no key bit in
/// common counts `2^(e + f)` for the weight exponents `e` of the query and `f` of the key.
fn weighted_pairs(stored: &[u64], queries: &[u64]) -> u64 {
    let bits = (1u64 << WEIGHT_AT) - 1;
    queries
        .iter()
        .map(|&q| {
            stored
                .iter()
                .filter(|&&k| k & q & bits == 0)
                .map(|&k| 1u64 << ((q >> WEIGHT_AT) + (k >> WEIGHT_AT)))
                .sum::<u64>()
        })
        .sum()
}

fn weighted_by_backtracking(n: u32, cols: u32) -> u64 {
    fn go(n: u32, q: u32, row: u32, allowed: u32, (c, d1, d2): (u32, u64, u64), e: u32) -> u64 {
        if row == n {
            return 1 << e;
        }
        let top = row < q;
        let mut free = (if top { allowed } else { !allowed & ((1 << n) - 1) }) & !c;
        let mut sum = 0;
        while free != 0 {
            let col = free.trailing_zeros();
            free &= free - 1;
            let (a, b) = (1u64 << (row + col), 1u64 << (col + n - 1 - row));
            if d1 & a != 0 || d2 & b != 0 {
                continue;
            }
            let long = col == row || row + col == n - 1;
            let centre = 2 * row + 1 == n && row == col;
            if !top && long {
                continue;
            }
            let e = e + u32::from(top && long && !centre);
            sum += go(n, q, row + 1, allowed, (c | 1 << col, d1 | a, d2 | b), e);
        }
        sum
    }
    go(n, n - n / 2, 0, cols, (0, 0, 0), 0)
}

/// A few column sets per n against the backtracker, in both layouts.
fn column_sets_agree_with_backtracking(ns: std::ops::RangeInclusive<u32>, per_n: usize, table: bool) {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2026);
    for n in ns {
        let g = Geometry::new(n);
        let all = tasks(&g);
        let quarters = Quarters::new(&g, table && g.q <= TABLE_MAX_Q, u64::MAX, &Control::new()).unwrap();
        let mut w = Work::new(&g, Isa::best());
        let default_swap = w.swap;
        w.batch = if table { STORED_KEYS } else { 1000 };
        w.query_chunk = if table { QUERY_CHUNK } else { 700 };
        for _ in 0..per_n {
            let t = all[rng.random_range(0..all.len())];
            let want = weighted_by_backtracking(n, t.cols);
            // Either side stored (the top halves whenever they are not fewer, or never).
            for swap in [default_swap, (1, 0), (usize::MAX, 0)] {
                w.swap = swap;
                let got = uncancelled(&g, &quarters, Task { cols: t.cols, weight: 1 }, &mut w);
                assert_eq!(got, want, "n = {n}, columns {:b}, swap {swap:?}", t.cols);
            }
        }
    }
}

#[test]
fn random_column_sets_agree_with_backtracking() {
    column_sets_agree_with_backtracking(11..=16, 4, true);
    column_sets_agree_with_backtracking(11..=16, 4, false);
}

/// The n >= 23 layout (per-task searches, batches, cuts) on random column sets, against the
/// backtracker: `cargo test -p damier --release -- --ignored column_sets_at_23`.
#[test]
#[ignore = "slow: minutes in release mode"]
fn column_sets_at_23_and_24_agree_with_backtracking() {
    column_sets_agree_with_backtracking(23..=24, 2, false);
}

/// As above for n = 25..=27 (hours of backtracking):
/// `cargo test -p damier --release -- --ignored column_sets_at_25`.
#[test]
#[ignore = "slow: hours in release mode"]
fn column_sets_at_25_to_27_agree_with_backtracking() {
    column_sets_agree_with_backtracking(25..=27, 1, false);
}

/// Per-task searches of the quarter placements give the same totals as the whole table, on
/// every share, and the totals are the backtracker's.
#[test]
fn per_task_search_agrees_with_the_table_and_the_backtracker() {
    let control = Control::new();
    for n in MIN_N..=13 {
        let want = crate::queens::count::total_plain(n);
        for of in [1, 3] {
            let (mut by_table, mut by_search) = (0, 0);
            for index in 0..of {
                let share = Share::new(index, of).expect("index < of");
                by_table += total_in(n, share, Isa::best(), None, true, &control).expect("no limit");
                by_search += total_in(n, share, Isa::best(), None, false, &control).expect("no limit");
            }
            assert_eq!((by_table, by_search), (want, want), "n = {n}, {of} shares");
        }
    }
}

/// A memory limit below the table's size switches to searches; one below the task list and
/// The left quarters' cells are converted once for all tasks only where they fit beside the
/// table in the room given: with one byte less they are not built, and the table still is.
#[test]
fn shared_cells_are_built_only_where_they_fit() {
    for n in [12, 13, 16] {
        let g = Geometry::new(n);
        let (table_bytes, start) = QuarterTable::size(g.q, &Control::new()).unwrap();
        let table = QuarterTable::fill(g.q, start, &Control::new()).unwrap();
        let shared = SharedCells::bytes_at_most(&table, g.q) + SharedCells::bytes_at_most(&table, g.n - g.q);
        let fits = Quarters::new(&g, true, table_bytes + shared, &Control::new()).unwrap();
        assert!(matches!(fits.source, Source::Table(_)) && fits.left.is_some(), "n = {n}");
        let short = Quarters::new(&g, true, table_bytes + shared - 1, &Control::new()).unwrap();
        assert!(matches!(short.source, Source::Table(_)) && short.left.is_none(), "n = {n}");
    }
}

/// the workers' buffers is refused, naming both sizes.
#[test]
fn memory_limit_picks_the_layout_or_refuses() {
    let control = Control::new();
    let n = 12;
    let want = crate::queens::count::total_plain(n);
    let base = base_bytes(
        n,
        task_count(n, Share::WHOLE) as usize,
        rayon::current_num_threads(),
        STORED_KEYS,
        wide_tables(Isa::best()),
    );
    let (table_bytes, _) = QuarterTable::size(Geometry::new(n).q, &Control::new()).unwrap();
    let g = Geometry::new(n);
    assert!(matches!(
        Quarters::new(&g, true, table_bytes, &Control::new()).unwrap().source,
        Source::Table(_)
    ));
    assert!(matches!(
        Quarters::new(&g, true, table_bytes - 1, &Control::new()).unwrap().source,
        Source::Search { .. }
    ));
    assert_eq!(total(n, Share::WHOLE, Isa::best(), Some(base), &control), Ok(want));
    match total(n, Share::WHOLE, Isa::best(), Some(base - 1), &control) {
        Err(CountError::MemoryLimit(MemoryLimit { n: 12, need, limit })) => {
            assert_eq!((need, limit), (base, base - 1))
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    // The check a front end makes before it announces the count draws the same line.
    let tasks = task_count(n, Share::WHOLE) as usize;
    let wide = wide_tables(Isa::best());
    assert_eq!(check_memory(n, tasks, Some(base), wide), Ok(()));
    assert_eq!(
        check_memory(n, tasks, Some(base - 1), wide),
        Err(MemoryLimit { n, need: base, limit: base - 1 })
    );
    assert_eq!(check_memory(n, tasks, None, wide), Ok(()));
}

/// Large n: the batch shrinks to fit the limit, and a worker's bytes stay within 5 GB at
/// n = 27 and 28 with the default batch.
#[test]
fn batches_shrink_to_the_memory_limit() {
    for (n, isa) in [27, 28].into_iter().flat_map(|n| [Isa::best(), Isa::Portable].map(|i| (n, i))) {
        assert!(worker_bytes(n, STORED_KEYS, wide_tables(isa)) <= 5 << 30, "n = {n}, {isa}");
        let tasks = task_count(n, Share::new(0, 1000).unwrap()) as usize;
        let (batch, need) = batch_for(n, tasks, 1, 8 << 30, wide_tables(isa));
        assert_eq!(batch, STORED_KEYS);
        let (small, less) = batch_for(n, tasks, 1, need - 1, wide_tables(isa));
        assert!(small < batch && less < need, "n = {n}, {isa}: {small} keys, {less} bytes");
        let (least, _) = batch_for(n, tasks, 1, 0, wide_tables(isa));
        assert_eq!(least, MIN_STORED_KEYS);
    }
    // The portable unit's wider tables need more a key.
    assert!(worker_bytes(27, STORED_KEYS, true) > worker_bytes(27, STORED_KEYS, false));
    // Probe of 2026-12-06: the bound was the batch's part alone (185 MB with 2 M keys at
    // n = 25), while a worker held 407 MB (`worker-buffer-peaks` with `DAMIER_PEAK_BATCH`):
    // 138 MB of quarter cells and up to `QUERY_CHUNK` queries, which no batch shrinks, and
    // the matcher's rows taken with room to grow. The bound now covers what was measured at
    // n = 23, 24 and 25 with 2 M keys a batch (and at 25 with 4 M and 16 M).
    for (n, batch, measured) in
        [(23, 1 << 21, 178_713_992), (24, 1 << 21, 219_540_612), (25, 1 << 21, 407_170_600)]
            .into_iter()
            .chain([(25, 1 << 22, 584_667_262), (25, 1 << 24, 936_219_732)])
    {
        assert!(worker_bytes(n, batch, false) > measured, "n = {n}, batch {batch}");
    }
    // Even the smallest batch keeps the cells and a query chunk.
    assert!(worker_bytes(25, MIN_STORED_KEYS, false) > 138_000_000 + QUERY_CHUNK as u64 * 18);
    assert!(wide_tables(Isa::Portable) && !wide_tables(Isa::Avx2) && !wide_tables(Isa::Avx512));
}

/// A run builds the whole quarter table only when it has at least `2^q` tasks and the table
/// fits beside the workers; it is refused when the workers alone do not fit.
#[test]
fn the_table_is_built_for_many_tasks_that_fit() {
    let g = Geometry::new(16);
    let is_table = |p: Result<(usize, Quarters), CountError>| matches!(p.unwrap().1.source, Source::Table(_));
    let many = 1 << g.q;
    assert!(is_table(plan(&g, many, None, true, wide_tables(Isa::best()), &Control::new())));
    assert!(
        !is_table(plan(&g, many - 1, None, true, wide_tables(Isa::best()), &Control::new())),
        "too few tasks to pay for the table"
    );
    assert!(
        !is_table(plan(&g, many, None, false, wide_tables(Isa::best()), &Control::new())),
        "tables not allowed"
    );
    let (_, need) = batch_for(g.n, many, rayon::current_num_threads(), u64::MAX, wide_tables(Isa::best()));
    assert!(
        !is_table(plan(&g, many, Some(need), true, wide_tables(Isa::best()), &Control::new())),
        "no room left for the table"
    );
    assert!(matches!(
        plan(&g, many, Some(1024), true, wide_tables(Isa::best()), &Control::new()),
        Err(CountError::MemoryLimit(_))
    ));
}

/// The cut bits are ordered by the pairs they rule out: a bit both sides always hold comes
/// first, one only one side holds last; too few keys keep the fixed order; the counts do
/// not depend on the order.
#[test]
fn cut_bits_follow_the_pairs_they_rule_out() {
    let g = Geometry::new(12);
    let fixed = g.cut_candidates();
    let mut m = Matcher::new(g.key_bits(), fixed.clone());
    m.group_keys = 4;
    let (both, one) = (fixed[7], fixed[0]);
    let stored: Vec<u64> = (0..64u64).map(|i| 1 << both | 1 << one | (i & 1) << fixed[3]).collect();
    let queries: Vec<u64> = (0..64u64).map(|i| 1 << both | (i & 1) << fixed[3]).collect();
    m.order_cuts(&stored, &queries, queries.len(), key_bits_of(&queries));
    let order = m.ranked.clone();
    assert_eq!((order[0], order[1]), (both, fixed[3]), "{order:?}");
    assert!(order.iter().position(|&b| b == one).unwrap() > 1);
    m.seal_all(Isa::Portable, &stored);
    let adaptive = m.count_all(Isa::Portable, &queries);
    m.order_cuts(&stored[..4], &queries, queries.len(), key_bits_of(&queries));
    assert_eq!(m.ranked, fixed, "too few keys to cut: the fixed order");
    m.seal_all(Isa::Portable, &stored);
    assert_eq!(m.count_all(Isa::Portable, &queries), adaptive);
    let plain = stored.iter().map(|s| queries.iter().filter(|&&q| q & s == 0).count() as u64).sum::<u64>();
    assert_eq!(adaptive, plain);
}

/// The tables hold only the key bits both sides use, less the cut bits: keys spread over 54
/// bits but using 9 of them (3 only stored keys use, 2 only queries) pack onto 4 bits (one
/// chunk) once 0 or 2 of the shared bits are cut on, and the counts stay those of plain pair
/// checks on every ISA, whatever bits the caller says the queries may hold.
#[test]
fn tables_hold_only_bits_both_sides_use() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
    let (shared, stored_only, query_only) = ([2u32, 9, 17, 30, 41, 53], [5u32, 22, 47], [0u32, 38]);
    let draw = |rng: &mut rand_xoshiro::Xoshiro256PlusPlus, bits: &[u32]| {
        bits.iter().fold(0u64, |k, &b| k | u64::from(rng.random::<bool>() & rng.random::<bool>()) << b)
    };
    let both: Vec<u32> = shared.iter().chain(&stored_only).copied().collect();
    let ask: Vec<u32> = shared.iter().chain(&query_only).copied().collect();
    let stored: Vec<u64> = (0..3000).map(|_| draw(&mut rng, &both)).collect();
    let queries: Vec<u64> =
        (0..200).map(|_| draw(&mut rng, &ask) | rng.random_range(0..3u64) << WEIGHT_AT).collect();
    let want = weighted_pairs(&stored, &queries);
    for (max_cut, chunks) in [(0, 2), (2, 1)] {
        for query_bits in [key_bits_of(&queries), u64::MAX] {
            let mut m = Matcher::new(54, shared.to_vec());
            m.pack_min_keys = 0;
            m.max_cut = max_cut;
            m.group_keys = 64;
            m.order_cuts(&stored, &queries, queries.len(), query_bits);
            m.seal_all(Isa::Portable, &stored);
            assert_eq!(m.cut, max_cut);
            if query_bits != u64::MAX {
                assert_eq!(m.chunks, chunks, "cut {max_cut}: the 6 shared bits less the cut ones");
            }
            for isa in covered() {
                assert_eq!(m.count_all(isa, &queries), want, "{isa}, cut {max_cut}");
            }
            assert_eq!(m.sealed(Isa::Portable, &queries).count(), want, "the sealed view, cut {max_cut}");
        }
    }
}

/// 14 cut bits with weight exponents up to 3: group numbers fill their 16 bits.
#[test]
fn fourteen_cut_bits_with_weights() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(14);
    let bits = 54;
    let sparse = |rng: &mut rand_xoshiro::Xoshiro256PlusPlus| {
        let k: u64 = rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>();
        k & ((1 << bits) - 1)
    };
    let stored: Vec<u64> =
        (0..70_000).map(|_| sparse(&mut rng) | rng.random_range(0..4u64) << WEIGHT_AT).collect();
    let queries: Vec<u64> =
        (0..30).map(|_| sparse(&mut rng) | rng.random_range(0..3u64) << WEIGHT_AT).collect();
    let want = weighted_pairs(&stored, &queries);
    let mut m = Matcher::new(bits, (0..bits).collect());
    m.group_keys = 2;
    m.order_cuts(&stored, &queries, queries.len(), key_bits_of(&queries));
    for isa in covered() {
        m.seal_all(isa, &stored);
        assert_eq!(m.cut, 14);
        assert_eq!(m.count_all(isa, &queries), want, "{isa}");
        assert_eq!(m.sealed(isa, &queries).count(), want, "the sealed view after {isa}'s seal");
    }
}

/// The sealed view another device matches ([`Matcher::sealed`]) covers exactly the pairs the
/// matcher counts: with and without cut bits, packing, partial blocks and tails, weights on
/// both sides; and a whole task's matching handed out gives the engine's counts.
#[test]
fn the_sealed_view_counts_what_the_matcher_counts() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(36);
    let bits = 30;
    for (keys, group_keys, pack_min_keys, width) in [
        (5, 2048, 4096, CHUNK),
        (700, 2048, 4096, WIDE_CHUNK),
        (9000, 256, 0, CHUNK),
        (9000, 256, 0, WIDE_CHUNK),
        (9000, 64, 1 << 20, CHUNK),
        (9000, 64, 1 << 20, WIDE_CHUNK),
    ] {
        let key = |rng: &mut rand_xoshiro::Xoshiro256PlusPlus| {
            rng.random::<u64>() & rng.random::<u64>() & ((1 << bits) - 1)
        };
        let stored: Vec<u64> =
            (0..keys).map(|_| key(&mut rng) | rng.random_range(0..4u64) << WEIGHT_AT).collect();
        let queries: Vec<u64> =
            (0..300).map(|_| key(&mut rng) | rng.random_range(0..3u64) << WEIGHT_AT).collect();
        let mut m = Matcher::new(bits, (0..bits).collect());
        m.group_keys = group_keys;
        m.pack_min_keys = pack_min_keys;
        m.width = width;
        m.order_cuts(&stored, &queries, queries.len(), key_bits_of(&queries));
        m.seal_all(Isa::Portable, &stored);
        let want = weighted_pairs(&stored, &queries);
        let own_chunks = m.chunks;
        let sealed = m.sealed(Isa::Portable, &queries);
        assert_eq!(sealed.count(), want, "{keys} keys, groups of {group_keys}");
        let (visits, tests) = sealed.work();
        assert!(visits + tests > 0);
        // The matcher's own rows are the same keys and blocks sliced in its chunks (the
        // device's, of 5 bits, or 6); the rows a device makes of them (here the CPU's
        // reference, in 5-bit chunks) count each block's pairs.
        let at = format!("{keys} keys, groups of {group_keys}, {width}-bit chunks");
        let view = format!("{:?}", (sealed.keys, sealed.blocks, &sealed.pairs));
        let mut own = Vec::new();
        for b in 0..sealed.blocks.len() {
            slice_block(Isa::Portable, width, sealed.block_keys(b), own_chunks, &mut own);
        }
        let rows = sealed.rows();
        assert_eq!(rows.len(), sealed.blocks.len() * sealed.rows_per_block());
        let key_mask = (1u64 << WEIGHT_AT) - 1;
        for p in &sealed.pairs {
            for b in p.blocks.clone() {
                for &q in &sealed.queries[p.queries.clone()] {
                    let hits: u32 = (0..8)
                        .map(|w| {
                            (0..sealed.chunks)
                                .fold(u64::MAX, |x, c| x & rows[sealed.row_of(b, c, q)][w])
                                .count_ones()
                        })
                        .sum();
                    let plain = sealed.block_keys(b).iter().filter(|&&k| k & q & key_mask == 0).count();
                    assert_eq!(hits as usize, plain, "{at}, block {b}, query {q:#x}");
                }
            }
        }
        if width == CHUNK {
            assert_eq!(rows, m.sliced_rows(), "{at}: the device's layout is the matcher's own");
        }
        assert!(own.iter().map(|r| r.0).eq(m.sliced_rows().iter().copied()), "{at}");
        // Once more after a count: the matcher's own buffers reused.
        assert_eq!(m.count_all(Isa::Portable, &queries), want);
        assert_eq!(m.sealed(Isa::Portable, &queries).count(), want);
        // Sealed for a device (not sliced): the same keys, blocks and pairs (in 6-bit chunks,
        // the keys may be packed or not where the device's chunks decide otherwise), no rows
        // made.
        m.slicing = false;
        m.seal_all(Isa::Portable, &stored);
        let sealed = m.sealed(Isa::Portable, &queries);
        if width == CHUNK {
            assert_eq!(format!("{:?}", (sealed.keys, sealed.blocks, &sealed.pairs)), view);
        }
        assert_eq!(sealed.count(), want);
        let portable = format!("{:?}", (sealed.keys, sealed.blocks, sealed.queries, &sealed.pairs));
        assert!(m.rows.is_empty());
        // Every unit's seal and sealed view (`pext` where the unit uses it, table lookups
        // elsewhere) hand the device the same batch.
        for isa in covered() {
            m.seal_all(isa, &stored);
            let sealed = m.sealed(isa, &queries);
            let got = format!("{:?}", (sealed.keys, sealed.blocks, sealed.queries, &sealed.pairs));
            assert!(got == portable, "{at}: {isa}'s sealed view");
        }
    }
}

#[test]
fn transpose_moves_every_bit() {
    fn check<const L: usize>() {
        let mut m = [[0u64; L]; 64];
        for (i, row) in m.iter_mut().enumerate() {
            for (w, word) in row.iter_mut().enumerate() {
                *word = ((i * 8 + w) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (1 << i);
            }
        }
        let before = m;
        transpose(&mut m);
        for w in 0..L {
            for (i, row) in before.iter().enumerate() {
                for (j, col) in m.iter().enumerate() {
                    assert_eq!(row[w] >> j & 1, col[w] >> i & 1, "{L} lanes: lane {w}, bit ({i}, {j})");
                }
            }
        }
    }
    check::<1>();
    check::<8>();
}

/// Every task of n <= 12 on every vector unit this CPU runs, against the plain backtracker
/// (the definition of a task's count). With the next test, what CI runs for NEON under qemu
/// (.ci/run): `cargo test -p damier --lib -- quarters::tests::every_isa`.
#[test]
fn every_isa_counts_every_task_to_12_as_the_backtracker() {
    for n in MIN_N..=12 {
        let g = Geometry::new(n);
        let all = tasks(&g);
        let want: Vec<u64> = all.iter().map(|t| weighted_by_backtracking(n, t.cols)).collect();
        for table in [true, false] {
            let quarters = Quarters::new(&g, table, u64::MAX, &Control::new()).unwrap();
            for isa in covered() {
                let mut w = Work::new(&g, isa);
                for (t, &want) in all.iter().zip(&want) {
                    let got = uncancelled(&g, &quarters, Task { cols: t.cols, weight: 1 }, &mut w);
                    assert_eq!(got, want, "{isa}, n = {n}, columns {:b}, table {table}", t.cols);
                }
            }
        }
    }
}

/// q(4..=14) on every vector unit this CPU runs, against the known-answer file (OEIS A000170).
#[test]
fn every_isa_counts_q_4_to_14_as_the_known_answer_file() {
    let file: toml::Table =
        toml::from_str(include_str!("../../../../tests/data/known_answers.toml")).expect("the file parses");
    let totals = file["queens"]["total"].as_array().expect("queens.total is a list");
    for isa in covered() {
        for n in MIN_N..=14 {
            let want = totals[n as usize - 1].as_integer().expect("an integer") as u64;
            assert_eq!(total(n, Share::WHOLE, isa, None, &Control::new()), Ok(want), "{isa}, n = {n}");
        }
    }
}

/// What [`kernel::count`] counts, row by row in plain Rust (no unit's kernel: the portable
/// one takes `popcnt` where the CPU has it): each query's weighted ones of the AND of its
/// chunks' rows, block by block.
fn count_by_rows(rows: &[super::sliced::Row], width: u32, chunks: usize, queries: &[u64]) -> u64 {
    let value = |q: u64, c: usize| (q >> (c as u32 * width)) as usize & ((1 << width) - 1);
    queries
        .iter()
        .map(|&q| {
            let ones: u64 = rows
                .chunks_exact(chunks << width)
                .map(|block| {
                    (0..8)
                        .map(|i| (0..chunks).fold(u64::MAX, |w, c| w & block[c << width | value(q, c)].0[i]))
                        .map(|w| u64::from(w.count_ones()))
                        .sum::<u64>()
                })
                .sum();
            ones << (q >> WEIGHT_AT)
        })
        .sum()
}

/// The count kernel over more blocks than its narrow accumulators hold (NEON widens its 16-bit
/// lanes every 1023 blocks, AVX2 its bytes every 31): all-ones rows count every key of every
/// block, random rows what [`count_by_rows`] counts.
#[test]
fn every_isa_counts_past_a_thousand_blocks() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
    let (chunks, blocks) = (2, 2100);
    for width in [CHUNK, WIDE_CHUNK] {
        let ones = vec![super::sliced::Row([u64::MAX; 8]); blocks * (chunks << width)];
        let random: Vec<super::sliced::Row> = (0..ones.len())
            .map(|_| super::sliced::Row(std::array::from_fn(|_| rng.random::<u64>())))
            .collect();
        // Weight exponents 0 and 2 in the queries' bits from WEIGHT_AT.
        let queries: Vec<u64> =
            (0..5).map(|i| rng.random::<u64>() & 0xfff | (i % 2 * 2) << WEIGHT_AT).collect();
        let want_random = count_by_rows(&random, width, chunks, &queries);
        for isa in covered() {
            assert_eq!(
                super::kernel::count(isa, &ones, width, chunks, 8, &[0, 1 << WEIGHT_AT]),
                3 * 512 * blocks as u64,
                "{isa}, {width}-bit chunks"
            );
            assert_eq!(
                super::kernel::count(isa, &random, width, chunks, 8, &queries),
                want_random,
                "{isa}, {width}-bit chunks"
            );
        }
    }
}

/// The count kernel on every chunk count and on block counts either side of where the
/// narrow accumulators widen (AVX2 every 31 blocks), every count that AVX2 unrolls (1 to 8),
/// dense random rows (so that the AVX2 carry-save adder carries often) and queries of every
/// weight exponent (0 to 15: AVX2 keeps one adder state per exponent across a call's
/// queries), against the rows counted one by one.
#[test]
fn every_isa_counts_blocks_around_each_widening() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(54);
    for (width, chunks) in (1..=11usize).map(|c| (CHUNK, c)).chain((1..=9).map(|c| (WIDE_CHUNK, c))) {
        for blocks in [1, 2, 3, 4, 5, 6, 7, 8, 9, 14, 15, 16, 30, 31, 32, 33, 46, 62, 63] {
            let rows: Vec<super::sliced::Row> = (0..blocks * (chunks << width))
                .map(|_| {
                    super::sliced::Row(std::array::from_fn(|_| rng.random::<u64>() | rng.random::<u64>()))
                })
                .collect();
            let key_bits = (1u64 << (chunks as u32 * width)) - 1;
            let queries: Vec<u64> = (0..17)
                .map(|_| rng.random::<u64>() & key_bits | rng.random_range(0..16u64) << WEIGHT_AT)
                .collect();
            let want = count_by_rows(&rows, width, chunks, &queries);
            for isa in covered() {
                let got = super::kernel::count(isa, &rows, width, chunks, 8, &queries);
                assert_eq!(got, want, "{isa}, {chunks} chunks of {width} bits, {blocks} blocks");
            }
            // The plain-Rust kernel, which `count` takes only without `popcnt`.
            let plain =
                [(CHUNK, 1), (CHUNK, 7), (CHUNK, 11), (WIDE_CHUNK, 1), (WIDE_CHUNK, 6), (WIDE_CHUNK, 9)];
            if plain.contains(&(width, chunks)) {
                let got = super::kernel::count_plain(&rows, width, chunks, &queries);
                assert_eq!(got, want, "plain Rust, {chunks} chunks of {width} bits, {blocks} blocks");
            }
        }
    }
}

/// The count kernel on a last block whose keys fill only its first `last` words (a group's
/// partial last block: the words after them zero in every row), every `last` from 1 to 8, on
/// every block count that AVX2 and `popcnt` unroll, more, and pieces of the `popcnt` kernel:
/// the AVX2 kernel reads half such a block, the `popcnt` one its quarters that hold keys.
#[test]
fn every_isa_counts_a_partial_last_block() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(504);
    for (width, chunks) in
        [(CHUNK, 1), (CHUNK, 4), (CHUNK, 7), (WIDE_CHUNK, 2), (WIDE_CHUNK, 6), (WIDE_CHUNK, 9)]
    {
        let per = chunks << width;
        for blocks in [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 31, 33] {
            for last in 1..=8 {
                let mut rows: Vec<super::sliced::Row> = (0..blocks * per)
                    .map(|_| {
                        super::sliced::Row(std::array::from_fn(|_| rng.random::<u64>() | rng.random::<u64>()))
                    })
                    .collect();
                for row in &mut rows[(blocks - 1) * per..] {
                    row.0[last..].fill(0);
                }
                let key_bits = (1u64 << (chunks as u32 * width)) - 1;
                let queries: Vec<u64> = (0..9)
                    .map(|_| rng.random::<u64>() & key_bits | rng.random_range(0..16u64) << WEIGHT_AT)
                    .collect();
                let want = count_by_rows(&rows, width, chunks, &queries);
                for isa in covered() {
                    let got = super::kernel::count(isa, &rows, width, chunks, last, &queries);
                    assert_eq!(
                        got, want,
                        "{isa}, {chunks} chunks of {width} bits, {blocks} blocks, last {last}"
                    );
                }
            }
        }
    }
}

#[test]
fn every_isa_slices_a_block_into_the_same_rows() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
    // 13 chunks of 5 bits, 11 of 6, reach past bit 63: every column of a 64-bit key is read.
    for (width, len) in [CHUNK, WIDE_CHUNK]
        .into_iter()
        .flat_map(|w| [1, 11, 12, 63, 64, 65, 200, 448, 511, BLOCK].map(|l| (w, l)))
    {
        let chunks = 64usize.div_ceil(width as usize);
        let keys: Vec<u64> = (0..len).map(|_| rng.random::<u64>()).collect();
        let mut want = Vec::new();
        slice_block(Isa::Portable, width, &keys, chunks, &mut want);
        // Row v of a chunk: the keys with none of v's bits (checked on the portable rows).
        for (i, &k) in keys.iter().enumerate() {
            for (c, chunk_rows) in want.chunks(1 << width).enumerate() {
                let value = (k >> (c * width as usize)) & ((1 << width) - 1);
                for (v, row) in chunk_rows.iter().enumerate() {
                    let has = row.0[i / 64] >> (i % 64) & 1 == 1;
                    assert_eq!(has, value & v as u64 == 0, "{len} keys: key {i}, chunk {c}, row {v}");
                }
            }
        }
        for isa in covered() {
            let mut got = Vec::new();
            slice_block(isa, width, &keys, chunks, &mut got);
            assert!(got == want, "{isa}, {len} keys, {width}-bit chunks");
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
        let mut plain = vec![7];
        kernel::join_plain(l, r, keep, &mut plain);
        plain.sort_unstable();
        prop_assert_eq!(&plain, &want, "plain");
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
        bits in 6u32..=54,
        stored in proptest::collection::vec((any::<u64>(), 0u64..4), 0..1300),
        queries in proptest::collection::vec((any::<u64>(), 0u64..3), 0..40),
        sparse in 0u32..4,
        cut_seed in 0u32..64,
    ) {
        let mask = (1u64 << bits) - 1;
        let thin = |v: &Vec<u64>| -> Vec<u64> {
            v.iter().map(|&k| {
                let mut k = k & mask;
                for i in 0..sparse { k &= k.rotate_left(7 + i) }
                k
            }).collect()
        };
        let weights: Vec<u64> = stored.iter().map(|s| s.1).collect();
        let stored = thin(&stored.iter().map(|s| s.0).collect());
        let keys = thin(&queries.iter().map(|q| q.0).collect());
        // Each query carries a weight exponent 0..=2 in its top bits.
        let queries: Vec<u64> = keys.iter().zip(&queries).map(|(&k, q)| k | q.1 << WEIGHT_AT).collect();
        let weighted = |keys: &[u64]| -> u64 {
            queries.iter().map(|&q| (keys.iter().filter(|&&k| k & q == 0).count() as u64) << (q >> WEIGHT_AT)).sum()
        };
        let want = weighted(&stored);
        // Stored keys with weight exponents 0..=3 in their top bits: each pair counts
        // 2^(query's + key's).
        let heavy: Vec<u64> = stored.iter().zip(&weights).map(|(&k, &f)| k | f << WEIGHT_AT).collect();
        let want_heavy = weighted_pairs(&heavy, &queries);
        // Cut candidates: some bits of the key, in a scrambled order.
        let candidates: Vec<u32> = (0..bits).map(|i| (i * 7 + cut_seed) % bits).collect();
        for max_cut in [0, 1, 3, 8, 12, 14] {
            let mut m = Matcher::new(bits, candidates.clone());
            m.max_cut = max_cut;
            m.group_keys = if max_cut == 14 { 2 } else { 16 };
            // Packed tables (the bits both sides use, less the cut ones) or whole keys.
            m.pack_min_keys = if max_cut % 2 == 0 { 0 } else { usize::MAX };
            // The tables in chunks of 5 or 6 bits, packed or not.
            m.width = if max_cut % 3 == 0 { WIDE_CHUNK } else { CHUNK };
            // The cut bits ordered by these keys and queries (cut 14 up to 2^14 groups).
            m.order_cuts(&stored, &queries, queries.len(), key_bits_of(&queries));
            for isa in covered() {
                // Sealed on one ISA, counted on any: the ISAs group and pack keys alike.
                for sealed_on in covered() {
                    m.seal_all(sealed_on, &stored);
                    prop_assert_eq!(m.count_all(isa, &queries), want, "matcher, {} on {}, cut {}, {}-bit chunks", isa, sealed_on, max_cut, m.width);
                }
                m.seal_all(isa, &heavy);
                prop_assert_eq!(m.count_all(isa, &queries), want_heavy, "weighted keys, {}, cut {}, {}-bit chunks", isa, max_cut, m.width);
            }
        }
        // The kernels alone, on the blocks and tail of one group.
        let whole = stored.len() / BLOCK * BLOCK;
        let tail_count = weighted(&stored[whole..]);
        for width in [CHUNK, WIDE_CHUNK] {
            let chunks = bits.div_ceil(width) as usize;
            let per = chunks << width;
            let mut rows = Vec::new();
            for block in stored[..whole].chunks(BLOCK) {
                slice_block(Isa::Portable, width, block, chunks, &mut rows);
            }
            prop_assert_eq!(rows.len(), (whole / BLOCK) * per);
            // Every ISA slices every block, full or not, into the same rows.
            for block in stored.chunks(BLOCK) {
                let mut want_rows = Vec::new();
                slice_block(Isa::Portable, width, block, chunks, &mut want_rows);
                for isa in covered() {
                    let mut got = Vec::new();
                    slice_block(isa, width, block, chunks, &mut got);
                    prop_assert!(got == want_rows, "slice_block, {}, {} keys, {}-bit chunks", isa, block.len(), width);
                }
            }
            for isa in covered() {
                prop_assert_eq!(kernel::count(isa, &rows, width, chunks, 8, &queries) + tail_count, want, "{}, {}-bit chunks", isa, width);
            }
        }
        for isa in covered() {
            prop_assert_eq!(kernel::scan(isa, &stored, &queries), want, "scan, {}", isa);
        }
    }
}

/// The matcher's work counts (for pricing sampled tasks): rows read add up over queries,
/// repeated queries read no new rows, and one group's counts follow from its blocks.
#[test]
fn matcher_work_counts_rows_read() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
    let bits = 24;
    let mask = (1u64 << bits) - 1;
    let stored: Vec<u64> =
        (0..2 * BLOCK + 5).map(|_| rng.random::<u64>() & rng.random::<u64>() & mask).collect();
    let queries: Vec<u64> = (0..300).map(|_| rng.random::<u64>() & rng.random::<u64>() & mask).collect();
    let candidates: Vec<u32> = (0..bits).collect();
    for max_cut in [0, 2, 8] {
        let mut m = Matcher::new(bits, candidates.clone());
        m.max_cut = max_cut;
        m.group_keys = 64;
        m.seal_all(Isa::Portable, &stored);
        let (reads, distinct) = m.work(&m.classes(&queries));
        let one_by_one: f64 = queries.iter().map(|q| m.work(&m.classes(std::slice::from_ref(q))).0).sum();
        assert!((reads - one_by_one).abs() < 1e-6 * reads, "cut {max_cut}: reads add up");
        assert!(0.0 < distinct && distinct <= reads, "cut {max_cut}");
        let twice: Vec<u64> = queries.iter().chain(&queries).copied().collect();
        let (reads2, distinct2) = m.work(&m.classes(&twice));
        assert!(
            (reads2 - 2.0 * reads).abs() < 1e-6 * reads && (distinct2 - distinct).abs() < 1e-9,
            "cut {max_cut}"
        );
        if max_cut == 0 {
            // One group: two blocks and a tail of 5 keys scanned, 5 chunks of 5 bits.
            let reach = 2.0 + 5.0 / BLOCK as f64;
            assert!((reads - 300.0 * reach * 5.0).abs() < 1e-6);
            let values: u32 = (0..5)
                .map(|c| queries.iter().fold(0u32, |v, &q| v | 1 << ((q >> (5 * c)) & 31)).count_ones())
                .sum();
            assert!((distinct - reach * f64::from(values)).abs() < 1e-6);
        }
    }
}

/// Every n the engine takes fits its bit fields: keys below the weight bits and within the
/// bytes the cut tables read, quarter entries within their 32-bit halves, key chunks within
/// the classes' arrays.
#[test]
fn bit_fields_hold_up_to_max_n() {
    for n in MIN_N..=MAX_N {
        let g = Geometry::new(n);
        assert!(g.key_bits() <= WEIGHT_AT, "n = {n}");
        assert!(g.key_bits() <= 8 * 7, "n = {n}: cut tables read 7 bytes of a key");
        assert!(2 * g.q - 1 <= 32, "n = {n}: a quarter's diagonals in 32 bits");
        assert!(g.key_bits().div_ceil(CHUNK) as usize <= super::sliced::MAX_CHUNKS, "n = {n}");
        assert!(2 * n - 1 <= 64, "n = {n}: whole-board diagonals in a u64");
    }
}

/// The matcher against plain pair checks on the real halves of random tasks at the largest n
/// (a sample of the queries against every stored key, with their weights):
/// `cargo test -p damier --release --lib matcher_agrees_on_real_halves -- --ignored`.
#[test]
#[ignore = "slow: builds the halves of tasks at MAX_N; run with --release"]
fn matcher_agrees_on_real_halves_at_max_n() {
    use rand::{RngExt, SeedableRng};
    let n = MAX_N;
    let g = Geometry::new(n);
    let all = tasks(&g);
    let quarters = Quarters::new(&g, false, 0, &Control::new()).unwrap();
    let isa = Isa::best();
    let mut w = Work::new(&g, isa);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(28);
    let bits = (1u64 << WEIGHT_AT) - 1;
    for _ in 0..2 {
        let task = all[rng.random_range(0..all.len())];
        let ((top_left, top_right), (bottom_left, bottom_right)) = g.quarter_columns(task.cols);
        let (mut top, mut bottom) = (Vec::new(), Vec::new());
        let splits = &quarters.top_rows[top_left.count_ones() as usize];
        let cells = (&mut w.top_left, &mut w.top_right);
        assemble(
            isa,
            &g,
            &quarters.source,
            cells,
            (top_left, top_right),
            g.top_rows(),
            splits,
            u64::MAX,
            &mut top,
            &Control::new(),
        )
        .unwrap();
        let splits = &quarters.bottom_rows[bottom_left.count_ones() as usize];
        let cells = (&mut w.bottom_left, &mut w.bottom_right);
        assemble(
            isa,
            &g,
            &quarters.source,
            cells,
            (bottom_left, bottom_right),
            g.bottom_rows(),
            splits,
            bits,
            &mut bottom,
            &Control::new(),
        )
        .unwrap();
        let swap = stores_top(w.swap, top.len(), bottom.len());
        let (stored, queries) = if swap { (&top, &bottom) } else { (&bottom, &top) };
        let sample: Vec<u64> = (0..48).map(|_| queries[rng.random_range(0..queries.len())]).collect();
        let mut got = 0;
        for keys in stored.chunks(STORED_KEYS) {
            w.matcher.order_cuts(keys, &sample, sample.len(), key_bits_of(&sample));
            w.matcher.seal_all(isa, keys);
            got += w.matcher.count_all(isa, &sample);
        }
        let want = weighted_pairs(stored, &sample);
        println!(
            "n = {n}, columns {:#x}: top {}, bottom {}, {want} pairs for 48 queries",
            task.cols,
            top.len(),
            bottom.len()
        );
        assert_eq!(got, want, "n = {n}, columns {:#x}", task.cols);
    }
}

/// Column sets of n = 28 with few solutions, for [`column_sets_at_28_agree_with_backtracking`]:
/// where a random task of 28 has about 10^11 solutions, the fewest come from top halves packed
/// into the left columns with a few gaps (at n = 16 and 18 every set with one or two
/// solutions has its columns within the leftmost two thirds of the board), so a scan counted
/// random 14-column subsets of the 19 leftmost columns with the quarters engine (2026-11-25:
/// 20 sets in about 6 minutes under load, one without solutions, seven between 2 x 10^3 and
/// 10^6, the rest up to 7 x 10^8) and kept the one with the fewest (2 390; the backtrackers
/// took 281 s and 128 s on it under load 11, while on the next, with 13 059, they had not
/// finished after 45 minutes). Only the set is kept here: the test counts it by all three
/// engines.
const FEW_SOLUTIONS_AT_28: [u32; 1] = [0x37fb9];

/// n = 28 against the backtracker: the quarters engine, the test's own backtracker and the
/// independent per-task one (`--strategy backtrack`) on the 14 leftmost columns (no solution)
/// and on [`FEW_SOLUTIONS_AT_28`] (2 390 solutions):
/// `cargo test -p damier --release --lib column_sets_at_28 -- --ignored --nocapture`.
#[test]
#[ignore = "slow: minutes in release mode"]
fn column_sets_at_28_agree_with_backtracking() {
    let n = 28;
    let g = Geometry::new(n);
    let quarters = Quarters::new(&g, false, 0, &Control::new()).unwrap();
    let mut w = Work::new(&g, Isa::best());
    let mut with_solutions = 0;
    for cols in std::iter::once((1u32 << 14) - 1).chain(FEW_SOLUTIONS_AT_28) {
        assert_eq!(cols.count_ones(), g.q);
        let t = std::time::Instant::now();
        let got = uncancelled(&g, &quarters, Task { cols, weight: 1 }, &mut w);
        let fast = t.elapsed();
        let t = std::time::Instant::now();
        let want = weighted_by_backtracking(n, cols);
        let slow = t.elapsed();
        let task = crate::queens::count::tasks::Task { cols, weight: 1 };
        let other = crate::queens::count::tasks::backtrack_task(n, task, &Control::new()).unwrap();
        println!(
            "n = 28, columns {cols:#x}: {got} ({fast:.2?}), backtracking {want} ({slow:.2?}), per-task backtracker {other} ({:.2?})",
            t.elapsed() - slow
        );
        assert_eq!((got, other), (want, want), "columns {cols:#x}");
        with_solutions += usize::from(got > 0);
    }
    assert_eq!(with_solutions, FEW_SOLUTIONS_AT_28.len(), "each kept set has solutions");
}

/// The estimate's two ways to run a task count alike: whole (as a count runs it, in bounded
/// memory) and probed with a query limit above every task's queries, against the count of
/// each column set; with a tiny batch, so that whole tasks are made batch by batch.
#[test]
fn sampled_tasks_count_as_a_count_does() {
    let n = 14;
    let g = Geometry::new(n);
    let all = tasks(&g);
    // Every seventh task, half of them after their predecessor's quarters.
    let sets: Vec<SampledTask> = (0..all.len())
        .step_by(7)
        .map(|i| SampledTask {
            cols: all[i].cols,
            weight: all[i].weight,
            previous: (i % 2 == 1).then(|| all[i - 1].cols),
        })
        .collect();
    let counts = |limit: usize| {
        let found = std::sync::Mutex::new(vec![0; sets.len()]);
        let clock = || 0.0;
        sample_column_sets(n, &sets, Isa::best(), limit, 1, &clock, &Control::new(), &|i, s| {
            found.lock().unwrap()[i] = s.matched_count;
        })
        .unwrap();
        found.into_inner().unwrap()
    };
    let quarters = Quarters::new(&g, false, 0, &Control::new()).unwrap();
    let mut w = Work::new(&g, Isa::best());
    w.batch = 64;
    let want: Vec<u64> = sets
        .iter()
        .map(|s| uncancelled(&g, &quarters, Task { cols: s.cols, weight: s.weight }, &mut w))
        .collect();
    assert!(want.iter().sum::<u64>() > 0);
    assert_eq!(counts(usize::MAX), want);
    assert_eq!(counts(1 << 30), want);
}

/// The count's pipeline with the estimate's probe: with a limit above every task's queries it
/// counts every task of n = 10 as the count does, its halves whole or made in pieces (batches,
/// query chunks), and matches every query; with a smaller limit it matches exactly that many
/// queries and an eighth of them alone, drawn chunk by chunk where the queries come in chunks.
#[test]
fn probed_tasks_count_as_plain_ones_do() {
    let n = 10;
    let g = Geometry::new(n);
    let quarters = Quarters::new(&g, false, u64::MAX, &Control::new()).unwrap();
    let clock = || 0.0;
    let limit = 8;
    let mut sampled = 0;
    for task in tasks(&g) {
        for (batch, query_chunk) in [(STORED_KEYS, QUERY_CHUNK), (5, QUERY_CHUNK), (5, 3)] {
            let mut w = Work::new(&g, Isa::best());
            (w.batch, w.query_chunk) = (batch, query_chunk);
            let plain = uncancelled(&g, &quarters, task, &mut w);
            let mut whole = Probe::new(usize::MAX, 1, &clock, TaskSample::default());
            let probed = run_task(&g, &quarters, task, &mut w, &mut whole, &Control::new()).unwrap();
            let f = whole.found;
            let at = format!("columns {:b}, batch {batch}, query chunk {query_chunk}", task.cols);
            assert_eq!(
                (probed, f.matched_count, f.matched, f.probe_queries),
                (plain, plain, f.queries, 0),
                "{at}"
            );
            let mut part = Probe::new(limit, 1, &clock, TaskSample::default());
            let probed = run_task(&g, &quarters, task, &mut w, &mut part, &Control::new()).unwrap();
            let f = part.found;
            assert_eq!(probed, f.matched_count, "{at}");
            if f.queries > limit as u64 {
                sampled += 1;
                assert_eq!((f.matched, f.probe_queries), (limit as u64, limit as u64 / 8), "{at}");
                assert!(probed <= plain, "{at}");
            } else {
                assert_eq!((probed, f.matched, f.probe_queries), (plain, f.queries, 0), "{at}");
            }
        }
    }
    assert!(sampled > 0, "some tasks have more queries than the limit");
}

/// A side's size as measured before it is made in pieces is its number of keys: measuring
/// split by split once counted the split after an empty one twice (a side of 4 keys measured
/// 5), which skewed which side is stored, whether the queries are made whole, and the
/// matcher's group size, for the tasks that do not fit a batch.
#[test]
fn a_side_measures_its_number_of_keys() {
    let n = 12;
    let g = Geometry::new(n);
    let quarters = Quarters::new(&g, false, u64::MAX, &Control::new()).unwrap();
    let mut w = Work::new(&g, Isa::best());
    let control = Control::new();
    for task in tasks(&g) {
        let ((top_left, top_right), (bottom_left, bottom_right)) = g.quarter_columns(task.cols);
        let halves = [
            (top_left, top_right, g.top_rows(), &quarters.top_rows, u64::MAX),
            (bottom_left, bottom_right, g.bottom_rows(), &quarters.bottom_rows, (1 << WEIGHT_AT) - 1),
        ];
        for (left_cols, right_cols, rows, splits, keep) in halves {
            w.top_left.load(&g, &quarters.source, left_cols, &control).unwrap();
            w.top_right.load(&g, &quarters.source, right_cols, &control).unwrap();
            let splits = &splits[left_cols.count_ones() as usize];
            let side = Side { left: &w.top_left, right: &w.top_right, rows, splits, keep, control: &control };
            let mut whole = Vec::new();
            side.fill(w.isa, 0, usize::MAX, &mut whole).unwrap();
            let measured = side.measure(w.isa, &mut Vec::new()).unwrap();
            assert_eq!(measured, (whole.len(), key_bits_of(&whole)), "columns {:b}", task.cols);
        }
    }
}

/// A device count's workers hold no sliced rows, so its memory plan takes the narrow tables'
/// bytes whatever the unit: within the narrow need the portable unit's CPU count is refused
/// (its 6-bit tables need more), its device count is not.
#[test]
fn a_device_count_plans_no_wide_tables() {
    let n = 12;
    let g = Geometry::new(n);
    let sets: Vec<(u32, u64)> = tasks(&g).iter().take(3).map(|t| (t.cols, t.weight)).collect();
    let threads = rayon::current_num_threads();
    let narrow = base_bytes(n, sets.len(), threads, STORED_KEYS, false);
    assert!(base_bytes(n, sets.len(), threads, STORED_KEYS, true) > narrow);
    let control = Control::new();
    let refused = count_column_sets(n, &sets, Isa::Portable, Some(narrow), &control, &|_, _, _| {});
    assert!(matches!(refused, Err(CountError::MemoryLimit(_))), "{refused:?}");
    let done = std::sync::atomic::AtomicUsize::new(0);
    count_column_sets_matched::<CountError>(
        n,
        &sets,
        Isa::Portable,
        Some(narrow),
        &control,
        0,
        None,
        &|sealed| Ok(crate::queens::count::join::Pending::ready(sealed.count())),
        &|_, _, _| {
            done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        },
    )
    .unwrap();
    assert_eq!(done.into_inner(), sets.len());
}
