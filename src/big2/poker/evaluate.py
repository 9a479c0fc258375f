"""Fast standard high-poker evaluation: a few table lookups per hand, plain ints.

The value of a hand is an ``int`` from 1 to 7,462 (see :mod:`.tables`),
**higher is better**, equal hands equal.

Five cards: the sum of per-rank keys (:data:`~.tables.BATCH_RANK_KEYS`, whose
five-card sums are all distinct) indexes one list.  Only hands of five
distinct ranks can be flushes; their entries are stored negated, and for
those alone the suits are compared and, if all alike, a second list indexed
by the rank bits gives the flush value.

Seven cards (:func:`evaluate7`): the per-card keys of :data:`CARD_KEYS7` add up
to the same suit fields and a rank key (:data:`~.lookup.RANK_KEYS7`) that
indexes one list of 7.8 M entries, built on first use (about 0.6 s); a flush
takes that suit's rank bits into a second list.

Six, eight or nine cards: each card maps to one int holding its rank in base 5
(bits 24 and up) and 7 in its suit's 6-bit field; a field reaches 32 (bit 5)
exactly when its suit holds five or more cards.  Without a flush the value is
one dict lookup on the rank part; with one, the flush suit's rank bits give
the best flush.

:func:`evaluate5`, :func:`evaluate6`, :func:`evaluate7` and :func:`evaluate` are
the compiled core's (:mod:`big2.poker.native`: a perfect hash of the same rank
keys, tables in the L2 cache) when it is built, else the plain Python functions
``py_evaluate5`` … ``py_evaluate`` below, which stay as the reference; both give
the same values.  The core refuses a card outside 0–51 or a repeated card
(``ValueError``); the Python functions trust their input: distinct card numbers
0–51, no jokers.  For anything else (wild cards, low poker, fewer than five
cards) use :func:`big2.poker.rank_hand` with :class:`big2.poker.Rules`.

>>> from big2.poker.cards import parse_hand
>>> evaluate(parse_hand("AS KS QS JS TS"))
7462
>>> evaluate(parse_hand("7C 5D 4H 3S 2C"))
1
>>> evaluate(parse_hand("KH KS KD QC QS 2D 3C")) == evaluate(parse_hand("KH KS KD QC QS"))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement

from big2.poker.lookup import RANK_KEYS7
from big2.poker.native import CORE
from big2.poker.tables import BATCH_RANK_KEYS, VALUE_OF, Category, straight_top

__all__ = [
    "CARD_KEYS",
    "CARD_KEYS7",
    "FIVE_TABLE",
    "FLUSH_BEST",
    "RANK_BITS",
    "RANK_KEYS5",
    "best_nonflush",
    "evaluate",
    "evaluate5",
    "evaluate6",
    "evaluate7",
    "py_evaluate",
    "py_evaluate5",
    "py_evaluate6",
    "py_evaluate7",
]

_FLUSH = 0x820820
_SUIT_OF_FLUSH_BIT = {0x20: 0, 0x800: 1, 0x20000: 2, 0x800000: 3}


def _poker_rank(card: int) -> int:
    r = (card >> 2) + 1
    return 0 if r == 13 else r


CARD_KEYS: tuple[int, ...] = tuple(
    (5 ** _poker_rank(c) << 24) + (7 << 6 * (c & 3)) for c in range(52)
)
"""Per-card key for six or more cards: ``5**rank << 24`` plus 7 in the suit's field."""
RANK_KEYS5: tuple[int, ...] = tuple(BATCH_RANK_KEYS[_poker_rank(c)] for c in range(52))
"""Per-card key for five cards: the rank's :data:`~.tables.BATCH_RANK_KEYS` entry."""
RANK_BITS: tuple[int, ...] = tuple(1 << _poker_rank(c) for c in range(52))
"""Per-card poker-rank bit (bit 0 deuce … bit 12 ace)."""


def best_nonflush(counts: Sequence[int]) -> int:
    """Value of the best five cards ignoring suits, from 13 per-rank counts (≥ 5 cards)."""
    present = [r for r in range(12, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] >= 4]
    if quads:
        q = quads[0]
        return VALUE_OF[Category.FOUR_OF_A_KIND, (q, next(r for r in present if r != q))]
    trips = [r for r in present if counts[r] == 3]
    if trips:
        t = trips[0]
        pair = next((r for r in present if r != t and counts[r] >= 2), -1)
        if pair >= 0:
            return VALUE_OF[Category.FULL_HOUSE, (t, pair)]
    top = straight_top(sum(1 << r for r in present))
    if top >= 0:
        return VALUE_OF[Category.STRAIGHT, (top,)]
    if trips:
        t = trips[0]
        return VALUE_OF[Category.THREE_OF_A_KIND, (t, *[r for r in present if r != t][:2])]
    pairs = [r for r in present if counts[r] == 2]
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        kicker = next(r for r in present if r not in (hi, lo))
        return VALUE_OF[Category.TWO_PAIR, (hi, lo, kicker)]
    if pairs:
        p = pairs[0]
        return VALUE_OF[Category.PAIR, (p, *[r for r in present if r != p][:3])]
    return VALUE_OF[Category.HIGH_CARD, tuple(present[:5])]


