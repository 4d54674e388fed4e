//! Criterion benchmarks of the n-queens counters. Run: `cargo bench -p damier --bench queens`.
//!
//! Small boards only (criterion repeats each run many times); the q(16..19) table comes from
//! `cargo run --release -p damier --example queens_bench -- 16 17 18 19` (see
//! docs/performance.md).

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

criterion_group!(benches, queens_count);
criterion_main!(benches);
