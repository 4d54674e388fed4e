//! `damier automaton run`: one run to the first solution, with a trace or checkpoints.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use damier::automaton::experiment::{Censored, RunRecord, UnsolvableRun};
use damier::automaton::row::RuleName;
use damier::automaton::{self as engine};
use damier::automaton::{Automaton, Model, Params, StartSignals, Stop, text};

use crate::util::output::{Report, errln, outln};
use crate::util::{InputFile, OutputPath};
use crate::util::{exit, input, interrupt, output};

use super::shared::*;
use super::{gpu_run, long_run};

/// Arguments of `damier automaton run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Update rule [default: pair].
    #[arg(long, value_parser = model())]
    model: Option<Model>,
    /// Board side (1 to 2048, model 3: 1 to 16384); optional with --from (taken from the file).
    #[arg(short = 'n', long = "n")]
    n: Option<u32>,
    /// Probability of accepting a move to a dangerous cell [range: 0 to 1] [default: 0.01].
    #[arg(long)]
    eps: Option<f64>,
    #[arg(long, help = eta_help())]
    eta: Option<f64>,
    #[arg(long, value_name = "NAME", value_parser = parse_rule, help = rule_help())]
    rule: Option<RuleName>,
    /// Generator seed [default: picked from the OS and printed].
    #[arg(long)]
    seed: Option<u64>,
    /// Give up after this many updates (model 3: generations, each updating every cell).
    #[arg(long, default_value_t = DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// Start from this position: n lines of n cells, a digit = queens on the cell, `.` = none;
    /// blank lines and lines starting with `#` are skipped. Signals start empty. Or what
    /// `automaton trap` prints, text or --json (its position); `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    from: Option<InputFile>,
    /// Print the board with its signals every K updates (on stderr with --json).
    #[arg(long, value_name = "K", value_parser = crate::util::ranged::<u64>(1, u64::MAX))]
    trace: Option<u64>,
    /// Save the whole state (board, signals, generator) to FILE every --checkpoint-every
    /// seconds, on Ctrl-C and at the end; if FILE exists, resume from it (model, n, ε, η,
    /// model 3's rule and seed then come from the file: --model, -n, --eps, --eta, --rule and
    /// --seed, if given, must match it; --max-steps counts all steps).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["trace", "from"])]
    checkpoint: Option<OutputPath>,
    /// Seconds between two checkpoints.
    // The conflicts of --checkpoint repeated: clap lets `requires` pass when the required
    // argument conflicts with one given (clap issue 4520).
    #[arg(long, value_name = "SECONDS", default_value_t = 60, requires = "checkpoint", conflicts_with_all = ["trace", "from"],
          value_parser = crate::util::ranged::<u64>(1, u64::MAX))]
    checkpoint_every: u64,
    /// Print JSON (keys: model, n, eps, eta (null for models 1 and 3), rule (model 3's, null
    /// for the others), seed, steps, moves, solved, absorbing, placement, censored, seconds).
    #[arg(long)]
    json: bool,
    /// Where the generations run: cpu, or gpu (model 3 wholly on the GPU, fields and queens,
    /// many generations a submission: the same trajectory as on the CPU; a build with the
    /// `gpu` feature, docs/gpu.md).
    #[arg(long, value_enum, default_value = "cpu")]
    device: RunDevice,
    /// With --device gpu: the adapter, by its index in `damier gpu` [default: the first
    /// discrete GPU, else the first adapter].
    #[arg(long, value_name = "INDEX")]
    gpu_adapter: Option<usize>,
}

/// `--device` of `automaton run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum RunDevice {
    /// The CPU cores.
    Cpu,
    /// Model 3 on the GPU, its fields and its queens.
    Gpu,
}

