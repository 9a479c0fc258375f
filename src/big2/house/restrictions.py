"""Ending restrictions (RULES.md §2): a player may not go out on a single 2, a pair
of 2s, any 2, or a play holding 2♠.

A leader whose every play is barred passes the lead on; if no seat can lead,
the restriction is waived until the next play (the game's ``waive`` flag).
"""

from __future__ import annotations

from big2.cards import RANK_MASKS, TWO, Mask
from big2.i18n import Refusal
from big2.rules import FinishRestriction
from big2.variant.compare import two_spades
from big2.variant.hooks import DealState, HouseRule


class FinishRestrictions(HouseRule):
    """The ``finish_restrictions`` option."""

    name = "finish_restrictions"

    def __init__(self, restrictions: tuple[FinishRestriction, ...]) -> None:
        self.restrictions = restrictions

    def barred(self, play: Mask) -> bool:
        """Whether going out with *play* is barred."""
        res = self.restrictions
        twos = play & RANK_MASKS[TWO]
        n = play.bit_count()
        return (("any-2" in res and twos != 0)
                or ("single-2" in res and n == 1 and twos != 0)
                or ("pair-2" in res and n == 2 and twos.bit_count() == 2)
                or ("2S" in res and two_spades(play)))

    def filter_legal(self, game: DealState, plays: list[Mask]) -> None:
        """Drop a play of the whole hand that is barred; a leader left with none passes."""
        if game.waive or game.to_move is None:
            return
        hand = game.hands[game.to_move]
        if hand in plays and self.barred(hand):
            plays.remove(hand)
            if not plays:
                plays.append(0)

    def reason(self, game: DealState, mask: Mask) -> str | None:
        """Going out on a barred play."""
        if (game.to_move is not None and mask == game.hands[game.to_move] and not game.waive
                and self.barred(mask)):
            return Refusal("barredOut", rules=", ".join(self.restrictions))
        return None
