//! Solutions fixed by a half turn (F180) and by a quarter turn (F90), for Burnside's lemma.
//!
//! A rotation-symmetric solution is determined by its queens in about a half (F180) or a
//! quarter (F90) of the rows: each queen placed brings its whole orbit under the rotation with
//! it. These searches are tiny next to the total count (they explore about the square root of
//! the full tree), so they use plain index checks on full-board masks rather than shifted
//! bitboards.

/// Occupied rows, columns and both diagonal families of the whole board (n <= 32, so the
/// 2n - 1 diagonals of each family fit a `u64`).
#[derive(Clone, Copy)]
struct Board {
    n: u32,
    rows: u64,
    cols: u64,
    /// Diagonals `r + c`.
    sum: u64,
    /// Diagonals `r - c + n - 1`.
    diff: u64,
}

impl Board {
    fn new(n: u32) -> Self {
        Board { n, rows: 0, cols: 0, sum: 0, diff: 0 }
    }

    /// The board with a queen added at (r, c), or `None` if (r, c) is attacked or occupied.
    fn with(self, r: u32, c: u32) -> Option<Self> {
        let (rb, cb) = (1u64 << r, 1u64 << c);
        let (sb, db) = (1u64 << (r + c), 1u64 << (r + self.n - 1 - c));
        if (self.rows & rb) | (self.cols & cb) | (self.sum & sb) | (self.diff & db) != 0 {
            return None;
        }
        Some(Board {
            rows: self.rows | rb,
            cols: self.cols | cb,
            sum: self.sum | sb,
            diff: self.diff | db,
            ..self
        })
    }

    /// The board with the whole orbit of (r, c) under `turn` added (the orbit's distinct
    /// squares only), or `None` if two of them, or one and an earlier queen, attack each other.
    fn with_orbit(self, r: u32, c: u32, turn: fn(u32, u32, u32) -> (u32, u32)) -> Option<Self> {
        let mut b = self.with(r, c)?;
        let (mut rr, mut cc) = turn(self.n, r, c);
        while (rr, cc) != (r, c) {
            b = b.with(rr, cc)?;
            (rr, cc) = turn(self.n, rr, cc);
        }
        Some(b)
    }
}

fn half_turn(n: u32, r: u32, c: u32) -> (u32, u32) {
    (n - 1 - r, n - 1 - c)
}

fn quarter_turn(n: u32, r: u32, c: u32) -> (u32, u32) {
    (c, n - 1 - r)
}

/// Counts the completions of `b`, filling the lowest empty row with whole orbits.
fn orbits(b: Board, turn: fn(u32, u32, u32) -> (u32, u32)) -> u64 {
    let all = (1u64 << b.n) - 1;
    if b.rows == all {
        return 1;
    }
    let r = (!b.rows).trailing_zeros();
    let mut total = 0;
    for c in super::backtrack::bits(all & !b.cols) {
        if let Some(next) = b.with_orbit(r, c, turn) {
            total += orbits(next, turn);
        }
    }
    total
}

/// The centre square's queen, which every rotation-symmetric solution of odd n has (a queen
/// on the middle row is mapped by the half turn onto the middle row).
fn start(n: u32) -> Option<Board> {
    let b = Board::new(n);
    if n % 2 == 1 { b.with(n / 2, n / 2) } else { Some(b) }
}

/// Solutions fixed by the half turn (n in 1..=32).
pub fn fixed_by_half_turn(n: u32) -> u64 {
    assert!((1..=32).contains(&n), "n = {n} out of 1..=32");
    start(n).map_or(0, |b| orbits(b, half_turn))
}

/// Solutions fixed by the quarter turn (n in 1..=32). Only n = 0 or 1 mod 4 has any: the
/// queens off the centre come in orbits of 4.
pub fn fixed_by_quarter_turn(n: u32) -> u64 {
    assert!((1..=32).contains(&n), "n = {n} out of 1..=32");
    if n % 4 >= 2 {
        return 0;
    }
    start(n).map_or(0, |b| orbits(b, quarter_turn))
}
