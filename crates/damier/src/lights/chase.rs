//! Light chasing: choose the first row of presses, then press under every light still on,
//! row after row; only the last row can stay lit. With `x_0` the first-row presses and `b` the
//! lights to turn off, the presses are
//!
//! `x_{i+1} = b_i + T x_i + x_{i-1}`  (`x_{-1} = 0`, `T` = the row operator: a cell and its
//! two neighbours),
//!
//! and the lights left on the last row are `x_H = P_H(T) x_0 + r(b)` with `P_0 = I`, `P_1 = T`,
//! `P_{k+1} = T P_k + P_{k-1}`: the whole problem is the `W x W` system `P_H(T) x_0 = r(b)`.
//!
//! ```
//! use damier::board::Size;
//! use damier::lights::chase::chase_table;
//!
//! // 5 x 5: chasing fixes 2^3 last rows, the 7 nonzero ones with their first-row presses.
//! let table = chase_table(Size::new(5, 5).unwrap(), &damier::control::Control::new()).unwrap();
//! assert_eq!(table.rank, 3);
//! assert_eq!(table.entries.unwrap().len(), 7);
//! ```

use crate::board::{Board, Size};
use crate::control::{Control, Interrupted};
use crate::gf2::{BitMatrix, BitVec};

use super::error::LightsError;
use super::method::Method;
use super::press::tail_mask;

/// Rows between two polls of the control in long chases.
const POLL_ROWS: usize = 4096;

/// `next = b ^ x ^ (x << 1) ^ (x >> 1) ^ prev`, masked to the width.
#[inline(always)]
fn chase_step(next: &mut [u64], b: &[u64], x: &[u64], prev: &[u64], mask: u64) {
    let n = x.len();
    assert!(n >= 1 && next.len() == n && b.len() == n && prev.len() == n);
    if n == 1 {
        next[0] = (b[0] ^ x[0] ^ (x[0] << 1) ^ (x[0] >> 1) ^ prev[0]) & mask;
        return;
    }
    // PERF: one pass, word-parallel; shifts carry between neighbouring words.
    next[0] = b[0] ^ x[0] ^ (x[0] << 1) ^ ((x[0] >> 1) | (x[1] << 63)) ^ prev[0];
    for i in 1..n - 1 {
        next[i] = b[i] ^ x[i] ^ ((x[i] << 1) | (x[i - 1] >> 63)) ^ ((x[i] >> 1) | (x[i + 1] << 63)) ^ prev[i];
    }
    let l = n - 1;
    next[l] = (b[l] ^ x[l] ^ ((x[l] << 1) | (x[l - 1] >> 63)) ^ (x[l] >> 1) ^ prev[l]) & mask;
}

crate::cpu::avx2_dispatch! {
    /// The lights left on the last row after chasing `b` with first-row presses `x0` (packed
    /// words, `b.stride()` of them), without storing the presses: three rows of memory.
    pub fn chase_residual(b: &Board, x0: &[u64], control: &Control) -> Result<Vec<u64>, Interrupted> => chase_residual_impl
}

#[inline(always)]
fn chase_residual_impl(b: &Board, x0: &[u64], control: &Control) -> Result<Vec<u64>, Interrupted> {
    let s = b.stride();
    assert_eq!(x0.len(), s, "first row length mismatch");
    let mask = tail_mask(b.width());
    let mut prev = vec![0u64; s];
    let mut cur = x0.to_vec();
    let mut next = vec![0u64; s];
    for y in 0..b.height() {
        if y % POLL_ROWS == POLL_ROWS - 1 && control.cancelled() {
            return Err(Interrupted);
        }
        chase_step(&mut next, b.row(y), &cur, &prev, mask);
        std::mem::swap(&mut prev, &mut cur);
        std::mem::swap(&mut cur, &mut next);
    }
    Ok(cur)
}

