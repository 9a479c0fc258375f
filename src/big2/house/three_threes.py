"""Three 3s (RULES.md §2): a lead of three 3s forces three 2s if that is the only play."""

from __future__ import annotations

from big2.cards import RANK_MASKS, TWO, Mask
from big2.i18n import Refusal
from big2.variant.hooks import DealState, HouseRule
from big2.variant.kinds import Kind


class ThreeThrees(HouseRule):
    """The ``three_threes`` option."""

    name = "three_threes"

    def _forced(self, game: DealState, plays: list[Mask]) -> bool:
        last = game.last_combo
        return (last is not None and len(plays) > 1 and plays[-1] == 0
                and last.kind == Kind.TRIPLE and last.cards & RANK_MASKS[0] == last.cards
                and game.history[game.trick_start].cards == last.cards
                and all(p & RANK_MASKS[TWO] == p for p in plays[:-1]))

    def filter_legal(self, game: DealState, plays: list[Mask]) -> None:
        """No pass when three 2s are the only play on the led three 3s."""
        if self._forced(game, plays):
            plays.pop()

    def reason(self, game: DealState, mask: Mask) -> str | None:
        """The refused pass."""
        if mask == 0 and game.last_combo is not None:
            return Refusal("threeThrees")
        return None
