"""The n-queens problem: counts, the first solution, one solution of a huge board, checks.

Placements are 1-D arrays of 0-based columns, one per row (the course chapter's S, less one).
"""

from typing import Any

import numpy as np
import numpy.typing as npt

MAX_N: int
"""Largest n of the counter (32); count() refuses n past the fast engine (28)."""

def count(n: int, *, threads: int | None = None) -> tuple[int, int]:
    """(total, unique): all solutions and the classes up to the 8 symmetries, in one run.

    count(8) == (92, 12). n in 1..=28, the fast engine's reach (29..=32 are refused, as by
    the CLI: only the backtracker is left there, for core years). A count projected past one
    core hour (from n = 23 or so) first issues a UserWarning with the projection, as the CLI
    says it on stderr; under warnings.simplefilter("error") it raises before anything is
    counted. threads: worker threads in 1..=1024 (default: all cores).
    Releases the GIL; Ctrl-C raises KeyboardInterrupt.
    """

def first(n: int) -> npt.NDArray[np.uint32] | None:
    """The first solution in backtracking order as 0-based columns; None for n = 2, 3.

    n in 1..=64. first(8) + 1 is [1, 5, 8, 6, 3, 7, 2, 4]. Up to n = 35 it comes within
    seconds; past it the backtracking may take hours or years, and a UserWarning says so first
    (raised before anything runs under warnings.simplefilter("error")): solve(n) constructs a
    solution of any n at once. Ctrl-C raises KeyboardInterrupt.
    """

def solve(n: int, *, method: str = "construct", seed: int | None = None) -> npt.NDArray[np.uint32] | None:
    """One checked solution as 0-based columns; None for n = 2, 3.

    method="construct": the explicit construction, n <= 10**9 (no randomness: a seed is
    refused, ValueError "a seed applies to method local only"); method="local": a random
    solution by local search from seed (random when None), n <= 10**8. Releases the GIL;
    Ctrl-C raises KeyboardInterrupt.
    """

def check(columns: npt.ArrayLike) -> bool:
    """True when no two queens attack each other; columns: 0-based, one per row."""

def estimate(
    n: int,
    *,
    samples: int = 200,
    seed: int | None = None,
    queries: int | None = None,
    threads: int = 1,
) -> dict[str, Any]:
    """The projected cost of counting n (4..=28) from a timed random sample of its tasks.

    Returns the record ``damier queens estimate --json`` prints: n, tasks, core_hours, low,
    high (95% interval, core hours), samples, engine, task_seconds, task_seconds_sd,
    setup_seconds, clock, queries_per_task, subsampled_tasks, matched_fraction, solutions,
    solutions_low, solutions_high, ns_per_solution, ns_per_solution_low,
    ns_per_solution_high, timed_tasks (index, seconds, solutions of each), isa, seed; for
    n <= 27 also known_solutions, known_inside, known_core_hours, known_core_hours_low and
    known_core_hours_high. queries: most queries matched per task (None: whole tasks);
    threads: tasks timed at once, each by its thread's CPU time.
    Releases the GIL; Ctrl-C raises KeyboardInterrupt.
    """
