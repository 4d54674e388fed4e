//! Lights Out over GF(2), after "Le jeu du tout éteint (light out game)", a French text on the
//! game over GF(2) ("the Lights Out text" in these docs; the README's Sources list the four
//! source documents).
//!
//! Pressing a cell flips it and its orthogonal neighbours. With `M` the `N x N` press matrix
//! (`N = W * H`), presses `X` turn a start `B` into a target `C` iff `M X = B + C` over GF(2):
//! none, or `2^k` solutions with `k` the nullity of `M`.
//!
//! Three engines, cross-checked in the tests:
//! - [`Method::Dense`]: elimination on `M` ([`dense`]), the Lights Out text's method; up to
//!   [`dense::DENSE_MAX_CELLS`] cells;
//! - [`Method::Chase`]: light chasing reduces the problem to a `W x W` system ([`chase`]),
//!   solved by dense elimination; up to [`chase::CHASE_TABLE_MAX_WIDTH`] columns;
//! - [`Method::Poly`] (the default): the `W x W` system in the polynomial view ([`poly`]):
//!   `O(W^2 / 64)` word operations besides two chases; `10^5 x 10^5` in about a second.
//!
//! Every engine's press pattern is verified by [`press::verify`] (applying it, a row at a
//! time) before [`solve`] returns it. [`game::LightsState`] is a game in progress (press,
//! undo, hints) for front ends that only draw.
//!
//! ```
//! use damier::board::{Board, Size};
//! use damier::control::Control;
//! use damier::lights::{self, Method};
//!
//! let size: Size = "5x5".parse().unwrap();
//! let start = Board::ones(size);
//! let s = lights::solve(&start, None, Method::Poly, &Control::new()).unwrap();
//! assert_eq!(s.nullity, 2); // 4 ways to turn the 5x5 board off
//! let presses = s.presses.unwrap();
//! assert!(lights::press::apply_presses(&start, &presses).is_zero());
//! let fewest = lights::fewest_presses(&presses, &lights::kernel(size, Method::Poly, &Control::new()).unwrap(), &Control::new()).unwrap();
//! assert_eq!(fewest.presses.count_ones(), 15);
//! ```

pub mod chase;
pub mod dense;
mod error;
pub mod game;
mod method;
pub mod poly;
pub mod press;
pub mod records;
pub mod request;
pub mod sizes;

use crate::board::{Board, BoardError, Size};
use crate::control::{Control, Interrupted};
use crate::gf2::{BitVec, Coset, XorVector};
pub use crate::gf2::{power_of_two_decimal, power_of_two_minus_one_decimal};
use crate::util::{check_fits, try_with_capacity};

pub use error::LightsError;
pub use method::Method;
pub use poly::{nullity, square_nullities};
pub use press::{apply_presses, press_cell, try_apply_presses, verify};

/// The answer for one start and target.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The nullity `k` of the press matrix: `2^k` solutions when there is one.
    pub nullity: usize,
    /// One press pattern, verified; `None` when the target cannot be reached.
    pub presses: Option<Board>,
}

impl Solution {
    /// True when the target can be reached.
    pub fn solvable(&self) -> bool {
        self.presses.is_some()
    }
}

/// The lights that must change: `start + target` (`start` when `target` is `None`), a new
/// board ([`LightsError::Board`] when its allocation is refused).
pub fn difference(start: &Board, target: Option<&Board>) -> Result<Board, LightsError> {
    let mut b = start.try_clone().map_err(BoardError::from)?;
    if let Some(t) = target {
        if t.size() != start.size() {
            return Err(LightsError::SizeMismatch { start: start.size(), target: t.size() });
        }
        b.xor_assign(t);
    }
    Ok(b)
}

/// Whether `method` solves a board of `size` on its transpose (it chases along the long side):
/// the chase engine whenever the board is wider than tall, the polynomial one only beyond 128
/// times (see [`solve_in_place`]).
fn transposes(size: Size, method: Method) -> bool {
    let (w, h) = (size.width(), size.height());
    w > h && (method == Method::Chase || (method == Method::Poly && w > 128 * h))
}

