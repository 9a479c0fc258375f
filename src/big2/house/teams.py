"""Teams (RULES.md §2, four players): partners sit opposite; when someone goes out the
team with fewer cards left wins by the difference; a tie goes to a five-card shoot-out.
The deal ends at the first out whatever the scoring (see :class:`big2.variant.scorer.Scorer`)."""

from __future__ import annotations

from big2.cards import Mask
from big2.variant.hooks import DealState, HouseRule, Outcome, Termination


class Teams(HouseRule):
    """The ``teams`` option."""

    name = "teams"

    def adjust(self, game: DealState, outcome: Outcome, last_play: Mask) -> Outcome:
        """Score by team: seats 0 and 2 against 1 and 3."""
        left = [h.bit_count() for h in game.hands]
        diff = (left[1] + left[3]) - (left[0] + left[2])  # > 0: seats 0 and 2 win
        return outcome._replace(scores=(diff, -diff, diff, -diff),
                                termination=Termination.SHOOTOUT if diff == 0
                                else outcome.termination)

    @staticmethod
    def shootout_hands(game: DealState) -> list[Mask]:
        """Five fresh cards each from the game's random stream, for the shoot-out."""
        keys = [game.rng.random() for _ in range(52)]
        deck = sorted(range(52), key=keys.__getitem__)
        return [sum(1 << c for c in deck[5 * s: 5 * s + 5]) for s in range(4)]
