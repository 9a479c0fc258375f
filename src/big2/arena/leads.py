"""The one-card lead: how a player leads while the next seat holds one card.

With the seat after the leader down to one card, a single that is not the
leader's highest lets that seat go out whenever its card is higher; the safe
leads are the highest single or any play of more cards. :class:`LeadCount`
watches a deal as the arena plays it and counts, per player:

- ``leads``: the leads made while the next seat to act holds one card;
- ``low``: of those, singles other than the leader's highest card;
- ``low_out``: of those low singles, how often that seat went out on its
  next action (it played its one card);
- ``other_out``: the same for every other such lead (highest singles, plays
  of more cards: the opponent may still go out later on a lead of its own).

Rule sets with jokers or two decks are not counted (a card's strength there
depends on how it is played).

>>> from big2 import Game
>>> from big2.cards import parse_cards
>>> g = Game(hands=["3D 4D 9S", "5C", "6C 7C 8C", "8D 9C 10C"], leader=0)
>>> count = LeadCount(4)
>>> count.before(g, player=0); g.play(int(parse_cards("3D")))  # not seat 0's highest
>>> count.after(g)
>>> count.before(g, player=1); g.play(int(parse_cards("5C")))  # seat 1 beats it: out
>>> count.after(g)
>>> count.counts[0]
(1, 1, 1, 0)
"""

from __future__ import annotations

from big2.cards import Mask, cards_of
from big2.combos import engine
from big2.game import Game

Counts = tuple[int, int, int, int]
"""``(leads, low, low_out, other_out)`` for one player (see the module docstring)."""


def low_single(game: Game, play: Mask) -> bool:
    """Whether *play*, by the seat to move in *game*, is one card other than
    that seat's highest."""
    if play.bit_count() != 1:
        return False
    seat = game.to_move
    assert seat is not None
    strength = engine(game.rules).strength
    top = max(cards_of(game.hands[seat]), key=strength.__getitem__)
    return play != 1 << top


class LeadCount:
    """Counts one-card leads over the actions of deals (see the module docstring).

    Call :meth:`before` with the player about to act (before its play is
    made) and :meth:`after` once it is made; :attr:`counts` holds each
    player's :data:`Counts`. Players are the arena's, so a count follows a
    player through the seat rotations; start each deal with :meth:`new_deal`.
    """

    def __init__(self, players: int) -> None:
        self.counts: list[Counts] = [(0, 0, 0, 0)] * players
        self._lead: tuple[int, int] | None = None  # (player, seat) of a lead being made
        self._watch: dict[int, tuple[int, bool]] = {}  # one-card seat -> (leader, low)

    def new_deal(self) -> None:
        """Forget the deal before (a lead's reply is looked for in its own deal)."""
        self._lead, self._watch = None, {}

    def before(self, game: Game, player: int) -> None:
        """*player* is about to act in *game*."""
        seat = game.to_move
        ok = seat is not None and game.leading and not game.rules.extended_deck
        self._lead = (player, seat) if ok and seat is not None else None

    def after(self, game: Game) -> None:
        """The action is made: count the lead, and a watched seat's reply."""
        action = game.history[-1]
        watched = self._watch.pop(action.seat, None)
        if watched is not None and action.cards:  # it played its one card: it went out
            leader, low = watched
            leads, lows, low_out, other_out = self.counts[leader]
            self.counts[leader] = (leads, lows, low_out + int(low), other_out + int(not low))
        if self._lead is None:
            return
        player, seat = self._lead
        self._lead = None
        nxt = game.to_move
        if nxt is None or nxt == seat or game.hands[nxt].bit_count() != 1:
            return
        hand = game.hands[seat] | action.cards  # the leader's hand before the lead
        low = action.cards.bit_count() == 1 and action.cards != 1 << max(
            cards_of(hand), key=engine(game.rules).strength.__getitem__)
        leads, lows, low_out, other_out = self.counts[player]
        self.counts[player] = (leads + 1, lows + int(low), low_out, other_out)
        self._watch[nxt] = (player, low)


def describe(counts: Counts) -> str:
    """One line for a player's :data:`Counts`.

    >>> describe((10, 4, 3, 1))[:60]
    '10 leads with the next seat on one card: 4 low singles (40%)'
    """
    leads, low, low_out, other_out = counts
    share = f" ({low / leads:.0%})" if leads else ""
    return (f"{leads} leads with the next seat on one card: {low} low singles{share}, "
            f"out after {low_out} of them; out after {other_out} of the other {leads - low}")


__all__ = ["Counts", "LeadCount", "describe", "low_single"]
