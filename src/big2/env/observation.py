"""The observation encoding, as the environments use it: a re-export of
:mod:`big2.observation`.

The encoder lives in :mod:`big2.observation` (it needs only NumPy) so that
bots, which :mod:`big2.env` builds on, can encode a view too (see
:class:`~big2.bots.policy.CallableBot`); the fields, their sizes and meaning
are documented there. Every name is the same object under both modules,
including the private offsets and tables other modules import from here.

>>> import big2.observation
>>> encode_game is big2.observation.encode_game, OBS_SIZE, LAYOUT["hand"]
(True, 635, slice(0, 52, None))
"""

from __future__ import annotations

from typing import Any

import big2.observation as _encoder
from big2.observation import (
    LAYOUT,
    MAX_COUNT,
    MAX_SEATS,
    MAX_STOCK,
    NUM_KINDS,
    OBS_SIZE,
    card_vectors,
    describe,
    encode_game,
    encode_view,
    observation_layout,
    observe_batch,
    played_by_seat,
)

__all__ = [
    "LAYOUT",
    "MAX_COUNT",
    "MAX_SEATS",
    "MAX_STOCK",
    "NUM_KINDS",
    "OBS_SIZE",
    "card_vectors",
    "describe",
    "encode_game",
    "encode_view",
    "observation_layout",
    "observe_batch",
    "played_by_seat",
]

# The private offsets, tables and helpers too, bound here on purpose (the same
# objects) for the modules that import them from big2.env.observation.
_BYTE_BITS = _encoder._BYTE_BITS
_COUNT = _encoder._COUNT
_COUNT_W = _encoder._COUNT_W
_FIELDS = _encoder._FIELDS
_HAND = _encoder._HAND
_KIND = _encoder._KIND
_LAST = _encoder._LAST
_LASTP = _encoder._LASTP
_LEADING = _encoder._LEADING
_MUST = _encoder._MUST
_NBYTES = _encoder._NBYTES
_OFF = _encoder._OFF
_PASSED = _encoder._PASSED
_PLAYED = _encoder._PLAYED
_PLAYERS = _encoder._PLAYERS
_REL = _encoder._REL
_SPARE = _encoder._SPARE
_STOCK = _encoder._STOCK
_TLEAD = _encoder._TLEAD
_TOMOVE = _encoder._TOMOVE
_layout = _encoder._layout
_passed_and_leader = _encoder._passed_and_leader


def __getattr__(name: str) -> Any:
    """Any other name of :mod:`big2.observation` (one added there later, say)."""
    try:
        return getattr(_encoder, name)
    except AttributeError:
        raise AttributeError(f"module 'big2.env.observation' has no attribute {name!r}") from None
