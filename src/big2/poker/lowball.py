"""NumPy values of the lowball games the equity calculator deals: razz and badugi.

**Razz** is seven-card stud for the lowest hand: ace-to-five (aces low,
straights and flushes ignored), best five of seven, no qualifier, pairs
allowed when they must be.  :func:`razz_values` looks each seven-card hand up
in one table indexed by a sum of per-rank keys (:data:`~.lookup.RANK_KEYS7`
over the low ranks, ace first), built on first use from the 6,175 five-card
ace-to-five classes: :func:`best_low5` picks each multiset's best five
directly (checked against every subset, :func:`razz_by_subsets`, in the tests).

**Badugi**: four cards, aces low; a hand plays its largest subset of cards of
different ranks and different suits, more cards beat fewer, and between
hands of one size the lower wins from the top card down
(:func:`~big2.poker.badugi.rank_badugi`).  :func:`badugi_values` tries the 15
subsets of each row at once.

Values are ``int16``, **higher is better** (the best razz hand, 5-4-3-2-A,
is :data:`RAZZ_CLASSES`).

>>> from big2.poker.cards import parse_hand
>>> hands = np.array([parse_hand("AS 2D 3C 4H 5S KD KC"), parse_hand("AS AD 2C 2H 3S 3D 4C")])
>>> razz_values(hands).tolist()     # a wheel; A-A-2-3-4 (a pair of aces)
[6175, 4888]
>>> badugi_values(np.array([parse_hand("4S 3H 2D AC"), parse_hand("KS QH JD AS")])).tolist()
[32752, 21502]
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt

from big2.poker.lookup import RANK_KEYS7, combinations_array

__all__ = [
    "LOW_RANK", "RAZZ_CLASSES", "badugi_values", "best_low5", "low_key5", "razz_by_subsets",
    "razz_values",
]

LOW_RANK: npt.NDArray[np.int8] = np.array([((c >> 2) + 2) % 13 for c in range(52)], dtype=np.int8)
"""Per-card ace-to-five rank: ace 0, deuce 1 … king 12."""
RAZZ_CLASSES = 6175
"""Distinct ace-to-five five-card hands (the value of 5-4-3-2-A)."""

_RAZZ_KEY = np.array([RANK_KEYS7[r] for r in LOW_RANK], dtype=np.int32)
_SUIT_BIT = np.array([1 << (c & 3) for c in range(52)], dtype=np.int8)
_RANK_BIT = np.array([1 << int(r) for r in LOW_RANK], dtype=np.int16)
_POPCOUNT = np.array([m.bit_count() for m in range(1 << 13)], dtype=np.int8)


def low_key5(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Badness of five ace-to-five ranks (ace 0 … king 12): smaller is the better low.

    The pattern of counts first (no pair, one pair, two pair, trips, full
    house, quads), then the ranks by count and height, as high poker orders
    them with the ace lowest.

    >>> low_key5((4, 3, 2, 1, 0)) < low_key5((5, 3, 2, 1, 0)) < low_key5((0, 0, 1, 2, 3))
    True
    """
    counts = {r: ranks.count(r) for r in set(ranks)}
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    return (*sorted(counts.values(), reverse=True), 0, *order)


def best_low5(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """The best five ace-to-five ranks of five to seven (at most four alike), lowest first.

    Five different ranks if there are: the five lowest.  Otherwise every rank
    plays and the fewest, lowest duplicates fill in: with four ranks the
    lowest that pairs; with three, the two lowest that pair (two pair beats
    trips); with two (four and three alike), trips of the lower.

    >>> best_low5((0, 0, 1, 1, 2, 2, 12)), best_low5((5, 5, 5, 5, 9, 9, 9))
    ((0, 0, 1, 2, 12), (5, 5, 5, 9, 9))
    """
    distinct = sorted(set(ranks))
    if len(distinct) >= 5:
        return tuple(distinct[:5])
    pairable = [r for r in distinct if ranks.count(r) >= 2]
    if len(distinct) == 4:
        extra = pairable[:1]
    elif len(distinct) == 3:
        extra = pairable[:2]
    else:
        extra = [distinct[0], distinct[0], distinct[1]]
    return tuple(sorted(distinct + extra))


@cache
def _razz_table() -> npt.NDArray[np.int16]:
    fives = sorted({low_key5(c) for c in combinations_with_replacement(range(13), 5)
                    if max(c.count(r) for r in c) <= 4})
    assert len(fives) == RAZZ_CLASSES
    value5 = {k: RAZZ_CLASSES - i for i, k in enumerate(fives)}
    table = np.zeros(4 * RANK_KEYS7[12] + 3 * RANK_KEYS7[11] + 1, dtype=np.int16)
    for seven in combinations_with_replacement(range(13), 7):
        if max(seven.count(r) for r in set(seven)) > 4:
            continue
        table[sum(RANK_KEYS7[r] for r in seven)] = value5[low_key5(best_low5(seven))]
    table.flags.writeable = False
    return table


def razz_by_subsets(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`low_key5` of the best five of *ranks* by trying every subset (a reference)."""
    return min(low_key5(five) for five in combinations(ranks, 5))


def razz_values(hands: npt.NDArray[np.integer]) -> npt.NDArray[np.int16]:
    """Razz value (1–6,175, higher is the better low) of each row of an ``(n, 7)`` array.

    The table (7.8 M ``int16``, 15.6 MB) is built on first use (about 0.5 s).
    """
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] != 7:
        raise ValueError(f"expected an (n, 7) array of cards, got shape {h.shape}")
    key = _RAZZ_KEY[h[:, 0]].copy()
    for i in range(1, 7):
        key += _RAZZ_KEY[h[:, i]]
    out: npt.NDArray[np.int16] = _razz_table()[key]
    return out


def badugi_values(hands: npt.NDArray[np.integer]) -> npt.NDArray[np.int16]:
    """Badugi value of each row of an ``(n, 4)`` array (higher is better).

    ``(size - 1) << 13 | (8191 - rank bits)``: more cards first, then the
    lower set of ranks (comparing the rank bit masks compares from the top
    card down).
    """
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] != 4:
        raise ValueError(f"expected an (n, 4) array of cards, got shape {h.shape}")
    rb = _RANK_BIT[h]
    sb = _SUIT_BIT[h]
    best = np.zeros(len(h), dtype=np.int16)
    for size in range(1, 5):
        for cols in combinations_array(4, size):
            ranks = np.bitwise_or.reduce(rb[:, cols], axis=1)
            suits = np.bitwise_or.reduce(sb[:, cols], axis=1)
            ok = (_POPCOUNT[ranks] == size) & (_POPCOUNT[suits] == size)
            v = np.where(ok, ((size - 1) << 13) | (8191 - ranks), 0).astype(np.int16)
            np.maximum(best, v, out=best)
    return best
