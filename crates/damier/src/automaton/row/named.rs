//! Model 3's rules by name: the kept rule and the designs of `docs/automaton.md`, each a
//! setting of [`Rule`] written as `key=value` overrides (the design runner's language), so
//! that the command line, the checkpoints and the design runner name the same rules.

use super::{Rule, Schedule};

/// A named rule of model 3's design family (`docs/automaton.md`, "Why each part is there").
/// The names and [`RuleName::code`]s are stable: checkpoints record the code.
///
/// ```
/// use damier::automaton::row::{Rule, RuleName};
///
/// assert_eq!("kept".parse::<RuleName>(), Ok(RuleName::Kept));
/// assert_eq!(RuleName::Kept.rule(0.01), Rule::model3(0.01));
/// assert!("kept-patience".parse::<RuleName>().unwrap_err().to_string().contains("patience"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleName {
    /// The kept rule, [`Rule::model3`] (southern probability 0.003).
    Kept,
    /// Design 4, the first kept rule, [`Rule::model3_v1`] (southern probability 0.01).
    V1,
    /// Kept patience: a queen whose conflicts all lie south waits up to 15 counts (kept
    /// through its stretches out of danger) before it acts; solved n = 4 096 (seed 1).
    Patience,
    /// All activities 10 times lower than the kept rule's (0.01 and 0.001).
    Slow,
    /// The kept rule with southern probability 0.001.
    RareSouth,
    /// Strict northern priority: southern probability 0.
    Strict,
    /// The first patience design (the count restarts out of danger, plateau 0).
    PatienceReset,
    /// Patience with a rest after each walk that settles in danger.
    PatienceRest,
    /// Design 1: no waves, walkers seen (a queen compares its two row neighbours).
    Gradient,
    /// Design 2: waves, walkers seen, every acting queen re-reads both waves.
    Memoryless,
    /// Design 2': design 2 at activity 0.01.
    MemorylessSlow,
    /// Design 3: walkers unseen, walks committed, one activity for every queen in danger.
    Committed,
    /// Design 3': design 3 at activity 0.01.
    CommittedSlow,
    /// Design 4b: design 4 with yes/no counts (saturating at 1).
    YesNo,
    /// Design 4c: design 4 with the walk following the neighbours' dangers only.
    NoWaves,
    /// Design 4d: design 4 on the random-cell schedule (one uniform cell per step).
    RandomCells,
    /// Backoff by hits: the kept rule with each queen's activity halved for each collision
    /// it saw (in danger after a safe generation), up to 4 (÷16), one level forgotten with
    /// probability 0.01 a safe generation ([`Rule::backoff_hits`]).
    Backoff,
    /// Backoff by walks: the kept rule with each queen's activity halved for each of its
    /// last walks that settled in danger (up to 3), cleared by one that settles out of
    /// danger ([`Rule::backoff`]).
    BackoffWalks,
}

