//! n queens: the requests of `queens count`, `list`, `first`, `solve`, `max`, `corners`,
//! `check` and `estimate`, their bounds, and their runs on the library.

use damier::control::Control;
use damier::cpu::IsaChoice;
use damier::queens::count::estimate::{self, Estimator};
use damier::queens::count::journal::JournalDevice;
use damier::queens::count::long::{LongCount, LongCountResult, LongRun};
use damier::queens::count::request::CountRequest;
use damier::queens::count::tasks::{MAX_TASK_N, MIN_TASK_N, TaskEngine, TaskList};
use damier::queens::count::{self, CountOptions, Share, ShareCount, TimedCounts};
use damier::queens::local;
use damier::queens::placement::{
    CheckReport, CheckedListing, PlacementError, READ_BYTES_PER_PLACEMENT, READ_BYTES_PER_ROW, ReadSize,
    try_check_owned,
};
use damier::queens::search::{self, Solutions};
use damier::queens::solve::{self as solving, Method, NoSolution, Solution};
use damier::queens::{Placement, corners as corner, max as maximum, sample, symmetry};
use damier::util::{bytes_text, check_fits};
use serde::Deserialize;

use crate::de;
use crate::fields::{Fields, MAX_THREADS, Refused, TEXT_FORM, WRITES, in_range};
use crate::host::Host;
use crate::records::{Record, Solved};
use crate::refusal::Refusal;

/// Largest `n` counted: n = 18 takes seconds on two cores, about a minute in one browser
/// thread (docs/web.md has the measured times).
pub const COUNT_MAX_N: u64 = 18;
/// Largest `n` listed in full (without `limit`); 365,596 solutions at 14.
pub const LIST_MAX_N: u64 = 14;
/// Most solutions listed with `limit`.
pub const LIST_MAX_LIMIT: u64 = 1_000_000;
/// Largest `n` for the construction, R(n) and random draws (the answer is `n` numbers).
pub const SOLVE_MAX_N: u64 = 1_000_000;
/// Largest `n` for the corner exercises (they list the solutions of n + 1).
pub const CORNERS_MAX_N: u64 = 12;
/// Most tasks timed by one `queens estimate`.
pub const ESTIMATE_MAX_SAMPLES: u64 = 1000;
/// Largest `n` whose tasks `queens estimate` times whole (`queries = all`): beyond, a task
/// takes a second (n = 25) to a minute (n = 27).
pub const ESTIMATE_WHOLE_MAX_N: u64 = 22;
/// Beyond [`ESTIMATE_WHOLE_MAX_N`]: most queries matched per task.
pub const ESTIMATE_MAX_QUERIES: u64 = 32_768;
/// Beyond [`ESTIMATE_WHOLE_MAX_N`]: most tasks timed (at n = 26 the set-up takes 15 s and
/// each sampled task about 1.3 s, measured on the project machine under load).
pub const ESTIMATE_BIG_MAX_SAMPLES: u64 = 20;
/// Largest `n` estimated: beyond, a whole task runs minutes, and a sampled task still makes
/// both its halves (a count's memory per task: up to about 2.8 GB at n = 27, more at 28).
pub const ESTIMATE_MAX_N: u64 = 26;
/// Most rows checked, here and by the command line (reading and checking holds
/// `damier::queens::placement::READ_BYTES_PER_ROW` a row).
pub const CHECK_MAX: usize = 10_000_000;
/// Largest `n` listed in full by the command line without `--limit` or `--all`.
pub const LIST_ALL_MAX: u32 = 14;
/// From this `n` a count without threads (a browser's worker) uses the quarter-board engine,
/// below it the backtracker (the library's choice).
pub use damier::queens::count::request::QUARTERS_FROM_N;

/// Refuses `field`'s value `v` above `max`, naming the bound.
pub(crate) fn at_most(field: &str, v: u64, max: u64) -> Result<(), Refusal> {
    if v > max {
        return Err(Refusal::Bound(format!("{field} = {v} is above {max}, this server's bound")));
    }
    Ok(())
}

/// Parses a memory size: bytes, or a number and a unit. A one-letter unit (`800M`, `1.5G`)
/// counts in powers of 1024, as `MiB`, `GiB`, ... do; `KB`, `MB`, ... count in powers of 1000.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let unit = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.').trim_start();
    let binary = unit.len() == 1 && !unit.eq_ignore_ascii_case("b");
    let spelled = if binary { format!("{t}i") } else { t.to_string() };
    let size: bytesize::ByteSize = spelled.parse().map_err(|_| {
        format!(
            "{text:?} is not a size such as 800M or 16G (K, M, G, T: powers of 1024; KB, MB, ...: of 1000)"
        )
    })?;
    match size.as_u64() {
        // A product past a u64 saturates.
        0 | u64::MAX => Err(format!("{text:?} is not a size from 1 byte to below 16 EiB")),
        bytes => Ok(bytes),
    }
}

