//! The text of `queens estimate` (on the CPU and, with `--device gpu`, on a GPU) and its
//! warnings about the sample.

use damier::queens::count::estimate::{self, EstimateRecord};

use crate::util::number;
use crate::util::output::{Report, errln, outln};

/// Says on stderr when `e` was made from fewer tasks than the `samples` asked (Ctrl-C), and
/// when its sample projects a number of solutions that the known term contradicts.
pub(crate) fn warn_about_the_sample(e: &estimate::Estimate, samples: u32) {
    if e.stopped_early {
        errln!(
            "damier: interrupted after {} of the {} sampled tasks: the projection below is made from \
             those (tasks run in a random order, so they are a smaller random sample)",
            e.samples,
            u64::from(samples).min(e.tasks)
        );
    }
    let check = e.known_check();
    if let Some(c) = check.filter(|c| !c.inside) {
        errln!(
            "damier: warning: the sample projects {} solutions (95% interval {} to {}), \
             but q({}) = {} (x{}): the sample is not representative, do not quote this \
             projection (take more --samples, or another --seed)",
            number(e.solutions),
            number(e.solutions_low),
            number(e.solutions_high),
            e.n,
            c.known,
            number(c.ratio)
        );
    }
}

/// The text of an estimate, its times those of one core, or of the device it names (a GPU).
impl Report for EstimateRecord {
    fn print_text(&self) -> anyhow::Result<()> {
        match &self.device {
            None => {
                let how = format!("{} clock, {} kernels", self.estimate.clock, self.isa);
                print_estimate(self, &how, None)
            }
            Some(d) => {
                let unit = d.device.to_uppercase();
                let how = format!(
                    "{} clock of {unit} {} ({}, kernel {})",
                    self.estimate.clock, d.adapter, d.backend, d.kernel
                );
                print_estimate(self, &how, Some(&unit))
            }
        }
    }
}

/// Prints `r` as text, its times those of one core, or of a device (`unit`: `GPU`); `how` says
/// how the tasks were timed.
fn print_estimate(r: &EstimateRecord, how: &str, unit: Option<&str>) -> anyhow::Result<()> {
    let (unit, ns) = match unit {
        Some(u) => (u, format!("{u} ns")),
        None => ("core", "ns".to_string()),
    };
    let (e, seed) = (&r.estimate, r.seed);
    let check = e.known_check();
    outln!(
        "n = {}: {} tasks; {} timed (seed {seed}, {how}) at {} s each on average (sd {} s), set-up {} s",
        e.n,
        e.tasks,
        e.samples,
        number(e.task_seconds),
        number(e.task_seconds_sd),
        number(e.setup_seconds)
    )?;
    if e.subsampled_tasks > 0 {
        outln!(
            "{} of the {} tasks matched a random {} of their queries ({}% of the matching ran, the rest scaled up)",
            e.subsampled_tasks,
            e.samples,
            e.queries_per_task.unwrap_or(0),
            number(100.0 * e.matched_fraction)
        )?;
    }
    let on_two =
        if unit != "core" { String::new() } else { format!(", {} h on 2 cores", number(e.core_hours / 2.0)) };
    outln!(
        "projected: {} {unit} seconds = {} {unit} hours (95% interval {} to {} h){on_two}",
        number(e.core_hours * 3600.0),
        number(e.core_hours),
        number(e.low),
        number(e.high),
    )?;
    let known = match check {
        Some(c) => format!(
            "; known q({}) = {} ({}, {}, projected/known {})",
            e.n,
            c.known,
            number(c.known as f64),
            if c.inside { "inside the interval" } else { "OUTSIDE the interval" },
            number(c.ratio)
        ),
        None => String::new(),
    };
    outln!(
        "solutions, projected by the same sample (a check of it): {} (95% interval {} to {}){known}",
        number(e.solutions),
        number(e.solutions_low),
        number(e.solutions_high)
    )?;
    if e.ns_per_solution.is_finite() {
        let by_known = match check {
            Some(c) => format!(
                "; times q({}): {} {unit} hours (95% interval {} to {} h)",
                e.n,
                number(c.core_hours),
                number(c.core_hours_low),
                number(c.core_hours_high)
            ),
            None => String::new(),
        };
        outln!(
            "cost per solution: {} {ns} (95% interval {} to {}){by_known}",
            number(e.ns_per_solution),
            number(e.ns_per_solution_low),
            number(e.ns_per_solution_high)
        )?;
    }
    Ok(())
}
