//! Criterion benchmarks of the engines. Run: `cargo bench -p damier --bench queens`.

use criterion::{Criterion, criterion_group, criterion_main};
use damier::control::Control;

fn queens_count(c: &mut Criterion) {
    let control = Control::new();
    c.bench_function("queens count n=10", |b| b.iter(|| damier::queens::count(10, &control).unwrap()));
}

criterion_group!(benches, queens_count);
criterion_main!(benches);
