//! The special positions of the automaton report's figures 1 and 7, found by search.
//!
//! - Fig. 1: a position (distinct cells) that is not a solution, where every queen is
//!   threatened and no one-cell move reaches a safe cell. We search for the automaton's form
//!   of it, which implies the geometric one: with true signals, no queen has a neighbour where
//!   SAFEGO holds. Model 1 with ε = 0 then never moves a queen (signals stay true, every MOVE
//!   is 0), so it never solves; with ε > 0 it does.
//! - Fig. 7: on 6 × 6, four queens fixed in columns c..f (x = 2..5) and two queens inside a
//!   3-cell triangle (three pairwise adjacent cells) in columns a..b. We search for a layout
//!   where this is a trap for model 2 with η = 0 *whatever the signals do later*: no fixed
//!   queen shares a line with a triangle cell (so their signals stay exactly 0 and they never
//!   move), hence the free triangle cell carries at most 2 signals (only its two triangle
//!   neighbours can ever hold a queen in its 8 directions), while every other empty neighbour
//!   of a triangle cell sees at least 3 fixed queens (rays to a fixed queen stay signalled
//!   forever). The threatened triangle queen's least-ω destination is then always the free
//!   triangle cell: the two queens stay in the triangle, always adjacent, never a solution.
//!   An exhaustive search (n - 2 fixed queens and a triangle, n = 6, 7, 8) finds no such
//!   layout: the trap only holds in the automaton report's reading, "signals properly propagated" — with
//!   true signals, whichever two triangle cells hold the queens, the free one is the unique
//!   least-ω neighbour of both. [`find_figure7`] then returns such a layout: under
//!   [`crate::automaton::Automaton::run_ideal`] (signals reset to the truth after each move)
//!   it never solves for η = 0; with the real local signals, stale signals let a queen
//!   escape now and then, far more slowly than with η > 0.
//!
//! ```
//! use damier::automaton::trap::find_figure7;
//!
//! // The 6 x 6 layout of fig. 7: six queens, three of the cells a triangle.
//! let (trap, _robust) = find_figure7().expect("the search finds a layout");
//! assert_eq!((trap.n, trap.counts.iter().sum::<u32>(), trap.triangle.len()), (6, 6, 3));
//! ```

use super::dir::DIRECTIONS;
use super::experiment::{self, ExperimentError, Start, Summary};
use super::{AutomatonError, DEFAULT_EPS, DEFAULT_ETA, Model, Params, StartSignals, Stop, text};

/// A special position: `counts[y * n + x]` queens per cell.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Trap {
    /// Board side.
    pub n: u32,
    /// Queens per cell, row-major.
    pub counts: Vec<u32>,
    /// Fig. 7: the three triangle cells `(x, y)`.
    pub triangle: Vec<(usize, usize)>,
}

fn attacks(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
}

fn neighbours(n: usize, c: (usize, usize)) -> impl Iterator<Item = (usize, usize)> {
    DIRECTIONS.iter().filter_map(move |&(dx, dy)| {
        let (u, v) = (c.0 as i32 + dx, c.1 as i32 + dy);
        ((0..n as i32).contains(&u) && (0..n as i32).contains(&v)).then_some((u as usize, v as usize))
    })
}

/// Number of directions from `c` whose ray holds one of `queens`.
fn rays_with_queens(n: usize, c: (usize, usize), queens: &[(usize, usize)]) -> u32 {
    DIRECTIONS
        .iter()
        .filter(|&&(dx, dy)| {
            (1..n as i32).any(|k| {
                let (u, v) = (c.0 as i32 + k * dx, c.1 as i32 + k * dy);
                queens.iter().any(|&q| (q.0 as i32, q.1 as i32) == (u, v))
            })
        })
        .count() as u32
}

