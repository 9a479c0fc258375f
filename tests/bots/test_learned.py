"""The learned bots (big2.bots.learned, big2.bots.qnet) and the NumPy side of
their training (big2.learn.rollouts, big2.learn.evaluate): every level plays
only legal plays under every preset, sees nothing hidden, is reproducible for
a seed; the shipped weights load, are small, and pick the rule family's
network; the batched scorer equals the plain one; play-outs end every deal;
training samples are labelled with each seat's final score."""

from __future__ import annotations

import random

import bot_games
import numpy as np
import pytest
from bot_games import same_view_different_hidden_cards

from big2 import Game, Rules
from big2.bots import BOT_LEVELS, make_bot
from big2.bots.learned import WEIGHTS, LearnedBot, SearchBot, policy_playouts, weights_for
from big2.bots.qnet import FEATURES, SCORE_SCALE, QNet, load, pair_features
from big2.learn.evaluate import evaluate_net
from big2.learn.rollouts import Actor, ActorConfig
from big2.observation import card_vectors, encode_game

LEVEL_OPTIONS = {"expert": {"budget": 8}, "hard": {"budget": 8}}


def play_deal(rules: Rules, seed: int, names: list[str]) -> Game:
    return bot_games.play_deal(rules, seed, names, LEVEL_OPTIONS)


@pytest.mark.parametrize("preset", Rules.presets())
def test_every_level_plays_legal_plays_under_every_preset(preset: str) -> None:
    levels = [*BOT_LEVELS, "random"]
    for players in (4, 3, 2):
        rules = Rules.preset(preset, players=players)
        names = [levels[(players + k) % len(levels)] for k in range(players)]
        play_deal(rules, seed=players * 31 + len(preset), names=names)


def test_a_rule_set_the_network_cannot_read_falls_back() -> None:
    play_deal(Rules(jokers="wild", players=3), 4, ["hard", "expert", "hard"])


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_choices_depend_only_on_what_the_seat_sees(level: str) -> None:
    differ = 0
    for seed in range(6):
        g, twin = same_view_different_hidden_cards(seed)
        seat = g.to_move
        assert seat is not None
        differ += g.hands != twin.hands
        a = make_bot(level, seed=3, **LEVEL_OPTIONS.get(level, {})).choose(g.view(seat))
        b = make_bot(level, seed=3, **LEVEL_OPTIONS.get(level, {})).choose(twin.view(seat))
        assert a == b
    assert differ  # the pairs really hid different cards


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_levels_are_reproducible_for_a_seed(level: str) -> None:
    first = play_deal(Rules(), 11, [level, "medium", level, "easy"]).history
    again = play_deal(Rules(), 11, [level, "medium", level, "easy"]).history
    assert first == again


def test_shipped_weights_load_are_small_and_match_their_family() -> None:
    files = sorted(f for f in WEIGHTS.glob("*.npz") if f.stem not in ("policy", "value"))
    assert [f.stem for f in files] == sorted(f.stem for f in files)
    assert (WEIGHTS / "classic.npz") in files
    for f in files:
        assert f.stat().st_size <= 5_000_000
        net = load(f)
        assert net.weights[0].shape[0] == FEATURES
        assert int(net.meta["deals"]) > 0 and net.meta["rules"] == f.stem
    assert weights_for(Rules()) == WEIGHTS / "classic.npz"
    assert weights_for(Rules(players=3, scoring="penalty")) == WEIGHTS / "classic.npz"
    held_out = WEIGHTS / "selfplay-2018.npz"
    if held_out in files:
        assert weights_for(Rules.preset("selfplay-2018")) == held_out
        assert weights_for(Rules.preset("selfplay-2018").replace(scoring="classic")) == held_out


def test_batched_scores_equal_the_plain_network() -> None:
    rng = np.random.default_rng(0)
    net = QNet.random(rng, hidden=(32, 16))
    g = Game(seed=2)
    obs = encode_game(g, g.to_move)[None]
    cards = card_vectors(g.legal_masks())[None]
    plain = net(pair_features(obs, cards).reshape(-1, FEATURES))
    assert np.allclose(net.scores(obs, cards)[0], plain, atol=1e-5)


def test_saved_weights_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    net = QNet.random(np.random.default_rng(1), hidden=(16,))
    net.meta = {"rules": "classic", "deals": "5"}
    net.save(tmp_path / "n.npz", half=False)
    back = load(tmp_path / "n.npz")
    assert back.meta == net.meta
    x = np.random.default_rng(2).random((7, FEATURES)).astype(np.float32)
    assert np.allclose(back(x), net(x))
    with pytest.raises(ValueError, match="maps"):
        QNet([np.zeros((3, 1), np.float32)], [np.zeros(1, np.float32)])


def test_policy_playouts_finish_every_deal() -> None:
    games = [Game(seed=s) for s in range(5)]
    scores = policy_playouts(games, LearnedBot().net(Rules()), seat=0)
    assert all(g.is_over() for g in games)
    assert scores == [float(g.scores()[0]) for g in games]  # type: ignore[index]


def test_search_bot_checks_its_options() -> None:
    with pytest.raises(ValueError):
        SearchBot(candidates=1)
    assert SearchBot(budget=40, candidates=4).samples == 10


def test_actor_labels_each_choice_with_its_seats_final_score() -> None:
    rules = Rules(scoring="count")
    net = QNet.random(np.random.default_rng(0), hidden=(16,))
    actor = Actor(ActorConfig(rules, self_play=4, pool=2, bots=2, opponents=("greedy",), seed=1))
    x, y = actor.collect(net, [net], steps=120, epsilon=0.1)
    assert actor.deals_done() > 0 and len(x) == len(y) > 0
    assert x.dtype == np.int8 and x.shape[1] == FEATURES
    points = y * SCORE_SCALE
    assert np.allclose(points, np.round(points))
    assert (points > 0).any() and (points < 0).any() and (points <= 39).all()
    hand, play = x[:, :52], x[:, FEATURES - 104:FEATURES - 52]
    assert ((play > 0) <= (hand > 0)).all()  # a chosen play is the mover's own cards


def test_evaluation_of_random_play_loses_to_greedy() -> None:
    ev = evaluate_net(None, Rules(scoring="count"), "greedy", 60, seed=3, envs=20)
    assert ev.deals == 60 and ev.mean < 0 and 0 <= ev.win_rate < 0.5
