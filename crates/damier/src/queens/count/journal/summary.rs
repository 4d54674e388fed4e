//! A journal folded as it is read ([`summarize`]): what [`read`](super::read) answers about
//! its progress, in memory independent of the journal's length, and brought up to date by
//! reading only what was appended since ([`JournalSummary::update`]).
//!
//! [`read`](super::read) holds every record (about 24 bytes each, and a map of the tasks seen:
//! hundreds of MB for a journal of n = 28, 20 060 016 tasks). A summary holds the sums, the
//! sessions' running times, the last records asked for, and one bit per task of the share to
//! find a task recorded twice (at most [`MAX_TASKS`](super::MAX_TASKS) bits: 2.5 MB). A task recorded twice must
//! be checked against its first count, which the bit does not keep: such repeats (none in a
//! journal a count wrote) are held until the end of the reading, checked in one more pass over
//! the file's start, and kept with the first count it found, so that a later reading checks
//! them at once. A journal repeats at most [`MAX_REPEATS`] tasks (more are refused by both
//! readers): the summary holds at most that many (a few MB), and a reading, whatever the file
//! holds, takes at most two passes over it. Every answer, errors included, is
//! [`read`](super::read)'s for the same file.

use std::collections::{HashMap, VecDeque};
use std::fs::OpenOptions;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use super::{
    JournalError, JournalHeader, Line, MAX_BYTES, MAX_LINE, MAX_REPEATS, Position, Session, Sink, TaskRecord,
    first_of, next_line, open_checked, read_header, scan, too_many_repeats, twice,
};

/// A journal's progress, folded from its records as they were read (see the module docs).
#[derive(Clone, Debug)]
pub struct JournalSummary {
    /// What it is for.
    pub header: JournalHeader,
    /// Tasks recorded (each once).
    pub done: u64,
    /// Runs that wrote it.
    pub sessions: usize,
    /// Lines dropped as a torn tail.
    pub torn_lines: usize,
    total: u128,
    /// Worker microseconds, summed as [`JournalContents::task_seconds`](super::JournalContents::task_seconds) sums them.
    micros: f64,
    /// Wall milliseconds of the sessions before the last, summed likewise.
    closed_ms: f64,
    /// The last session.
    current: Option<Session>,
    /// The last records, oldest first, at most `keep`.
    recent: VecDeque<TaskRecord>,
    keep: usize,
    /// One bit per task of the share (the task's index divided by the number of shares).
    pub(super) seen: Vec<u64>,
    /// The tasks recorded again (at most [`MAX_REPEATS`]).
    repeats: HashMap<u32, Repeat>,
    /// The end of the last good line, where the next reading starts.
    valid: Position,
    /// The header line and the last good line (newlines included): a file whose bytes there
    /// changed is read again from its start.
    header_line: Vec<u8>,
    last_line: Vec<u8>,
    /// The file's device and inode.
    identity: Option<(u64, u64)>,
}

/// A task recorded again.
#[derive(Clone, Copy, Debug)]
enum Repeat {
    /// Its first count not known yet: its first repeat (line and count), and the first later
    /// one with another count.
    Pending { first: (usize, u64), differs: Option<(usize, u64)> },
    /// Its first count, found by a pass over the file's start: later repeats are checked at
    /// once.
    Known(u64),
}

/// Folds the journal at `path` into a summary that keeps its last `keep` records. The file is
/// checked and read as [`read`](super::read) reads it, and refused where it is refused.
pub fn summarize(path: &Path, keep: usize) -> Result<JournalSummary, JournalError> {
    let io = |source| JournalError::Io { path: path.to_path_buf(), source };
    let file = open_checked(path, OpenOptions::new().read(true))?;
    let identity = identity(&file.metadata().map_err(io)?);
    // PERF: read in blocks of 64 KiB, one line at a time, as `read` does.
    let mut r = BufReader::with_capacity(1 << 16, file.take(MAX_BYTES + 1));
    let mut buf = Vec::with_capacity(MAX_LINE);
    let Some((header, len)) = read_header(path, &mut r, &mut buf)? else {
        return Err(JournalError::NotAJournal { path: path.to_path_buf() });
    };
    let mut header_line = buf.clone();
    header_line.push(b'\n');
    let empty_sum = || std::iter::empty::<f64>().sum::<f64>();
    let mut s = JournalSummary {
        seen: vec![0; header.share_tasks().div_ceil(64) as usize],
        header,
        done: 0,
        sessions: 0,
        torn_lines: 0,
        total: 0,
        micros: empty_sum(),
        closed_ms: empty_sum(),
        current: None,
        recent: VecDeque::with_capacity(keep.min(1 << 16)),
        keep,
        repeats: HashMap::new(),
        valid: Position { at: len, line_no: 1 },
        last_line: header_line.clone(),
        header_line,
        identity,
    };
    s.read_on(path, &mut r, &mut buf)?;
    Ok(s)
}

