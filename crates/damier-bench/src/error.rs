//! Why a benchmark could not run (kept out of `mod.rs` so that the timers' imports point one
//! way).

use damier::automaton;
use damier::control::Interrupted;
use damier::queens::count::tasks::TaskError;

/// Why a benchmark could not run, or found a wrong answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BenchError {
    /// Counting failed.
    #[error(transparent)]
    Count(#[from] damier::queens::CountError),
    /// The task list or the estimate failed.
    #[error(transparent)]
    Task(#[from] TaskError),
    /// Local search failed.
    #[error(transparent)]
    Local(#[from] damier::queens::local::LocalError),
    /// The queens automaton could not be built.
    #[error(transparent)]
    Automaton(#[from] automaton::AutomatonError),
    /// A run of the queens automaton failed.
    #[error(transparent)]
    Experiment(#[from] automaton::experiment::ExperimentError),
    /// Lights Out failed.
    #[error(transparent)]
    Lights(#[from] damier::lights::LightsError),
    /// A board could not be made.
    #[error(transparent)]
    Board(#[from] damier::board::BoardError),
    /// The pawn walk failed.
    #[error(transparent)]
    Walk(#[from] damier::walk::WalkError),
    /// The factoring automaton could not be built.
    #[error(transparent)]
    Factor(#[from] damier::factor::FactorError),
    /// Stopped through the [`Control`](damier::control::Control).
    #[error("interrupted")]
    Interrupted(#[from] Interrupted),
    /// The system refused the threads of a pool.
    #[error("cannot start the thread pool: {0}")]
    Pool(String),
    /// An engine's answer did not check: the figure would time a wrong result.
    #[error("wrong result: {0}")]
    Wrong(String),
}

impl From<rayon::ThreadPoolBuildError> for BenchError {
    fn from(e: rayon::ThreadPoolBuildError) -> Self {
        BenchError::Pool(e.to_string())
    }
}
