"""damier: n queens, Lights Out, the pawn walk and two cellular automata, from Python."""

from typing import Any

from . import automaton as automaton
from . import lights as lights
from . import queens as queens
from . import walk as walk

__version__: str

def factor(
    n: int,
    *,
    seed: int | None = None,
    q: float = 0.5,
    eps: float = 0.02,
    max_steps: int = 2_000_000_000,
) -> dict[str, Any]:
    """Factor n (2..=2**64-1) with the cellular automaton of local signals.

    Returns the record ``damier factor N --json`` prints: n, factors (two decimal strings,
    or None), steps, seconds, seed, flips, prime, censored ("step-cap" or None), q, eps.
    seed is drawn at random when None (the record carries it). q and eps are the flip
    probabilities, in (0, 1]. A UserWarning comes first when the run is projected to reach
    its cap, as the CLI warns. Releases the GIL; Ctrl-C raises KeyboardInterrupt.
    """
