"""Plain brute-force pieces the poker equity tests share: the eight-or-better
low by enumeration (:func:`low8`) and a showdown's split of the pot
(:func:`pot_shares`)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

from big2.poker.cards import poker_rank


def low8(cards: Sequence[int]) -> tuple[int, ...] | None:
    """Best eight-or-better low (higher is better) or None, by plain enumeration."""
    best = None
    for five in combinations(cards, 5):
        low = sorted(((poker_rank(c) + 1) % 13 for c in five), reverse=True)
        if len(set(low)) == 5 and low[0] <= 7:
            key = tuple(-r for r in low)
            best = key if best is None or key > best else best
    return best


def pot_shares(highs: Sequence[object], lows: Sequence[object] | None = None
               ) -> tuple[list[Fraction], list[Fraction]]:
    """Each hand's share of the pot at a showdown of these keys (higher wins,
    ties split), and its share of the low half: where *lows* has a qualifying
    (not ``None``) low, the best low takes half the pot and the best high the
    other half; else the high takes it all and the low shares are 0."""
    best = max(highs)  # type: ignore[type-var]
    pot = [Fraction(int(h == best), highs.count(best)) for h in highs]
    low_half = [Fraction(0)] * len(highs)
    if lows is not None and any(x is not None for x in lows):
        top = max(x for x in lows if x is not None)  # type: ignore[type-var]
        low_half = [Fraction(int(x == top), lows.count(top)) for x in lows]
        pot = [(a + b) / 2 for a, b in zip(pot, low_half)]
    return pot, low_half
