//! The automaton's `--from` position: any input is refused or parses to an n x n square of
//! counts that formats and parses back to itself.

use damier::automaton::text::{format_position, parse_position};

/// The check on one input: panics on a fault.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok((n, counts)) = parse_position(text) else { return };
    assert!(n >= 1 && n <= damier::automaton::MAX_N);
    assert_eq!(counts.len(), n as usize * n as usize);
    assert!(counts.iter().all(|&c| c <= 9));
    let queens: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    // Independent count: the digits on the non-comment lines.
    let digits: u64 = text
        .lines()
        .filter(|l| !l.trim().starts_with('#'))
        .flat_map(|l| l.chars())
        .filter_map(|c| c.to_digit(10))
        .map(u64::from)
        .sum();
    assert_eq!(queens, digits);
    let printed = format_position(n, &counts);
    assert_eq!(parse_position(&printed), Ok((n, counts)));
}
