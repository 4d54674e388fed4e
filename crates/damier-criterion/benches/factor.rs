//! Criterion benchmarks of factoring: updates per second of the automaton on one thread, and
//! the two baselines on one balanced semiprime. Run: `cargo bench -p damier-criterion --bench factor`.
//! An automaton iteration makes 100 000 updates from a fresh random start (24- and 40-bit N,
//! never absorbed that early); criterion reports updates per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use damier::factor::{FactorAutomaton, FactorParams, arith};

const UPDATES: u64 = 100_000;

fn updates(c: &mut Criterion) {
    let mut g = c.benchmark_group("factor automaton updates");
    g.throughput(Throughput::Elements(UPDATES));
    // 3701 x 3881 (24 bits) and 1048571 x 1048573 (40 bits).
    for n in [14_363_581u64, 1_099_503_239_183] {
        let mut seed = 0u64;
        g.bench_function(format!("{} bits", 64 - n.leading_zeros()), |b| {
            b.iter(|| {
                seed += 1;
                let mut au = FactorAutomaton::new(n, &FactorParams::default(), seed).expect("composite");
                std::hint::black_box(au.run_steps(UPDATES))
            })
        });
    }
    g.finish();
}

fn baselines(c: &mut Criterion) {
    let n = 1_099_503_239_183u64;
    let mut g = c.benchmark_group("factor baselines, 40 bits");
    g.bench_function("trial division", |b| b.iter(|| arith::trial_division(std::hint::black_box(n))));
    g.bench_function("pollard rho (brent)", |b| b.iter(|| arith::pollard_rho(std::hint::black_box(n), 1)));
    g.finish();
}

criterion_group!(benches, updates, baselines);
criterion_main!(benches);
