//! Exit codes and error reporting.
//!
//! - 0: success (for `check`-style commands: the answer is "yes");
//! - 1: the computation succeeded and its answer is "no" (no solution, invalid placement);
//! - 2: usage or input error (bad arguments, malformed files, sizes beyond the limits);
//! - 74: a fault of the system, not of the input: a write that failed (a full disk, a file
//!   too large, a read-only file system), or a resource the run needs that it could not get
//!   (`EX_IOERR` of `sysexits.h`);
//! - 77: (`damier __api` only, the web lab's child) the request is beyond the server's bounds;
//! - 130: interrupted by Ctrl-C.

use std::io::Write;
use std::process::ExitCode;

use damier::control::Interrupted;

/// Exit code for a "no" answer.
pub const NO: u8 = 1;
/// Exit code for usage and input errors.
pub const USAGE: u8 = 2;
/// Exit code for a fault of the system (a failed write, a missing resource).
pub const FAULT: u8 = 74;
/// Exit code after Ctrl-C (128 + SIGINT): defined beside the handler, which exits with it.
pub use super::interrupt::INTERRUPTED;

/// A fault of the system rather than of the input: reported with exit code [`FAULT`].
#[derive(Debug)]
pub struct Fault(String);

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Fault {}

/// The error for a fault of the system, with its message.
pub fn fault(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Fault(message.into()))
}

/// Whether `err` is a fault of the system: a [`Fault`], a failed write
/// ([`super::output::WriteError`], whatever its cause), or an I/O error that says the disk or
/// the file system failed (full, quota, file too large, read-only, a write of zero bytes).
pub fn is_fault(err: &anyhow::Error) -> bool {
    use std::io::ErrorKind as K;
    err.chain().any(|e| {
        let kind = e
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind)
            .or_else(|| e.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind));
        e.is::<Fault>()
            || super::output::is_write_error(e)
            || matches!(
                kind,
                Some(
                    K::StorageFull
                        | K::QuotaExceeded
                        | K::FileTooLarge
                        | K::ReadOnlyFilesystem
                        | K::WriteZero
                )
            )
    })
}

/// Prints `err` as one line on stderr and picks the exit code.
pub fn report(err: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(err) {
        // The reader went away (`damier ... | head`): not an error worth a message.
        return ExitCode::SUCCESS;
    }
    if err.chain().any(|e| e.downcast_ref::<Interrupted>().is_some()) {
        super::interrupt::say_interrupted();
        return ExitCode::from(INTERRUPTED);
    }
    let _ = writeln!(std::io::stderr(), "damier: error: {}", long_words_cut(&message(err)));
    ExitCode::from(if is_fault(err) { FAULT } else { USAGE })
}

/// Most characters of a word (a run without white space) that a message repeats whole.
const LONGEST_WORD: usize = 200;

/// Most bytes of a word that reads as a path (see [`long_words_cut`]) that a message repeats
/// whole: Linux's longest path (`PATH_MAX`, 4 096 bytes), so that every path a file can have
/// is named whole.
const LONGEST_PATH: usize = 4096;

/// Most bytes of one component of such a path: Linux's longest file name (`NAME_MAX`).
const LONGEST_NAME: usize = 255;

/// `text` with every word longer than [`LONGEST_WORD`] characters cut to its first 60 and
/// last 20 characters and its length in bytes: a value typed or read (a number of 100 000
/// digits, `factor 999...`) comes back compactly whatever the message that quotes it, clap's
/// included (it came back whole, twice). A word that could be a path the system opens (a
/// separator `/` or `\`, at most [`LONGEST_PATH`] bytes, no component over [`LONGEST_NAME`]
/// bytes) is the file that failed, and is kept whole; a hostile value with a slash (`--share
/// 1/999...`) is not a path and is cut like any other word.
pub fn long_words_cut(text: &str) -> std::borrow::Cow<'_, str> {
    let path = |w: &str| {
        w.contains(['/', '\\'])
            && w.len() <= LONGEST_PATH
            && w.split(['/', '\\']).all(|part| part.len() <= LONGEST_NAME)
    };
    let long = |w: &str| w.chars().nth(LONGEST_WORD).is_some() && !path(w);
    if !text.split_whitespace().any(long) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len().min(4096));
    let mut rest = text;
    while !rest.is_empty() {
        let space = rest.find(|c: char| !c.is_whitespace()).unwrap_or(rest.len());
        out.push_str(&rest[..space]);
        rest = &rest[space..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        if long(word) {
            let head: String = word.chars().take(60).collect();
            let tail: String = word.chars().rev().take(20).collect::<Vec<_>>().into_iter().rev().collect();
            out.push_str(&format!("{head}...{tail} ({} bytes)", word.len()));
        } else {
            out.push_str(word);
        }
        rest = &rest[end..];
    }
    out.into()
}

