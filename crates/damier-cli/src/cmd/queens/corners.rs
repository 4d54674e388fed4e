//! `damier queens corners N`: the course chapter's corner exercises between N + 1 and N.

use std::process::ExitCode;

use damier::queens::corners::{self, Corner, Side};

use crate::util::output::outln;
use crate::util::{interrupt, output, progress::Progress};

/// The conditions the exercises ask for, as printed and put in the JSON.
const REDUCE_CONDITION: &str = "a solution of n+1 gives a solution of n by removing a border row and a border \
column only if the queen of that row is in that column, i.e. it has a queen in that corner; \
the condition is also sufficient (the course chapter's 'last row and last column' is the se corner: S[n+1] = n+1)";
const EXTEND_CONDITION: &str = "a solution of n extends to n+1 with a queen in the new nw or se corner iff its \
main diagonal is empty (S[i] != i for all i), in the new ne or sw corner iff its anti-diagonal is \
empty (S[i] != n+1-i); the new row and column are empty, so only that diagonal can clash";

/// Arguments of `damier queens corners`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size n (1..=14): solutions of n+1 are reduced to n, solutions of n extended.
    n: u32,
    /// Examples shown per exercise.
    #[arg(long, default_value_t = 3, value_name = "K")]
    examples: usize,
    /// Print JSON (keys: n, reduce, extend, each with solutions, per_corner, any, examples,
    /// condition).
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct PerCorner {
    nw: u64,
    ne: u64,
    sw: u64,
    se: u64,
}

#[derive(serde::Serialize)]
struct Example {
    corner: Corner,
    from: Vec<u64>,
    to: Vec<u64>,
}

#[derive(serde::Serialize)]
struct SideOut {
    solutions: u64,
    per_corner: PerCorner,
    any: u64,
    examples: Vec<Example>,
    condition: &'static str,
}

#[derive(serde::Serialize)]
struct Report {
    n: u32,
    reduce: SideOut,
    extend: SideOut,
}

fn side_out(s: &Side, condition: &'static str) -> SideOut {
    let [nw, ne, sw, se] = s.per_corner;
    SideOut {
        solutions: s.solutions,
        per_corner: PerCorner { nw, ne, sw, se },
        any: s.any,
        examples: s
            .examples
            .iter()
            .map(|(corner, from, to)| Example { corner: *corner, from: from.one_based(), to: to.one_based() })
            .collect(),
        condition,
    }
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(a.n >= 1, "n must be at least 1");
    anyhow::ensure!(
        a.n <= corners::MAX_N,
        "n = {} is too large: at most {} (every solution of n+1 is enumerated)",
        a.n,
        corners::MAX_N
    );
    let control = interrupt::control();
    let result = {
        let _bar = Progress::start(control, u64::from(2 * a.n + 1), "corners");
        corners::exercises(a.n, a.examples, control)?
    };
    let report = Report {
        n: a.n,
        reduce: side_out(&result.reduce, REDUCE_CONDITION),
        extend: side_out(&result.extend, EXTEND_CONDITION),
    };
    if a.json {
        output::print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let (n, m) = (a.n, a.n + 1);
    let show = |s: &SideOut| -> std::io::Result<()> {
        let c = &s.per_corner;
        outln!(
            "  per corner: nw {}, ne {}, sw {}, se {}; at least one corner: {}",
            c.nw,
            c.ne,
            c.sw,
            c.se,
            s.any
        )?;
        for e in &s.examples {
            let f: Vec<String> = e.from.iter().map(u64::to_string).collect();
            let t: Vec<String> = e.to.iter().map(u64::to_string).collect();
            outln!("  e.g. {}: ({}) -> ({})", e.corner.name(), f.join(", "), t.join(", "))?;
        }
        Ok(())
    };
    outln!(
        "Reduce: solutions of {m} that give a solution of {n} by removing a corner queen's row and column"
    )?;
    outln!("  condition: {REDUCE_CONDITION}")?;
    outln!("  {} of {m}", crate::util::plural(report.reduce.solutions as u64, "solution"))?;
    show(&report.reduce)?;
    outln!("Extend: solutions of {n} that extend to {m} with a queen in a new corner")?;
    outln!("  condition: {EXTEND_CONDITION}")?;
    outln!("  {} of {n}", crate::util::plural(report.extend.solutions as u64, "solution"))?;
    show(&report.extend)?;
    outln!("(per corner the two counts agree: removing and adding a corner queen are inverse maps)")?;
    Ok(ExitCode::SUCCESS)
}