#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

impl JournalSummary {
    /// The summary of the journal at `path` as it is now. When it is the same file, no shorter
    /// than the part already read and with the same bytes at its start and at the end of that
    /// part, only what follows is read (a torn tail again with it: a line still being written);
    /// else the whole file is folded again.
    pub fn update(mut self, path: &Path) -> Result<JournalSummary, JournalError> {
        let io = |source| JournalError::Io { path: path.to_path_buf(), source };
        let mut file = open_checked(path, OpenOptions::new().read(true))?;
        let meta = file.metadata().map_err(io)?;
        let same = identity(&meta) == self.identity
            && meta.len() >= self.valid.at
            && holds_at(&mut file, 0, &self.header_line).map_err(io)?
            && holds_at(&mut file, self.valid.at - self.last_line.len() as u64, &self.last_line)
                .map_err(io)?;
        if !same {
            // Folded again from a handle of its own; this one closes when the function returns
            // (an explicit drop is refused by clippy on WebAssembly, where File has no Drop).
            return summarize(path, self.keep);
        }
        file.seek(SeekFrom::Start(self.valid.at)).map_err(io)?;
        let mut r = BufReader::with_capacity(1 << 16, file.take(MAX_BYTES + 1 - self.valid.at));
        let mut buf = Vec::with_capacity(MAX_LINE);
        self.read_on(path, &mut r, &mut buf)?;
        Ok(self)
    }

    /// Reads the lines after [`JournalSummary::valid`] from `r` into the summary.
    fn read_on(
        &mut self,
        path: &Path,
        r: &mut impl std::io::BufRead,
        buf: &mut Vec<u8>,
    ) -> Result<(), JournalError> {
        let header = self.header.clone();
        let end = scan(path, r, buf, &header, self.valid, self)?;
        self.valid = end.valid;
        self.torn_lines = end.torn_lines;
        Ok(())
    }

    /// The sum of the recorded tasks' counts, exact ([`JournalContents::total`](super::JournalContents::total)).
    pub fn total(&self) -> u128 {
        self.total
    }

    /// Tasks of the share not recorded yet.
    pub fn left(&self) -> u64 {
        u64::from(self.header.share_tasks()) - self.done
    }

    /// Tasks finished per second of wall time, over all sessions (`None` before any), as
    /// [`JournalContents::rate`](super::JournalContents::rate) computes it.
    pub fn rate(&self) -> Option<f64> {
        // The same float additions, in the same order, as the sum over every session.
        let ms = match self.current {
            Some(s) => self.closed_ms + s.last_ms.saturating_sub(s.unix_ms) as f64,
            None => self.closed_ms,
        };
        (self.done > 0 && ms > 0.0).then(|| self.done as f64 * 1000.0 / ms)
    }

    /// Seconds until the share is done at [`JournalSummary::rate`].
    pub fn eta_seconds(&self) -> Option<f64> {
        self.rate().map(|r| self.left() as f64 / r)
    }

    /// Worker seconds spent on the recorded tasks.
    pub fn task_seconds(&self) -> f64 {
        self.micros / 1e6
    }

    /// The last records (at most the number asked for), oldest first.
    pub fn recent(&self) -> impl ExactSizeIterator<Item = &TaskRecord> {
        self.recent.iter()
    }

    /// Bytes of the valid part read (a torn tail after it is dropped).
    pub fn valid_len(&self) -> u64 {
        self.valid.at
    }
}

/// Whether `file` holds `bytes` at `offset`.
fn holds_at(file: &mut std::fs::File, offset: u64, bytes: &[u8]) -> std::io::Result<bool> {
    file.seek(SeekFrom::Start(offset))?;
    let mut have = vec![0; bytes.len()];
    match file.read_exact(&mut have) {
        Ok(()) => Ok(have == bytes),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
        Err(e) => Err(e),
    }
}

impl Sink for JournalSummary {
    fn in_session(&self) -> bool {
        self.current.is_some()
    }

    fn session(&mut self, unix_ms: u64, threads: u32) {
        if let Some(s) = self.current {
            self.closed_ms += s.last_ms.saturating_sub(s.unix_ms) as f64;
        }
        self.current = Some(Session { unix_ms, threads, tasks: 0, last_ms: unix_ms });
        self.sessions += 1;
    }

