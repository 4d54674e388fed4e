//! Live views that need state between requests, served by the library directly.
//!
//! - The automaton: a page creates a run (`POST /api/live/automaton` with the keys of
//!   `damier automaton run`: `model`, `n`, `eps`, `eta`, `seed`) and steps it
//!   (`POST /api/live/automaton/{id}/step` with `{"updates": K}`); each answer is a frame: the
//!   queens and the 8 signals of every cell, the step and move counts, solved/absorbing. The
//!   run is the library's `Automaton::from_seed`, stepped by `run_steps`, so the same seed gives
//!   the same trajectory as `damier automaton run --seed S`, stopping at the same first solution.
//! - The walk: `POST /api/live/walk/plan` with `rows`, `cols` and the `moves` made so far (as in
//!   `damier walk replay`) answers the pawn's cell and a plan of moves from there to all black
//!   (the library's `WalkState::plan`, which the page follows for hints and the animation).
//! - [`factor`]: the factoring automaton, created and stepped like the queens automaton.
//! - [`lights`]: Lights Out boards up to 2000 x 2000 solved, in and out as PBM.
//! - [`journal`]: the long count's journal named on the server's command line, read-only.

pub mod factor;
pub mod journal;
pub mod lights;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use damier::automaton::{Automaton, Model, Params, eta_for};
use damier::control::Control;
use damier::walk::game::WalkState;
use damier::walk::{board_size, path};
use serde::{Deserialize, Serialize};

/// Largest automaton side of a live run (without `--allow-heavy`); `automaton run` over HTTP
/// has the same bound (the CLI's served commands use this one).
pub const AUTOMATON_MAX_N: u64 = 64;

/// Largest board side of the live views (Lights Out, the walk), without `--allow-heavy`;
/// the Lights Out and walk commands over HTTP have the same bound.
pub const BOARD_MAX_SIDE: u64 = 2000;

/// Why a live view refuses a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// A missing or malformed field or file (400).
    #[error("{0}")]
    Input(String),
    /// A size beyond the server's bound (422), checked before anything of that size is made.
    #[error("{0}")]
    Bound(String),
}

impl From<String> for Refused {
    fn from(m: String) -> Refused {
        Refused::Input(m)
    }
}

impl From<&str> for Refused {
    fn from(m: &str) -> Refused {
        Refused::Input(m.to_string())
    }
}

/// Most runs kept at once; the least recently used is dropped beyond.
pub const MAX_RUNS: usize = 64;
/// Most updates asked in one step request.
pub const MAX_UPDATES: u64 = 10_000_000;
/// Time spent stepping in one request at most; the frame says how far it got.
#[cfg_attr(all(target_family = "wasm", target_os = "unknown"), allow(dead_code))]
const STEP_BUDGET: Duration = Duration::from_millis(200);
/// Largest move string replayed by the walk planner.
pub const MAX_MOVES: usize = 1 << 20;

/// The runs of one kind (automata stepped by the pages), by id; the least recently used is
/// dropped beyond [`MAX_RUNS`].
pub struct Runs<T> {
    next: u64,
    /// Counts the uses (creations and gets): each run keeps the count of its last use, so the
    /// least recently used has the smallest (no clock needed, so it runs in the browser too).
    uses: u64,
    runs: HashMap<u64, (u64, Arc<Mutex<T>>)>,
}

impl<T> Default for Runs<T> {
    fn default() -> Self {
        Runs { next: 0, uses: 0, runs: HashMap::new() }
    }
}

impl<T> Runs<T> {
    /// Keeps `run` under a new id (dropping the least recently used beyond [`MAX_RUNS`]).
    pub fn insert(&mut self, run: T) -> u64 {
        self.next += 1;
        let id = self.next;
        if self.runs.len() >= MAX_RUNS
            && let Some(oldest) = self.runs.iter().min_by_key(|(_, (t, _))| *t).map(|(k, _)| *k)
        {
            self.runs.remove(&oldest);
        }
        self.uses += 1;
        self.runs.insert(id, (self.uses, Arc::new(Mutex::new(run))));
        id
    }

    /// The run `id`, marked as used now.
    pub fn get(&mut self, id: u64) -> Option<Arc<Mutex<T>>> {
        let (t, a) = self.runs.get_mut(&id)?;
        self.uses += 1;
        *t = self.uses;
        Some(Arc::clone(a))
    }
}

/// Every model of the queens automaton, in the order the pages offer them: the library's
/// [`Model::ALL`].
pub const MODELS: &[Model] = &Model::ALL;

/// A model the pages offer: its name (the `model` key) and what it updates.
#[derive(Debug, Serialize)]
pub struct ModelInfo {
    /// The name of `--model`.
    pub name: &'static str,
    /// A label for the selector.
    pub label: String,
    /// Whether η matters.
    pub uses_eta: bool,
}

/// The models, for the page's selector.
pub fn models() -> Vec<ModelInfo> {
    MODELS
        .iter()
        .map(|&m| ModelInfo { name: m.name(), label: m.label().to_string(), uses_eta: m.uses_eta() })
        .collect()
}