/// Parses a vector unit's name: `auto` (the widest unit this CPU runs) or a unit's name.
pub fn parse_isa(text: &str) -> Result<IsaChoice, String> {
    text.parse().map_err(|_| "expected auto, portable, neon, avx2 or avx512".to_string())
}

/// The value of the text field `field`, parsed by `parse`.
fn parsed<T>(
    field: &str,
    text: Option<&str>,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<Option<T>, Refusal> {
    text.map(|t| parse(t).map_err(|e| Refusal::Input(format!("field `{field}`: {e}")))).transpose()
}

/// The worker threads of a request, checked (1 to the library's `POOL_MAX_THREADS`, 1024: the
/// command line's range).
fn threads(t: Option<u32>) -> Result<Option<u32>, Refusal> {
    if let Some(t) = t {
        in_range("threads", t.into(), 1, damier::util::POOL_MAX_THREADS.into())?;
    }
    Ok(t)
}

/// Runs `f` on a pool of `threads` workers (all cores when `None`).
fn on_pool<T: Send>(threads: Option<u32>, f: impl FnOnce() -> T + Send) -> Result<T, Refusal> {
    let pool = damier::util::thread_pool(threads.map(|t| t as usize))
        .map_err(|e| Refusal::Fault(format!("cannot start the thread pool: {e}")))?;
    Ok(pool.install(f))
}

/// A request the browser's worker cannot run.
fn not_here(what: &str) -> Refusal {
    Refusal::NotHere(format!(
        "{what}: not in the browser's build of the lab: this needs the lab's server, damier serve"
    ))
}

/// The fields of `queens count` (`damier queens count N`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Count {
    /// Board size (1 to 32).
    #[serde(deserialize_with = "de::int")]
    pub n: u32,
    /// Worker threads (all cores when `None`).
    #[serde(default, deserialize_with = "de::opt_int")]
    pub threads: Option<u32>,
    /// Count only share `K/M`.
    #[serde(default, deserialize_with = "de::opt_text")]
    pub share: Option<String>,
    /// Vector unit (`auto`, `portable`, `neon`, `avx2`, `avx512`).
    #[serde(default, deserialize_with = "de::opt_text")]
    pub isa: Option<String>,
    /// Most memory, as bytes or with a unit.
    #[serde(default, deserialize_with = "de::opt_text")]
    pub memory: Option<String>,
    /// The engine of each task: `quarters` or `backtrack`.
    #[serde(default, deserialize_with = "de::opt_text")]
    pub strategy: Option<String>,
    /// Recount this many random tasks with both engines.
    #[serde(default, deserialize_with = "de::opt_int")]
    pub verify_sample: Option<u32>,
    /// Seed of the recount's draw.
    #[serde(default, deserialize_with = "de::opt_int")]
    pub seed: Option<u64>,
    /// `cpu` (the only device a request runs on).
    #[serde(default, deserialize_with = "de::opt_text")]
    pub device: Option<String>,
}

impl Fields for Count {
    const FIELDS: &'static [&'static str] =
        &["n", "threads", "share", "isa", "memory", "strategy", "verify_sample", "seed", "device"];
    const REFUSED: Refused = &[("journal", WRITES)];

    fn check(&self) -> Result<(), Refusal> {
        self.options().map(|_| ())
    }
}

/// What a count request asks for, read: the share, the vector unit, the memory, the engine.
struct CountChoices {
    threads: Option<u32>,
    share: Option<Share>,
    isa: IsaChoice,
    memory: Option<u64>,
    engine: Option<TaskEngine>,
}

impl Count {
    /// The request's values read and checked as the command line reads them.
    fn options(&self) -> Result<CountChoices, Refusal> {
        let threads = threads(self.threads)?;
        if let Some(k) = self.verify_sample {
            in_range("verify_sample", k.into(), 1, VERIFY_SAMPLE_MAX.into())?;
        } else if self.seed.is_some() {
            return Err(Refusal::Input(
                "field `seed` is the seed of verify_sample: give verify_sample too".into(),
            ));
        }
        match self.device.as_deref() {
            None | Some("cpu" | "gpu" | "all" | "list") => {}
            Some(d) => {
                return Err(Refusal::Input(format!(
                    "field `device`: invalid value {d:?}: cpu, gpu, all or list"
                )));
            }
        }
        Ok(CountChoices {
            threads,
            share: parsed("share", self.share.as_deref(), |t| Share::parse(t).map_err(|e| e.to_string()))?,
            isa: parsed("isa", self.isa.as_deref(), parse_isa)?.unwrap_or(IsaChoice::Widest),
            memory: parsed("memory", self.memory.as_deref(), parse_size)?,
            engine: parsed("strategy", self.strategy.as_deref(), str::parse)?,
        })
    }
}

