//! The queens automaton: the requests of `automaton run` and `automaton trap`, their bounds,
//! and their runs on the library. A start position is given as its content, as the lab's
//! pages send a file.

use damier::automaton::experiment::{RunRecord, UnsolvableRun};
use damier::automaton::row::RuleName;
use damier::automaton::{self as engine, Automaton, Model, Params, StartSignals, Stop, text, trap};
use serde::Deserialize;

use crate::de;
use crate::fields::in_range;
use crate::fields::{Fields, Refused, WRITES};
use crate::host::Host;
use crate::queens::{at_most, cpu_only};
use crate::records::Record;
use crate::refusal::Refusal;

/// Largest board side of `automaton run` (and of the live runs of models 1 and 2) without
/// `--allow-heavy`.
pub const AUTOMATON_MAX_N: u64 = 64;
/// Most automaton updates of one run.
pub const AUTOMATON_MAX_STEPS: u64 = 100_000_000;
/// Most boards one traced run would print.
pub const AUTOMATON_MAX_TRACES: u64 = 10_000;
/// Most automaton updates of a trap search, all samples together.
pub const TRAP_MAX_UPDATES: u64 = 1_000_000_000;

/// The command line's default step cap of `automaton run`: 10^10 updates.
const RUN_MAX_STEPS: u64 = 10_000_000_000;
/// `automaton trap`'s default seed.
const TRAP_SEED: u64 = 1;
/// `automaton trap`'s default runs per setting.
const TRAP_SAMPLES: u64 = 20;
/// `automaton trap`'s default step cap of each run.
const TRAP_MAX_STEPS: u64 = 10_000_000;
/// Most runs per setting of `automaton trap` (the command line's range).
const TRAP_MAX_SAMPLES: u64 = 100_000;

/// Refuses the probability `v` of the field `field` outside [0, 1].
fn probability(field: &str, v: f64) -> Result<(), Refusal> {
    if !(0.0..=1.0).contains(&v) {
        return Err(Refusal::Input(format!(
            "field `{field}`: {} is not a probability in [0, 1]",
            damier::util::given(v)
        )));
    }
    Ok(())
}

/// Refuses `field`'s value, or the command's `default` when not given, above `max`; the
/// message says when the value is the default.
fn at_most_or_default(field: &str, given: Option<u64>, default: u64, max: u64) -> Result<(), Refusal> {
    at_most(field, given.unwrap_or(default), max).map_err(|e| match (e, given) {
        (Refusal::Bound(m), None) => {
            Refusal::Bound(format!("{m} (the command's default: give {field} at most {max})"))
        }
        (e, _) => e,
    })
}

/// The fields of `automaton run`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// The update rule: `pair` (the default), `cell` or `row`.
    #[serde(default, deserialize_with = "de::opt_text")]
    pub model: Option<String>,
    /// Board side (optional with `from`).
    #[serde(default, deserialize_with = "de::opt_int")]
    pub n: Option<u32>,
    /// Probability of accepting a move to a dangerous cell.
    #[serde(default, deserialize_with = "de::opt_float")]
    pub eps: Option<f64>,
    /// Model 2's probability of a uniform destination.
    #[serde(default, deserialize_with = "de::opt_float")]
    pub eta: Option<f64>,
    /// Model 3's rule, by name.
    #[serde(default, deserialize_with = "de::opt_text")]
    pub rule: Option<String>,
    /// Generator seed (drawn when `None`).
    #[serde(default, deserialize_with = "de::opt_int")]
    pub seed: Option<u64>,
    /// Step cap.
    #[serde(default, deserialize_with = "de::opt_int")]
    pub max_steps: Option<u64>,
    /// A start position's content: n lines of n cells.
    #[serde(default, deserialize_with = "de::opt_content")]
    pub from: Option<String>,
    /// Boards every K updates (on the command line's stderr; no answer carries them).
    #[serde(default, deserialize_with = "de::opt_int")]
    pub trace: Option<u64>,
    /// `cpu` (the only device a request runs on).
    #[serde(default, deserialize_with = "de::opt_text")]
    pub device: Option<String>,
    /// The GPU of `device = gpu`.
    #[serde(default, deserialize_with = "de::opt_int")]
    pub gpu_adapter: Option<usize>,
}

