//! The live views (`/api/live/...`): the automaton runs and the walk's plan of
//! `damier_web::live`, the very functions the server calls.

use damier::control::Control;
use damier_web::live::factor::NewFactor;
use damier_web::live::lights::SolveBig;
use damier_web::live::{self, NewRun, Step, WalkPlan};
use serde_json::Value;

use crate::answer::{Answer, Refusal, Reply, fields};
use crate::host::Host;

/// What lives between requests: the automaton and factoring runs a page steps.
#[derive(Default)]
pub struct Session {
    runs: live::Runs<damier::automaton::Automaton>,
    factor_runs: live::Runs<damier::factor::FactorAutomaton>,
}

/// `live/automaton`: a new run (a seed drawn by the host when the page gave none).
pub(crate) fn new_run(session: &mut Session, body: &Value, host: &dyn Host) -> Reply {
    let mut req: NewRun = fields(body)?;
    req.seed = Some(req.seed.unwrap_or_else(|| host.seed()));
    Ok(Answer::ok(session.runs.create(&req, false)?, true))
}

/// `live/factor`: a new factoring run (a seed drawn by the host when the page gave none).
pub(crate) fn new_factor(session: &mut Session, body: &Value, host: &dyn Host) -> Reply {
    let mut req: NewFactor = fields(body)?;
    req.seed = Some(req.seed.unwrap_or_else(|| host.seed()));
    Ok(Answer::ok(session.factor_runs.create(&req).map_err(Refusal::Input)?, true))
}

/// The kind and run id of `live/automaton/{id}/step` or `live/factor/{id}/step`.
pub(crate) fn step_path(path: &str) -> Option<(Kind, u64)> {
    let (kind, rest) = if let Some(rest) = path.strip_prefix("live/automaton/") {
        (Kind::Automaton, rest)
    } else {
        (Kind::Factor, path.strip_prefix("live/factor/")?)
    };
    Some((kind, rest.strip_suffix("/step")?.parse().ok()?))
}

/// The runs a step names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Automaton,
    Factor,
}

/// `live/automaton/{id}/step`, `live/factor/{id}/step`.
pub(crate) fn step(session: &mut Session, kind: Kind, id: u64, body: &Value) -> Reply {
    let req: Step = fields(body)?;
    let gone = |what: &str| {
        Refusal::NotHere(format!("no {what} run {id} (runs are dropped after {} newer ones)", live::MAX_RUNS))
    };
    let failed = |what: &str| Refusal::Input(format!("{what} run {id} failed earlier"));
    match kind {
        Kind::Automaton => {
            let run = session.runs.get(id).ok_or_else(|| gone("automaton"))?;
            let mut a = run.lock().map_err(|_| failed("automaton"))?;
            Ok(Answer::ok(live::step(id, &mut a, req.updates), true))
        }
        Kind::Factor => {
            let run = session.factor_runs.get(id).ok_or_else(|| gone("factoring"))?;
            let mut a = run.lock().map_err(|_| failed("factoring"))?;
            Ok(Answer::ok(live::factor::step(id, &mut a, req.updates), true))
        }
    }
}

/// `live/lights/solve`: a huge Lights Out board (a seed drawn by the host for a random one).
pub(crate) fn solve_big(body: &Value, host: &dyn Host) -> Reply {
    let mut req: SolveBig = fields(body)?;
    req.seed = Some(req.seed.unwrap_or_else(|| host.seed()));
    let (board, seed) = live::lights::start_board(&req, false)?;
    let answer = live::lights::solve_timed(&board, seed, &Control::new(), &|| host.seconds())
        .map_err(Refusal::Input)?;
    // As the server: a board that cannot be switched off is an answer like any other.
    Ok(Answer::ok(answer, true))
}

/// `live/walk/plan`.
pub(crate) fn walk_plan(body: &Value) -> Reply {
    let req: WalkPlan = fields(body)?;
    Ok(Answer::ok(live::walk_plan(&req, false, &Control::new())?, true))
}
