//! A single long `automaton run`: progress (steps, moves, conflicts left) on a terminal, lines
//! off one once it lasts, and checkpoints so the run can stop (Ctrl-C, kill) and resume bit-exactly.

use std::io::{IsTerminal, Read};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use damier::automaton::experiment::RunResult;
use damier::automaton::{Automaton, Stop, checkpoint};
use damier::control::Interrupted;
use indicatif::{ProgressBar, ProgressStyle};

use crate::util::{input, interrupt, number, output, progress, test_hooks};

/// How often the bar is redrawn.
const DRAW_PERIOD: Duration = Duration::from_millis(200);

/// The automaton saved in `path`, or `None` when there is no such file.
pub fn load(path: &Path) -> anyhow::Result<Option<Automaton>> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    // The header says how long the file must be: read that much and no more (an endless
    // input is refused after the header, not after the largest checkpoint's gigabyte).
    let name = path.display().to_string();
    let mut reader = std::io::BufReader::new(file);
    let head = input::read_from(
        (&mut reader).take(checkpoint::HEADER_LEN as u64),
        &name,
        input::CHECKPOINT_MAX_BYTES,
        "a checkpoint",
    )?;
    let len = checkpoint::declared_len(&head).with_context(|| name.clone())?;
    // The whole file against the whole declared length (the rest alone against what is left
    // named a size that was neither the file's nor the checkpoint's).
    let bytes = input::read_from(
        std::io::Cursor::new(head).chain(reader),
        &name,
        len,
        "a checkpoint of the size its header declares",
    )?;
    let aut = checkpoint::decode(&bytes).with_context(|| name)?;
    Ok(Some(aut))
}

/// Writes the checkpoint of `aut` to `path` atomically (a crash, or a second Ctrl-C during the
/// write, never leaves half a file), streamed: at n = 16 384 the run holds 1 GB and a
/// checkpoint made in memory first held 2 GB more (3.1 GB peak, measured).
pub fn save(aut: &Automaton, path: &Path) -> anyhow::Result<()> {
    let delay = Duration::from_millis(test_hooks::read()?.checkpoint_write_ms);
    // A first Ctrl-C from here on lets the write finish, and says so.
    let _saving = interrupt::Saving::new(path);
    output::write_file(path, output::Durability::Synced, |w| {
        if delay.is_zero() {
            return Ok(checkpoint::encode_to(aut, w)?);
        }
        Ok(checkpoint::encode_to(aut, &mut Slowed { w, delay })?)
    })
}

/// A writer that sleeps before each write (the test hook `DAMIER_TEST_CHECKPOINT_WRITE_MS`).
struct Slowed<'a, W> {
    w: &'a mut W,
    delay: Duration,
}

impl<W: std::io::Write> std::io::Write for Slowed<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        std::thread::sleep(self.delay);
        self.w.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

/// How often a run off a terminal looks whether it is time for a line.
const LINE_CHECK: Duration = Duration::from_secs(1);

/// Off a terminal: a line once the run has lasted `after`, then at most every `every`.
struct Lines {
    started: Instant,
    after: Duration,
    every: Duration,
    /// When the last line was printed.
    said: Option<Instant>,
}

impl Lines {
    fn observe(&mut self, (steps, moves, conflicts): (u64, u64, u32), max_steps: u64) {
        let due = match self.said {
            None => self.started.elapsed() >= self.after,
            Some(t) => t.elapsed() >= self.every,
        };
        if due {
            output::errln!(
                "damier: automaton run: running for {} s: step {steps} of at most {max_steps}, {moves} moves, \
                 {conflicts} conflicts left (a bar is drawn on a terminal; --quiet for none)",
                number(self.started.elapsed().as_secs_f64()),
            );
            self.said = Some(Instant::now());
        }
    }
}

/// What a long run shows: a bar on a terminal, lines off one once it lasts (the CPU's runs
/// and the GPU's alike).
pub(super) struct Progress {
    bar: Option<ProgressBar>,
    lines: Option<Lines>,
    max_steps: u64,
}

