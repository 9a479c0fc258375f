"""The spare card swap (RULES.md §2, three players): with the left-over card face
up in the middle, the lowest card's holder may swap that card for it before play.
The swap is an action of its own (:meth:`big2.Game.swap_spare`), kept in the log
as a :class:`~big2.view.SpareSwap`."""

from __future__ import annotations

from big2.cards import Mask
from big2.log import Action
from big2.variant.hooks import DealState, HouseRule


def spare(game: DealState) -> Mask:
    """The face-up spare: the cards in no hand and not played (none unless set aside)."""
    v = game.variant
    if not v.deck.spare_aside:
        return 0
    held = 0
    for h in game.initial_hands:
        held |= h
    return v.deck.cards & ~held


class SpareSwap(HouseRule):
    """The ``spare_swap`` option."""

    name = "spare_swap"

    def can_swap(self, game: DealState, seat: int) -> bool:
        """Before play, by the holder of the lowest card, while a spare lies face up."""
        return (bool(spare(game)) and not any(type(r) is Action for r in game.log)
                and game.to_move is not None
                and bool(game.hands[seat] & game.variant.deck.lowest(game.initial_hands)))

    def swap(self, game: DealState, seat: int) -> Mask:
        """Swap; the lowest card then lies in the middle and the lowest card still dealt
        leads. Returns the card given up."""
        low = game.variant.deck.lowest(game.initial_hands)
        hands = list(game.initial_hands)
        hands[seat] = hands[seat] & ~low | spare(game)
        game.restart(hands)
        return low