impl Fields for Run {
    const FIELDS: &'static [&'static str] =
        &["model", "n", "eps", "eta", "rule", "seed", "max_steps", "from", "trace", "device", "gpu_adapter"];
    const REFUSED: Refused = &[
        ("checkpoint", WRITES),
        ("checkpoint_every", "paces the checkpoints, which write a file on the server"),
    ];

    fn check(&self) -> Result<(), Refusal> {
        self.model()?;
        self.rule()?;
        match self.device.as_deref() {
            None | Some("cpu" | "gpu") => {}
            Some(d) => {
                return Err(Refusal::Input(format!("field `device`: invalid value {d:?}: cpu or gpu")));
            }
        }
        if self.trace == Some(0) {
            return Err(Refusal::Input(
                "field `trace`: 0 is out of range: 1 to 2^64 - 1 is supported".into(),
            ));
        }
        Ok(())
    }
}

impl Run {
    /// The model asked for.
    fn model(&self) -> Result<Option<Model>, Refusal> {
        let model = self.model.as_deref().map(str::parse::<Model>).transpose();
        model.map_err(|e| Refusal::Input(format!("field `model`: {e}")))
    }

    /// Model 3's rule asked for.
    fn rule(&self) -> Result<Option<RuleName>, Refusal> {
        let rule = self.rule.as_deref().map(str::parse::<RuleName>).transpose();
        rule.map_err(|e| Refusal::Input(format!("field `rule`: {e}")))
    }

    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        cpu_only(self.device.as_deref())?;
        if self.gpu_adapter.is_some() {
            return Err(Refusal::Bound("gpu_adapter tunes the server's GPU".into()));
        }
        if let Some(n) = self.n {
            at_most("n", n.into(), AUTOMATON_MAX_N)?;
        }
        // A position the parser refuses is the run's to refuse, with its message.
        if let Some(Ok((n, _))) = self.from.as_deref().map(text::parse_position)
            && u64::from(n) > AUTOMATON_MAX_N
        {
            return Err(Refusal::Bound(format!(
                "from: a {n} x {n} position is above {AUTOMATON_MAX_N}, this server's bound"
            )));
        }
        at_most_or_default("max_steps", self.max_steps, RUN_MAX_STEPS, AUTOMATON_MAX_STEPS)?;
        let steps = self.max_steps.unwrap_or(RUN_MAX_STEPS);
        if let Some(k) = self.trace
            && steps / k > AUTOMATON_MAX_TRACES
        {
            return Err(Refusal::Bound(format!(
                "trace = {k} prints {} boards in {steps} updates: more than {AUTOMATON_MAX_TRACES}, this server's bound",
                steps / k
            )));
        }
        Ok(())
    }
}

/// Why `n` is no side of `model`'s boards, or `None` when it is one: the model's range in
/// words, and for models 1 and 2 the way around, model 3, whose boards go up to
/// [`engine::ROW_MAX_N`] (the CLI's `automaton run`, `sweep`, `bench` and `watch` say the
/// same).
pub fn side_refused(model: Model, n: u32) -> Option<String> {
    if (1..=model.max_n()).contains(&n) {
        return None;
    }
    let around = if model != Model::Row && n > model.max_n() {
        format!("; {} takes sides up to {}", Model::Row.label(), Model::Row.max_n())
    } else {
        String::new()
    };
    Some(format!(
        "n = {n} is out of range: 1 to {} is supported for {} (the board must fit in memory){around}",
        model.max_n(),
        model.label()
    ))
}