/// "uses the server's GPU": the server's GPU is not lent to requests.
pub(crate) fn cpu_only(device: Option<&str>) -> Result<(), Refusal> {
    match device {
        None | Some("cpu") => Ok(()),
        Some(_) => Err(Refusal::Bound("device other than cpu uses the server's GPU".into())),
    }
}

impl Count {
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        at_most("threads", self.threads.unwrap_or(1).into(), MAX_THREADS)?;
        cpu_only(self.device.as_deref())?;
        at_most("n", self.n.into(), COUNT_MAX_N)
    }
}

/// `queens count`: the counts of n (all of them, or one share), as the command line counts
/// them; on the task list when an engine, a share of it or a recount is asked for.
pub(crate) fn count(r: &Count, host: &dyn Host) -> Result<Record, Refusal> {
    let CountChoices { threads, share, isa, memory, engine } = r.options()?;
    if let Some(d @ ("gpu" | "all" | "list")) = r.device.as_deref() {
        return Err(Refusal::Input(format!(
            "device = {d}: the GPU runs from the command line (`damier queens count {} --device {d}`), \
             not through the lab",
            r.n
        )));
    }
    // Past the fast engine only the backtracker is left: years of counting, refused unless
    // an engine is forced.
    damier::queens::reach::check_count(r.n, engine.is_some()).map_err(Refusal::input)?;
    let isa = isa.resolve().map_err(Refusal::input)?;
    let options = CountOptions::on_this_machine(isa, memory);
    let plan = LongCount {
        n: r.n,
        share,
        engine,
        isa,
        memory: options.memory,
        journal: None,
        recount_sample: r.verify_sample,
        device: JournalDevice::Cpu,
    };
    if plan.needs_task_list() {
        if !host.parallel() {
            return Err(not_here("a count on the task list (strategy, verify_sample, a share)"));
        }
        return long_count(&plan, threads, r.seed, host);
    }
    let control = host.control();
    let start = host.seconds();
    if let Some(share) = share {
        let tasks = count::task_count_share(r.n, share).unwrap_or(0);
        let _watch = host.watch("counting", tasks);
        let run = || count::count_share_with(r.n, share, &options, control);
        let share_total =
            if host.parallel() { on_pool(threads, run)? } else { run() }.map_err(Refusal::input)?;
        return Ok(Record::Share(ShareCount {
            n: r.n,
            share: share.index() + 1,
            shares: share.of(),
            share_total,
            seconds: host.seconds() - start,
            tasks,
            fingerprint: None,
        }));
    }
    let request = CountRequest::new(r.n, options).map_err(Refusal::input)?;
    let counts = if host.parallel() {
        let _watch = host.watch("counting", request.tasks());
        on_pool(threads, || request.count(control))?
    } else {
        request.count_by_parts(control, &mut |done, parts| host.step(done, parts))
    }
    .map_err(Refusal::input)?;
    Ok(Record::Counts(TimedCounts {
        n: counts.n,
        total: counts.total,
        unique: counts.unique,
        seconds: host.seconds() - start,
    }))
}

/// A count on the task list: prepared, counted, recounted when asked (a "no" naming the tasks
/// that disagree), concluded.
fn long_count(
    plan: &LongCount,
    threads: Option<u32>,
    seed: Option<u64>,
    host: &dyn Host,
) -> Result<Record, Refusal> {
    let control = host.control();
    let result = on_pool(threads, || {
        let p = plan.prepare().map_err(|e| match e {
            damier::queens::count::long::LongCountError::Tasks(
                damier::queens::count::tasks::TaskError::OutOfRange(_),
            ) => Refusal::Input(format!("{e}: share with strategy or verify_sample works on the task list")),
            e => Refusal::input(e),
        })?;
        let left = p.left();
        {
            let _watch = host.watch("counting", left.len() as u64);
            p.count(&left, control, &|d| p.record(d)).map_err(Refusal::input)?;
        }
        conclude_long(p, plan.recount_sample, seed, host)
    })??;
    Ok(Record::LongCount(result))
}

