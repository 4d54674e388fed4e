//! The text of the queens commands, and the CLI's own records among them (a witness's
//! check, a draw, the timing table): counts in `count.rs`, placements in `placement.rs`,
//! tables in `table.rs`, `queens estimate` in `estimate.rs`.

mod count;
mod estimate;
mod placement;
mod table;

pub(crate) use estimate::warn_about_the_sample;
pub(crate) use placement::{DrawnText, WitnessCheck};
pub(crate) use table::{OTHER_COUNTER, OTHER_COUNTER_NOTE, Table, program_and_build};

/// Boards are drawn up to this size by default; wider ones do not fit a terminal.
pub(crate) const BOARD_MAX: u32 = 32;

/// 1-based columns separated by spaces: the `--columns` line, which `queens check` reads.
pub(crate) fn columns_line(cols: &[u64]) -> String {
    cols.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}
