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


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
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


def _plain_draw(view, rng: random.Random, evidence, pass_inference: float):  # type: ignore[no-untyped-def]
    """The sampler's draw as first written (before 2026-12-05's fast path): the
    reference the sampler must match world for world on the same stream."""
    from big2.bots.rules_based.planning import beaten_by_unseen
    from big2.bots.search.worlds import _barred_single, _beaters
    from big2.cards import cards_of
    from big2.combos import engine

    fixed, events, mix, forbidden = evidence

    def deal(greedy_seats: int) -> list[int]:
        pool = cards_of(int(view.unseen))
        rng.shuffle(pool)
        hands = [0] * view.num_players
        hands[view.seat] = int(view.hand)
        for s in sorted(fixed):
            pick = next((c for c in pool if _barred_single(view.rules, c)), None)
            if pick is not None:
                pool.remove(pick)
                hands[s] = 1 << pick
        if greedy_seats and forbidden:
            for s in range(view.num_players):
                c = view.card_counts[s]
                if not greedy_seats >> s & 1 or s == view.seat or hands[s] or not c:
                    continue
                ok = [x for x in pool if not forbidden[s] >> x & 1]
                if len(ok) < c:
                    continue
                hands[s] = sum(1 << x for x in ok[:c])
                pool = [x for x in pool if x not in set(ok[:c])]
        i = 0
        for s, c in enumerate(view.card_counts):
            if s == view.seat or hands[s]:
                continue
            hands[s] = sum(1 << x for x in pool[i:i + c])
            i += c
        return hands

    greedy_seats = sum(1 << s for s in range(view.num_players)
                       if s != view.seat and rng.random() < mix[s])
    if not events:
        return deal(greedy_seats), greedy_seats
    eng = engine(view.rules)
    best, best_bad = [], (1 << 30, 0)
    for _ in range(8):
        hands = deal(greedy_seats)
        soft = hard = 0
        for seat, to_beat, later in events:
            held = hands[seat] | later
            beat = _beaters(view.rules, to_beat)
            if bool(held & beat) if beat is not None else beaten_by_unseen(eng, to_beat, held):
                if greedy_seats >> seat & 1:
                    hard += 1
                else:
                    soft += 1
        if hard == 0 and (soft == 0 or rng.random() < (1 - pass_inference) ** soft):
            return hands, greedy_seats
        if (hard, soft) < best_bad:
            best, best_bad = hands, (hard, soft)
    return best, greedy_seats


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("name", ["classic", "selfplay-2018", "3 players, spare aside"]
                         + [n for n in PRESETS if n not in ("classic", "selfplay-2018")][:3])
def test_the_sampler_draws_the_worlds_of_the_plain_reference(name: str) -> None:
    from big2.bots.search.worlds import WorldSampler

    rules = RULE_SETS[name]
    for k, (g, seat) in enumerate(positions_with_seats(rules, deals=3, every=3)):
        view = g.view(seat)
        for inference in (0.7, 0.0):
            sampler = WorldSampler(view, random.Random(k), pass_inference=inference)
            ref = random.Random(k)
            for _ in range(8):
                world = sampler.draw()
                hands, greedy = _plain_draw(view, ref, sampler.evidence, inference)
                assert (list(world), world.greedy_seats) == (hands, greedy), (name, k)
