"""The Python reference engine on demand, for tests that check the compiled
core against it: :func:`python_engine` and :func:`python_game`."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from big2 import Game, Rules
from big2.variant import native


@contextlib.contextmanager
def python_engine() -> Iterator[None]:
    """Games made inside use the Python reference engine (``BIG2_ENGINE=python``);
    the variable is put back as it was on the way out."""
    old = os.environ.get(native.ENGINE_ENV)
    os.environ[native.ENGINE_ENV] = "python"
    try:
        yield
    finally:
        if old is None:
            del os.environ[native.ENGINE_ENV]
        else:
            os.environ[native.ENGINE_ENV] = old


def python_game(rules: Rules, hands: list[int], dealer: int) -> Game:
    """A :class:`~big2.Game` of *hands* (card masks per seat) dealt by *dealer*,
    on the Python reference engine."""
    with python_engine():
        return Game(rules, hands=hands, dealer=dealer)
