"""A match: a series of deals with running totals and a moving dealer.

>>> from big2 import Match, Rules
>>> m = Match(Rules(match_deals=2), seed=5)
>>> g = m.new_game()
>>> g.dealer
0
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from big2.game import Game
from big2.rules import Rules


class Match:
    """Deals in sequence. Call :meth:`new_game`, play it out, then
    :meth:`record`; :meth:`is_over` says when the end condition is met
    (``rules.match_deals`` deals, or a penalty total reaching
    ``rules.penalty_target`` under penalty scoring)."""

    def __init__(self, rules: Rules | None = None, *, seed: int | None = None,
                 names: Sequence[str] | None = None, deals: int | None = None) -> None:
        self.rules = rules or Rules()
        self.deals = self.rules.match_deals if deals is None else deals
        if self.deals == 0 and self.rules.scoring != "penalty":
            raise ValueError("a match needs a number of deals unless scoring is 'penalty'")
        self.names = tuple(names) if names else None
        self._rng = random.Random(seed)
        self.totals: list[int] = [0] * self.rules.players
        self.results: list[tuple[int, ...]] = []
        self.games: list[Game] = []
        self.dealer = 0
        self.last_winner: int | None = None

    def new_game(self) -> Game:
        """Deal the next game (the dealer moves one seat each deal)."""
        if self.is_over():
            raise RuntimeError("the match is over")
        if self.games and not self.games[-1].is_over():
            raise RuntimeError("finish the current deal first")
        leader = None
        if self.rules.later_lead == "winner" and self.last_winner is not None:
            leader = self.last_winner
        game = Game(self.rules, seed=self._rng.getrandbits(64), dealer=self.dealer,
                    leader=leader, names=self.names)
        self.games.append(game)
        return game

    def record(self, game: Game | None = None) -> tuple[int, ...]:
        """Add a finished deal's scores to the totals and move the dealer."""
        game = game or self.games[-1]
        outcome = game.outcome()
        if outcome is None:
            raise RuntimeError("the deal is not over")
        self.results.append(outcome.scores)
        self.totals = [t + s for t, s in zip(self.totals, outcome.scores)]
        self.last_winner = outcome.winner
        step = -1 if self.rules.direction == "clockwise" else 1
        self.dealer = (self.dealer + step) % self.rules.players
        return outcome.scores

    def is_over(self) -> bool:
        """Whether the end condition is met."""
        if self.deals and len(self.results) >= self.deals:
            return True
        if self.rules.scoring == "penalty":
            return any(-t >= self.rules.penalty_target for t in self.totals)
        return False

    def standings(self) -> list[int]:
        """Seats from best total to worst."""
        return sorted(range(len(self.totals)), key=lambda s: -self.totals[s])