pub(super) fn run_one(a: RunArgs) -> anyhow::Result<ExitCode> {
    #[cfg(not(feature = "gpu"))]
    anyhow::ensure!(a.device == RunDevice::Cpu, crate::gpu::NO_GPU_FEATURE);
    let gpu = a.device == RunDevice::Gpu;
    anyhow::ensure!(gpu || a.gpu_adapter.is_none(), "--gpu-adapter picks the GPU of --device gpu");
    anyhow::ensure!(
        !gpu || a.trace.is_none(),
        "--trace draws the board from the CPU's run: drop it with --device gpu"
    );
    let eps = a.eps.unwrap_or(engine::DEFAULT_EPS);
    check_probability("eps", eps)?;
    let resumed = match &a.checkpoint {
        Some(path) => {
            output::check_folder(path)?;
            long_run::load(path)?
        }
        None => None,
    };
    if let Some(r) = &resumed {
        // What the file holds is the run: a setting given that differs is refused, never
        // silently replaced by the file's.
        let file = a.checkpoint.as_ref().expect("resumed from a file").display();
        let p = r.params();
        anyhow::ensure!(
            a.n.is_none_or(|n| n == r.n()) && a.seed.is_none_or(|s| s == r.seed()),
            "{file} holds a run with n = {} and seed {}: drop -n/--seed or use another file",
            r.n(),
            r.seed()
        );
        anyhow::ensure!(
            a.model.is_none_or(|m| m == p.model),
            "{file} holds a run of {}: drop --model or use another file",
            p.model.label()
        );
        if let Some(rule) = a.rule {
            anyhow::ensure!(
                r.row_rule() == Some(rule),
                "{file} holds a run under rule {}: drop --rule or use another file",
                r.row_rule().map_or("none (models 1 and 2 have no --rule)", RuleName::name)
            );
        }
        anyhow::ensure!(
            a.eps.is_none_or(|e| e == p.eps),
            "{file} holds a run with eps = {}: drop --eps or use another file",
            damier::util::given(p.eps)
        );
    }
    // A resumed run's model is the file's.
    let model = resumed.as_ref().map_or(a.model.unwrap_or(Model::Pair), |r| r.params().model);
    let eta = eta_for(&[model], a.eta)?;
    // Given (and so used by the file's model), it must be the file's η, as -n and --seed.
    if let (Some(r), Some(given)) = (&resumed, a.eta) {
        anyhow::ensure!(
            given == r.params().eta,
            "{} holds a run with eta = {}: drop --eta or use another file",
            a.checkpoint.as_ref().expect("resumed from a file").display(),
            damier::util::given(r.params().eta)
        );
    }
    let seed = resumed.as_ref().map_or_else(|| crate::util::pick_seed(a.seed), Automaton::seed);
    let start_pos = match &a.from {
        Some(path) => {
            let source = input::Source::of(path);
            let body = input::read_text(source, input::POSITION_MAX_BYTES, "a position")?;
            let body = position_of(&body).with_context(|| source.name())?;
            let (n, counts) = text::parse_position(&body).with_context(|| source.name())?;
            if let Some(given) = a.n {
                anyhow::ensure!(
                    given == n,
                    "{}: the position is {n} x {n} but -n {given} was given",
                    source.name()
                );
            }
            Some((n, counts))
        }
        None => None,
    };
    let n = match (&start_pos, a.n) {
        _ if resumed.is_some() => resumed.as_ref().map_or(0, Automaton::n),
        (Some((n, _)), _) => *n,
        (None, Some(n)) => n,
        (None, None) => anyhow::bail!("give the board side with -n N (or a position with --from FILE)"),
    };
    check_n(model, n)?;
    anyhow::ensure!(!gpu || model == Model::Row, "--device gpu runs model 3: add --model row");
    anyhow::ensure!(
        a.rule.is_none() || model == Model::Row,
        "--rule chooses model 3's rule: add --model row"
    );
    // A resumed run's rule is the file's (a --rule that differs was refused above).
    let rule = resumed.as_ref().and_then(Automaton::row_rule).or(a.rule).unwrap_or(RuleName::Kept);
    anyhow::ensure!(
        !gpu || rule.runs_on_gpu(),
        "rule {rule} runs on the CPU only (the GPU runs the synchronous rules with waves): drop --device gpu"
    );
    let params = match &resumed {
        Some(r) => *r.params(),
        None => Params { model, n, eps, eta: eta.unwrap_or(engine::DEFAULT_ETA) }.validated()?,
    };
    let mut aut = match (resumed, &start_pos) {
        (Some(r), _) => {
            if !a.json {
                errln!("resuming at step {} ({} moves)", r.steps(), r.moves());
            }
            r
        }
        (None, Some((_, counts))) => {
            Automaton::from_position_under(&params, rule, counts, StartSignals::None, seed)
                .with_context(|| input::Source::of(a.from.as_ref().expect("from")).name())?
        }
        (None, None) => Automaton::from_seed_under(&params, rule, seed)?,
    };
    // No solution exists for n = 2, 3, so the run could only go on to its step cap: the cause
    // is said once on stderr (issue 52 §5), with --json the record of the run not made on
    // stdout beside it, and no header or seed for it.
    if let Some(not_made) = UnsolvableRun::of(&aut)? {
        errln!("damier: {}", not_made.reason());
        if a.json {
            not_made.print(true)?;
        }
        return Ok(ExitCode::from(exit::NO));
    }
    if !a.json {
        let eta_text =
            params.used_eta().map(|e| format!(" eta = {}", damier::util::given(e))).unwrap_or_default();
        let rule_text = aut.row_rule().map(|r| format!(" rule = {r}")).unwrap_or_default();
        outln!(
            "model {} n = {n} eps = {}{eta_text}{rule_text} seed = {seed}",
            params.model,
            damier::util::given(params.eps)
        )?;
    }
    let control = interrupt::control();
    let stop = Stop::new(control);
    let clock = Instant::now();
    let result = match a.trace {
        None => {
            let every = Duration::from_secs(a.checkpoint_every);
            let path = a.checkpoint.as_deref();
            if gpu {
                gpu_run::run(&mut aut, a.max_steps, &stop, path, every, a.gpu_adapter)?
            } else {
                long_run::run(&mut aut, a.max_steps, &stop, path, every)?
            }
        }
        Some(k) => {
            let mut sink: Box<dyn Write> =
                if a.json { Box::new(output::Stderr) } else { Box::new(output::stdout()) };
            loop {
                writeln!(sink, "step {} moves {}", aut.steps(), aut.moves())?;
                write!(sink, "{}", text::render(&aut))?;
                if aut.is_solution() || aut.steps() >= a.max_steps {
                    break;
                }
                let next = aut.steps().saturating_add(k).min(a.max_steps);
                let r = aut.run_until(next, &stop)?;
                if r.solved || aut.steps() >= a.max_steps {
                    writeln!(sink, "step {} moves {}", aut.steps(), aut.moves())?;
                    write!(sink, "{}", text::render(&aut))?;
                    break;
                }
            }
            sink.flush()?;
            let censored = (!aut.is_solution()).then_some(Censored::StepCap);
            aut.result(censored)
        }
    };
    let report = RunRecord::new(&aut, result, clock.elapsed().as_secs_f64());
    report.print(a.json)?;
    Ok(if report.solved { ExitCode::SUCCESS } else { ExitCode::from(exit::NO) })
}

/// The position in `body`: the body itself, or the position `automaton trap` prints in its
/// report (`automaton trap --figure 1 | automaton run --from -`): in its text, the first lines
/// of cells after the `fig. K` header; in its JSON, the `position` key.
fn position_of(body: &str) -> anyhow::Result<std::borrow::Cow<'_, str>> {
    let head = body.trim_start();
    if head.starts_with('{') {
        #[derive(serde::Deserialize)]
        struct Trap {
            position: String,
        }
        let trap: Trap = serde_json::from_str(body)
            .map_err(|e| anyhow::anyhow!("not a position, nor the JSON of `automaton trap` ({e})"))?;
        return Ok(trap.position.into());
    }
    if !head.starts_with("fig. ") {
        return Ok(body.into());
    }
    let is_cells =
        |l: &&str| !l.trim().is_empty() && l.trim().bytes().all(|b| b == b'.' || b.is_ascii_digit());
    let rows: Vec<&str> = body.lines().skip_while(|l| !is_cells(l)).take_while(is_cells).collect();
    anyhow::ensure!(!rows.is_empty(), "a report of `automaton trap` without its position");
    Ok(rows.join("\n").into())
}
