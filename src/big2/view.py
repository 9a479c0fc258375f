"""What one seat may know: the :class:`PlayerView` (and, from :mod:`big2.log`, the
records of a deal's log: :class:`Action` and the house rules' records).

A view is filled by :meth:`big2.Game.view` for one seat. It holds that seat's
own hand, every seat's card count, the table and the public history, and
nothing else: bots, renderers and servers are given views, never the game, so
hidden cards cannot leak by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from big2.cards import CardSet, Mask
from big2.log import Action, LastCardCall, Record, SpareSwap, ThrowIn
from big2.variant import variant

if TYPE_CHECKING:
    from big2.rules import Rules


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything *seat* may know at one moment of a deal.

    Attributes:
        rules: the rule set in force.
        seat: whose view this is.
        hand: that seat's own cards.
        card_counts: cards left in each seat's hand.
        to_move: the seat to act, or ``None`` once the deal is over.
        leading: whether ``to_move`` leads a new trick (any play, no pass).
        last_play: the play to beat (empty when leading).
        last_player: who made ``last_play`` (``None`` when leading).
        trick: the actions of the current trick, in order.
        history: every action of the deal so far, in order.
        passed: per seat, whether it is locked out of the current trick
            (only under the lock-out passing rule; otherwise all False).
        played: every card played so far in this deal.
        names: seat names.
        winner: the seat that went out first, or ``None`` while playing.
        scores: the deal's scores once it is over, else ``None``.
        totals: running match totals before this deal (zeros outside a match).
        finished: seats in the order they went out (ranking scoring plays on).
        legal: when this seat is to move, every legal play as a mask (``0`` is
            the pass), in order of strength; otherwise empty.
        must_contain: the card the next play must contain (first play only;
            under ``opening="alone"`` the play must be that card alone), shown
            to the seat that holds it; other seats see only :attr:`opening`.
        opening: whether the next play is the deal's first, which must contain
            the lowest card dealt (or be it alone, under ``opening="alone"``).
        announced: per seat, whether it has announced its last card (the
            ``last_card`` rule; all False otherwise).
        can_announce: whether this seat may announce its last card now (it
            holds one card, has not announced, and the rule is on).
        stock_size: cards left in the Go-Fish stock (``go_fish`` rule).
        spare: the spare card lying face up in the middle (``spare_to="aside"``).
    """

    rules: Rules
    seat: int
    hand: CardSet
    card_counts: tuple[int, ...]
    to_move: int | None
    leading: bool
    last_play: CardSet
    last_player: int | None
    trick: tuple[Action, ...]
    history: tuple[Action, ...]
    passed: tuple[bool, ...]
    played: CardSet
    names: tuple[str, ...]
    winner: int | None = None
    scores: tuple[int, ...] | None = None
    totals: tuple[int, ...] = field(default=())
    finished: tuple[int, ...] = field(default=())
    legal: tuple[int, ...] = field(default=())
    must_contain: CardSet = field(default=CardSet(0))
    opening: bool = False
    announced: tuple[bool, ...] = field(default=())
    can_announce: bool = False
    stock_size: int = 0
    spare: CardSet = field(default=CardSet(0))

    @property
    def unseen(self) -> CardSet:
        """The cards this seat has not seen: the rule set's deck (both decks,
        jokers) less its own hand, every card played and the face-up spare
        (:func:`unseen_cards`). They are the other seats' hands together, and
        the Go-Fish stock or cards left undealt where there are any. Every bot
        that reasons about hidden cards starts from this set."""
        return CardSet(unseen_cards(self.rules, int(self.hand), int(self.played),
                                    int(self.spare)))

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.card_counts)

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self.to_move is None

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to act."""
        return self.to_move == self.seat


def unseen_cards(rules: Rules, hand: Mask, played: Mask, spare: Mask = 0) -> Mask:
    """The cards of *rules*' deck outside *hand*, *played* and the face-up *spare*:
    :attr:`PlayerView.unseen` from its parts, for code that reads a game
    without building a view (the same set by construction).

    >>> from big2.rules import Rules
    >>> unseen_cards(Rules(), hand=0b111, played=0b1000).bit_count()
    48
    """
    return variant(rules).deck.cards & ~hand & ~played & ~spare


__all__ = ["Action", "LastCardCall", "PlayerView", "Record", "SpareSwap", "ThrowIn", "unseen_cards"]
