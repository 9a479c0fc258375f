"""``big2.bots.search.worlds.sample_worlds`` (issue 44): every sampled world is a
deal the table could hold.

Checked against the game's true hands, not against the project's own notion of
unseen: over random positions of every preset, three players with the spare
face up and six players with two decks, every world gives the seat its own
hand, and the other seats together exactly the cards they hold, each its count
(the spare-card bug: the face-up spare was dealt to an opponent)."""

from __future__ import annotations

import random

import pytest
from bot_games import positions_with_seats

from big2 import Game, Rules
from big2.bots.search.worlds import World, sample_worlds
from big2.presets import PRESETS

RULE_SETS = {name: Rules.preset(name) for name in PRESETS} | {
    "3 players, spare aside": Rules(players=3, spare_to="aside"),
    "6 players, two decks": Rules(players=6, decks=2),
}


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_every_world_deals_the_others_exactly_their_cards(name: str) -> None:
    rules = RULE_SETS[name]
    for k, (g, seat) in enumerate(positions_with_seats(rules, deals=4, every=4)):
        view = g.view(seat)
        others = 0
        for s, h in enumerate(g.hands):
            if s != seat:
                others |= h
        for world in sample_worlds(view, 5, seed=k):
            assert isinstance(world, World) and len(world) == rules.players
            assert world[seat] == int(g.hands[seat])
            union = 0
            for s, h in enumerate(world):
                assert h.bit_count() == int(g.hands[s]).bit_count(), (name, s)
                assert not union & h
                union |= h
            assert union & ~int(g.hands[seat]) == others, (name, seat, len(g.history))


def test_the_spare_is_never_dealt() -> None:
    g = Game(Rules(players=3, spare_to="aside"), seed=5)
    view = g.view(1)
    assert int(view.spare)
    assert not any(h & int(view.spare) for w in sample_worlds(view, 200, seed=1) for h in w)


def test_worlds_repeat_for_a_seed_and_follow_a_given_stream() -> None:
    g = Game(seed=9)
    view = g.view(2)
    assert sample_worlds(view, 4, seed=3) == sample_worlds(view, 4, seed=3)
    assert sample_worlds(view, 4, seed=3) == sample_worlds(view, 4, rng=random.Random(3))
    assert sample_worlds(view, 4, seed=3) != sample_worlds(view, 4, seed=4)


def test_policy_weighting_sets_weights_the_largest_one() -> None:
    from big2.bots.policy.net import PolicyNetBot

    g = Game(seed=3)
    bot = PolicyNetBot()
    for _ in range(8):
        g.play(bot.choose(g.view(g.to_move)))  # type: ignore[arg-type]
    view = g.view(g.to_move)  # type: ignore[arg-type]
    worlds = sample_worlds(view, 6, seed=1, policy=bot.network)
    assert max(w.weight for w in worlds) == 1.0 and all(0 < w.weight <= 1 for w in worlds)
    assert [list(w) for w in worlds] == [list(w) for w in sample_worlds(view, 6, seed=1)]


@pytest.mark.parametrize("bad", [{"n": 0}, {"seed": 1, "rng": random.Random(1)},
                                 {"pass_inference": 1.5}, {"greedy_mix": -0.1}])
def test_bad_arguments_raise_value_error(bad: dict) -> None:  # type: ignore[type-arg]
    view = Game(seed=1).view(0)
    args = {"n": 2, **bad}
    with pytest.raises(ValueError):
        sample_worlds(view, **args)