/// A new automaton run (the keys of `damier automaton run`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRun {
    /// `pair` or `cell` [default: pair].
    #[serde(default)]
    pub model: Option<String>,
    /// Board side.
    pub n: u32,
    /// ε [default: the library's].
    #[serde(default)]
    pub eps: Option<f64>,
    /// η [default: the library's]; refused for a model that does not use it
    /// ([`damier::automaton::eta_for`]).
    #[serde(default)]
    pub eta: Option<f64>,
    /// Seed [default: random below 2^53, answered].
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A step request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Updates to perform (stops early at a solution or after the time budget).
    pub updates: u64,
}

/// What a page draws: the position and the counters.
#[derive(Debug, Serialize)]
pub struct Frame {
    /// The run's id, for the step requests.
    pub id: u64,
    /// `pair` or `cell`.
    pub model: &'static str,
    /// Board side.
    pub n: u32,
    /// ε.
    pub eps: f64,
    /// η, `null` for the models that do not use it (as `damier automaton run --json`).
    pub eta: Option<f64>,
    /// The seed of the run.
    pub seed: u64,
    /// Updates made.
    pub steps: u64,
    /// Queen moves made.
    pub moves: u64,
    /// The queens form a solution.
    pub solved: bool,
    /// Every signal equals the true field (with a solution: nothing moves again).
    pub absorbing: bool,
    /// Queens per cell, row-major (`y * n + x`).
    pub counts: Vec<u32>,
    /// The 8 signal bits per cell, row-major (bit d for the library's direction d).
    pub signals: Vec<u8>,
    /// The directions `(dx, dy)` of the signal bits.
    pub directions: [(i32, i32); 8],
}

fn frame(id: u64, a: &Automaton) -> Frame {
    let n = a.n() as usize;
    let p = a.params();
    Frame {
        id,
        model: p.model.name(),
        n: p.n,
        eps: p.eps,
        eta: p.used_eta(),
        seed: a.seed(),
        steps: a.steps(),
        moves: a.moves(),
        solved: a.is_solution(),
        absorbing: a.is_absorbing(),
        counts: a.counts(),
        signals: (0..n * n).map(|i| a.signals(i % n, i / n)).collect(),
        directions: damier::automaton::dir::DIRECTIONS,
    }
}

impl Runs<Automaton> {
    /// Starts a run; refuses bad parameters with the library's message, and a side above
    /// [`AUTOMATON_MAX_N`] (without `allow_heavy`) before anything of its size is made.
    pub fn create(&mut self, req: &NewRun, allow_heavy: bool) -> Result<Frame, Refused> {
        let name = req.model.as_deref().unwrap_or("pair");
        let model: Model = name.parse().map_err(|e: damier::automaton::UnknownModel| e.to_string())?;
        if !allow_heavy && u64::from(req.n) > AUTOMATON_MAX_N {
            return Err(Refused::Bound(format!(
                "n = {} is above {}, this server's bound for a live view (start the server with \
                 --allow-heavy for more)",
                req.n, AUTOMATON_MAX_N
            )));
        }
        let mut params = Params::new(model, req.n.max(1)).map_err(|e| e.to_string())?;
        params.n = req.n;
        if let Some(e) = req.eps {
            params.eps = e;
        }
        if let Some(e) = eta_for(&[model], req.eta).map_err(|e| e.to_string())? {
            params.eta = e;
        }
        let seed = page_seed(req.seed);
        let a = Automaton::from_seed(&params, seed).map_err(|e| e.to_string())?;
        let mut f = frame(0, &a);
        f.id = self.insert(a);
        Ok(f)
    }
}

/// A page keeps numbers as doubles: a seed it did not choose stays below 2^53, so the seed it
/// shows is exactly the one used (and can be typed into the command line).
#[cfg(feature = "server")]
pub fn page_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| rand::random::<u64>() >> 11)
}

/// Without the feature `server` (the browser's build) nothing here draws from the system: the
/// embedder fills in every seed (crates/damier-wasm draws it in the page), and a request
/// without one gets seed 0.
#[cfg(not(feature = "server"))]
pub fn page_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or(0)
}

/// Steps `a` by up to `updates` (within the time budget), stopping at the first solution.
pub fn step(id: u64, a: &mut Automaton, updates: u64) -> Frame {
    step_within(updates, a.is_solution(), |k| a.run_steps(k));
    frame(id, a)
}

/// Runs `run(k)` (which answers whether the run is finished) in chunks until `updates` are
/// done, the run is finished or [`STEP_BUDGET`] is spent; at most [`MAX_UPDATES`] in all.
fn step_within(updates: u64, finished: bool, mut run: impl FnMut(u64) -> bool) {
    let budget = Budget::start();
    let mut left = updates.min(MAX_UPDATES);
    let mut finished = finished;
    while left > 0 && !finished && !budget.spent() {
        let chunk = left.min(20_000);
        finished = run(chunk);
        left -= chunk;
    }
}

