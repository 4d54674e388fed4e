//! Criterion benchmarks of the n-queens counters and of local search. Run:
//! `cargo bench -p damier-criterion --bench queens` (`-- "queens local"` for local search only).
//!
//! Small boards only (criterion repeats each run many times); the q(16..19) table comes from
//! `damier queens bench 16 17 18 19` (see docs/performance.md).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use damier::control::Control;
use damier::queens::count::{Strategy, count_with};

fn queens_count(c: &mut Criterion) {
    let control = Control::new();
    let mut group = c.benchmark_group("queens count");
    group.sample_size(10);
    for n in [10u32, 12, 14] {
        for s in Strategy::ALL {
            if s == Strategy::Plain && n > 12 {
                continue;
            }
            group.bench_with_input(BenchmarkId::new(s.name(), n), &n, |b, &n| {
                b.iter(|| count_with(n, s, &control).unwrap())
            });
        }
    }
    group.finish();
}

/// Local search (find + check) at growing n; the 10^7 and 10^8 figures and the side-by-side
/// comparison are in docs/performance.md (`damier queens solve N --method local`).
fn queens_local(c: &mut Criterion) {
    let control = Control::new();
    let mut group = c.benchmark_group("queens local");
    group.sample_size(10);
    for n in [10_000u32, 100_000, 1_000_000] {
        group.throughput(criterion::Throughput::Elements(u64::from(n)));
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                damier::queens::local::solve(n, seed, &control).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, queens_count, queens_local);
criterion_main!(benches);