/// The end of a count on the task list, for the command line and the request layer alike
/// (on the current pool): `recount_sample` random tasks of the share (drawn with `seed`, else
/// one of the host's) recounted with both engines when asked, a "no" naming each task that
/// disagrees (one line each, then the verdict), else the result.
pub fn conclude_long(
    p: LongRun,
    recount_sample: Option<u32>,
    seed: Option<u64>,
    host: &dyn Host,
) -> Result<LongCountResult, Refusal> {
    let mut recount = None;
    if let Some(k) = recount_sample {
        let seed = seed.unwrap_or_else(|| host.seed());
        let sampled = u64::from(k).min(p.tasks().len() as u64);
        let _watch = host.watch("recounting", sampled * TaskEngine::ALL.len() as u64);
        let checked = p.recount_sample(k, seed, host.control()).map_err(Refusal::input)?;
        if !checked.mismatches.is_empty() {
            let mut lines: Vec<String> =
                checked.mismatches.iter().map(|m| format!("MISMATCH: n = {}, {m}", p.n())).collect();
            lines.push(format!(
                "{} of {} sampled tasks disagree (seed {seed}): do not trust this count",
                checked.mismatches.len(),
                checked.tasks.len()
            ));
            return Err(Refusal::No(lines.join("\n")));
        }
        recount = Some(checked);
    }
    p.conclude(recount.as_ref()).map_err(Refusal::input)
}

/// The fields of `queens list`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct List {
    /// Board size (1 to 64).
    #[serde(deserialize_with = "de::int")]
    pub n: u32,
    /// One representative per class up to the 8 symmetries.
    #[serde(default, deserialize_with = "de::flag")]
    pub unique: bool,
    /// At most this many solutions.
    #[serde(default, deserialize_with = "de::opt_int")]
    pub limit: Option<u64>,
    /// Everything even when n > 14.
    #[serde(default, deserialize_with = "de::flag")]
    pub all: bool,
    /// This many solutions drawn at random instead.
    #[serde(default, deserialize_with = "de::opt_int")]
    pub random: Option<u64>,
    /// Seed of `random`.
    #[serde(default, deserialize_with = "de::opt_int")]
    pub seed: Option<u64>,
    /// Boards are never in the JSON: accepted, as the command line takes it.
    #[serde(default, deserialize_with = "de::flag")]
    pub no_boards: bool,
}

impl Fields for List {
    const FIELDS: &'static [&'static str] = &["n", "unique", "limit", "all", "random", "seed", "no_boards"];
    const REFUSED: Refused = &[("columns", TEXT_FORM)];

    fn check(&self) -> Result<(), Refusal> {
        if let Some(k) = self.random {
            if self.unique || self.limit.is_some() || self.all {
                return Err(Refusal::Input("random cannot be used with unique, limit or all".into()));
            }
            in_range("random", k, 1, RANDOM_MAX)?;
        } else if self.seed.is_some() {
            return Err(Refusal::Input("field `seed` is the seed of random: give random too".into()));
        }
        if self.all && self.limit.is_some() {
            return Err(Refusal::Input("all and limit cannot be used together".into()));
        }
        if let Some(k) = self.limit {
            in_range("limit", k, 1, u64::MAX)?;
        }
        Ok(())
    }
}

impl List {
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        if self.all {
            return Err(Refusal::Bound("all = true lists millions of solutions".into()));
        }
        at_most("limit", self.limit.unwrap_or(0), LIST_MAX_LIMIT)?;
        if self.random.is_some() {
            return at_most("n", self.n.into(), SOLVE_MAX_N);
        }
        if self.limit.is_none() && u64::from(self.n) > LIST_MAX_N {
            return Err(Refusal::Bound(format!(
                "n = {} is above {LIST_MAX_N}, this server's bound for a full list (give a limit)",
                self.n
            )));
        }
        Ok(())
    }
}

/// `queens list`: the solutions in backtracking order (one per class with `unique`), or
/// `random` solutions drawn.
pub(crate) fn list(r: &List, host: &dyn Host) -> Result<Record, Refusal> {
    r.check()?;
    if let Some(k) = r.random {
        return draw(r.n, k, r.seed, host).map(Record::Drawn);
    }
    let mut listing = Listing::new(r.n, r.unique, r.limit, r.all)?;
    let mut listed = Vec::new();
    // The progress counts the first row's columns whose subtrees are finished.
    let _watch = host.watch("listing", u64::from(r.n));
    while let Some(l) = listing.next(host.control())? {
        listed.push(l);
    }
    Ok(Record::Listing(listed))
}

/// Refuses a board of no square.
fn at_least_one(n: u32) -> Result<(), Refusal> {
    if n < 1 {
        return Err(Refusal::Input("n must be at least 1".into()));
    }
    Ok(())
}

