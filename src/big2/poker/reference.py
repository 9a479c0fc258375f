"""A plain, obviously correct ranker for standard five-card high poker.

Slow and simple on purpose: the tests check the fast tables against it.  It
returns a tuple that compares like hands: the category number (0 high card …
8 straight flush) and then the ranks that decide ties.

>>> reference_key(["AS", "KS", "QS", "JS", "TS"])
(8, 12)
>>> reference_key(["5C", "4D", "3H", "2S", "AC"])
(4, 3)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["reference_key"]

_RANKS = "23456789TJQKA"


def reference_key(cards: Sequence[str]) -> tuple[int, ...]:
    """Ranking tuple of five cards written like ``"AS"`` (rank, then suit)."""
    assert len(cards) == 5 and len(set(cards)) == 5
    ranks = sorted((_RANKS.index(c[0].upper()) for c in cards), reverse=True)
    suits = {c[1].upper() for c in cards}
    flush = len(suits) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        straight_top = distinct[0]
    if distinct == [12, 3, 2, 1, 0]:
        straight_top = 3  # the wheel: 5-4-3-2-A, five high
    # groups: (count, rank), biggest group first, higher rank first among equals
    groups = sorted(((ranks.count(r), r) for r in distinct), reverse=True)
    counts = [g[0] for g in groups]
    by_group = tuple(g[1] for g in groups)
    if straight_top is not None and flush:
        return (8, straight_top)
    if counts == [4, 1]:
        return (7, *by_group)
    if counts == [3, 2]:
        return (6, *by_group)
    if flush:
        return (5, *ranks)
    if straight_top is not None:
        return (4, straight_top)
    if counts == [3, 1, 1]:
        return (3, *by_group)
    if counts == [2, 2, 1]:
        return (2, *by_group)
    if counts == [2, 1, 1, 1]:
        return (1, *by_group)
    return (0, *ranks)
