"""damier: n queens, Lights Out, the pawn walk and two cellular automata, from Python.

The computations are those of the damier Rust library; this package converts arguments and
results (NumPy arrays for boards and placements, dicts for the records the CLI prints with
``--json``). Long calls release the GIL and stop on Ctrl-C (KeyboardInterrupt).

Submodules: :mod:`damier.queens`, :mod:`damier.lights`, :mod:`damier.automaton`,
:mod:`damier.walk`; and :func:`damier.factor`. See docs/python.md.
"""

import sys as _sys
import types as _types

from . import _damier
from ._damier import __version__, factor

# The compiled submodules: the modules among `_damier`'s attributes, in the order its
# `src/lib.rs` registers them (a new one needs no line here). Registering them makes
# `import damier.queens` and `from damier.lights import solve` work too.
_SUBMODULES = [_n for _n, _v in vars(_damier).items() if isinstance(_v, _types.ModuleType)]
for _name in _SUBMODULES:
    globals()[_name] = getattr(_damier, _name)
    _sys.modules[f"{__name__}.{_name}"] = getattr(_damier, _name)
del _name

__all__ = [*_SUBMODULES, "factor", "__version__"]
