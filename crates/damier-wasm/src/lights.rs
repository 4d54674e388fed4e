//! Lights Out: `lights solve` (with `min`, `all`, `explain`), `lights kernel`, `lights chase`,
//! mapped onto the library as the CLI maps them (crates/damier-cli/src/cmd/lights/).

use damier::board::{Board, Size, read_board};
use damier::control::Control;
use damier::lights::records::ExplainedStep;
use damier::lights::{self, Method, dense};
use damier_web::live::BOARD_MAX_SIDE;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::answer::{Answer, Refusal, Reply, fields};
use crate::host::Host;

/// Press patterns are listed up to this many cells (the CLI's `PRINT_MAX_CELLS`).
const PRINT_MAX_CELLS: usize = lights::ALL_MAX_CELLS as usize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveRequest {
    /// The board, text or PBM (the content of the CLI's board file).
    file: String,
    #[serde(default)]
    min: bool,
    #[serde(default)]
    all: bool,
    #[serde(default)]
    explain: bool,
}

/// The JSON of `damier lights solve --json` (crates/damier-cli/src/report/lights.rs, `Solve`):
/// the same keys in the same order, less those of files and random starts.
#[derive(Serialize)]
struct Solved {
    width: usize,
    height: usize,
    nullity: usize,
    solvable: bool,
    solutions: String,
    presses: Option<Vec<String>>,
    press_count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact_min: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    all: Option<Vec<Vec<String>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<Vec<ExplainedStep>>,
    seconds: f64,
}

/// The board of a request, within the server's bound on its sides.
fn board(text: &str) -> Result<Board, Refusal> {
    let b = read_board(text.as_bytes())?;
    if b.width() as u64 > BOARD_MAX_SIDE || b.height() as u64 > BOARD_MAX_SIDE {
        return Err(Refusal::Bound(format!(
            "a {}x{} board has sides above {BOARD_MAX_SIDE}, this server's bound",
            b.width(),
            b.height()
        )));
    }
    Ok(b)
}

fn rows(b: &Board) -> Vec<String> {
    b.to_rows('1', '0')
}

pub(crate) fn solve(body: &Value, host: &dyn Host) -> Reply {
    let req: SolveRequest = fields(body)?;
    if req.min && req.all {
        return Err(Refusal::Input("min and all cannot be used together".into()));
    }
    let start = board(&req.file)?;
    let size = start.size();
    if req.all {
        lights::check_listing_of_size(size)?;
    }
    if req.min {
        lights::check_kernel(size, lights::nullity(size))?;
    }
    let (w, h) = (start.width(), start.height());
    let control = Control::new();
    let t0 = host.seconds();
    let sol = lights::solve(&start, None, Method::Poly, &control)?;
    let mut steps = None;
    if req.explain {
        if w * h > dense::EXPLAIN_MAX_CELLS {
            return Err(Refusal::Input(format!(
                "--explain shows the {n} x {n} matrix at each step: boards up to {} cells only",
                dense::EXPLAIN_MAX_CELLS,
                n = w * h
            )));
        }
        let (_, st) = dense::explain(&lights::difference(&start, None)?);
        steps = Some(st.iter().map(ExplainedStep::of).collect());
    }
    let (mut exact_min, mut all, mut presses) = (None, None, sol.presses.clone());
    if let Some(p) = &sol.presses {
        if req.min {
            let f = lights::solve_fewest(&start, None, p, Method::Poly, &control)?;
            exact_min = Some(f.exact);
            presses = Some(f.presses);
        } else if req.all {
            all = Some(lights::solve_all(&start, None, p, Method::Poly)?.iter().map(rows).collect());
        }
    }
    let seconds = host.seconds() - t0;
    let printable = w * h <= PRINT_MAX_CELLS;
    let solvable = sol.solvable();
    Ok(Answer::ok(
        Solved {
            width: w,
            height: h,
            nullity: sol.nullity,
            solvable,
            solutions: if solvable { lights::power_of_two_decimal(sol.nullity as u64) } else { "0".into() },
            press_count: presses.as_ref().map(Board::count_ones),
            presses: presses.as_ref().filter(|_| printable).map(rows),
            exact_min,
            all,
            steps,
            seconds,
        },
        solvable,
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SizeRequest {
    size: String,
}

/// The JSON of `damier lights kernel --json`.
#[derive(Serialize)]
struct Kernel {
    width: usize,
    height: usize,
    nullity: usize,
    basis: Vec<Vec<String>>,
}

pub(crate) fn kernel(body: &Value) -> Reply {
    let req: SizeRequest = fields(body)?;
    let size: Size = req.size.parse()?;
    let (w, h) = (size.width(), size.height());
    if w as u64 > BOARD_MAX_SIDE || h as u64 > BOARD_MAX_SIDE {
        return Err(Refusal::Bound(format!("{w}x{h} has sides above {BOARD_MAX_SIDE}, this server's bound")));
    }
    let k = lights::nullity(size);
    if k.saturating_mul(w * h) > PRINT_MAX_CELLS {
        return Err(Refusal::Input(format!(
            "{w}x{h} has nullity {k}: a basis of {k} boards of {} cells is too large to print \
             (--out DIR writes it as bitmaps) ({PRINT_MAX_CELLS} cells at most)",
            w * h
        )));
    }
    let basis = lights::sizes::neutral_basis(size, &Control::new())?;
    Ok(Answer::ok(
        Kernel { width: w, height: h, nullity: basis.len(), basis: basis.iter().map(rows).collect() },
        true,
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChaseRequest {
    file: String,
}

pub(crate) fn chase(body: &Value) -> Reply {
    let req: ChaseRequest = fields(body)?;
    let start = board(&req.file)?;
    if start.width() * start.height() > PRINT_MAX_CELLS || start.width() > 100_000 {
        return Err(Refusal::Input(format!(
            "chase prints boards: up to {PRINT_MAX_CELLS} cells and 100000 columns"
        )));
    }
    let chase = lights::chase::explain(&start, &Control::new())?;
    let solvable = chase.first_row.is_some();
    Ok(Answer::ok(chase, solvable))
}
