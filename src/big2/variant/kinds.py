"""Kinds of play and the classified play (:class:`Combo`), with the straight orders.

A :class:`Combo` is what a set of cards is as a play: its kind, its cards and
its *power*, an ``int`` that orders plays within their group of comparable
plays (see :mod:`big2.variant.keys` for how powers are laid out).

>>> Kind.FULL_HOUSE.label
'full house'
>>> [seq for seq, _ in STRAIGHT_SEQUENCES["indonesia"]][-2:]
['TJQKA', 'JQKA2']
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from big2.cards import CARD_SYMBOLS, RANKS, Mask, ordered


class Kind(IntEnum):
    """Kinds of play. Five-card kinds are listed weakest first (default order)."""

    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    TWO_PAIRS = 4  # four-card
    FOUR_OF_A_KIND = 5  # four-card, alone
    FIVE_TWO_PAIRS = 6  # two pairs + odd card ("butterfly" or "sisters")
    FIVE_TRIPS = 7  # three of a kind + two odd cards
    STRAIGHT = 8
    FLUSH = 9
    FULL_HOUSE = 10
    FOUR_KICKER = 11  # four of a kind + one card
    STRAIGHT_FLUSH = 12
    PAIR_RUN = 13  # three or more consecutive pairs (smack-down only)
    DRAGON = 14  # 3 up to 2, thirteen cards
    FIVE_OF_A_KIND = 15  # two decks or wild jokers

    @property
    def label(self) -> str:
        """How players name the kind."""
        return _KIND_LABELS[self]


_KIND_LABELS = {
    Kind.SINGLE: "single", Kind.PAIR: "pair", Kind.TRIPLE: "triple",
    Kind.TWO_PAIRS: "two pairs", Kind.FOUR_OF_A_KIND: "four of a kind",
    Kind.FIVE_TWO_PAIRS: "two pairs and a card", Kind.FIVE_TRIPS: "three of a kind and two cards",
    Kind.STRAIGHT: "straight", Kind.FLUSH: "flush", Kind.FULL_HOUSE: "full house",
    Kind.FOUR_KICKER: "four of a kind and a card", Kind.STRAIGHT_FLUSH: "straight flush",
    Kind.PAIR_RUN: "run of pairs", Kind.DRAGON: "dragon", Kind.FIVE_OF_A_KIND: "five of a kind",
}

FOURS = frozenset({Kind.FOUR_OF_A_KIND, Kind.FOUR_KICKER, Kind.FIVE_OF_A_KIND})
"""Kinds that hold four (or five) cards of one rank."""

_WINDOWS = [RANKS[i : i + 5] for i in range(8)]  # 34567 … TJQKA
STRAIGHT_SEQUENCES: dict[str, tuple[tuple[str, str], ...]] = {
    "hk": (*((w, w[-1]) for w in _WINDOWS), ("23456", "2"), ("A2345", "2")),
    "malaysia": (*((w, w[-1]) for w in _WINDOWS), ("A2345", "2"), ("23456", "2")),
    "indonesia": (*((w, w[-1]) for w in _WINDOWS), ("JQKA2", "2")),
    "pagat": (("A2345", "5"), ("23456", "6"), *((w, w[-1]) for w in _WINDOWS)),
    "ace-low": (("23456", "6"), *((w, w[-1]) for w in _WINDOWS), ("A2345", "A")),
    "ace-top": (("23456", "6"), *((w, w[-1]) for w in _WINDOWS[:7]), ("A2345", "A"),
                ("TJQKA", "A")),
    "vietnam": tuple((w, w[-1]) for w in _WINDOWS),
}
"""Each straight order's five-card sequences, lowest first, with the rank whose
suit decides ties (RULES.md §1 and §2)."""

TOP_RUN_RANK = 11
"""Long and short straights and runs of pairs use ranks 3..A (the A is rank 11)."""


class Combo(NamedTuple):
    """A classified play: its kind, cards and power (comparable within its group)."""

    kind: Kind
    cards: Mask
    power: int

    @property
    def size(self) -> int:
        """Number of cards."""
        return self.cards.bit_count()

    def __str__(self) -> str:
        return f"{self.kind.label} " + " ".join(CARD_SYMBOLS[c] for c in ordered(self.cards))
