"""n queens solved by a stochastic, asynchronous cellular automaton with local signals.

Models: "pair" (1, one adjacent pair per update), "cell" (2, one cell per update) or
"row" (3, a synchronous generation per update).
"""

from typing import Any, Literal

import numpy as np
import numpy.typing as npt

Model = Literal["pair", "cell", "row", 1, 2, 3]

DIRECTIONS: list[tuple[int, int]]
"""The 8 offsets (dx, dy): bit d of a cell's signals points along DIRECTIONS[d]."""
DIRECTION_NAMES: list[str]
"""N, NE, E, SE, S, SW, W, NW, in the order of DIRECTIONS."""
DEFAULT_EPS: float
DEFAULT_ETA: float

def run(
    model: Model,
    n: int,
    *,
    seed: int | None = None,
    eps: float = 0.01,
    eta: float | None = None,
    max_steps: int | None = None,
) -> dict[str, Any]:
    """One run from a random start to the first solution (or max_steps updates; None: no cap).

    Returns the record ``damier automaton run --json`` prints: model, n, eps, eta, rule
    (model 3's rule, None for the others), seed,
    steps, moves, solved, absorbing, placement (a uint32 array of 0-based columns, as
    everywhere in the package, or None; the CLI's JSON prints 1-based columns), censored ("step-cap" or None), seconds; eta is None for the models that ignore
    it. eta (model "cell" only; None: DEFAULT_ETA) raises ValueError for the other models,
    which do not use it. seed is drawn at random when None. n = 2 and 3 have no solution: a UserWarning says
    so and nothing is run. Releases the GIL; Ctrl-C raises KeyboardInterrupt.
    """

class Automaton:
    """A run in progress: the state ``damier automaton run --seed S`` starts from.

    eta (model "cell" only; None: DEFAULT_ETA) raises ValueError for the other models.
    """

    def __init__(
        self,
        model: Model,
        n: int,
        *,
        seed: int | None = None,
        eps: float = 0.01,
        eta: float | None = None,
    ) -> None: ...
    def step(self, updates: int = 1) -> bool:
        """Up to `updates` more updates, stopping at a solution; True when solved."""
    def run(self, max_steps: int | None = None) -> dict[str, Any]:
        """To the first solution or max_steps updates in all; the record of run()."""
    def counts(self) -> npt.NDArray[np.uint32]:
        """Queens per cell, shape (n, n): counts()[y, x]."""
    def signals(self) -> npt.NDArray[np.uint8]:
        """Signal bits per cell, shape (n, n): bit d set when a queen lies along DIRECTIONS[d]."""
    def placement(self) -> npt.NDArray[np.uint32] | None:
        """0-based columns when the queens stand one per row and column, else None."""
    def render(self) -> str:
        """The board and its signals drawn as text."""
    @property
    def n(self) -> int: ...
    @property
    def model(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def steps(self) -> int: ...
    @property
    def moves(self) -> int: ...
    @property
    def conflicts(self) -> int:
        """Rows, columns and diagonals holding two queens or more (0 on a solution)."""
    @property
    def solved(self) -> bool: ...
    @property
    def absorbing(self) -> bool:
        """Every signal true: nothing can ever move again."""
