//! The factoring automaton live (`/factor`): a page creates a run
//! (`POST /api/live/factor` with `n` or `bits`, and `q`, `eps`, `seed`) and steps it
//! (`POST /api/live/factor/{id}/step` with `{"updates": K}`). Each frame is the grid of
//! `damier watch factor`: border bits, partial products, column sums and verdicts, which
//! signals are stale, the column feet against the bits of N, and at the end the factors,
//! checked by the library's independent [`factor::is_factorization`].
//!
//! Numbers up to 2^64 do not fit a page's doubles: N, a, b and the factors travel as decimal
//! strings.

use damier::factor::{self, FactorAutomaton, LOW, STUCK, Site};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use super::{Runs, page_seed, step_within};

/// A new factoring run.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewFactor {
    /// The number to factor, as a decimal string (a page's numbers are doubles) or a number.
    #[serde(default)]
    pub n: Option<NumberText>,
    /// Instead of `n`: a random balanced semiprime of this many bits (6 to 64), drawn from the
    /// seed.
    #[serde(default)]
    pub bits: Option<u32>,
    /// Flip probability on "lowest wrong column" [default: the library's].
    #[serde(default)]
    pub q: Option<f64>,
    /// Flip probability on "stuck" [default: the library's].
    #[serde(default)]
    pub eps: Option<f64>,
    /// Seed [default: random below 2^53, answered].
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A whole number given as JSON number or as decimal text.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum NumberText {
    /// A JSON number.
    Number(u64),
    /// Decimal digits.
    Text(String),
}

impl NumberText {
    fn value(&self) -> Result<u64, String> {
        match self {
            NumberText::Number(v) => Ok(*v),
            NumberText::Text(t) => t.trim().parse().map_err(|_| {
                format!("n = {t:?} is not a whole number in {}", damier::util::range(2, u64::MAX))
            }),
        }
    }
}

/// One frame of a factoring run.
#[derive(Debug, Serialize)]
pub struct FactorFrame {
    /// The run's id, for the step requests.
    pub id: u64,
    /// The number factored.
    pub n: String,
    /// Bits of N, lowest first.
    pub n_bits: Vec<u8>,
    /// Bits of a (the diagonals).
    pub la: usize,
    /// Bits of b (the rows).
    pub lb: usize,
    /// Border a, decimal, and its bits lowest first.
    pub a: String,
    /// The bits of a, lowest first.
    pub a_bits: Vec<u8>,
    /// Border b, decimal.
    pub b: String,
    /// The bits of b, lowest first.
    pub b_bits: Vec<u8>,
    /// Flip probabilities.
    pub q: f64,
    /// Noise.
    pub eps: f64,
    /// The seed.
    pub seed: u64,
    /// Updates made.
    pub steps: u64,
    /// Border bits flipped.
    pub flips: u64,
    /// Interior cells, row-major (`i * la + j`, row i = bit of b, diagonal j = bit of a).
    pub cells: Vec<FactorCell>,
    /// The column feet, column 0 (lowest bit) first.
    pub feet: Vec<Foot>,
    /// The border cell of the last update: `a3`, `b0`, or null for an interior cell.
    pub last_border: Option<String>,
    /// No update can change anything (a × b = N, every signal settled).
    pub absorbing: bool,
    /// The factors `[min, max]` once absorbing, checked by the library's `verify`.
    pub factors: Option<[String; 2]>,
}

/// What one interior cell shows.
#[derive(Debug, Serialize)]
pub struct FactorCell {
    /// The partial product `a_j AND b_i`.
    pub product: u8,
    /// The running column sum down to this cell.
    pub sum: u8,
    /// `L` (lowest wrong column), `S` (stuck) or empty.
    pub verdict: &'static str,
    /// A signal differs from its settled value.
    pub stale: bool,
}

/// A column's foot.
#[derive(Debug, Serialize)]
pub struct Foot {
    /// Column total (sum plus carry).
    pub total: u8,
    /// The column disagrees with N.
    pub err: bool,
}

fn bits(v: u64, len: usize) -> Vec<u8> {
    (0..len).map(|k| if k < 64 { (v >> k) as u8 & 1 } else { 0 }).collect()
}