/// `queens list --random k`: `k` solutions of n drawn from `seed` (drawn by the host when
/// `None`).
pub fn draw(n: u32, k: u64, seed: Option<u64>, host: &dyn Host) -> Result<sample::Drawn, Refusal> {
    at_least_one(n)?;
    let seed = seed.unwrap_or_else(|| host.seed());
    let _watch = host.watch("drawing", k);
    sample::Drawn::draw(n, k, seed, host.control()).map_err(Refusal::input)
}

/// The solutions `queens list` lists, one after the other as the search finds them (the
/// command line prints each at once, the layer collects them): in backtracking order, one per
/// class with `unique`, at most `limit`.
pub struct Listing {
    solutions: Solutions,
    unique: bool,
    limit: u64,
    listed: u64,
    reported: u32,
}

impl Listing {
    /// The listing of n, refused above [`search::MAX_N`] and, unless `limit` or `all`, above
    /// [`LIST_ALL_MAX`] (millions of solutions).
    pub fn new(n: u32, unique: bool, limit: Option<u64>, all: bool) -> Result<Listing, Refusal> {
        at_least_one(n)?;
        if n > search::MAX_N {
            return Err(Refusal::Input(format!(
                "n = {n} is too large: the search handles at most {}",
                search::MAX_N
            )));
        }
        if n > LIST_ALL_MAX && limit.is_none() && !all {
            return Err(Refusal::Input(format!(
                "n = {n} has millions of solutions: pass --limit K (or --all to list them anyway; \
                 `damier queens count {n}` just counts them)"
            )));
        }
        Ok(Listing {
            solutions: Solutions::new(n).map_err(Refusal::input)?,
            unique,
            limit: limit.unwrap_or(u64::MAX),
            listed: 0,
            reported: 0,
        })
    }

    /// The next solution listed, numbered from 1; `None` at the end or at the limit. Advances
    /// `control` by the first row's columns whose subtrees are finished.
    pub fn next(&mut self, control: &Control) -> Result<Option<symmetry::Listed>, Refusal> {
        while self.listed < self.limit {
            let Some(cols) = self.solutions.next_with(control).map_err(Refusal::input)? else { break };
            let p = Placement::new(cols.to_vec()).map_err(Refusal::input)?;
            let done = self.solutions.first_row_done();
            control.advance(u64::from(done.saturating_sub(self.reported)));
            self.reported = self.reported.max(done);
            if let Some(l) = symmetry::Listed::of(p, self.listed + 1, self.unique) {
                self.listed += 1;
                return Ok(Some(l));
            }
        }
        Ok(None)
    }
}

/// The fields of `queens first`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct First {
    /// Board size (1 to 64).
    #[serde(deserialize_with = "de::int")]
    pub n: u32,
}

impl Fields for First {
    const FIELDS: &'static [&'static str] = &["n"];
    const REFUSED: Refused = &[("columns", TEXT_FORM)];
}

/// `queens first`: the first solution in backtracking order, with the queens placed.
pub fn first(r: &First, host: &dyn Host) -> Result<search::FirstSolution, Refusal> {
    let n = search::check_first(r.n.into()).map_err(|e| match e {
        search::FirstRefused::TooLarge(n) => {
            Refusal::Input(format!("{e} (`damier queens solve {n}` constructs one)"))
        }
        e => Refusal::input(e),
    })?;
    // Backtracking to the first solution takes from microseconds to years depending on n
    // (n = 34 already takes minutes): a spinner and the time elapsed, since no total is known.
    let _watch = host.watch("queens first", 0);
    search::first_timed(n, host.control()).map_err(Refusal::input)
}

/// The fields of `queens solve`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solve {
    /// Board size.
    #[serde(deserialize_with = "de::int")]
    pub n: u32,
    /// `construct` (the default) or `local`.
    #[serde(default, deserialize_with = "de::opt_text")]
    pub method: Option<String>,
    /// Seed of the local search.
    #[serde(default, deserialize_with = "de::opt_int")]
    pub seed: Option<u64>,
}

impl Fields for Solve {
    const FIELDS: &'static [&'static str] = &["n", "method", "seed"];
    const REFUSED: Refused = &[("out", WRITES), ("format", TEXT_FORM), ("columns", TEXT_FORM)];
}

