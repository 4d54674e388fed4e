import numpy as np
import pytest

from damier import lights


def press_slowly(board, presses):
    """The rule, cell by cell in NumPy: independent of the library."""
    out = board.astype(bool).copy()
    h, w = out.shape
    for y, x in zip(*np.nonzero(presses)):
        for dy, dx in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= y + dy < h and 0 <= x + dx < w:
                out[y + dy, x + dx] ^= True
    return out


def test_all_on_5x5_has_four_solutions_and_one_turns_it_off():
    board = np.ones((5, 5), dtype=bool)
    presses = lights.solve(board)
    assert presses.dtype == np.bool_ and presses.shape == (5, 5)
    assert not press_slowly(board, presses).any()
    assert lights.nullity(5, 5) == 2


def test_nullities_match_oeis(known):
    for n, k in enumerate(known["lights"]["square_nullity"][:40], start=1):
        assert lights.nullity(n, n) == k, n


def test_square_nullities_table(known):
    table = lights.square_nullities(130)
    assert table.dtype == np.int64 and table.tolist() == known["lights"]["square_nullity"]
    assert lights.square_nullities(5).tolist() == [0, 0, 0, 4, 2]
    with pytest.raises(ValueError, match="n_max = 0 is out of range"):
        lights.square_nullities(0)


def test_square_solution_counts_from_the_lights_out_text(known):
    first = known["lights"]["square_solutions_from"]
    for n, count in enumerate(known["lights"]["square_solutions"][:20], start=first):
        assert 2 ** lights.nullity(n, n) == count
    for w, h, count in known["lights"]["rect_solutions"]:
        assert 2 ** lights.nullity(w, h) == count


@pytest.mark.parametrize("method", ["poly", "chase", "dense"])
def test_random_boards_every_engine(method):
    rng = np.random.default_rng(11)
    for _ in range(30):
        h, w = rng.integers(1, 13, size=2)
        board = rng.integers(0, 2, size=(h, w), dtype=np.uint8)
        target = rng.integers(0, 2, size=(h, w)).astype(bool)
        presses = lights.solve(board, target=target, method=method)
        kernel = lights.kernel(int(w), int(h))
        # Winnable iff the change meets every neutral configuration evenly.
        change = board.astype(bool) ^ target
        winnable = all(int(np.sum(change & k)) % 2 == 0 for k in kernel)
        assert (presses is not None) == winnable
        if presses is not None:
            assert np.array_equal(press_slowly(board, presses), target)
            assert np.array_equal(lights.press(board, presses), target)


def test_kernel_layers_change_nothing():
    k = lights.kernel(5, 5)
    assert k.shape == (2, 5, 5) and k.dtype == np.bool_
    for layer in k:
        assert layer.any()
        assert not press_slowly(np.zeros((5, 5), bool), layer).any()
    assert lights.kernel(6, 6).shape == (0, 6, 6)


def test_a_kernel_too_large_for_an_array_is_refused_before_it_is_computed():
    # 4096 x 4096 has nullity 2072: 35 G cells (35 GB as a bool array).
    with pytest.raises(ValueError, match=r"nullity 2072.*too large.*1073741824 cells at most"):
        lights.kernel(4096, 4096)


def test_wide_and_odd_shapes_round_trip():
    """Boards cross as bits: widths around word boundaries, views and Fortran order."""
    rng = np.random.default_rng(3)
    for w in [1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200]:
        board = rng.integers(0, 2, size=(3, w)).astype(bool)
        # press with no presses is the identity: one trip in and out of the library.
        assert np.array_equal(lights.press(board, np.zeros_like(board)), board)
        fortran = np.asfortranarray(board.astype(np.uint8))
        assert np.array_equal(lights.press(fortran, np.zeros_like(board)), board)
        strided = np.repeat(board, 2, axis=1)[:, ::2]
        assert np.array_equal(lights.press(strided, np.zeros_like(board)), board)
    for dtype in [np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64]:
        board = rng.integers(0, 2, size=(4, 70)).astype(dtype)
        assert np.array_equal(lights.press(board, board * 0), board.astype(bool))
    assert np.array_equal(lights.press([[1, 0], [0, 1]], [[0, 0], [0, 0]]), [[True, False], [False, True]])


def test_pbm_round_trip(tmp_path):
    rng = np.random.default_rng(5)
    board = rng.integers(0, 2, size=(17, 71)).astype(bool)
    for plain in (False, True):
        path = tmp_path / f"b{plain}.pbm"
        lights.write_pbm(path, board, plain=plain)
        assert path.read_bytes().startswith(b"P1" if plain else b"P4")
        assert np.array_equal(lights.read_pbm(path), board)
        assert np.array_equal(lights.read_pbm(str(path)), board)


def test_pbm_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="cannot read"):
        lights.read_pbm(tmp_path / "missing.pbm")
    bad = tmp_path / "bad.pbm"
    bad.write_bytes(b"P7\n1 1\n")
    with pytest.raises(ValueError, match="not a PBM bitmap"):
        lights.read_pbm(bad)
    short = tmp_path / "short.pbm"
    short.write_bytes(b"P4\n16 4\n\x00")
    with pytest.raises(ValueError, match="the bitmap ends at byte"):
        lights.read_pbm(short)
    with pytest.raises(OSError):
        lights.write_pbm(tmp_path / "no" / "such" / "dir.pbm", np.ones((2, 2), bool))


def test_bad_boards():
    with pytest.raises(ValueError, match=r"cell \(row 1, column 2\) is 2"):
        lights.solve(np.array([[0, 1, 0], [1, 0, 2]]))
    with pytest.raises(ValueError, match=r"cell \(row 0, column 70\) is 7"):
        row = np.zeros((1, 80), dtype=np.uint8)
        row[0, 70] = 7
        lights.solve(row)
    with pytest.raises(ValueError, match="must be a 2-D array"):
        lights.solve(np.ones(5, bool))
    with pytest.raises(ValueError, match="at least one row and one column"):
        lights.solve(np.ones((0, 5), bool))
    with pytest.raises(TypeError, match="threshold an image first"):
        lights.solve(np.ones((3, 3)) * 0.5)
    with pytest.raises(ValueError, match="the target is 3x2 but the start is 2x2"):
        lights.solve(np.ones((2, 2), bool), target=np.ones((2, 3), bool))
    with pytest.raises(ValueError, match="expected \"poly\", \"chase\" or \"dense\""):
        lights.solve(np.ones((2, 2), bool), method="gauss")
    with pytest.raises(ValueError, match="dense elimination handles at most"):
        lights.solve(np.ones((200, 200), bool), method="dense")
    # Not "1..=18446744073709551615 is supported" (issue 38, section 3).
    with pytest.raises(ValueError, match="width = 0 is out of range: a side is at least 1$"):
        lights.nullity(0, 5)
    with pytest.raises(ValueError, match="too large"):
        lights.nullity(1 << 20, 1 << 20)


def test_large_board_from_numpy():
    """10^3 x 10^3 here (the 10^4 board is measured in docs/performance.md)."""
    rng = np.random.default_rng(2)
    board = rng.integers(0, 2, size=(1000, 1000)).astype(bool)
    presses = lights.solve(board)
    if presses is None:
        assert lights.nullity(1000, 1000) > 0
    else:
        assert not lights.press(board, presses).any()
