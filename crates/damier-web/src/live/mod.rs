//! Live views that need state between requests, served by the library directly.
//!
//! - The automaton: a page creates a run (`POST /api/live/automaton` with the keys of
//!   `damier automaton run`: `model`, `n`, `eps`, `eta`, `seed`) and steps it
//!   (`POST /api/live/automaton/{id}/step` with `{"updates": K}`); each answer is a frame: the
//!   queens and the 8 signals of every cell (up to n = [`CELLS_MAX_N`]; above, the library's
//!   [`Automaton::block_density`] in at most [`MAX_BLOCKS`] x [`MAX_BLOCKS`] blocks), the step
//!   and move counts, the conflicts left, solved/absorbing. The run is the library's
//!   `Automaton::from_seed`, stepped by `run_steps`, so the same seed gives the same trajectory
//!   as `damier automaton run --seed S`, stopping at the same first solution.
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
use damier::control::{Control, Stopwatch};
use damier::walk::game::WalkState;
use damier::walk::{board_size, path};
use serde::{Deserialize, Serialize};

/// Largest automaton side of a live run of models 1 and 2 (without `--allow-heavy`): the
/// request layer's bound of `automaton run`.
pub use damier_api::automaton::AUTOMATON_MAX_N;

/// Largest side of a live run of model 3 (without `--allow-heavy`). A run of this side holds
/// 22 MB (its 20 bit planes, twice), and one request at this side stays well under a second
/// (docs/web.md: the step's 200 ms and one poll of generations, the frame's blocks).
pub const ROW_MAX_N: u64 = 2048;

/// Largest side whose frames carry every cell; above, they carry blocks.
pub const CELLS_MAX_N: u32 = 64;

/// Most blocks a side in a frame of blocks.
pub const MAX_BLOCKS: usize = 128;

/// Most cells held by the automaton runs together: beyond, the least recently used runs are
/// dropped (four runs at [`ROW_MAX_N`], 64 at [`AUTOMATON_MAX_N`]; about 180 MB at model 3's
/// 11 bytes a cell).
pub const MAX_LIVE_CELLS: u64 = 1 << 24;

/// Largest board side of the live views (Lights Out, the walk), without `--allow-heavy`: the
/// request layer's bound of the Lights Out commands, which the walk commands share.
pub use damier_api::BOARD_MAX_SIDE;

/// Why a live view refuses a request: the request layer's refusal (a malformed field 400, a
/// bound 422), so that the server and the static lab answer a live view as they answer a command.
pub use damier_api::Refusal;

/// Most runs kept at once; the least recently used is dropped beyond.
pub const MAX_RUNS: usize = 64;
/// Most updates asked in one step request.
pub const MAX_UPDATES: u64 = 10_000_000;
/// Time spent stepping in one request at most; the frame says how far it got.
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
    /// Per run: its last use, its cells, the run.
    runs: HashMap<u64, (u64, u64, Arc<Mutex<T>>)>,
    /// The cells of every run kept.
    cells: u64,
}

impl<T> Default for Runs<T> {
    fn default() -> Self {
        Runs { next: 0, uses: 0, runs: HashMap::new(), cells: 0 }
    }
}

impl<T> Runs<T> {
    /// Keeps `run` under a new id (dropping the least recently used beyond [`MAX_RUNS`]).
    pub fn insert(&mut self, run: T) -> u64 {
        self.insert_sized(run, 0)
    }

    /// Keeps `run` of `cells` cells under a new id, dropping the least recently used runs
    /// beyond [`MAX_RUNS`] runs or [`MAX_LIVE_CELLS`] cells in all.
    pub fn insert_sized(&mut self, run: T, cells: u64) -> u64 {
        self.next += 1;
        let id = self.next;
        while self.runs.len() >= MAX_RUNS || (!self.runs.is_empty() && self.cells + cells > MAX_LIVE_CELLS) {
            let Some(oldest) = self.runs.iter().min_by_key(|(_, (t, _, _))| *t).map(|(k, _)| *k) else {
                break;
            };
            if let Some((_, c, _)) = self.runs.remove(&oldest) {
                self.cells -= c;
            }
        }
        self.uses += 1;
        self.cells += cells;
        self.runs.insert(id, (self.uses, cells, Arc::new(Mutex::new(run))));
        id
    }

