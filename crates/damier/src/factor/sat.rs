//! The SAT baseline: the same multiplication grid as the automaton (partial products
//! `a_j AND b_i`, column sums with carries, the bits of N) written as clauses and handed to
//! the CDCL solver `varisat`.
//!
//! Variables: the bits of `a` (`la` of them) and `b` (`lb`), one per partial product, and the
//! sum and carry outputs of the adders. Each column's bits (its partial products and the
//! carries coming from the column before) are added by full adders (three bits in, a sum bit
//! that stays and a carry that moves one column up) and, for a last pair, a half adder, until
//! one bit is left: it must equal the column's bit of N (Tseitin encoding, each gate exact).
//! The widths are the automaton's, so a model is always a non-trivial factorization, and a
//! composite N always has one; for a prime N the formula is unsatisfiable.
//!
//! ```
//! use damier::factor::sat;
//!
//! assert_eq!(sat::factor(143).unwrap(), Some((11, 13)));
//! assert!(!sat::satisfiable(101)); // a prime: the grid's clauses have no model
//! ```

use super::{FactorError, grid};

/// A clause list under construction with its variable counter (variables from 1, DIMACS).
struct Cnf {
    vars: i32,
    clauses: Vec<Vec<i32>>,
}

impl Cnf {
    fn var(&mut self) -> i32 {
        self.vars += 1;
        self.vars
    }

    /// `o = x AND y`.
    fn and(&mut self, x: i32, y: i32) -> i32 {
        let o = self.var();
        self.clauses.extend([vec![-o, x], vec![-o, y], vec![o, -x, -y]]);
        o
    }

    /// `(x XOR y, x AND y)`.
    fn half_adder(&mut self, x: i32, y: i32) -> (i32, i32) {
        let s = self.var();
        self.clauses.extend([vec![-s, x, y], vec![-s, -x, -y], vec![s, -x, y], vec![s, x, -y]]);
        (s, self.and(x, y))
    }

    /// `(x XOR y XOR z, majority(x, y, z))`.
    fn full_adder(&mut self, x: i32, y: i32, z: i32) -> (i32, i32) {
        let s = self.var();
        for sx in [1, -1] {
            for sy in [1, -1] {
                for sz in [1, -1] {
                    // s is the parity of x, y, z: forbid each wrong combination.
                    let odd = (sx == 1) ^ (sy == 1) ^ (sz == 1);
                    let lit = if odd { s } else { -s };
                    self.clauses.push(vec![-sx * x, -sy * y, -sz * z, lit]);
                }
            }
        }
        let c = self.var();
        self.clauses.extend([
            vec![-x, -y, c],
            vec![-x, -z, c],
            vec![-y, -z, c],
            vec![x, y, -c],
            vec![x, z, -c],
            vec![y, z, -c],
        ]);
        (s, c)
    }
}

/// The formula for `n`: clauses, and the variables of the bits of `a` and `b` (low bit
/// first). `None` when a column is empty but N has a 1 there (unsatisfiable at once).
pub fn multiplication_cnf(n: u64) -> Result<Option<Formula>, FactorError> {
    let (la, lb) = grid::check_n(n)?;
    Ok(build(n, la, lb))
}

/// Clauses, then the variables of the bits of `a` and of `b`, low bit first.
pub type Formula = (Vec<Vec<i32>>, Vec<i32>, Vec<i32>);

