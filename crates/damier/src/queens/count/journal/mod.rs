//! A journal of finished tasks, so that a count of days survives a crash, a kill or a reboot.
//!
//! The file is text, one record per line, each line closed by a checksum of itself chained to
//! the header's: a header naming what is counted, then `S` lines (a session started) and `T`
//! lines (a task finished, with its weighted count):
//!
//! ```text
//! damier-queens-journal-2<TAB>format=1<TAB>n=20<TAB>share=1/1<TAB>engine=quarters<TAB>device=cpu<TAB>version=0.1.0<TAB>tasks=92378<TAB>fingerprint=…<TAB>checksum
//! S<TAB>unix_ms<TAB>threads<TAB>checksum
//! T<TAB>index<TAB>count<TAB>micros<TAB>unix_ms<TAB>checksum
//! ```
//!
//! The header names the engine and the device that count the tasks ([`JournalDevice`]: the
//! CPU, a GPU, or both). Its first version (first word `damier-queens-journal`, no `device`)
//! did not record the device: such journals are still read and continued by a run of any
//! device, under their own header ([`JournalHeader::device`] is `None`).
//!
//! Each record goes to the file in one `write` as soon as its task finishes, so a killed
//! process (even `kill -9`) loses only the tasks in flight: the kernel keeps what was written.
//! The file is also flushed to the disk (`fdatasync`) at most every [`SYNC_INTERVAL`] and when
//! the journal is closed, so that a power cut loses at most that much work: one `fdatasync`
//! costs milliseconds, more than many tasks.
//!
//! Reading back: a last line cut short (no newline, a wrong checksum, garbage), or several,
//! is a torn write and is dropped (those tasks run again); a bad line followed by good ones is
//! corruption, and the journal is refused rather than guessed at, as is a task recorded twice
//! with two counts. A task recorded twice with one count counts once. So no task is ever
//! counted twice. A count records each task once: a journal with more than [`MAX_REPEATS`]
//! tasks recorded twice is refused as corrupted, at the line of the first one too many (so that
//! the summary, which holds a bit per task, checks its repeats in one more pass at most). The
//! reader takes a regular file of at most [`MAX_BYTES`] only, checked before a byte is read,
//! and reads it line by line, in one pass: it holds the records, never the file.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::Share;
use super::tasks::{TASK_FORMAT_VERSION, TaskDone, TaskEngine, TaskList};
use crate::util::Fnv1a;

mod summary;
pub use summary::{JournalSummary, summarize};

/// Longest time between two flushes of the journal to the disk while tasks finish.
pub const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// First word of a journal of the header's first version, which did not record the device.
const MAGIC: &str = "damier-queens-journal";

/// First word of a journal whose header records the device (version 2).
const MAGIC_2: &str = "damier-queens-journal-2";

/// What counts a journal's tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum JournalDevice {
    /// The CPU engines.
    #[cfg_attr(feature = "serde", serde(rename = "cpu"))]
    Cpu,
    /// A GPU (the crate damier-gpu), every task.
    #[cfg_attr(feature = "serde", serde(rename = "gpu"))]
    Gpu,
    /// A GPU and the CPU cores taking tasks from one queue: the header's engine is the CPU's.
    #[cfg_attr(feature = "serde", serde(rename = "cpu+gpu"))]
    CpuAndGpu,
}

impl JournalDevice {
    /// Its name in a header: `cpu`, `gpu` or `cpu+gpu`.
    pub fn name(self) -> &'static str {
        match self {
            JournalDevice::Cpu => "cpu",
            JournalDevice::Gpu => "gpu",
            JournalDevice::CpuAndGpu => "cpu+gpu",
        }
    }

    /// The device of a header's name.
    pub fn from_name(name: &str) -> Option<JournalDevice> {
        [JournalDevice::Cpu, JournalDevice::Gpu, JournalDevice::CpuAndGpu]
            .into_iter()
            .find(|d| d.name() == name)
    }
}

/// Largest journal read or continued, 2 GiB. The largest task list, n = 28
/// ([`super::tasks::MAX_TASK_N`]), has 20 060 016 tasks; a task line is at most
/// [`MAX_TASK_LINE`] = 93 bytes (every field at its widest: about 65 in a real count of 28), so
/// a journal of the whole count takes at most 1.87 GB (1.30 GB at 65 bytes a line), and the
/// 0.28 GB left hold the header and some 5 million session lines of at most 51 bytes. A file
/// beyond it is refused before a byte is read, and so is anything but a regular file (a
/// device such as `/dev/zero` never ends; a pipe would block the reader).
pub const MAX_BYTES: u64 = 2 << 30;

/// Most tasks a journal's header may name: the largest task list, n = 28
/// ([`super::tasks::MAX_TASK_N`]), has 20 060 016 tasks. A header naming more is refused: no
/// list has them, and the summary's set of tasks done ([`summarize`]) is sized by it.
pub const MAX_TASKS: u32 = 20_060_016;

/// Most tasks a journal may record more than once, 65 536: a count records each task once (a
/// repeat is a damaged or forged file), and the summary ([`summarize`]) holds each repeated
/// task until a pass over the file's start finds its first count. The task after them that is
/// recorded again is refused as corruption, by both readers.
pub const MAX_REPEATS: usize = 1 << 16;

/// Longest task line: `T`, five tabs, the index (a `u32`: 10 digits), the count, the worker
/// microseconds and the time (`u64`s: 20 digits each), the 16-digit checksum, a newline.
pub const MAX_TASK_LINE: u64 = 1 + 5 + 10 + 3 * 20 + 16 + 1;

/// What a journal is for: a run may only continue a journal with the same header.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct JournalHeader {
    /// Board size.
    pub n: u32,
    /// The share of the task list counted.
    pub share: Share,
    /// The engine that counts the tasks.
    pub engine: TaskEngine,
    /// What runs the engine; `None` in a journal of the header's first version, which did not
    /// record it (a run of any device continues it, under that header).
    pub device: Option<JournalDevice>,
    /// The damier version that wrote the journal.
    pub version: String,
    /// The task format ([`TASK_FORMAT_VERSION`]).
    pub format: u32,
    /// Tasks in the whole list of n.
    pub tasks: u32,
    /// [`TaskList::fingerprint`].
    pub fingerprint: u64,
}

impl JournalHeader {
    /// The header of a count of `list` (this share, this engine, on the CPU) by this build of
    /// damier; [`JournalHeader::on`] another device.
    pub fn new(list: &TaskList, share: Share, engine: TaskEngine) -> Self {
        JournalHeader {
            n: list.n(),
            share,
            engine,
            device: Some(JournalDevice::Cpu),
            version: env!("CARGO_PKG_VERSION").to_string(),
            format: TASK_FORMAT_VERSION,
            tasks: list.len(),
            fingerprint: list.fingerprint(),
        }
    }

    /// This header with the tasks counted on `device`.
    pub fn on(self, device: JournalDevice) -> Self {
        JournalHeader { device: Some(device), ..self }
    }

    /// Whether a run headed `run` may continue a journal headed `self`: the same header, or
    /// one of the first version (no device recorded) that differs only there.
    fn continued_by(&self, run: &JournalHeader) -> bool {
        self == run || (self.device.is_none() && *self == JournalHeader { device: None, ..run.clone() })
    }

    /// Tasks in this header's share.
    pub fn share_tasks(&self) -> u32 {
        let (index, of) = (self.share.index(), self.share.of());
        if index >= self.tasks { 0 } else { (self.tasks - index).div_ceil(of) }
    }

    /// Whether task `index` belongs to this header's share.
    fn holds(&self, index: u32) -> bool {
        index < self.tasks && index % self.share.of() == self.share.index()
    }

    fn describe(&self) -> String {
        format!(
            "n = {}, share {}/{}, engine {} on {}, damier {}, task format {}, task list {:016x}",
            self.n,
            self.share.index() + 1,
            self.share.of(),
            self.engine.name(),
            self.device.map_or("a device not recorded", JournalDevice::name),
            self.version,
            self.format,
            self.fingerprint
        )
    }

    /// The header line; a header without a device in the first version's form, byte for byte
    /// (the checksums of its records are chained to it).
    fn line(&self) -> String {
        let (magic, device) = match self.device {
            None => (MAGIC, String::new()),
            Some(d) => (MAGIC_2, format!("\tdevice={}", d.name())),
        };
        let body = format!(
            "{magic}\tformat={}\tn={}\tshare={}/{}\tengine={}{device}\tversion={}\ttasks={}\tfingerprint={:016x}",
            self.format,
            self.n,
            self.share.index() + 1,
            self.share.of(),
            self.engine.name(),
            self.version,
            self.tasks,
            self.fingerprint
        );
        let sum = checksum(0, &body);
        format!("{body}\t{sum:016x}\n")
    }

