//! The request layer of damier: typed requests, their bounds, one [`run`], and the records it
//! answers.
//!
//! A front end turns what it was given (a JSON body from the web lab's server or from the
//! browser's worker) into a [`Request`] ([`Request::parse`]), checks the server's bounds
//! ([`Request::bound`]: a page cannot keep a machine busy for hours unless the server was
//! started with `--allow-heavy`), and runs it ([`run`]) in its surroundings ([`Host`]: the
//! cancel flag, a clock, randomness, progress). The answer is a [`Record`], whose JSON
//! ([`Record::write_json`]) is byte for byte what `damier <group> <command> --json` prints.
//! The server's job process and the static lab both call this crate, so a request answers the
//! same in either, and the bounds are defined here once.
//!
//! Every command the lab serves is here: `queens` (count, list, first, solve, max, corners,
//! check, estimate), `lights` (solve, count, kernel, winnable, table, chase, chase-table),
//! `walk` (solve, count, table, replay) and `automaton` (run, trap).
//!
//! ```
//! use damier_api::{Native, Request, run};
//! let request = Request::parse("queens/check", &serde_json::json!({"columns": [2, 4, 1, 3]})).unwrap();
//! request.bound(false).unwrap();
//! let record = run(&request, &Native::default()).unwrap();
//! assert!(record.yes());
//! assert!(record.to_json().contains("\"valid\": true"));
//! ```

#![deny(missing_docs)]

pub mod answers;
pub mod automaton;
mod de;
mod fields;
mod host;
pub mod lights;
pub mod queens;
mod records;
mod refusal;
pub mod walk;

use serde_json::{Map, Value};

pub use fields::MAX_THREADS;
use fields::{Fields, typed};
pub use fields::{Refused, UpTo};
pub use host::{Host, Native};
pub use lights::BOARD_MAX_SIDE;
pub use records::{Kernel, LightsSolved, PathedSolution, Record, Solved, WalkSolved};
pub use refusal::Refusal;

/// The paths of [`PATHS`] that start threads (a browser's worker answers them 404).
pub const NEEDS_THREADS: &[&str] = &["queens/estimate"];

/// The paths this crate answers (`group/command`, as after `/api/`).
pub const PATHS: &[&str] = &[
    "queens/count",
    "queens/list",
    "queens/first",
    "queens/solve",
    "queens/max",
    "queens/corners",
    "queens/check",
    "queens/estimate",
    "lights/solve",
    "lights/count",
    "lights/kernel",
    "lights/winnable",
    "lights/table",
    "lights/chase",
    "lights/chase-table",
    "walk/solve",
    "walk/count",
    "walk/table",
    "walk/replay",
    "automaton/run",
    "automaton/trap",
];

/// A request: one command of one group with its fields, as the web lab's pages send it
/// (`POST /api/<group>/<command>` with a JSON object of the fields).
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// `queens count`.
    QueensCount(queens::Count),
    /// `queens list`.
    QueensList(queens::List),
    /// `queens first`.
    QueensFirst(queens::First),
    /// `queens solve`.
    QueensSolve(queens::Solve),
    /// `queens max`.
    QueensMax(queens::Max),
    /// `queens corners`.
    QueensCorners(queens::Corners),
    /// `queens check`.
    QueensCheck(queens::Check),
    /// `queens estimate`.
    QueensEstimate(queens::Estimate),
    /// `lights solve`.
    LightsSolve(lights::Solve),
    /// `lights count`.
    LightsCount(lights::Sized),
    /// `lights kernel`.
    LightsKernel(lights::Sized),
    /// `lights winnable`.
    LightsWinnable(lights::Winnable),
    /// `lights table`.
    LightsTable(lights::Table),
    /// `lights chase`.
    LightsChase(lights::Chase),
    /// `lights chase-table`.
    LightsChaseTable(lights::Sized),
    /// `walk solve`.
    WalkSolve(walk::Solve),
    /// `walk count`.
    WalkCount(walk::Count),
    /// `walk table`.
    WalkTable(walk::Table),
    /// `walk replay`.
    WalkReplay(walk::Replay),
    /// `automaton run`.
    AutomatonRun(automaton::Run),
    /// `automaton trap`.
    AutomatonTrap(automaton::Trap),
}

