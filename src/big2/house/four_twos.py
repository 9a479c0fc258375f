"""A hand dealt all four 2s (RULES.md §2): a forced redeal, an instant win, or a draw."""

from __future__ import annotations

from big2.cards import RANK_MASKS, TWO, Mask
from big2.house.instant import finish, seats_in_turn
from big2.rules import FourTwos as FourTwosOption
from big2.variant.hooks import DealState, HouseRule, Termination


class FourTwos(HouseRule):
    """The ``four_twos`` option (``redeal``, ``win`` or ``draw``)."""

    name = "four_twos"

    def __init__(self, mode: FourTwosOption) -> None:
        self.mode = mode

    def redeal(self, hand: Mask) -> bool:
        """Under ``redeal``: four 2s force a new deal."""
        return self.mode == "redeal" and (hand & RANK_MASKS[TWO]).bit_count() >= 4

    def start(self, game: DealState) -> None:
        """Under ``win`` or ``draw``: four 2s end the deal at once."""
        if self.mode == "redeal" or game.to_move is None:
            return
        for seat in seats_in_turn(game):
            if (game.hands[seat] & RANK_MASKS[TWO]).bit_count() >= 4:
                finish(game, seat, Termination.FOUR_TWOS if self.mode == "win"
                       else Termination.DRAW)
                return
