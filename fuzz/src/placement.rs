//! Placements (`queens check` input): any text is refused or parses to one in-range column
//! per token; printed listings (`Placement::parse_all`) read back; the columns print and parse back; the line-sorting checker (`check_queens`) and the streaming
//! bit-set verifier agree with a plain pairwise check.

use damier::queens::Placement;
use damier::queens::placement::Occupancy;

/// The check on one input: panics on a fault.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The reader of printed output: any text is refused or gives placements that print and
    // read back, alone and as a listing.
    if let Ok(all) = Placement::parse_all(text) {
        for p in &all {
            assert_eq!(
                Placement::parse_all(&format!("S = {p}\n{}", p.board())).as_ref(),
                Ok(&vec![p.clone()])
            );
        }
    }
    let Ok(p) = Placement::parse(text) else { return };
    let n = p.n() as usize;
    let tokens = text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).count();
    assert_eq!(n, tokens);
    assert!(p.columns().iter().all(|&c| (c as usize) < n));
    let spaced: Vec<String> = p.one_based().iter().map(u64::to_string).collect();
    assert_eq!(Placement::parse(&spaced.join(" ")).as_ref(), Ok(&p));
    assert_eq!(Placement::parse(&spaced.join(",")).as_ref(), Ok(&p));
    // The printed form "(c1, c2, ...)" without its brackets parses back too.
    let shown = p.to_string();
    assert_eq!(Placement::parse(&shown[1..shown.len() - 1]).as_ref(), Ok(&p));
    // Pairwise check, O(n^2): the obvious definition of "no two queens attack".
    let cols = p.columns();
    let mut valid = true;
    'pairs: for i in 0..n {
        for j in i + 1..n {
            let (ci, cj) = (i64::from(cols[i]), i64::from(cols[j]));
            if ci == cj || (ci - cj).unsigned_abs() == (j - i) as u64 {
                valid = false;
                break 'pairs;
            }
        }
    }
    assert_eq!(p.is_valid(), valid, "checker disagrees on {p}");
    let mut occ = Occupancy::new(p.n());
    let streamed = cols.iter().all(|&c| occ.push(u64::from(c)).is_ok()) && occ.finish().is_ok();
    assert_eq!(streamed, valid, "streaming verifier disagrees on {p}");
    assert_eq!(p.board().lines().count(), n);
}