fn build(n: u64, la: usize, lb: usize) -> Option<Formula> {
    let mut cnf = Cnf { vars: 0, clauses: Vec::new() };
    let a: Vec<i32> = (0..la).map(|_| cnf.var()).collect();
    let b: Vec<i32> = (0..lb).map(|_| cnf.var()).collect();
    let mut columns: Vec<Vec<i32>> = vec![Vec::new(); la + lb];
    for (i, &bi) in b.iter().enumerate() {
        for (j, &aj) in a.iter().enumerate() {
            let p = cnf.and(aj, bi);
            columns[i + j].push(p);
        }
    }
    let mut x = 0;
    while x < columns.len() {
        let mut bits = std::mem::take(&mut columns[x]);
        while bits.len() > 1 {
            let (s, c) = if bits.len() >= 3 {
                let (p, q, r) = (bits.pop().unwrap(), bits.pop().unwrap(), bits.pop().unwrap());
                cnf.full_adder(p, q, r)
            } else {
                let (p, q) = (bits.pop().unwrap(), bits.pop().unwrap());
                cnf.half_adder(p, q)
            };
            // The sum goes to the front: every input is added once before any sum is.
            bits.insert(0, s);
            if x + 1 == columns.len() {
                columns.push(Vec::new());
            }
            columns[x + 1].push(c);
        }
        let want = x < 64 && (n >> x) & 1 == 1;
        match bits.first() {
            Some(&o) => cnf.clauses.push(vec![if want { o } else { -o }]),
            None if want => return None,
            None => {}
        }
        x += 1;
    }
    // N has no bit beyond the columns: `la + lb ≥ bits(N)`.
    Some((cnf.clauses, a, b))
}

/// A factorization `(min, max)` of the composite `n` found by the SAT solver, verified by
/// multiplication; `None` if the solver finds none (a prime `n` is refused before).
pub fn factor(n: u64) -> Result<Option<(u64, u64)>, FactorError> {
    let Some((clauses, a, b)) = multiplication_cnf(n)? else { return Ok(None) };
    let Some(model) = solve(&clauses) else { return Ok(None) };
    let value = |vars: &[i32]| {
        vars.iter().enumerate().fold(0u64, |acc, (k, &v)| acc | (u64::from(model[v as usize]) << k))
    };
    let (x, y) = (value(&a), value(&b));
    let (lo, hi) = (x.min(y), x.max(y));
    Ok(grid::is_factorization(n, lo, hi).then_some((lo, hi)))
}

/// Whether the formula for `n ≥ 4` (prime or not) is satisfiable, for the cross-check
/// against the primality test: it must be exactly when `n` is composite.
pub fn satisfiable(n: u64) -> bool {
    assert!(n >= 4, "the grid needs n >= 4");
    let bits = 64 - n.leading_zeros() as usize;
    match build(n, bits.div_ceil(2), bits - 1) {
        None => false,
        Some((clauses, _, _)) => solve(&clauses).is_some(),
    }
}

/// The value of every variable in a model of `clauses` (index 0 unused), or `None` when
/// unsatisfiable.
fn solve(clauses: &[Vec<i32>]) -> Option<Vec<bool>> {
    use varisat::ExtendFormula;
    let mut formula = varisat::CnfFormula::new();
    let mut vars = 0;
    for clause in clauses {
        let lits: Vec<varisat::Lit> = clause.iter().map(|&v| varisat::Lit::from_dimacs(v as isize)).collect();
        vars = clause.iter().fold(vars, |m, &v| m.max(v.unsigned_abs() as usize));
        formula.add_clause(&lits);
    }
    let mut solver = varisat::Solver::new();
    solver.add_formula(&formula);
    if !matches!(solver.solve(), Ok(true)) {
        return None;
    }
    let mut values = vec![false; vars + 1];
    for lit in solver.model()? {
        values[lit.var().to_dimacs() as usize] = lit.is_positive();
    }
    Some(values)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::factor::arith;

    #[test]
    fn satisfiable_exactly_for_composites() {
        for n in 4u64..600 {
            assert_eq!(satisfiable(n), !arith::is_prime(n), "n = {n}");
        }
    }

    #[test]
    fn refuses_primes_and_small_numbers() {
        assert_eq!(factor(97), Err(FactorError::Prime(97)));
        assert_eq!(factor(1), Err(FactorError::TooSmall(1)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn factors_balanced_semiprimes(bits in 6u32..=22, seed: u64) {
            use rand::SeedableRng;
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let (n, p, q) = arith::balanced_semiprime(bits, &mut rng);
            prop_assert_eq!(factor(n).unwrap(), Some((p, q)));
        }
    }
}
