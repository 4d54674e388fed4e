//! The use case behind `lights solve`, whichever front end asks (the command line, the lab's
//! server, the browser): a start made or given, refused before it is made when what is asked
//! cannot fit, solved, and the fewest presses, every solution or the elimination when asked.
//! The answer is plain data (boards, 0-based steps); the request layer makes the record.
//!
//! ```
//! use damier::control::Control;
//! use damier::lights::request::{SolveRequest, Start};
//!
//! let request = SolveRequest { min: true, ..SolveRequest::default() };
//! let start = request.make(&Start::AllOn("5x5".parse().unwrap())).unwrap();
//! let solved = request.solve(start, None, &Control::new()).unwrap();
//! assert_eq!(solved.nullity, 2);
//! assert_eq!(solved.presses.unwrap().count_ones(), 15);
//! assert_eq!(solved.exact_min, Some(true));
//! ```

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{Board, Size};
use crate::control::Control;
use crate::gf2::EliminationStep;
use crate::util::{OutOfMemory, check_fits};

use super::game::{LightsState, RANDOM_WINNABLE_BOARDS};
use super::{LightsError, Method, SOLVING, dense};

/// What a solve asks for beyond one press pattern.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveRequest {
    /// The engine.
    pub method: Method,
    /// Whether a target will be given (all off otherwise): the solve then holds one more board.
    pub target: bool,
    /// Every solution (refused beyond [`super::check_listing`]'s limits, before the board is
    /// made).
    pub all: bool,
    /// The solution with the fewest presses (refused when its kernel would be too large,
    /// before the board is made).
    pub min: bool,
    /// The elimination step by step (boards up to [`dense::EXPLAIN_MAX_CELLS`] cells).
    pub explain: bool,
}

/// A start the request makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Every light on.
    AllOn(Size),
    /// Each light on with probability 1/2 (`winnable`: the lights left by random presses on a
    /// dark board, every winnable board equally likely), drawn from `seed`.
    Random {
        /// The size.
        size: Size,
        /// The seed of the draw.
        seed: u64,
        /// Only winnable boards.
        winnable: bool,
    },
}

/// The answer of a [`SolveRequest`].
#[derive(Clone, Debug)]
pub struct Solved {
    /// The start that was solved.
    pub start: Board,
    /// The nullity `k` of the press matrix: `2^k` solutions when there is one.
    pub nullity: usize,
    /// The press pattern (the fewest presses when asked), verified; `None` when the target
    /// cannot be reached.
    pub presses: Option<Board>,
    /// With [`SolveRequest::min`] and a solution: whether the presses are proven fewest.
    pub exact_min: Option<bool>,
    /// With [`SolveRequest::all`] and a solution: every solution.
    pub all: Option<Vec<Board>>,
    /// With [`SolveRequest::explain`]: the elimination's steps.
    pub steps: Option<Vec<EliminationStep>>,
}

impl Solved {
    /// True when the target can be reached.
    pub fn solvable(&self) -> bool {
        self.presses.is_some()
    }
}

impl SolveRequest {
    /// Refuses, from its size only, a board this request cannot solve: its elimination shown
    /// (`explain`, [`dense::EXPLAIN_MAX_CELLS`]), its listing (`all`), its kernel (`min`), or
    /// the memory it holds ([`SolveRequest::bytes`]) beyond the address space; those bytes.
    /// [`SolveRequest::solve`] makes this check before anything, so every refusal a request
    /// can meet comes before the work.
    pub fn check_size(&self, size: Size) -> Result<u64, LightsError> {
        if self.all {
            super::check_listing_of_size(size)?;
        }
        if self.min {
            super::check_kernel(size, super::nullity(size))?;
        }
        super::check_solve_memory(size, self.target, self.method)?;
        let need = self.bytes(size)?;
        check_fits(need).map_err(|source| LightsError::OutOfMemory { what: SOLVING, size, need, source })?;
        let cells = size.cells();
        if self.explain && cells > dense::EXPLAIN_MAX_CELLS {
            return Err(LightsError::ExplainTooLarge { cells, max: dense::EXPLAIN_MAX_CELLS });
        }
        Ok(need)
    }