    fn parse(line: &str) -> Option<JournalHeader> {
        let (body, sum) = line.rsplit_once('\t')?;
        if u64::from_str_radix(sum, 16).ok()? != checksum(0, body) || sum.len() != 16 {
            return None;
        }
        let mut fields = body.split('\t');
        let version_2 = match fields.next()? {
            MAGIC => false,
            MAGIC_2 => true,
            _ => return None,
        };
        let mut map = HashMap::new();
        for f in fields {
            let (k, v) = f.split_once('=')?;
            map.insert(k, v);
        }
        // The first version has no device; the second always has one.
        let device = match (version_2, map.get("device")) {
            (false, None) => None,
            (true, Some(name)) => Some(JournalDevice::from_name(name)?),
            _ => return None,
        };
        let (k, m) = map.get("share")?.split_once('/')?;
        let (k, m): (u32, u32) = (k.parse().ok()?, m.parse().ok()?);
        Some(JournalHeader {
            n: map.get("n")?.parse().ok()?,
            share: Share::new(k.checked_sub(1)?, m)?,
            engine: TaskEngine::from_name(map.get("engine")?)?,
            device,
            version: map.get("version")?.to_string(),
            format: map.get("format")?.parse().ok()?,
            tasks: map.get("tasks")?.parse().ok()?,
            fingerprint: u64::from_str_radix(map.get("fingerprint")?, 16).ok()?,
        })
    }

    fn hash(&self) -> u64 {
        checksum(0, self.line().trim_end())
    }
}

/// Why a journal cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file could not be read or written.
    #[error("journal {path}: {source}")]
    Io {
        /// The journal's path.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not a journal, or its header is damaged.
    #[error("{path} is not a damier queens journal (or its header is damaged)")]
    NotAJournal {
        /// The journal's path.
        path: PathBuf,
    },
    /// The journal records another count.
    #[error(
        "journal {path} was written for {}, not for {}: use another file",
        .found.describe(),
        .wanted.describe()
    )]
    Foreign {
        /// The journal's path.
        path: PathBuf,
        /// What it records.
        found: Box<JournalHeader>,
        /// What this run counts.
        wanted: Box<JournalHeader>,
    },
    /// A damaged record with good records after it, or contradictory records.
    #[error("journal {path} is corrupted at line {line}: {why}")]
    Corrupted {
        /// The journal's path.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// Another process holds the journal.
    #[error("journal {path} is in use by another process")]
    Busy {
        /// The journal's path.
        path: PathBuf,
    },
    /// The journal lists its tasks in another format than this build's.
    #[error(
        "journal {path} records tasks of format {found}; this damier reads format {TASK_FORMAT_VERSION} only"
    )]
    OtherFormat {
        /// The journal's path.
        path: PathBuf,
        /// The journal's task format.
        found: u32,
    },
    /// The file is too large to be a journal.
    #[error(
        "journal {path} is {len} bytes, more than any journal takes ({MAX_BYTES} bytes: every task of n = 28 at the longest record, with room)"
    )]
    TooLarge {
        /// The journal's path.
        path: PathBuf,
        /// Its length (at least, for a file still growing).
        len: u64,
    },
    /// The header names more tasks than any task list has.
    #[error("journal {path} names {tasks} tasks, more than any task list has ({MAX_TASKS}, n = 28)")]
    TooManyTasks {
        /// The journal's path.
        path: PathBuf,
        /// The tasks it names.
        tasks: u32,
    },
    /// Not a regular file: a device (`/dev/zero` never ends), a pipe, a folder.
    #[error("journal {path} is {what}, not a regular file: a journal is a file a count writes")]
    NotAFile {
        /// The journal's path.
        path: PathBuf,
        /// What it is instead ("a character device", "a pipe", ...).
        what: &'static str,
    },
}

/// What a file that is not a regular file is, for [`JournalError::NotAFile`].
fn kind_of(file_type: std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_fifo() {
            return "a pipe";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "something else"
}

/// Opens the journal at `path` with `options` and checks it before a byte is read: a regular
/// file of at most [`MAX_BYTES`]. (The reads that follow still stop past [`MAX_BYTES`]: the
/// file may grow meanwhile.)
fn open_checked(path: &Path, options: &mut OpenOptions) -> Result<File, JournalError> {
    let io = |source| JournalError::Io { path: path.to_path_buf(), source };
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A pipe opened for reading waits for a writer: opened without waiting, it is refused
        // below. (A regular file ignores the flag.)
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(JournalError::NotAFile { path: path.to_path_buf(), what: kind_of(meta.file_type()) });
    }
    if meta.len() > MAX_BYTES {
        return Err(JournalError::TooLarge { path: path.to_path_buf(), len: meta.len() });
    }
    Ok(file)
}

/// One finished task as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TaskRecord {
    /// Index in the task list.
    pub index: u32,
    /// Weighted count.
    pub count: u64,
    /// Worker time spent on it, in microseconds.
    pub micros: u64,
    /// When it finished (milliseconds since 1970).
    pub unix_ms: u64,
}

/// A session: one run that appended to the journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Session {
    /// When it started (milliseconds since 1970).
    pub unix_ms: u64,
    /// Worker threads it ran.
    pub threads: u32,
    /// Tasks it recorded.
    pub tasks: u64,
    /// When its last task finished (its start if none did).
    pub last_ms: u64,
}

/// What a journal holds, read back.
#[derive(Clone, Debug)]
pub struct JournalContents {
    /// What it is for.
    pub header: JournalHeader,
    /// Every task recorded once, in the order written.
    pub records: Vec<TaskRecord>,
    /// The runs that wrote it, oldest first.
    pub sessions: Vec<Session>,
    /// Bytes of the valid part (a torn tail after it is dropped).
    valid_len: u64,
    /// Lines dropped as a torn tail.
    pub torn_lines: usize,
}

impl JournalContents {
    /// The sum of the recorded tasks' counts, exact: a `u128` holds the sum of every task of
    /// any list (at most 2^32 records of a `u64` each), so a journal whose counts add up past a
    /// `u64` is read as it is and refused where a `u64` total is needed
    /// ([`super::total_from_sum`]), never wrapped.
    pub fn total(&self) -> u128 {
        self.records.iter().map(|r| u128::from(r.count)).sum()
    }

    /// Tasks of the share not recorded yet.
    pub fn left(&self) -> u64 {
        u64::from(self.header.share_tasks()) - self.records.len() as u64
    }

    /// Tasks finished per second of wall time, over all sessions (`None` before any).
    pub fn rate(&self) -> Option<f64> {
        let tasks: u64 = self.sessions.iter().map(|s| s.tasks).sum();
        // Summed as floats: the times come from the file and may add up beyond a u64.
        let ms: f64 = self.sessions.iter().map(|s| s.last_ms.saturating_sub(s.unix_ms) as f64).sum();
        (tasks > 0 && ms > 0.0).then(|| tasks as f64 * 1000.0 / ms)
    }

    /// Seconds until the share is done at [`JournalContents::rate`].
    pub fn eta_seconds(&self) -> Option<f64> {
        self.rate().map(|r| self.left() as f64 / r)
    }

    /// Worker seconds spent on the recorded tasks.
    pub fn task_seconds(&self) -> f64 {
        self.records.iter().map(|r| r.micros as f64).sum::<f64>() / 1e6
    }
}

/// What a journal says of its count's progress, answered alike by [`JournalContents`] (every
/// record held) and by [`JournalSummary`] (folded as read: memory independent of the
/// journal's length).
pub trait JournalProgress {
    /// What the journal is for.
    fn header(&self) -> &JournalHeader;
    /// Tasks recorded (each once).
    fn done(&self) -> u64;
    /// Tasks of the share not recorded yet.
    fn left(&self) -> u64;
    /// The sum of the recorded tasks' counts, exact.
    fn total(&self) -> u128;
    /// Runs that wrote the journal.
    fn sessions(&self) -> usize;
    /// Lines dropped as a torn tail.
    fn torn_lines(&self) -> usize;
    /// Worker seconds spent on the recorded tasks.
    fn task_seconds(&self) -> f64;
    /// Tasks finished per second of wall time, over all sessions.
    fn rate(&self) -> Option<f64>;
    /// Seconds until the share is done at that rate.
    fn eta_seconds(&self) -> Option<f64>;
}