/// Chases `b` with first-row presses `x0`: the press pattern and the lights left on the last
/// row (all zero exactly when the pattern solves `b`). The pattern is a new board: its
/// allocation refused is [`LightsError::Board`] (out of memory).
pub fn chase_presses(b: &Board, x0: &[u64], control: &Control) -> Result<(Board, Vec<u64>), LightsError> {
    let (w, h, s) = (b.width(), b.height(), b.stride());
    assert_eq!(x0.len(), s, "first row length mismatch");
    let mask = tail_mask(w);
    let mut p = Board::try_new(b.size()).map_err(crate::board::BoardError::from)?;
    p.row_mut(0).copy_from_slice(x0);
    let zero = vec![0u64; s];
    let mut residual = vec![0u64; s];
    for y in 0..h {
        if y % POLL_ROWS == POLL_ROWS - 1 && control.cancelled() {
            return Err(Interrupted.into());
        }
        if y + 1 < h {
            // Rows y - 1 and y are read, row y + 1 written: split the storage around it.
            let (head, tail) = p_rows_split(&mut p, y + 1);
            let cur = &head[y * s..(y + 1) * s];
            let prev = if y > 0 { &head[(y - 1) * s..y * s] } else { &zero[..] };
            chase_step(&mut tail[..s], b.row(y), cur, prev, mask);
        } else {
            let prev = if y > 0 { p.row(y - 1) } else { &zero[..] };
            chase_step(&mut residual, b.row(y), p.row(y), prev, mask);
        }
    }
    Ok((p, residual))
}

crate::cpu::avx2_dispatch! {
    /// Chases `b` with first-row presses `x0` in place: on return `b` holds the press pattern
    /// (row `y + 1` of presses overwrites row `y + 1` of lights once that row was saved); returns
    /// the lights left on the last row. If interrupted, `b` holds a mixture: discard it.
    ///
    /// PERF: no second board: the pattern is written over the lights, so the pass touches no fresh
    /// memory (no page faults) and moves half the bytes of [`chase_presses`].
    pub fn chase_in_place(b: &mut Board, x0: &[u64], control: &Control) -> Result<Vec<u64>, Interrupted> => chase_in_place_impl
}

#[inline(always)]
fn chase_in_place_impl(b: &mut Board, x0: &[u64], control: &Control) -> Result<Vec<u64>, Interrupted> {
    let (w, h, s) = (b.width(), b.height(), b.stride());
    assert_eq!(x0.len(), s, "first row length mismatch");
    let mask = tail_mask(w);
    let zero = vec![0u64; s];
    // `lights` holds the lights of row y (already overwritten in the board), `next` row y + 1.
    let mut lights = b.row(0).to_vec();
    let mut next = vec![0u64; s];
    b.row_mut(0).copy_from_slice(x0);
    let mut residual = vec![0u64; s];
    for y in 0..h {
        if y % POLL_ROWS == POLL_ROWS - 1 && control.cancelled() {
            return Err(Interrupted);
        }
        if y + 1 < h {
            let (head, tail) = b.words_mut().split_at_mut((y + 1) * s);
            let out = &mut tail[..s];
            next.copy_from_slice(out);
            let cur = &head[y * s..(y + 1) * s];
            let prev = if y > 0 { &head[(y - 1) * s..y * s] } else { &zero[..] };
            chase_step(out, &lights, cur, prev, mask);
            std::mem::swap(&mut lights, &mut next);
        } else {
            let prev = if y > 0 { b.row(y - 1) } else { &zero[..] };
            chase_step(&mut residual, &lights, b.row(y), prev, mask);
        }
    }
    Ok(residual)
}

/// The words of `p` split before row `y`.
fn p_rows_split(p: &mut Board, y: usize) -> (&[u64], &mut [u64]) {
    let s = p.stride();
    let (head, tail) = p.words_mut().split_at_mut(y * s);
    (head, tail)
}

/// The `W x W` chasing matrix `P_H(T)`: column `j` is the last row left after chasing the
/// all-off `width x height` board with only cell `j` of the first row pressed.
/// Cost `O(W * W * H / 64)`: for the small and medium boards of the table and the cross-checks.
pub fn chase_matrix(size: Size) -> BitMatrix {
    chase_matrix_with(size, &Control::new()).expect("never cancelled")
}

