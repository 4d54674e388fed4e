"""Lights Out over GF(2): pressing a cell flips it and its orthogonal neighbours.

Boards are 2-D arrays of shape (height, width), top row first: bool, or integers 0 and 1
(a nested list works too). Results are bool arrays.
"""

import os

import numpy as np
import numpy.typing as npt

def solve(
    board: npt.ArrayLike,
    *,
    target: npt.ArrayLike | None = None,
    method: str = "poly",
) -> npt.NDArray[np.bool_] | None:
    """Presses turning board into target (all off when None), verified; None if unreachable.

    method: "poly" (default, any size), "chase" or "dense" (small boards). Releases the GIL;
    Ctrl-C raises KeyboardInterrupt.
    """

def press(board: npt.ArrayLike, presses: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """The board after pressing every cell that is on in presses (same shape)."""

def nullity(width: int, height: int) -> int:
    """k such that a winnable width x height board has 2**k solutions; nullity(5, 5) == 2."""

def square_nullities(n_max: int) -> npt.NDArray[np.int64]:
    """The nullities of the n x n boards for n = 1..=n_max (index n - 1), n_max <= 100 000.

    square_nullities(5) is [0, 0, 0, 4, 2]. Releases the GIL; Ctrl-C raises KeyboardInterrupt.
    """

def kernel(width: int, height: int, *, method: str = "poly") -> npt.NDArray[np.bool_]:
    """A basis of the presses that change nothing: shape (nullity, height, width).

    At most 2**30 cells in all (ValueError before any work). Releases the GIL; Ctrl-C raises
    KeyboardInterrupt.
    """

def read_pbm(path: str | os.PathLike[str]) -> npt.NDArray[np.bool_]:
    """A PBM bitmap (plain P1 or raw P4) as a bool array; lit (black) cells are True.

    A missing file raises FileNotFoundError (an OSError); a malformed one ValueError.
    """

def write_pbm(path: str | os.PathLike[str], board: npt.ArrayLike, *, plain: bool = False) -> None:
    """Write board as raw PBM (P4; plain P1 with plain=True), lit cells black.

    Written to a temporary file beside path, then renamed over it.
    """