impl RuleName {
    /// Every named rule, the kept one first.
    pub const ALL: [RuleName; 18] = [
        RuleName::Kept,
        RuleName::V1,
        RuleName::Patience,
        RuleName::Slow,
        RuleName::RareSouth,
        RuleName::Strict,
        RuleName::PatienceReset,
        RuleName::PatienceRest,
        RuleName::Gradient,
        RuleName::Memoryless,
        RuleName::MemorylessSlow,
        RuleName::Committed,
        RuleName::CommittedSlow,
        RuleName::YesNo,
        RuleName::NoWaves,
        RuleName::RandomCells,
        RuleName::Backoff,
        RuleName::BackoffWalks,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RuleName::Kept => "kept",
            RuleName::V1 => "v1",
            RuleName::Patience => "patience",
            RuleName::Slow => "slow",
            RuleName::RareSouth => "rare-south",
            RuleName::Strict => "strict",
            RuleName::PatienceReset => "patience-reset",
            RuleName::PatienceRest => "patience-rest",
            RuleName::Gradient => "gradient",
            RuleName::Memoryless => "memoryless",
            RuleName::MemorylessSlow => "memoryless-slow",
            RuleName::Committed => "committed",
            RuleName::CommittedSlow => "committed-slow",
            RuleName::YesNo => "yes-no",
            RuleName::NoWaves => "no-waves",
            RuleName::RandomCells => "random-cells",
            RuleName::Backoff => "backoff",
            RuleName::BackoffWalks => "backoff-walks",
        }
    }

    /// The rule as overrides of the kept rule, [`Rule::model3`] (what [`Rule::from_overrides`]
    /// reads; empty for the kept rule itself).
    pub fn overrides(self) -> &'static str {
        match self {
            RuleName::Kept => "",
            RuleName::V1 => "south=0.01",
            RuleName::Patience => "south=0.01,plat=0.01,pat=15,patq=0.01,keep=1",
            RuleName::Slow => "act=0.01,south=0.001",
            RuleName::RareSouth => "south=0.001",
            RuleName::Strict => "south=0",
            RuleName::PatienceReset => "south=0.1,plat=0,pat=15,patq=0.05",
            RuleName::PatienceRest => "south=0.1,plat=0.5,pat=15,patq=0.01,rest=15,restq=0.05",
            RuleName::Gradient => "hide=0,wave=0,act=0.1",
            RuleName::Memoryless => "hide=0,act=0.1",
            RuleName::MemorylessSlow => "hide=0,act=0.01",
            RuleName::Committed => "act=0.1",
            RuleName::CommittedSlow => "act=0.01",
            RuleName::YesNo => "south=0.01,cap=1",
            RuleName::NoWaves => "south=0.01,wave=0",
            RuleName::RandomCells => "south=0.01,async=1",
            RuleName::Backoff => "back=4,hit=1,backq=0.01",
            RuleName::BackoffWalks => "back=3",
        }
    }

    /// The rule, with `eps` the probability of an uphill step.
    pub fn rule(self, eps: f64) -> Rule {
        Rule::from_overrides(self.overrides(), eps).expect("the named rules' overrides parse")
    }

    /// The code a checkpoint records (stable: a new rule takes a new code).
    pub fn code(self) -> u8 {
        match self {
            RuleName::Kept => 0,
            RuleName::V1 => 1,
            RuleName::Patience => 2,
            RuleName::Slow => 3,
            RuleName::RareSouth => 4,
            RuleName::Strict => 5,
            RuleName::PatienceReset => 6,
            RuleName::PatienceRest => 7,
            RuleName::Gradient => 8,
            RuleName::Memoryless => 9,
            RuleName::MemorylessSlow => 10,
            RuleName::Committed => 11,
            RuleName::CommittedSlow => 12,
            RuleName::YesNo => 13,
            RuleName::NoWaves => 14,
            RuleName::RandomCells => 15,
            RuleName::Backoff => 16,
            RuleName::BackoffWalks => 17,
        }
    }

    /// The rule of [`RuleName::code`] `code`, if any.
    pub fn from_code(code: u8) -> Option<RuleName> {
        RuleName::ALL.into_iter().find(|r| r.code() == code)
    }

    /// True when the rule runs on the GPU (synchronous, with waves: the GPU engine's queens
    /// read only their own cell).
    pub fn runs_on_gpu(self) -> bool {
        let r = self.rule(0.01);
        r.schedule == Schedule::Synchronous && r.wave
    }
}

impl std::fmt::Display for RuleName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The names of [`RuleName::ALL`], comma separated.
pub fn rule_names() -> String {
    RuleName::ALL.map(RuleName::name).join(", ")
}

/// A rule name that is none of [`RuleName::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule {0:?}; model 3's rules are: {names}", names = rule_names())]
pub struct UnknownRule(pub String);

