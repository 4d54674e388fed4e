//! A test that needs a tool this machine may lack (tmux, mpirun, a Vulkan adapter) fails
//! naming it, never passes unrun: each such test runs only where it is asked for, an ignored
//! test run with `--ignored` (the terminal tests, `#[ignore = "needs tmux: ..."]`) or a
//! feature build (`--features mpi`, `--features gpu`), as `.ci/run` does after installing the
//! tools (README, "Which tests need what").

/// Fails the test `test`, which needs `what` ("tmux (apt-get install tmux)").
pub fn missing(test: &str, what: &str) -> ! {
    panic!("{test} needs {what}, which this machine lacks")
}
