//! Lights Out: the requests of `lights solve`, `count`, `kernel`, `winnable`, `table`,
//! `chase` and `chase-table`, their bounds, and their runs on the library. A board is given
//! as its content (text or PBM), as the lab's pages send it.

use damier::board::{Board, Size, read_board};
use damier::control::Control;
use damier::lights::records::Winnability;
use damier::lights::request::{SolveRequest, Start};
use damier::lights::{self, Method};
use serde::Deserialize;

use crate::de;
use crate::fields::{Fields, Refused, UpTo, WRITES};
use crate::host::Host;
use crate::records::{Kernel, LightsSolved, Record};
use crate::refusal::Refusal;

/// Largest board side of a request (and of the live views, without `--allow-heavy`): a
/// 2000 x 2000 board solves in seconds.
pub const BOARD_MAX_SIDE: u64 = 2000;
pub use crate::records::PRINT_MAX_CELLS;
/// Most bytes a request may hold, as the library counts them (its boards, transposes, kernel
/// bases and listings: [`SolveRequest::bytes`], [`lights::winnable_bytes`]): 512 MiB. Within
/// the sides, only the fewest presses of a board of large nullity come near it
/// (`1983x1983`, nullity 1280: a basis of 630 MB and its squeezed copy).
pub const MEMORY_MAX_BYTES: u64 = 512 << 20;

/// Refuses a request that holds `need` bytes, above [`MEMORY_MAX_BYTES`].
fn memory_bound(need: u64) -> Result<(), Refusal> {
    if need > MEMORY_MAX_BYTES {
        return Err(Refusal::Bound(format!(
            "this request holds {} at most, above this server's bound of {}",
            damier::util::bytes_text(need),
            damier::util::bytes_text(MEMORY_MAX_BYTES)
        )));
    }
    Ok(())
}

/// Largest side of `lights table` (the command line's range).
const TABLE_MAX_SIDE: u64 = lights::TABLE_MAX_N;

/// Refuses a board wider or taller than [`BOARD_MAX_SIDE`]; `what` names it.
fn board_side(what: &str, width: usize, height: usize) -> Result<(), Refusal> {
    if width as u64 > BOARD_MAX_SIDE || height as u64 > BOARD_MAX_SIDE {
        return Err(Refusal::Bound(format!(
            "{what}: a {width}x{height} board has sides above {BOARD_MAX_SIDE}, this server's bound"
        )));
    }
    Ok(())
}

/// Refuses a `WxH` size of the field `what` above the bound; a size that does not parse is the
/// command's to refuse, with its message.
fn size_bound(what: &str, text: Option<&str>) -> Result<(), Refusal> {
    match text.map(str::parse::<Size>) {
        Some(Ok(size)) => board_side(what, size.width(), size.height()),
        _ => Ok(()),
    }
}

/// Refuses the board content of the field `what` above the bound (read by the library's
/// reader); the board's size, `None` for content that does not read (the command's to refuse).
fn content_bound(what: &str, text: Option<&str>) -> Result<Option<Size>, Refusal> {
    match text.map(|t| read_board(t.as_bytes())) {
        Some(Ok(b)) => board_side(what, b.width(), b.height()).map(|()| Some(b.size())),
        _ => Ok(None),
    }
}

/// The size of the field `what`, `None` when absent or when it does not parse (the command's
/// to refuse).
fn parsed_size(text: Option<&str>) -> Option<Size> {
    text.and_then(|t| t.parse().ok())
}

/// The board whose content is the field `what`, its errors named by the field.
fn board(what: &str, text: &str) -> Result<Board, Refusal> {
    read_board(text.as_bytes()).map_err(|e| Refusal::Input(format!("{what}: {e}")))
}

/// A `WxH` size.
fn size(text: &str) -> Result<Size, Refusal> {
    text.parse().map_err(Refusal::input)
}

