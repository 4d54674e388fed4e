//! The text of the counts: `queens count` (whole, a share, journalled), `queens sum` and
//! `queens journal`.

use damier::queens::count::long::{JournalStatus, LongCountResult, LongTotal};
use damier::queens::count::recount::Detection;
use damier::queens::count::{ShareCount, SummedShares, TimedCounts};

use crate::util::output::{Report, outln};
use crate::util::{number, plural};

impl Report for TimedCounts {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "n = {}: {}, {} unique up to symmetry ({} s)",
            self.n,
            crate::util::plural(self.total, "solution"),
            self.unique,
            crate::util::number(self.seconds)
        )?;
        Ok(())
    }
}

impl Report for ShareCount {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "n = {}, share {} of {}: {} in this share ({} s); add the shares' --json \
             outputs with `damier queens sum`",
            self.n,
            self.share,
            self.shares,
            crate::util::plural(self.share_total, "solution"),
            crate::util::number(self.seconds)
        )?;
        Ok(())
    }
}

impl Report for SummedShares {
    fn print_text(&self) -> anyhow::Result<()> {
        outln!(
            "n = {}: {}, {} unique up to symmetry (from {} shares, {} s of counting in all)",
            self.counts.n,
            crate::util::plural(self.counts.total, "solution"),
            self.counts.unique,
            self.shares,
            crate::util::number(self.counts.seconds)
        )?;
        Ok(())
    }
}

impl Report for LongCountResult {
    fn print_text(&self) -> anyhow::Result<()> {
        let what = match self.total {
            LongTotal::Share { share, shares, share_total } => {
                format!("share {share} of {shares}: {} in this share", plural(share_total, "solution"))
            }
            LongTotal::Whole { total, unique } => {
                format!("{}, {unique} unique up to symmetry", plural(total, "solution"))
            }
        };
        let mut notes = vec![format!("{}, {} engine", plural(self.tasks, "task"), self.strategy.name())];
        if let Some(resumed) = self.resumed_tasks {
            notes.push(format!("{resumed} read back from the journal"));
        }
        if let (Some(v), Some(seed)) = (self.verified_tasks, self.seed) {
            notes.push(format!("{v} sampled tasks recounted by both engines, all agree (seed {seed})"));
        }
        if let Some(p) = self.processes {
            notes.push(format!("processes {p}"));
        }
        if let Some(by) = &self.tasks_by_process {
            notes.push(format!("tasks_by_process {}", serde_json::to_string(by)?));
        }
        outln!("n = {}, {what} ({}; {} s)", self.n, notes.join("; "), crate::util::number(self.seconds))?;
        Ok(())
    }
}

/// What a recheck of this size proves, in a sentence.
fn detection_text(d: &Detection) -> String {
    if d.sampled > 0 && d.sampled == d.population {
        return "every recorded task recounted: a recheck that agrees proves the total".to_string();
    }
    let ninety_nine = match d.forged_for_99 {
        Some(k) => format!("{} or more 99 % of the time", plural(k, "wrong record")),
        None => "none for sure".to_string(),
    };
    format!(
        "a sample this size catches a single wrong or forged record with probability {}, {ninety_nine}; \
         --recheck 100% proves the total",
        percent(d.catch_one)
    )
}

/// A probability as a percentage, with enough digits to tell small ones apart.
fn percent(p: f64) -> String {
    let x = 100.0 * p;
    format!("{} %", number(x))
}

impl Report for JournalStatus {
    fn print_text(&self) -> anyhow::Result<()> {
        let r = self;
        outln!(
            "n = {}, share {} of {}, {} engine{} (damier {}): {} of {} tasks done, {} left",
            r.n,
            r.share,
            r.shares,
            r.strategy.name(),
            r.device.map_or(String::new(), |d| format!(" on {}", d.name())),
            r.version,
            r.done,
            r.tasks,
            r.left
        )?;
        match (r.total, r.unique) {
            (Some(t), Some(u)) => {
                outln!("finished: {}, {u} unique up to symmetry", crate::util::plural(t, "solution"))?
            }
            _ => outln!("solutions so far in this share: {}", r.share_total)?,
        }
        let rate = r.rate.map_or("unknown".to_string(), |x| format!("{} tasks/s", number(x)));
        // The time left as the progress lines say it (issue 52 §5: "ETA 637 s" here, "eta 18m"
        // on the count's bar).
        // A finished count has no time left to project ("about 0 s left (0 h)" before).
        let left = match r.eta_seconds {
            _ if r.left == 0 => "no task left".to_string(),
            Some(s) => format!("about {} s left ({} h)", number(s), number(s / 3600.0)),
            None => "time left unknown".to_string(),
        };
        outln!(
            "{}, {} worker seconds on finished tasks, rate {rate}, {left}",
            crate::util::plural(r.sessions as u64, "session"),
            number(r.task_seconds)
        )?;
        if r.torn_lines > 0 {
            outln!(
                "{} at the end dropped: those tasks run again",
                crate::util::plural(r.torn_lines as u64, "torn line")
            )?;
        }
        if let Some(c) = &r.recheck {
            outln!(
                "recheck: {} of the {} recorded tasks recounted by the {} engine (seed {}): {}",
                c.tasks.len(),
                r.done,
                c.engine.name(),
                c.seed,
                if c.agree { "all agree".to_string() } else { format!("{} disagree", c.mismatches.len()) }
            )?;
            outln!("{}", detection_text(&c.detection))?;
        }
        Ok(())
    }
}