/// `automaton run`: one run to the first solution or the step cap; a "no" when unsolved, or
/// when no solution exists for its n (n = 2, 3: nothing is run, the record of its start).
pub(crate) fn run(r: &Run, host: &dyn Host) -> Result<Record, Refusal> {
    if r.device.as_deref() == Some("gpu") {
        return Err(Refusal::Input(
            "device = gpu: model 3 on the GPU runs from the command line (`damier automaton run --model row \
             --device gpu`), not through the lab"
                .into(),
        ));
    }
    if r.gpu_adapter.is_some() {
        return Err(Refusal::Input("gpu_adapter picks the GPU of device = gpu".into()));
    }
    let eps = r.eps.unwrap_or(engine::DEFAULT_EPS);
    probability("eps", eps)?;
    let model = r.model()?.unwrap_or(Model::Pair);
    if let Some(v) = r.eta {
        probability("eta", v)?;
    }
    let eta = engine::eta_for(&[model], r.eta).map_err(Refusal::input)?;
    let seed = r.seed.unwrap_or_else(|| host.seed());
    let start = match &r.from {
        Some(content) => {
            let (n, counts) =
                text::parse_position(content).map_err(|e| Refusal::Input(format!("from: {e}")))?;
            if let Some(given) = r.n.filter(|&given| given != n) {
                return Err(Refusal::Input(format!(
                    "from: the position is {n} x {n} but n = {given} was given"
                )));
            }
            Some((n, counts))
        }
        None => None,
    };
    let n = match (&start, r.n) {
        (Some((n, _)), _) => *n,
        (None, Some(n)) => n,
        (None, None) => {
            return Err(Refusal::Input("give the board side n (or a position's content as `from`)".into()));
        }
    };
    if let Some(why) = side_refused(model, n) {
        return Err(Refusal::Input(why));
    }
    let rule = r.rule()?;
    if rule.is_some() && model != Model::Row {
        return Err(Refusal::Input("rule chooses model 3's rule: give model = row".into()));
    }
    let rule = rule.unwrap_or(RuleName::Kept);
    let params = Params { model, n, eps, eta: eta.unwrap_or(engine::DEFAULT_ETA) }
        .validated()
        .map_err(Refusal::input)?;
    let mut aut = match &start {
        Some((_, counts)) => Automaton::from_position_under(&params, rule, counts, StartSignals::None, seed)
            .map_err(|e| Refusal::Input(format!("from: {e}")))?,
        None => Automaton::from_seed_under(&params, rule, seed).map_err(Refusal::input)?,
    };
    if let Some(not_made) = UnsolvableRun::of(&aut).map_err(Refusal::input)? {
        return Ok(Record::AutomatonUnsolvable(not_made));
    }
    let t0 = host.seconds();
    // The trajectory does not depend on how the run is cut into chunks: a `trace` (boards on
    // the command line's stderr, which no answer carries) changes nothing in the record.
    let result = aut
        .run_until(r.max_steps.unwrap_or(RUN_MAX_STEPS), &Stop::new(host.control()))
        .map_err(Refusal::input)?;
    Ok(Record::AutomatonRun(RunRecord::new(&aut, result, host.seconds() - t0)))
}

/// The fields of `automaton trap`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trap {
    /// The figure of the automaton report: 1 or 7.
    #[serde(deserialize_with = "de::int")]
    pub figure: u8,
    /// Seed of the search and of the runs (1 when `None`).
    #[serde(default, deserialize_with = "de::opt_int")]
    pub seed: Option<u64>,
    /// Runs per setting (20 when `None`).
    #[serde(default, deserialize_with = "de::opt_int")]
    pub samples: Option<u64>,
    /// Step cap of each run (10^7 when `None`).
    #[serde(default, deserialize_with = "de::opt_int")]
    pub max_steps: Option<u64>,
}

impl Fields for Trap {
    const FIELDS: &'static [&'static str] = &["figure", "seed", "samples", "max_steps"];

    fn check(&self) -> Result<(), Refusal> {
        in_range("figure", self.figure.into(), 1, 7)?;
        in_range("samples", self.samples.unwrap_or(TRAP_SAMPLES), 1, TRAP_MAX_SAMPLES)
    }
}

impl Trap {
    pub(crate) fn bound(&self) -> Result<(), Refusal> {
        let samples = self.samples.unwrap_or(TRAP_SAMPLES);
        let steps = self.max_steps.unwrap_or(TRAP_MAX_STEPS);
        if samples.saturating_mul(steps) > TRAP_MAX_UPDATES {
            return Err(Refusal::Bound(format!(
                "samples x max_steps = {samples} x {steps} is above {TRAP_MAX_UPDATES} updates, this server's bound"
            )));
        }
        Ok(())
    }
}

/// `automaton trap`: the trap position of a figure, and how the models leave it.
pub(crate) fn trap(r: &Trap, host: &dyn Host) -> Result<Record, Refusal> {
    r.check()?;
    if !matches!(r.figure, 1 | 7) {
        return Err(Refusal::Input(format!(
            "figure = {}: only figures 1 and 7 are trap positions",
            r.figure
        )));
    }
    let samples = r.samples.unwrap_or(TRAP_SAMPLES);
    let steps = r.max_steps.unwrap_or(TRAP_MAX_STEPS);
    let stop = Stop::new(host.control());
    let report = trap::experiment(r.figure, r.seed.unwrap_or(TRAP_SEED), samples as usize, steps, &stop)
        .map_err(Refusal::input)?;
    Ok(Record::AutomatonTrap(Box::new(report)))
}
