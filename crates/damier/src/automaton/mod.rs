//! n queens solved by a stochastic, asynchronous cellular automaton with local signals
//! after "Le problème des n reines", a French report on a cellular automaton for n queens ("the
//! automaton report" in these docs; the README's Sources list the four source documents).
//!
//! Every cell of the n × n board holds a queen count and 8 signal bits; signal `d` of a cell
//! means "a queen lies further away in direction `d`". Queens that see a signal (or share their
//! cell) try to move one cell, always to a *safe* neighbour, to a dangerous one with probability
//! ε. The report's names for these rules, used in the code:
//!
//! - `SAFESTAY(c)`: `c` holds at most one queen and no signal (its queen may stay);
//! - `SAFEGO(c, d)`: `c` holds no queen and no signal except possibly the one from direction
//!   `d`, the side a queen arrives from (a safe destination);
//! - `MOVE(from, to)`: 0 if `from` holds no queen or `SAFESTAY(from)`, 1 if
//!   `SAFEGO(to, direction of from)`, else 1 with probability ε (the report's formula forgets
//!   "holds no queen" in its random branch; its prose requires it);
//! - ω, model 2's weight of a destination: ∞ on a cell holding a queen, else its number of
//!   signals.
//!
//! Two models:
//!
//! - [`Model::Pair`] (model 1): each step updates one uniformly chosen adjacent pair;
//! - [`Model::Cell`] (model 2): each step updates one uniformly chosen cell from all its
//!   neighbours and sends a threatened queen towards the least signalled neighbour (with
//!   probability η towards a uniform neighbour);
//! - [`Model::Row`] (model 3, not in the automaton report): one queen per row, every cell updated at once
//!   per step (a generation); conflict counts saturating at 2 and min-propagation waves along
//!   the rows guide each queen's walk ([`row`]).
//!
//! ## Contents
//!
//! - [`dir`]: the one table of the 8 direction offsets used everywhere;
//! - [`pairs`]: the automaton report's bijection from `[0, (4n-2)(n-1))` onto adjacent pairs;
//! - [`Automaton`] (in `state`): the state and the update rules of models 1 and 2; model 3's
//!   state and rule in [`row`], which `Automaton` drives for [`Model::Row`];
//! - [`text`]: the `--from` position format and the trace picture;
//! - `checkpoint`: the whole state of a run as versioned, checksummed bytes (stop and
//!   resume bit-exactly); behind the Cargo feature `serde` (the generator's state is read
//!   through `rand_xoshiro`'s serde form);
//! - [`experiment`]: parallel reproducible runs, the ε sweep (the report's fig. 5: mean steps
//!   and moves against ε at n = 8), the scale over n (figs. 6 and 8: mean steps against n,
//!   beside 1/d, for each model);
//! - [`growth`]: per-n means with bootstrap intervals and the fitted growth factor per n;
//! - [`trap`]: searches for the special positions of the report's figs. 1 (every queen
//!   threatened, no safe step) and 7 (a 6 × 6 loop of model 2 at η = 0).
//!
//! ## Stepping API (for a live view)
//!
//! [`Automaton::from_seed`] builds the exact initial state `damier automaton run --seed S`
//! starts from (same parameters, same seed → same trajectory, step for step), and
//! [`Automaton::from_position`] the one of `--from FILE`. Then:
//!
//! - [`Automaton::step`] performs one update (one pair, one cell, or a generation of model 3) and says whether a queen
//!   moved; [`Automaton::run_steps`] performs up to `k` updates, stopping at a solution;
//! - [`Automaton::count`]`(x, y)` and [`Automaton::signals`]`(x, y)` read a cell (signal bit `d`
//!   is direction [`dir::DIRECTIONS`]`[d]`), [`Automaton::n`], [`Automaton::steps`],
//!   [`Automaton::moves`], [`Automaton::is_solution`] (O(1)), [`Automaton::is_absorbing`];
//! - [`text::render`] draws the board with its signals as text.
//!
//! ```
//! use damier::automaton::{Automaton, Model, Params};
//!
//! let params = Params::new(Model::Pair, 6).unwrap();
//! let mut a = Automaton::from_seed(&params, 42).unwrap();
//! while !a.is_solution() {
//!     a.run_steps(10_000);
//! }
//! let placement = a.placement().expect("solved");
//! assert_eq!(placement.n(), 6);
//! assert!(placement.is_valid());
//! ```