impl JournalProgress for JournalContents {
    fn header(&self) -> &JournalHeader {
        &self.header
    }
    fn done(&self) -> u64 {
        self.records.len() as u64
    }
    fn left(&self) -> u64 {
        JournalContents::left(self)
    }
    fn total(&self) -> u128 {
        JournalContents::total(self)
    }
    fn sessions(&self) -> usize {
        self.sessions.len()
    }
    fn torn_lines(&self) -> usize {
        self.torn_lines
    }
    fn task_seconds(&self) -> f64 {
        JournalContents::task_seconds(self)
    }
    fn rate(&self) -> Option<f64> {
        JournalContents::rate(self)
    }
    fn eta_seconds(&self) -> Option<f64> {
        JournalContents::eta_seconds(self)
    }
}

impl JournalProgress for JournalSummary {
    fn header(&self) -> &JournalHeader {
        &self.header
    }
    fn done(&self) -> u64 {
        self.done
    }
    fn left(&self) -> u64 {
        JournalSummary::left(self)
    }
    fn total(&self) -> u128 {
        JournalSummary::total(self)
    }
    fn sessions(&self) -> usize {
        self.sessions
    }
    fn torn_lines(&self) -> usize {
        self.torn_lines
    }
    fn task_seconds(&self) -> f64 {
        JournalSummary::task_seconds(self)
    }
    fn rate(&self) -> Option<f64> {
        JournalSummary::rate(self)
    }
    fn eta_seconds(&self) -> Option<f64> {
        JournalSummary::eta_seconds(self)
    }
}

fn checksum(chain: u64, text: &str) -> u64 {
    let mut h = Fnv1a::new();
    h.write(&chain.to_le_bytes());
    h.write(text.as_bytes());
    h.finish()
}

fn unix_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// One record line body (without its checksum).
enum Line {
    Session { unix_ms: u64, threads: u32 },
    Task(TaskRecord),
}

impl Line {
    fn body(&self) -> String {
        match self {
            Line::Session { unix_ms, threads } => format!("S\t{unix_ms}\t{threads}"),
            Line::Task(r) => format!("T\t{}\t{}\t{}\t{}", r.index, r.count, r.micros, r.unix_ms),
        }
    }

    fn encode(&self, chain: u64) -> String {
        let body = self.body();
        let sum = checksum(chain, &body);
        format!("{body}\t{sum:016x}\n")
    }

    fn decode(chain: u64, line: &str) -> Option<Line> {
        let (body, sum) = line.rsplit_once('\t')?;
        if sum.len() != 16 || u64::from_str_radix(sum, 16).ok()? != checksum(chain, body) {
            return None;
        }
        // PERF: the fields split in place (no vector per line: a journal has millions).
        let mut f = body.split('\t');
        let mut field = || f.next();
        let line = match field()? {
            "S" => Line::Session { unix_ms: field()?.parse().ok()?, threads: field()?.parse().ok()? },
            "T" => Line::Task(TaskRecord {
                index: field()?.parse().ok()?,
                count: field()?.parse().ok()?,
                micros: field()?.parse().ok()?,
                unix_ms: field()?.parse().ok()?,
            }),
            _ => return None,
        };
        field().is_none().then_some(line)
    }
}

/// Reads a journal (any header), dropping a torn tail. Anything but a regular file of at most
/// [`MAX_BYTES`] is refused before a byte is read; the file is read line by line, never held
/// whole (what the answer holds is its records).
pub fn read(path: &Path) -> Result<JournalContents, JournalError> {
    let file = open_checked(path, OpenOptions::new().read(true))?;
    parse(path, file)?.ok_or_else(|| JournalError::NotAJournal { path: path.to_path_buf() })
}

/// Longest line kept to be decoded: a task line is at most [`MAX_TASK_LINE`] bytes, a session
/// line 51, a header a few hundred. A longer line is damage: it is skipped, not held.
const MAX_LINE: usize = 4096;

/// A line as [`next_line`] read it.
struct LineRead {
    /// Bytes it took from the file, its newline included.
    len: u64,
    /// Whether it ended with a newline (else the file ended first).
    newline: bool,
    /// Whether it was longer than [`MAX_LINE`] (only its start was kept).
    cut: bool,
}

/// The next line of `r` into `buf` (its first [`MAX_LINE`] bytes, without the newline);
/// `None` at the end of the file.
fn next_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<LineRead>> {
    buf.clear();
    let (mut len, mut newline) = (0u64, false);
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        let (take, found) =
            chunk.iter().position(|&b| b == b'\n').map_or((chunk.len(), false), |p| (p, true));
        let room = MAX_LINE - buf.len();
        buf.extend_from_slice(&chunk[..take.min(room)]);
        len += (take + usize::from(found)) as u64;
        r.consume(take + usize::from(found));
        if found {
            newline = true;
            break;
        }
    }
    if len == 0 {
        return Ok(None);
    }
    let cut = len - u64::from(newline) > buf.len() as u64;
    Ok(Some(LineRead { len, newline, cut }))
}

/// The header of a journal read from `r` and the length of its line (its newline included);
/// `None` when not even the header line is complete.
fn read_header(
    path: &Path,
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
) -> Result<Option<(JournalHeader, u64)>, JournalError> {
    let io = |source| JournalError::Io { path: path.to_path_buf(), source };
    let not_a_journal = || JournalError::NotAJournal { path: path.to_path_buf() };
    let Some(first) = next_line(r, buf).map_err(io)? else { return Ok(None) };
    if first.len > MAX_BYTES {
        return Err(JournalError::TooLarge { path: path.to_path_buf(), len: first.len });
    }
    if !first.newline {
        // A header cut short is a journal torn while being created, unless it says otherwise.
        return if MAGIC.as_bytes().starts_with(&buf[..buf.len().min(MAGIC.len())]) {
            Ok(None)
        } else {
            Err(not_a_journal())
        };
    }
    let header = Some(&buf[..])
        .filter(|_| !first.cut)
        .and_then(|b| std::str::from_utf8(b).ok())
        .and_then(JournalHeader::parse)
        .ok_or_else(not_a_journal)?;
    if header.format != TASK_FORMAT_VERSION {
        return Err(JournalError::OtherFormat { path: path.to_path_buf(), found: header.format });
    }
    if header.tasks > MAX_TASKS {
        return Err(JournalError::TooManyTasks { path: path.to_path_buf(), tasks: header.tasks });
    }
    Ok(Some((header, first.len)))
}

/// A point of a journal between two lines: its byte offset and the number of the line before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Position {
    /// Bytes before it.
    at: u64,
    /// 1-based number of the line that ends there (1: the header).
    line_no: usize,
}

/// Where a [`scan`] ended: the end of the last good line, and the torn lines after it.
struct ScanEnd {
    valid: Position,
    torn_lines: usize,
}

/// What [`scan`] hands the good records of a journal to, in the order written.
trait Sink {
    /// Whether a session started (a task before any is corruption).
    fn in_session(&self) -> bool;
    /// A session line.
    fn session(&mut self, unix_ms: u64, threads: u32);
    /// A task line of the header's share, at line `line_no`; an error for a contradiction.
    fn task(&mut self, path: &Path, r: TaskRecord, line_no: usize) -> Result<(), JournalError>;
    /// Each good line's bytes (without the newline), after it is handed over.
    fn good_line(&mut self, _bytes: &[u8]) {}
    /// The first error in the lines handed over so far that the sink left to check later;
    /// called before any other error is returned, and at the end.
    fn settle(&mut self, _path: &Path) -> Result<(), JournalError> {
        Ok(())
    }
}

/// Reads the records of a journal headed `header` from `r`, which starts at `from`, into
/// `sink`: a torn tail (bad lines at the end) is counted and dropped; a bad line followed by a
/// good one, a task outside the share or before any session is corruption.
fn scan(
    path: &Path,
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    header: &JournalHeader,
    from: Position,
    sink: &mut impl Sink,
) -> Result<ScanEnd, JournalError> {
    let io = |source| JournalError::Io { path: path.to_path_buf(), source };
    let corrupted =
        |line: usize, why: String| JournalError::Corrupted { path: path.to_path_buf(), line, why };
    let chain = header.hash();
    let (mut at, mut line_no, mut valid) = (from.at, from.line_no, from);
    // The first bad line, if no good one follows it (a torn tail).
    let mut bad: Option<usize> = None;
    let mut torn_lines = 0;
    while let Some(l) = next_line(r, buf).map_err(io)? {
        line_no += 1;
        at += l.len;
        let decoded = if l.newline && !l.cut {
            std::str::from_utf8(buf).ok().and_then(|t| Line::decode(chain, t))
        } else {
            None
        };
        let Some(line) = decoded else {
            bad.get_or_insert(line_no);
            torn_lines += 1;
            continue;
        };
        if let Some(b) = bad {
            let e = corrupted(b, "a damaged record followed by good ones".into());
            return Err(first_of(sink, path, e));
        }
        valid = Position { at, line_no };
        match line {
            Line::Session { unix_ms, threads } => sink.session(unix_ms, threads),
            Line::Task(r) => {
                if !header.holds(r.index) {
                    let e = corrupted(line_no, format!("task {} is not in this share", r.index));
                    return Err(first_of(sink, path, e));
                }
                if !sink.in_session() {
                    let e = corrupted(line_no, "a task before any session".into());
                    return Err(first_of(sink, path, e));
                }
                sink.task(path, r, line_no)?;
            }
        }
        sink.good_line(buf);
    }
    if at > MAX_BYTES {
        let e = JournalError::TooLarge { path: path.to_path_buf(), len: at };
        return Err(first_of(sink, path, e));
    }
    sink.settle(path)?;
    Ok(ScanEnd { valid, torn_lines })
}

