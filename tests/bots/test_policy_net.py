"""The PPO policy bots (big2.bots.policy.net.PolicyNetBot, and the searches
policy-search and guided-search of big2.bots.search.configs): the shipped policy and critic load and are small; the bots
play only legal plays under every preset, see nothing hidden, and repeat for a seed."""

from __future__ import annotations

import bot_games
import numpy as np
import pytest
from bot_games import same_view_different_hidden_cards

from big2 import Game, Rules
from big2.bots import make_bot
from big2.bots.policy.pnet import STATE_FEATURES, WEIGHTS_DIR, load_policy, load_value

BOTS = {"policy-net": {}, "policy-search": {"samples": 2, "candidates": 2},
        "guided-search": {"budget": 24, "sure": 1.0}}


def play_deal(rules: Rules, seed: int, names: list[str]) -> Game:
    return bot_games.play_deal(rules, seed, names, BOTS)


def test_the_shipped_policy_and_critic_load_and_are_small() -> None:
    net = load_policy(WEIGHTS_DIR / "policy.npz")
    assert int(net.meta["steps"]) > 0 and net.meta["families"] == "classic,selfplay-2018"
    value = load_value(WEIGHTS_DIR / "value.npz")
    assert value.weights[0].shape[0] == STATE_FEATURES + 156
    assert value.meta == net.meta  # the critic says where it comes from, as the policy does
    for f in ("policy.npz", "value.npz"):
        assert (WEIGHTS_DIR / f).stat().st_size < 2_000_000


PRESET_SEATS = [pytest.param(preset, players, id=f"{preset}-{players}", marks=(
    () if players == (4, 3, 2)[i % 3] else pytest.mark.nightly))
    for i, preset in enumerate(Rules.presets()) for players in (4, 3, 2)]
"""Every preset at 4, 3 and 2 players: ``make test`` plays each preset at one of them
(turning from one preset to the next), the nightly set the other two."""


@pytest.mark.parametrize("preset,players", PRESET_SEATS)
def test_policy_bots_play_legal_plays_under_every_preset(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players)
    names = ["policy-net", "policy-search", "medium", "guided-search"][:players]
    play_deal(rules, seed=players * 17 + len(preset), names=names)


@pytest.mark.parametrize("name", list(BOTS))
def test_choices_depend_only_on_what_the_seat_sees(name: str) -> None:
    differ = 0
    for seed in range(5):
        g, twin = same_view_different_hidden_cards(seed)
        seat = g.to_move
        assert seat is not None
        differ += g.hands != twin.hands
        a = make_bot(name, seed=3, **BOTS[name]).choose(g.view(seat))
        b = make_bot(name, seed=3, **BOTS[name]).choose(twin.view(seat))
        assert a == b
    assert differ


@pytest.mark.parametrize("name", list(BOTS))
def test_reproducible_for_a_seed(name: str) -> None:
    names = [name, "medium", name, "easy"]
    assert play_deal(Rules(), 11, names).history == play_deal(Rules(), 11, names).history


def test_analyse_gives_the_candidates_with_values() -> None:
    bot = make_bot("policy-search", seed=1, samples=4)
    g = Game(seed=8)
    view = g.view(g.to_move)
    rows = bot.analyse(view)  # type: ignore[attr-defined]
    assert 2 <= len(rows) <= 4 and all(c in view.legal for c, _, _ in rows)
    assert [v for _, _, v in rows] == sorted((v for _, _, v in rows), reverse=True)
    assert all(0 <= p <= 1 and np.isfinite(v) for _, p, v in rows)


def test_guided_search_keeps_the_policys_favourite_and_searches_its_candidates() -> None:
    bot = make_bot("guided-search", seed=1, budget=60, sure=1.0, policy_candidates=2)
    g = Game(seed=8)
    view = g.view(g.to_move)
    p = bot.policy.probabilities(view)  # type: ignore[attr-defined]
    top = [view.legal[int(i)] for i in np.argsort(-p, kind="stable")[:2]]
    rows = bot.analyse(view)  # type: ignore[attr-defined]
    plays = [c for c, _, _ in rows]
    assert set(top) <= set(plays) and all(c in view.legal for c in plays)
    shares = {c: s for c, s, _ in rows}
    assert shares[top[0]] == max(shares.values())  # never dropped by the halving
    assert abs(sum(shares.values()) - 1) < 1e-9


def test_guided_search_follows_the_policy_when_sure_or_within_the_margin() -> None:
    g = Game(seed=8)
    view = g.view(g.to_move)
    policy = make_bot("policy-net").choose(view)
    assert make_bot("guided-search", seed=1, budget=40, sure=1e-9).choose(view) == policy
    assert make_bot("guided-search", seed=1, budget=40, sure=1.0, margin=1e6).choose(view) == policy
    with pytest.raises(ValueError, match="sure"):
        make_bot("guided-search", sure=0)
    with pytest.raises(ValueError, match="margin"):
        make_bot("guided-search", margin=-1)