impl std::str::FromStr for RuleName {
    type Err = UnknownRule;
    fn from_str(name: &str) -> Result<RuleName, UnknownRule> {
        RuleName::ALL.into_iter().find(|r| r.name() == name).ok_or_else(|| UnknownRule(name.to_string()))
    }
}

/// Why a `key=value` rule is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "rule overrides {0:?}: each is key=value with key cap, wave, act, south, plat, eps, pat, patq, keep, rest, restq, back, hit, backq, hide or async (back and rest exclusive; hit needs back, backq needs hit; pat, rest and back need hide=1)"
)]
pub struct RuleSpecError(pub String);

impl Rule {
    /// The rule of `key=value` overrides (comma separated; none: the kept rule) of the kept
    /// rule [`Rule::model3`], with uphill probability `eps`. Keys: `cap`, `wave` (1 or 0),
    /// `act` (both activities), `south`, `plat`, `eps`, `pat`, `patq`, `keep` (1 or 0), `rest`,
    /// `restq`, `back` (the backoff's top level; not with `rest`), `hit` (1 or 0: backoff
    /// raised by hits; needs `back`), `backq`, `hide` (1 or 0), `async` (1: the random-cell
    /// schedule).
    pub fn from_overrides(spec: &str, eps: f64) -> Result<Rule, RuleSpecError> {
        Rule::model3(eps).overridden(spec)
    }