impl Progress {
    pub(super) fn new(max_steps: u64) -> Progress {
        let quiet = progress::is_quiet();
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(max_steps);
            bar.set_style(
                // Counts in full, as the README writes them (not `582,483,968`).
                ProgressStyle::with_template("[{elapsed_precise}] steps {pos}/{len} {msg}")
                    .expect("valid template"),
            );
            bar
        });
        // Off a terminal, lines once the run has lasted long (issue 38, section 6: a model 3 run of
        // minutes printed nothing when piped).
        let lines = (!quiet && bar.is_none()).then(|| Lines {
            started: Instant::now(),
            after: progress::long_run_after(),
            every: progress::line_every(),
            said: None,
        });
        Progress { bar, lines, max_steps }
    }

    /// How often the run is observed: the bar's redraw, a checkpoint's period, a line's check.
    pub(super) fn period(&self, checkpoint: bool, every: Duration) -> Duration {
        match (&self.bar, checkpoint, &self.lines) {
            (Some(_), _, _) => DRAW_PERIOD,
            (None, true, None) => every,
            (None, _, Some(l)) => every.min(l.after).min(LINE_CHECK),
            (None, false, None) => Duration::MAX,
        }
    }

    /// Shows the run at `(steps, moves, conflicts left)`.
    pub(super) fn show(&mut self, (steps, moves, conflicts): (u64, u64, u32)) {
        if let Some(bar) = &self.bar {
            bar.set_position(steps);
            bar.set_message(format!("moves {moves}, conflicts left {conflicts}"));
        }
        if let Some(l) = &mut self.lines {
            l.observe((steps, moves, conflicts), self.max_steps);
        }
    }

    /// Clears the bar, or ends the lines with the step reached.
    pub(super) fn finish(self, steps: u64) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
        if let Some(l) = &self.lines
            && l.said.is_some()
        {
            output::errln!(
                "damier: automaton run: ended after {} s at step {steps}",
                number(l.started.elapsed().as_secs_f64()),
            );
        }
    }
}

/// Runs `aut` like [`Automaton::run_until`], with a bar on a terminal and, with `checkpoint`, a
/// checkpoint every `every`, on Ctrl-C and at the end.
pub fn run(
    aut: &mut Automaton,
    max_steps: u64,
    stop: &Stop,
    checkpoint: Option<&Path>,
    every: Duration,
) -> anyhow::Result<RunResult> {
    let mut progress = Progress::new(max_steps);
    let period = progress.period(checkpoint.is_some(), every);
    if let Some(path) = checkpoint {
        // At once: a path that cannot be written fails now, not after the first period, and
        // a kill before the first period still leaves a file to resume from.
        save(aut, path)?;
    }
    let mut last_save = Instant::now();
    let result = aut.run_until_observed(max_steps, stop, period, |a| -> anyhow::Result<()> {
        progress.show((a.steps(), a.moves(), a.conflicts()));
        if let Some(path) = checkpoint
            && last_save.elapsed() >= every
        {
            save(a, path)?;
            last_save = Instant::now();
        }
        Ok(())
    });
    progress.finish(aut.steps());
    save_at_the_end(aut, checkpoint, &result)?;
    result
}

/// Saves `aut` to `checkpoint` after a run that ended with `result`.
pub(super) fn save_at_the_end<T>(
    aut: &Automaton,
    checkpoint: Option<&Path>,
    result: &anyhow::Result<T>,
) -> anyhow::Result<()> {
    // Saved after a solution, the step cap or Ctrl-C alike: the state is consistent in all
    // three cases (the run stops between chunks of updates).
    let interrupted = result.as_ref().is_err_and(|e| e.downcast_ref::<Interrupted>().is_some());
    if let Some(path) = checkpoint
        && (result.is_ok() || interrupted)
    {
        if interrupted {
            // A gigabyte at n = 16 384: seconds, said before, with the way out.
            output::errln!(
                "damier: automaton run: saving the checkpoint to {} (Ctrl-C again abandons it: the file keeps the last one)",
                path.display()
            );
        }
        save(aut, path)?;
        if interrupted {
            output::errln!("checkpoint saved to {} at step {}", path.display(), aut.steps());
        }
    }
    Ok(())
}