/// The time budget of one step request. WebAssembly in the browser has no clock of its own
/// (`std::time::Instant` panics there): its steps are bounded by their count only, in a Web
/// Worker that the page can stop.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
struct Budget(std::time::Instant);

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
impl Budget {
    fn start() -> Budget {
        Budget(std::time::Instant::now())
    }

    fn spent(&self) -> bool {
        self.0.elapsed() >= STEP_BUDGET
    }
}

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
struct Budget;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
impl Budget {
    fn start() -> Budget {
        Budget
    }

    fn spent(&self) -> bool {
        false
    }
}

/// A walk planning request: the board and the moves made from the bottom-left start.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WalkPlan {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Moves made so far (`NSEW`, `O` for west).
    #[serde(default)]
    pub moves: String,
}

/// Where the pawn is and how to finish.
#[derive(Debug, Serialize)]
pub struct WalkAnswer {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The pawn's cell `[row, col]`, row 0 on top.
    pub pawn: [usize; 2],
    /// The black cells, top row first (`#` black, `_` white).
    pub board: Vec<String>,
    /// Every cell is black.
    pub solved: bool,
    /// Moves from here to all black (empty when solved).
    pub plan: String,
}

/// Replays `req.moves` from the start and plans the rest of the walk; the sides are checked
/// against the bound first, and the plan stops (an error) when `control` is cancelled.
pub fn walk_plan(req: &WalkPlan, allow_heavy: bool, control: &Control) -> Result<WalkAnswer, Refused> {
    if !allow_heavy && (req.rows as u64 > BOARD_MAX_SIDE || req.cols as u64 > BOARD_MAX_SIDE) {
        return Err(Refused::Bound(format!(
            "a {} x {} walk has sides above {}, this server's bound (start the server with \
             --allow-heavy for more)",
            req.rows, req.cols, BOARD_MAX_SIDE
        )));
    }
    if req.moves.len() > MAX_MOVES {
        return Err(format!("more than {MAX_MOVES} moves").into());
    }
    let shape = board_size(req.rows, req.cols).map_err(|e| e.to_string())?;
    let moves = path::parse_moves(&req.moves).map_err(|e| e.to_string())?;
    let mut state = WalkState::start(shape);
    for (i, mv) in moves.into_iter().enumerate() {
        state.apply(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    let plan = state.plan(control).map_err(|e| e.to_string())?;
    let black = state.black();
    let board = (0..req.rows)
        .map(|r| (0..req.cols).map(|c| if black.get(c, r) { '#' } else { '_' }).collect())
        .collect();
    let (r, c) = state.pawn();
    Ok(WalkAnswer {
        rows: req.rows,
        cols: req.cols,
        pawn: [r, c],
        board,
        solved: state.is_solved(),
        plan: plan.iter().map(|m| m.letter()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_in_chunks_reaches_the_same_solution_as_one_run() {
        let params = Params::new(Model::Pair, 6).unwrap();
        let mut whole = Automaton::from_seed(&params, 7).unwrap();
        whole.run_steps(u64::MAX);
        let mut runs: Runs<Automaton> = Runs::default();
        let f =
            runs.create(&NewRun { model: None, n: 6, eps: None, eta: None, seed: Some(7) }, false).unwrap();
        let a = runs.get(f.id).unwrap();
        let mut a = a.lock().unwrap();
        let mut last = step(f.id, &mut a, 1);
        while !last.solved {
            last = step(f.id, &mut a, 777);
        }
        assert_eq!((last.steps, last.moves), (whole.steps(), whole.moves()));
        assert_eq!(last.counts, whole.counts());
        // A seed picked for a page is exact as a JavaScript number.
        let f = runs
            .create(&NewRun { model: Some("cell".into()), n: 5, eps: None, eta: None, seed: None }, false)
            .unwrap();
        assert!(f.seed < 1 << 53);
        assert!(
            runs.create(&NewRun { model: Some("x".into()), n: 5, eps: None, eta: None, seed: None }, false)
                .is_err()
        );
    }

    #[test]
    fn walk_plan_finishes_the_walk() {
        let ans =
            walk_plan(&WalkPlan { rows: 4, cols: 5, moves: "NEN".into() }, false, &Control::new()).unwrap();
        assert!(!ans.solved);
        let all = format!("NEN{}", ans.plan);
        let done = walk_plan(&WalkPlan { rows: 4, cols: 5, moves: all }, false, &Control::new()).unwrap();
        assert!(done.solved && done.plan.is_empty());
        assert!(done.board.iter().all(|r| r.chars().all(|c| c == '#')));
        assert!(
            walk_plan(&WalkPlan { rows: 2, cols: 2, moves: "S".into() }, false, &Control::new()).is_err()
        );
        assert!(
            walk_plan(&WalkPlan { rows: 0, cols: 2, moves: String::new() }, false, &Control::new()).is_err()
        );
    }
}
