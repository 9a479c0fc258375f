"""Penalty for assistance (RULES.md §2): a player whose single let the next player go
out on a single, when that player held a single the winning card could not beat,
pays for all the losers."""

from __future__ import annotations

from big2.cards import Mask, cards_of
from big2.rules import Scoring
from big2.variant.hooks import DealState, HouseRule, Outcome, Termination


class AssistPenalty(HouseRule):
    """The ``assist_penalty`` option."""

    name = "assist_penalty"

    def __init__(self, scoring: Scoring) -> None:
        self.scoring = scoring

    def adjust(self, game: DealState, outcome: Outcome, last_play: Mask) -> Outcome:
        """Move every loser's payment onto the assisting player."""
        if outcome.termination != Termination.NORMAL or self.scoring == "ranking":
            return outcome
        winner, scores = outcome.winner, outcome.scores
        history = game.history
        if last_play.bit_count() != 1 or len(history) < 2 or history[-1].cards != last_play:
            return outcome
        before = history[-2]
        if before.cards.bit_count() != 1 or before.seat == winner:
            return outcome
        strength = game.variant.engine.strength
        top = strength[last_play.bit_length() - 1]
        if not any(strength[c] > top for c in cards_of(game.hands[before.seat])):
            return outcome
        owed = sum(x for s, x in enumerate(scores) if s != winner)
        scores = tuple(scores[winner] if s == winner else owed if s == before.seat else 0
                       for s in range(game.num_players))
        return outcome._replace(scores=scores, termination=Termination.ASSIST)