impl Request {
    /// The request at `path` (`group/command`) with the JSON fields `body` (an object; `null`
    /// is no field). Unknown keys are refused with the keys the command takes.
    pub fn parse(path: &str, body: &Value) -> Result<Request, Refusal> {
        Request::read(path, body).map_err(Refusal::one_line)
    }

    /// [`Request::parse`], its messages as they come.
    fn read(path: &str, body: &Value) -> Result<Request, Refusal> {
        let empty = Map::new();
        let fields = match body {
            Value::Object(m) => m,
            Value::Null => &empty,
            _ => {
                return Err(Refusal::Input(
                    "the request body must be a JSON object of the command's options".into(),
                ));
            }
        };
        Ok(match path {
            "queens/count" => Request::QueensCount(typed(path, fields)?),
            "queens/list" => Request::QueensList(typed(path, fields)?),
            "queens/first" => Request::QueensFirst(typed(path, fields)?),
            "queens/solve" => Request::QueensSolve(typed(path, fields)?),
            "queens/max" => Request::QueensMax(typed(path, fields)?),
            "queens/corners" => Request::QueensCorners(typed(path, fields)?),
            "queens/check" => Request::QueensCheck(typed(path, fields)?),
            "queens/estimate" => Request::QueensEstimate(typed(path, fields)?),
            "lights/solve" => Request::LightsSolve(typed(path, fields)?),
            "lights/count" => Request::LightsCount(typed(path, fields)?),
            "lights/kernel" => Request::LightsKernel(typed(path, fields)?),
            "lights/winnable" => Request::LightsWinnable(typed(path, fields)?),
            "lights/table" => Request::LightsTable(typed(path, fields)?),
            "lights/chase" => Request::LightsChase(typed(path, fields)?),
            "lights/chase-table" => Request::LightsChaseTable(typed(path, fields)?),
            "walk/solve" => Request::WalkSolve(typed(path, fields)?),
            "walk/count" => Request::WalkCount(typed(path, fields)?),
            "walk/table" => Request::WalkTable(typed(path, fields)?),
            "walk/replay" => Request::WalkReplay(typed(path, fields)?),
            "automaton/run" => Request::AutomatonRun(typed(path, fields)?),
            "automaton/trap" => Request::AutomatonTrap(typed(path, fields)?),
            _ => return Err(Refusal::NotHere(format!("no command `{}` here", path.replace('/', " ")))),
        })
    }