/// The transposed size a wide board is solved on, refused when its boards would pass
/// [`MAX_CELLS`](crate::board::MAX_CELLS) bits ([`LightsError::TransposeTooLarge`]).
fn checked_transpose(size: Size) -> Result<Size, LightsError> {
    size.checked_transposed().map_err(|_| LightsError::TransposeTooLarge { size })
}

/// The memory [`solve`] takes for a board of `size`, the start and the target (when there
/// is one) included: in bytes, the boards it holds at once, each [`Size::bytes`]: the start,
/// the target, the lights to change (which become the presses), and, when the engine chases
/// along the long side, their transpose. Refused when that transpose passes the largest board
/// ([`LightsError::TransposeTooLarge`]: `10^9 x 2` holds 250 MB, its transpose 8 GB, each row
/// being whole words). Row buffers and the engines' `W x W` systems are not counted.
pub fn solve_bytes(size: Size, target: bool, method: Method) -> Result<u64, LightsError> {
    let boards = (2 + u64::from(target)) * size.bytes();
    if !transposes(size, method) {
        return Ok(boards);
    }
    Ok(boards + checked_transpose(size)?.bytes())
}

/// [`solve_bytes`], refused as [`LightsError::OutOfMemory`] when it cannot fit the process's
/// address space ([`check_fits`]): the check [`solve`] makes before it allocates, which a
/// front end makes before it makes the start.
pub fn check_solve_memory(size: Size, target: bool, method: Method) -> Result<u64, LightsError> {
    let need = solve_bytes(size, target, method)?;
    check_fits(need).map_err(|source| LightsError::OutOfMemory { what: SOLVING, size, need, source })?;
    Ok(need)
}

/// `err` with what the solve of a board of `size` holds in all when it is out of memory
/// ([`LightsError::OutOfMemory`]); any other error as it is.
fn with_need(err: LightsError, what: &'static str, size: Size, need: u64) -> LightsError {
    match err {
        LightsError::Board(BoardError::OutOfMemory(source)) => {
            LightsError::OutOfMemory { what, size, need, source }
        }
        e => e,
    }
}

/// Solves `start → target` (all off when `None`) with the given engine; the press pattern is
/// verified before it is returned. Its memory ([`solve_bytes`]) is checked first; an
/// allocation refused on the way is [`LightsError::OutOfMemory`], with what it needs.
pub fn solve(
    start: &Board,
    target: Option<&Board>,
    method: Method,
    control: &Control,
) -> Result<Solution, LightsError> {
    let size = start.size();
    let need = check_solve_memory(size, target.is_some(), method)?;
    let solved = (|| {
        let mut b = difference(start, target)?;
        let (nullity, solvable) = solve_in_place(&mut b, method, control)?;
        Ok((nullity, solvable, b))
    })();
    let (nullity, solvable, b) = solved.map_err(|e| with_need(e, SOLVING, size, need))?;
    if solvable && !verify(start, target, &b) {
        return Err(LightsError::Unverified(method));
    }
    Ok(Solution { nullity, presses: solvable.then_some(b) })
}

/// What [`LightsError::OutOfMemory`] says a solve was doing.
pub const SOLVING: &str = "solving";

/// The bytes `lights winnable` ([`solve`], then [`records::Winnability::of`]) holds at most
/// for a board of `size`, with a target or not: the solve's ([`solve_bytes`]), then the start,
/// the target, the presses, the lights to change and the kernel basis of the orthogonality
/// test ([`kernel_bits`]). Refused when the basis passes [`KERNEL_MAX_CELLS`].
pub fn winnable_bytes(size: Size, target: bool) -> Result<u64, LightsError> {
    let solving = solve_bytes(size, target, Method::Poly)?;
    let k = nullity(size);
    check_kernel(size, k)?;
    // A nullity of 0 makes no basis, nor the board it would be chased on.
    let basis = if k == 0 { 0 } else { kernel_bits(size, k) / 8 };
    let testing = (3 + u64::from(target)) * size.bytes() + basis;
    Ok(solving.max(testing))
}

