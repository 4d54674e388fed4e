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
    /// Who counted what, in the order counted (one JSON object).
    #[cfg_attr(feature = "serde", serde(serialize_with = "as_map"))]
    pub counts: Vec<(String, u64)>,
}

/// Writes `(who, count)` pairs as one JSON object.
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

#[cfg(test)]
mod tests {
    use super::*;

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
