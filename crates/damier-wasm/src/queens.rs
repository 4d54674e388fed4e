//! n queens: `queens check`, `queens list`, `queens count`, `queens solve`, mapped onto the
//! library as the CLI maps them (crates/damier-cli/src/cmd/queens/).

use damier::control::Control;
use damier::queens::count::{CountOptions, Share, Strategy, TimedCounts};
use damier::queens::local::SearchStats;
use damier::queens::placement::{CheckedListing, check_queens};
use damier::queens::search::{self, Solutions};
use damier::queens::solve::{self as solving, Method, Solution};
use damier::queens::{Placement, count, symmetry};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::answer::{Answer, Refusal, Reply, fields};
use crate::host::Host;

/// Largest `n` counted: the server's bound (`damier serve`), about a minute in one browser
/// thread at 18 (docs/web.md has the measured times).
pub const COUNT_MAX_N: u32 = 18;
/// Largest `n` listed in full (without `limit`): the server's bound.
pub const LIST_MAX_N: u32 = 14;
/// Most solutions listed with `limit`: the server's bound.
pub const LIST_MAX_LIMIT: u64 = 1_000_000;
/// Largest `n` solved (construction or local search): the server's bound (`damier serve`).
pub const SOLVE_MAX_N: u32 = 1_000_000;
/// Most rows checked (the CLI's bound).
const CHECK_MAX: usize = 10_000_000;
/// From this `n` the browser counts with the quarter-board engine, below it with the
/// backtracker: the faster one in the worker (measured in Chromium on the project machine,
/// docs/web.md: n = 12 took 0.095 s by quarters, 0.028 s by the backtracker; n = 14 0.19 and
/// 0.27 s; n = 16 2.3 and 8.2 s).
pub const QUARTERS_FROM_N: u32 = 14;

/// The engine and the number of parts (the library's shares, for the progress) a count of `n`
/// runs in the browser. Each share of the quarter-board engine plans its own tables: 8 parts
/// took 1.0 to 1.4 times as long as one at n = 16 and 17, 64 parts 2.4 to 3 times.
pub(crate) fn count_plan(n: u32) -> (Strategy, u32) {
    if n >= QUARTERS_FROM_N { (Strategy::Quarters, 8) } else { (Strategy::Backtrack, 64) }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    /// The columns, 1-based, as the CLI's arguments (numbers or words).
    columns: Vec<Value>,
}