/// Checks the fig. 1 property of `queens` (distinct cells) on an `n × n` board: not a
/// solution, every queen threatened, and for every queen `q` and neighbour `t`: `t` holds a
/// queen or carries a true signal from a direction other than `q`'s (no SAFEGO), which
/// implies that `t` is attacked by a queen other than `q`.
pub fn is_figure1(n: u32, queens: &[(usize, usize)]) -> bool {
    let n = n as usize;
    let threatened = |i: usize| queens.iter().enumerate().any(|(j, &o)| j != i && attacks(queens[i], o));
    if !(0..queens.len()).all(threatened) {
        return false; // also rules out solutions
    }
    queens.iter().enumerate().all(|(i, &q)| {
        neighbours(n, q).all(|t| {
            if queens.contains(&t) {
                return true;
            }
            let others: Vec<(usize, usize)> =
                queens.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &o)| o).collect();
            // SAFEGO(t, δ(q, t)) fails: a signal from another direction than q's. A ray from
            // t through q counts only q's direction, so drop the queens behind q on it.
            let back = (q.0 as i32 - t.0 as i32, q.1 as i32 - t.1 as i32);
            let visible_elsewhere = DIRECTIONS.iter().filter(|&&o| o != back).any(|&(dx, dy)| {
                (1..n as i32).any(|k| {
                    let (u, v) = (t.0 as i32 + k * dx, t.1 as i32 + k * dy);
                    others.iter().any(|&o| (o.0 as i32, o.1 as i32) == (u, v))
                })
            });
            visible_elsewhere && others.iter().any(|&o| attacks(o, t))
        })
    })
}

/// Searches a fig. 1 position: the smallest `n` in `4..=8` for which random positions with
/// one queen per row (generator seeded with `seed`, at most `tries` per n) give one.
pub fn find_figure1(seed: u64, tries: u64) -> Option<Trap> {
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for n in 4..=8usize {
        for _ in 0..tries {
            let queens: Vec<(usize, usize)> =
                (0..n).map(|y| ((rng.next_u64() % n as u64) as usize, y)).collect();
            if is_figure1(n as u32, &queens) {
                let mut counts = vec![0; n * n];
                for &(x, y) in &queens {
                    counts[y * n + x] += 1;
                }
                return Some(Trap { n: n as u32, counts, triangle: Vec::new() });
            }
        }
    }
    None
}

/// Checks the fig. 7 property of fixed queens `fixed` and triangle `tri` on an `n × n`
/// board: fixed queens never threatened and off every line of the triangle; then, if
/// `robust`, the bound of the module docs (every other empty neighbour of the triangle sees
/// at least 3 fixed queens), else the automaton report's reading: with true signals, for each of the 3
/// ways to put two queens in the triangle, the free triangle cell has strictly fewer signals
/// than every other empty neighbour of either triangle queen.
pub fn is_figure7(n: u32, fixed: &[(usize, usize)], tri: &[(usize, usize); 3], robust: bool) -> bool {
    let n = n as usize;
    let pairwise = |a: (usize, usize), b: (usize, usize)| a.0.abs_diff(b.0).max(a.1.abs_diff(b.1)) == 1;
    if !(pairwise(tri[0], tri[1]) && pairwise(tri[1], tri[2]) && pairwise(tri[0], tri[2])) {
        return false;
    }
    // Fixed queens: never threatened, never on a line of a triangle cell.
    for (i, &f) in fixed.iter().enumerate() {
        if fixed[i + 1..].iter().any(|&g| attacks(f, g)) || tri.iter().any(|&t| attacks(f, t)) {
            return false;
        }
    }
    if !robust {
        return (0..3).all(|free| {
            let f = tri[free];
            let mut queens = fixed.to_vec();
            queens.extend((0..3).filter(|&i| i != free).map(|i| tri[i]));
            let w = |c: (usize, usize)| rays_with_queens(n, c, &queens);
            let wf = w(f);
            (0..3)
                .filter(|&i| i != free)
                .all(|i| neighbours(n, tri[i]).filter(|o| !queens.contains(o) && *o != f).all(|o| w(o) > wf))
        });
    }
    // Every empty neighbour of the triangle outside it sees at least 3 fixed queens.
    tri.iter().all(|&t| {
        neighbours(n, t)
            .filter(|o| !tri.contains(o) && !fixed.contains(o))
            .all(|o| rays_with_queens(n, o, fixed) >= 3)
    })
}

