//! The host's half of the engine: the rows' masks of n, and a task cut into prefixes (its
//! first rows placed), which the kernel finishes. A CPU copy of the kernel's search
//! ([`finish`]) lets the tests check the cut without a GPU.
//!
//! The rules are those of a task's weighted count ([`damier::queens::count::tasks`]): the top
//! half's rows (`0..q`, `q = ceil(n / 2)`) take the task's columns, each queen on a long
//! diagonal but the centre doubling the weight; the bottom half's rows take any column off
//! both long diagonals.

use damier::queens::count::tasks::Task;

/// Most levels of a slot's stack (rows `start_row..=n-2`): `MAXL` in the kernel.
pub(crate) const MAX_LEVELS: u32 = 20;

/// Bit of the prefix's column word where the weight exponent starts (`E_SHIFT` in the kernel).
pub(crate) const E_SHIFT: u32 = 29;

/// The masks of each row of n, as the kernel reads them.
#[derive(Clone, Debug)]
pub(crate) struct Rows {
    pub(crate) n: u32,
    /// Rows of the top half.
    q: u32,
    pub(crate) full: u32,
    /// Per row: `[bottom-half squares, doubling squares, 1 for a top-half row, 0]`.
    pub(crate) masks: Vec<[u32; 4]>,
}

impl Rows {
    /// The rows of n (`4..=28`).
    pub(crate) fn new(n: u32) -> Rows {
        debug_assert!((4..=28).contains(&n));
        let q = n - n / 2;
        let full = (1u32 << n) - 1;
        let masks = (0..n)
            .map(|r| {
                let long = 1u32 << r | 1u32 << (n - 1 - r);
                if r < q {
                    // The centre of an odd board is on both diagonals and doubles nothing.
                    let centre = if 2 * r + 1 == n { 1u32 << r } else { 0 };
                    [0, long & !centre, 1, 0]
                } else {
                    [full & !long, 0, 0, 0]
                }
            })
            .collect();
        Rows { n, q, full, masks }
    }

    /// The squares row `r` may take for a task with columns `cols`.
    fn allowed(&self, r: u32, cols: u32) -> u32 {
        let m = self.masks[r as usize];
        if m[2] != 0 { cols } else { m[0] }
    }

    /// The default number of rows the host places: enough prefixes per task to spread a batch
    /// over many slots, few enough that the host's share of the search stays small, and at
    /// least `n - 1 - MAX_LEVELS` so that the kernel's stack holds the rest.
    pub(crate) fn default_start_row(&self) -> u32 {
        let n = self.n;
        (n / 2).saturating_sub(1).clamp(1, self.q).max(n.saturating_sub(1 + MAX_LEVELS))
    }

    /// The start rows the kernel can finish from: the stack holds the levels left, and at
    /// least one row is placed before the last row's popcount.
    pub(crate) fn start_rows(&self) -> std::ops::RangeInclusive<u32> {
        self.n.saturating_sub(1 + MAX_LEVELS).max(1)..=self.n - 2
    }
}

/// One prefix as the kernel reads it: `[columns | exponent << E_SHIFT, ld, rd, task]`.
pub(crate) type Prefix = [u32; 4];

/// A task's prefixes, made a few at a time (a task of n = 28 has millions).
#[derive(Clone, Debug)]
pub(crate) struct Expander {
    cols: u32,
    start_row: u32,
    /// Per placed row: columns | exponent << E_SHIFT, ld, rd, squares left to try.
    stack: Vec<[u32; 4]>,
}

impl Expander {
    /// The prefixes of `task` with rows `0..start_row` placed.
    pub(crate) fn new(rows: &Rows, task: Task, start_row: u32) -> Expander {
        let first = [0, 0, 0, rows.allowed(0, task.cols)];
        Expander { cols: task.cols, start_row, stack: vec![first] }
    }

