"""Times damier.lights.solve on a random square board given as a NumPy bool array, the
conversions both ways included (docs/performance.md, "Python: Lights Out through NumPy").

    python crates/damier-py/bench/lights_numpy.py [--side 10000] [--repeat 7] [--seed 1]

Prints each run, then the best and the median, and checks the last answer independently
(the press image computed with NumPy shifts equals the board).
"""

import argparse
import statistics
import time

import numpy as np

import damier


def press_image(presses):
    """M x for presses x: each press flips its cell and its orthogonal neighbours (NumPy)."""
    out = presses.copy()
    out[1:, :] ^= presses[:-1, :]
    out[:-1, :] ^= presses[1:, :]
    out[:, 1:] ^= presses[:, :-1]
    out[:, :-1] ^= presses[:, 1:]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    board = np.random.default_rng(a.seed).integers(0, 2, size=(a.side, a.side), dtype=np.uint8).astype(bool)
    times = []
    for i in range(a.repeat):
        start = time.perf_counter()
        presses = damier.lights.solve(board)
        times.append(time.perf_counter() - start)
        print(f"run {i + 1}: {times[-1]:.3f} s")
    assert presses is not None and presses.dtype == np.bool_ and presses.shape == board.shape
    assert np.array_equal(press_image(presses), board), "the presses do not turn the board off"
    print(
        f"{a.side} x {a.side}, seed {a.seed}: best {min(times):.3f} s, median {statistics.median(times):.3f} s "
        f"over {a.repeat} runs (array in, solve and verify, array out); answer checked with NumPy"
    )


if __name__ == "__main__":
    main()
