//! What the queens commands share: the board size drawn, the `--columns` line, the counter
//! run under Ctrl-C with its progress bar.

/// Boards are drawn up to this size by default; wider ones do not fit a terminal.
pub(super) const BOARD_MAX: u32 = 32;

/// 1-based columns separated by spaces: the `--columns` line, which `queens check` reads.
pub(super) fn columns_line(cols: &[u64]) -> String {
    cols.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

/// The counts of n with chosen options (engine, vector unit), on the current pool, with a
/// progress bar (on a terminal) over its tasks; Ctrl-C surfaces as `Interrupted` in the error
/// chain (exit 130).
pub(super) fn count_with(
    n: u32,
    options: &damier::queens::count::CountOptions,
) -> anyhow::Result<damier::queens::Counts> {
    let control = crate::util::interrupt::control();
    let tasks = damier::queens::count::task_count(n).unwrap_or(0);
    let _bar = crate::util::progress::Progress::start(control, tasks, "counting");
    Ok(damier::queens::count::count_solutions_with(n, options, control)?)
}

/// [`count_with`] for one share of the tasks: its total only.
pub(super) fn count_share(
    n: u32,
    share: damier::queens::count::Share,
    options: &damier::queens::count::CountOptions,
) -> anyhow::Result<u64> {
    let control = crate::util::interrupt::control();
    let tasks = damier::queens::count::task_count_share(n, share).unwrap_or(0);
    let _bar = crate::util::progress::Progress::start(control, tasks, "counting");
    Ok(damier::queens::count::count_share_with(n, share, options, control)?)
}
