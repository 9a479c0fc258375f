"""The ``heuristic`` bot: plans its hand, keeps control, watches counts.

It partitions its hand into plays (:func:`big2.bots.rules_based.planning.plan`), with
every play kind the rule set allows: the fewest plays to go out, keeping 2s
and unbeatable plays for control. It goes out at once when its hand is one
legal play, or when the hand splits into plays nobody can beat and one last
play (:func:`big2.bots.rules_based.control.way_out`). Leading, it plays the weakest part
of the plan (multi-card plays first) and cashes sure winners once only one
other play is left; following, it beats the table with a play from its plan,
breaks the plan only when that costs little, and throws its strongest play at
a seat about to go out.

Where the rule set's engine is native the decision runs in the compiled core
(:mod:`big2.bots.rules_based.native`, the same play by construction); elsewhere in Python.

``heuristic-v1`` is the first version (ranks and five-card hands only, no run
to go out), kept by name for comparisons: ``HeuristicBot`` with the
:data:`~big2.bots.rules_based.planning.V1` style. Any :class:`~big2.bots.rules_based.planning.Style`
field is an option (``make_bot("heuristic", hold_two_above=8)``, or
``heuristic:hold_two_above=8`` as an arena seat).

>>> from big2 import Game
>>> g = Game(seed=11)
>>> bot = HeuristicBot(seed=0)
>>> g.play(bot.choose(g.view(g.to_move)))
>>> len(g.history)
1
>>> from big2.bots import make_bot
>>> make_bot("heuristic-v1").style == V1
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from big2.bots.base import Bot
from big2.bots.rules_based import native
from big2.bots.rules_based.planning import DEFAULT_STYLE, V1, Style, heuristic_play
from big2.bots.wildplay import wild_play
from big2.cards import Mask
from big2.combos import engine
from big2.variant import Engine
from big2.view import PlayerView, unseen_cards

if TYPE_CHECKING:
    from big2.game import Game


class HeuristicBot(Bot):
    """Hand planning by partition into combinations (see the module doc).

    Args:
        seed: the bot is deterministic; kept for the interface.
        style: the planner's switches and thresholds (default: today's bot;
            :data:`~big2.bots.rules_based.planning.V1` plays as ``heuristic-v1``).
        options: :class:`~big2.bots.rules_based.planning.Style` fields to change.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, style: Style | None = None,
                 **options: Any) -> None:
        super().__init__(seed=seed, **options)
        self.style = Style.from_options(style or DEFAULT_STYLE, options)

    def choose(self, view: PlayerView) -> Mask:
        """The planned play, always one of ``view.legal``."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.rules.extended_deck:  # jokers or two decks: the planner is for one deck
            return wild_play(view)
        choice = decide(engine(view.rules), view.seat, int(view.hand), legal,
                        int(view.last_play), view.card_counts, int(view.unseen), self.style)
        return choice if choice in legal else legal[0]

    def choose_in(self, game: Game, seat: int) -> Mask:
        """:meth:`choose` read off *game* without building the view (the same play):
        the vector environment's games against the heuristic."""
        legal = game.legal_masks()
        if len(legal) == 1:
            return legal[0]
        if game.rules.extended_deck:
            return self.choose(game.view(seat))
        hand = game.hands[seat]
        last = game.last_combo
        choice = decide(engine(game.rules), seat, hand, legal, last.cards if last else 0,
                        game.card_counts(),
                        unseen_cards(game.rules, hand, game.played(), int(game.spare)), self.style)
        return choice if choice in legal else legal[0]


def decide(eng: Engine, seat: int, hand: Mask, legal: Sequence[Mask], last: Mask,
           counts: Sequence[int], unseen: Mask, style: Style = DEFAULT_STYLE) -> Mask:
    """:func:`~big2.bots.rules_based.planning.heuristic_play`, in the compiled core where the
    rule set is native (the same play, :mod:`big2.bots.rules_based.native`), else in Python."""
    args = (eng, seat, hand, legal, last, counts, unseen, style)
    choice = native.heuristic_play(*args)
    return heuristic_play(*args) if choice is None else choice


def heuristic_v1(seed: int | None = None, **options: Any) -> HeuristicBot:
    bot = HeuristicBot(seed=seed, style=V1, **options)
    bot.name = "heuristic-v1"
    return bot


__all__ = ["HeuristicBot", "decide", "heuristic_v1"]