    /// The bytes this request holds at most for a board of `size` (a start already made): the
    /// solve's ([`super::solve_bytes`]), then, for the fewest presses or every solution, the
    /// start, the presses and the target beside the kernel's basis ([`super::kernel_bits`])
    /// and, for the fewest presses, the basis squeezed to the words it touches (at most as
    /// large), for every solution the `2^k` boards listed. Refused where the solve's bytes are.
    pub fn bytes(&self, size: Size) -> Result<u64, LightsError> {
        let solving = super::solve_bytes(size, self.target, self.method)?;
        if !self.min && !self.all {
            return Ok(solving);
        }
        let k = super::nullity(size);
        let beside = (2 + u64::from(self.target)) * size.bytes();
        // `all` is refused beyond 2^16 solutions and `min` beyond the kernel's bound before
        // this is needed: the products saturate rather than overflow either way.
        let more = if self.all { 1u64.checked_shl(k as u32).unwrap_or(u64::MAX) } else { k as u64 };
        let after = beside
            .saturating_add(super::kernel_bits(size, k) / 8)
            .saturating_add(more.saturating_mul(size.bytes()));
        Ok(solving.max(after))
    }

    /// [`SolveRequest::check_size`] for the start that [`SolveRequest::make`] makes: a random
    /// winnable start is drawn on [`RANDOM_WINNABLE_BOARDS`] boards at once, before the solve,
    /// so the bytes held at most are the larger of the two, checked against the address space.
    pub fn check_start(&self, start: &Start) -> Result<u64, LightsError> {
        let (size, drawing) = match *start {
            Start::AllOn(size) | Start::Random { size, winnable: false, .. } => (size, 0),
            Start::Random { size, winnable: true, .. } => (size, RANDOM_WINNABLE_BOARDS * size.bytes()),
        };
        let need = self.check_size(size)?.max(drawing);
        check_fits(need).map_err(|source| LightsError::OutOfMemory { what: SOLVING, size, need, source })?;
        Ok(need)
    }

    /// The start, once [`SolveRequest::check_start`] accepts it; a refused allocation is
    /// [`LightsError::OutOfMemory`] with what the solve holds.
    pub fn make(&self, start: &Start) -> Result<Board, LightsError> {
        let out_of_memory = |size: Size, need: u64| {
            move |source: OutOfMemory| LightsError::OutOfMemory { what: SOLVING, size, need, source }
        };
        match *start {
            Start::AllOn(size) => {
                let need = self.check_start(start)?;
                Board::try_ones(size).map_err(out_of_memory(size, need))
            }
            Start::Random { size, seed, winnable } => {
                let need = self.check_start(start)?;
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                if winnable {
                    LightsState::try_random_winnable(size, &mut rng).map_err(out_of_memory(size, need))
                } else {
                    Board::try_random(size, &mut rng).map_err(out_of_memory(size, need))
                }
            }
        }
    }

    /// Solves `start → target` (all off when `None`), then explains, and finds the fewest
    /// presses or every solution, as asked.
    pub fn solve(
        &self,
        start: Board,
        target: Option<&Board>,
        control: &Control,
    ) -> Result<Solved, LightsError> {
        self.check_size(start.size())?;
        let sol = super::solve(&start, target, self.method, control)?;
        let mut steps = None;
        if self.explain {
            let (_, st) = dense::explain(&super::difference(&start, target)?);
            steps = Some(st);
        }
        // Moved, not copied: the presses are a board as large as the start.
        let (mut exact_min, mut all, mut presses) = (None, None, sol.presses);
        if let Some(p) = &presses {
            if self.min {
                let f = super::solve_fewest(&start, target, p, self.method, control)?;
                exact_min = Some(f.exact);
                presses = Some(f.presses);
            } else if self.all {
                all = Some(super::solve_all(&start, target, p, self.method)?);
            }
        }
        Ok(Solved { start, nullity: sol.nullity, presses, exact_min, all, steps })
    }
}
