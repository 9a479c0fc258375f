"""Deals weighed by the policy's likelihood of the other seats' plays
(:mod:`big2.bots.policy.belief`), and the guided search that samples from them."""

from __future__ import annotations

import bot_games
import numpy as np
import pytest
from bot_games import same_view_different_hidden_cards

from big2 import Game, Rules
from big2.bots import make_bot
from big2.bots.policy.belief import FLOOR, belief_weights
from big2.bots.policy.net import PolicyNetBot
from big2.bots.search.worlds import sample_worlds
from big2.cards import Mask
from big2.view import PlayerView

BELIEF = {"guided-search": {"budget": 24, "belief": 0.5, "pool": 8}}


def policy_position(seed: int, plies: int) -> tuple[Game, PolicyNetBot]:
    """A classic deal after *plies* plays of the policy in every seat."""
    bot, g = PolicyNetBot(), Game(seed=seed)
    for _ in range(plies):
        g.play(bot.choose(g.view(g.to_move)))
    return g, bot


def sampled_deals(view: PlayerView, n: int, seed: int = 1) -> list[list[Mask]]:
    """*n* deals of the unseen cards consistent with *view* (the search's sampler)."""
    return [list(w) for w in sample_worlds(view, n, seed=seed)]


def test_weights_are_relative_and_tempered_by_belief() -> None:
    g, bot = policy_position(seed=4, plies=12)
    view = g.view(g.to_move)
    worlds = sampled_deals(view, 12)
    full = belief_weights(bot.network, view, worlds, 1.0)
    half = belief_weights(bot.network, view, worlds, 0.5)
    assert full.shape == (12,) and full.max() == 1.0 and (full > 0).all()
    assert np.allclose(half, np.sqrt(full))
    assert len(set(full.round(12).tolist())) > 1  # the deals are told apart
    assert (belief_weights(bot.network, view, worlds, 0.0) == 1).all()
    # no decision can weigh a deal down by more than the floor
    decisions = sum(1 for a in view.history if a.seat != view.seat)
    assert full.min() >= FLOOR ** decisions * (1 - 1e-9)


def test_the_true_deal_outweighs_most_samples_when_the_policy_played() -> None:
    """The other seats are the policy itself, so the deal they really hold
    explains their plays better than most deals consistent with the history."""
    for seed in range(4):
        g, bot = policy_position(seed=20 + seed, plies=14)
        view = g.view(g.to_move)
        worlds = [[int(h) for h in g.hands]] + sampled_deals(view, 15, seed)
        w = belief_weights(bot.network, view, worlds)
        assert w[0] > np.median(w[1:])


def test_no_history_means_equal_weights() -> None:
    g, bot = policy_position(seed=2, plies=0)
    view = g.view(g.to_move)
    assert (belief_weights(bot.network, view, sampled_deals(view, 5)) == 1).all()


@pytest.mark.parametrize("preset,players", [
    pytest.param(preset, players, id=f"{preset}-{players}",
                 marks=() if players == (4, 3)[i % 2] else pytest.mark.nightly)
    for i, preset in enumerate(Rules.presets()) for players in (4, 3)])
def test_guided_search_with_belief_plays_legal_plays_under_every_preset(preset: str,
                                                                         players: int) -> None:
    """Every preset at 4 and 3 players: make test one of them (turning), nightly the other."""
    rules = Rules.preset(preset, players=players)
    names = ["guided-search", "medium", "policy-net", "easy"][:players]
    bot_games.play_deal(rules, players * 5 + len(preset), names, BELIEF)


def test_guided_search_with_belief_sees_nothing_hidden_and_repeats_for_a_seed() -> None:
    for seed in range(4):
        g, twin = same_view_different_hidden_cards(seed)
        seat = g.to_move
        assert seat is not None
        a = make_bot("guided-search", seed=3, **BELIEF["guided-search"]).choose(g.view(seat))
        b = make_bot("guided-search", seed=3, **BELIEF["guided-search"]).choose(twin.view(seat))
        assert a == b
    names = ["guided-search", "medium", "guided-search", "easy"]
    assert (bot_games.play_deal(Rules(), 9, names, BELIEF).history
            == bot_games.play_deal(Rules(), 9, names, BELIEF).history)


def test_guided_search_rejects_bad_belief_options() -> None:
    with pytest.raises(ValueError, match="belief"):
        make_bot("guided-search", belief=-0.1)
    with pytest.raises(ValueError, match="pool"):
        make_bot("guided-search", belief=0.5, pool=0)
