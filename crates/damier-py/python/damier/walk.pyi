"""The pawn walk: flip cells by walking a pawn until the board is all black."""

import numpy as np
import numpy.typing as npt

def solve(rows: int, cols: int, *, method: str = "fast") -> tuple[npt.NDArray[np.bool_], str]:
    """One solution of the rows x cols board: (activation, moves).

    activation: bool array of shape (rows, cols), top row first, the cells landed on an odd
    number of times; moves: the walk from the bottom-left cell as letters N, S, E, W, checked
    by replaying it. method: "fast" (default), "poly", "rows" or "brute" (small boards).
    rows * cols <= 2**24. Releases the GIL; Ctrl-C raises KeyboardInterrupt.
    """
