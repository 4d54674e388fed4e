//! Golden trajectories: steps, moves, placements and a hash of the whole state (cells,
//! counters, generator) after fixed stretches of several runs of both models, recorded from
//! the step loop before any optimisation of it. A faster loop must replay every trajectory
//! bit for bit, so that a run's result for a given random seed never depends on the build.
//!
//! After a deliberate change of the dynamics only, the failing test's message is the new
//! table to paste into `golden()`.

use rand_xoshiro::rand_core::Rng;

use super::*;

/// FNV-1a 64 over the cell words (row-major), steps, moves and four outputs of a copy of the
/// generator: any difference in the state or the generator changes it.
fn state_hash(a: &Automaton) -> u64 {
    let mut h = crate::util::Fnv1a::new();
    let mut eat = |v: u64, bytes: usize| h.write(&v.to_le_bytes()[..bytes]);
    for w in a.cell_words() {
        eat(u64::from(w), 4);
    }
    eat(a.steps(), 8);
    eat(a.moves(), 8);
    let mut g = a.generator().clone();
    for _ in 0..4 {
        eat(g.next_u64(), 8);
    }
    h.finish()
}

/// One golden run: parameters, then `chunks` calls of `run_steps(chunk)`, or of `step()`
/// `chunk` times when `single` (the other entry point must follow the same trajectory).
struct Case {
    model: Model,
    n: u32,
    eps: f64,
    eta: f64,
    seed: u64,
    chunk: u64,
    chunks: usize,
    single: bool,
}

const fn case(model: Model, n: u32, eps: f64, eta: f64, seed: u64, chunk: u64, chunks: usize) -> Case {
    Case { model, n, eps, eta, seed, chunk, chunks, single: false }
}

/// What a case records after each chunk: steps, moves, state hash; and the placement at the end.
type Record = (Vec<(u64, u64, u64)>, Option<Vec<u32>>);

fn play(c: &Case) -> Record {
    let params = Params { model: c.model, n: c.n, eps: c.eps, eta: c.eta };
    let mut a = Automaton::from_seed(&params, c.seed).unwrap();
    let mut marks = vec![(a.steps(), a.moves(), state_hash(&a))];
    for _ in 0..c.chunks {
        if c.single {
            for _ in 0..c.chunk {
                a.step();
            }
        } else {
            a.run_steps(c.chunk);
        }
        marks.push((a.steps(), a.moves(), state_hash(&a)));
    }
    (marks, a.placement().map(|p| p.columns().to_vec()))
}

const D_EPS: f64 = super::super::DEFAULT_EPS;
const D_ETA: f64 = super::super::DEFAULT_ETA;

fn cases() -> Vec<Case> {
    use Model::{Cell, Pair};
    vec![
        // Runs to their first solution (run_steps stops there).
        case(Pair, 6, D_EPS, D_ETA, 1, 1 << 22, 4),
        case(Pair, 8, D_EPS, D_ETA, 2, 1 << 22, 4),
        case(Pair, 8, 0.2, D_ETA, 3, 1 << 22, 4),
        case(Cell, 8, D_EPS, D_ETA, 1, 1 << 22, 4),
        case(Cell, 12, D_EPS, D_ETA, 2, 1 << 22, 4),
        case(Cell, 10, 0.3, 0.5, 3, 1 << 22, 4),
        case(Cell, 10, 0.0, 0.0, 4, 1 << 20, 2),
        // Long stretches without a solution at large n.
        case(Cell, 32, D_EPS, D_ETA, 1, 250_000, 4),
        case(Cell, 24, 0.02, 0.1, 5, 250_000, 4),
        case(Cell, 48, D_EPS, D_ETA, 6, 250_000, 2),
        case(Pair, 16, D_EPS, D_ETA, 1, 250_000, 4),
        case(Pair, 32, 0.05, D_ETA, 7, 250_000, 2),
        // Tiny boards (corner cases of the tables).
        case(Cell, 1, D_EPS, D_ETA, 1, 1000, 1),
        case(Pair, 2, D_EPS, D_ETA, 1, 1000, 1),
        case(Cell, 3, D_EPS, D_ETA, 1, 1000, 1),
        // The one-step entry point.
        Case { single: true, ..case(Cell, 20, D_EPS, D_ETA, 8, 20_000, 5) },
        Case { single: true, ..case(Pair, 9, D_EPS, D_ETA, 8, 20_000, 5) },
    ]
}