/// [`winnable_bytes`], refused as [`LightsError::OutOfMemory`] when it cannot fit the
/// process's address space: the check `lights winnable` makes before it solves.
pub fn check_winnable_memory(size: Size, target: bool) -> Result<u64, LightsError> {
    let need = winnable_bytes(size, target)?;
    let what = "the winnability test of";
    check_fits(need).map_err(|source| LightsError::OutOfMemory { what, size, need, source })?;
    Ok(need)
}

/// Solves `M x = b` without the final check (for benchmarks that time the check apart).
pub fn solve_unverified(b: &Board, method: Method, control: &Control) -> Result<Solution, LightsError> {
    let mut x = b.clone();
    let (nullity, solvable) = solve_in_place(&mut x, method, control)?;
    Ok(Solution { nullity, presses: solvable.then_some(x) })
}

/// Solves `M x = b` in place: returns `(nullity, solvable)`; when solvable, `b` now holds a
/// press pattern (not verified here); otherwise `b` is unchanged. The polynomial engine on a
/// board at least as tall as wide needs no second board (see [`chase::chase_in_place`]).
pub fn solve_in_place(
    b: &mut Board,
    method: Method,
    control: &Control,
) -> Result<(usize, bool), LightsError> {
    let (nullity, presses) = match method {
        Method::Dense => {
            check_dense(b.size())?;
            dense::solve(b)
        }
        Method::Chase | Method::Poly
            if b.width() > b.height() && (method == Method::Chase || b.width() > 128 * b.height()) =>
        {
            // Chase along the long side: the reduced system is min(W, H) wide. The dense W x W
            // system always wants that; the polynomial one costs only O(W^2 / 128) word
            // operations, cheaper than a bit-by-bit transposition unless W > 128 H.
            checked_transpose(b.size())?;
            let mut t = b.try_transpose()?;
            // The lights are in `t` now: `b`'s words are freed before the presses come back
            // (unsolvable, `t` is unchanged and turns back into the same lights).
            *b = Board::new(Size::new(1, 1).expect("1x1 is a size"));
            let (nullity, solvable) = solve_in_place(&mut t, method, control)?;
            *b = t.try_transpose()?;
            return Ok((nullity, solvable));
        }
        Method::Chase => {
            check_chase(b.width())?;
            let m = chase::chase_matrix(b.size());
            let e = m.echelon(None);
            let nullity = b.width() - e.rank();
            let r = chase::chase_residual(b, &vec![0; b.stride()], control)?;
            match m.solve(&BitVec::from_words(b.width(), &r)) {
                None => (nullity, None),
                Some(x0) => (nullity, Some(chase::chase_presses(b, x0.words(), control)?.0)),
            }
        }
        Method::Poly => {
            let sys = poly::PolySystem::new(b.size());
            let nullity = sys.nullity();
            let r = chase::chase_residual(b, &vec![0; b.stride()], control)?;
            let Some(x0) = sys.solve_first_row(&r) else { return Ok((nullity, false)) };
            chase::chase_in_place(b, &x0, control)?;
            return Ok((nullity, true));
        }
    };
    let solvable = presses.is_some();
    if let Some(p) = presses {
        *b = p;
    }
    Ok((nullity, solvable))
}

fn check_dense(size: Size) -> Result<(), LightsError> {
    if size.cells() > dense::DENSE_MAX_CELLS {
        return Err(LightsError::TooLarge {
            engine: "dense elimination",
            unit: "cells",
            limit: dense::DENSE_MAX_CELLS,
            got: size.cells(),
        });
    }
    Ok(())
}

fn check_chase(w: usize) -> Result<(), LightsError> {
    if w > chase::CHASE_TABLE_MAX_WIDTH {
        return Err(LightsError::TooLarge {
            engine: "the chase engine (a dense W x W system)",
            unit: "columns",
            limit: chase::CHASE_TABLE_MAX_WIDTH,
            got: w,
        });
    }
    Ok(())
}