/// [`chase_matrix`] polling `control` (one chase of the whole board per column: hours for a
/// board 4096 wide and millions of rows high), one unit of progress per column.
pub fn chase_matrix_with(size: Size, control: &Control) -> Result<BitMatrix, Interrupted> {
    let width = size.width();
    let mut m = BitMatrix::zeros(width, width);
    let zero = Board::new(size);
    let s = zero.stride();
    for j in 0..width {
        if control.cancelled() {
            return Err(Interrupted);
        }
        let mut x0 = vec![0u64; s];
        x0[j / 64] |= 1 << (j % 64);
        let r = chase_residual(&zero, &x0, control)?;
        for i in BitVec::from_words(width, &r).ones_indices() {
            m.set(i, j, true);
        }
        control.advance(1);
    }
    Ok(m)
}

/// Chase tables wider than this are refused (`O(W^3)` work). [default: 4096]
pub const CHASE_TABLE_MAX_WIDTH: usize = 4096;

/// The full last-row → first-row table is listed only up to this rank (2^rank - 1 rows);
/// beyond, only its generators. [default: 12]
pub const CHASE_TABLE_MAX_RANK: usize = 12;

/// The last-row → first-row table of light chasing on a `width x height` board.
#[derive(Clone, Debug)]
pub struct ChaseTable {
    /// The board's size.
    pub size: Size,
    /// Rank of the chasing matrix: `2^rank` last rows can be fixed (including all-off).
    pub rank: usize,
    /// For each single first-row press `j`, the last row it changes (the matrix columns).
    pub generators: Vec<BitVec>,
    /// Every nonzero fixable last row with the fewest first-row presses that fix it, sorted by
    /// last row; `None` when the rank exceeds [`CHASE_TABLE_MAX_RANK`].
    pub entries: Option<Vec<(BitVec, BitVec)>>,
}

/// Builds the chase table (see [`ChaseTable`]). Errors with the limit when too wide, or when
/// `control` is cancelled; reports [`chase_table_units`] units of progress: one per column of
/// the chasing matrix, then the entries' first rows by [`ENTRIES_UNIT`].
pub fn chase_table(size: Size, control: &Control) -> Result<ChaseTable, super::LightsError> {
    let width = size.width();
    if width > CHASE_TABLE_MAX_WIDTH {
        return Err(super::LightsError::TooLarge {
            engine: "the chase table",
            unit: "columns",
            limit: CHASE_TABLE_MAX_WIDTH,
            got: width,
        });
    }
    let m = chase_matrix_with(size, control)?;
    let e = m.echelon(None);
    let rank = e.rank();
    let generators = (0..width)
        .map(|j| {
            let mut v = BitVec::zeros(width);
            for i in 0..width {
                v.set(i, m.get(i, j));
            }
            v
        })
        .collect::<Vec<_>>();
    let entries = if rank <= CHASE_TABLE_MAX_RANK && width - rank <= LIGHTEST_KERNEL_MAX {
        Some(table_entries(width, &generators, &e, control)?)
    } else {
        control.advance(entries_units(width));
        None
    };
    Ok(ChaseTable { size, rank, generators, entries })
}

/// The entries' progress: one unit per this many first rows walked (and a look at the
/// control).
pub const ENTRIES_UNIT: u64 = 1 << 20;

/// The units of progress [`chase_table`] reports for `size`: one per column, and the
/// entries' first rows by [`ENTRIES_UNIT`] (at most `2^32` of them, on boards up to 32 wide;
/// reported at once when the table has no entries).
pub fn chase_table_units(size: Size) -> u64 {
    size.width() as u64 + entries_units(size.width())
}

/// The entries' units of a board `width` wide (every first row walked, `2^width`).
fn entries_units(width: usize) -> u64 {
    if width <= CHASE_TABLE_MAX_RANK + LIGHTEST_KERNEL_MAX {
        (1u64 << width).div_ceil(ENTRIES_UNIT)
    } else {
        0
    }
}

