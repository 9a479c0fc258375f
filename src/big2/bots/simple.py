"""The two simplest bots: ``random`` and ``greedy``."""

from __future__ import annotations

from big2.bots.base import Bot
from big2.cards import Mask
from big2.view import PlayerView


class RandomBot(Bot):
    """Uniform over the legal plays (the pass included when allowed)."""

    name = "random"

    def choose(self, view: PlayerView) -> Mask:
        """A uniformly random legal play."""
        return self.rng.choice(view.legal)


class GreedyBot(Bot):
    """Beats the table with its lowest legal play; leads its lowest card,
    preferring the play holding it that sheds the most cards."""

    name = "greedy"

    def choose(self, view: PlayerView) -> Mask:
        """The greedy play described above."""
        plays = [p for p in view.legal if p]
        if not plays:
            return 0
        if view.leading:
            low = min(view.hand, key=view.rules.strength)
            holding = [p for p in plays if p >> low & 1] or plays
            # legal plays come weakest first; prefer more cards, then weaker
            return max(holding, key=lambda p: (p.bit_count(), -holding.index(p)))
        return plays[0]