/// What a usage error of clap says on stderr. A refused value (`ErrorKind::ValueValidation`)
/// is one line, clap's `For more information, try '--help'.` left out, and the reasons of
/// clap's own number parsers (the default of a numeric argument such as `queens count N`)
/// said in the program's words: `too large`, not Rust's `number too large to fit in target
/// type`; `0 to 2^32 - 1 is supported`, not `is not in 0..=4294967295` (issue 38
/// §3). Other errors (a missing argument, an unknown option with clap's tip and usage) keep
/// clap's text. Long words are cut afterwards ([`long_words_cut`]).
pub fn usage_text(err: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let text = err.render().to_string();
    if err.kind() != ErrorKind::ValueValidation {
        return text;
    }
    let context = |kind| match err.get(kind) {
        Some(ContextValue::String(s)) => Some(s.as_str()),
        _ => None,
    };
    let (Some(arg), Some(value)) = (context(ContextKind::InvalidArg), context(ContextKind::InvalidValue))
    else {
        // Not clap's usual refusal: its first paragraph, on one line.
        let first = text.split("\n\n").next().unwrap_or(&text);
        return format!("{}\n", first.split_whitespace().collect::<Vec<_>>().join(" "));
    };
    let source = std::error::Error::source(err);
    let int = source.and_then(|e| e.downcast_ref::<std::num::ParseIntError>());
    let reason = match int.map(std::num::ParseIntError::kind) {
        Some(std::num::IntErrorKind::PosOverflow) => "too large".to_string(),
        Some(std::num::IntErrorKind::NegOverflow) => "too small".to_string(),
        Some(std::num::IntErrorKind::Empty) => "empty: a whole number is expected".to_string(),
        Some(std::num::IntErrorKind::InvalidDigit) => "not a whole number".to_string(),
        _ if source.is_some_and(|e| e.is::<std::num::ParseFloatError>()) => "not a number".to_string(),
        _ => {
            let reason = source.map(ToString::to_string).unwrap_or_default();
            out_of_range(&reason).unwrap_or(reason)
        }
    };
    let reason = reason.split_whitespace().collect::<Vec<_>>().join(" ");
    format!("error: invalid value '{value}' for '{arg}': {reason}\n")
}

/// clap's `V is not in LOW..=HIGH` (its ranged integer parsers, both bounds whole numbers of
/// at least 0) in the program's words: `V is out of range: LOW to HIGH is supported`.
fn out_of_range(reason: &str) -> Option<String> {
    let (value, bounds) = reason.split_once(" is not in ")?;
    let (low, high) = bounds.split_once("..=")?;
    let range = damier::util::range(low.parse().ok()?, high.parse().ok()?);
    Some(format!("{value} is out of range: {range} is supported"))
}

