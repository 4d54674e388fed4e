"""damier: n queens, Lights Out, the pawn walk and two cellular automata, from Python.

The computations are those of the damier Rust library; this package converts arguments and
results (NumPy arrays for boards and placements, dicts for the records the CLI prints with
``--json``). Long calls release the GIL and stop on Ctrl-C (KeyboardInterrupt).

Submodules: :mod:`damier.queens`, :mod:`damier.lights`, :mod:`damier.automaton`,
:mod:`damier.walk`; and :func:`damier.factor`. See docs/python.md.
"""

import sys as _sys

from . import _damier
from ._damier import __version__, automaton, factor, lights, queens, walk

# The compiled submodules are attributes of `_damier`; registering them makes
# `import damier.queens` and `from damier.lights import solve` work too.
for _name in ("queens", "lights", "automaton", "walk"):
    _sys.modules[f"{__name__}.{_name}"] = getattr(_damier, _name)
del _name

__all__ = ["queens", "lights", "automaton", "walk", "factor", "__version__"]
