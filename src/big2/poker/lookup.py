"""NumPy lookup tables for seven-card evaluation: one index per hand, no subsets.

Each card maps to one ``int64`` (:data:`CARD_KEY64`): the low 32 bits hold a
per-rank key from :data:`RANK_KEYS7`, whose sums over any seven ranks (at
most four alike) are all distinct, and bits 32 and up hold a 3-bit count per
suit.  Summing the seven card keys gives both at once: the rank part indexes
the non-flush table (7,825,760 ``int16`` entries, 49,205 of them used), the
suit part a 4,096-entry table naming the suit with five or more cards.  Only
for those hands (about 3 %) are that suit's rank bits gathered, and a
8,192-entry table gives the best flush or straight flush.  Seven cards never
hold a flush together with a full house or four of a kind, so the flush value
simply replaces the other.

Two schemes share the layout: ``"standard"`` (values 1–7,462 as in
:mod:`big2.poker.evaluate`) and ``"shortdeck"`` (36 cards, six to ace: the ace
also plays below the six in A-6-7-8-9, and a flush beats a full house, as
:meth:`~big2.poker.rules.Rules.stripped` ranks them).  Short-deck values are
ordered like the :func:`~big2.poker.ranking.rank_hand` keys of those rules,
but are not the standard numbers.

>>> import numpy as np
>>> t = tables("standard")
>>> int(t.evaluate(np.array([[47, 43, 39, 35, 31, 0, 1]]))[0])   # AS KS QS JS TS 3D 3C
7462
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from big2.poker.tables import VALUE_OF, Category

__all__ = [
    "CARD_KEY64",
    "LOW_BITS",
    "RANK_BIT16",
    "RANK_KEYS7",
    "SCHEMES",
    "Tables",
    "best_low7",
    "combinations_array",
    "tables",
]

RANK_KEYS7: tuple[int, ...] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)
"""Per-rank keys (deuce first) whose sums over any 5, 6 or 7 ranks, at most
four alike, are distinct for each count (checked when the tables are built)."""
SCHEMES = ("standard", "shortdeck")
"""The rankings :func:`tables` builds."""

_RANK_MASK = (1 << 32) - 1


def _poker_rank(card: int) -> int:
    r = (card >> 2) + 1
    return 0 if r == 13 else r


CARD_KEY64: npt.NDArray[np.int64] = np.array(
    [RANK_KEYS7[_poker_rank(c)] + (1 << (32 + 3 * (c & 3))) for c in range(52)],
    dtype=np.int64,
)
"""Per-card key: rank key in the low 32 bits, one count in the suit's 3-bit field."""
RANK_BIT16: npt.NDArray[np.int16] = np.array(
    [1 << _poker_rank(c) for c in range(52)], dtype=np.int16)
"""Per-card poker-rank bit (bit 0 deuce … bit 12 ace)."""
LOW_BITS: npt.NDArray[np.int16] = np.array(
    [1 << ((_poker_rank(c) + 1) % 13) if (_poker_rank(c) + 1) % 13 < 8 else 1 << 8
     for c in range(52)], dtype=np.int16)
"""Per-card low bit for eight-or-better: bit 0 ace … bit 7 eight, bit 8 for 9–K."""

_FLUSH_SUIT = np.full(1 << 12, -1, dtype=np.int8)
for _f in range(1 << 12):
    for _s in range(4):
        if (_f >> 3 * _s) & 7 >= 5:
            _FLUSH_SUIT[_f] = _s


def _top(bits: int, lowest: int) -> int:
    """Top rank of the best straight in *bits*, or -1 (the ace also plays below *lowest*)."""
    for top in range(12, lowest + 3, -1):
        window = 0x1F << (top - 4)
        if bits & window == window:
            return top
    low = (1 << 12) | (0xF << lowest)
    return lowest + 3 if bits & low == low else -1


def _best_class(counts: list[int], lowest: int) -> tuple[Category, tuple[int, ...]]:
    """Best five-card class (ignoring suits) of a rank multiset."""
    present = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] >= 4]
    if quads:
        return Category.FOUR_OF_A_KIND, (quads[0], next(r for r in present if r != quads[0]))
    trips = [r for r in present if counts[r] == 3]
    if trips:
        pair = next((r for r in present if r != trips[0] and counts[r] >= 2), -1)
        if pair >= 0:
            return Category.FULL_HOUSE, (trips[0], pair)
    top = _top(sum(1 << r for r in present), lowest)
    if top >= 0:
        return Category.STRAIGHT, (top,)
    if trips:
        return Category.THREE_OF_A_KIND, (trips[0], *[r for r in present if r != trips[0]][:2])
    pairs = [r for r in present if counts[r] == 2]
    if len(pairs) >= 2:
        kicker = next(r for r in present if r not in pairs[:2])
        return Category.TWO_PAIR, (pairs[0], pairs[1], kicker)
    if pairs:
        return Category.PAIR, (pairs[0], *[r for r in present if r != pairs[0]][:3])
    return Category.HIGH_CARD, tuple(present[:5])


def _flush_class(bits: int, lowest: int) -> tuple[Category, tuple[int, ...]]:
    top = _top(bits, lowest)
    if top >= 0:
        return Category.STRAIGHT_FLUSH, (top,)
    return Category.FLUSH, tuple(r for r in range(12, -1, -1) if bits >> r & 1)[:5]


_SHORT_ORDER = (
    Category.HIGH_CARD, Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND,
    Category.STRAIGHT, Category.FULL_HOUSE, Category.FLUSH, Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
)


