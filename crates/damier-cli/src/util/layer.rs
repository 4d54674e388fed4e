//! The request layer ([`damier_api`]) run in this process: its surroundings ([`Process`]:
//! Ctrl-C, its clock, fresh seeds, progress bars or the server's progress lines) and a refusal
//! as the command line's error ([`error`]).

use std::any::Any;

use damier::control::Control;
use damier_api::{Host, Refusal};

use super::{exit, interrupt, progress::Progress};

/// This process's surroundings: the Ctrl-C control, its clock, fresh seeds, progress bars or
/// the server's progress lines (`DAMIER_PROGRESS`).
pub struct Process;

impl Host for Process {
    fn control(&self) -> &Control {
        interrupt::control()
    }

    fn seconds(&self) -> f64 {
        static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        EPOCH.get_or_init(std::time::Instant::now).elapsed().as_secs_f64()
    }

    fn seed(&self) -> u64 {
        crate::util::pick_seed(None)
    }

    fn watch(&self, label: &str, total: u64) -> Box<dyn Any> {
        Box::new(Progress::start(interrupt::control(), total, label))
    }
}

/// A refusal of the layer as the command line's error: Ctrl-C's (exit 130) when the control
/// was cancelled (the layer says "interrupted" as text), a fault (exit 74), else bad input
/// (exit 2) with the message as it came.
pub fn error(refusal: Refusal) -> anyhow::Error {
    if let Err(stopped) = interrupt::check() {
        return stopped.into();
    }
    match refusal {
        Refusal::Fault(m) => exit::fault(m),
        Refusal::Input(m) | Refusal::Bound(m) | Refusal::NotHere(m) | Refusal::No(m) => {
            anyhow::anyhow!("{m}")
        }
    }
}
