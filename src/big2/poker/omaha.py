"""Omaha best hands: exactly two hole cards and exactly three board cards.

:func:`omaha_high` picks the best high hand, :func:`omaha_low` the best
eight-or-better ace-to-five low (or ``None``), each a
:class:`~big2.poker.ranking.HandRank` with its name and the five cards that
play.  Hole hands of four to six cards (Omaha, five- and six-card Omaha),
boards of three to five cards.

>>> omaha_high("AS KS 2D 7C", "QS JS 3S 9H 4D").name    # needs both spades from the hand
'Flush, Ace-high'
>>> omaha_high("AS TD 7C 8H", "KS QS JS 2S 4D").name    # one spade in hand is no flush
'Straight, Broadway'
>>> omaha_low("AS 2D KC KH", "3S 5H 8C QD JD").name
'8-low'
>>> omaha_low("AS 2D KC KH", "3S 9H TC QD JD") is None
True
"""

from __future__ import annotations

from itertools import combinations

from big2.poker.cards import Hand, to_cards
from big2.poker.ranking import HandRank, qualifies_eight_or_better, rank_hand
from big2.poker.rules import STANDARD, Rules

__all__ = ["EIGHT_OR_BETTER", "omaha_high", "omaha_low"]

EIGHT_OR_BETTER = Rules(low="a5")
"""The low half's ranking: ace-to-five (qualifying is checked separately)."""


def _split(hole: Hand, board: Hand) -> tuple[tuple[int, ...], tuple[int, ...]]:
    h, b = to_cards(hole), to_cards(board)
    if not 4 <= len(h) <= 6:
        raise ValueError(f"an Omaha hand has 4 to 6 hole cards, got {len(h)}")
    if not 3 <= len(b) <= 5:
        raise ValueError(f"an Omaha board has 3 to 5 cards, got {len(b)}")
    if len(set(h) | set(b)) != len(h) + len(b):
        raise ValueError("the hand and the board share a card")
    return h, b


def omaha_high(hole: Hand, board: Hand, rules: Rules = STANDARD) -> HandRank:
    """The best high hand of two of *hole* and three of *board*."""
    h, b = _split(hole, board)
    return max(rank_hand((*p, *t), rules) for p in combinations(h, 2) for t in combinations(b, 3))


def omaha_low(hole: Hand, board: Hand) -> HandRank | None:
    """The best eight-or-better low of two of *hole* and three of *board*, or ``None``."""
    h, b = _split(hole, board)
    lows = [rank_hand(five, EIGHT_OR_BETTER)
            for p in combinations(h, 2) for t in combinations(b, 3)
            if qualifies_eight_or_better(five := (*p, *t))]
    return max(lows) if lows else None
