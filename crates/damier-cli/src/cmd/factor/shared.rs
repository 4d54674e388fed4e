//! What the factoring commands share: the automaton's probabilities and the parsing of N.

use clap::Args;
use damier::factor::{self as engine, FactorParams};

/// The automaton's probabilities, shared by every subcommand.
#[derive(Debug, Args)]
pub(super) struct ParamArgs {
    /// Flip probability when a border cell's column is the lowest wrong one [range: (0, 1]].
    #[arg(long, default_value_t = engine::DEFAULT_Q)]
    q: f64,
    /// Noise: flip probability when the lowest wrong column cannot fix itself [range: (0, 1]].
    #[arg(long, default_value_t = engine::DEFAULT_EPS)]
    eps: f64,
}

impl ParamArgs {
    pub(super) fn params(&self) -> anyhow::Result<FactorParams> {
        FactorParams { q: self.q, eps: self.eps }.validated().map_err(|e| anyhow::anyhow!("--{e}"))
    }
}

/// Parses N with a message for each way it can be wrong.
pub(super) fn parse_n(text: &str) -> anyhow::Result<u64> {
    let t = text.trim();
    if let Ok(n) = t.parse::<u64>() {
        return Ok(n);
    }
    let digits = t.strip_prefix('+').unwrap_or(t);
    if let Some(rest) = t.strip_prefix('-')
        && !rest.is_empty()
        && rest.bytes().all(|b| b.is_ascii_digit())
    {
        anyhow::bail!("N = {t} is negative: give a number in {}", damier::util::range(2, u64::MAX));
    }
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        anyhow::bail!("N = {t} is too large: at most 2^64 - 1 ({}) is supported", u64::MAX);
    }
    anyhow::bail!("N = {text:?} is not a whole number (decimal digits expected)")
}