/// Every nonzero fixable last row with its lightest first row, sorted by last row: the rows
/// are at most 32 wide here (rank <= 12, kernel <= 20), so each is one word and every first
/// row of a coset is walked by a Gray code over the kernel, `2^width` words in all.
///
/// PERF: one XOR, one popcount and one comparison per first row (at most `2^32`, seconds),
/// where a `BitVec` coset walk per entry allocated at every step (a 30 x 30 board, `2^30` first
/// rows, ran for hours and could not be stopped).
fn table_entries(
    width: usize,
    generators: &[BitVec],
    e: &crate::gf2::Echelon,
    control: &Control,
) -> Result<Vec<(BitVec, BitVec)>, Interrupted> {
    let word = |v: &BitVec| v.words().first().copied().unwrap_or(0);
    let kernel: Vec<u64> = e.kernel_basis().iter().map(word).collect();
    // Basis of the image: the pivot columns; their preimages are unit vectors.
    let image: Vec<(u64, u64)> = e.pivots.iter().map(|&c| (word(&generators[c]), 1u64 << c)).collect();
    let mut out = Vec::with_capacity((1usize << image.len()) - 1);
    let (mut walked, mut reported) = (0u64, 0u64);
    for mask in 1u64..(1 << image.len()) {
        let (mut last, mut first) = (0u64, 0u64);
        for (i, &(l, f)) in image.iter().enumerate() {
            if (mask >> i) & 1 == 1 {
                last ^= l;
                first ^= f;
            }
        }
        let (mut best, mut v) = (first, first);
        for k in 1u64..(1 << kernel.len()) {
            v ^= kernel[k.trailing_zeros() as usize];
            if lighter(v, best) {
                best = v;
            }
        }
        walked += 1 << kernel.len();
        if walked >= ENTRIES_UNIT {
            if control.cancelled() {
                return Err(Interrupted);
            }
            control.advance(walked / ENTRIES_UNIT);
            reported += walked / ENTRIES_UNIT;
            walked %= ENTRIES_UNIT;
        }
        out.push((BitVec::from_words(width, &[last]), BitVec::from_words(width, &[best])));
    }
    out.sort_by_key(|(l, _)| l.to_bools().iter().map(|&b| u8::from(b)).collect::<Vec<_>>());
    control.advance(entries_units(width).saturating_sub(reported));
    Ok(out)
}

/// Whether first row `a` is lighter than `b`: fewer presses, then (the same number) the
/// smaller as a bit string read from column 0, with a press before no press: the order of
/// [`lightest`] (bit `i` of a word is column `i`).
fn lighter(a: u64, b: u64) -> bool {
    match a.count_ones().cmp(&b.count_ones()) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => a != b && a & (1 << (a ^ b).trailing_zeros()) != 0,
    }
}

/// The lightest vector of `x + span(kernel)` (ties: the smallest as a bit string), by a
/// Gray-code walk over the span: the order [`lighter`] keeps on words.
#[cfg(test)]
fn lightest(x: &BitVec, kernel: &[BitVec]) -> BitVec {
    let key = |v: &BitVec| (v.count_ones(), v.to_bools().iter().map(|&b| u8::from(!b)).collect::<Vec<_>>());
    let coset = crate::gf2::Coset::new(x.clone(), kernel.to_vec());
    match coset.smallest_by(key, || Ok::<(), std::convert::Infallible>(())) {
        Ok((_, best)) => best,
    }
}

/// Light chasing explained in its three steps: chase down, find the
/// first row that fixes the last row, press it and chase again.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplainedChase {
    /// Step 1: the presses of chasing down (under every light, row after row).
    pub down: Board,
    /// The board after chasing down: lights left on the last row only.
    pub after: Board,
    /// Those lights, as row words.
    pub last_row: Vec<u64>,
    /// Step 2: the lightest first row that fixes the last row (the lightest of all when the
    /// kernel has at most 20 first rows, as in the Lights Out text's table), `None` when no first row
    /// does: the board is not winnable.
    pub first_row: Option<Vec<u64>>,
    /// Step 3: the whole solution, the first row pressed, then chased down (checked).
    pub presses: Option<Board>,
}

/// Most kernel first rows walked to find the lightest first row.
const LIGHTEST_KERNEL_MAX: usize = 20;

