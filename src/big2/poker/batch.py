"""Evaluate arrays of hands at once (the compiled core: hundreds of millions a second).

Same values as :mod:`big2.poker.evaluate` (1–7,462, higher is better).
:func:`evaluate5_batch` and :func:`evaluate7_batch` run in the compiled core
(:mod:`big2.poker.native`; GIL released; the rows are checked in blocks by a
vector pass beside the plain evaluation loop, and a row with a card outside 0–51
or a repeated card raises ``ValueError`` naming the first such row) when it is built, else in NumPy (:func:`py_evaluate5_batch`,
:func:`py_evaluate7_batch`, the reference, which trust their input).  The
NumPy five-card path sums per-card rank keys (:data:`~.tables.BATCH_RANK_KEYS`,
distinct for every five-rank multiset) into an index of a value array, and
ANDs one-hot suit bits to spot flushes, whose value comes from the rank-bits
table instead.  Seven cards are one lookup each in the tables of
:mod:`big2.poker.lookup` (no five-card subsets).

>>> import numpy as np
>>> evaluate5_batch(np.array([[47, 43, 39, 35, 31], [17, 9, 6, 1, 48]]))
array([7462,    1], dtype=int32)
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

from big2.poker.evaluate import FIVE_TABLE, FLUSH_BEST, RANK_BITS, RANK_KEYS5
from big2.poker.lookup import tables
from big2.poker.native import CORE

__all__ = ["all_five_card_hands", "evaluate5_batch", "evaluate7_batch", "py_evaluate5_batch",
           "py_evaluate7_batch"]

_RANK_KEY = np.array(RANK_KEYS5, dtype=np.int32)
_RANK_BIT = np.array(RANK_BITS, dtype=np.int32)
_SUIT_BIT = np.array([1 << (c & 3) for c in range(52)], dtype=np.uint8)
_NONFLUSH = np.abs(np.array(FIVE_TABLE, dtype=np.int32))
_FLUSH = np.array(FLUSH_BEST, dtype=np.int32)


def evaluate5_batch(hands: npt.ArrayLike,
                    out: npt.NDArray[np.int32] | None = None) -> npt.NDArray[np.int32]:
    """Values of an ``(n, 5)`` array of card numbers (distinct, 0–51 in each row).

    *out*: a writeable, contiguous int32 array of *n* values to write them into (and
    return), instead of a new array: a caller evaluating batch after batch saves
    allocating one each time.  On a ``ValueError`` its contents are unspecified.
    """
    if CORE is not None:
        values: npt.NDArray[np.int32] = CORE.evaluate5_batch(np.asarray(hands), out)
        return values
    return _into(py_evaluate5_batch(hands), out)


def evaluate7_batch(hands: npt.ArrayLike,
                    out: npt.NDArray[np.int32] | None = None) -> npt.NDArray[np.int32]:
    """Values of the best five of each row of an ``(n, 7)`` array of card numbers
    (*out* as in :func:`evaluate5_batch`)."""
    if CORE is not None:
        values: npt.NDArray[np.int32] = CORE.evaluate7_batch(np.asarray(hands), out)
        return values
    return _into(py_evaluate7_batch(hands), out)


def _into(values: npt.NDArray[np.int32],
          out: npt.NDArray[np.int32] | None) -> npt.NDArray[np.int32]:
    """*values*, copied into *out* when given (checked as the core checks it)."""
    if out is None:
        return values
    if not isinstance(out, np.ndarray):
        raise TypeError("out must be a NumPy int32 array")
    if (out.dtype != np.int32 or out.shape != values.shape or not out.flags.c_contiguous
            or not out.flags.writeable):
        raise ValueError(f"out must be a writeable, contiguous int32 array of {len(values)} "
                         "values, one per row")
    out[:] = values
    return out


def py_evaluate5_batch(hands: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """:func:`evaluate5_batch` in NumPy (the reference)."""
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] != 5:
        raise ValueError(f"expected an (n, 5) array of cards, got shape {h.shape}")
    cols = [h[:, i] for i in range(5)]
    key = _RANK_KEY[cols[0]]
    suits = _SUIT_BIT[cols[0]]
    for col in cols[1:]:
        key += _RANK_KEY[col]
        suits &= _SUIT_BIT[col]
    out: npt.NDArray[np.int32] = _NONFLUSH[key]
    flush = np.flatnonzero(suits)
    if flush.size:
        fh = h[flush]
        bits = _RANK_BIT[fh[:, 0]]
        for i in range(1, 5):
            bits |= _RANK_BIT[fh[:, i]]
        out[flush] = _FLUSH[bits]
    return out


def py_evaluate7_batch(hands: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """:func:`evaluate7_batch` in NumPy (the reference)."""
    values: npt.NDArray[np.int32] = tables("standard").evaluate(hands).astype(np.int32)
    return values


def all_five_card_hands() -> npt.NDArray[np.uint8]:
    """All 2,598,960 five-card hands as a ``(2598960, 5)`` array, in combination order."""
    out = np.empty((2598960, 5), dtype=np.uint8)
    row = 0
    for a in range(48):
        for b in range(a + 1, 49):
            rest = np.array(list(combinations(range(b + 1, 52), 3)), dtype=np.uint8)
            if not len(rest):
                continue
            n = len(rest)
            out[row:row + n, 0] = a
            out[row:row + n, 1] = b
            out[row:row + n, 2:] = rest
            row += n
    return out