/// `queens solve`: one checked solution by the construction or by local search, or the
/// answer of an n without one.
pub fn solve(r: &Solve, host: &dyn Host) -> Result<Result<Solved, NoSolution>, Refusal> {
    let method: Method = parsed("method", r.method.as_deref(), |t| t.parse())?.unwrap_or(Method::Construct);
    if r.n == 0 {
        return Err(Refusal::input(solving::SolveError::NoBoard));
    }
    if let Some(none) = NoSolution::of(r.n, method).map_err(Refusal::input)? {
        return Ok(Err(none));
    }
    solving::check_seed(method, r.seed.is_some()).map_err(Refusal::input)?;
    // The seed is drawn only once the search is known to run.
    let seed = match method {
        Method::Local if (1..=local::MAX_N).contains(&r.n) => r.seed.unwrap_or_else(|| host.seed()),
        _ => 0,
    };
    let label = match method {
        Method::Construct => "verifying",
        Method::Local => "searching, then checking",
    };
    let start = host.seconds();
    let found = {
        let _watch = host.watch(label, solving::progress_units(r.n, method));
        solving::solve(r.n, method, seed, host.control()).map_err(Refusal::input)?
    };
    let seconds = host.seconds() - start;
    let (seed, search) = match &found {
        Solution::Searched { seed, stats, .. } => (Some(*seed), Some(*stats)),
        Solution::None(none) => return Ok(Err(none.clone())),
        Solution::Constructed { .. } => (None, None),
    };
    Ok(Ok(Solved { method, seed, search, seconds, solution: found }))
}

/// The fields of `queens max`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Max {
    /// Board size (0 to [`maximum::MAX_N`]: R(0) = 0, the empty board, as the specification
    /// lists it).
    #[serde(deserialize_with = "de::int")]
    pub n: u32,
}

impl Fields for Max {
    const FIELDS: &'static [&'static str] = &["n"];
}

/// `queens max`: R(n) with a witness. n = 0 is answered, R(0) = 0 (the product specification
/// lists it with R(1..=3)), where `count` and `first`, which need a board to place on, refuse it.
pub fn max(r: &Max, host: &dyn Host) -> Result<maximum::Max, Refusal> {
    maximum::max_queens_checked(r.n, host.control()).map_err(Refusal::input)
}

/// The fields of `queens corners`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Corners {
    /// Board size (1 to 14).
    #[serde(deserialize_with = "de::int")]
    pub n: u32,
    /// Examples shown per exercise (3 when `None`).
    #[serde(default, deserialize_with = "de::opt_int")]
    pub examples: Option<usize>,
}

impl Fields for Corners {
    const FIELDS: &'static [&'static str] = &["n", "examples"];
}

/// `queens corners`: the corner exercises between n + 1 and n.
pub fn corners(r: &Corners, host: &dyn Host) -> Result<corner::Corners, Refusal> {
    if r.n < 1 {
        return Err(Refusal::Input("n must be at least 1".into()));
    }
    if r.n > corner::MAX_N {
        return Err(Refusal::Input(format!(
            "n = {} is too large: at most {} (every solution of n+1 is enumerated)",
            r.n,
            corner::MAX_N
        )));
    }
    let _watch = host.watch("corners", u64::from(2 * r.n + 1));
    corner::exercises(r.n, r.examples.unwrap_or(3), host.control()).map_err(Refusal::input)
}

/// The fields of `queens check`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// The 1-based columns, or what `queens first`, `list`, `solve` and `max` print.
    #[serde(default, deserialize_with = "de::words")]
    pub columns: Vec<String>,
}

impl Fields for Check {
    const FIELDS: &'static [&'static str] = &["columns"];
}

/// What `queens check` is given: the file of `queens solve --format binary`, or text (columns,
/// a witness of `queens max`, or what the queens commands print, `--json` included).
#[derive(Clone, Copy, Debug)]
pub enum CheckInput<'a> {
    /// 1-based columns as `u32` little-endian ([`Placement::is_binary`]).
    Binary(&'a [u8]),
    /// Text.
    Text(&'a str),
}

impl<'a> CheckInput<'a> {
    /// `bytes` as binary when they are ([`Placement::is_binary`]), else as `text` makes them.
    pub fn of<E>(bytes: &'a [u8], text: impl FnOnce(&'a [u8]) -> Result<&'a str, E>) -> Result<Self, E> {
        if Placement::is_binary(bytes) {
            Ok(CheckInput::Binary(bytes))
        } else {
            text(bytes).map(CheckInput::Text)
        }
    }
}

/// What `queens check` read and checked.
#[derive(Debug)]
pub enum Checked {
    /// A witness of `queens max` (its empty rows 0): the report, and the queens it holds.
    Witness {
        /// The check of its queens.
        report: CheckReport,
        /// Queens placed.
        queens: u64,
    },
    /// One placement.
    One(CheckReport),
    /// Several (a listing), checked one by one.
    Listing(CheckedListing),
}

impl Checked {
    /// Whether every placement checked is valid.
    pub fn is_valid(&self) -> bool {
        match self {
            Checked::Witness { report, .. } | Checked::One(report) => report.is_valid(),
            Checked::Listing(l) => l.valid,
        }
    }

