//! Share specs `K/M` (`queens count --share`): any text is refused or gives a share inside
//! the limits that prints and parses back, as a plain split-and-parse says.

use damier::queens::count::{MAX_SHARES, Share};

/// The check on one input: panics on a fault.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parsed = Share::parse(text);
    // The rule stated plainly: two decimal numbers around the first '/', 1 <= K <= M <= max.
    let expected = text.split_once('/').and_then(|(k, m)| {
        let k: u32 = k.trim().parse().ok()?;
        let m: u32 = m.trim().parse().ok()?;
        (1 <= k && k <= m && m <= MAX_SHARES).then(|| (k - 1, m))
    });
    assert_eq!(parsed.as_ref().ok().map(|s| (s.index(), s.of())), expected, "{text:?}");
    let Ok(share) = parsed else { return };
    assert_eq!(Share::new(share.index(), share.of()), Some(share));
    let printed = format!("{}/{}", share.index() + 1, share.of());
    assert_eq!(Share::parse(&printed), Ok(share));
}
