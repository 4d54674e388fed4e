//! The read-only view of a long count's journal (`/count`): the file is the one named on the
//! server's command line (`damier serve --journal FILE`), never a path from a request; it is
//! only ever opened for reading, by the library's journal reader, which drops a torn tail (a
//! count still writing) and checks every record's checksum. That reader refuses anything but
//! a regular file of at most [`journal::MAX_BYTES`] before it reads a byte, so a journal
//! named on a device (`--journal /dev/zero`) costs a request nothing.
//!
//! `POST /api/live/journal` with `{}` answers the progress: tasks done and left, the running
//! total, the rate and ETA over the count's sessions, and the per-task times of the latest
//! tasks (the page's small chart). The file is read again only when its length or modification
//! time changed.

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

/// The journal named at start-up and its last reading.
#[derive(Debug)]
pub struct JournalSource {
    path: PathBuf,
    last: Option<((u64, Option<SystemTime>), JournalView)>,
}

impl JournalSource {
    /// The journal at `path` (named on the server's command line).
    pub fn new(path: PathBuf) -> JournalSource {
        JournalSource { path, last: None }
    }

    /// The path it reads.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The current progress, read again when the file changed.
    pub fn view(&mut self) -> Result<JournalView, String> {
        let meta = std::fs::metadata(&self.path).map_err(|e| format!("the journal: {e}"))?;
        let stamp = (meta.len(), meta.modified().ok());
        if let Some((s, v)) = &self.last
            && *s == stamp
        {
            return Ok(v.clone());
        }
        let view = read_view(&self.path)?;
        self.last = Some((stamp, view.clone()));
        Ok(view)
    }
}

/// Reads the journal at `path` into a view.
pub fn read_view(path: &Path) -> Result<JournalView, String> {
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
