//! What the queens commands share: the board size drawn, the `--columns` line, the counter
//! run under Ctrl-C with its progress bar.

pub(super) use crate::report::queens::{BOARD_MAX, columns_line};
use crate::util::progress::Progress;

/// The counts of a count request, on the current pool, with a progress bar (on a terminal)
/// over its tasks; Ctrl-C surfaces as `Interrupted` in the error chain (exit 130).
pub(super) fn count_with(
    request: &damier::queens::count::request::CountRequest,
) -> anyhow::Result<damier::queens::Counts> {
    let control = crate::util::interrupt::control();
    let _bar = counting_bar(control, request.n(), request.tasks(), "");
    Ok(request.count(control)?)
}

/// [`count_with`] for one share of the tasks: its total only.
pub(super) fn count_share(
    n: u32,
    share: damier::queens::count::Share,
    options: &damier::queens::count::CountOptions,
) -> anyhow::Result<u64> {
    let control = crate::util::interrupt::control();
    let tasks = damier::queens::count::task_count_share(n, share).unwrap_or(0);
    let _bar = counting_bar(control, n, tasks, &format!(" (share {} of {})", share.index() + 1, share.of()));
    Ok(damier::queens::count::count_share_with(n, share, options, control)?)
}

/// From this n on a count lasts seconds to years: it says so when it starts, how far it is,
/// and when it ends ([`Progress::long_run`]); below, a bar on a terminal only.
pub(super) const LONG_COUNT_N: u32 = 19;

/// The progress of a count of `tasks` tasks of n (`of`: which part, as " (share 1/4)").
pub(super) fn counting_bar(
    control: &'static damier::control::Control,
    n: u32,
    tasks: u64,
    of: &str,
) -> Progress {
    if n < LONG_COUNT_N {
        return Progress::start(control, tasks, "counting");
    }
    let what = format!("counting q({n}){of}: {tasks} tasks on {} threads", rayon::current_num_threads());
    Progress::long_run(control, tasks, "queens count", &what)
}
