"""Badugi: four cards, aces low, the most cards of different ranks *and* suits wins.

A hand plays its largest subset with no two cards of a rank or a suit (a
four-card badugi beats every three-card hand, and so on down); between
hands of the same size the lower one wins, compared from the highest card
down, aces lowest.  Straights and flushes mean nothing.

>>> rank_badugi("4S 3H 2D AC").name
'4-card badugi, 4-3-2-A'
>>> rank_badugi("KS QH JD AS").name       # two spades: the king is the one to drop
'3-card hand, Q-J-A'
>>> compare_badugi("8S 5H 3D 2C", "KS 4H 3D AD")     # any four-card badugi beats three cards
1
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from big2.poker.cards import Hand, format_hand, is_joker, poker_rank, to_cards

__all__ = ["BadugiRank", "compare_badugi", "rank_badugi"]

_CHARS = "A23456789TJQK"


def _low(card: int) -> int:
    """Badugi strength: ace 0, deuce 1 … king 12."""
    return (poker_rank(card) + 1) % 13


@dataclass(frozen=True, order=False)
class BadugiRank:
    """A ranked badugi hand: ``key`` compares (higher is better)."""

    cards: tuple[int, ...]
    """The cards that play, highest first."""
    key: tuple[int, ...]

    @property
    def size(self) -> int:
        """How many cards play (4 is a badugi)."""
        return len(self.cards)

    @property
    def name(self) -> str:
        """``'4-card badugi, 8-5-3-A'`` or ``'3-card hand, 9-7-2'``."""
        ranks = "-".join(_CHARS[_low(c)] for c in self.cards)
        kind = "badugi" if self.size == 4 else "hand"
        return f"{self.size}-card {kind}, {ranks}"

    def text(self) -> str:
        """The cards that play, as text."""
        return format_hand(self.cards)

    def __lt__(self, other: BadugiRank) -> bool:
        return self.key < other.key

    def __str__(self) -> str:
        return f"{self.name} ({self.text()})"


def rank_badugi(hand: Hand) -> BadugiRank:
    """Rank a badugi hand of one to four cards (no jokers)."""
    cards = to_cards(hand)
    if not 1 <= len(cards) <= 4:
        raise ValueError(f"a badugi hand has 1 to 4 cards, got {len(cards)}")
    if any(is_joker(c) for c in cards):
        raise ValueError("badugi is played without jokers")
    if len(set(cards)) != len(cards):
        raise ValueError("a card given twice")
    best: BadugiRank | None = None
    for size in range(len(cards), 0, -1):
        for sub in combinations(cards, size):
            if len({_low(c) for c in sub}) < size or len({c & 3 for c in sub}) < size:
                continue
            ordered = tuple(sorted(sub, key=lambda c: (_low(c), c & 3), reverse=True))
            cand = BadugiRank(ordered, (size, *(-_low(c) for c in ordered)))
            if best is None or cand.key > best.key:
                best = cand
        if best is not None:
            return best
    raise AssertionError("unreachable: one card is always a hand")  # pragma: no cover


def compare_badugi(a: Hand | BadugiRank, b: Hand | BadugiRank) -> int:
    """1 if *a* wins, -1 if *b* wins, 0 for a tie (suits never break ties)."""
    x = a if isinstance(a, BadugiRank) else rank_badugi(a)
    y = b if isinstance(b, BadugiRank) else rank_badugi(b)
    return (x.key > y.key) - (x.key < y.key)