    /// Appends prefixes (tagged `tag`) to `out` until it holds `max` or the task has no more;
    /// true when the task has no more.
    pub(crate) fn fill(&mut self, rows: &Rows, tag: u32, out: &mut Vec<Prefix>, max: usize) -> bool {
        while out.len() < max {
            let Some(top) = self.stack.last_mut() else { return true };
            if top[3] == 0 {
                self.stack.pop();
                continue;
            }
            let b = top[3] & top[3].wrapping_neg();
            top[3] ^= b;
            let [c, ld, rd, _] = *top;
            let row = self.stack.len() as u32 - 1;
            let e = (c >> E_SHIFT) + u32::from(b & rows.masks[row as usize][1] != 0);
            let cols = (c & rows.full) | b;
            let (ld, rd) = (((ld | b) << 1) & rows.full, (rd | b) >> 1);
            let word = cols | e << E_SHIFT;
            if row + 1 == self.start_row {
                out.push([word, ld, rd, tag]);
            } else {
                let free = rows.allowed(row + 1, self.cols) & !(cols | ld | rd);
                if free != 0 {
                    self.stack.push([word, ld, rd, free]);
                }
            }
        }
        self.stack.is_empty()
    }
}

/// The kernel's search on the CPU: a prefix's count (its exponent applied, the task's mirror
/// weight not), for the tests.
#[cfg(test)]
pub(crate) fn finish(rows: &Rows, task_cols: u32, start_row: u32, p: Prefix) -> u64 {
    fn go(rows: &Rows, task_cols: u32, row: u32, c: u32, ld: u32, rd: u32) -> u64 {
        let e = c >> E_SHIFT;
        let cols = c & rows.full;
        let mut free = rows.allowed(row, task_cols) & !(cols | ld | rd);
        if row == rows.n - 1 {
            return u64::from(free.count_ones()) << e;
        }
        let mut total = 0;
        while free != 0 {
            let b = free & free.wrapping_neg();
            free ^= b;
            let e = e + u32::from(b & rows.masks[row as usize][1] != 0);
            total += go(
                rows,
                task_cols,
                row + 1,
                (cols | b) | e << E_SHIFT,
                ((ld | b) << 1) & rows.full,
                (rd | b) >> 1,
            );
        }
        total
    }
    go(rows, task_cols, start_row, p[0], p[1], p[2])
}

#[cfg(test)]
mod tests {
    use super::*;
    use damier::control::Control;
    use damier::queens::count::tasks::{TaskList, backtrack_task};

    /// A task's count from its prefixes finished on the CPU, cut into pieces of `piece`.
    fn by_prefixes(rows: &Rows, task: Task, start_row: u32, piece: usize) -> u64 {
        let mut ex = Expander::new(rows, task, start_row);
        let mut total = 0;
        loop {
            let mut out = Vec::new();
            let done = ex.fill(rows, 7, &mut out, piece);
            assert!(out.len() <= piece);
            total += out.iter().map(|&p| finish(rows, task.cols, start_row, p)).sum::<u64>();
            assert!(out.iter().all(|p| p[3] == 7));
            if done {
                return total * task.weight;
            }
        }
    }

    #[test]
    fn prefixes_finished_on_the_cpu_give_every_task_its_count() {
        for n in 4..=11 {
            let rows = Rows::new(n);
            let list = TaskList::new(n).unwrap();
            for start_row in rows.start_rows() {
                for i in 0..list.len() {
                    let task = list.get(i).unwrap();
                    let want = backtrack_task(n, task, &Control::new()).unwrap();
                    for piece in [1, 3, 1000] {
                        assert_eq!(
                            by_prefixes(&rows, task, start_row, piece),
                            want,
                            "n = {n} task {i} from row {start_row}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_default_start_row_leaves_the_kernel_a_stack_it_holds() {
        for n in 4..=28 {
            let rows = Rows::new(n);
            assert!(rows.start_rows().contains(&rows.default_start_row()), "n = {n}");
            assert!(n - 1 - rows.default_start_row() <= MAX_LEVELS);
        }
    }
}