#[cfg(feature = "serde")]
pub mod checkpoint;
pub mod dir;
pub mod experiment;
pub mod growth;
pub mod pairs;
pub mod row;
mod state;
pub mod text;
pub mod trap;

pub use experiment::{RunResult, Stop};
pub use state::{Automaton, StartSignals};

/// Largest board side accepted by models 1 and 2: the padded board takes `4 (n+2)^2` bytes
/// (16 MiB at the limit), far past any size they solve in reasonable time.
pub const MAX_N: u32 = 2048;

/// Largest board side accepted by model 3 ([`Model::max_n`]): its layers take about 11 bytes
/// per cell (2.8 GiB at the limit); it solves n = 10 000 in minutes.
pub const ROW_MAX_N: u32 = 16_384;

/// Default ε, the probability that a threatened queen steps to a dangerous cell. [range: 0..=1]
pub const DEFAULT_EPS: f64 = 0.01;

/// Default η for model 2, chosen by the sweep recorded in `docs/automaton.md`. [range: 0..=1]
pub const DEFAULT_ETA: f64 = 0.03;

/// Which update rule drives the automaton.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "lowercase"))]
pub enum Model {
    /// Model 1: one adjacent pair per step, parameter ε.
    Pair,
    /// Model 2: one cell per step, parameters ε and η.
    Cell,
    /// Model 3 ([`row`]): one queen per row walking along it, guided by saturating conflict
    /// counts and min-propagation waves; synchronous generations; ε (uphill steps).
    Row,
}

impl Model {
    /// Every model, in the order of their numbers (1, 2, 3): the list front ends offer.
    pub const ALL: [Model; 3] = [Model::Pair, Model::Cell, Model::Row];

    /// The model's name, as front ends take and show it: `pair`, `cell` or `row`.
    pub fn name(self) -> &'static str {
        match self {
            Model::Pair => "pair",
            Model::Cell => "cell",
            Model::Row => "row",
        }
    }

    /// Whether the model reads η: model 2 only (its random destinations); models 1 and 3
    /// ignore it, so a report of their runs gives no η.
    pub fn uses_eta(self) -> bool {
        self == Model::Cell
    }

    /// The largest board side the model accepts: [`MAX_N`] for models 1 and 2,
    /// [`ROW_MAX_N`] for model 3.
    pub fn max_n(self) -> u32 {
        match self {
            Model::Pair | Model::Cell => MAX_N,
            Model::Row => ROW_MAX_N,
        }
    }

    /// The model's number: 1 and 2 are the automaton report's, 3 is damier's row model.
    pub fn number(self) -> u32 {
        match self {
            Model::Pair => 1,
            Model::Cell => 2,
            Model::Row => 3,
        }
    }

    /// The model's name in messages and figures: its number (the automaton report's for
    /// models 1 and 2) and its option name, `model 1 (pair)`.
    pub fn label(self) -> &'static str {
        match self {
            Model::Pair => "model 1 (pair)",
            Model::Cell => "model 2 (cell)",
            Model::Row => "model 3 (row)",
        }
    }
}

/// A model named by [`Model::name`] (`pair`, `cell`, `row`); any other name is refused with
/// the list of names (the one parser of the CLI, the web lab and the Python package).
///
/// ```
/// use damier::automaton::Model;
///
/// assert_eq!("cell".parse::<Model>(), Ok(Model::Cell));
/// let err = "pairs".parse::<Model>().unwrap_err();
/// assert_eq!(err.to_string(), "model `pairs`: expected one of pair, cell, row");
/// ```
impl std::str::FromStr for Model {
    type Err = UnknownModel;