/// Chases `start` in the three steps of [`ExplainedChase`]; the presses are verified
/// independently of the chase (they turn every light off) before they are returned.
pub fn explain(start: &Board, control: &Control) -> Result<ExplainedChase, LightsError> {
    let zero = vec![0u64; start.stride()];
    let (down, last_row) = chase_presses(start, &zero, control)?;
    let after = super::apply_presses(start, &down);
    let sys = super::poly::PolySystem::new(start.size());
    let first_row = sys.solve_first_row(&last_row).map(|x0| {
        let kernel = sys.kernel_first_rows();
        if kernel.len() > LIGHTEST_KERNEL_MAX {
            return x0;
        }
        crate::gf2::Coset::new(x0, kernel).lightest().1
    });
    let presses = match &first_row {
        Some(x0) => {
            let (p, _) = chase_presses(start, x0, control)?;
            Some(p)
        }
        None => None,
    };
    if presses.as_ref().is_some_and(|p| !super::press::verify(start, None, p)) {
        return Err(LightsError::Unverified(Method::Chase));
    }
    Ok(ExplainedChase { down, after, last_row, first_row, presses })
}

/// `w` bits of `words` as 0/1.
#[cfg(feature = "serde")]
fn row_string(words: &[u64], w: usize) -> String {
    (0..w).map(|i| if (words[i / 64] >> (i % 64)) & 1 == 1 { '1' } else { '0' }).collect()
}

/// Serialised as `width`, `height`, `chase_presses` (rows of 0/1),
/// `last_row`, `solvable`, `first_row`, `presses` and `press_count`.
#[cfg(feature = "serde")]
impl serde::Serialize for ExplainedChase {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let w = self.down.width();
        let rows = |b: &Board| b.to_rows('1', '0');
        let mut st = s.serialize_struct("ExplainedChase", 8)?;
        st.serialize_field("width", &w)?;
        st.serialize_field("height", &self.down.height())?;
        st.serialize_field("chase_presses", &rows(&self.down))?;
        st.serialize_field("last_row", &row_string(&self.last_row, w))?;
        st.serialize_field("solvable", &self.first_row.is_some())?;
        st.serialize_field("first_row", &self.first_row.as_ref().map(|f| row_string(f, w)))?;
        st.serialize_field("presses", &self.presses.as_ref().map(rows))?;
        st.serialize_field("press_count", &self.presses.as_ref().map(Board::count_ones))?;
        st.end()
    }
}