    /// This rule with the `key=value` overrides of `spec` ([`Rule::from_overrides`]).
    fn overridden(self, spec: &str) -> Result<Rule, RuleSpecError> {
        let mut r = self;
        let bad = || RuleSpecError(spec.to_string());
        for kv in spec.split(',').filter(|kv| !kv.is_empty()) {
            let (k, v) = kv.split_once('=').ok_or_else(bad)?;
            let p = |v: &str| v.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p)).ok_or_else(bad);
            let flag = |v: &str| match v {
                "1" => Ok(true),
                "0" => Ok(false),
                _ => Err(bad()),
            };
            let count = |v: &str| v.parse::<u8>().ok().filter(|c| *c <= 15).ok_or_else(bad);
            match k {
                "cap" => r.cap = v.parse().ok().filter(|c| (1..=2).contains(c)).ok_or_else(bad)?,
                "wave" => r.wave = flag(v)?,
                "act" => {
                    r.activity = p(v)?;
                    r.south_activity = r.activity;
                }
                "south" => r.south_activity = p(v)?,
                "plat" => r.plateau = p(v)?,
                "eps" => r.eps = p(v)?,
                "pat" => r.patience = count(v)?,
                "patq" => r.patience_rate = p(v)?,
                "keep" => r.patience_keeps = flag(v)?,
                "rest" => r.rest = count(v)?,
                "restq" => r.rest_rate = p(v)?,
                "back" => r.backoff = count(v)?,
                "hit" => r.backoff_hits = flag(v)?,
                "backq" => r.backoff_rate = p(v)?,
                "hide" => r.hide_walkers = flag(v)?,
                "async" => r.schedule = if flag(v)? { Schedule::RandomCell } else { Schedule::Synchronous },
                _ => return Err(bad()),
            }
        }
        // The backoff level is kept in the rest count's bits. A queen's own record (patience,
        // rest, backoff) is kept only where walkers are hidden, and the backoff's way down only
        // with hits: a setting that would be silently ignored is refused.
        let record = r.patience > 0 || r.rest > 0 || r.backoff > 0;
        if r.backoff > 0 && r.rest > 0
            || r.backoff_hits && r.backoff == 0
            || record && !r.hide_walkers
            || r.backoff_rate > 0.0 && !r.backoff_hits
        {
            return Err(bad());
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_codes_and_the_kept_rules() {
        for (i, r) in RuleName::ALL.into_iter().enumerate() {
            assert_eq!(r.name().parse::<RuleName>(), Ok(r));
            assert_eq!(RuleName::from_code(r.code()), Some(r));
            assert!(RuleName::ALL[..i].iter().all(|o| o.code() != r.code() && o.name() != r.name()));
            assert!(r.rule(0.02).eps == 0.02);
        }
        assert_eq!(RuleName::Kept.rule(0.05), Rule::model3(0.05));
        assert_eq!(RuleName::V1.rule(0.01), Rule::model3_v1(0.01));
        assert_eq!(RuleName::from_code(18), None);
        let e = "kep".parse::<RuleName>().unwrap_err().to_string();
        assert!(e.contains("\"kep\"") && e.contains(&rule_names()), "{e}");
        let gpu: Vec<&str> =
            RuleName::ALL.into_iter().filter(|r| !r.runs_on_gpu()).map(RuleName::name).collect();
        assert_eq!(gpu, ["gradient", "no-waves", "random-cells"]);
    }

    #[test]
    fn overrides_are_checked() {
        for bad in [
            "cap=3",
            "act=2",
            "wave=yes",
            "pat=16",
            "x=1",
            "act",
            "back=3,hide=0",
            "pat=15,hide=0",
            "rest=3,hide=0",
            "back=3,backq=0.1",
            "hit=1",
        ] {
            assert!(Rule::from_overrides(bad, 0.01).is_err(), "{bad}");
        }
        let r = Rule::from_overrides("cap=1,async=1,pat=15,keep=1", 0.01).unwrap();
        assert!(r.cap == 1 && r.schedule == Schedule::RandomCell && r.patience == 15 && r.patience_keeps);
    }

    /// The named rules are the rules they were when each spelt out its whole setting on the
    /// design study's old base (walkers seen, activities and plateau 0.5): the strings of the
    /// model 3 report's script.
    #[test]
    fn named_rules_are_the_designs_they_were() {
        let base = Rule {
            hide_walkers: false,
            activity: 0.5,
            south_activity: 0.5,
            plateau: 0.5,
            ..Rule::model3(0.02)
        };
        for (name, old) in [
            (RuleName::Kept, "hide=1,act=0.1,south=0.003,plat=0.1"),
            (RuleName::V1, "hide=1,act=0.1,south=0.01,plat=0.1"),
            (RuleName::Patience, "hide=1,act=0.1,south=0.01,plat=0.01,pat=15,patq=0.01,keep=1"),
            (RuleName::Slow, "hide=1,act=0.01,south=0.001,plat=0.1"),
            (RuleName::RareSouth, "hide=1,act=0.1,south=0.001,plat=0.1"),
            (RuleName::Strict, "hide=1,act=0.1,south=0,plat=0.1"),
            (RuleName::PatienceReset, "hide=1,act=0.1,south=0.1,plat=0,pat=15,patq=0.05"),
            (RuleName::PatienceRest, "hide=1,act=0.1,south=0.1,pat=15,patq=0.01,rest=15,restq=0.05"),
            (RuleName::Gradient, "hide=0,wave=0,act=0.1,plat=0.1"),
            (RuleName::Memoryless, "hide=0,wave=1,act=0.1,plat=0.1"),
            (RuleName::MemorylessSlow, "hide=0,wave=1,act=0.01,plat=0.1"),
            (RuleName::Committed, "hide=1,act=0.1,plat=0.1"),
            (RuleName::CommittedSlow, "hide=1,act=0.01,plat=0.1"),
            (RuleName::YesNo, "hide=1,act=0.1,south=0.01,plat=0.1,cap=1"),
            (RuleName::NoWaves, "hide=1,act=0.1,south=0.01,plat=0.1,wave=0"),
            (RuleName::RandomCells, "hide=1,act=0.1,south=0.01,plat=0.1,async=1"),
        ] {
            assert_eq!(name.rule(0.02), base.overridden(old).unwrap(), "{name}");
        }
        assert_eq!(Rule::from_overrides("", 0.01), Ok(Rule::model3(0.01)));
        assert_eq!(Rule::from_overrides(",", 0.01), Ok(Rule::model3(0.01)));
    }
}