    fn from_str(name: &str) -> Result<Model, UnknownModel> {
        Model::ALL.into_iter().find(|m| m.name() == name).ok_or_else(|| UnknownModel(name.to_string()))
    }
}

/// A model name that is none of [`Model::ALL`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("model `{0}`: expected one of {names}", names = model_names())]
pub struct UnknownModel(pub String);

/// The names of [`Model::ALL`], comma separated.
fn model_names() -> String {
    Model::ALL.map(Model::name).join(", ")
}

/// η for runs of `models`, checked: the value given, or [`DEFAULT_ETA`] when none is given;
/// `None` when no model of the list uses it ([`Model::uses_eta`]), so that a report claims no
/// η its runs ignored. Given for models that all ignore it (models 1 and 3), it is refused
/// rather than silently dropped: the runs would not be what was asked for. The one check of
/// every front end (CLI, web lab, Python package).
///
/// ```
/// use damier::automaton::{Model, eta_for};
///
/// assert_eq!(eta_for(&[Model::Pair, Model::Cell], Some(0.1)), Ok(Some(0.1)));
/// assert_eq!(eta_for(&[Model::Row], None), Ok(None));
/// assert!(eta_for(&[Model::Pair], Some(0.1)).is_err());
/// ```
pub fn eta_for(models: &[Model], eta: Option<f64>) -> Result<Option<f64>, AutomatonError> {
    let used = models.iter().any(|m| m.uses_eta());
    if let Some(value) = eta {
        if !(0.0..=1.0).contains(&value) {
            return Err(AutomatonError::Probability { name: "eta", value });
        }
        if !used {
            let mut unused = models.to_vec();
            unused.sort_unstable_by_key(|m| m.label());
            unused.dedup();
            return Err(AutomatonError::EtaUnused { value, models: unused });
        }
    }
    Ok(used.then(|| eta.unwrap_or(DEFAULT_ETA)))
}

/// Why η is refused for `models`, none of which uses it: [`AutomatonError::EtaUnused`]'s
/// reason.
fn eta_unused(models: &[Model]) -> String {
    let names: Vec<&str> = models.iter().map(|m| m.label()).collect();
    let verb = if names.len() == 1 { "does" } else { "do" };
    if names.is_empty() {
        format!("no run is of the automaton, and only its {} uses η", Model::Cell.label())
    } else {
        format!("{} {verb} not use η, only {} does", names.join(" and "), Model::Cell.label())
    }
}

impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a run needs besides its seed: model, board side and probabilities. Serialised, it gives
/// `eta` as null for the models that ignore it ([`Params::used_eta`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// The update rule.
    pub model: Model,
    /// Board side. [range: 1..=MAX_N, model 3: 1..=ROW_MAX_N]
    pub n: u32,
    /// Probability that a queen accepts a move to a dangerous cell (model 3: an uphill step;
    /// there it must be positive, or a queen in a row's best cell could stay in conflict
    /// forever). [default: 0.01] [range: 0..=1, model 3: (0, 1]]
    pub eps: f64,
    /// Model 2: probability of a uniform destination instead of a least-signalled one.
    /// Ignored by models 1 and 3. [default: [`DEFAULT_ETA`]] [range: 0..=1]
    pub eta: f64,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Params {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Params", 4)?;
        st.serialize_field("model", &self.model)?;
        st.serialize_field("n", &self.n)?;
        st.serialize_field("eps", &self.eps)?;
        st.serialize_field("eta", &self.used_eta())?;
        st.end()
    }
}

impl Params {
    /// Default ε and η for `model` on an `n × n` board, validated.
    pub fn new(model: Model, n: u32) -> Result<Params, AutomatonError> {
        Params { model, n, eps: DEFAULT_EPS, eta: DEFAULT_ETA }.validated()
    }

    /// η when the model uses it (model 2), else `None`: what reports show, so that no run
    /// claims a parameter it ignored.
    pub fn used_eta(&self) -> Option<f64> {
        self.model.uses_eta().then_some(self.eta)
    }

