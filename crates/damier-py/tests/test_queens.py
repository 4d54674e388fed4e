import itertools
import warnings

import numpy as np
import pytest

import damier
from damier import queens


def attacks(cols):
    """The obvious O(n^2) check, independent of the library."""
    cols = [int(c) for c in cols]
    return any(
        cols[i] == cols[j] or abs(cols[i] - cols[j]) == j - i for i, j in itertools.combinations(range(len(cols)), 2)
    )


def test_counts_match_oeis(known):
    for n in range(1, 13):
        assert queens.count(n) == (known["queens"]["total"][n - 1], known["queens"]["unique"][n - 1]), n
    assert queens.count(8) == (92, 12)


def test_count_on_one_thread_agrees():
    assert queens.count(10, threads=1) == queens.count(10, threads=2) == (724, 92)


def test_first_is_the_seeds_first_solution():
    cols = queens.first(8)
    assert cols.dtype == np.uint32
    assert (cols + 1).tolist() == [1, 5, 8, 6, 3, 7, 2, 4]
    assert queens.first(2) is None and queens.first(3) is None
    assert queens.first(1).tolist() == [0]


def test_a_first_solution_past_the_measured_sizes_warns_first():
    # Past n = 35 the backtracking may take years: the warning names the construction, and
    # raised as an error it stops the search before it starts.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match=r"^n = 50: backtracking .* damier\.queens\.solve\(50\) constructs one"):
            queens.first(50)
        # Within the measured sizes: no warning (it would raise here), a solution.
        assert damier.queens.check(queens.first(20))


@pytest.mark.parametrize("n", [1, 4, 5, 8, 31, 1000, 100_003])
def test_construction_is_a_solution(n):
    cols = queens.solve(n)
    assert len(cols) == n and sorted(cols.tolist()) == list(range(n))
    if n <= 1000:
        assert not attacks(cols)
    assert queens.check(cols)


def test_local_search_is_reproducible_and_valid():
    a = queens.solve(200, method="local", seed=5)
    b = queens.solve(200, method="local", seed=5)
    assert np.array_equal(a, b)
    assert not attacks(a)
    assert queens.solve(2, method="local", seed=1) is None


def test_check_agrees_with_the_obvious_checker():
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(1, 9))
        cols = rng.permutation(n) if rng.random() < 0.5 else rng.integers(0, n, n)
        assert queens.check(cols) == (not attacks(cols)), cols
    assert queens.check([1, 3, 0, 2]) and not queens.check((0, 1, 2, 3))


def test_estimate_returns_the_clis_record():
    e = queens.estimate(8, samples=3, seed=1)
    assert e["n"] == 8 and e["seed"] == 1 and e["samples"] == 3
    assert e["low"] <= e["core_hours"] <= e["high"]
    assert e["known_solutions"] == 92
    assert {"tasks", "engine", "isa", "clock", "solutions", "known_inside"} <= e.keys()
    assert e["known_core_hours_low"] <= e["known_core_hours"] <= e["known_core_hours_high"]
    # Every task of 12, on two threads: the timed tasks' solutions add up to q(12).
    whole = queens.estimate(12, samples=10**6, seed=1, threads=2)
    assert len(whole["timed_tasks"]) == whole["samples"] == whole["tasks"]
    assert sum(t["solutions"] for t in whole["timed_tasks"]) == 14200


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: queens.count(0), "n must be at least 1"),
        (lambda: queens.count(33), "n = 33 is too large: at most 32 is supported"),
        (lambda: queens.count(29), "n = 29 is refused: the fast engine counts n <= 28"),
        (lambda: queens.count(8, threads=0), "threads = 0 is out of range"),
        (lambda: queens.first(65), "n = 65 is too large for backtracking: at most 64 (damier.queens.solve(65) constructs one)"),
        (lambda: queens.first(0), "n must be at least 1"),
        (lambda: queens.first(-3), "n must be at least 1"),
        (lambda: queens.first(10**30), "n = 1000000000000000000000000000000 is out of range: 0 to 2^64 - 1 is supported"),
        (lambda: queens.solve(0), "n must be at least 1"),
        (lambda: queens.solve(-1, method="local"), "n must be at least 1"),
        (lambda: queens.solve(8, seed=3), "a seed applies to method local only (the construction has no randomness)"),
        (lambda: queens.solve(8, method="magic"), "expected \"construct\" or \"local\""),
        (lambda: queens.solve(10**9 + 1), "is too large"),
        (lambda: queens.solve(10**8 + 1, method="local"), "too large for local search"),
        (lambda: queens.check([]), "empty placement"),
        (lambda: queens.check([0, 5]), "column 5 (row 1) is out of range: 0 to 1 (0-based columns)"),
        (lambda: queens.check([[0, 1], [1, 0]]), "must be a 1-D array"),
        (lambda: queens.estimate(3), "n = 3 is out of range: 4 to 28 is supported"),
        (lambda: queens.solve(8, method="local", seed=-1), "seed = -1 is out of range: 0 to 2^64 - 1 is supported"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=None) as e:
        call()
    assert message in str(e.value)


def test_counts_past_the_fast_engine_are_refused_as_by_the_cli():
    # The library's refusal, the CLI's text: the projected years and why.
    for n in (29, 32):
        with pytest.raises(ValueError) as e:
            queens.count(n)
        text = str(e.value)
        assert text.startswith(f"n = {n} is refused: the fast engine counts n <= 28 on this build")
        assert "core years" in text and "would not fit the 64-bit count" in text
        assert text.endswith('(see docs/queens.md, "Counting q(28)")')


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        queens.count("8")
    with pytest.raises(TypeError):
        queens.check([0.5, 1.5])
    with pytest.raises(TypeError):
        queens.count(8, 2)  # threads is keyword-only


def test_numpy_integers_are_accepted():
    assert queens.count(np.int64(6)) == (4, 1)
    assert damier.queens.check(np.array([1, 3, 0, 2], dtype=np.int8))


def test_a_long_count_warns_first_as_the_cli_does():
    # n = 27 is projected from the cost per solution measured on whole tasks (no estimate
    # runs): days of a core. Raised as an error, the warning stops the count before it starts.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match=r"^n = 27: projected [0-9.e]+ core hours \(.* ns each"):
            queens.count(27)
        # Counts known to be cheap are not priced and say nothing.
        assert queens.count(10) == (724, 92)
