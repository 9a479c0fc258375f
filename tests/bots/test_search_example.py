"""The docs' example search bot (examples/search_bot.py, issue 44): built from
the public parts alone, it plays legal plays, repeats for a seed, and its
custom evaluator is what the selector reads."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

from big2 import Game, Rules

PATH = Path(__file__).resolve().parents[2] / "examples" / "search_bot.py"
spec = importlib.util.spec_from_file_location("search_bot_example", PATH)
assert spec and spec.loader
example = importlib.util.module_from_spec(spec)
sys.modules["search_bot_example"] = example
spec.loader.exec_module(example)


def test_the_example_bot_plays_legal_plays_and_repeats_for_a_seed() -> None:
    for preset in ("classic", "selfplay-2018"):
        g = Game(Rules.preset(preset), seed=3)
        a, b = example.my_search_bot(seed=1, budget=30), example.my_search_bot(seed=1, budget=30)
        while g.to_move is not None:
            view = g.view(g.to_move)
            choice = a.choose(view)
            assert choice in view.legal and b.choose(view) == choice
            g.play(choice)


def test_the_bonus_evaluator_adds_to_the_playout() -> None:
    from big2.bots.search import HeuristicPlayout, sample_worlds

    g = Game(seed=5)
    view = g.view(g.to_move)  # type: ignore[arg-type]
    worlds = sample_worlds(view, 3, seed=2)
    cands = view.legal[:3]
    plain = HeuristicPlayout().start(view, random.Random(0))(worlds, cands)
    bonus = example.SheddingBonus(1.0).start(view, random.Random(0))(worlds, cands)
    for p_row, b_row in zip(plain, bonus):
        assert [b - p for p, b in zip(p_row, b_row)] == [float(c.bit_count()) for c in cands]


def test_main_prints_the_mean(capsys) -> None:  # type: ignore[no-untyped-def]
    sys.argv = ["search_bot.py", "--deals", "1", "--budget", "20"]
    example.main()
    assert "points a deal over 1 deals" in capsys.readouterr().out


def test_halving_in_batches_spends_the_same_budget_on_the_same_worlds() -> None:
    from big2.bots.search import HeuristicCandidates, HeuristicPlayout, heuristic_guide
    from big2.bots.search.selectors import SuccessiveHalving
    from big2.bots.search.worlds import WorldSampler

    g = Game(seed=8)
    view = g.view(g.to_move)  # type: ignore[arg-type]
    cands = HeuristicCandidates(6)(view, heuristic_guide(view))
    tallies = []
    for batch in (1, 4):
        sampler = WorldSampler(view, random.Random(3))
        score = HeuristicPlayout().start(view, random.Random(0))
        tallies.append(SuccessiveHalving(120, batch=batch).run(cands, sampler, score))
    assert tallies[0] == tallies[1]  # a batch only groups the calls
