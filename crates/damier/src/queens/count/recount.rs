//! Checking a long count: sampled tasks recounted by other engines and compared with the
//! counts recorded (by the run itself, or read back from a journal), and the total of a share
//! from its tasks' counts.
//!
//! ```
//! use std::collections::HashMap;
//!
//! use damier::control::Control;
//! use damier::cpu::Isa;
//! use damier::queens::count::recount::recount;
//! use damier::queens::count::tasks::{TaskEngine, TaskList};
//!
//! // Two tasks of n = 10 recounted by both engines against a deliberately wrong record.
//! let list = TaskList::new(10).unwrap();
//! let engines = [TaskEngine::Quarters, TaskEngine::Backtrack];
//! let fine = recount(&list, &engines, Isa::Portable, None, &[0, 1], &HashMap::new(), "nobody", &Control::new());
//! assert!(fine.unwrap().is_empty()); // the engines agree
//! let wrong = HashMap::from([(0, u64::MAX)]);
//! let found = recount(&list, &engines, Isa::Portable, None, &[0, 1], &wrong, "a bad record", &Control::new());
//! assert_eq!(found.unwrap().iter().map(|m| m.task).collect::<Vec<_>>(), [0]);
//! ```

use std::collections::HashMap;
use std::sync::Mutex;

use super::tasks::{self, TaskEngine, TaskError, TaskList};
use super::{CountError, total_from_sum};
use crate::control::Control;
use crate::cpu::Isa;

/// A sampled task whose counts disagree: by every engine that recounted it and by what
/// recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Mismatch {
    /// The task's index.
    pub task: u32,
    /// The task's column set (bit c = column c).
    pub columns: u32,
    /// Who counted what, in the order counted (serialised as one object).
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_map"))]
    pub counts: Vec<(String, u64)>,
}

/// Serialises `(who, count)` pairs as one object.
#[cfg(feature = "serde")]
fn as_map<S: serde::Serializer>(pairs: &[(String, u64)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what: Vec<String> = self.counts.iter().map(|(who, c)| format!("{who} {c}")).collect();
        write!(f, "task {} (columns {:#b}): {}", self.task, self.columns, what.join(", "))
    }
}

/// Recounts the tasks `sample` of `list` with each of `engines` (on the current rayon pool,
/// `control` advanced by one per task recounted) and compares with the counts `known`, named
/// `recorded_by`: one [`Mismatch`] per task where any two counts disagree. A sampled task
/// missing from `known` is compared between the engines only.
#[allow(clippy::too_many_arguments)]
pub fn recount(
    list: &TaskList,
    engines: &[TaskEngine],
    isa: Isa,
    memory: Option<u64>,
    sample: &[u32],
    known: &HashMap<u32, u64>,
    recorded_by: &str,
    control: &Control,
) -> Result<Vec<Mismatch>, TaskError> {
    let mut by_engine = Vec::new();
    for &engine in engines {
        let counts = Mutex::new(HashMap::new());
        tasks::count_tasks(list, engine, isa, memory, sample, control, &|d| {
            counts.lock().unwrap_or_else(|e| e.into_inner()).insert(d.index, d.count);
        })?;
        by_engine.push((engine, counts.into_inner().unwrap_or_else(|e| e.into_inner())));
    }
    let mut bad = Vec::new();
    for &i in sample {
        // count_tasks checked every index and reported every task.
        let Some(task) = list.get(i) else { continue };
        let mut seen: Vec<(String, u64)> =
            by_engine.iter().filter_map(|(e, c)| Some((e.name().to_string(), *c.get(&i)?))).collect();
        if let Some(&k) = known.get(&i) {
            seen.push((recorded_by.to_string(), k));
        }
        if seen.iter().any(|s| s.1 != seen[0].1) {
            bad.push(Mismatch { task: i, columns: task.cols, counts: seen });
        }
    }
    Ok(bad)
}

/// Why a share's total cannot be given.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShareTotalError {
    /// A task of the share has no count.
    #[error("a task of the share was not counted")]
    Missing,
    /// The sum is past a count's range.
    #[error(transparent)]
    Count(#[from] CountError),
}

/// The total of the tasks `indices` from their counts `known`, summed in a `u128` so that no
/// set of task counts (from the engines, or read back from a journal) can wrap; a sum past a
/// `u64` is refused.
pub fn share_total(indices: &[u32], known: &HashMap<u32, u64>) -> Result<u64, ShareTotalError> {
    let sum = indices
        .iter()
        .try_fold(0u128, |t, i| Some(t + u128::from(*known.get(i)?)))
        .ok_or(ShareTotalError::Missing)?;
    Ok(total_from_sum(sum)?)
}

