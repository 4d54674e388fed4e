//! The course chapter's naive backtracker, kept readable on purpose: its pseudocode functions
//! `EstLibre` ("is the square free": no queen on the rows above attacks it) and `PlacerReine`
//! ("place a queen": try every free column of the row, then the next row).
//!
//! It is the reference every faster engine is tested against. `S` holds the 1-based column
//! of the queen on each row, 0 for "not placed yet", exactly as in the course chapter's pseudocode;
//! `est_libre` looks at the queens of the rows above (O(n) per test), so the whole search
//! costs O(n · n!) in the worst case.
//!
//! ```
//! use damier::control::Control;
//! use damier::queens::naive;
//!
//! assert_eq!(naive::solutions(6, &Control::new()).unwrap().len(), 4);
//! ```

use crate::control::{Control, Interrupted};
use crate::queens::Placement;

/// Largest n accepted: the search is exponential and n! overflows long before this anyway.
pub const MAX_N: u32 = 32;

/// `EstLibre(S, ligne, colonne)`: true if no queen on the rows above `ligne` attacks the
/// square (`ligne`, `colonne`), both 1-based.
pub fn est_libre(s: &[u32], ligne: usize, colonne: u32) -> bool {
    let mut ok = true;
    let mut l = 1;
    while l < ligne {
        let c = s[l - 1];
        ok = ok && ligne.abs_diff(l) as u64 != u64::from(colonne.abs_diff(c)) && colonne != c;
        l += 1;
    }
    ok
}

/// The global state of `PlacerReine`: n, the table S, and what `Traiter` does.
struct Search<'a, F> {
    n: usize,
    s: Vec<u32>,
    traiter: F,
    control: &'a Control,
    calls: u64,
    stop: bool,
}

impl<F: FnMut(&[u32]) -> bool> Search<'_, F> {
    /// `PlacerReine(ligne)`; returns early once `traiter` asked to stop or Ctrl-C was seen.
    fn placer_reine(&mut self, ligne: usize) {
        if self.stop {
            return;
        }
        self.calls += 1;
        if self.calls.is_multiple_of(1 << 16) && self.control.cancelled() {
            self.stop = true;
            return;
        }
        if ligne > self.n {
            if !(self.traiter)(&self.s) {
                self.stop = true;
            }
            return;
        }
        let mut colonne = 1;
        while colonne <= self.n as u32 && !self.stop {
            if est_libre(&self.s, ligne, colonne) {
                self.s[ligne - 1] = colonne;
                self.placer_reine(ligne + 1);
                self.s[ligne - 1] = 0;
            }
            colonne += 1;
        }
    }
}

/// Runs `PlacerReine(1)` on an n x n board, calling `traiter` with S (1-based columns) for
/// each solution in backtracking order; `traiter` returns false to stop the search.
///
/// `Err(Interrupted)` if `control` was cancelled before the search finished.
pub fn placer_reine(
    n: u32,
    control: &Control,
    traiter: impl FnMut(&[u32]) -> bool,
) -> Result<(), Interrupted> {
    assert!(n <= MAX_N, "naive search is limited to n <= {MAX_N}");
    let mut search =
        Search { n: n as usize, s: vec![0; n as usize], traiter, control, calls: 0, stop: false };
    search.placer_reine(1);
    if control.cancelled() { Err(Interrupted) } else { Ok(()) }
}

/// All solutions in backtracking order (collects them: keep n small).
pub fn solutions(n: u32, control: &Control) -> Result<Vec<Placement>, Interrupted> {
    let mut all = Vec::new();
    placer_reine(n, control, |s| {
        all.push(Placement::from_trusted(s.iter().map(|&c| c - 1).collect()));
        true
    })?;
    Ok(all)
}

/// Number of solutions, the slow way (the timing curve's reference line).
pub fn count(n: u32, control: &Control) -> Result<u64, Interrupted> {
    let mut total = 0;
    placer_reine(n, control, |_| {
        total += 1;
        true
    })?;
    Ok(total)
}

/// The first solution in backtracking order (the course chapter's "stop at the first" exercise).
pub fn first(n: u32, control: &Control) -> Result<Option<Placement>, Interrupted> {
    let mut found = None;
    placer_reine(n, control, |s| {
        found = Some(Placement::from_trusted(s.iter().map(|&c| c - 1).collect()));
        false
    })?;
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_s_examples() {
        let c = Control::new();
        // "il existe 92" solutions for n = 8; the first for n = 4 is S = (2, 4, 1, 3).
        assert_eq!(count(8, &c).unwrap(), 92);
        assert_eq!(first(4, &c).unwrap().unwrap().to_string(), "(2, 4, 1, 3)");
        assert_eq!(first(3, &c).unwrap(), None);
        // EstLibre: (4,4) is attacked by the queen at (1,1) (the course chapter's figure 4).
        assert!(!est_libre(&[1, 3, 0, 0], 4, 4));
        assert!(est_libre(&[2, 4, 1, 0], 4, 3));
    }

    #[test]
    fn stops_when_cancelled() {
        let c = Control::new();
        c.cancel();
        assert_eq!(count(12, &c), Err(Interrupted));
    }
}
