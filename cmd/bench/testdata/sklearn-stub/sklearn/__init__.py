"""A stub scikit-learn for the tests of the runtime report: on PYTHONPATH,
it is the scikit-learn installed behind it (its modules, its numbers)
reporting version 9.9.9."""

import importlib.machinery
import os
import sys

_stub = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_real = importlib.machinery.PathFinder.find_spec(
    __name__, [p for p in sys.path if os.path.abspath(p or ".") != _stub]
)
__path__ = list(_real.submodule_search_locations)
__file__ = _real.origin
with open(_real.origin) as _f:
    exec(compile(_f.read(), _real.origin, "exec"))

__version__ = "9.9.9"
