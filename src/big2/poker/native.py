"""The compiled poker core behind the fast evaluators and hold'em equity (issue 28).

``big2._native.poker`` (C++17, ``src/native/poker.hpp``) evaluates five to
nine cards with the values of :mod:`big2.poker.evaluate` (1–7,462, higher is
better), evaluates NumPy arrays of hands with the GIL released, and runs the
hold'em enumeration and Monte Carlo loops of :func:`big2.poker.equity`.  The
plain Python and NumPy code stays beside it as the reference: the tests check
one against the other.

:func:`native_reason` says why the core is not used (``None`` when it is):
the extension is not built, or ``BIG2_ENGINE=python`` is set in the
environment (the same switch that puts the Big Two engine on its Python
reference; read once, at import).  :data:`CORE` is the core module, or
``None`` then.  Where it is ``None`` every function of :mod:`big2.poker`
runs in Python and gives the same values.

>>> native_reason() in (None, "the extension is not built", "BIG2_ENGINE=python")
True
>>> CORE is None or CORE.evaluate5(47, 43, 39, 35, 31) == 7462   # AS KS QS JS TS
True
"""

from __future__ import annotations

import os
from typing import Any

try:
    from big2._native import poker as _core
except ImportError:  # pragma: no cover - a source tree without the built extension
    _core = None  # type: ignore[assignment]

__all__ = ["CORE", "ENGINE_ENV", "EXTENSION", "native_reason", "wanted"]

ENGINE_ENV = "BIG2_ENGINE"
"""The environment variable that picks the engine: ``python`` (the reference) or
``native`` (the default); shared with :mod:`big2.variant.native`."""


def wanted(engine: str = "auto") -> str:
    """The engine asked for: *engine* itself unless ``"auto"``, then the
    environment's :data:`ENGINE_ENV` (default ``native``).

    >>> wanted("python")
    'python'
    """
    choice = engine if engine != "auto" else os.environ.get(ENGINE_ENV, "native") or "native"
    if choice not in ("native", "python"):
        raise ValueError(f"engine: {choice!r} is not one of: auto, native, python")
    return choice


def native_reason(engine: str = "auto") -> str | None:
    """Why big2.poker runs in Python for *engine* (``None``: it runs in the core)."""
    if _core is None:
        return "the extension is not built"
    if wanted(engine) == "python":
        return "engine='python'" if engine == "python" else f"{ENGINE_ENV}=python"
    return None


EXTENSION: Any = _core
"""``big2._native.poker`` if the extension is built, whether or not in use (the tests
compare it with the Python reference under any :data:`ENGINE_ENV`)."""
CORE: Any = _core if native_reason() is None else None
"""``big2._native.poker`` when the fast paths use it, else ``None``."""
