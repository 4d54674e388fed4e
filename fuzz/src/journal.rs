//! Count journals: any file is refused or read into records that respect the header (each
//! task once, inside the share); the summaries never overflow, and the folded summary
//! (`journal::summarize`) answers what the records answer.
//!
//! The first byte chooses the mode. Raw: the rest is the file. Sealed: the rest is split in
//! lines, and each gets the checksum the format chains to the header's (computed here with
//! an FNV-1a written for this target), so the fuzzer reaches the record logic behind the
//! checksums.

use std::io::Write;

use damier::queens::count::journal;

fn fnv(chain: u64, text: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in chain.to_le_bytes().iter().chain(text) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn seal(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() * 2);
    let mut lines = body.split(|&b| b == b'\n');
    let Some(header) = lines.next() else { return out };
    out.extend_from_slice(header);
    out.extend_from_slice(format!("\t{:016x}", fnv(0, header)).as_bytes());
    let chain = fnv(0, &out);
    out.push(b'\n');
    for line in lines {
        out.extend_from_slice(line);
        out.extend_from_slice(format!("\t{:016x}\n", fnv(chain, line)).as_bytes());
    }
    out
}

/// The check on one input: panics on a fault.
pub fn check(data: &[u8]) {
    let [mode, rest @ ..] = data else { return };
    let bytes = if mode % 2 == 0 { rest.to_vec() } else { seal(rest) };
    let path = std::env::temp_dir().join(format!("damier-fuzz-journal-{}", std::process::id()));
    std::fs::File::create(&path).and_then(|mut f| f.write_all(&bytes)).expect("temp file");
    // The summary (what the server's journal view and `queens journal` read) answers what
    // the reader of every record answers: the same refusal, or the same figures to the bit.
    let (read, summary) = (journal::read(&path), journal::summarize(&path, 8));
    match (&read, &summary) {
        (Ok(c), Ok(s)) => {
            let skip = c.records.len().saturating_sub(8);
            assert_eq!(s.header, c.header);
            assert_eq!((s.done, s.total(), s.left()), (c.records.len() as u64, c.total(), c.left()));
            assert_eq!((s.sessions, s.torn_lines), (c.sessions.len(), c.torn_lines));
            assert_eq!(s.rate().map(f64::to_bits), c.rate().map(f64::to_bits));
            assert_eq!(s.eta_seconds().map(f64::to_bits), c.eta_seconds().map(f64::to_bits));
            assert_eq!(s.task_seconds().to_bits(), c.task_seconds().to_bits());
            assert!(s.recent().eq(c.records[skip..].iter()));
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("read and summarize disagree: {read:?} / {summary:?}"),
    }
    let Ok(contents) = read else { return };
    let h = &contents.header;
    let mut seen = std::collections::HashSet::new();
    for r in &contents.records {
        assert!(r.index < h.tasks, "task {} beyond the list of {}", r.index, h.tasks);
        assert_eq!(r.index % h.share.of(), h.share.index(), "task {} outside the share", r.index);
        assert!(seen.insert(r.index), "task {} listed twice", r.index);
    }
    let in_sessions: u64 = contents.sessions.iter().map(|s| s.tasks).sum();
    assert_eq!(in_sessions, contents.records.len() as u64);
    assert!(contents.records.len() as u64 <= u64::from(h.share_tasks()));
    // The total is exact (a u128), whatever the counts; a u64 total is refused, not wrapped.
    let total: u128 = contents.records.iter().map(|r| u128::from(r.count)).sum();
    assert_eq!(contents.total(), total);
    assert_eq!(
        damier::queens::count::total_from_sum(total).ok().map(u128::from),
        (total <= u128::from(u64::MAX)).then_some(total)
    );
    let _ = (contents.left(), contents.rate(), contents.eta_seconds(), contents.task_seconds());
}
