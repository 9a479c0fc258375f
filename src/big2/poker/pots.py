"""Settling a pot at showdown: high and low halves, ties and odd chips.

:func:`split_pot` divides a pot of whole chips among given winners;
:func:`settle` finds the winners from the cards first, for any number of
players, in hold'em, short deck, Omaha, Omaha hi/lo, stud and stud hi/lo.

Odd chips follow the usual rules: in a hi/lo pot the high half takes the odd
chip, and a half that does not divide among its winners gives one extra chip
to each winner in turn, starting with the first seat to the left of the
button (*order*, by default seat 0, 1, 2 …).

>>> split_pot(101, high=[0], low=[1, 2])          # 51 high, 50 low split 25/25
[51, 25, 25]
>>> split_pot(100, high=[0, 2], players=3)
[50, 0, 50]
>>> split_pot(7, high=[1, 2], order=[2, 0, 1])    # seat 2 is first after the button
[0, 3, 4]
>>> s = settle(101, ["AS 2D KC KH", "AC 2H QS QH"], board="3S 4H 6C KD JD", game="omaha8")
>>> s.amounts, s.high, s.low                      # 51 for the kings, the low 6-4-3-2-A split
((76, 25), (0,), (0, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from big2.poker.cards import Hand, to_cards
from big2.poker.omaha import EIGHT_OR_BETTER, omaha_high, omaha_low
from big2.poker.ranking import HandRank, qualifies_eight_or_better, rank_hand, showdown
from big2.poker.rules import STANDARD, Rules

__all__ = ["GAMES_SETTLED", "Settlement", "settle", "split_pot"]

GAMES_SETTLED = ("holdem", "shortdeck", "omaha", "omaha8", "stud", "stud8")
"""Games :func:`settle` knows."""


def _share(amount: int, winners: Sequence[int], order: Sequence[int], out: list[int]) -> None:
    each, odd = divmod(amount, len(winners))
    for w in winners:
        out[w] += each
    for seat in [s for s in order if s in winners][:odd]:
        out[seat] += 1


def split_pot(pot: int, high: Sequence[int], low: Sequence[int] = (), *,
              players: int | None = None, order: Sequence[int] | None = None) -> list[int]:
    """Chips won by each seat: *high* and *low* are the winning seats of each half.

    Without *low* winners the high hand takes the whole pot.  *players*
    defaults to one more than the highest seat named; *order* is the seats
    from the button's left (default ``0, 1, …``).
    """
    if pot < 0:
        raise ValueError("a pot cannot be negative")
    if not high:
        raise ValueError("a pot needs at least one high winner")
    n = players if players is not None else max([*high, *low]) + 1
    if any(not 0 <= s < n for s in [*high, *low]):
        raise ValueError("a winner's seat is out of range")
    seats = list(order) if order is not None else list(range(n))
    if sorted(seats) != list(range(n)):
        raise ValueError("order must name every seat once")
    out = [0] * n
    if low:
        low_half = pot // 2
        _share(pot - low_half, high, seats, out)
        _share(low_half, low, seats, out)
    else:
        _share(pot, high, seats, out)
    return out


@dataclass(frozen=True)
class Settlement:
    """Who won what: chips per seat, the high and low winners, each seat's hands."""

    amounts: tuple[int, ...]
    high: tuple[int, ...]
    low: tuple[int, ...]
    high_hands: tuple[HandRank, ...]
    low_hands: tuple[HandRank | None, ...]


def _low7(cards: tuple[int, ...]) -> HandRank | None:
    if not qualifies_eight_or_better(cards):
        return None
    return rank_hand(cards, EIGHT_OR_BETTER.with_(eight_or_better=True))


def settle(pot: int, hands: Sequence[Hand], board: Hand = (), game: str = "holdem",
           order: Sequence[int] | None = None, rules: Rules | None = None) -> Settlement:
    """Rank every hand of *game* and split *pot* (see :func:`split_pot`).

    Hold'em and short deck take the best five of hole cards and board, Omaha
    exactly two and three, stud a player's own cards (*board* empty).
    *rules* overrides the high ranking of hold'em and stud (short deck uses
    ``Rules.stripped(36)``).
    """
    if game not in GAMES_SETTLED:
        raise ValueError(f"unknown game (use one of {', '.join(GAMES_SETTLED)})")
    if len(hands) < 1:
        raise ValueError("a showdown needs a hand")
    b = to_cards(board)
    if game.startswith("stud") and b:
        raise ValueError("stud has no board")
    high_rules = Rules.stripped(36) if game == "shortdeck" else rules or STANDARD
    highs: list[HandRank] = []
    lows: list[HandRank | None] = []
    seen: set[int] = set(b)
    for hand in hands:
        cards = to_cards(hand)
        if seen & set(cards) or len(set(cards)) != len(cards):
            raise ValueError("two hands (or a hand and the board) share a card")
        seen |= set(cards)
        if game.startswith("omaha"):
            highs.append(omaha_high(cards, b))
            lows.append(omaha_low(cards, b) if game == "omaha8" else None)
        else:
            highs.append(rank_hand((*cards, *b), high_rules))
            lows.append(_low7((*cards, *b)) if game == "stud8" else None)
    high = showdown(highs)
    qualified = [(i, x) for i, x in enumerate(lows) if x is not None]
    low: list[int] = []
    if qualified:
        top = max(x for _, x in qualified)
        low = [i for i, x in qualified if x == top]
    amounts = split_pot(pot, high, low, players=len(hands), order=order)
    return Settlement(tuple(amounts), tuple(high), tuple(low), tuple(highs), tuple(lows))