def _short_values() -> dict[tuple[Category, tuple[int, ...]], int]:
    """Short-deck values: categories reordered (flush over full house); A-6-7-8-9 a straight."""
    classes = sorted(VALUE_OF, key=lambda c: (_SHORT_ORDER.index(c[0]), VALUE_OF[c]))
    return {c: v for v, c in enumerate(classes, 1)}


@dataclass(frozen=True)
class Tables:
    """The lookup tables of one ranking scheme (see the module docstring)."""

    scheme: str
    nonflush: npt.NDArray[np.int16]
    flush: npt.NDArray[np.int16]
    lowest: int

    def evaluate(self, hands: npt.ArrayLike) -> npt.NDArray[np.int16]:
        """Values of the best five of each row of an ``(n, 7)`` array of cards."""
        h = np.asarray(hands)
        if h.ndim != 2 or h.shape[1] != 7:
            raise ValueError(f"expected an (n, 7) array of cards, got shape {h.shape}")
        return self.values((h,))

    @staticmethod
    def keys(parts: Sequence[npt.NDArray[np.integer]]) -> npt.NDArray[np.int64]:
        """Summed :data:`CARD_KEY64` keys of the cards in *parts* (``(n, k)`` or ``(1, k)``)."""
        key = np.zeros(1, dtype=np.int64)
        for part in parts:
            for i in range(part.shape[1]):
                key = key + CARD_KEY64[part[:, i]]
        return key

    def values(self, parts: Sequence[npt.NDArray[np.integer]],
               key: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int16]:
        """Values of seven cards given as column blocks: *parts* are ``(n, k)`` or
        ``(1, k)`` arrays (broadcast) whose widths add up to 7, e.g. a board and a hand.
        *key*, if given, is their :meth:`keys` (a board's may be shared by several hands).
        """
        if sum(p.shape[1] for p in parts) != 7:
            raise ValueError("seven cards are needed")
        if key is None:
            key = self.keys(parts)
        out: npt.NDArray[np.int16] = self.nonflush[key & _RANK_MASK]
        suit = _FLUSH_SUIT[key >> 32]
        rows = np.flatnonzero(suit >= 0)
        if rows.size:
            n = len(key)
            fh = np.concatenate(
                [np.broadcast_to(p, (n, p.shape[1]))[rows] for p in parts], axis=1)
            fs = suit[rows][:, None]
            bits = np.where((fh & 3) == fs, RANK_BIT16[fh], 0).astype(np.int16)
            out[rows] = self.flush[np.bitwise_or.reduce(bits, axis=1)]
        return out


@cache
def tables(scheme: str = "standard") -> Tables:
    """The tables of *scheme* (``"standard"`` or ``"shortdeck"``), built on first use (~0.5 s)."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown scheme {scheme!r} (use one of {SCHEMES})")
    lowest = 4 if scheme == "shortdeck" else 0
    value_of = _short_values() if lowest else VALUE_OF
    size = 4 * RANK_KEYS7[12] + 3 * RANK_KEYS7[11] + 1
    nonflush = np.zeros(size, dtype=np.int16)
    used = 0
    for combo in combinations_with_replacement(range(lowest, 13), 7):
        counts = [0] * 13
        for r in combo:
            counts[r] += 1
        if max(counts) > 4:
            continue
        key = sum(RANK_KEYS7[r] for r in combo)
        if nonflush[key]:
            raise AssertionError("RANK_KEYS7 sums collide")  # pragma: no cover
        nonflush[key] = value_of[_best_class(counts, lowest)]
        used += 1
    flush = np.zeros(1 << 13, dtype=np.int16)
    for bits in range(1 << 13):
        if bits.bit_count() >= 5 and not bits & ((1 << lowest) - 1):
            flush[bits] = value_of[_flush_class(bits, lowest)]
    return Tables(scheme, nonflush, flush, lowest)


_LOW7 = np.zeros(1 << 9, dtype=np.int16)
for _m in range(1 << 8):
    if _m.bit_count() >= 5:
        _five, _rest = 0, _m
        for _ in range(5):
            _five |= _rest & -_rest
            _rest &= _rest - 1
        _LOW7[_m] = _LOW7[_m | 256] = 256 - _five


def best_low7(lowbits: npt.NDArray[np.integer]) -> npt.NDArray[np.int16]:
    """Best eight-or-better low from OR-ed :data:`LOW_BITS` of any number of cards.

    The value is ``256 -`` the bit mask of the five lowest distinct low ranks
    (higher is better: 5-4-3-2-A is 225), or 0 where no low qualifies.

    >>> int(best_low7(np.array([0b11111]))[0]), int(best_low7(np.array([0b1111]))[0])
    (225, 0)
    """
    out: npt.NDArray[np.int16] = _LOW7[lowbits]
    return out


@cache
def _combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    if k == 1:
        return np.arange(n, dtype=np.uint8)[:, None]
    parts = []
    for first in range(n - k + 1):
        rest = _combinations(n - first - 1, k - 1) + np.uint8(first + 1)
        block = np.empty((len(rest), k), dtype=np.uint8)
        block[:, 0] = first
        block[:, 1:] = rest
        parts.append(block)
    out = np.concatenate(parts)
    out.flags.writeable = False
    return out


def combinations_array(n: int, k: int) -> npt.NDArray[np.uint8]:
    """All *k*-subsets of ``range(n)`` as rows, in :func:`itertools.combinations` order.

    Cached and read-only (C(48, 5) = 1,712,304 rows take 8.6 MB).

    >>> combinations_array(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    if not 0 <= k <= n <= 255:
        raise ValueError(f"no {k}-subsets of {n} items")
    return _combinations(n, k)