/// A basis of the neutral configurations (the kernel of `M`: presses that change nothing).
/// Refused beyond [`KERNEL_MAX_CELLS`] bits in all ([`check_kernel`], before any work); an
/// allocation refused on the way is [`LightsError::OutOfMemory`]; stopped by `control`.
pub fn kernel(size: Size, method: Method, control: &Control) -> Result<Vec<Board>, LightsError> {
    let k = nullity(size);
    check_kernel(size, k)?;
    if k == 0 && method != Method::Dense {
        // Nothing to chase: not even the board (or its transpose) is made.
        return Ok(Vec::new());
    }
    let need = kernel_bits(size, k) / 8;
    let what = "the kernel of";
    check_fits(need).map_err(|source| LightsError::OutOfMemory { what, size, need, source })?;
    kernel_unchecked(size, method, control).map_err(|e| with_need(e, what, size, need))
}

fn kernel_unchecked(size: Size, method: Method, control: &Control) -> Result<Vec<Board>, LightsError> {
    let width = size.width();
    if width > size.height() && method != Method::Dense {
        // Each vector turned back as it comes, so the two bases are never held whole at once.
        let mut basis = try_with_capacity(nullity(size)).map_err(BoardError::from)?;
        for v in kernel_unchecked(checked_transpose(size)?, method, control)? {
            basis.push(v.try_transpose()?);
        }
        return Ok(basis);
    }
    let zero = Board::try_new(size).map_err(BoardError::from)?;
    let first_rows: Vec<Vec<u64>> = match method {
        Method::Dense => {
            check_dense(size)?;
            return Ok(dense::kernel(size));
        }
        Method::Chase => {
            check_chase(width)?;
            chase::chase_matrix(size).kernel_basis().iter().map(|v| v.words().to_vec()).collect()
        }
        Method::Poly => poly::PolySystem::new(size).kernel_first_rows(),
    };
    first_rows
        .iter()
        .map(|x0| {
            if control.cancelled() {
                return Err(Interrupted.into());
            }
            let (p, residual) = chase::chase_presses(&zero, x0, control)?;
            debug_assert!(residual.iter().all(|&w| w == 0));
            Ok(p)
        })
        .collect()
}

/// Winnable by the orthogonality criterion: `M` is symmetric, so its image is the orthogonal
/// of its kernel: `b` is winnable iff it meets every neutral configuration in an even number
/// of cells.
pub fn winnable_by_orthogonality(b: &Board, kernel: &[Board]) -> bool {
    kernel.iter().all(|k| !k.dot(b))
}

/// Exact fewest presses are searched up to this nullity (`2^k` steps of a Gray-code walk);
/// above, a heuristic. [default: 30] [range: 0..=40]
pub const EXACT_MAX_NULLITY: usize = 30;

/// Listing all solutions is refused above this nullity. [default: 16]
pub const ALL_MAX_NULLITY: usize = 16;

/// Listing all solutions is refused when they hold more cells than this together
/// (`2^nullity · W · H`): ten million, the most the CLI prints.
pub const ALL_MAX_CELLS: u64 = 10_000_000;

/// The largest n of the table of square boards' nullities ([`square_nullities`]) a front end
/// asks for: `lights table --to`, the lab's `to`, Python's `square_nullities(n_max)`.
pub const TABLE_MAX_N: u64 = 100_000;