    /// The keys the request at `path` takes, and those it refuses with the reason (options
    /// of the command that write files or choose a text form); `None` for a path not here.
    pub fn fields(path: &str) -> Option<(&'static [&'static str], Refused)> {
        fn of<T: Fields>() -> (&'static [&'static str], Refused) {
            (T::FIELDS, T::REFUSED)
        }
        Some(match path {
            "queens/count" => of::<queens::Count>(),
            "queens/list" => of::<queens::List>(),
            "queens/first" => of::<queens::First>(),
            "queens/solve" => of::<queens::Solve>(),
            "queens/max" => of::<queens::Max>(),
            "queens/corners" => of::<queens::Corners>(),
            "queens/check" => of::<queens::Check>(),
            "queens/estimate" => of::<queens::Estimate>(),
            "lights/solve" => of::<lights::Solve>(),
            "lights/count" | "lights/kernel" | "lights/chase-table" => of::<lights::Sized>(),
            "lights/winnable" => of::<lights::Winnable>(),
            "lights/table" => of::<lights::Table>(),
            "lights/chase" => of::<lights::Chase>(),
            "walk/solve" => of::<walk::Solve>(),
            "walk/count" => of::<walk::Count>(),
            "walk/table" => of::<walk::Table>(),
            "walk/replay" => of::<walk::Replay>(),
            "automaton/run" => of::<automaton::Run>(),
            "automaton/trap" => of::<automaton::Trap>(),
            _ => return None,
        })
    }

    /// Refuses the request when it exceeds the server's bounds (unless `heavy`: a server
    /// started with `--allow-heavy`); the message names the bound. A Lights Out request within
    /// them is then checked by the library's own bound on what it holds (its memory, listings,
    /// kernels: the run's refusal, with its message, before the job), so that a request
    /// accepted here is not refused part way; with `heavy` the run makes those checks first.
    pub fn bound(&self, heavy: bool) -> Result<(), Refusal> {
        if heavy {
            return Ok(());
        }
        match self {
            Request::QueensCount(r) => r.bound(),
            Request::QueensList(r) => r.bound(),
            Request::QueensFirst(_) | Request::QueensCheck(_) => Ok(()),
            Request::QueensSolve(r) => queens::at_most("n", r.n.into(), queens::SOLVE_MAX_N),
            Request::QueensMax(r) => queens::at_most("n", r.n.into(), queens::SOLVE_MAX_N),
            Request::QueensCorners(r) => queens::at_most("n", r.n.into(), queens::CORNERS_MAX_N),
            Request::QueensEstimate(r) => r.bound(),
            Request::LightsSolve(r) => r.bound(),
            Request::LightsCount(r) | Request::LightsChaseTable(r) => r.bound(),
            Request::LightsKernel(r) => r.kernel_bound(),
            Request::LightsWinnable(r) => r.bound(),
            Request::LightsTable(r) => r.bound(),
            Request::LightsChase(r) => r.bound(),
            Request::WalkSolve(r) => r.bound(),
            Request::WalkCount(r) => r.bound(),
            // Bounded by its own range (to <= 300).
            Request::WalkTable(_) => Ok(()),
            Request::WalkReplay(r) => r.bound(),
            Request::AutomatonRun(r) => r.bound(),
            Request::AutomatonTrap(r) => r.bound(),
        }
    }
}

/// Runs `request` in `host`'s surroundings. The bounds are the caller's to check first
/// ([`Request::bound`]); the library's own limits are checked here.
pub fn run(request: &Request, host: &dyn Host) -> Result<Record, Refusal> {
    answer(request, host).map_err(Refusal::one_line)
}

/// [`run`], its refusals' messages as they come.
fn answer(request: &Request, host: &dyn Host) -> Result<Record, Refusal> {
    match request {
        Request::QueensCount(r) => queens::count(r, host),
        Request::QueensList(r) => queens::list(r, host),
        Request::QueensFirst(r) => queens::first(r, host).map(Record::First),
        Request::QueensSolve(r) => {
            Ok(queens::solve(r, host)?.map_or_else(Record::NoSolution, Record::Solved))
        }
        Request::QueensMax(r) => queens::max(r, host).map(Record::Max),
        Request::QueensCorners(r) => queens::corners(r, host).map(Record::Corners),
        Request::QueensCheck(r) => queens::check(r),
        Request::QueensEstimate(r) => queens::estimate(r, host),
        Request::LightsSolve(r) => lights::solve(r, host),
        Request::LightsCount(r) => lights::count(r).map(Record::LightsCount),
        Request::LightsKernel(r) => lights::kernel(r, host),
        Request::LightsWinnable(r) => lights::winnable(r, host),
        Request::LightsTable(r) => lights::table(r, host),
        Request::LightsChase(r) => lights::chase(r, host),
        Request::LightsChaseTable(r) => lights::chase_table(r, host).map(Record::LightsChaseTable),
        Request::WalkSolve(r) => walk::solve(r, host),
        Request::WalkCount(r) => walk::count(r, host),
        Request::WalkTable(r) => walk::table(r, host),
        Request::WalkReplay(r) => walk::replay(r),
        Request::AutomatonRun(r) => automaton::run(r, host),
        Request::AutomatonTrap(r) => automaton::trap(r, host),
    }
}

#[cfg(test)]
mod tests;