/// Searches the fig. 7 layout on 6 × 6: fixed queens one per column x = 2..5, the triangle in
/// columns 0..1; the two queens start on the triangle's first two cells. The robust property
/// if some layout has it, else the automaton report's reading; the flag says which.
pub fn find_figure7() -> Option<(Trap, bool)> {
    find_figure7_with(true).map(|t| (t, true)).or_else(|| find_figure7_with(false).map(|t| (t, false)))
}

fn find_figure7_with(robust: bool) -> Option<Trap> {
    let n = 6;
    for by in 0..n - 1 {
        // The four triangles of the 2 x 2 block at columns 0..1, rows by..by+1.
        let block = [(0, by), (1, by), (0, by + 1), (1, by + 1)];
        for skip in 0..4 {
            let tri: Vec<(usize, usize)> = (0..4).filter(|&i| i != skip).map(|i| block[i]).collect();
            let tri = [tri[0], tri[1], tri[2]];
            for code in 0..n.pow(4) {
                let fixed: Vec<(usize, usize)> =
                    (0..4).map(|i| (2 + i, code / n.pow(i as u32) % n)).collect();
                if is_figure7(n as u32, &fixed, &tri, robust) {
                    let mut counts = vec![0; n * n];
                    for &(x, y) in fixed.iter().chain(&tri[..2]) {
                        counts[y * n + x] += 1;
                    }
                    return Some(Trap { n: n as u32, counts, triangle: tri.to_vec() });
                }
            }
        }
    }
    None
}

/// One setting run from a trap position: its parameters and the statistics of its runs.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TrapCase {
    /// The model.
    pub model: Model,
    /// ε.
    pub eps: f64,
    /// η (model 2's).
    pub eta: f64,
    /// Signals reset to the truth after each move ([`crate::automaton::Automaton::run_ideal`]).
    pub ideal_signals: bool,
    /// The runs' statistics.
    pub summary: Summary,
}

/// A figure's trap position and how the models behave there (serialised with the cells of
/// the triangle as 1-based `[row, column]`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TrapExperiment {
    /// The figure: 1 or 7.
    pub figure: u8,
    /// Board side.
    pub n: u32,
    /// The position in the text format of [`text::format_position`].
    pub position: String,
    /// Fig. 7: the triangle's cells, `[row, column]` from 1.
    pub triangle: Vec<[usize; 2]>,
    /// Fig. 7: the layout is a trap whatever the signals do ([`find_figure7`]).
    pub robust: Option<bool>,
    /// Each setting run from the position.
    pub cases: Vec<TrapCase>,
    /// The model of the figure (model 1 for fig. 1, model 2 for fig. 7).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub model: Model,
    /// Queens per cell, row-major.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub counts: Vec<u32>,
}

