//! Drives the `damier` executable: one test binary for every subcommand (`tests/cli/*.rs`).

#[path = "../common/needs.rs"]
pub mod needs;
pub mod tmux;
pub mod util;

mod automaton;
mod automaton_growth;
mod bench;
mod conventions;
mod docs_commands;
mod factor;
mod faults;
mod gpu;
mod hostile;
mod imports;
mod json_keys;
mod kills;
mod lights;
mod long_counts;
mod memory;
mod newcomer;
mod open_term;
mod outputs;
mod pipes;
mod play;
mod queens;
mod speed;
mod walk;
mod warnings;