    /// Cells one step updates: 1 for models 1 and 2 (a pair counts as one update), `n^2` for
    /// model 3 (a generation), so rates of different models compare.
    pub fn cells_per_step(&self) -> u64 {
        match self.model {
            Model::Pair | Model::Cell => 1,
            Model::Row => u64::from(self.n) * u64::from(self.n),
        }
    }

    /// The bytes a run's state holds: model 3's bit planes (twice: the generation and the
    /// next), models 1 and 2's cell words, pairs and indices; 1.35e9 bytes at model 3's
    /// n = 16 384, 1.72e8 at models 1 and 2's n = 2048.
    pub fn state_bytes(&self) -> u64 {
        match self.model {
            Model::Pair | Model::Cell => Automaton::cell_bytes(self.n),
            Model::Row => row::RowBoard::bytes(self.n as usize),
        }
    }

    /// [`Params::state_bytes`], refused as [`AutomatonError::OutOfMemory`] when it cannot fit
    /// the process's address space ([`check_fits`](crate::util::check_fits)): the check every
    /// start makes before its state is allocated (a board of model 3 at n = 16 384 aborted
    /// the process under a 1 GB limit).
    pub fn check_memory(&self) -> Result<u64, AutomatonError> {
        self.check_memory_of(1)
    }

    /// [`Params::check_memory`] for `runs` runs held at once (an experiment's runs on the
    /// pool's threads).
    pub fn check_memory_of(&self, runs: u64) -> Result<u64, AutomatonError> {
        let need = self.state_bytes().saturating_mul(runs);
        crate::util::check_fits(need).map_err(|source| AutomatonError::OutOfMemory {
            model: self.model,
            n: self.n,
            runs,
            need,
            source,
        })?;
        Ok(need)
    }

    /// Checks the ranges of every field.
    pub fn validated(self) -> Result<Params, AutomatonError> {
        if self.n == 0 || self.n > self.model.max_n() {
            return Err(AutomatonError::Size { n: self.n, max: self.model.max_n() });
        }
        for (name, v) in [("eps", self.eps), ("eta", self.eta)] {
            if !(0.0..=1.0).contains(&v) {
                return Err(AutomatonError::Probability { name, value: v });
            }
        }
        if self.model == Model::Row && self.eps == 0.0 {
            return Err(AutomatonError::RowNeedsEps);
        }
        Ok(self)
    }
}

