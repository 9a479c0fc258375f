"""``SearchBot.decide``: the play ``choose`` makes, with the tally and the
policy's probabilities it came from; the same play for every option (issue 54)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import replace

from big2 import Game
from big2.bots.search import (
    AllLegal,
    ExactLeaves,
    Flat,
    HeuristicCandidates,
    HeuristicPlayout,
    Sampling,
    Search,
    SearchBot,
    SuccessiveHalving,
)
from big2.bots.search.bot import next_on_one_card
from big2.bots.search.configs import expert_v1, guided_search
from big2.view import PlayerView


def test_decide_plays_what_choose_plays_and_shows_its_search() -> None:
    searched = 0
    for make in (lambda: guided_search(seed=4, budget=8), lambda: expert_v1(seed=4, budget=8)):
        g = Game(seed=11)
        chooser, decider = make(), make()  # same seed: same worlds, so the same plays
        while not g.is_over():
            assert g.to_move is not None
            view = g.view(g.to_move)
            play = chooser.choose(view)
            got, tally, p = decider.decide(view)
            assert got == play
            if len(view.legal) == 1:
                assert tally is None
            else:
                assert tally is not None and got in tally.cands
                assert all(m in view.legal for m in tally.cands)
                assert math.isclose(sum(tally.shares), 1.0)
                searched += 1
                if p is not None:
                    assert len(p) == len(view.legal) and math.isclose(sum(p), 1.0, rel_tol=1e-5)
            g.play(play)
    assert searched > 10


def _views(count: int, seed: int) -> list[PlayerView]:
    """Views of the seat to move with a choice, from deals of random play: a
    third of them leads while the next seat holds one card (where
    ``one_card_margin`` applies), the rest taken at random."""
    rng = random.Random(seed)
    one_card: list[PlayerView] = []
    others: list[PlayerView] = []
    while len(one_card) < count // 3 or len(others) < count - count // 3:
        g = Game(seed=rng.randrange(1 << 30))
        while not g.is_over():
            assert g.to_move is not None
            view = g.view(g.to_move)
            if len(view.legal) > 1:
                if next_on_one_card(view):
                    one_card.append(view)
                elif rng.random() < 0.05:
                    others.append(view)
            g.play(rng.choice(g.legal_masks()))
    return one_card[:count // 3] + others[:count - count // 3]


def _searches() -> list[Search]:
    """A search for every option of :class:`Search` (and each kind of part)."""
    base = Search(HeuristicCandidates(4), HeuristicPlayout(), SuccessiveHalving(12))
    return [
        base,
        replace(base, margin=1.5),
        replace(base, one_card_margin=0.0, margin=3.0),
        replace(base, one_card_margin=6.0),
        replace(base, keep_favourite=True, margin=0.5, one_card_margin=2.0),
        replace(base, candidates=AllLegal(5), selector=Flat(4), sampling=Sampling(0.0, 0.0, False)),
        replace(base, evaluator=ExactLeaves(HeuristicPlayout(), cards=10, nodes=300)),
    ]


def test_decide_and_choose_make_the_same_play_for_every_option() -> None:
    """Over random views, every :class:`Search` option (``one_card_margin``
    included) and the policy-guided configuration with ``sure`` and ``belief``:
    the same seed gives ``choose`` and ``decide`` the same play."""
    views = _views(30, seed=3)
    assert sum(next_on_one_card(v) for v in views) == 10  # the one-card margin is exercised
    makers: list[Callable[[], SearchBot]] = [
        (lambda s=s: SearchBot(s, seed=9)) for s in _searches()]  # type: ignore[misc]
    makers.append(lambda: guided_search(seed=9, budget=8, one_card_margin=0.0, margin=2.0))
    makers.append(lambda: guided_search(seed=9, budget=8, sure=0.6, belief=0.5, pool=8))
    for make in makers:
        chooser, decider = make(), make()
        for view in views:
            assert decider.decide(view)[0] == chooser.choose(view)
