"""``SearchBot.decide`` (issue 45): the play ``choose`` makes, with the tally
and the policy's probabilities it came from (expert iteration learns from them)."""

from __future__ import annotations

import math

from big2 import Game
from big2.bots.search.configs import expert_v1, guided_search


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