/// Serialised as `width`, `height`, `rank`, `entries` (each
/// `last_row` with the `first_row` that fixes it, or null when too many) and `generators`
/// (each single first-row press with the `last_row` it changes), rows as 0/1.
#[cfg(feature = "serde")]
impl serde::Serialize for ChaseTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        #[derive(serde::Serialize)]
        struct Entry {
            last_row: String,
            first_row: String,
        }
        let bits =
            |v: &BitVec| -> String { v.to_bools().iter().map(|&b| if b { '1' } else { '0' }).collect() };
        let w = self.size.width();
        let generators: Vec<Entry> = (0..w)
            .map(|j| {
                let mut f = BitVec::zeros(w);
                f.set(j, true);
                Entry { last_row: bits(&self.generators[j]), first_row: bits(&f) }
            })
            .collect();
        let entries: Option<Vec<Entry>> = self
            .entries
            .as_ref()
            .map(|e| e.iter().map(|(l, f)| Entry { last_row: bits(l), first_row: bits(f) }).collect());
        let mut st = s.serialize_struct("ChaseTable", 5)?;
        st.serialize_field("width", &w)?;
        st.serialize_field("height", &self.size.height())?;
        st.serialize_field("rank", &self.rank)?;
        st.serialize_field("entries", &entries)?;
        st.serialize_field("generators", &generators)?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lights::press::apply_presses_naive;

    fn bits(s: &str) -> BitVec {
        BitVec::from_bools(&s.chars().map(|c| c == '1').collect::<Vec<_>>())
    }

    #[test]
    fn five_by_five_has_the_seven_cases() {
        let t = chase_table(Size::new(5, 5).unwrap(), &Control::new()).unwrap();
        assert_eq!(t.rank, 3);
        let entries = t.entries.unwrap();
        assert_eq!(entries.len(), 7);
        // The classic 5x5 last rows (Jaap's Puzzle Page, cited by the Lights Out text).
        let mut lasts: Vec<String> = entries
            .iter()
            .map(|(l, _)| l.to_bools().iter().map(|&b| if b { '1' } else { '0' }).collect())
            .collect();
        lasts.sort();
        let mut expected = vec!["00111", "01010", "01101", "10001", "10110", "11011", "11100"];
        expected.sort();
        assert_eq!(lasts, expected);
        // Each fix really works: light the last row, press the first row, chase: all off.
        for (last, first) in &entries {
            let mut b = Board::new(Size::new(5, 5).unwrap());
            for i in last.ones_indices() {
                b.set(i, 4, true);
            }
            let (p, residual) = chase_presses(&b, first.words(), &Control::new()).unwrap();
            assert!(residual.iter().all(|&w| w == 0));
            assert!(apply_presses_naive(&b, &p).is_zero());
            let mut q = b.clone();
            let r2 = chase_in_place(&mut q, first.words(), &Control::new()).unwrap();
            assert_eq!((q, r2), (p, residual));
        }
        assert_eq!(entries.iter().find(|(l, _)| *l == bits("10001")).unwrap().1.count_ones(), 2);
    }

    #[test]
    fn the_entries_on_words_are_the_lightest_of_each_coset() {
        // The word-level walk against the coset walk on `BitVec`s it replaced, on every size
        // with a table up to 12 wide (kernels up to 8: 11 x 11 has nullity 6, 4 x 4 has 4).
        for w in 1..=12 {
            for h in 1..=14 {
                let size = Size::new(w, h).unwrap();
                let t = chase_table(size, &Control::new()).unwrap();
                let Some(entries) = t.entries else { continue };
                let e = chase_matrix(size).echelon(None);
                let kernel = e.kernel_basis();
                for (last, first) in &entries {
                    let fixed = (0..w).filter(|&j| first.get(j)).fold(BitVec::zeros(w), |mut acc, j| {
                        acc.xor_assign(&t.generators[j]);
                        acc
                    });
                    assert_eq!(&fixed, last, "{w}x{h}: the first row fixes its last row");
                    assert_eq!(&lightest(first, &kernel), first, "{w}x{h}: the lightest of its coset");
                }
                assert_eq!(entries.len(), (1 << t.rank) - 1, "{w}x{h}");
            }
        }
    }

    #[test]
    fn the_progress_reaches_its_units() {
        for (w, h) in [(5, 5), (30, 5), (16, 16), (40, 3)] {
            let (c, size) = (Control::new(), Size::new(w, h).unwrap());
            chase_table(size, &c).unwrap();
            assert_eq!(c.done(), chase_table_units(size), "{w}x{h}");
        }
    }

    #[test]
    fn a_cancelled_table_stops() {
        // 30 x 30: 2^30 first rows for the entries; with the control cancelled it stops at once.
        let c = Control::new();
        c.cancel();
        assert!(matches!(chase_table(Size::new(30, 30).unwrap(), &c), Err(LightsError::Interrupted(_))));
    }

    #[test]
    fn the_explained_chase_solves_winnable_boards_and_spots_the_others() {
        let control = Control::new();
        let mut lit = Board::new(Size::new(5, 5).unwrap());
        for y in 0..5 {
            for x in 0..5 {
                lit.set(x, y, true);
            }
        }
        let e = explain(&lit, &control).unwrap();
        assert_eq!(e.after, super::super::apply_presses(&lit, &e.down));
        assert_eq!(e.after.count_ones(), e.last_row.iter().map(|w| u64::from(w.count_ones())).sum::<u64>());
        let p = e.presses.expect("the lit 5x5 board is winnable");
        assert!(super::super::verify(&lit, None, &p));
        // The lightest of the four solutions: 15 presses.
        assert_eq!(p.count_ones(), 15);
        // One corner light on 5x5 is not winnable (it is not orthogonal to the kernel).
        let mut corner = Board::new(Size::new(5, 5).unwrap());
        corner.set(0, 0, true);
        let e = explain(&corner, &control).unwrap();
        assert_eq!((e.first_row, e.presses), (None, None));
    }
}
