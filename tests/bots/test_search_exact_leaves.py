"""The exact endgame at the search's leaves (big2.bots.search.evaluators.ExactLeaves,
issue 45 item 4): each world's values are plain max^n's, a world past the node
budget and a decision with more cards are the inner evaluator's, and the levels
take it as an option (endgame=, endgame_nodes=)."""

from __future__ import annotations

import random

import pytest
from bot_games import brute_force

from big2 import Game, Rules
from big2.arena import check_seat
from big2.bots import make_bot
from big2.bots.search.evaluators import ExactLeaves, HeuristicPlayout
from big2.bots.search.worlds import sample_worlds
from big2.view import PlayerView


def small_views(rules: Rules, rng: random.Random, count: int, most: int = 8) -> list[PlayerView]:
    """Views of a seat with a choice, in random deals of one to three cards a
    seat (at most *most* in all), a few random actions in."""
    out: list[PlayerView] = []
    while len(out) < count:
        deck = list(range(52))
        rng.shuffle(deck)
        sizes = [rng.randint(1, 3) for _ in range(rules.players)]
        while sum(sizes) > most:
            sizes[rng.randrange(rules.players)] = 1
        hands, at = [], 0
        for k in sizes:
            hands.append(sum(1 << c for c in deck[at:at + k]))
            at += k
        g = Game(rules, hands=hands, leader=rng.randrange(rules.players))
        for _ in range(rng.randrange(3)):
            if g.to_move is not None:
                g.play(rng.choice(g.legal_masks()))
        if g.to_move is not None and len(g.legal_masks()) > 1:
            out.append(g.view(g.to_move))
    return out


@pytest.mark.parametrize("preset", ["classic", "selfplay-2018"])
def test_each_world_is_valued_by_plain_max_n(preset: str) -> None:
    rules = Rules.preset(preset, scoring="count")
    for i, view in enumerate(small_views(rules, random.Random(preset), 12)):
        worlds = sample_worlds(view, 3, seed=i)
        cands = list(view.legal)
        got = ExactLeaves(cards=52, nodes=10**6).start(view, random.Random(0))(worlds, cands)
        for hands, row in zip(worlds, got, strict=True):
            want = []
            for c in cands:
                g = Game.from_view(view, hands)
                g.play(c)
                want.append(float(brute_force(g)[view.seat]))
            assert row == want, (preset, view.hand, hands)


def test_past_the_budget_or_the_cards_the_inner_evaluator_scores() -> None:
    rules = Rules.preset("classic", scoring="count")
    fell_back = 0
    for i, view in enumerate(small_views(rules, random.Random(5), 8, most=9)):
        worlds = sample_worlds(view, 4, seed=i)
        cands = list(view.legal)
        inner = HeuristicPlayout().start(view, random.Random(0))(worlds, cands)
        total = sum(view.card_counts)
        starved = ExactLeaves(HeuristicPlayout(), cards=52, nodes=1)
        exact = ExactLeaves(cards=52, nodes=10**6).start(view, random.Random(0))(worlds, cands)
        got = starved.start(view, random.Random(0))(worlds, cands)
        # a world solved within one position is the exact one; every other, the inner's
        assert all(row in (a, b) for row, a, b in zip(got, inner, exact, strict=True))
        fell_back += sum(row == a != b for row, a, b in zip(got, inner, exact, strict=True))
        # one card fewer than the decision's: each candidate after which the world is
        # that small is solved on its own (the pass never is), the rest played out
        few = ExactLeaves(HeuristicPlayout(), cards=total - 1).start(view, random.Random(0))
        for row, a, b in zip(few(worlds, cands), inner, exact, strict=True):
            for c, x, y, z in zip(cands, row, a, b, strict=True):
                assert x == (y if c == 0 else z), (view.hand, c)
        biggest = max(c.bit_count() for c in cands)
        beyond = ExactLeaves(HeuristicPlayout(), cards=total - biggest - 1)
        assert beyond.start(view, random.Random(0))(worlds, cands) == inner
    assert fell_back > 0  # the exact and the played-out values differ, and the budget tells


def test_the_levels_take_the_endgame_as_an_option() -> None:
    assert isinstance(make_bot("hard", seed=1).search.evaluator,  # type: ignore[attr-defined]
                      HeuristicPlayout)  # off by default
    bot = make_bot("expert", seed=1, endgame=9, endgame_nodes=500)
    ev = bot.search.evaluator  # type: ignore[attr-defined]
    assert isinstance(ev, ExactLeaves) and (ev.cards, ev.nodes) == (9, 500)
    v1 = make_bot("expert-v1", seed=1, endgame=9)
    assert isinstance(v1.search.evaluator, ExactLeaves)  # type: ignore[attr-defined]
    check_seat("hard:endgame=10:endgame_nodes=4000", start=False)
    for bad in ({"endgame": -1}, {"endgame": 8, "endgame_nodes": 0}):
        with pytest.raises(ValueError, match="endgame"):
            make_bot("hard", seed=1, **bad)


def test_a_search_with_the_endgame_plays_legal_plays_and_repeats_for_a_seed() -> None:
    rules = Rules.preset("classic", scoring="count")
    for i, view in enumerate(small_views(rules, random.Random(9), 6, most=9)):
        plays = {make_bot("hard", seed=i, endgame=10, budget=24).choose(view) for _ in range(2)}
        assert len(plays) == 1 and plays <= set(view.legal)
