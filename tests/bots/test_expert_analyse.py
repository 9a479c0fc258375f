"""``bot.analyse(view)`` on the expert search (issue 27, item 1): the
candidates with their values, sharing the search with ``choose``."""

from __future__ import annotations

import math

import pytest

from big2 import Game, Rules
from big2.bots import make_bot
from big2.bots.search.configs import expert_v1 as ExpertBot
from big2.cards import parse_cards


def test_analyse_rows_are_the_search_choose_makes() -> None:
    for seed in (3, 8, 21):
        g = Game(seed=seed)
        while len(g.legal_masks()) < 3:  # a decision with a few plays to weigh
            assert g.to_move is not None
            g.play(make_bot("heuristic").choose(g.view(g.to_move)))
        assert g.to_move is not None
        view = g.view(g.to_move)
        rows = ExpertBot(seed=1, budget=120).analyse(view)
        assert len(rows) >= 2 and all(m in view.legal for m, _, _ in rows)
        assert len({m for m, _, _ in rows}) == len(rows)
        assert math.isclose(sum(share for _, share, _ in rows), 1.0)
        assert rows[0][0] == ExpertBot(seed=1, budget=120).choose(view)
        assert all(-200 < v < 200 for _, _, v in rows)


def test_included_plays_are_searched_on_every_sample_the_best_is() -> None:
    g = Game(Rules(), hands=["3D 4C 5H 6S 7D 9C 9S KH 2S", "8D", "8C", "8H"], leader=0)
    view = g.view(0)
    bot = ExpertBot(seed=2, budget=200, candidates=2)
    plain = {m for m, _, _ in bot.analyse(view)}
    weak = int(parse_cards("3D"))
    assert weak not in plain
    rows = ExpertBot(seed=2, budget=200, candidates=2).analyse(view, include=(weak, 12345))
    shares = {m: s for m, s, _ in rows}
    assert weak in shares and 12345 not in shares  # an illegal play is left out
    assert shares[weak] == shares[rows[0][0]]  # never dropped: the same samples


def test_analyse_refuses_rules_it_cannot_sample() -> None:
    g = Game(Rules(jokers="wild"), seed=1)
    assert g.to_move is not None
    with pytest.raises(ValueError, match="52-card deck"):
        ExpertBot(seed=1, budget=10).analyse(g.view(g.to_move))
    g = Game(seed=1)
    assert g.to_move is not None
    with pytest.raises(ValueError, match="not to move"):
        ExpertBot(seed=1, budget=10).analyse(g.view((g.to_move + 1) % 4))
