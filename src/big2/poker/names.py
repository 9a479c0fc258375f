"""Hand names as players say them.

>>> from big2.poker.ranking import rank_hand
>>> rank_hand("AS AD 8C 8H 3S").name
'Two pair, Aces up'
>>> rank_hand("5H 4D 3C 2S AH").name
'Straight, wheel'
>>> rank_hand("8S 6D 5C 4H 2S", Rules(low="a5")).name
'8-low'
"""

from __future__ import annotations

from typing import Protocol

from big2.poker.cards import RANK_NAMES, RANK_PLURALS
from big2.poker.rules import Rules
from big2.poker.tables import Category

__all__ = ["Named", "Rules", "hand_name", "low_label"]


class Named(Protocol):
    """What naming a hand reads: a :class:`~big2.poker.ranking.HandRank` (which
    imports this module, so the type is described here rather than imported)."""

    @property
    def category(self) -> Category:
        """The hand's category."""

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks that decide it, most important first."""

    @property
    def rules(self) -> Rules:
        """The rules it was ranked under."""

_LOW_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace")


def low_label(rank: int) -> str:
    """How a low hand's top card is said: ``'8'``, ``'10'``, ``'King'``."""
    return _LOW_LABELS[rank]


def hand_name(h: Named) -> str:
    """The name of a ranked hand: ``'Full house, Kings full of Queens'``."""
    cat, r, rules = h.category, h.ranks, h.rules
    P, N = RANK_PLURALS, RANK_NAMES
    if cat == Category.FIVE_OF_A_KIND:
        return f"Five of a kind, {P[r[0]]}"
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = r[0]
        ace_low = rules.low is None and top == rules.lowest + 3
        if cat == Category.STRAIGHT_FLUSH:
            if top == 12 and not rules.ace_low:
                return "Royal flush"
            if ace_low and rules.lowest == 0:
                return "Straight flush, Five-high (steel wheel)"
            return f"Straight flush, {N[top]}-high"
        if top == 12 and not rules.ace_low:
            return "Straight, Broadway"
        if ace_low and rules.lowest == 0:
            return "Straight, wheel"
        return f"Straight, {N[top]}-high"
    if cat == Category.FOUR_OF_A_KIND:
        return f"Four of a kind, {P[r[0]]}"
    if cat == Category.FULL_HOUSE:
        return f"Full house, {P[r[0]]} full of {P[r[1]]}"
    if cat == Category.FLUSH:
        return f"Flush, {N[r[0]]}-high"
    if cat == Category.THREE_OF_A_KIND:
        return f"Three of a kind, {P[r[0]]}"
    if cat == Category.TWO_PAIR:
        if r[0] == 12 and not rules.ace_low:
            return "Two pair, Aces up"
        return f"Two pair, {P[r[0]]} and {P[r[1]]}"
    if cat == Category.PAIR:
        return f"Pair of {P[r[0]]}"
    if rules.low:
        return f"{low_label(r[0])}-low"
    return f"{N[r[0]]}-high"