/// The fields of `lights solve`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solve {
    /// The board's content: rows of 0/1, ./# or _/#, or a PBM bitmap.
    #[serde(default, deserialize_with = "de::opt_content")]
    pub file: Option<String>,
    /// Start from the all-on `WxH` board.
    #[serde(default, deserialize_with = "de::opt_text")]
    pub all_on: Option<String>,
    /// Start from a random `WxH` board.
    #[serde(default, deserialize_with = "de::opt_text")]
    pub random: Option<String>,
    /// With `random`: a random winnable board.
    #[serde(default, deserialize_with = "de::flag")]
    pub winnable: bool,
    /// Seed of the random board.
    #[serde(default, deserialize_with = "de::opt_int")]
    pub seed: Option<u64>,
    /// The target board's content (all off when `None`).
    #[serde(default, deserialize_with = "de::opt_content")]
    pub target: Option<String>,
    /// Every solution.
    #[serde(default, deserialize_with = "de::flag")]
    pub all: bool,
    /// The fewest presses.
    #[serde(default, deserialize_with = "de::flag")]
    pub min: bool,
    /// The elimination step by step.
    #[serde(default, deserialize_with = "de::flag")]
    pub explain: bool,
    /// The engine: `dense`, `chase` or `poly` (the default).
    #[serde(default, deserialize_with = "de::opt_text")]
    pub method: Option<String>,
    /// Only the counts, no press pattern.
    #[serde(default, deserialize_with = "de::flag")]
    pub summary: bool,
}

impl Fields for Solve {
    const FIELDS: &'static [&'static str] = &[
        "file", "all_on", "random", "winnable", "seed", "target", "all", "min", "explain", "method",
        "summary",
    ];
    const REFUSED: Refused = &[("save_start", WRITES), ("out", WRITES)];

    fn check(&self) -> Result<(), Refusal> {
        self.method().map(|_| ())?;
        let starts = [self.file.is_some(), self.all_on.is_some(), self.random.is_some()];
        match starts.iter().filter(|&&s| s).count() {
            0 => return Err(Refusal::Input("give the board: file, all_on or random".into())),
            1 => {}
            _ => return Err(Refusal::Input("give one board only: file, all_on or random".into())),
        }
        if self.random.is_none() && (self.winnable || self.seed.is_some()) {
            return Err(Refusal::Input("winnable and seed apply to random only".into()));
        }
        if self.min && self.all {
            return Err(Refusal::Input("min and all cannot be used together".into()));
        }
        if self.summary && self.all {
            return Err(Refusal::Input("summary and all cannot be used together".into()));
        }
        Ok(())
    }
}

impl Solve {
    /// The engine asked for.
    fn method(&self) -> Result<Method, Refusal> {
        let method = self.method.as_deref().map(str::parse::<Method>).transpose();
        Ok(method.map_err(|e| Refusal::Input(format!("field `method`: {e}")))?.unwrap_or_default())
    }

    /// What the library is asked for.
    fn request(&self) -> Result<SolveRequest, Refusal> {
        Ok(SolveRequest {
            method: self.method()?,
            target: self.target.is_some(),
            all: self.all,
            min: self.min,
            explain: self.explain,
        })
    }

    /// The sides, then the library's own bound on the start the request makes or gives
    /// ([`SolveRequest::check_start`], [`SolveRequest::check_size`]): the listing, the kernel
    /// and the elimination shown, refused here as the run would refuse them, before the job;
    /// and the memory it holds (the three boards of a winnable draw, the solve's boards and
    /// transpose, the kernel of the fewest presses or of every solution), at most
    /// [`MEMORY_MAX_BYTES`].
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        size_bound("all_on", self.all_on.as_deref())?;
        size_bound("random", self.random.as_deref())?;
        let file = content_bound("file", self.file.as_deref())?;
        content_bound("target", self.target.as_deref())?;
        let request = self.request()?;
        let checked = if let Some(size) = parsed_size(self.all_on.as_deref()) {
            request.check_start(&Start::AllOn(size))
        } else if let Some(size) = parsed_size(self.random.as_deref()) {
            request.check_start(&Start::Random { size, seed: 0, winnable: self.winnable })
        } else if let Some(size) = file {
            request.check_size(size)
        } else {
            return Ok(());
        };
        memory_bound(checked.map_err(Refusal::input)?)
    }
}