/// Why an automaton could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AutomatonError {
    /// n is 0 or larger than the model's [`Model::max_n`].
    #[error("board side n = {n} is out of range: 1 to {max} is supported")]
    Size {
        /// The side given.
        n: u32,
        /// The largest side supported.
        max: u32,
    },
    /// ε or η outside [0, 1] (or not a number).
    #[error("{name} = {} is not a probability in [0, 1]", crate::util::given(*value))]
    Probability {
        /// `eps` or `eta`.
        name: &'static str,
        /// The rejected value.
        value: f64,
    },
    /// η given for runs of models that all ignore it ([`eta_for`]).
    #[error("eta = {} is refused: {}", crate::util::given(*value), eta_unused(models))]
    EtaUnused {
        /// The η given.
        value: f64,
        /// The models of the runs, none of which uses η (sorted, each once; empty when no
        /// run is of the automaton).
        models: Vec<Model>,
    },
    /// A starting position whose size does not match n.
    #[error("the position is {got} x {got} but n = {n}")]
    PositionSize {
        /// Expected side.
        n: u32,
        /// Side of the position.
        got: u32,
    },
    /// Model 3 with ε = 0: its absorbing states would not all be solutions.
    #[error(
        "model row needs eps > 0: without uphill steps a queen in its row's best cell could stay in conflict forever"
    )]
    RowNeedsEps,
    /// A model 3 start without exactly one queen per row.
    #[error("model row keeps one queen per row: row {row} holds {queens}")]
    RowStart {
        /// 0-based row.
        row: u32,
        /// Its queens.
        queens: u32,
    },
    /// A starting position that does not hold exactly n queens.
    #[error("the position holds {got} queens; an n = {n} board needs exactly {n}")]
    QueenCount {
        /// Board side.
        n: u32,
        /// Queens in the position.
        got: u64,
    },
    /// A run's state that cannot fit the address space ([`Params::check_memory`]).
    #[error("{} of model {} at n = {n} {} {}: {source}",
        if *runs == 1 { "a run".to_string() } else { format!("{runs} runs") },
        model.number(),
        if *runs == 1 { "holds" } else { "at once hold" },
        crate::util::bytes_text(*need))]
    OutOfMemory {
        /// The model.
        model: Model,
        /// Board side.
        n: u32,
        /// The runs held at once.
        runs: u64,
        /// The bytes its state holds ([`Params::state_bytes`]).
        need: u64,
        /// The refusal, with the limit.
        source: crate::util::OutOfMemory,
    },
    /// A model 3 board put into an automaton it does not continue
    /// ([`Automaton::set_model3`]).
    #[error("a model 3 board of n = {got} under another rule or model does not continue this run (n = {n})")]
    Model3Board {
        /// The automaton's side.
        n: u32,
        /// The board's side.
        got: u32,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_is_listed_numbered_and_parsed_back_by_its_name() {
        for (i, m) in Model::ALL.into_iter().enumerate() {
            assert_eq!(m.number() as usize, i + 1);
            assert_eq!(m.name().parse::<Model>(), Ok(m));
            assert_eq!(m.label(), format!("model {} ({})", m.number(), m.name()));
        }
        for bad in ["", "Pair", "1", "rows", " pair"] {
            assert_eq!(bad.parse::<Model>(), Err(UnknownModel(bad.to_string())));
        }
    }

    #[test]
    fn each_model_has_its_largest_side() {
        for m in Model::ALL {
            let max = m.max_n();
            assert!(Params::new(m, max).is_ok(), "{m}");
            let err = Params::new(m, max + 1).unwrap_err();
            assert_eq!(err, AutomatonError::Size { n: max + 1, max });
            assert!(err.to_string().contains(&format!("1 to {max} is supported")), "{err}");
        }
        // Model 3 runs at n = 10 000 (issue 40); models 1 and 2 stop at MAX_N.
        assert!(Model::Row.max_n() >= 10_000 && Model::Pair.max_n() == MAX_N);
    }

    #[test]
    fn eta_is_refused_unless_a_model_uses_it() {
        assert_eq!(eta_for(&[Model::Cell], None), Ok(Some(DEFAULT_ETA)));
        assert_eq!(eta_for(&[Model::Row, Model::Cell], Some(0.0)), Ok(Some(0.0)));
        assert_eq!(eta_for(&[Model::Pair, Model::Row], None), Ok(None));
        let one = eta_for(&[Model::Pair], Some(0.5)).unwrap_err();
        assert_eq!(
            one.to_string(),
            "eta = 0.5 is refused: model 1 (pair) does not use η, only model 2 (cell) does"
        );
        let two = eta_for(&[Model::Row, Model::Pair, Model::Row], Some(0.0)).unwrap_err();
        assert_eq!(
            two,
            AutomatonError::EtaUnused { value: 0.0, models: vec![Model::Pair, Model::Row] },
            "sorted, each model once"
        );
        assert!(two.to_string().contains("model 1 (pair) and model 3 (row) do not use η"), "{two}");
        let none = eta_for(&[], Some(0.1)).unwrap_err().to_string();
        assert!(none.contains("no run is of the automaton"), "{none}");
        // Out of range is said first, whatever the models.
        for models in [&[Model::Cell][..], &[Model::Pair]] {
            assert!(matches!(
                eta_for(models, Some(1.5)),
                Err(AutomatonError::Probability { name: "eta", .. })
            ));
            assert!(matches!(eta_for(models, Some(f64::NAN)), Err(AutomatonError::Probability { .. })));
        }
    }
}