/// Checks that every solution of a board of `size` with this nullity can be listed: at most
/// [`ALL_MAX_NULLITY`] and `2^nullity · W · H` at most [`ALL_MAX_CELLS`]. The one check of every
/// listing (Lights Out's and the walk's), made before anything proportional to the listing is
/// allocated.
pub fn check_listing(size: Size, nullity: usize) -> Result<(), LightsError> {
    let cells = size.cells();
    let total = u32::try_from(nullity)
        .ok()
        .and_then(|k| 1u64.checked_shl(k))
        .and_then(|count| count.checked_mul(cells as u64));
    if nullity > ALL_MAX_NULLITY || total.is_none_or(|t| t > ALL_MAX_CELLS) {
        return Err(LightsError::TooManySolutions {
            nullity,
            // A board's nullity is at most its narrower side (2^17); beyond, written as a power
            // (the decimal of 2^k takes k steps).
            count: if nullity <= 1 << 17 {
                power_of_two_decimal(nullity as u64)
            } else {
                format!("2^{nullity}")
            },
            cells,
            max: ALL_MAX_NULLITY,
            max_cells: ALL_MAX_CELLS,
        });
    }
    Ok(())
}

/// The most bits a kernel basis may hold together, as stored ([`kernel_bits`]): `2^33`, 1 GiB.
pub const KERNEL_MAX_CELLS: u64 = 1 << 33;

/// The bits [`kernel`] holds for a board of `size` with this nullity: `nullity` boards, each
/// row in whole 64-bit words ([`Size::bytes`]), and the board they are chased on; when the
/// board is wider than tall, as many of its transpose (the basis is found on the transpose,
/// then turned back). Saturates rather than overflows.
pub fn kernel_bits(size: Size, nullity: usize) -> u64 {
    let mut bytes = size.bytes();
    if size.width() > size.height() {
        bytes = bytes.saturating_add(size.transposed().bytes());
    }
    (nullity as u64).saturating_add(1).saturating_mul(bytes).saturating_mul(8)
}

/// Checks that the kernel basis of a board of `size` with this nullity can be held: at most
/// [`KERNEL_MAX_CELLS`] bits in all ([`kernel_bits`]), before it is computed.
pub fn check_kernel(size: Size, nullity: usize) -> Result<(), LightsError> {
    let bits = kernel_bits(size, nullity);
    if nullity > 0 && bits > KERNEL_MAX_CELLS {
        return Err(LightsError::KernelTooLarge { size, nullity, bytes: bits / 8, max: KERNEL_MAX_CELLS });
    }
    Ok(())
}

/// [`check_listing`] from the size alone, before anything is solved: the cells first (one
/// solution too large is refused without computing anything), then the nullity ([`nullity`],
/// cheap once the board is that small), which it returns.
pub fn check_listing_of_size(size: Size) -> Result<usize, LightsError> {
    check_listing(size, 0)?;
    let k = nullity(size);
    check_listing(size, k)?;
    Ok(k)
}

/// A press pattern with few presses.
#[derive(Clone, Debug)]
pub struct Fewest {
    /// The press pattern. It differs from the input pattern by neutral configurations, so it
    /// solves the same board; the CLI and the tests check it with [`verify`].
    pub presses: Board,
    /// True when it is proven to have the fewest presses (exhaustive walk over the kernel);
    /// false when it comes from the heuristic (local search, nullity > [`EXACT_MAX_NULLITY`]).
    pub exact: bool,
}

