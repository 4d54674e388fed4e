//! The automaton report's bijection from `[0, (4n-2)(n-1))` onto the unordered adjacent pairs of cells.
//!
//! With `N = A (n-1) + B`, `0 <= B < n-1`:
//! `A < n` → `(B, A), (B+1, A)`; `A = n+i` → `(i, B), (i, B+1)`;
//! `A = 2n+i, i < n-1` → `(i, B), (i+1, B+1)`; `A = 3n-1+i` → `(i, B+1), (i+1, B)`.
//! Cells are `(x, y)`. Model 1 draws `N` uniformly, so every pair is equally likely.
//!
//! ```
//! use damier::automaton::pairs::{count, pair};
//!
//! assert_eq!(count(3), 20); // (4n - 2)(n - 1)
//! let ((x1, y1), (x2, y2)) = pair(3, 19);
//! assert!(x1.abs_diff(x2) <= 1 && y1.abs_diff(y2) <= 1 && (x1, y1) != (x2, y2));
//! ```

/// Number of unordered pairs of cells at Chebyshev distance 1 on an `n × n` board.
pub const fn count(n: u32) -> usize {
    let n = n as usize;
    if n < 2 { 0 } else { (4 * n - 2) * (n - 1) }
}

/// The pair numbered `index` (panics if `index >= count(n)`): the first cell and the second.
pub fn pair(n: u32, index: usize) -> ((usize, usize), (usize, usize)) {
    assert!(index < count(n), "pair index {index} out of range for n = {n}");
    let n = n as usize;
    let (a, b) = (index / (n - 1), index % (n - 1));
    if a < n {
        ((b, a), (b + 1, a))
    } else if a < 2 * n {
        let i = a - n;
        ((i, b), (i, b + 1))
    } else if a < 3 * n - 1 {
        let i = a - 2 * n;
        ((i, b), (i + 1, b + 1))
    } else {
        let i = a - (3 * n - 1);
        ((i, b + 1), (i + 1, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Exhaustive: the map hits every unordered adjacent pair exactly once.
    #[test]
    fn the_seed_map_is_a_bijection() {
        for n in 1..=12 {
            let mut seen = HashSet::new();
            for i in 0..count(n as u32) {
                let (p, q) = pair(n as u32, i);
                assert!(p.0 < n && p.1 < n && q.0 < n && q.1 < n, "n = {n}, index {i}");
                let dist = p.0.abs_diff(q.0).max(p.1.abs_diff(q.1));
                assert_eq!(dist, 1, "n = {n}, index {i}: {p:?} {q:?}");
                let key = if p < q { (p, q) } else { (q, p) };
                assert!(seen.insert(key), "n = {n}: pair {key:?} hit twice");
            }
            // Every adjacent pair, enumerated independently.
            let mut all = HashSet::new();
            for x in 0..n {
                for y in 0..n {
                    for (dx, dy) in crate::automaton::dir::DIRECTIONS {
                        let (u, v) = (x as i32 + dx, y as i32 + dy);
                        if (0..n as i32).contains(&u) && (0..n as i32).contains(&v) {
                            let (p, q) = ((x, y), (u as usize, v as usize));
                            all.insert(if p < q { (p, q) } else { (q, p) });
                        }
                    }
                }
            }
            assert_eq!(seen, all, "n = {n}");
        }
    }
}