/// `lights solve`: the presses that take the start to the target (all off), or none.
pub(crate) fn solve(r: &Solve, host: &dyn Host) -> Result<Record, Refusal> {
    r.check()?;
    let request = r.request()?;
    let mut seed = None;
    let start = if let Some(text) = &r.all_on {
        request.make(&Start::AllOn(size(text)?))
    } else if let Some(text) = &r.random {
        let size = size(text)?;
        let drawn = r.seed.unwrap_or_else(|| host.seed());
        seed = Some(drawn);
        request.make(&Start::Random { size, seed: drawn, winnable: r.winnable })
    } else {
        let start = board("file", r.file.as_deref().unwrap_or_default())?;
        request.check_size(start.size()).map(|_| start)
    }
    .map_err(Refusal::input)?;
    let target = r.target.as_deref().map(|t| board("target", t)).transpose()?;
    let t0 = host.seconds();
    let solved = request.solve(start, target.as_ref(), host.control()).map_err(Refusal::input)?;
    let seconds = host.seconds() - t0;
    Ok(Record::LightsSolve(LightsSolved::of(&solved, seed, seconds, r.summary, None, false)))
}

/// The fields of `lights count`, `kernel` and `chase-table`: a size.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sized {
    /// Board size, `WxH`.
    #[serde(deserialize_with = "de::text")]
    pub size: String,
}

impl Fields for Sized {
    const FIELDS: &'static [&'static str] = &["size"];
    const REFUSED: Refused = &[("out", WRITES)];
}

impl Sized {
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        size_bound("size", Some(&self.size))
    }

    /// [`Sized::bound`], then the basis's own bound ([`check_basis`]), as `lights kernel`
    /// checks it when it runs.
    pub(crate) fn kernel_bound(&self) -> Result<(), Refusal> {
        self.bound()?;
        parsed_size(Some(&self.size)).map_or(Ok(()), |size| check_basis(size, false).map(|_| ()))
    }
}

/// `lights count`: the nullity, the ways from all on to all off, the winnable fraction.
pub fn count(r: &Sized) -> Result<lights::sizes::SizeCount, Refusal> {
    Ok(lights::sizes::size_count(size(&r.size)?))
}

/// A basis of a kernel is held before it is written to files: the library's bound on a kernel.
pub const KERNEL_FILE_MAX_CELLS: usize = lights::KERNEL_MAX_CELLS as usize;

/// Refuses, before anything is made, a basis of the kernel of `size` that is too large to hold
/// ([`lights::check_kernel`]) or, in all its boards, to print ([`PRINT_MAX_CELLS`]) or, when
/// written `to_files`, to hold ([`KERNEL_FILE_MAX_CELLS`]); its nullity.
pub fn check_basis(size: Size, to_files: bool) -> Result<usize, Refusal> {
    let (w, h) = (size.width(), size.height());
    let k = lights::nullity(size);
    lights::check_kernel(size, k).map_err(Refusal::input)?;
    let limit = if to_files { KERNEL_FILE_MAX_CELLS } else { PRINT_MAX_CELLS };
    if k.saturating_mul(w * h) > limit {
        return Err(Refusal::Input(format!(
            "{w}x{h} has nullity {k}: a basis of {k} boards of {} cells is too large {} ({limit} cells at most)",
            w * h,
            if to_files { "to hold" } else { "to print (--out DIR writes it as bitmaps)" }
        )));
    }
    Ok(k)
}

/// `lights kernel`: a basis of the presses that change nothing.
pub(crate) fn kernel(r: &Sized, host: &dyn Host) -> Result<Record, Refusal> {
    let size = size(&r.size)?;
    check_basis(size, false)?;
    let basis = lights::sizes::neutral_basis(size, host.control()).map_err(Refusal::input)?;
    Ok(Record::LightsKernel(Kernel::listed(size, &basis)))
}

/// `lights chase-table`: which first-row presses fix which last row (one chase of the whole
/// board per column: long for tall boards, so watched and cancellable).
pub fn chase_table(r: &Sized, host: &dyn Host) -> Result<lights::chase::ChaseTable, Refusal> {
    let size = size(&r.size)?;
    let _watch = host.watch("lights chase-table", lights::chase::chase_table_units(size));
    lights::chase::chase_table(size, host.control()).map_err(Refusal::input)
}

/// The fields of `lights winnable`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Winnable {
    /// The board's content.
    #[serde(deserialize_with = "de::content")]
    pub file: String,
    /// The target board's content (all off when `None`).
    #[serde(default, deserialize_with = "de::opt_content")]
    pub target: Option<String>,
}

