//! The read-only view of a long count's journal (`/count`): the file is the one named on the
//! server's command line (`damier serve --journal FILE`), never a path from a request; it is
//! only ever opened for reading, by the library's journal summary ([`journal::summarize`]),
//! which drops a torn tail (a count still writing) and checks every record's checksum. It
//! refuses anything but a regular file of at most [`journal::MAX_BYTES`] before it reads a
//! byte, so a journal named on a device (`--journal /dev/zero`) costs a request nothing.
//!
//! The view's memory does not grow with the journal: the summary folds the records as it reads
//! them and keeps only the last [`RECENT_TASKS`] and one bit per task of the share (2.5 MB at
//! most, for n = 28's 20 060 016 tasks), where the whole records of a journal of 28 take
//! hundreds of MB. When the file grew since the last reading, only the bytes appended are read;
//! a file that shrank, or whose start changed, or another file at the path, is read whole.
//!
//! `POST /api/live/journal` with `{}` answers the progress: tasks done and left, the running
//! total, the rate and ETA over the count's sessions, and the per-task times of the latest
//! tasks (the page's small chart). The file is read again only when its length or modification
//! time changed, a journal refused included: its refusal is answered again without reading it
//! (a journal forged to cost a whole reading is read once, not at every request).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use damier::queens::count::journal;
use serde::{Deserialize, Serialize};

/// Most recent tasks whose times the answer carries.
pub const RECENT_TASKS: usize = 200;

/// The request: no field at all (nothing a request sends chooses what is read).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalRequest {}

/// A journal's progress.
#[derive(Clone, Debug, Serialize)]
pub struct JournalView {
    /// The journal's file name (not its folder).
    pub file: String,
    /// Board size counted.
    pub n: u32,
    /// Tasks of the share.
    pub tasks: u64,
    /// Tasks recorded.
    pub done: u64,
    /// Tasks left.
    pub left: u64,
    /// Sum of the recorded counts so far (a partial total), decimal.
    pub partial_total: String,
    /// Tasks per second of wall time over all sessions.
    pub rate: Option<f64>,
    /// Seconds left at that rate.
    pub eta_seconds: Option<f64>,
    /// Worker seconds spent.
    pub task_seconds: f64,
    /// Runs that appended to it.
    pub sessions: usize,
    /// Torn lines dropped at the end (a count writing right now).
    pub torn_lines: usize,
    /// The latest tasks: `[finished (ms since 1970), worker seconds]`, oldest first.
    pub recent: Vec<(u64, f64)>,
}

/// A file's length and modification time: an answer is kept while they stay the same.
type Stamp = (u64, Option<SystemTime>);

/// The journal named at start-up and its last reading.
#[derive(Debug)]
pub struct JournalSource {
    path: PathBuf,
    /// The last answer, view or refusal, and the file's length and modification time then.
    last: Option<(Stamp, Result<JournalView, String>)>,
    /// The last reading's summary, which the next one continues.
    summary: Option<journal::JournalSummary>,
}

impl JournalSource {
    /// The journal at `path` (named on the server's command line).
    pub fn new(path: PathBuf) -> JournalSource {
        JournalSource { path, last: None, summary: None }
    }

    /// The path it reads.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The current progress (or why the journal is refused), read again when the file changed.
    pub fn view(&mut self) -> Result<JournalView, String> {
        let meta = std::fs::metadata(&self.path).map_err(|e| format!("the journal: {e}"))?;
        let stamp = (meta.len(), meta.modified().ok());
        if let Some((s, v)) = &self.last
            && *s == stamp
        {
            return v.clone();
        }
        // The last summary continues with what was appended (or reads the file again).
        let summary = match self.summary.take() {
            Some(s) => s.update(&self.path),
            None => journal::summarize(&self.path, RECENT_TASKS),
        }
        .map_err(|e| e.to_string());
        let view = summary.map(|summary| {
            let view = view_of(&self.path, &summary);
            self.summary = Some(summary);
            view
        });
        self.last = Some((stamp, view.clone()));
        view
    }
}

/// Reads the journal at `path` into a view, whole.
pub fn read_view(path: &Path) -> Result<JournalView, String> {
    let summary = journal::summarize(path, RECENT_TASKS).map_err(|e| e.to_string())?;
    Ok(view_of(path, &summary))
}

/// The view of the journal at `path`, summarized as `s`.
fn view_of(path: &Path, s: &journal::JournalSummary) -> JournalView {
    JournalView {
        file: path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default(),
        n: s.header.n,
        tasks: u64::from(s.header.share_tasks()),
        done: s.done,
        left: s.left(),
        partial_total: s.total().to_string(),
        rate: s.rate(),
        eta_seconds: s.eta_seconds(),
        task_seconds: s.task_seconds(),
        sessions: s.sessions,
        torn_lines: s.torn_lines,
        recent: s.recent().map(|r| (r.unix_ms, r.micros as f64 / 1e6)).collect(),
    }
}