/// `e`, unless `sink` holds an error at an earlier line.
fn first_of(sink: &mut impl Sink, path: &Path, e: JournalError) -> JournalError {
    sink.settle(path).err().unwrap_or(e)
}

/// [`read`]'s sink: every record, each task once.
#[derive(Default)]
struct Records {
    records: Vec<TaskRecord>,
    /// The count of each task recorded.
    seen: HashMap<u32, u64>,
    /// The tasks recorded more than once (at most [`MAX_REPEATS`]).
    repeated: HashSet<u32>,
    sessions: Vec<Session>,
}

impl Sink for Records {
    fn in_session(&self) -> bool {
        !self.sessions.is_empty()
    }

    fn session(&mut self, unix_ms: u64, threads: u32) {
        self.sessions.push(Session { unix_ms, threads, tasks: 0, last_ms: unix_ms });
    }

    fn task(&mut self, path: &Path, r: TaskRecord, line_no: usize) -> Result<(), JournalError> {
        if let Some(&c) = self.seen.get(&r.index) {
            if !self.repeated.contains(&r.index) {
                if self.repeated.len() >= MAX_REPEATS {
                    return Err(too_many_repeats(path, line_no, r.index));
                }
                self.repeated.insert(r.index);
            }
            if c != r.count {
                return Err(JournalError::Corrupted {
                    path: path.to_path_buf(),
                    line: line_no,
                    why: twice(r.index, c, r.count),
                });
            }
            return Ok(());
        }
        self.seen.insert(r.index, r.count);
        let session = self.sessions.last_mut().expect("a session started");
        session.tasks += 1;
        session.last_ms = session.last_ms.max(r.unix_ms);
        self.records.push(r);
        Ok(())
    }
}

/// What is wrong with a task recorded with the counts `first`, then `then`.
fn twice(index: u32, first: u64, then: u64) -> String {
    format!("task {index} recorded twice, with counts {first} and {then}")
}

/// Task `index` recorded again at `line` when [`MAX_REPEATS`] tasks already were.
fn too_many_repeats(path: &Path, line: usize, index: u32) -> JournalError {
    JournalError::Corrupted {
        path: path.to_path_buf(),
        line,
        why: format!(
            "task {index} recorded again, after {MAX_REPEATS} other tasks recorded twice: a count records each task once"
        ),
    }
}

/// Parses a journal, read line by line from `file` (at most [`MAX_BYTES`] of it); `None`
/// when not even the header line is complete.
fn parse(path: &Path, file: impl Read) -> Result<Option<JournalContents>, JournalError> {
    // PERF: read in blocks of 64 KiB, one line at a time: the bytes are never held whole.
    let mut r = std::io::BufReader::with_capacity(1 << 16, file.take(MAX_BYTES + 1));
    let mut buf = Vec::with_capacity(MAX_LINE);
    let Some((header, len)) = read_header(path, &mut r, &mut buf)? else { return Ok(None) };
    let mut sink = Records::default();
    let end = scan(path, &mut r, &mut buf, &header, Position { at: len, line_no: 1 }, &mut sink)?;
    Ok(Some(JournalContents {
        header,
        records: sink.records,
        sessions: sink.sessions,
        valid_len: end.valid.at,
        torn_lines: end.torn_lines,
    }))
}

/// An open journal that a run appends to (see the module docs).
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    chain: u64,
    state: Mutex<Writer>,
}

#[derive(Debug)]
struct Writer {
    file: File,
    last_sync: Instant,
    unsynced: bool,
    /// The first write error, reported by [`Journal::finish`].
    failed: Option<std::io::Error>,
}

