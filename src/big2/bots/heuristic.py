"""The ``heuristic`` bot: plans its hand, keeps control, watches counts.

It partitions its hand into plays (:func:`big2.bots.planning.plan`): the
fewest plays to go out, keeping 2s and unbeatable plays for control. Leading,
it plays the weakest part of the plan (multi-card plays first) and cashes sure
winners once only one other play is left; following, it beats the table with
a play from its plan, breaks the plan only when that costs little, and throws
its strongest play at a seat about to go out.

>>> from big2 import Game
>>> g = Game(seed=11)
>>> bot = HeuristicBot(seed=0)
>>> g.play(bot.choose(g.view(g.to_move)))
>>> len(g.history)
1
"""

from __future__ import annotations

from big2.bots.base import Bot, register_bot
from big2.bots.planning import heuristic_play
from big2.bots.wildplay import wild_play
from big2.cards import FULL_DECK, Mask
from big2.combos import engine
from big2.view import PlayerView


class HeuristicBot(Bot):
    """Hand planning by partition into combinations (see the module doc)."""

    name = "heuristic"

    def choose(self, view: PlayerView) -> Mask:
        """The planned play, always one of ``view.legal``."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.rules.extended_deck:  # jokers or two decks: the planner is for one deck
            return wild_play(view)
        unseen = FULL_DECK & ~int(view.hand) & ~int(view.played)
        choice = heuristic_play(engine(view.rules), view.seat, int(view.hand), legal,
                                int(view.last_play), view.card_counts, unseen)
        return choice if choice in legal else legal[0]


register_bot("heuristic", HeuristicBot)