    fn task(&mut self, path: &Path, r: TaskRecord, line_no: usize) -> Result<(), JournalError> {
        // The scan checked that the task is in the share: its slot is below the share's tasks.
        let slot = (r.index / self.header.share.of()) as usize;
        let (word, bit) = (slot / 64, 1u64 << (slot % 64));
        if self.seen[word] & bit != 0 {
            let full = self.repeats.len() >= MAX_REPEATS;
            let known = match self.repeats.get_mut(&r.index) {
                Some(Repeat::Known(c)) => Some(*c),
                Some(Repeat::Pending { first, differs }) => {
                    if differs.is_none() && first.1 != r.count {
                        *differs = Some((line_no, r.count));
                    }
                    None
                }
                None if full => {
                    return Err(first_of(self, path, too_many_repeats(path, line_no, r.index)));
                }
                None => {
                    self.repeats
                        .insert(r.index, Repeat::Pending { first: (line_no, r.count), differs: None });
                    None
                }
            };
            if let Some(c) = known.filter(|&c| c != r.count) {
                let e = JournalError::Corrupted {
                    path: path.to_path_buf(),
                    line: line_no,
                    why: twice(r.index, c, r.count),
                };
                return Err(first_of(self, path, e));
            }
            return Ok(());
        }
        self.seen[word] |= bit;
        self.done += 1;
        self.total += u128::from(r.count);
        self.micros += r.micros as f64;
        let session = self.current.as_mut().expect("a session started");
        session.tasks += 1;
        session.last_ms = session.last_ms.max(r.unix_ms);
        if self.keep > 0 {
            if self.recent.len() == self.keep {
                self.recent.pop_front();
            }
            self.recent.push_back(r);
        }
        Ok(())
    }

    fn good_line(&mut self, bytes: &[u8]) {
        self.last_line.clear();
        self.last_line.extend_from_slice(bytes);
        self.last_line.push(b'\n');
    }

    /// Checks the repeated tasks whose first counts are not known yet against them, read again
    /// from the file's start (one pass, up to the last repeat at most): the first line where
    /// one differs is the error [`read`](super::read) gives. Each keeps the count found.
    fn settle(&mut self, path: &Path) -> Result<(), JournalError> {
        let pending = |rep: &Repeat| match *rep {
            Repeat::Pending { first, differs } => Some(differs.map_or(first.0, |d| d.0)),
            Repeat::Known(_) => None,
        };
        let Some(last) = self.repeats.values().filter_map(pending).max() else { return Ok(()) };
        let wanted = self.repeats.values().filter(|r| pending(r).is_some()).count();
        let io = |source| JournalError::Io { path: path.to_path_buf(), source };
        let file = open_checked(path, OpenOptions::new().read(true))?;
        let mut r = BufReader::with_capacity(1 << 16, file.take(MAX_BYTES + 1));
        let mut buf = Vec::with_capacity(MAX_LINE);
        let chain = self.header.hash();
        let mut first: HashMap<u32, u64> = HashMap::with_capacity(wanted);
        let mut line_no = 0;
        while line_no < last
            && first.len() < wanted
            && let Some(l) = next_line(&mut r, &mut buf).map_err(io)?
        {
            line_no += 1;
            if line_no == 1 || !l.newline || l.cut {
                continue;
            }
            if let Some(Line::Task(t)) = std::str::from_utf8(&buf).ok().and_then(|t| Line::decode(chain, t))
                && let Some(Repeat::Pending { .. }) = self.repeats.get(&t.index)
            {
                first.entry(t.index).or_insert(t.count);
            }
        }
        // The earliest line whose count is not the task's first.
        let conflict = self
            .repeats
            .iter()
            .filter_map(|(&index, rep)| {
                let Repeat::Pending { first: at, differs } = *rep else { return None };
                let c = *first.get(&index)?;
                let (line, count) = if at.1 != c { Some(at) } else { differs }?;
                Some((line, index, c, count))
            })
            .min();
        // Each keeps its first count; one the pass did not find (a file changed meanwhile) is
        // not looked for again.
        self.repeats.retain(|index, rep| match first.get(index) {
            Some(&c) => {
                *rep = Repeat::Known(c);
                true
            }
            None => matches!(rep, Repeat::Known(_)),
        });
        match conflict {
            Some((line, index, c, count)) => {
                Err(JournalError::Corrupted { path: path.to_path_buf(), line, why: twice(index, c, count) })
            }
            None => Ok(()),
        }
    }
}
