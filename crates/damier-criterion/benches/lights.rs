//! Criterion benchmarks of the lights engines. Run: `cargo bench -p damier-criterion --bench lights`.
//!
//! The big figures of the issue (10^4 and 10^5 boards, nullities to 25 000) are printed by
//! `damier lights bench`; here, sizes that criterion can repeat many times.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use damier::board::{Board, Size};
use damier::control::Control;
use damier::gf2::Gf2Poly;
use damier::lights::{self, Method};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn solve(c: &mut Criterion) {
    let control = Control::new();
    for n in [1000usize, 10_000] {
        let start = Board::random(Size::new(n, n).unwrap(), &mut Xoshiro256PlusPlus::seed_from_u64(1));
        c.bench_function(&format!("lights solve poly random {n}x{n} (in place)"), |b| {
            b.iter_batched_ref(
                || start.clone(),
                |x| lights::solve_in_place(x, Method::Poly, &control).unwrap(),
                criterion::BatchSize::LargeInput,
            )
        });
        let x = lights::solve_unverified(&start, Method::Poly, &control).unwrap().presses.unwrap();
        c.bench_function(&format!("lights verify {n}x{n}"), |b| {
            b.iter(|| lights::verify(&start, None, black_box(&x)))
        });
    }
    let small = Board::random(Size::new(60, 60).unwrap(), &mut Xoshiro256PlusPlus::seed_from_u64(2));
    for m in [Method::Dense, Method::Chase, Method::Poly] {
        c.bench_function(&format!("lights solve {m:?} 60x60"), |b| {
            b.iter(|| lights::solve_unverified(black_box(&small), m, &control).unwrap())
        });
    }
}

fn nullities(c: &mut Criterion) {
    let control = Control::new();
    c.bench_function("lights square nullities n <= 2000", |b| {
        b.iter(|| lights::square_nullities(black_box(2000), &control).unwrap())
    });
}

fn polynomials(c: &mut Criterion) {
    let a = Gf2Poly::chebyshev(100_000);
    let b = Gf2Poly::chebyshev(99_999).compose_x_plus_one();
    c.bench_function("gf2 poly mul degree 1e5", |bn| bn.iter(|| black_box(&a) * black_box(&b)));
    c.bench_function("gf2 poly gcd cofactor degree 1e5", |bn| {
        bn.iter(|| black_box(&a).gcd_cofactor(black_box(&b)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = solve, nullities, polynomials
}
criterion_main!(benches);
