//! Conventions shared by every subcommand: exit codes, Ctrl-C, progress, output files, plots.

pub mod board_io;
pub mod chart;
pub mod csv_file;
pub mod exit;
pub mod input;
pub mod interrupt;
pub mod layer;
pub mod output;
mod output_args;
mod paths;
pub mod progress;
pub mod test_hooks;

pub use paths::{InputFile, OutputPath};

pub use output_args::OutputArgs;

/// A rayon pool of `threads` workers (`None` or 0: one per core), for `--threads`.
pub fn pool(threads: Option<u32>) -> anyhow::Result<rayon::ThreadPool> {
    use anyhow::Context;
    damier::util::thread_pool(threads.map(|t| t as usize)).context("cannot start the thread pool")
}

/// A measured quantity in a text table or message, one format everywhere (the library's, so
/// that its messages and the CLI's tables agree); charts label their axes in their own style
/// (`util::chart`).
pub use damier::util::number;

/// `k noun`, the noun in the plural unless k is 1: "1 solution", "0 solutions", "2 presses".
pub fn plural(k: impl Into<u128>, noun: &str) -> String {
    let k = k.into();
    let es = noun.ends_with('s') || noun.ends_with('x') || noun.ends_with("sh") || noun.ends_with("ch");
    match (k, es) {
        (1, _) => format!("1 {noun}"),
        (_, true) => format!("{k} {noun}es"),
        (_, false) => format!("{k} {noun}s"),
    }
}

/// The seed of a random run: the one given with `--seed`, or one drawn from the operating
/// system (the commands print it, so the run can be replayed).
pub fn pick_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(rand::random::<u64>)
}

/// The value parser of an option naming one of a library type's values (an engine, a model):
/// the possible values are the library's list `all` by their names (`name`, what the type's
/// `FromStr` reads), each with the `help` `--help` shows beside it (`None` for none), and the
/// value is the library's type itself, read by its `FromStr`: the CLI keeps no enum of its own
/// mirroring the library's (issue 51). An unknown name gets clap's usual message, the
/// possible values listed.
pub fn named<T>(
    all: &[T],
    name: fn(T) -> &'static str,
    help: fn(T) -> Option<&'static str>,
) -> impl clap::builder::TypedValueParser<Value = T>
where
    T: std::str::FromStr + Copy + Send + Sync + 'static,
    T::Err: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = all.iter().map(|&v| PossibleValue::new(name(v)).help(help(v)));
    // Only the listed names reach the map, and each reads back as its value.
    PossibleValuesParser::new(values).try_map(|s| s.parse::<T>())
}

/// The value parser of a whole-number option in `low` to `high` (both included): out of
/// range, clap's usual `invalid value '0' for '--threads <THREADS>'` goes on with the range in
/// words, as every other message writes it (`0 is out of range: 1 to 1024 is supported`,
/// `2 to 2^64 - 1`, through the library's [`damier::util::range`]), not in Rust's `1..=1024`
/// as clap's own `.range()` would (issue 38, section 3). The value type stays `T`, which the
/// lab's API reads.
pub fn ranged<T>(low: T, high: T) -> impl clap::builder::TypedValueParser<Value = T>
where
    T: Copy + Into<u64> + TryFrom<u64> + Send + Sync + 'static,
{
    use clap::builder::TypedValueParser;
    let (low, high) = (low.into(), high.into());
    clap::builder::StringValueParser::new().try_map(move |s: String| {
        let words = damier::util::range(low, high);
        let out_of_range = || format!("{s} is out of range: {words} is supported");
        match s.parse::<i128>() {
            Ok(v) => u64::try_from(v)
                .ok()
                .filter(|v| (low..=high).contains(v))
                .and_then(|v| T::try_from(v).ok())
                .ok_or_else(out_of_range),
            Err(e)
                if matches!(
                    e.kind(),
                    std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow
                ) =>
            {
                Err(out_of_range())
            }
            Err(_) => Err(format!("not a whole number in {words}")),
        }
    })
}

/// The longest wall-clock budget a `--budget` takes, in seconds: a year. A longer one is no
/// budget at all, and past about 1.8e19 s no `Duration` holds it (the conversion panicked).
pub const BUDGET_MAX_SECONDS: f64 = 365.25 * 86_400.0;

/// The value parser of a wall-clock budget in seconds: a number above 0 and at most
/// [`BUDGET_MAX_SECONDS`] (NaN, infinities and negatives refused).
pub fn budget_seconds(s: &str) -> Result<f64, String> {
    let b: f64 = s.trim().parse().map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if b.is_finite() && b > 0.0 && b <= BUDGET_MAX_SECONDS {
        Ok(b)
    } else {
        Err(format!(
            "{s} is out of range: a budget is above 0 and at most {BUDGET_MAX_SECONDS} seconds (a year)"
        ))
    }
}

/// Parses a list of sizes given to `flag`: `A..B` or `A..=B` (both inclusive), a
/// comma-separated list, or a mix, each in `range`; sorted, without repeats. `noun` names one
/// size in the errors ("board size", "size in bits").
pub fn parse_sizes(
    spec: &str,
    flag: &str,
    noun: &str,
    range: std::ops::RangeInclusive<u32>,
) -> anyhow::Result<Vec<u32>> {
    use anyhow::Context;
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim) {
        anyhow::ensure!(!part.is_empty(), "{flag} {spec:?}: empty item (expected A..B or a list of sizes)");
        let num = |s: &str| -> anyhow::Result<u32> {
            let v =
                s.trim().parse::<u32>().with_context(|| format!("{flag} {spec:?}: {s:?} is not a {noun}"))?;
            anyhow::ensure!(
                range.contains(&v),
                "{flag} {spec:?}: {v} is out of range: {} is supported",
                damier::util::range(u64::from(*range.start()), u64::from(*range.end()))
            );
            Ok(v)
        };
        match part.split_once("..") {
            Some((lo, hi)) => {
                let (lo, hi) = (num(lo)?, num(hi.trim_start_matches('='))?);
                anyhow::ensure!(lo <= hi, "{flag} {spec:?}: empty range {part}");
                out.extend(lo..=hi);
            }
            None => out.push(num(part)?),
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals() {
        assert_eq!(plural(1u64, "solution"), "1 solution");
        assert_eq!(plural(0u64, "solution"), "0 solutions");
        assert_eq!(plural(3u64, "press"), "3 presses");
    }

    #[test]
    fn sizes_parse_as_ranges_and_lists() {
        assert_eq!(
            parse_sizes("8..10, 4,9, 12..=12", "-n", "board size", 1..=64).unwrap(),
            [4, 8, 9, 10, 12]
        );
        let err = |s: &str| parse_sizes(s, "--bits", "size in bits", 6..=64).unwrap_err().to_string();
        assert_eq!(err("8,,9"), "--bits \"8,,9\": empty item (expected A..B or a list of sizes)");
        assert_eq!(err("8..x"), "--bits \"8..x\": \"x\" is not a size in bits");
        assert_eq!(err("9..8"), "--bits \"9..8\": empty range 9..8");
        assert_eq!(err("5..8"), "--bits \"5..8\": 5 is out of range: 6 to 64 is supported");
        assert_eq!(err("65"), "--bits \"65\": 65 is out of range: 6 to 64 is supported");
    }
}
