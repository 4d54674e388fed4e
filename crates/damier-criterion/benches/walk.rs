//! Criterion benchmarks of the walk. Run: `cargo bench -p damier-criterion --bench walk`.
//!
//! The target (issue 5): a 2000 x 2000 board solved *with its path* in at most 1 s.

use criterion::{Criterion, criterion_group, criterion_main};
use damier::control::Control;
use damier::walk::{Method, board_size, fast, path, solve};

fn walk_fast(c: &mut Criterion) {
    let control = Control::new();
    let mut g = c.benchmark_group("walk");
    g.sample_size(10);
    for n in [250usize, 1000, 2000] {
        let board = board_size(n, n).unwrap();
        g.bench_function(format!("solve+path {n}x{n}"), |b| {
            b.iter(|| {
                let sols = fast::solve(board, &control).unwrap();
                path::path_for(board, &sols.particular, &control).unwrap()
            })
        });
    }
    let board = board_size(2000, 2000).unwrap();
    let sols = fast::solve(board, &control).unwrap();
    g.bench_function("path only 2000x2000", |b| {
        b.iter(|| path::path_for(board, &sols.particular, &control).unwrap())
    });
    let moves = path::path_for(board, &sols.particular, &control).unwrap();
    g.bench_function("replay 2000x2000", |b| b.iter(|| path::replay(board, &moves)));
    g.finish();
}

fn walk_small_methods(c: &mut Criterion) {
    let control = Control::new();
    let mut g = c.benchmark_group("walk methods");
    g.sample_size(10);
    let b55 = board_size(5, 5).unwrap();
    g.bench_function("brute 5x5", |b| b.iter(|| solve(b55, Method::Brute, &control).unwrap()));
    let b16 = board_size(16, 16).unwrap();
    g.bench_function("rows 16x16", |b| b.iter(|| solve(b16, Method::Rows, &control).unwrap()));
    g.bench_function("fast 16x16", |b| b.iter(|| solve(b16, Method::Fast, &control).unwrap()));
    g.bench_function("poly 16x16", |b| b.iter(|| solve(b16, Method::Poly, &control).unwrap()));
    g.finish();
}

criterion_group!(benches, walk_fast, walk_small_methods);
criterion_main!(benches);