    /// The answer's record.
    pub fn record(self) -> Record {
        match self {
            Checked::Witness { report, .. } | Checked::One(report) => Record::Check(report),
            Checked::Listing(l) => Record::Checks(l),
        }
    }
}

/// `queens check`'s run, for the command line and the request layer alike: the placements of
/// `input` read within [`CHECK_MAX`] rows and the memory the reading and the check hold (the
/// input's bytes besides, checked against the address-space limit before anything is read),
/// then checked. `from_arguments`: the text is the command's arguments, so a token that is no
/// column is explained as the file name it most likely is.
pub fn check_placements(input: CheckInput<'_>, from_arguments: bool) -> Result<Checked, Refusal> {
    let (size, input_bytes) = match input {
        // `queens solve --format binary`: 4 bytes per row.
        CheckInput::Binary(bytes) => (ReadSize { rows: bytes.len() / 4, placements: 1 }, bytes.len()),
        // Every whole number counts (a token may hold several: `(1)(1)`).
        CheckInput::Text(text) => (Placement::read_size(text), text.len()),
    };
    let rows = size.rows;
    if rows > CHECK_MAX {
        return Err(Refusal::Input(format!(
            "placement of {rows} rows is too large: at most {CHECK_MAX} ({READ_BYTES_PER_ROW} bytes a row)"
        )));
    }
    let need = (input_bytes as u64).saturating_add(size.bytes());
    let out_of_memory = |e: &dyn std::fmt::Display| {
        let placements = match size.placements {
            1 => "1 placement".to_string(),
            p => format!("{p} placements"),
        };
        Refusal::Input(format!(
            "checking {rows} rows, {placements}, holds {} ({READ_BYTES_PER_ROW} bytes a row and \
             {READ_BYTES_PER_PLACEMENT} a placement besides the input): {e}",
            bytes_text(need)
        ))
    };
    check_fits(need).map_err(|e| out_of_memory(&e))?;
    let read_error = |e: PlacementError| match e {
        PlacementError::OutOfMemory(e) => out_of_memory(&e),
        // A token that is no column: a file name, most likely, so the message says how a
        // file is read.
        PlacementError::NotANumber { .. } if from_arguments => Refusal::Input(format!(
            "{e}: the arguments are columns; a placement in a file (text, --json or --format binary) is \
             read on stdin: damier queens check < FILE"
        )),
        e => Refusal::input(e),
    };
    let placements = match input {
        CheckInput::Binary(bytes) => vec![Placement::from_binary(bytes).map_err(read_error)?],
        CheckInput::Text(text) => {
            if let Some(witness) = crate::answers::read_witness(text) {
                let (n, queens) = witness.map_err(read_error)?;
                let count = queens.len() as u64;
                let report = try_check_owned(n, queens).map_err(|e| out_of_memory(&e))?;
                return Ok(Checked::Witness { report, queens: count });
            }
            crate::answers::read_placements(text).map_err(read_error)?
        }
    };
    Ok(match &placements[..] {
        [one] => Checked::One(one.try_check().map_err(|e| out_of_memory(&e))?),
        _ => Checked::Listing(CheckedListing::try_of(&placements).map_err(|e| out_of_memory(&e))?),
    })
}

/// `queens check`: a placement (or a listing, placement by placement, or a witness of `queens
/// max` with empty rows) checked.
pub(crate) fn check(r: &Check) -> Result<Record, Refusal> {
    let text = r.columns.join(" ");
    let input = CheckInput::of(text.as_bytes(), |_| Ok::<_, Refusal>(text.as_str()))?;
    Ok(check_placements(input, true)?.record())
}

/// The fields of `queens estimate`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Estimate {
    /// Board size (4 to 28).
    #[serde(deserialize_with = "de::int")]
    pub n: u32,
    /// Tasks to time (200 when `None`).
    #[serde(default, deserialize_with = "de::opt_int")]
    pub samples: Option<u32>,
    /// Seed of the draw.
    #[serde(default, deserialize_with = "de::opt_int")]
    pub seed: Option<u64>,
    /// Vector unit.
    #[serde(default, deserialize_with = "de::opt_text")]
    pub isa: Option<String>,
    /// Most queries matched per task, or `all` (the default).
    #[serde(default, deserialize_with = "de::opt_text")]
    pub queries: Option<String>,
    /// Tasks timed at once (1 when `None`).
    #[serde(default, deserialize_with = "de::opt_int")]
    pub threads: Option<u32>,
    /// `cpu` (the only device a request runs on).
    #[serde(default, deserialize_with = "de::opt_text")]
    pub device: Option<String>,
}