/// The view as it was computed before the summary: from every record held
/// ([`journal::read`]); the summary's view must equal it for every file.
#[cfg(test)]
fn view_from_records(path: &Path) -> Result<JournalView, String> {
    let c = journal::read(path).map_err(|e| e.to_string())?;
    let skip = c.records.len().saturating_sub(RECENT_TASKS);
    Ok(JournalView {
        file: path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default(),
        n: c.header.n,
        tasks: u64::from(c.header.share_tasks()),
        done: c.records.len() as u64,
        left: c.left(),
        partial_total: c.total().to_string(),
        rate: c.rate(),
        eta_seconds: c.eta_seconds(),
        task_seconds: c.task_seconds(),
        sessions: c.sessions.len(),
        torn_lines: c.torn_lines,
        recent: c.records[skip..].iter().map(|r| (r.unix_ms, r.micros as f64 / 1e6)).collect(),
    })
}

#[cfg(all(test, feature = "server"))]
mod tests {
    use super::*;
    use damier::queens::count::Share;
    use damier::queens::count::journal::{Journal, JournalHeader};
    use damier::queens::count::tasks::{TaskDone, TaskEngine, TaskList};
    use std::io::Write;
    use std::time::Duration;

    /// Asserts that the source's view of its journal now is the view from every record, to
    /// the byte of the answer (errors included).
    fn assert_same_view(source: &mut JournalSource) {
        let json = |v: Result<JournalView, String>| v.map(|v| serde_json::to_string(&v).unwrap());
        let path = source.path().to_path_buf();
        assert_eq!(json(source.view()), json(view_from_records(&path)));
        assert_eq!(json(read_view(&path)), json(view_from_records(&path)));
    }

    /// A journal that grows by sessions, tasks recorded twice and torn tails, viewed after each
    /// step by one source (which reads only what was appended): the same answers as the view
    /// computed from every record. Then a task recorded twice with two counts, and a file
    /// replaced by a shorter one.
    #[test]
    fn the_view_of_a_growing_journal_equals_the_view_from_every_record() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("count.journal");
        let header = JournalHeader::new(&TaskList::new(14).unwrap(), Share::WHOLE, TaskEngine::Quarters);
        assert!(header.tasks > 600);
        let mut source = JournalSource::new(path.clone());
        assert!(source.view().is_err(), "no file yet");
        let done = |index: u32, count: u64| TaskDone {
            index,
            count,
            elapsed: Duration::from_micros(300 + u64::from(index)),
        };
        let mut next = 0u32;
        for session in 0..4u32 {
            let (j, _) = Journal::open(&path, &header, 1 + session).unwrap();
            assert_same_view(&mut source);
            for _ in 0..(90 + 37 * session) {
                j.record(done(next, u64::from(next % 7) + 1));
                if next % 29 == 3 {
                    j.record(done(next, u64::from(next % 7) + 1));
                }
                next += 1;
                if next.is_multiple_of(31) {
                    assert_same_view(&mut source);
                }
            }
            j.finish().unwrap();
            drop(j);
            assert_same_view(&mut source);
            // A torn tail, then the line completed by hand would be damage: the next session
            // cuts the tail off (the file shrinks) and goes on.
            std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(b"T\t9\t1\t2").unwrap();
            assert_same_view(&mut source);
        }
        assert!(source.view().unwrap().recent.len() == RECENT_TASKS);
        // A task recorded again with another count: the same refusal.
        let (j, _) = Journal::open(&path, &header, 1).unwrap();
        j.record(done(5, 1_000));
        j.finish().unwrap();
        drop(j);
        let e = source.view().unwrap_err();
        assert!(e.contains("task 5 recorded twice"), "{e}");
        assert_same_view(&mut source);
        // Refused, it is not read again while unchanged (issue 49: a forged journal cost a
        // whole reading at every request): a good journal put in its place with the same length
        // and time is not seen; once its time changes, it is.
        let refused = std::fs::read(&path).unwrap();
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        let mut good = refused.clone();
        let last = good[..good.len() - 1].iter().rposition(|&b| b == b'\n').unwrap() + 1;
        good.truncate(last);
        good.resize(refused.len(), b'\n');
        std::fs::write(&path, &good).unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(modified).unwrap();
        assert_eq!(source.view().unwrap_err(), e, "the refusal, not read again");
        file.set_modified(modified + Duration::from_secs(1)).unwrap();
        drop(file);
        assert!(source.view().is_ok(), "read again once changed");
        std::fs::write(&path, &refused).unwrap();
        assert_same_view(&mut source);
        // Replaced by a shorter journal.
        std::fs::remove_file(&path).unwrap();
        let (j, _) = Journal::open(&path, &header, 2).unwrap();
        j.record(done(1, 2));
        j.finish().unwrap();
        drop(j);
        assert_same_view(&mut source);
        assert_eq!(source.view().unwrap().done, 1);
    }
}