/// How many tasks a sampled recount takes: a number of tasks, or a percentage of those it
/// draws from (written and parsed as `200` or `5%`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SampleSize {
    /// This many tasks (all of them when fewer).
    Tasks(u32),
    /// This percentage of the tasks, in `(0, 100]`, rounded up to a whole task.
    Percent(f64),
}

impl SampleSize {
    /// The tasks recounted out of `population`: at most all of them, at least one when the
    /// population is not empty.
    pub fn of(self, population: u64) -> u64 {
        match self {
            SampleSize::Tasks(k) => u64::from(k).min(population),
            // Exact enough: populations are below 2^32 and percentages have few digits.
            SampleSize::Percent(_) if population == 0 => 0,
            SampleSize::Percent(p) => ((p / 100.0 * population as f64).ceil() as u64).clamp(1, population),
        }
    }
}

impl std::str::FromStr for SampleSize {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if let Some(p) = text.strip_suffix('%') {
            match p.trim().parse::<f64>() {
                Ok(p) if p > 0.0 && p <= 100.0 => Ok(SampleSize::Percent(p)),
                _ => Err(format!("{text:?}: a percentage must be above 0% and at most 100%")),
            }
        } else {
            match text.parse::<u32>() {
                Ok(k) if k >= 1 => Ok(SampleSize::Tasks(k)),
                // A number of tasks all the same, past the type: said so, not "expected a
                // number" (`--recheck 4294967296`).
                Err(e) if matches!(e.kind(), std::num::IntErrorKind::PosOverflow) => Err(format!(
                    "{text:?}: at most 2^32 - 1 tasks (no journal holds more; 100% recounts every one)"
                )),
                _ => Err(format!(
                    "{text:?}: expected a number of tasks (1 or more) or a percentage such as 5%"
                )),
            }
        }
    }
}

/// What a recount of a random sample can catch: of `population` recorded tasks, `sampled`
/// drawn without replacement are recounted; if `k` of the records were forged (or wrong), the
/// recount finds at least one of them with probability `1 - C(N - k, m) / C(N, m)`
/// (hypergeometric). A recount that agrees proves nothing about the tasks it did not draw:
/// it bounds how many could be wrong, with this confidence.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Detection {
    /// Tasks recorded, those the sample was drawn from (N).
    pub population: u64,
    /// Tasks recounted (m).
    pub sampled: u64,
    /// The probability that the recount catches a single wrong record (m / N).
    pub catch_one: f64,
    /// The fewest wrong records that it catches with probability 99 % or more (`None` with
    /// no task recounted).
    pub forged_for_99: Option<u64>,
}

impl Detection {
    /// The detection of a recount of `sampled` of `population` tasks.
    pub fn of(population: u64, sampled: u64) -> Detection {
        let sampled = sampled.min(population);
        let forged_for_99 = fewest_caught(population, sampled, 0.99);
        Detection { population, sampled, catch_one: catch_chance(population, sampled, 1), forged_for_99 }
    }
}

/// The fewest marked tasks among `population` that a draw of `sampled` catches with
/// probability `p` or more ([`catch_chance`], its terms added one marked task at a time: the
/// same sums, so the same figures); `None` when nothing is drawn.
fn fewest_caught(population: u64, sampled: u64, p: f64) -> Option<u64> {
    let (n, m) = (population, sampled.min(population));
    if m == 0 {
        return None;
    }
    let mut log_miss = 0.0f64;
    for k in 1..=n {
        if k > n - m {
            return Some(k);
        }
        log_miss += (-(m as f64) / (n - (k - 1)) as f64).ln_1p();
        if -log_miss.exp_m1() >= p {
            return Some(k);
        }
    }
    None
}