impl Journal {
    /// Opens the journal at `path` for a run with this header, creating it if it does not
    /// exist (or holds only a header torn while being created); returns it with what it
    /// already holds. Drops a torn tail, records a new session, and locks the file against
    /// other processes until the journal is dropped.
    pub fn open(
        path: &Path,
        header: &JournalHeader,
        threads: u32,
    ) -> Result<(Journal, JournalContents), JournalError> {
        let io = |source| JournalError::Io { path: path.to_path_buf(), source };
        let mut file =
            open_checked(path, OpenOptions::new().read(true).write(true).create(true).truncate(false))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(JournalError::Busy { path: path.to_path_buf() });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
        }
        let contents = match parse(path, &file)? {
            Some(c) => {
                if !c.header.continued_by(header) {
                    return Err(JournalError::Foreign {
                        path: path.to_path_buf(),
                        found: Box::new(c.header.clone()),
                        wanted: Box::new(header.clone()),
                    });
                }
                file.set_len(c.valid_len).map_err(io)?;
                c
            }
            None => {
                file.set_len(0).map_err(io)?;
                let line = header.line();
                file.seek(SeekFrom::Start(0)).map_err(io)?;
                file.write_all(line.as_bytes()).map_err(io)?;
                JournalContents {
                    header: header.clone(),
                    records: Vec::new(),
                    sessions: Vec::new(),
                    valid_len: line.len() as u64,
                    torn_lines: 0,
                }
            }
        };
        file.seek(SeekFrom::Start(contents.valid_len)).map_err(io)?;
        // The file's header: a journal of the first version keeps its own.
        let chain = contents.header.hash();
        let start = unix_ms();
        file.write_all(Line::Session { unix_ms: start, threads }.encode(chain).as_bytes()).map_err(io)?;
        file.sync_data().map_err(io)?;
        let state = Mutex::new(Writer { file, last_sync: Instant::now(), unsynced: false, failed: None });
        Ok((Journal { path: path.to_path_buf(), chain, state }, contents))
    }

    /// Appends one finished task (one `write`), and flushes the file to the disk if the last
    /// flush is older than [`SYNC_INTERVAL`]. Safe to call from many threads. A write error is
    /// kept and returned by [`Journal::finish`].
    pub fn record(&self, done: TaskDone) {
        let record = TaskRecord {
            index: done.index,
            count: done.count,
            micros: done.elapsed.as_micros() as u64,
            unix_ms: unix_ms(),
        };
        let line = Line::Task(record).encode(self.chain);
        let mut w = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if w.failed.is_some() {
            return;
        }
        // PERF: one write per record (what survives a kill), a flush to the disk per interval
        // (an fdatasync costs milliseconds).
        let mut result = w.file.write_all(line.as_bytes());
        w.unsynced = true;
        if result.is_ok() && w.last_sync.elapsed() >= SYNC_INTERVAL {
            result = w.file.sync_data();
            w.last_sync = Instant::now();
            w.unsynced = false;
        }
        if let Err(e) = result {
            w.failed = Some(e);
        }
    }

    /// Flushes the journal to the disk; fails with the first error any record met.
    pub fn finish(&self) -> Result<(), JournalError> {
        let mut w = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let io = |source| JournalError::Io { path: self.path.clone(), source };
        if let Some(e) = w.failed.take() {
            return Err(io(e));
        }
        if w.unsynced {
            w.file.sync_data().map_err(io)?;
            w.unsynced = false;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::queens::count::tasks::count_tasks;

    fn header(n: u32, share: Share) -> (TaskList, JournalHeader) {
        let list = TaskList::new(n).unwrap();
        let h = JournalHeader::new(&list, share, TaskEngine::Quarters);
        (list, h)
    }

    fn done(index: u32, count: u64) -> TaskDone {
        TaskDone { index, count, elapsed: Duration::from_micros(10 + u64::from(index)) }
    }

    /// Runs the share's tasks not in the journal, recording them; the journal's total after.
    fn run(path: &Path, n: u32, share: Share, limit: Option<usize>) -> u128 {
        let (list, h) = header(n, share);
        let (journal, held) = Journal::open(path, &h, 1).unwrap();
        let have: std::collections::HashSet<u32> = held.records.iter().map(|r| r.index).collect();
        let mut left: Vec<u32> =
            list.share_indices(share).into_iter().filter(|i| !have.contains(i)).collect();
        left.truncate(limit.unwrap_or(usize::MAX));
        count_tasks(
            &list,
            TaskEngine::Quarters,
            crate::cpu::Isa::best(),
            None,
            &left,
            &Control::new(),
            &|d| journal.record(d),
        )
        .unwrap();
        journal.finish().unwrap();
        read(path).unwrap().total()
    }

    #[test]
    fn resume_equals_an_uninterrupted_run() {
        let dir = tempfile_dir();
        let whole = dir.join("whole");
        assert_eq!(run(&whole, 11, Share::WHOLE, None), 2680);
        let parts = dir.join("parts");
        run(&parts, 11, Share::WHOLE, Some(7));
        run(&parts, 11, Share::WHOLE, Some(20));
        assert_eq!(read(&parts).unwrap().records.len(), 27);
        assert_eq!(run(&parts, 11, Share::WHOLE, None), 2680);
        let c = read(&parts).unwrap();
        assert_eq!((c.left(), c.sessions.len(), c.records.len() as u32), (0, 3, c.header.share_tasks()));
        // Shares journalled apart add up.
        let sum: u128 =
            (0..3).map(|i| run(&dir.join(format!("s{i}")), 11, Share::new(i, 3).unwrap(), None)).sum();
        assert_eq!(sum, 2680);
    }

    /// A journal of n = 9 with three records, and the byte offset where the last one starts.
    fn three_records(path: &Path) -> (Vec<u8>, usize) {
        three_records_n(path, 9)
    }

    fn three_records_n(path: &Path, n: u32) -> (Vec<u8>, usize) {
        let (_, h) = header(n, Share::WHOLE);
        let (j, _) = Journal::open(path, &h, 2).unwrap();
        j.record(done(0, 5));
        j.record(done(1, 7));
        let before = std::fs::metadata(path).unwrap().len() as usize;
        j.record(done(2, 11));
        j.finish().unwrap();
        drop(j);
        (std::fs::read(path).unwrap(), before)
    }

    #[test]
    fn a_torn_last_record_at_any_byte_loses_only_that_task() {
        let dir = tempfile_dir();
        let path = dir.join("j");
        let (bytes, last) = three_records(&path);
        for cut in last..bytes.len() {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let c = read(&path).unwrap();
            assert_eq!(c.records.iter().map(|r| r.index).collect::<Vec<_>>(), [0, 1], "cut at {cut}");
            assert_eq!(c.total(), 12);
            // Reopening drops the tail, and a new record follows cleanly.
            let (_, h) = header(9, Share::WHOLE);
            let (j, held) = Journal::open(&path, &h, 1).unwrap();
            assert_eq!(held.records.len(), 2);
            j.record(done(2, 11));
            j.finish().unwrap();
            drop(j);
            let c = read(&path).unwrap();
            assert_eq!((c.total(), c.torn_lines, c.sessions.len()), (23, 0, 2), "cut at {cut}");
        }
        // The whole file is fine; a header cut short starts afresh.
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read(&path).unwrap().total(), 23);
        for cut in 0..bytes.iter().position(|&b| b == b'\n').unwrap() {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let (_, h) = header(9, Share::WHOLE);
            let (_, held) = Journal::open(&path, &h, 1).unwrap();
            assert!(held.records.is_empty(), "header cut at {cut}");
        }
    }

    #[test]
    fn corrupted_records_are_refused_or_dropped() {
        let dir = tempfile_dir();
        let path = dir.join("j");
        let (bytes, last) = three_records(&path);
        let text = String::from_utf8(bytes.clone()).unwrap();
        // A flipped digit in the middle record's count: its checksum no longer matches, and
        // good records follow, so the journal is refused.
        let middle = text.find("\nT\t1\t7\t").unwrap() + 5;
        let mut bad = bytes.clone();
        bad[middle] = b'8';
        std::fs::write(&path, &bad).unwrap();
        let e = read(&path).unwrap_err();
        assert!(matches!(e, JournalError::Corrupted { line: 4, .. }), "{e}");
        // A wrong checksum on the last record: a torn tail, dropped.
        let mut bad = bytes.clone();
        let end = bad.len() - 2;
        bad[end] = if bad[end] == b'0' { b'1' } else { b'0' };
        std::fs::write(&path, &bad).unwrap();
        assert_eq!(read(&path).unwrap().total(), 12);
        // A record copied from another journal does not match this header's chain.
        let mut mixed = bytes[..last].to_vec();
        let other = dir.join("other");
        let (other_bytes, other_last) = three_records_n(&other, 10);
        mixed.extend_from_slice(&other_bytes[other_last..]);
        std::fs::write(&path, &mixed).unwrap();
        assert_eq!(read(&path).unwrap().records.len(), 2);
        // The same task twice with two counts.
        let (_, h) = header(9, Share::WHOLE);
        std::fs::remove_file(&path).unwrap();
        let (j, _) = Journal::open(&path, &h, 1).unwrap();
        j.record(done(3, 1));
        j.record(done(3, 1));
        j.finish().unwrap();
        drop(j);
        assert_eq!(read(&path).unwrap().records.len(), 1, "a repeated record counts once");
        let (j, _) = Journal::open(&path, &h, 1).unwrap();
        j.record(done(3, 2));
        j.record(done(4, 2));
        j.finish().unwrap();
        drop(j);
        assert!(matches!(read(&path).unwrap_err(), JournalError::Corrupted { .. }));
        // Not a journal at all.
        std::fs::write(&path, b"hello\nworld\n").unwrap();
        assert!(matches!(read(&path).unwrap_err(), JournalError::NotAJournal { .. }));
        assert!(matches!(Journal::open(&path, &h, 1).unwrap_err(), JournalError::NotAJournal { .. }));
    }

    #[test]
    fn a_foreign_header_is_refused() {
        let dir = tempfile_dir();
        let path = dir.join("j");
        three_records(&path);
        let list = TaskList::new(9).unwrap();
        let others = [
            JournalHeader::new(&TaskList::new(10).unwrap(), Share::WHOLE, TaskEngine::Quarters),
            JournalHeader::new(&list, Share::new(0, 2).unwrap(), TaskEngine::Quarters),
            JournalHeader::new(&list, Share::WHOLE, TaskEngine::Backtrack),
            JournalHeader {
                version: "0.0.0-other".into(),
                ..JournalHeader::new(&list, Share::WHOLE, TaskEngine::Quarters)
            },
            JournalHeader { format: 99, ..JournalHeader::new(&list, Share::WHOLE, TaskEngine::Quarters) },
            // Another task list of the same n, format and version.
            JournalHeader { fingerprint: 1, ..JournalHeader::new(&list, Share::WHOLE, TaskEngine::Quarters) },
            // The same count on another device.
            JournalHeader::new(&list, Share::WHOLE, TaskEngine::Quarters).on(JournalDevice::CpuAndGpu),
        ];
        for h in others {
            let e = Journal::open(&path, &h, 1).unwrap_err();
            assert!(matches!(e, JournalError::Foreign { .. }), "{e}");
            // The message shows what differs.
            let (found, wanted) = match &e {
                JournalError::Foreign { found, wanted, .. } => (found, wanted),
                _ => unreachable!(),
            };
            assert_ne!(found.describe(), wanted.describe(), "{e}");
            assert!(
                e.to_string().contains(&found.describe()) && e.to_string().contains(&wanted.describe()),
                "{e}"
            );
        }
        // Still intact.
        assert_eq!(read(&path).unwrap().total(), 23);
        // A journal of another task format is refused on reading too, with the format named.
        let other =
            JournalHeader { format: 2, ..JournalHeader::new(&list, Share::WHOLE, TaskEngine::Quarters) };
        std::fs::write(&path, other.line()).unwrap();
        let e = read(&path).unwrap_err();
        assert!(matches!(e, JournalError::OtherFormat { found: 2, .. }), "{e}");
        assert!(e.to_string().contains("format 2") && e.to_string().contains("format 1 only"), "{e}");
    }

    #[test]
    fn a_held_journal_is_busy() {
        let dir = tempfile_dir();
        let path = dir.join("j");
        let (_, h) = header(8, Share::WHOLE);
        let (held, _) = Journal::open(&path, &h, 1).unwrap();
        assert!(matches!(Journal::open(&path, &h, 1).unwrap_err(), JournalError::Busy { .. }));
        drop(held);
        assert!(Journal::open(&path, &h, 1).is_ok());
    }

    #[test]
    fn rate_and_eta_come_from_the_sessions() {
        let (_, h) = header(9, Share::WHOLE);
        let chain = h.hash();
        let mut text = h.line();
        text += &Line::Session { unix_ms: 1_000, threads: 2 }.encode(chain);
        for i in 0..4 {
            let r =
                TaskRecord { index: i, count: 1, micros: 500_000, unix_ms: 1_000 + 500 * u64::from(i + 1) };
            text += &Line::Task(r).encode(chain);
        }
        let c = parse(Path::new("x"), text.as_bytes()).unwrap().unwrap();
        assert_eq!(c.rate(), Some(2.0));
        assert_eq!(c.eta_seconds(), Some((h.share_tasks() - 4) as f64 / 2.0));
        assert_eq!(c.task_seconds(), 2.0);
    }

    /// A journal whose records are these counts (tasks 0, 1, ... of n = 9), parsed.
    fn with_counts(counts: &[u64]) -> JournalContents {
        let (_, h) = header(9, Share::WHOLE);
        let chain = h.hash();
        let mut text = h.line();
        text += &Line::Session { unix_ms: u64::MAX, threads: 2 }.encode(chain);
        for (index, &count) in (0..).zip(counts) {
            let r = TaskRecord { index, count, micros: u64::MAX, unix_ms: u64::MAX };
            text += &Line::Task(r).encode(chain);
        }
        parse(Path::new("x"), text.as_bytes()).unwrap().unwrap()
    }

    #[test]
    fn counts_adding_up_beyond_a_u64_are_summed_exactly_and_refused_as_a_total() {
        // Seen while writing the `journal` fuzz target (docs/fuzzing.md): `total` overflowed.
        // The sum is exact in a u128; only its use as a count's total is refused.
        let c = with_counts(&[u64::MAX / 2 + 1, u64::MAX / 2 + 1]);
        assert_eq!(c.total(), 1u128 << 64);
        let e = crate::queens::count::total_from_sum(c.total()).unwrap_err();
        assert_eq!(e, crate::queens::count::CountError::TotalTooLarge { total: 1 << 64 });
        assert!(e.to_string().contains("18446744073709551616"), "{e}");
        // Up to the top of a u64 the total is fine.
        let c = with_counts(&[u64::MAX - 5, 2, 3]);
        assert_eq!(crate::queens::count::total_from_sum(c.total()), Ok(u64::MAX));
        // Every count at the top: no overflow, no panic, and the summaries stay finite.
        let c = with_counts(&[u64::MAX; 40]);
        assert_eq!(c.total(), 40 * u128::from(u64::MAX));
        assert_eq!(c.task_seconds(), 40.0 * u64::MAX as f64 / 1e6);
        assert_eq!(c.rate(), None);
    }

    /// A fresh directory, removed when dropped.
    pub(super) struct TempDir(PathBuf);

    impl TempDir {
        pub(super) fn join(&self, name: impl AsRef<Path>) -> PathBuf {
            self.0.join(name)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    pub(super) fn tempfile_dir() -> TempDir {
        use std::sync::atomic::{AtomicU32, Ordering};
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "damier-journal-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// Lines longer than any record (held only up to `MAX_LINE`): one at the end is a torn
    /// tail, dropped and cut off by the next run; one before good records is corruption; a
    /// header that long is not a journal's.
    #[test]
    fn overlong_lines_are_damage_and_are_not_held() {
        let dir = tempfile_dir();
        let path = dir.join("j");
        let (bytes, last) = three_records(&path);
        let long = vec![b'x'; 3 * MAX_LINE + 17];
        for newline in [false, true] {
            let mut v = bytes.clone();
            v.extend_from_slice(&long);
            if newline {
                v.push(b'\n');
            }
            std::fs::write(&path, &v).unwrap();
            let c = read(&path).unwrap();
            assert_eq!((c.records.len(), c.torn_lines, c.valid_len), (3, 1, bytes.len() as u64));
        }
        let mut v = bytes[..last].to_vec();
        v.extend_from_slice(&long);
        v.push(b'\n');
        v.extend_from_slice(&bytes[last..]);
        std::fs::write(&path, &v).unwrap();
        assert!(matches!(read(&path).unwrap_err(), JournalError::Corrupted { line: 5, .. }));
        // Continued: the torn tail is cut off and the journal goes on.
        let mut v = bytes.clone();
        v.extend_from_slice(&long);
        std::fs::write(&path, &v).unwrap();
        let (_, h) = header(9, Share::WHOLE);
        let (j, held) = Journal::open(&path, &h, 1).unwrap();
        assert_eq!(held.records.len(), 3);
        j.record(done(4, 1));
        j.finish().unwrap();
        drop(j);
        assert_eq!(read(&path).unwrap().total(), 24);
        let mut header_line = MAGIC.as_bytes().to_vec();
        header_line.extend_from_slice(&long);
        header_line.push(b'\n');
        std::fs::write(&path, &header_line).unwrap();
        assert!(matches!(read(&path).unwrap_err(), JournalError::NotAJournal { .. }));
    }

    /// The bound holds the largest real journal: every task of n = 28 at the longest task line,
    /// its header and a million sessions at the longest session line.
    #[test]
    fn the_byte_bound_holds_a_whole_count_of_28() {
        let widest = TaskRecord { index: u32::MAX, count: u64::MAX, micros: u64::MAX, unix_ms: u64::MAX };
        assert_eq!(Line::Task(widest).encode(u64::MAX).len() as u64, MAX_TASK_LINE);
        let session = Line::Session { unix_ms: u64::MAX, threads: u32::MAX }.encode(u64::MAX).len() as u64;
        assert_eq!(session, 51);
        // Tasks of 28: the column sets of 14 of 28, a set and its mirror image once.
        let (sets, own_mirror) = ((15..=28u64).product::<u64>() / (1..=14u64).product::<u64>(), 3_432);
        let tasks = (sets + own_mirror) / 2;
        assert_eq!(tasks, 20_060_016);
        assert_eq!(tasks, u64::from(MAX_TASKS));
        assert_eq!(super::super::tasks::MAX_TASK_N, 28);
        let list = TaskList::new(9).unwrap();
        let mut h = JournalHeader::new(&list, Share::WHOLE, TaskEngine::Backtrack);
        h.n = 28;
        h.tasks = u32::MAX;
        let needed = h.line().len() as u64 + tasks * MAX_TASK_LINE + 1_000_000 * session;
        assert!(needed < MAX_BYTES, "{needed} > {MAX_BYTES}");
    }

    /// Issue 49: `serve --journal /dev/zero` read 2 GiB at every request. Anything but a
    /// regular file is refused before a byte is read (a pipe without waiting for a writer), and
    /// a file over the bound from its length.
    #[test]
    fn devices_pipes_folders_and_oversized_files_are_refused_unread() {
        let (_, h) = header(9, Share::WHOLE);
        let not_a_file = |r: Result<(), JournalError>, what: &str| match r {
            Err(JournalError::NotAFile { what: w, .. }) => assert_eq!(w, what),
            other => panic!("{what}: {other:?}"),
        };
        #[cfg(unix)]
        {
            let dev = Path::new("/dev/zero");
            not_a_file(read(dev).map(drop), "a character device");
            not_a_file(Journal::open(dev, &h, 1).map(drop), "a character device");
            let e = read(dev).unwrap_err().to_string();
            assert_eq!(
                e,
                "journal /dev/zero is a character device, not a regular file: a journal is a file a count writes"
            );
        }
        let dir = tempfile_dir();
        not_a_file(read(&dir.0).map(drop), "a folder");
        #[cfg(unix)]
        {
            let fifo = dir.join("fifo");
            let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: a valid C string; mkfifo only creates the node.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            // No writer ever comes: a reader that waited for one would never answer.
            let (tx, rx) = std::sync::mpsc::channel();
            let (f1, f2) = (fifo.clone(), fifo.clone());
            let hh = h.clone();
            std::thread::spawn(move || {
                let _ = tx.send((read(&f1).map(drop), Journal::open(&f2, &hh, 1).map(drop)));
            });
            let (r, o) = rx.recv_timeout(Duration::from_secs(20)).expect("a pipe blocked the reader");
            not_a_file(r, "a pipe");
            not_a_file(o, "a pipe");
        }
        // A sparse file one byte over the bound: refused from its length, nothing read.
        let big = dir.join("big");
        File::create(&big).unwrap().set_len(MAX_BYTES + 1).unwrap();
        for e in [read(&big).unwrap_err(), Journal::open(&big, &h, 1).unwrap_err()] {
            assert!(matches!(e, JournalError::TooLarge { len, .. } if len == MAX_BYTES + 1), "{e:?}");
        }
        assert_eq!(std::fs::metadata(&big).unwrap().len(), MAX_BYTES + 1, "left as it was");
    }

    /// A journal written before headers recorded the device (the first version, as a GPU
    /// count wrote it: headed `backtrack`) still reads and resumes, by a GPU count or a CPU
    /// one, under its own header; a new journal records its device and refuses another.
    #[test]
    fn a_journal_of_the_first_header_version_resumes_on_any_device() {
        let dir = tempfile_dir();
        let path = dir.join("old.journal");
        let list = TaskList::new(9).unwrap();
        let new = JournalHeader::new(&list, Share::WHOLE, TaskEngine::Backtrack);
        let old = JournalHeader { device: None, ..new.clone() };
        // The first version's header, as its code wrote it.
        let body = format!(
            "damier-queens-journal\tformat={TASK_FORMAT_VERSION}\tn=9\tshare=1/1\tengine=backtrack\tversion={}\ttasks={}\tfingerprint={:016x}",
            env!("CARGO_PKG_VERSION"),
            list.len(),
            list.fingerprint()
        );
        assert_eq!(old.line(), format!("{body}\t{:016x}\n", checksum(0, &body)));
        {
            let (j, _) = Journal::open(&path, &old, 1).unwrap();
            j.record(done(0, 5));
            j.record(done(3, 7));
            j.finish().unwrap();
        }
        for (device, index, count) in [(JournalDevice::Gpu, 4, 11), (JournalDevice::Cpu, 6, 13)] {
            let (j, held) = Journal::open(&path, &new.clone().on(device), 1).unwrap();
            assert_eq!(held.header, old);
            j.record(done(index, count));
            j.finish().unwrap();
        }
        let c = read(&path).unwrap();
        assert_eq!((c.header.device, c.records.len(), c.total()), (None, 4, 36));
        assert!(std::fs::read_to_string(&path).unwrap().starts_with(&body));
        // A new journal says what counted it, and a run on another device is refused.
        let path = dir.join("new.journal");
        let gpu = new.clone().on(JournalDevice::Gpu);
        let (j, _) = Journal::open(&path, &gpu, 1).unwrap();
        j.record(done(1, 2));
        j.finish().unwrap();
        drop(j);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(
            "damier-queens-journal-2\tformat=1\tn=9\tshare=1/1\tengine=backtrack\tdevice=gpu\t"
        ));
        assert_eq!(read(&path).unwrap().header, gpu);
        let e = Journal::open(&path, &new, 1).unwrap_err();
        assert!(e.to_string().contains("engine backtrack on gpu") && e.to_string().contains("on cpu"), "{e}");
        assert_eq!(Journal::open(&path, &gpu, 1).unwrap().1.total(), 2);
    }
}

#[cfg(test)]
mod summary_tests {
    use super::tests::tempfile_dir as dir;
    use super::*;

    /// Asserts that the summary of the journal at `path` (`s`, keeping `keep` records) answers
    /// what [`read`] answers: the same error, or the same figures to the bit.
    fn assert_agrees(path: &Path, s: Result<JournalSummary, JournalError>, keep: usize) {
        let what = || String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        match (read(path), s) {
            (Ok(c), Ok(s)) => {
                assert_eq!(s.header, c.header);
                assert_eq!(s.done, c.records.len() as u64, "{}", what());
                assert_eq!((s.total(), s.left()), (c.total(), c.left()));
                assert_eq!(s.rate().map(f64::to_bits), c.rate().map(f64::to_bits), "{}", what());
                assert_eq!(s.eta_seconds().map(f64::to_bits), c.eta_seconds().map(f64::to_bits));
                assert_eq!(s.task_seconds().to_bits(), c.task_seconds().to_bits());
                assert_eq!(
                    (s.sessions, s.torn_lines, s.valid_len()),
                    (c.sessions.len(), c.torn_lines, c.valid_len)
                );
                let skip = c.records.len().saturating_sub(keep);
                assert_eq!(s.recent().copied().collect::<Vec<_>>(), c.records[skip..]);
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!("read: {a:?}\nsummary: {b:?}\n{}", what()),
        }
    }

    /// A line of [`journal`]: `None` a session, `Some((index, count))` a task.
    type Entry = Option<(u32, u64)>;

    /// A journal of n = 9 (share `share`) with these lines after the header.
    fn journal(share: Share, lines: &[Entry]) -> Vec<u8> {
        let list = TaskList::new(9).unwrap();
        journal_headed(&JournalHeader::new(&list, share, TaskEngine::Quarters), lines.iter().copied())
    }

    /// A journal headed `h` with these lines after the header.
    fn journal_headed(h: &JournalHeader, lines: impl IntoIterator<Item = Entry>) -> Vec<u8> {
        let chain = h.hash();
        let mut text = h.line();
        let mut ms = 1_000;
        for (i, l) in (0u64..).zip(lines) {
            ms += 7 + i * i % 13;
            text += &match l {
                None => Line::Session { unix_ms: ms, threads: 3 },
                Some((index, count)) => {
                    Line::Task(TaskRecord { index, count, micros: 1_000 + 37 * i, unix_ms: ms })
                }
            }
            .encode(chain);
        }
        text.into_bytes()
    }

    /// Every kind of journal the reader meets: several sessions, tasks recorded twice with one
    /// count or with two, torn tails, damage followed by good records, tasks outside the share
    /// or before a session. Each is summarized whole, and from each of its prefixes then
    /// updated to the whole: the same answers as `read`, errors included.
    #[test]
    fn a_summary_answers_what_read_answers() {
        let dir = dir();
        let path = dir.join("j");
        let (s, t) = (None, |i, c| Some((i, c)));
        let cases: Vec<(Share, Vec<Entry>)> = vec![
            (Share::WHOLE, vec![]),
            (Share::WHOLE, vec![s]),
            (Share::WHOLE, vec![s, t(0, 5), t(1, 7), s, s, t(2, 11), t(0, 5), s, t(3, 1), t(1, 7)]),
            (Share::WHOLE, vec![s, t(0, 5), t(1, 7), t(0, 6), t(2, 1)]),
            (Share::WHOLE, vec![s, t(0, 5), t(1, 7), t(0, 5), t(1, 7), t(0, 6), t(1, 8)]),
            (Share::WHOLE, vec![s, t(0, 5), t(1, 7), t(1, 7), t(0, 5), t(1, 9), t(0, 4)]),
            (Share::WHOLE, vec![s, t(0, 5), t(0, 5), t(400, 1)]),
            (Share::WHOLE, vec![s, t(0, 5), t(0, 6), t(400, 1)]),
            (Share::WHOLE, vec![t(0, 5), s]),
            (Share::new(1, 3).unwrap(), vec![s, t(1, 2), t(4, 3), s, t(4, 3), t(7, 1), t(2, 9)]),
            (Share::new(1, 3).unwrap(), vec![s, t(1, 2), t(4, 3), t(4, 4), t(2, 9)]),
            (Share::WHOLE, vec![s, t(0, u64::MAX), t(1, u64::MAX), t(2, 3)]),
        ];
        for (share, lines) in cases {
            let bytes = journal(share, &lines);
            let header_end = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
            // The whole, with a torn tail cut at every byte of a last line, or damage inside.
            let mut variants = vec![bytes.clone()];
            let mut torn = bytes.clone();
            torn.extend_from_slice(b"T\t5\t1\t2\t3\tdeadbeef");
            variants.push(torn.clone());
            torn.extend_from_slice(b"\nT\tgarbage\n");
            variants.push(torn);
            if let Some(second) = bytes[header_end..].iter().position(|&b| b == b'\n') {
                let mut damaged = bytes.clone();
                damaged[header_end + second - 1] ^= 1;
                variants.push(damaged);
            }
            for v in variants {
                std::fs::write(&path, &v).unwrap();
                for keep in [0, 2, 100] {
                    assert_agrees(&path, summarize(&path, keep), keep);
                }
                // Read at each length, then updated at the whole.
                for cut in header_end..=v.len() {
                    std::fs::write(&path, &v[..cut]).unwrap();
                    let Ok(part) = summarize(&path, 2) else { continue };
                    assert_agrees(&path, Ok(part.clone()), 2);
                    std::fs::write(&path, &v).unwrap();
                    assert_agrees(&path, part.update(&path), 2);
                }
            }
        }
    }

    /// A journal replaced by another, shortened or rewritten at its start is read again whole.
    #[test]
    fn a_changed_journal_is_read_again_whole() {
        let dir = dir();
        let path = dir.join("j");
        let (s, t) = (None, |i, c| Some((i, c)));
        let long = journal(Share::WHOLE, &[s, t(0, 5), t(1, 7), t(2, 11), s, t(3, 13)]);
        std::fs::write(&path, &long).unwrap();
        let first = summarize(&path, 10).unwrap();
        assert_eq!(first.total(), 36);
        // Shorter (a count that cut a torn tail, or another file).
        let short = journal(Share::WHOLE, &[s, t(0, 5), t(1, 8)]);
        std::fs::write(&path, &short).unwrap();
        assert_agrees(&path, first.clone().update(&path), 10);
        // As long, the same start, another last line.
        let other = journal(Share::WHOLE, &[s, t(0, 5), t(1, 7), t(2, 11), s, t(4, 13), t(5, 1)]);
        std::fs::write(&path, &other).unwrap();
        assert_agrees(&path, first.clone().update(&path), 10);
        // Another share at the path.
        let share =
            journal(Share::new(0, 2).unwrap(), &[s, t(0, 5), t(2, 7), t(4, 11), s, t(6, 13), t(8, 1)]);
        std::fs::write(&path, &share).unwrap();
        assert_agrees(&path, first.clone().update(&path), 10);
        // Replaced by another file (another inode) with the same bytes and more.
        let mut more = long.clone();
        more.extend_from_slice(
            &journal(Share::WHOLE, &[t(7, 2)])[long.iter().position(|&b| b == b'\n').unwrap() + 1..],
        );
        let tmp = dir.join("tmp");
        std::fs::write(&tmp, &more).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
        assert_agrees(&path, first.update(&path), 10);
    }

    /// A header naming more tasks than the largest list is refused by both readers.
    #[test]
    fn a_header_naming_more_tasks_than_any_list_is_refused() {
        let dir = dir();
        let path = dir.join("j");
        let list = TaskList::new(9).unwrap();
        let h = JournalHeader {
            tasks: MAX_TASKS + 1,
            ..JournalHeader::new(&list, Share::WHOLE, TaskEngine::Quarters)
        };
        std::fs::write(&path, h.line()).unwrap();
        let e = read(&path).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "journal {} names 20060017 tasks, more than any task list has (20060016, n = 28)",
                path.display()
            )
        );
        assert_agrees(&path, summarize(&path, 1), 1);
    }

    /// A journal as large as a whole count of n = 24 (1 352 540 tasks, in two shuffled halves
    /// over three sessions, some tasks recorded twice, a torn tail): the summary equals `read`,
    /// whole and updated with the second half, and holds a bit per task, not the records.
    #[test]
    fn a_journal_of_n_24_is_summarized_as_read_reads_it() {
        const TASKS: u32 = 1_352_540;
        let dir = dir();
        let path = dir.join("24.journal");
        let list = TaskList::new(9).unwrap();
        let h = JournalHeader {
            n: 24,
            tasks: TASKS,
            ..JournalHeader::new(&list, Share::WHOLE, TaskEngine::Quarters)
        };
        let chain = h.hash();
        // A fixed permutation of the tasks: i * 7919 mod TASKS (7919 is prime, not a factor).
        let order: Vec<u32> = (0..u64::from(TASKS)).map(|i| (i * 7919 % u64::from(TASKS)) as u32).collect();
        let encode = |text: &mut String, from: usize, to: usize, ms: u64| {
            *text += &Line::Session { unix_ms: ms, threads: 16 }.encode(chain);
            for (k, &index) in order[from..to].iter().enumerate() {
                let k = k as u64;
                let r = TaskRecord {
                    index,
                    count: u64::from(index % 977) * 8 + 4,
                    micros: 900 + k % 5_000,
                    unix_ms: ms + k / 3,
                };
                *text += &Line::Task(r).encode(chain);
                if k % 100_000 == 7 {
                    // Recorded again, with the same count.
                    *text += &Line::Task(r).encode(chain);
                }
            }
        };
        let mut text = h.line();
        let half = TASKS as usize / 2;
        encode(&mut text, 0, half / 2, 1_700_000_000_000);
        encode(&mut text, half / 2, half, 1_700_100_000_000);
        let first_len = text.len();
        encode(&mut text, half, TASKS as usize, 1_700_200_000_000);
        text += "T\t12\t";
        std::fs::write(&path, &text.as_bytes()[..first_len]).unwrap();
        let s = summarize(&path, 200).unwrap();
        assert_agrees(&path, Ok(s.clone()), 200);
        assert_eq!(s.seen.len(), (TASKS as usize).div_ceil(64), "a bit per task");
        std::fs::write(&path, &text).unwrap();
        let s = s.update(&path).unwrap();
        assert_eq!((s.done, s.left(), s.torn_lines, s.sessions), (u64::from(TASKS), 0, 1, 3));
        assert_agrees(&path, Ok(s), 200);
        assert_agrees(&path, summarize(&path, 200), 200);
    }

    /// Issue 49: a forged journal of repeated records is read in one pass, whatever it repeats.
    /// Two million repeats of one task count it once, by both readers (they took a pass over
    /// the file per 65 536 tasks repeated); a repeat with another count is refused at its
    /// line; and a journal repeating more than [`MAX_REPEATS`] tasks is refused at the line of
    /// the first one too many, by both readers, the summary updated across it included.
    #[test]
    fn repeated_records_are_read_in_one_pass_and_bounded() {
        const REPEATS: usize = 2_000_000;
        let dir = dir();
        let path = dir.join("j");
        let list = TaskList::new(9).unwrap();
        let h = JournalHeader {
            n: 24,
            tasks: 1_352_540,
            ..JournalHeader::new(&list, Share::WHOLE, TaskEngine::Quarters)
        };
        let (s, t) = (None, |i, c| Some((i, c)));
        let mut bytes = journal_headed(&h, [s, t(5, 11), t(6, 13)]);
        // The first record of task 5, the third line, again (checksums chain to the header only).
        let third = bytes.split_inclusive(|&b| b == b'\n').nth(2).unwrap().to_vec();
        bytes.extend(third.repeat(REPEATS));
        std::fs::write(&path, &bytes).unwrap();
        let c = read(&path).unwrap();
        assert_eq!((c.records.len(), c.total(), c.torn_lines), (2, 24, 0));
        let summary = summarize(&path, 3).unwrap();
        assert_eq!((summary.done, summary.total(), summary.sessions), (2, 24, 1));
        assert_eq!(summary.recent().copied().collect::<Vec<_>>(), c.records);
        // One more repeat, with another count: refused at its line (the header's is 1), by
        // both readers, and by the summary updated with it (the task's first count kept).
        bytes.extend_from_slice(&journal_headed(&h, [t(5, 12)])[h.line().len()..]);
        std::fs::write(&path, &bytes).unwrap();
        let line = REPEATS + 5;
        let why = "task 5 recorded twice, with counts 11 and 12";
        let e = read(&path).unwrap_err().to_string();
        assert_eq!(e, format!("journal {} is corrupted at line {line}: {why}", path.display()));
        assert_eq!(summary.update(&path).unwrap_err().to_string(), e);
        assert_eq!(summarize(&path, 3).unwrap_err().to_string(), e);

        // MAX_REPEATS tasks recorded twice are read; one more is refused.
        let tasks = MAX_REPEATS as u32 + 1;
        let once = (0..tasks).map(|i| t(i, u64::from(i % 5) + 1));
        let again = |k: u32| (0..k).map(|i| t(i, u64::from(i % 5) + 1));
        let bytes = journal_headed(&h, std::iter::once(s).chain(once.clone()).chain(again(tasks - 1)));
        std::fs::write(&path, &bytes).unwrap();
        let c = read(&path).unwrap();
        assert_eq!(c.records.len(), tasks as usize);
        let summary = summarize(&path, 0).unwrap();
        assert_agrees(&path, Ok(summary.clone()), 0);
        let bytes = journal_headed(&h, std::iter::once(s).chain(once).chain(again(tasks)));
        std::fs::write(&path, &bytes).unwrap();
        let line = 2 + 2 * tasks as usize;
        let e = read(&path).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "journal {} is corrupted at line {line}: task {} recorded again, after 65536 other tasks recorded twice: a count records each task once",
                path.display(),
                tasks - 1
            )
        );
        assert_eq!(summary.update(&path).unwrap_err().to_string(), e);
        assert_agrees(&path, summarize(&path, 0), 0);
    }
}
