//! Criterion benchmarks of the automaton engines: updates per second of model 1 (pairs) and
//! model 2 (cells) on one thread. Run: `cargo bench -p damier-criterion --bench automaton`.
//! Each iteration makes 100 000 updates (restarting from the next seed after a solution);
//! criterion reports the throughput in elements (updates) per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use damier::automaton::experiment::measure;
use damier::automaton::{Model, Params};

const UPDATES: u64 = 100_000;

fn updates(c: &mut Criterion) {
    let mut g = c.benchmark_group("automaton updates");
    g.throughput(Throughput::Elements(UPDATES));
    for (model, n) in [(Model::Pair, 8), (Model::Pair, 16), (Model::Cell, 8), (Model::Cell, 16)] {
        let params = Params::new(model, n).expect("valid");
        let mut seed = 0u64;
        g.bench_function(format!("{model} n={n}"), |b| {
            b.iter(|| {
                seed += 1;
                std::hint::black_box(measure(&params, seed, UPDATES).expect("valid"))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, updates);
criterion_main!(benches);
