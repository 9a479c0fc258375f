"""The last-card call (RULES.md §2): a player left with one card must announce it;
one who goes out without having announced pays the others instead.

The call is an action of its own (:meth:`big2.Game.call_last_card`), kept in
the game's log as a :class:`~big2.log.LastCardCall` record.
"""

from __future__ import annotations

from big2.cards import Mask
from big2.log import LastCardCall
from big2.rules import Scoring
from big2.variant.hooks import DealState, HouseRule, Outcome, Termination


def announced(game: DealState) -> tuple[bool, ...]:
    """Per seat, whether it has announced its last card."""
    called = {r.seat for r in game.log if type(r) is LastCardCall}
    return tuple(s in called for s in range(game.num_players))


class LastCard(HouseRule):
    """The ``last_card`` option."""

    name = "last_card"

    def __init__(self, scoring: Scoring) -> None:
        self.scoring = scoring

    def can_call(self, game: DealState, seat: int) -> bool:
        """Whether *seat* may announce now: it holds one card and has not announced."""
        return (game.to_move is not None and game.hands[seat].bit_count() == 1
                and not announced(game)[seat])

    def adjust(self, game: DealState, outcome: Outcome, last_play: Mask) -> Outcome:
        """A winner who went out on a single without announcing pays each loser its figure."""
        winner = outcome.winner
        out_play = next(a.cards for a in reversed(game.history) if a.seat == winner and a.cards)
        if out_play.bit_count() != 1 or announced(game)[winner]:
            return outcome
        n = game.num_players
        scores = outcome.scores
        if self.scoring == "ranking":
            order = [s for s in game.variant.scorer.finishing_order(game.finished, game.hands)
                     if s != winner] + [winner]
            scores = tuple(n - 1 - order.index(s) for s in range(n))
        elif self.scoring == "penalty":
            scores = tuple(sum(scores) if s == winner else 0 for s in range(n))
        else:
            scores = tuple(-x for x in scores)
        return outcome._replace(scores=scores, termination=Termination.LAST_CARD)