pub(crate) fn check(body: &Value) -> Reply {
    let req: CheckRequest = fields(body)?;
    if req.columns.len() > CHECK_MAX {
        return Err(Refusal::Input(format!(
            "placement of {} rows is too large: at most {CHECK_MAX}",
            req.columns.len()
        )));
    }
    let text = req
        .columns
        .iter()
        .map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    // The CLI's reading of its arguments: a witness of `queens max`, or placements.
    if let Some(witness) = Placement::read_witness(&text) {
        let (n, queens) = witness?;
        let report = check_queens(n, &queens);
        let valid = report.is_valid();
        return Ok(Answer::ok(report, valid));
    }
    let placements = Placement::read_all(&text)?;
    Ok(match &placements[..] {
        [one] => {
            let report = one.check();
            let valid = report.is_valid();
            Answer::ok(report, valid)
        }
        _ => {
            let listing = CheckedListing::of(&placements);
            let valid = listing.valid;
            Answer::ok(listing, valid)
        }
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListRequest {
    n: u32,
    #[serde(default)]
    unique: bool,
    #[serde(default)]
    limit: Option<u64>,
    /// Text only (the JSON never holds boards).
    #[serde(default)]
    #[allow(dead_code)]
    no_boards: bool,
}

pub(crate) fn list(body: &Value) -> Reply {
    let req: ListRequest = fields(body)?;
    if req.n < 1 {
        return Err(Refusal::Input("n must be at least 1".into()));
    }
    if req.n > search::MAX_N {
        return Err(Refusal::Input(format!(
            "n = {} is too large: the search handles at most {}",
            req.n,
            search::MAX_N
        )));
    }
    match req.limit {
        Some(k) if k > LIST_MAX_LIMIT => {
            return Err(Refusal::Bound(format!(
                "limit = {k} is above {LIST_MAX_LIMIT}, this server's bound"
            )));
        }
        None if req.n > LIST_MAX_N => {
            return Err(Refusal::Bound(format!(
                "n = {} is above {LIST_MAX_N}, this server's bound for a full list (give a limit)",
                req.n
            )));
        }
        _ => {}
    }
    let limit = req.limit.unwrap_or(u64::MAX);
    let control = Control::new();
    let mut s = Solutions::new(req.n)?;
    let mut listed = Vec::new();
    while (listed.len() as u64) < limit {
        let Some(cols) = s.next_with(&control)? else { break };
        let p = Placement::new(cols.to_vec())?;
        if let Some(l) = symmetry::Listed::of(p, listed.len() as u64 + 1, req.unique) {
            listed.push(l);
        }
    }
    let any = !listed.is_empty();
    Ok(Answer::ok(listed, any))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CountRequest {
    n: u32,
}

/// `queens count n`: the library's shares counted one after the other (their totals add up
/// to the count's, which gives the unique count: [`count::counts_from_total`]), with the
/// progress between them, on the one thread a worker has, by the engine of [`count_plan`]
/// (the quarter-board engine reads the host's clock for its task timings:
/// [`damier::control::set_host_clock`]); every engine gives the same counts.
pub(crate) fn count(body: &Value, host: &dyn Host) -> Reply {
    let req: CountRequest = fields(body)?;
    if req.n > COUNT_MAX_N {
        return Err(Refusal::Bound(format!("n = {} is above {COUNT_MAX_N}, this server's bound", req.n)));
    }
    let (strategy, parts) = count_plan(req.n);
    let t0 = host.seconds();
    let options = CountOptions { strategy: Some(strategy), ..CountOptions::default() };
    let control = Control::new();
    let mut total: u128 = 0;
    host.progress(0, u64::from(parts));
    for i in 0..parts {
        let share = Share::new(i, parts).ok_or_else(|| Refusal::Input("no such share".into()))?;
        total += u128::from(count::count_share_with(req.n, share, &options, &control)?);
        host.progress(u64::from(i) + 1, u64::from(parts));
    }
    let counts = count::counts_from_total(req.n, count::total_from_sum(total)?)?;
    let report =
        TimedCounts { n: counts.n, total: counts.total, unique: counts.unique, seconds: host.seconds() - t0 };
    let any = report.total > 0;
    Ok(Answer::ok(report, any))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveRequest {
    n: u32,
    /// `construct` (the default, as the CLI's) or `local`.
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
}

/// The JSON of `damier queens solve --json` (crates/damier-cli/src/cmd/queens/solve.rs): the
/// same keys in the same order.
#[derive(Serialize)]
struct Solved {
    n: u32,
    method: Method,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    search: Option<SearchStats>,
    seconds: f64,
    /// 1-based.
    columns: Vec<u64>,
}

/// `queens solve n [--method local] [--seed S]`: one checked solution by the construction or by
/// local search (the library's [`solving::solve`], as the CLI calls it; neither reads a clock),
/// up to the server's bound; a seed drawn by the host when the page gave none.
pub(crate) fn solve(body: &Value, host: &dyn Host) -> Reply {
    let req: SolveRequest = fields(body)?;
    let method = match req.method.as_deref() {
        None | Some("construct") => Method::Construct,
        Some("local") => Method::Local,
        Some(other) => {
            return Err(Refusal::Input(format!("invalid value '{other}' for method: construct or local")));
        }
    };
    if req.n > SOLVE_MAX_N {
        return Err(Refusal::Bound(format!("n = {} is above {SOLVE_MAX_N}, this server's bound", req.n)));
    }
    if method == Method::Construct && req.seed.is_some() {
        return Err(Refusal::Input(
            "--seed applies to --method local only (the construction has no randomness)".into(),
        ));
    }
    let seed = match method {
        Method::Local => req.seed.unwrap_or_else(|| host.seed()),
        Method::Construct => 0,
    };
    let t0 = host.seconds();
    let found = solving::solve(req.n, method, seed, &Control::new())?;
    let seconds = host.seconds() - t0;
    let (seed, search) = match &found {
        Solution::Searched { seed, stats, .. } => (Some(*seed), Some(*stats)),
        Solution::None(none) => return Ok(Answer::ok(none, false)),
        Solution::Constructed { .. } => (None, None),
    };
    let n = found.n();
    let columns = (0..n).map(|r| found.column(r).map_or(0, |c| u64::from(c) + 1)).collect();
    Ok(Answer::ok(Solved { n, method, seed, search, seconds, columns }, true))
}