impl Fields for Winnable {
    const FIELDS: &'static [&'static str] = &["file", "target"];
}

impl Winnable {
    /// The sides, then what the test holds and its kernel ([`check_winnable`]).
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        let file = content_bound("file", Some(&self.file))?;
        content_bound("target", self.target.as_deref())?;
        file.map_or(Ok(()), |size| memory_bound(check_winnable(size, self.target.is_some())?))
    }
}

/// Refuses, from the size alone, a winnability test that cannot be made: its memory
/// ([`lights::check_winnable_memory`]: the solve's, then the boards and the kernel's basis of
/// the orthogonality test) or a kernel too large to test against; the bytes it holds.
pub fn check_winnable(size: Size, target: bool) -> Result<u64, Refusal> {
    let need = lights::check_winnable_memory(size, target).map_err(Refusal::input)?;
    let (w, h) = (size.width(), size.height());
    let k = lights::nullity(size);
    if k.saturating_mul(w * h) > 4 * PRINT_MAX_CELLS {
        return Err(Refusal::Input(format!(
            "{w}x{h} has nullity {k}: the orthogonality test needs the whole kernel, too large here"
        )));
    }
    Ok(need)
}

/// `lights winnable`: by the orthogonality criterion and by solving.
pub(crate) fn winnable(r: &Winnable, host: &dyn Host) -> Result<Record, Refusal> {
    let start = board("file", &r.file)?;
    let target = r.target.as_deref().map(|t| board("target", t)).transpose()?;
    Ok(Record::LightsWinnable(winnability(&start, target.as_ref(), host.control())?))
}

/// Whether `start` can reach `target` (all off when `None`), by the orthogonality criterion
/// and by solving: what `lights winnable` answers for boards already read.
pub fn winnability(start: &Board, target: Option<&Board>, control: &Control) -> Result<Winnability, Refusal> {
    check_winnable(start.size(), target.is_some())?;
    let sol = lights::solve(start, target, Method::Poly, control).map_err(Refusal::input)?;
    Winnability::of(start, target, &sol).map_err(Refusal::input)
}

/// The fields of `lights table`: the largest side L, 2 to 100 000 (39 when absent).
pub type Table = UpTo<TABLE_TO, 2, TABLE_MAX_SIDE>;

/// The default largest side of `lights table`.
const TABLE_TO: u64 = 39;

impl Table {
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        crate::queens::at_most("to", self.side(), BOARD_MAX_SIDE)
    }
}

/// `lights table`: the solutions from all on to all off on the L x L boards, L = 2 to `to`.
pub(crate) fn table(r: &Table, host: &dyn Host) -> Result<Record, Refusal> {
    r.check()?;
    let n = r.side() as usize;
    let _watch = host.watch("lights table", (n as u64 + 2) / 2);
    Ok(Record::LightsTable(lights::sizes::square_table(n, host.control()).map_err(Refusal::input)?))
}

/// The fields of `lights chase`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chase {
    /// The board's content.
    #[serde(deserialize_with = "de::content")]
    pub file: String,
}

impl Fields for Chase {
    const FIELDS: &'static [&'static str] = &["file"];
}

impl Chase {
    /// The sides, then what the chase prints ([`check_chase`]).
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        content_bound("file", Some(&self.file))?.map_or(Ok(()), check_chase)
    }
}

/// Refuses a chase whose steps are too large to print.
fn check_chase(size: Size) -> Result<(), Refusal> {
    if size.cells() > PRINT_MAX_CELLS || size.width() > 100_000 {
        return Err(Refusal::Input(format!(
            "chase prints boards: up to {PRINT_MAX_CELLS} cells and 100000 columns"
        )));
    }
    Ok(())
}

/// `lights chase`: light chasing step by step.
pub(crate) fn chase(r: &Chase, host: &dyn Host) -> Result<Record, Refusal> {
    Ok(Record::LightsChase(chase_of(&board("file", &r.file)?, host.control())?))
}

/// Light chasing on `start` step by step: what `lights chase` answers for a board already
/// read.
pub fn chase_of(start: &Board, control: &Control) -> Result<lights::chase::ExplainedChase, Refusal> {
    check_chase(start.size())?;
    lights::chase::explain(start, control).map_err(Refusal::input)
}