/// The probability that `sampled` tasks drawn without replacement from `population` include
/// at least one of `forged` marked ones: `1 - C(N - k, m) / C(N, m)`, the ratio computed as
/// the product of `(N - m - i) / (N - i)` for `i < k`, in logarithms (each factor's
/// `ln_1p(-m / (N - i))`: no cancellation, no overflow at any size).
pub fn catch_chance(population: u64, sampled: u64, forged: u64) -> f64 {
    let (n, m, k) = (population, sampled.min(population), forged.min(population));
    if m == 0 || k == 0 {
        return 0.0;
    }
    if k > n - m {
        return 1.0; // fewer unmarked tasks than draws: a marked one is drawn
    }
    let log_miss: f64 = (0..k).map(|i| (-(m as f64) / (n - i) as f64).ln_1p()).sum();
    -log_miss.exp_m1()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chance of catching forged records, against counting every draw of a small case.
    #[test]
    fn the_catch_chance_is_the_hypergeometric_one() {
        // N = 10 tasks, m = 3 drawn: of the C(10, 3) = 120 draws, those missing k marked tasks
        // number C(10 - k, 3).
        let binomial =
            |n: u64, r: u64| if r > n { 0 } else { (0..r).fold(1u64, |a, i| a * (n - i) / (i + 1)) };
        for k in 0..=10 {
            let want = 1.0 - binomial(10 - k, 3) as f64 / 120.0;
            assert!((catch_chance(10, 3, k) - want).abs() < 1e-12, "k = {k}");
        }
        // Every draw enumerated for N = 12, m = 4, k = 2.
        let (mut hit, mut all) = (0, 0);
        for draw in 0u32..1 << 12 {
            if draw.count_ones() == 4 {
                all += 1;
                hit += u32::from(draw & 0b11 != 0);
            }
        }
        assert!((catch_chance(12, 4, 2) - f64::from(hit) / f64::from(all)).abs() < 1e-12);
        // 200 of 12 190 tasks: one forged record is caught 1.64 % of the time.
        let d = Detection::of(12_190, 200);
        assert!((d.catch_one - 200.0 / 12_190.0).abs() < 1e-15);
        let k = d.forged_for_99.unwrap();
        assert!(catch_chance(12_190, 200, k) >= 0.99 && catch_chance(12_190, 200, k - 1) < 0.99);
        assert_eq!(
            Detection::of(100, 100),
            Detection { population: 100, sampled: 100, catch_one: 1.0, forged_for_99: Some(1) }
        );
        assert_eq!(Detection::of(100, 0).forged_for_99, None);
        // Large populations stay finite and monotone.
        let big = [1, 10, 1000].map(|k| catch_chance(10_000_000, 5_000, k));
        assert!(big[0] < big[1] && big[1] < big[2] && big[2] < 1.0, "{big:?}");
    }

    #[test]
    fn sample_sizes_are_tasks_or_percentages() {
        assert_eq!("200".parse(), Ok(SampleSize::Tasks(200)));
        assert_eq!("5%".parse(), Ok(SampleSize::Percent(5.0)));
        assert_eq!(SampleSize::Percent(5.0).of(12_190), 610, "609.5 rounded up");
        assert_eq!(SampleSize::Percent(100.0).of(12_190), 12_190);
        assert_eq!(SampleSize::Percent(0.001).of(10), 1, "at least one task");
        assert_eq!(SampleSize::Tasks(50).of(10), 10);
        assert_eq!(SampleSize::Percent(5.0).of(0), 0);
        for bad in ["0", "0%", "101%", "-1%", "x%", "nan%", "", "1.5"] {
            assert!(bad.parse::<SampleSize>().is_err(), "{bad:?}");
        }
        // A number past the type is a number of tasks too many, not "expected a number".
        let err = "4294967296".parse::<SampleSize>().unwrap_err();
        assert!(err.contains("at most 2^32 - 1 tasks"), "{err}");
    }

    #[test]
    fn recounts_find_the_task_recorded_wrong() {
        let list = TaskList::new(12).unwrap();
        let control = Control::new();
        let sample: Vec<u32> = (0..list.len()).collect();
        let mut known = HashMap::new();
        let counts = Mutex::new(HashMap::new());
        tasks::count_tasks(&list, TaskEngine::Backtrack, Isa::Portable, None, &sample, &control, &|d| {
            counts.lock().unwrap().insert(d.index, d.count);
        })
        .unwrap();
        known.extend(counts.into_inner().unwrap());
        assert_eq!(share_total(&sample, &known), Ok(14_200));
        let ok = recount(&list, &TaskEngine::ALL, Isa::Portable, None, &sample, &known, "run", &control);
        assert_eq!(ok, Ok(vec![]));
        *known.get_mut(&3).unwrap() += 1;
        let bad =
            recount(&list, &TaskEngine::ALL, Isa::Portable, None, &sample, &known, "run", &control).unwrap();
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].task, 3);
        assert_eq!(bad[0].counts.last().map(|c| c.0.as_str()), Some("run"));
        assert!(bad[0].to_string().starts_with("task 3 (columns 0b"), "{}", bad[0]);
        known.remove(&3);
        assert_eq!(share_total(&sample, &known), Err(ShareTotalError::Missing));
        assert_eq!(
            share_total(&[0, 1], &HashMap::from([(0, u64::MAX), (1, 1)]))
                .map_err(|e| matches!(e, ShareTotalError::Count(_))),
            Err(true)
        );
    }
}