def _best_flush(bits: int) -> int:
    top = straight_top(bits)
    if top >= 0:
        return VALUE_OF[Category.STRAIGHT_FLUSH, (top,)]
    ranks = [r for r in range(12, -1, -1) if bits >> r & 1][:5]
    return VALUE_OF[Category.FLUSH, tuple(ranks)]


FLUSH_BEST: list[int] = [
    _best_flush(b) if b.bit_count() >= 5 else 0 for b in range(1 << 13)
]
"""Best flush or straight flush value within each 13-bit rank set of five or more."""


def _nonflush_table(n: int) -> dict[int, int]:
    table: dict[int, int] = {}
    for combo in combinations_with_replacement(range(13), n):
        counts = [0] * 13
        for r in combo:
            counts[r] += 1
        if max(counts) <= 4:
            table[sum(5 ** r for r in combo)] = best_nonflush(counts)
    return table


_NONFLUSH: dict[int, dict[int, int]] = {}


def _nonflush(n: int) -> dict[int, int]:
    table = _NONFLUSH.get(n)
    if table is None:
        table = _NONFLUSH[n] = _nonflush_table(n)
    return table


def _five_table() -> list[int]:
    table = [0] * (4 * BATCH_RANK_KEYS[12] + BATCH_RANK_KEYS[11] + 1)
    for combo in combinations_with_replacement(range(13), 5):
        counts = [0] * 13
        for r in combo:
            counts[r] += 1
        if max(counts) <= 4:
            value = best_nonflush(counts)
            table[sum(BATCH_RANK_KEYS[r] for r in combo)] = value if max(counts) > 1 else -value
    return table


FIVE_TABLE: list[int] = _five_table()
"""Five-card value by rank-key sum, negated where all five ranks differ."""


def py_evaluate5(
    a: int, b: int, c: int, d: int, e: int,
    _k: tuple[int, ...] = RANK_KEYS5, _t: list[int] = FIVE_TABLE,
    _rb: tuple[int, ...] = RANK_BITS, _fb: list[int] = FLUSH_BEST,
) -> int:
    """Value of five cards (1–7,462, higher is better).

    >>> py_evaluate5(47, 43, 39, 35, 31)   # AS KS QS JS TS
    7462
    """
    v = _t[_k[a] + _k[b] + _k[c] + _k[d] + _k[e]]
    if v > 0:
        return v
    if (a ^ b | a ^ c | a ^ d | a ^ e) & 3:
        return -v
    return _fb[_rb[a] | _rb[b] | _rb[c] | _rb[d] | _rb[e]]


def _flush_value(cards: Sequence[int], k: int) -> int:
    """Best value of a hand of six or more cards that holds a flush."""
    suit = _SUIT_OF_FLUSH_BIT[k & _FLUSH]
    bits = 0
    for card in cards:
        if card & 3 == suit:
            bits |= RANK_BITS[card]
    return max(FLUSH_BEST[bits], _nonflush(len(cards))[k >> 24])


CARD_KEYS7: tuple[int, ...] = tuple(
    (RANK_KEYS7[_poker_rank(c)] << 24) + (7 << 6 * (c & 3)) for c in range(52)
)
"""Per-card key for seven cards: the :data:`~.lookup.RANK_KEYS7` rank key from bit 24,
7 in the suit's 6-bit field (which reaches 32 exactly at five of a suit)."""
_NF7L: list[int] = []
"""The seven-card non-flush table (:func:`~.lookup.tables`) as a list, filled on first use;
equal values share one int object, so lookups touch few distinct objects."""


def _fill_nf7() -> None:
    from big2.poker.lookup import tables

    if not _NF7L:
        canonical = list(range(7463))
        _NF7L.extend(map(canonical.__getitem__, tables("standard").nonflush.tolist()))


_SUIT_BITS7: dict[int, tuple[int, ...]] = {
    32 << 6 * suit: tuple(RANK_BITS[c] if c & 3 == suit else 0 for c in range(52))
    for suit in range(4)
}
"""By flush bit of :data:`CARD_KEYS7` sums: each card's rank bit if it has that suit, else 0."""


def _flush7(cards: Sequence[int], k: int) -> int:
    """Best value of seven cards holding a flush (no full house or quads fits beside one)."""
    t = _SUIT_BITS7[k & _FLUSH]
    bits = 0
    for card in cards:
        bits |= t[card]
    return FLUSH_BEST[bits]


