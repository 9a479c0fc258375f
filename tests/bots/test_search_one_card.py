"""The one-card lead in the search (issue 45 item 5): ``next_on_one_card`` reads
the view as the game has it, and ``one_card_margin`` replaces the favourite's
margin on those leads only."""

from __future__ import annotations

import random
from collections.abc import Sequence

from big2 import Game, Rules
from big2.bots.search import AllLegal, Search, SearchBot, SuccessiveHalving
from big2.bots.search.bot import next_on_one_card
from big2.bots.search.candidates import heuristic_guide
from big2.bots.search.evaluators import Score
from big2.bots.search.worlds import World
from big2.cards import Mask
from big2.view import PlayerView


def test_next_on_one_card_agrees_with_the_game() -> None:
    rng, seen = random.Random(1), [0, 0]
    for _ in range(30):
        g = Game(Rules(scoring="count"), seed=rng.randrange(10**6))
        while g.to_move is not None:
            seat = g.to_move
            view = g.view(seat)
            want = False
            if g.leading and len(view.legal) > 1:
                probe = g.copy()
                probe.play(view.legal[0])  # whoever acts next after a lead
                want = probe.to_move is not None and probe.hands[probe.to_move].bit_count() == 1
            if len(view.legal) > 1:
                assert next_on_one_card(view) == want
                seen[want] += 1
            g.play(rng.choice(view.legal))
    assert all(seen)


class LikesAnyButTheGuide:
    """An evaluator worth 0.5 points for every play but the heuristic's."""

    def start(self, view: PlayerView, rng: random.Random) -> Score:
        guide = heuristic_guide(view)

        def score(worlds: Sequence[World], cands: Sequence[Mask]) -> list[list[float]]:
            return [[0.0 if c == guide else 0.5 for c in cands] for _ in worlds]

        return score


def test_the_one_card_margin_applies_to_those_leads_only() -> None:
    def bot(one_card_margin: float | None) -> SearchBot:
        return SearchBot(Search(AllLegal(), LikesAnyButTheGuide(), SuccessiveHalving(16),
                                margin=1.0, keep_favourite=True,
                                one_card_margin=one_card_margin), seed=1)

    on_one = Game(hands=["3D 4D 2S", "5C", "6C 7C", "8C 9C"], leader=0).view(0)
    on_two = Game(hands=["3D 4D 2S", "5C 6H", "6C 7C", "8C 9C"], leader=0).view(0)
    for view in (on_one, on_two):
        guide = heuristic_guide(view)
        assert bot(None).choose(view) == guide  # 0.5 points: within the margin
        assert (bot(0.0).choose(view) == guide) == (view is on_two)
