import re

import numpy as np
import pytest

import damier
from damier import automaton, walk


def replay(rows, cols, moves):
    """The blog post's walk, cell by cell: landings flip the cell and its N/S/E/W neighbours."""
    black = np.zeros((rows, cols), bool)
    y, x = rows - 1, 0

    def land(y, x):
        for dy, dx in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= y + dy < rows and 0 <= x + dx < cols:
                black[y + dy, x + dx] ^= True

    land(y, x)
    for m in moves:
        dy, dx = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}[m]
        y, x = y + dy, x + dx
        assert 0 <= y < rows and 0 <= x < cols
        land(y, x)
    return black


@pytest.mark.parametrize("rows, cols", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 7), (20, 20), (9, 2)])
def test_walk_solutions_replay_all_black(rows, cols):
    activation, moves = walk.solve(rows, cols)
    assert activation.shape == (rows, cols) and activation.dtype == np.bool_
    assert replay(rows, cols, moves).all()


def test_walk_picture_from_the_seed(known):
    activation, _ = walk.solve(20, 20)
    picture = ["".join("#" if c else "_" for c in row) for row in activation]
    assert picture == known["walk"]["picture_20x20"]


def test_walk_methods_and_errors():
    for method in ("fast", "poly", "rows", "brute"):
        a, moves = walk.solve(3, 4, method=method)
        assert replay(3, 4, moves).all()
    with pytest.raises(ValueError, match="rows = 0 is out of range"):
        walk.solve(0, 3)
    with pytest.raises(ValueError, match="expected \"fast\""):
        walk.solve(3, 3, method="walk")


def test_factor_returns_the_clis_record():
    r = damier.factor(143, seed=7)
    assert r["factors"] == ["11", "13"] and r["seed"] == 7 and not r["prime"]
    assert damier.factor(143, seed=7)["steps"] == r["steps"]
    assert damier.factor(101)["prime"] is True
    # The CLI's warning, word for word (after its "damier: warning: ").
    with pytest.warns(UserWarning, match=r"^N has 40 bits: runs of that size need about 5\.47e11 steps "
                      r"\(median projected .* against a cap of 10 steps: this run will most likely stop "
                      r"at its cap without a factorization$"):
        capped = damier.factor(1_000_003 * 1_000_033, seed=1, max_steps=10)
    assert capped["factors"] is None and capped["censored"] == "step-cap"


def test_factor_errors():
    with pytest.raises(ValueError, match="nothing to factor: 1 has no factorization"):
        damier.factor(1)
    # Issue 38, section 3: the README's words, not "2..=18446744073709551615 (2^64 - 1)".
    with pytest.raises(ValueError, match=r"^n = 18446744073709551616 is out of range: 2 to 2\^64 - 1 is supported$"):
        damier.factor(2**64)
    with pytest.raises(ValueError, match=r"^max_steps = -1 is out of range: 0 to 2\^64 - 1 is supported$"):
        damier.factor(15, max_steps=-1)
    with pytest.raises(ValueError, match="q = 0 is not a probability"):
        damier.factor(15, q=0.0)


def test_automaton_run_is_reproducible():
    a = automaton.run("pair", 8, seed=3)
    b = automaton.run(1, 8, seed=3)
    same = lambda r: {k: v for k, v in r.items() if k not in ("seconds", "placement")}
    assert same(a) == same(b) and (a["placement"] == b["placement"]).all()
    assert a["solved"] and a["model"] == "pair" and a["n"] == 8
    assert a["eta"] is None  # the pair model has no eta, as the CLI's record says
    # One convention in the package (issue 38): 0-based columns in a uint32 array, as
    # queens.solve returns them and queens.check reads them; the CLI prints them 1-based.
    cols = a["placement"]
    assert isinstance(cols, np.ndarray) and cols.dtype == np.uint32
    assert cols.min() == 0 and cols.max() == 7
    assert damier.queens.check(cols)
    capped = automaton.run("cell", 30, seed=1, max_steps=100)
    assert not capped["solved"] and capped["censored"] == "step-cap" and capped["steps"] == 100


def test_boards_without_a_solution_run_nothing():
    for n in (2, 3):
        with pytest.warns(UserWarning, match=f"n = {n} has no solution"):
            r = automaton.run("cell", n, seed=1)
        assert not r["solved"] and r["steps"] == 0 and r["placement"] is None


def test_stepping_matches_one_run_and_reads_the_cells():
    whole = automaton.run("cell", 8, seed=9)
    a = automaton.Automaton("cell", 8, seed=9)
    counts = a.counts()
    assert counts.shape == (8, 8) and counts.dtype == np.uint32 and counts.sum() == 8
    while not a.step(1000):
        assert a.signals().shape == (8, 8)
    assert a.steps == whole["steps"] and a.moves == whole["moves"] and a.solved
    assert (a.placement() == whole["placement"]).all()
    c = a.counts()
    assert c.sum() == 8 and (c.sum(axis=0) == 1).all() and (c.sum(axis=1) == 1).all()
    record = a.run()
    assert record["solved"] and record["steps"] == whole["steps"]
    assert "n = 8" in repr(a) or "n=8" in repr(a)
    assert isinstance(a.render(), str) and a.conflicts == 0


def test_signals_point_at_queens():
    a = automaton.Automaton("row", 6, seed=2)
    a.step(50)
    counts, signals = a.counts(), a.signals()
    assert len(automaton.DIRECTIONS) == 8 and automaton.DIRECTION_NAMES[0] == "N"
    # Model row: every signal bit of a row direction is clear (E and W carry none).
    east = automaton.DIRECTION_NAMES.index("E")
    assert not (signals >> east & 1).any()
    assert counts.sum() == 6


def test_automaton_errors():
    with pytest.raises(ValueError, match="out of range"):
        automaton.run("pair", 0)
    with pytest.raises(ValueError, match="eps = 2 is not a probability"):
        automaton.run("pair", 8, eps=2.0)
    with pytest.raises(ValueError, match="model row needs eps > 0"):
        automaton.Automaton("row", 8, eps=0.0)
    with pytest.raises(ValueError, match="expected \"pair\", \"cell\" or \"row\""):
        automaton.run("triple", 8)
    with pytest.raises(TypeError):
        automaton.run(1.5, 8)


def test_eta_is_refused_for_the_models_that_ignore_it():
    # As `damier automaton run --eta`: the library's one check.
    for model, label in (("pair", "model 1 (pair)"), (3, "model 3 (row)")):
        with pytest.raises(ValueError, match=re.escape(f"eta = 0.1 is refused: {label} does not use η")):
            automaton.run(model, 8, seed=1, eta=0.1)
        with pytest.raises(ValueError, match="eta = 0 is refused"):
            automaton.Automaton(model, 8, seed=1, eta=0.0)
        assert automaton.run(model, 6, seed=1)["eta"] is None
    with pytest.raises(ValueError, match="eta = 2 is not a probability"):
        automaton.run("cell", 8, eta=2.0)
    given = automaton.run("cell", 6, seed=1, eta=0.2)
    assert given["eta"] == 0.2 and given["solved"]
    assert automaton.run(2, 6, seed=1)["eta"] == automaton.DEFAULT_ETA