def py_evaluate7(
    a: int, b: int, c: int, d: int, e: int, f: int, g: int,
    _k: tuple[int, ...] = CARD_KEYS7, _nf: list[int] = _NF7L,
    _sb: dict[int, tuple[int, ...]] = _SUIT_BITS7, _fb: list[int] = FLUSH_BEST,
) -> int:
    """Value of the best five of seven cards (1–7,462, higher is better).

    One sum of per-card keys gives the suit counts and a rank key; without a
    flush the value is one list lookup (the list, 7.8 M entries, ≈ 63 MB, is
    built on first use in ≈ 0.6 s).

    >>> py_evaluate7(47, 43, 39, 35, 31, 0, 1)   # AS KS QS JS TS 3D 3C
    7462
    """
    k = _k[a] + _k[b] + _k[c] + _k[d] + _k[e] + _k[f] + _k[g]
    if k & 0x820820:
        t = _sb[k & 0x820820]
        return _fb[t[a] | t[b] | t[c] | t[d] | t[e] | t[f] | t[g]]
    try:
        return _nf[k >> 24]
    except IndexError:
        _fill_nf7()
        return _nf[k >> 24]


def py_evaluate6(a: int, b: int, c: int, d: int, e: int, f: int) -> int:
    """Value of the best five of six cards."""
    return _evaluate_n((a, b, c, d, e, f))


def _evaluate_n(cards: Sequence[int]) -> int:
    k = 0
    for card in cards:
        k += CARD_KEYS[card]
    if k & _FLUSH:
        return _flush_value(cards, k)
    return _nonflush(len(cards))[k >> 24]


def py_evaluate(
    cards: Sequence[int],
    _k5: tuple[int, ...] = RANK_KEYS5, _t: list[int] = FIVE_TABLE,
    _rb: tuple[int, ...] = RANK_BITS, _fb: list[int] = FLUSH_BEST,
    _k7: tuple[int, ...] = CARD_KEYS7, _nf: list[int] = _NF7L,
) -> int:
    """Value of the best five of 5–9 distinct cards (1–7,462, higher is better).

    The five- and seven-card cases are inlined copies of :func:`py_evaluate5`
    and :func:`py_evaluate7`, saving a call.

    >>> py_evaluate([47, 43, 39, 35, 31])
    7462
    >>> py_evaluate([1, 2])
    Traceback (most recent call last):
    ...
    ValueError: the fast evaluator takes 5 to 9 cards, got 2 (see big2.poker.rank_hand)
    """
    n = len(cards)
    try:
        if n == 5:
            a, b, c, d, e = cards
            v = _t[_k5[a] + _k5[b] + _k5[c] + _k5[d] + _k5[e]]
            if v > 0:
                return v
            if (a ^ b | a ^ c | a ^ d | a ^ e) & 3:
                return -v
            return _fb[_rb[a] | _rb[b] | _rb[c] | _rb[d] | _rb[e]]
        if n == 7:
            a, b, c, d, e, f, g = cards
            k = _k7[a] + _k7[b] + _k7[c] + _k7[d] + _k7[e] + _k7[f] + _k7[g]
            if k & 0x820820:
                return _flush7(cards, k)
            if not _nf:
                _fill_nf7()
            return _nf[k >> 24]
        if 5 < n <= 9:
            return _evaluate_n(cards)
    except IndexError:
        raise ValueError(
            "the fast evaluator takes card numbers 0-51 (jokers: see big2.poker.rank_hand)"
        ) from None
    raise ValueError(
        f"the fast evaluator takes 5 to 9 cards, got {n} (see big2.poker.rank_hand)"
    )


evaluate5: Callable[[int, int, int, int, int], int] = (
    py_evaluate5 if CORE is None else CORE.evaluate5)
"""Value of five distinct cards (1–7,462, higher is better): the core's, else
:func:`py_evaluate5`."""
evaluate6: Callable[[int, int, int, int, int, int], int] = (
    py_evaluate6 if CORE is None else CORE.evaluate6)
"""Value of the best five of six distinct cards: the core's, else :func:`py_evaluate6`."""
evaluate7: Callable[[int, int, int, int, int, int, int], int] = (
    py_evaluate7 if CORE is None else CORE.evaluate7)
"""Value of the best five of seven distinct cards: the core's, else :func:`py_evaluate7`."""
evaluate: Callable[[Sequence[int]], int] = py_evaluate if CORE is None else CORE.evaluate
"""Value of the best five of 5–9 distinct cards: the core's, else :func:`py_evaluate`.

>>> evaluate([47, 43, 39, 35, 31])
7462
>>> evaluate([1, 2])
Traceback (most recent call last):
...
ValueError: the fast evaluator takes 5 to 9 cards, got 2 (see big2.poker.rank_hand)
"""
