//! `damier queens corners N`: the course chapter's corner exercises between N + 1 and N.

use std::process::ExitCode;

use damier::queens::corners::{self, Corners, EXTEND_CONDITION, REDUCE_CONDITION, Side};

use crate::util::output::{Report, outln};
use crate::util::{interrupt, progress::Progress};

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
    result.print(a.json)?;
    Ok(ExitCode::SUCCESS)
}

impl Report for Corners {
    fn print_text(&self) -> anyhow::Result<()> {
        let (n, m) = (self.n, self.n + 1);
        let show = |s: &Side| -> std::io::Result<()> {
            let [nw, ne, sw, se] = s.per_corner;
            outln!("  per corner: nw {nw}, ne {ne}, sw {sw}, se {se}; at least one corner: {}", s.any)?;
            for (corner, from, to) in &s.examples {
                let f: Vec<String> = from.one_based().iter().map(u64::to_string).collect();
                let t: Vec<String> = to.one_based().iter().map(u64::to_string).collect();
                outln!("  e.g. {}: ({}) -> ({})", corner.name(), f.join(", "), t.join(", "))?;
            }
            Ok(())
        };
        outln!(
            "Reduce: solutions of {m} that give a solution of {n} by removing a corner queen's row and column"
        )?;
        outln!("  condition: {REDUCE_CONDITION}")?;
        outln!("  {} of {m}", crate::util::plural(self.reduce.solutions, "solution"))?;
        show(&self.reduce)?;
        outln!("Extend: solutions of {n} that extend to {m} with a queen in a new corner")?;
        outln!("  condition: {EXTEND_CONDITION}")?;
        outln!("  {} of {n}", crate::util::plural(self.extend.solutions, "solution"))?;
        show(&self.extend)?;
        outln!("(per corner the two counts agree: removing and adding a corner queen are inverse maps)")?;
        Ok(())
    }
}