/// Why a trap experiment could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TrapError {
    /// Not one of the report's trap figures.
    #[error("only figures 1 and 7 are trap positions (got {0})")]
    Figure(u8),
    /// The random search found no fig. 1 position.
    #[error("no fig. 1 position found for n <= 8 with this seed; try another seed")]
    Figure1NotFound,
    /// No fig. 7 layout exists (never, on 6 x 6).
    #[error("no fig. 7 layout exists on 6 x 6")]
    Figure7NotFound,
    /// Bad parameters.
    #[error(transparent)]
    Params(#[from] AutomatonError),
    /// A run failed or was cancelled.
    #[error(transparent)]
    Experiment(#[from] ExperimentError),
}

/// The trap position of `figure` (1 or 7), found by search (fig. 1 with `seed`), and
/// `samples` runs (capped at `max_steps`) of each setting from it with true signals: fig. 1,
/// model 1 at ε = 0 (never solves) and at the default ε; fig. 7, model 2 at η = 0 with the
/// signals reset to the truth after each move (never solves), at η = 0 with its real signals,
/// and at the default η.
pub fn experiment(
    figure: u8,
    seed: u64,
    samples: usize,
    max_steps: u64,
    stop: &Stop,
) -> Result<TrapExperiment, TrapError> {
    let (t, robust, model, settings) = match figure {
        1 => {
            let t = find_figure1(seed, 1_000_000).ok_or(TrapError::Figure1NotFound)?;
            (t, None, Model::Pair, vec![(0.0, 0.0, false), (DEFAULT_EPS, 0.0, false)])
        }
        7 => {
            let (t, robust) = find_figure7().ok_or(TrapError::Figure7NotFound)?;
            let e = DEFAULT_EPS;
            (t, Some(robust), Model::Cell, vec![(e, 0.0, true), (e, 0.0, false), (e, DEFAULT_ETA, false)])
        }
        f => return Err(TrapError::Figure(f)),
    };
    let mut cases = Vec::new();
    for (eps, eta, ideal) in settings {
        let params = Params { model, n: t.n, eps, eta }.validated()?;
        let start = Start { counts: &t.counts, signals: StartSignals::True, ideal };
        let runs = experiment::run_samples_from(&params, Some(start), seed, samples, max_steps, stop)?;
        cases.push(TrapCase { model, eps, eta, ideal_signals: ideal, summary: experiment::summarize(&runs) });
    }
    Ok(TrapExperiment {
        figure,
        n: t.n,
        position: text::format_position(t.n, &t.counts),
        triangle: t.triangle.iter().map(|&(x, y)| [y + 1, x + 1]).collect(),
        robust,
        cases,
        model,
        counts: t.counts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::{Automaton, Model, Params, StartSignals};

    #[test]
    fn figure1_is_found_and_traps_model1_at_eps_0() {
        let t = find_figure1(1, 200_000).expect("a fig. 1 position exists");
        let n = t.n as usize;
        let queens: Vec<(usize, usize)> =
            (0..n * n).filter(|&i| t.counts[i] == 1).map(|i| (i % n, i / n)).collect();
        assert!(is_figure1(t.n, &queens));
        let p = Params { eps: 0.0, ..Params::new(Model::Pair, t.n).unwrap() };
        let mut a = Automaton::from_position(&p, &t.counts, StartSignals::True, 3).unwrap();
        assert!(!a.run_steps(200_000));
        assert_eq!(a.moves(), 0);
        // Geometric check, independent of the signals: every neighbour of every queen is
        // attacked by another queen or occupied.
        for (i, &q) in queens.iter().enumerate() {
            for t2 in neighbours(n, q) {
                let others = queens.iter().enumerate().filter(|&(j, _)| j != i);
                assert!(queens.contains(&t2) || others.clone().any(|(_, &o)| attacks(o, t2)));
            }
        }
    }

    #[test]
    fn figure7_is_found_and_traps_model2_at_eta_0() {
        use crate::automaton::experiment::Start;
        let (t, robust) = find_figure7().expect("a fig. 7 layout exists");
        // No layout is a trap whatever the signals do (see the module docs).
        assert!(!robust);
        let p = Params { eta: 0.0, ..Params::new(Model::Cell, 6).unwrap() };
        // With signals propagated at once after each move (the automaton report's argument): a trap.
        let mut a = Automaton::from_position(&p, &t.counts, StartSignals::True, 5).unwrap();
        let control = crate::control::Control::new();
        let r = a.run_ideal(300_000, &crate::automaton::Stop::new(&control)).unwrap();
        assert!(!r.solved);
        // The triangle queens do move, inside the triangle.
        assert!(a.moves() > 0);
        for (i, &k) in a.counts().iter().enumerate() {
            let c = (i % 6, i / 6);
            if k > 0 && c.0 < 2 {
                assert!(t.triangle.contains(&c), "queen left the triangle: {c:?}");
            }
        }
        let _ = Start { counts: &t.counts, signals: StartSignals::True, ideal: true };
        let p = Params { eta: 0.05, ..p };
        let mut a = Automaton::from_position(&p, &t.counts, StartSignals::True, 5).unwrap();
        assert!(a.run_steps(50_000_000));
    }
}