    /// The run `id`, marked as used now.
    pub fn get(&mut self, id: u64) -> Option<Arc<Mutex<T>>> {
        let (t, _, a) = self.runs.get_mut(&id)?;
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
    /// The largest side of a live run ([`max_n`]), `null` without one.
    pub max_n: Option<u64>,
}

/// The models, for the page's selector, with their bounds (none with `allow_heavy`).
pub fn models(allow_heavy: bool) -> Vec<ModelInfo> {
    MODELS
        .iter()
        .map(|&m| ModelInfo {
            name: m.name(),
            label: m.label().to_string(),
            uses_eta: m.uses_eta(),
            max_n: (!allow_heavy).then(|| max_n(m)),
        })
        .collect()
}

/// The largest side of a live run of `model` (without `--allow-heavy`): [`ROW_MAX_N`] for
/// model 3, whose generation is bit-sliced, [`AUTOMATON_MAX_N`] for the others.
pub fn max_n(model: Model) -> u64 {
    match model {
        Model::Row => ROW_MAX_N,
        _ => AUTOMATON_MAX_N,
    }
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
    /// The conflicts left: rows, columns and diagonals holding two queens or more (the
    /// library's [`Automaton::conflicts`]; 0 exactly on a solution).
    pub conflicts: u32,
    /// The queens form a solution.
    pub solved: bool,
    /// The queens form a solution and every signal equals its true field: nothing moves
    /// again (the library's [`Automaton::is_absorbing`], asked on a solution only).
    pub absorbing: bool,
    /// Queens per cell, row-major (`y * n + x`); empty above [`CELLS_MAX_N`].
    pub counts: Vec<u32>,
    /// The 8 signal bits per cell, row-major (bit d for the library's direction d); empty
    /// above [`CELLS_MAX_N`].
    pub signals: Vec<u8>,
    /// The directions `(dx, dy)` of the signal bits.
    pub directions: [(i32, i32); 8],
    /// Above [`CELLS_MAX_N`], the board in blocks; `null` below.
    pub blocks: Option<Blocks>,
}

/// The board in square blocks ([`Automaton::block_density`]).
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Blocks {
    /// Cells a block side (the last blocks of a row or column are cut by the board's edge).
    pub side: u32,
    /// Blocks a side: `ceil(n / side)`, at most [`MAX_BLOCKS`].
    pub across: u32,
    /// Queens per block, row-major.
    pub queens: Vec<u32>,
    /// Per block, its queens in conflict: on a row, column or diagonal of two queens or more.
    pub conflicts: Vec<u32>,
}

impl Blocks {
    /// The board of `a` in blocks of the smallest side that makes at most [`MAX_BLOCKS`] a
    /// side.
    pub fn of(a: &Automaton) -> Blocks {
        let n = a.n() as usize;
        let side = n.div_ceil(MAX_BLOCKS).max(1);
        let (queens, conflicts) = a.block_density(side).into_iter().unzip();
        Blocks { side: side as u32, across: n.div_ceil(side) as u32, queens, conflicts }
    }
}

fn frame(id: u64, a: &Automaton) -> Frame {
    let n = a.n() as usize;
    let p = a.params();
    let cells = p.n <= CELLS_MAX_N;
    Frame {
        id,
        model: p.model.name(),
        n: p.n,
        eps: p.eps,
        eta: p.used_eta(),
        seed: a.seed(),
        steps: a.steps(),
        moves: a.moves(),
        conflicts: a.conflicts(),
        solved: a.is_solution(),
        // PERF: the check of every signal costs O(n^2) (1.7 s at n = 2048 in a debug build),
        // and matters only on a solution.
        absorbing: a.is_solution() && a.is_absorbing(),
        counts: if cells { a.counts() } else { Vec::new() },
        signals: if cells { (0..n * n).map(|i| a.signals(i % n, i / n)).collect() } else { Vec::new() },
        directions: damier::automaton::dir::DIRECTIONS,
        blocks: (!cells).then(|| Blocks::of(a)),
    }
}

impl Runs<Automaton> {
    /// Starts a run; refuses bad parameters with the library's message, and a side above
    /// [`max_n`] (without `allow_heavy`) before anything of its size is made.
    pub fn create(&mut self, req: &NewRun, allow_heavy: bool) -> Result<Frame, Refusal> {
        let name = req.model.as_deref().unwrap_or("pair");
        let model: Model = name.parse().map_err(|e: damier::automaton::UnknownModel| Refusal::input(e))?;
        let bound = max_n(model);
        if !allow_heavy && u64::from(req.n) > bound {
            return Err(Refusal::Bound(format!(
                "n = {} is above {bound}, this server's bound for a live view of {} (start the \
                 server with --allow-heavy for more)",
                req.n,
                model.label()
            )));
        }
        let mut params = Params::new(model, req.n.max(1)).map_err(Refusal::input)?;
        params.n = req.n;
        if let Some(e) = req.eps {
            params.eps = e;
        }
        if let Some(e) = eta_for(&[model], req.eta).map_err(Refusal::input)? {
            params.eta = e;
        }
        let seed = page_seed(req.seed);
        let a = Automaton::from_seed(&params, seed).map_err(Refusal::input)?;
        let mut f = frame(0, &a);
        f.id = self.insert_sized(a, u64::from(req.n).pow(2));
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

/// Steps `a` by up to `updates` (within the time budget), stopping at the first solution; in
/// chunks of an eighth of the library's [`Automaton::poll_steps`] (model 3: about 2^23 cell
/// updates, 2 generations at n = 2048), so that the budget is overrun by one short chunk.
pub fn step(id: u64, a: &mut Automaton, updates: u64) -> Frame {
    step_within(updates, a.poll_steps() / 8, a.is_solution(), |k| a.run_steps(k));
    frame(id, a)
}

/// Runs `run(k)` (which answers whether the run is finished) in chunks of at most `chunk`
/// (and 20 000) until `updates` are done, the run is finished or [`STEP_BUDGET`] is spent; at
/// most [`MAX_UPDATES`] in all.
fn step_within(updates: u64, chunk: u64, finished: bool, mut run: impl FnMut(u64) -> bool) {
    let budget = Budget::start();
    let mut left = updates.min(MAX_UPDATES);
    let mut finished = finished;
    while left > 0 && !finished && !budget.spent() {
        let chunk = left.min(chunk.clamp(1, 20_000));
        finished = run(chunk);
        left -= chunk;
    }
}

/// The time budget of one step request, read on the library's [`Stopwatch`]: the system's
/// clock, or in the browser (whose WebAssembly has no clock of its own) the worker's
/// `performance.now()` given to the library; without one it never runs out, and the steps are
/// bounded by their count only.
struct Budget(Stopwatch);

impl Budget {
    fn start() -> Budget {
        Budget(Stopwatch::start())
    }

    fn spent(&self) -> bool {
        self.0.elapsed() >= STEP_BUDGET
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
pub fn walk_plan(req: &WalkPlan, allow_heavy: bool, control: &Control) -> Result<WalkAnswer, Refusal> {
    if !allow_heavy && (req.rows as u64 > BOARD_MAX_SIDE || req.cols as u64 > BOARD_MAX_SIDE) {
        return Err(Refusal::Bound(format!(
            "a {} x {} walk has sides above {}, this server's bound (start the server with \
             --allow-heavy for more)",
            req.rows, req.cols, BOARD_MAX_SIDE
        )));
    }
    if req.moves.len() > MAX_MOVES {
        return Err(Refusal::Input(format!("more than {MAX_MOVES} moves")));
    }
    let shape = board_size(req.rows, req.cols).map_err(Refusal::input)?;
    let moves = path::parse_moves(&req.moves).map_err(Refusal::input)?;
    let mut state = WalkState::start(shape);
    for (i, mv) in moves.into_iter().enumerate() {
        state.apply(mv).map_err(|e| Refusal::Input(format!("move {}: {e}", i + 1)))?;
    }
    let plan = state.plan(control).map_err(Refusal::input)?;
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

    fn new_run(model: &str, n: u32, seed: u64) -> NewRun {
        NewRun { model: Some(model.into()), n, eps: None, eta: None, seed: Some(seed) }
    }

    /// Issue 40 §3: above 64 a frame carries the library's blocks (at most 128 a side)
    /// instead of every cell, with the conflicts left, and they follow the run.
    #[test]
    fn large_row_runs_answer_blocks_of_the_library() {
        let mut runs: Runs<Automaton> = Runs::default();
        let mut whole = Automaton::from_seed(&Params::new(Model::Row, 512).unwrap(), 1).unwrap();
        let f = runs.create(&new_run("row", 512, 1), false).unwrap();
        let b = f.blocks.as_ref().expect("blocks above 64");
        assert_eq!((b.side, b.across, b.queens.len(), b.conflicts.len()), (4, 128, 128 * 128, 128 * 128));
        assert!(f.counts.is_empty() && f.signals.is_empty());
        assert_eq!(b.queens.iter().sum::<u32>(), 512);
        let a = runs.get(f.id).unwrap();
        let mut a = a.lock().unwrap();
        let f = step(f.id, &mut a, 7);
        whole.run_steps(7);
        let (queens, conflicts): (Vec<u32>, Vec<u32>) = whole.block_density(4).into_iter().unzip();
        let b = f.blocks.unwrap();
        assert_eq!((f.steps, f.conflicts), (7, whole.conflicts()));
        assert_eq!((b.queens, b.conflicts), (queens, conflicts));
        // 100 cells a side: blocks of one cell, the queens themselves
        let f = runs.create(&new_run("row", 100, 3), false).unwrap();
        let b = f.blocks.unwrap();
        assert_eq!((b.side, b.across), (1, 100));
        // up to 64, every cell and no blocks
        let f = runs.create(&new_run("row", 64, 3), false).unwrap();
        assert!(f.blocks.is_none() && f.counts.len() == 64 * 64);
    }

    /// Every model's frame says the conflicts left, the library's count, step after step.
    #[test]
    fn frames_say_the_library_s_conflicts_left() {
        let mut runs: Runs<Automaton> = Runs::default();
        for (model, n, seed) in [("pair", 6, 3), ("cell", 7, 11), ("row", 8, 2), ("row", 90, 5)] {
            let m: Model = model.parse().unwrap();
            let mut whole = Automaton::from_seed(&Params::new(m, n).unwrap(), seed).unwrap();
            let f = runs.create(&new_run(model, n, seed), false).unwrap();
            assert_eq!(f.conflicts, whole.conflicts(), "{model} n = {n}");
            assert!(f.conflicts > 0, "{model} n = {n} starts with conflicts");
            let a = runs.get(f.id).unwrap();
            let mut a = a.lock().unwrap();
            for k in [1, 10, 100] {
                let f = step(f.id, &mut a, k);
                whole.run_steps(k);
                assert_eq!((f.steps, f.conflicts), (whole.steps(), whole.conflicts()), "{model} n = {n}");
                assert_eq!(f.solved, f.conflicts == 0);
                assert!(f.solved || !f.absorbing);
            }
        }
    }

    /// Model 3 up to 2048, the others up to 64: beyond, a one-line refusal naming the bound
    /// and the model, before anything of that size is made.
    #[test]
    fn each_model_has_its_bound() {
        let mut runs: Runs<Automaton> = Runs::default();
        for (model, n) in [("row", 2049), ("pair", 65), ("cell", 65), ("row", u32::MAX)] {
            let Err(Refusal::Bound(m)) = runs.create(&new_run(model, n, 1), false) else {
                panic!("{model} n = {n} refused as a bound");
            };
            let bound = if model == "row" { "2048" } else { "64" };
            let label = model.parse::<Model>().unwrap().label();
            assert!(m.contains(&format!("n = {n} is above {bound}")) && m.contains(label), "{m}");
            assert!(m.contains("--allow-heavy") && !m.contains('\n'), "{m}");
        }
        let f = runs.create(&new_run("row", 2048, 1), false).unwrap();
        let b = f.blocks.unwrap();
        assert_eq!((b.side, b.across), (16, 128));
        let bounds: Vec<_> = models(false).iter().map(|m| (m.name, m.max_n)).collect();
        assert_eq!(bounds, [("pair", Some(64)), ("cell", Some(64)), ("row", Some(2048))]);
        assert!(models(true).iter().all(|m| m.max_n.is_none()));
    }

    /// The runs kept hold at most `MAX_LIVE_CELLS` cells: the least recently used go first.
    #[test]
    fn runs_beyond_the_cells_kept_drop_the_least_recently_used() {
        let mut runs: Runs<u8> = Runs::default();
        let a = runs.insert_sized(1, MAX_LIVE_CELLS / 2);
        let b = runs.insert_sized(2, MAX_LIVE_CELLS / 2);
        assert!(runs.get(a).is_some());
        let c = runs.insert_sized(3, 1);
        assert!(runs.get(b).is_none(), "the least recently used is dropped");
        assert!(runs.get(a).is_some() && runs.get(c).is_some());
        // one run larger than the whole budget is still kept, alone
        let d = runs.insert_sized(4, MAX_LIVE_CELLS + 1);
        assert!(runs.get(d).is_some() && runs.get(a).is_none() && runs.get(c).is_none());
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