/// The records of [`cases`], in order, recorded from the loop as it was before optimisation.
#[rustfmt::skip]
fn golden() -> Vec<Record> {
    vec![
        (vec![(0, 0, 11647704957190582462), (6172, 34, 2021242587713696279), (6172, 34, 2021242587713696279), (6172, 34, 2021242587713696279), (6172, 34, 2021242587713696279)], Some(vec![3, 0, 4, 1, 5, 2])),
        (vec![(0, 0, 9132649014338205856), (212429, 508, 18189949245979975102), (212429, 508, 18189949245979975102), (212429, 508, 18189949245979975102), (212429, 508, 18189949245979975102)], Some(vec![2, 4, 7, 3, 0, 6, 1, 5])),
        (vec![(0, 0, 1442613659656124027), (4194304, 176799, 13916320497766991781), (8388608, 353600, 17703598788653886500), (12582912, 529913, 17260317205046485776), (16777216, 707199, 11585074919729029104)], None),
        (vec![(0, 0, 15628781775433654105), (250349, 269, 2439902292468834243), (250349, 269, 2439902292468834243), (250349, 269, 2439902292468834243), (250349, 269, 2439902292468834243)], Some(vec![3, 6, 4, 2, 0, 5, 7, 1])),
        (vec![(0, 0, 6857479055986880285), (1643396, 761, 17094083825600712689), (1643396, 761, 17094083825600712689), (1643396, 761, 17094083825600712689), (1643396, 761, 17094083825600712689)], Some(vec![10, 5, 1, 4, 0, 7, 11, 2, 8, 6, 3, 9])),
        (vec![(0, 0, 17495670816187411191), (4194304, 122842, 2210864500548824429), (8388608, 245674, 15921517640822584099), (11542381, 337714, 3610678250114508858), (11542381, 337714, 3610678250114508858)], Some(vec![4, 0, 5, 3, 9, 7, 2, 8, 6, 1])),
        (vec![(0, 0, 11733336959033321274), (1048576, 18, 15628641416301852970), (2097152, 18, 3963823527099831055)], None),
        (vec![(0, 0, 99444457326053896), (250000, 145, 14020492273109549725), (500000, 212, 9679933466650295917), (750000, 267, 14522431608164881076), (1000000, 313, 17666238219160011206)], None),
        (vec![(0, 0, 14134055175621776449), (250000, 266, 209225653730636346), (500000, 454, 16037764532815898522), (750000, 667, 6871222083137797834), (1000000, 831, 3195000898702525107)], None),
        (vec![(0, 0, 6523079796857811759), (250000, 249, 8963163023541672443), (500000, 303, 7722327680858482367)], None),
        (vec![(0, 0, 8196183753366897619), (250000, 483, 18025506178091353384), (500000, 846, 14954266986345951168), (750000, 1192, 260783947098803493), (1000000, 1600, 7720790824881097533)], None),
        (vec![(0, 0, 2253366136254973904), (250000, 783, 3974189793487069291), (500000, 1593, 5262124724110131232)], None),
        (vec![(0, 0, 11663787747469507129), (0, 0, 11663787747469507129)], Some(vec![0])),
        (vec![(0, 0, 8935475610267711726), (1000, 21, 4770003497451258177)], None),
        (vec![(0, 0, 17854665755125344902), (1000, 7, 18014310379937649253)], None),
        (vec![(0, 0, 8319617381934896646), (20000, 70, 1450770382798028301), (40000, 74, 7759211545120464186), (60000, 89, 3002630587810858735), (80000, 101, 9698276166519672655), (100000, 114, 10069903182525586516)], None),
        (vec![(0, 0, 99450241850569272), (20000, 60, 13866488428503931920), (40000, 120, 11977647617254884774), (60000, 160, 11437471127158568471), (80000, 211, 14909510190078280199), (100000, 248, 8582483581494894682)], None),
    ]
}

/// Columns, diagonals and anti-diagonals all distinct (rows are distinct by construction).
fn independent_check(cols: &[usize]) -> bool {
    let n = cols.len();
    let distinct = |key: &dyn Fn(usize) -> usize| {
        let mut seen = vec![false; 2 * n];
        (0..n).all(|y| !std::mem::replace(&mut seen[key(y)], true))
    };
    cols.iter().all(|&x| x < n)
        && distinct(&|y| cols[y])
        && distinct(&|y| cols[y] + n - y)
        && distinct(&|y| cols[y] + y)
}

#[test]
fn trajectories_match_the_golden_records() {
    let cases = cases();
    let golden = golden();
    let played: Vec<Record> = cases.iter().map(play).collect();
    // After a deliberate change of the dynamics only, the message is the new table to paste
    // into `golden()`.
    let table: String = played
        .iter()
        .map(|(marks, placement)| format!("        (vec!{marks:?}, {placement:?}),\n"))
        .collect();
    assert_eq!(cases.len(), golden.len(), "one record per case; the table of these cases:\n{table}");
    for ((c, want), got) in cases.iter().zip(&golden).zip(&played) {
        assert_eq!(
            got, want,
            "model {} n {} eps {} eta {} seed {}: the trajectory changed; the table of every case now:\n{table}",
            c.model, c.n, c.eps, c.eta, c.seed
        );
        if let Some(p) = &got.1 {
            let cols: Vec<usize> = p.iter().map(|&c| c as usize).collect();
            assert!(independent_check(&cols), "a reported placement must be a solution: {p:?}");
        }
    }
}