/// The solution with the fewest presses among `presses + span(kernel)`.
///
/// Up to [`EXACT_MAX_NULLITY`]: a Gray-code walk over all `2^k` kernel combinations, each step
/// one XOR restricted to the words where some kernel vector is nonzero. Above: a heuristic
/// local search (add any single basis vector or pair that lowers the count, until none does),
/// reported with `exact: false`.
pub fn fewest_presses(presses: &Board, kernel: &[Board], control: &Control) -> Result<Fewest, Interrupted> {
    // Compress to the words some kernel vector touches.
    let n = presses.words().len();
    let mut support = vec![0u64; n];
    for k in kernel {
        for (s, w) in support.iter_mut().zip(k.words()) {
            *s |= w;
        }
    }
    let idx: Vec<usize> = (0..n).filter(|&i| support[i] != 0).collect();
    let squeeze = |b: &Board| idx.iter().map(|&i| b.words()[i]).collect::<Vec<u64>>();
    let vecs: Vec<Vec<u64>> = kernel.iter().map(squeeze).collect();
    let weight = |v: &[u64]| v.iter().map(|w| w.count_ones() as u64).sum::<u64>();
    let mut cur = squeeze(presses);
    let mut chosen = vec![false; kernel.len()];
    let exact = kernel.len() <= EXACT_MAX_NULLITY;
    if exact {
        // PERF: the walk runs on the words some kernel vector touches, not the whole board.
        let coset = Coset::new(cur, vecs);
        let (mask, _) = coset
            .smallest_by(XorVector::weight, || if control.cancelled() { Err(Interrupted) } else { Ok(()) })?;
        for (j, c) in chosen.iter_mut().enumerate() {
            *c = (mask >> j) & 1 == 1;
        }
    } else {
        let xor = |a: &[u64], b: &[u64]| a.iter().zip(b).map(|(x, y)| x ^ y).collect::<Vec<u64>>();
        let mut improved = true;
        while improved {
            improved = false;
            if control.cancelled() {
                return Err(Interrupted);
            }
            for i in 0..vecs.len() {
                let c = xor(&cur, &vecs[i]);
                if weight(&c) < weight(&cur) {
                    cur = c;
                    chosen[i] ^= true;
                    improved = true;
                }
            }
            if improved {
                continue;
            }
            'pairs: for i in 0..vecs.len() {
                for j in i + 1..vecs.len() {
                    let c = xor(&xor(&cur, &vecs[i]), &vecs[j]);
                    if weight(&c) < weight(&cur) {
                        cur = c;
                        chosen[i] ^= true;
                        chosen[j] ^= true;
                        improved = true;
                        break 'pairs;
                    }
                }
            }
        }
    }
    let mut out = presses.clone();
    for (k, &c) in kernel.iter().zip(&chosen) {
        if c {
            out.xor_assign(k);
        }
    }
    Ok(Fewest { presses: out, exact })
}

/// Every solution: `presses + span(kernel)`, in Gray-code order. Refused, before anything is
/// listed, beyond the limits of [`check_listing`].
pub fn all_solutions(presses: &Board, kernel: &[Board]) -> Result<Vec<Board>, LightsError> {
    check_listing(presses.size(), kernel.len())?;
    Ok(Coset::new(presses.clone(), kernel.to_vec()).elements())
}

/// The engine of the kernel that [`solve_fewest`] and [`solve_all`] combine solutions with:
/// the dense one for [`Method::Dense`], else the polynomial one (any size).
fn kernel_engine(method: Method) -> Method {
    if method == Method::Dense { Method::Dense } else { Method::Poly }
}

/// The solution of `start → target` with the fewest presses ([`fewest_presses`]), from
/// `presses`, one solution (as [`solve`] with `method` gives it); verified before it is
/// returned. Refused when the kernel is too large to hold ([`check_kernel`]), before it is
/// computed.
pub fn solve_fewest(
    start: &Board,
    target: Option<&Board>,
    presses: &Board,
    method: Method,
    control: &Control,
) -> Result<Fewest, LightsError> {
    let k = kernel(start.size(), kernel_engine(method), control)?;
    let fewest = fewest_presses(presses, &k, control)?;
    if !verify(start, target, &fewest.presses) {
        return Err(LightsError::Unverified(method));
    }
    Ok(fewest)
}

/// Every solution of `start → target` ([`all_solutions`]), from `presses`, one solution (as
/// [`solve`] with `method` gives it); each verified before they are returned. Refused beyond
/// the limits of [`check_listing`] before the kernel is computed.
pub fn solve_all(
    start: &Board,
    target: Option<&Board>,
    presses: &Board,
    method: Method,
) -> Result<Vec<Board>, LightsError> {
    check_listing_of_size(start.size())?;
    let k = kernel(start.size(), kernel_engine(method), &Control::new())?;
    let all = all_solutions(presses, &k)?;
    if !all.iter().all(|s| verify(start, target, s)) {
        return Err(LightsError::Unverified(method));
    }
    Ok(all)
}

#[cfg(test)]
mod tests;
