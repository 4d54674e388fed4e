//! Model 3's rule: its settings ([`Rule`], [`Schedule`]), the kept rule's constants, and its
//! probabilities as thresholds on the generator's bits (the only random draws of a run).

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::Rng;

/// The generator of every run.
pub(super) type Rand = Xoshiro256PlusPlus;

/// How the cells are scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every cell updates at once from the previous generation; a step is one generation.
    Synchronous,
    /// One uniformly chosen cell per step, in place (the automaton report's model 2 schedule).
    RandomCell,
}

/// One local rule of the family (the designs of `docs/automaton.md`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule {
    /// Saturation of each conflict count: 1 is the automaton report's yes/no signal, 2 counts 0, 1, 2+.
    /// [range: 1..=2]
    pub cap: u8,
    /// Follow the min-propagation waves (true) or only compare the two neighbours' dangers.
    pub wave: bool,
    /// Update schedule.
    pub schedule: Schedule,
    /// Walking queens are invisible: a queen in danger starts a walk (with probability
    /// [`Rule::activity`]), walks without being counted, and is counted again once it
    /// settles on a cell no side beats.
    pub hide_walkers: bool,
    /// Probability that a queen in danger acts at all in a generation (desynchronises the
    /// queens of a synchronous run). [range: 0..=1]
    pub activity: f64,
    /// Start probability (as [`Rule::activity`]) of a queen in danger whose conflicts all lie
    /// south of it (no queen north, north-east or north-west): below `activity`, the queen
    /// further north keeps its cell and the southern one yields. [range: 0..=1]
    pub south_activity: f64,
    /// Probability of a step towards a side as good as the queen's cell (plateau move).
    /// [range: 0..=1]
    pub plateau: f64,
    /// Probability of a step to a uniform side whatever the sides hold (noise, as
    /// min-conflicts' random walk), and of an uphill step when no side is as good; must be
    /// positive for the absorbing states to be exactly the solutions. [range: 0..=1]
    pub eps: f64,
    /// Patience of a queen whose conflicts all lie south (0: none, the queen acts with
    /// probability [`Rule::south_activity`] every generation): a settled queen in such danger
    /// counts up to `patience` (one step with probability [`Rule::patience_rate`] per
    /// generation; the count restarts when the queen is out of danger or moves) and only
    /// then acts with probability [`Rule::south_activity`]. The southern queen of a conflict
    /// moves first; the northern one moves only when the conflict persists. [range: 0..=15]
    pub patience: u8,
    /// Probability per generation that a waiting queen's patience count goes up.
    /// [range: 0..=1]
    pub patience_rate: f64,
    /// The patience count survives the queen's stretches out of danger (it restarts only
    /// when the queen moves): the count measures all the time the queen has spent in
    /// southern conflicts on its cell, not only the current one.
    pub patience_keeps: bool,
    /// Rest after a walk (0: none): a queen that settles in danger (the best cell its walk
    /// found is attacked) rests for `rest` counts (each ending with probability
    /// [`Rule::rest_rate`] per generation) and does not act while it rests, so that the
    /// queens it attacks see it (the counts travel one cell per generation) and yield before
    /// it moves again. [range: 0..=15]
    pub rest: u8,
    /// Probability per generation that a resting queen's rest count goes down.
    /// [range: 0..=1]
    pub rest_rate: f64,
    /// Backoff (0: none): a queen's own record of its failed walks. A walk that settles in
    /// danger raises the queen's level by one, up to `backoff`; one that settles out of
    /// danger clears it. A settled queen at level k acts with its activity
    /// ([`Rule::activity`] or [`Rule::south_activity`]) divided by 2^k, so the queens of a
    /// board whose walks keep landing on lines taken meanwhile (the gas of large boards)
    /// slow down, and those of a board that settles do not: an activity that falls where
    /// the walks fail, without knowing n. The level lives in the rest count's 4 bits, so a
    /// rule has backoff or rest, not both. [range: 0..=15]
    pub backoff: u8,
    /// Backoff raised by hits instead ([`Rule::backoff`] above 0): the level goes one up when
    /// a settled queen that was out of danger finds itself in danger (a walker landed on one
    /// of its lines, or it landed on a line whose news had not reached it: a collision, which
    /// both queens see), walks leave it as it is, and a settled queen out of danger lowers it
    /// by one with probability [`Rule::backoff_rate`] per generation.
    pub backoff_hits: bool,
    /// [`Rule::backoff_hits`]: the probability per generation that a safe queen's level goes
    /// down by one. [range: 0..=1]
    pub backoff_rate: f64,
}

impl Rule {
    /// Model 3 as the product runs it (the kept design of `docs/automaton.md`): counts
    /// saturating at 2, waves, synchronous, walkers unseen, activity [`ACTIVITY`] (north
    /// conflicts) and [`SOUTH_ACTIVITY`] (south only), plateau walks with probability
    /// [`PLATEAU`], uphill steps with probability `eps`, no patience and no rest.
    pub fn model3(eps: f64) -> Rule {
        Rule {
            cap: 2,
            wave: true,
            schedule: Schedule::Synchronous,
            hide_walkers: true,
            activity: ACTIVITY,
            south_activity: SOUTH_ACTIVITY,
            plateau: PLATEAU,
            eps,
            patience: 0,
            patience_rate: 0.0,
            patience_keeps: false,
            rest: 0,
            rest_rate: 0.0,
            backoff: 0,
            backoff_hits: false,
            backoff_rate: 0.0,
        }
    }

    /// Model 3's first kept rule (design 4 of `docs/automaton.md`, the default until
    /// issue 40): the same with [`SOUTH_ACTIVITY_V1`], 3.3 times [`SOUTH_ACTIVITY`]. It
    /// solves n <= 512 but not n = 1 000 (the moves never settle).
    pub fn model3_v1(eps: f64) -> Rule {
        Rule { south_activity: SOUTH_ACTIVITY_V1, ..Rule::model3(eps) }
    }
}

/// Model 3: probability that a queen in danger with no better side walks to an equally good
/// one.
pub const PLATEAU: f64 = 0.1;

/// Model 3: probability that a settled queen with a conflict towards the north starts a walk
/// in a generation (measured in `docs/automaton.md`).
pub const ACTIVITY: f64 = 0.1;
/// Model 3: the same for a queen whose conflicts all lie south (it mostly waits: the other
/// queen of the line moves). At 0.01 ([`SOUTH_ACTIVITY_V1`]) the northern queens of n = 1 000
/// kept the moves from settling (docs/automaton.md).
pub const SOUTH_ACTIVITY: f64 = 0.003;
/// [`Rule::model3_v1`]: the same.
pub const SOUTH_ACTIVITY_V1: f64 = 0.01;

/// A probability as a threshold on 53 random bits.
pub(super) fn threshold(p: f64) -> u64 {
    (p * (1u64 << 53) as f64).round() as u64
}

/// One Bernoulli draw against a [`threshold`]; probability 1 holds without a draw.
#[inline(always)]
pub(super) fn draw(rng: &mut Rand, t: u64) -> bool {
    // PERF: integer compare of 53 random bits; no draw at all for probability 1.
    t >= 1 << 53 || (rng.next_u64() >> 11) < t
}