/// The error and its causes on one line, each said once: a cause whose text its parent
/// already holds (a context that quotes its source) is left out.
pub fn message(err: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if text.is_empty() || parts.iter().any(|p| p.contains(&text)) {
            continue;
        }
        parts.push(text);
    }
    parts.join(": ")
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    let pipe = Some(std::io::ErrorKind::BrokenPipe);
    err.chain().any(|e| {
        // JSON is written through serde_json, which wraps the io error in its own.
        e.downcast_ref::<std::io::Error>().map(std::io::Error::kind) == pipe
            || e.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind) == pipe
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_words_are_cut_and_the_rest_kept() {
        use super::long_words_cut;
        assert_eq!(long_words_cut("N = 12 is\n  too large"), "N = 12 is\n  too large");
        let word = format!("{}x", "9".repeat(300));
        // The word is the 301 characters and the colon after them.
        let text = format!("N = {word}: too large\n");
        let cut = long_words_cut(&text);
        assert_eq!(cut, format!("N = {}...{}x: (302 bytes) too large\n", "9".repeat(60), "9".repeat(18)));
    }

    /// A long path given by the user came back cut, so that the message did not say which
    /// file failed: a word with a path separator is kept whole up to the longest path.
    #[test]
    fn paths_are_named_whole() {
        use super::long_words_cut;
        let deep = format!("/tmp/{}/{}.csv", "d".repeat(250), "f".repeat(250));
        let text = format!("cannot read {deep}: No such file or directory (os error 2)");
        assert_eq!(long_words_cut(&text), text);
        let windows = format!("cannot write C:\\{}\\out.svg: denied", "w".repeat(250));
        assert_eq!(long_words_cut(&windows), windows);
        // Past any path the system opens, a word with slashes is cut as any other: longer than
        // the longest path, or with a component longer than the longest file name (the review:
        // `--share 1/<1 000 digits>` came back whole, twice, in clap's message).
        for digits in [5000, 1000, 256] {
            let hostile = format!("share 1/{}", "9".repeat(digits));
            let cut = long_words_cut(&hostile);
            assert!(cut.len() < 200 && cut.ends_with(&format!("({} bytes)", digits + 2)), "{cut}");
        }
        let many = format!("/{}", "d".repeat(200) + "/").repeat(21);
        assert!(many.len() > 4096 && long_words_cut(&many).len() < 200);
        // Beside a path, a long number is still cut.
        let both = format!("{deep} {}", "7".repeat(300));
        assert_eq!(
            long_words_cut(&both),
            format!("{deep} {}...{} (300 bytes)", "7".repeat(60), "7".repeat(20))
        );
    }

    /// A value clap's own integer parser refuses is one line in the program's words (the
    /// review: a 100 000-digit `queens count N` got `number too large to fit in target type`,
    /// a blank line and clap's tip).
    #[test]
    fn clap_refusals_of_a_value_are_one_line_in_our_words() {
        use clap::Parser;
        #[derive(Debug, Parser)]
        struct Cli {
            n: u32,
            #[arg(long)]
            seed: Option<u64>,
            #[arg(long, value_parser = clap::value_parser!(u8).range(2..=9))]
            k: Option<u8>,
            #[arg(long)]
            eps: Option<f64>,
        }
        let said = |args: &[&str]| {
            let err = Cli::try_parse_from(std::iter::once("damier").chain(args.iter().copied())).unwrap_err();
            super::usage_text(&err)
        };
        let big = "9".repeat(100);
        assert_eq!(said(&[&big]), format!("error: invalid value '{big}' for '<N>': too large\n"));
        assert_eq!(
            said(&["5000000000"]),
            "error: invalid value '5000000000' for '<N>': 5000000000 is out of range: 0 to 2^32 - 1 is supported\n"
        );
        assert_eq!(said(&["x1"]), "error: invalid value 'x1' for '<N>': not a whole number\n");
        assert_eq!(said(&[""]), "error: invalid value '' for '<N>': empty: a whole number is expected\n");
        assert_eq!(
            said(&["1", "--seed", "18446744073709551616"]),
            "error: invalid value '18446744073709551616' for '--seed <SEED>': too large\n"
        );
        assert_eq!(
            said(&["1", "--eps", "1,5"]),
            "error: invalid value '1,5' for '--eps <EPS>': not a number\n"
        );
        assert_eq!(
            said(&["1", "--k", "10"]),
            "error: invalid value '10' for '--k <K>': 10 is out of range: 2 to 9 is supported\n"
        );
        // A missing argument keeps clap's text, its usage and tip.
        assert!(said(&[]).contains("Usage:"));
    }

    #[test]
    fn each_cause_is_said_once() {
        let io = std::io::Error::from(std::io::ErrorKind::NotFound);
        let text = io.to_string();
        let err = anyhow::Error::new(io).context(format!("cannot read x.txt: {text}"));
        assert_eq!(super::message(&err), format!("cannot read x.txt: {text}"));
        let err = anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::NotFound))
            .context("cannot read x.txt");
        assert_eq!(super::message(&err), format!("cannot read x.txt: {text}"));
    }
}