fn frame(id: u64, au: &FactorAutomaton) -> FactorFrame {
    let (la, lb) = (au.la(), au.lb());
    let mut settled = au.clone();
    settled.settle();
    let cells = (0..lb)
        .flat_map(|i| (0..la).map(move |j| (i, j)))
        .map(|(i, j)| {
            let s = au.signals(i, j);
            let verdict = if s.verdict & LOW != 0 {
                "L"
            } else if s.verdict & STUCK != 0 {
                "S"
            } else {
                ""
            };
            FactorCell { product: s.product, sum: s.sum, verdict, stale: s != settled.signals(i, j) }
        })
        .collect();
    let feet = (0..=au.last_column())
        .map(|x| {
            let i = x.min(lb - 1);
            let s = au.signals(i, x - i);
            debug_assert!(au.is_foot(i, x - i));
            Foot { total: s.total, err: s.err == 1 }
        })
        .collect();
    let last_border = match au.last_site() {
        Some(Site::A(j)) => Some(format!("a{j}")),
        Some(Site::B(i)) => Some(format!("b{i}")),
        Some(Site::Interior(..)) | None => None,
    };
    let factors = au.factors().filter(|&(lo, hi)| factor::is_factorization(au.n(), lo, hi));
    FactorFrame {
        id,
        n: au.n().to_string(),
        n_bits: (0..=au.last_column() + 1).map(|x| au.n_bit(x)).collect(),
        la,
        lb,
        a: au.a().to_string(),
        a_bits: bits(au.a(), la),
        b: au.b().to_string(),
        b_bits: bits(au.b(), lb),
        q: au.params().q,
        eps: au.params().eps,
        seed: au.seed(),
        steps: au.steps(),
        flips: au.flips(),
        cells,
        feet,
        last_border,
        absorbing: au.is_absorbing(),
        factors: factors.map(|(lo, hi)| [lo.to_string(), hi.to_string()]),
    }
}

impl Runs<FactorAutomaton> {
    /// Starts a factoring run; refuses bad parameters with the library's message.
    pub fn create(&mut self, req: &NewFactor) -> Result<FactorFrame, String> {
        let seed = page_seed(req.seed);
        let n = match (&req.n, req.bits) {
            (Some(n), None) => n.value()?,
            (None, Some(bits)) => {
                if !factor::arith::SEMIPRIME_BITS.contains(&bits) {
                    return Err(format!(
                        "bits = {bits}: a semiprime is drawn with {} to {} bits",
                        factor::arith::SEMIPRIME_BITS.start(),
                        factor::arith::SEMIPRIME_BITS.end()
                    ));
                }
                factor::arith::balanced_semiprime(bits, &mut Xoshiro256PlusPlus::seed_from_u64(seed)).0
            }
            _ => return Err("give either n (the number to factor) or bits (a random semiprime)".into()),
        };
        let params = factor::FactorParams {
            q: req.q.unwrap_or(factor::DEFAULT_Q),
            eps: req.eps.unwrap_or(factor::DEFAULT_EPS),
        };
        let au = FactorAutomaton::new(n, &params, seed).map_err(|e| e.to_string())?;
        let mut f = frame(0, &au);
        f.id = self.insert(au);
        Ok(f)
    }
}

/// Steps `au` by up to `updates` (within the time budget), stopping once absorbing.
pub fn step(id: u64, au: &mut FactorAutomaton, updates: u64) -> FactorFrame {
    step_within(updates, u64::MAX, au.is_absorbing(), |k| au.run_steps(k));
    frame(id, au)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_in_chunks_is_the_command_lines_run_and_checks_the_factors() {
        let params = factor::FactorParams::default();
        let mut whole = FactorAutomaton::new(143, &params, 5).unwrap();
        assert!(whole.run_steps(u64::MAX));
        let mut runs: Runs<FactorAutomaton> = Runs::default();
        let req = NewFactor {
            n: Some(NumberText::Text("143".into())),
            bits: None,
            q: None,
            eps: None,
            seed: Some(5),
        };
        let f = runs.create(&req).unwrap();
        assert_eq!((f.la, f.lb, f.cells.len()), (4, 7, 28));
        let au = runs.get(f.id).unwrap();
        let mut au = au.lock().unwrap();
        let mut last = step(f.id, &mut au, 1);
        while !last.absorbing {
            last = step(f.id, &mut au, 97);
        }
        assert_eq!((last.steps, last.flips), (whole.steps(), whole.flips()));
        assert_eq!(last.factors, Some(["11".to_string(), "13".to_string()]));
        assert!(last.feet.iter().all(|foot| !foot.err) && last.cells.iter().all(|c| !c.stale));
        // A drawn semiprime has the asked size; primes and bad values are refused.
        let f =
            runs.create(&NewFactor { n: None, bits: Some(20), q: None, eps: None, seed: Some(1) }).unwrap();
        assert_eq!(64 - f.n.parse::<u64>().unwrap().leading_zeros(), 20);
        for bad in [
            NewFactor { n: Some(NumberText::Number(13)), bits: None, q: None, eps: None, seed: None },
            NewFactor { n: Some(NumberText::Text("x".into())), bits: None, q: None, eps: None, seed: None },
            NewFactor { n: None, bits: Some(65), q: None, eps: None, seed: None },
            NewFactor { n: None, bits: None, q: None, eps: None, seed: None },
            NewFactor { n: Some(NumberText::Number(15)), bits: None, q: Some(2.0), eps: None, seed: None },
        ] {
            assert!(runs.create(&bad).is_err(), "{bad:?}");
        }
        // Issue 38, section 3: the README's words, not "2..=18446744073709551615".
        let text =
            NewFactor { n: Some(NumberText::Text("x".into())), bits: None, q: None, eps: None, seed: None };
        assert_eq!(runs.create(&text).unwrap_err(), "n = \"x\" is not a whole number in 2 to 2^64 - 1");
    }
}