impl Fields for Estimate {
    const FIELDS: &'static [&'static str] = &["n", "samples", "seed", "isa", "queries", "threads", "device"];

    fn check(&self) -> Result<(), Refusal> {
        self.options().map(|_| ())
    }
}

impl Estimate {
    /// The samples, threads, queries and vector unit, read and checked as the command line
    /// reads them.
    fn options(&self) -> Result<(u32, u32, Option<u32>, IsaChoice), Refusal> {
        in_range("n", self.n.into(), MIN_TASK_N.into(), MAX_TASK_N.into())?;
        let samples = self.samples.unwrap_or(ESTIMATE_SAMPLES);
        in_range("samples", samples.into(), 1, estimate::MAX_SAMPLES.into())?;
        let threads = threads(self.threads)?.unwrap_or(1);
        let queries = parsed("queries", self.queries.as_deref(), parse_queries)?.flatten();
        match self.device.as_deref() {
            None | Some("cpu" | "gpu") => {}
            Some(d) => {
                return Err(Refusal::Input(format!("field `device`: invalid value {d:?}: cpu or gpu")));
            }
        }
        let isa = parsed("isa", self.isa.as_deref(), parse_isa)?.unwrap_or(IsaChoice::Widest);
        Ok((samples, threads, queries, isa))
    }
}

/// The default of `samples`.
pub const ESTIMATE_SAMPLES: u32 = 200;

/// The most tasks `queens count`'s `verify_sample` recounts (the command line's range: 1 to
/// this).
pub const VERIFY_SAMPLE_MAX: u32 = 1_000_000;

/// The most solutions `queens list`'s `random` draws (the command line's range: 1 to this).
pub const RANDOM_MAX: u64 = 1_000_000;

/// Parses `queries`: a positive number, or `all` (`None`: whole tasks).
pub fn parse_queries(text: &str) -> Result<Option<u32>, String> {
    match text {
        "all" => Ok(None),
        _ => match text.parse::<u32>() {
            Ok(k) if k >= 1 => Ok(Some(k)),
            _ => Err("expected a positive number of queries, or all".to_string()),
        },
    }
}

impl Estimate {
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        at_most("threads", self.threads.unwrap_or(1).into(), MAX_THREADS)?;
        cpu_only(self.device.as_deref())?;
        let samples = u64::from(self.samples.unwrap_or(ESTIMATE_SAMPLES));
        at_most("samples", samples, ESTIMATE_MAX_SAMPLES)?;
        at_most("n", self.n.into(), ESTIMATE_MAX_N)?;
        if u64::from(self.n) <= ESTIMATE_WHOLE_MAX_N {
            return Ok(());
        }
        at_most("samples", samples, ESTIMATE_BIG_MAX_SAMPLES).map_err(|e| match (e, self.samples) {
            (Refusal::Bound(m), None) => Refusal::Bound(format!(
                "{m} (the command's default: give samples at most {ESTIMATE_BIG_MAX_SAMPLES})"
            )),
            (e, _) => e,
        })?;
        let queries = self.queries.as_deref().unwrap_or("all");
        match queries.parse::<u64>() {
            Ok(k) if k <= ESTIMATE_MAX_QUERIES => Ok(()),
            _ => Err(Refusal::Bound(format!(
                "queries = {queries} times whole tasks, minutes each above n = {ESTIMATE_WHOLE_MAX_N}: give \
                 queries at most {ESTIMATE_MAX_QUERIES}"
            ))),
        }
    }
}

/// `queens estimate`: the projected cost of counting n from a timed random sample of its
/// tasks, on the CPU.
pub(crate) fn estimate(r: &Estimate, host: &dyn Host) -> Result<Record, Refusal> {
    let (samples, threads, queries, isa) = r.options()?;
    if r.device.as_deref() == Some("gpu") {
        return Err(Refusal::Input(format!(
            "device = gpu: the GPU runs from the command line (`damier queens estimate {} --device gpu`), \
             not through the lab",
            r.n
        )));
    }
    let isa = isa.resolve().map_err(Refusal::input)?;
    if !host.parallel() {
        return Err(not_here("queens estimate"));
    }
    let seed = r.seed.unwrap_or_else(|| host.seed());
    let list = TaskList::new(r.n).map_err(Refusal::input)?;
    let options = estimate::EstimateOptions { samples, seed, isa, queries, threads: threads as usize };
    // The sample and a warm-up task.
    let _watch = host.watch("queens estimate", options.tasks_timed(&list));
    let record = options.estimate(&list, host.control(), &|_| {}).map_err(Refusal::input)?;
    Ok(Record::Estimate(Box::new(record)))
}
