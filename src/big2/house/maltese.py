"""The Maltese dragon (RULES.md §2): six pairs and a card win at once; with a pair
of 3s the holder loses at once. A four of a kind counts as two pairs and a triple
as a pair and a single."""

from __future__ import annotations

from big2.cards import DECK_SIZE, Mask, cards_of
from big2.house.instant import finish, seats_in_turn
from big2.variant.hooks import DealState, HouseRule, Termination


def pairs_in(hand: Mask) -> list[int]:
    """Pairs per rank in *hand* (a four is two pairs, a triple one)."""
    counts = [0] * 14
    for c in cards_of(hand):
        counts[(c % DECK_SIZE) >> 2] += 1
    return [x // 2 for x in counts[:13]]


def is_maltese(hand: Mask) -> bool:
    """Whether a 13-card *hand* is six pairs and a single card."""
    return hand.bit_count() == 13 and sum(pairs_in(hand)) == 6


class Maltese(HouseRule):
    """The ``maltese`` option."""

    name = "maltese"

    def start(self, game: DealState) -> None:
        """End the deal if a hand is a Maltese dragon (the leader's checked first)."""
        if game.to_move is None:
            return
        for seat in seats_in_turn(game):
            hand = game.hands[seat]
            if is_maltese(hand):
                loss = pairs_in(hand)[0] > 0  # a pair of 3s
                finish(game, seat, Termination.MALTESE_LOSS if loss else Termination.MALTESE)
                return
