"""The vectorised environment (big2.env.vector) and hand-relative ids
(big2.env.hand_actions): observations equal the single-game encoder, masks
equal the engine's and the brute-force reference's legal plays in every
action form, seeding, bots in the other seats, and bad input."""

from __future__ import annotations

import random
from itertools import combinations
from math import comb
from typing import Any

import numpy as np
import pytest
from house_options import HOUSE_RULE_OPTION_SETS, for_players
from reference import ref_legal

from big2 import Rules
from big2.bots import Bot, make_bot
from big2.cards import cards_of
from big2.env.core import unsupported_options
from big2.env.hand_actions import HandActions, max_hand, num_hand_actions
from big2.env.observation import encode_game
from big2.env.vector import ACTION_FORMS
from big2.env.vector import VectorEnv as AnyVectorEnv
from big2.view import PlayerView

SETUPS = [("classic", 4), ("classic", 3), ("classic", 2), ("pagat", 3), ("hawaii", 2),
          ("philippines", 4), ("taiwan", 4), ("indonesia", 3), ("vietnam-straights", 4)]
ACCEPTED_OPTIONS = [o for o in HOUSE_RULE_OPTION_SETS
                    if not unsupported_options(Rules(**for_players(o, 4)))]


class VectorEnv(AnyVectorEnv):
    """The Python-backed env unless told otherwise: these tests hold it to the engine's
    own Game objects (tests/env/test_vector_backends.py holds every backend to it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("engine", "python")
        super().__init__(*args, **kwargs)


def legal_sets(venv: VectorEnv, obs: dict) -> list[set[int]]:
    """Each game's legal plays as card masks, decoded from its action mask."""
    out = []
    for i in range(venv.num_envs):
        ids = np.flatnonzero(obs["action_mask"][i])
        masks = venv.decode(np.full(len(ids), i), ids)
        out.append({int(m) for m in masks})
    return out


def check_batch(venv: VectorEnv, obs: dict) -> None:
    """The batch agrees with each game: observation, mask, seat to move."""
    decoded = legal_sets(venv, obs)
    for i, g in enumerate(venv.games):
        seat = g.to_move
        assert obs["to_move"][i] == seat
        assert np.array_equal(obs["observation"][i], encode_game(g, seat)), f"game {i}"
        assert decoded[i] == set(g.legal_masks()), f"game {i}"
        assert obs["action_mask"][i].sum() == len(g.legal_masks())


def run(venv: VectorEnv, steps: int, seed: int = 0, check: bool = True) -> None:
    rng = np.random.default_rng(seed)
    obs, _ = venv.reset()
    for _ in range(steps):
        if check:
            check_batch(venv, obs)
        obs, rewards, done, _, info = venv.step(venv.sample(rng))
        assert rewards.shape == (venv.num_envs,)
        assert info["seat_rewards"].shape == (venv.num_envs, venv.num_players)
        assert not rewards[~done].any() and not info["seat_rewards"][~done].any()


# -- hand-relative ids --------------------------------------------------------------


@pytest.mark.parametrize("hand", [13, 17, 18, 26])
def test_hand_ids_are_a_bijection_on_places(hand: int) -> None:
    ha = HandActions(hand)
    assert ha.size == num_hand_actions(hand) == 1 + sum(comb(hand, k) for k in range(1, 6))
    rng = random.Random(hand)
    cards = rng.sample(range(52), hand)
    held = sum(1 << c for c in cards)
    plays = [0] + [sum(1 << c for c in sub) for k in range(1, 6)
                   for sub in rng.sample(list(combinations(sorted(cards), k)), min(60, comb(hand, k)))]
    arr = np.array(plays, dtype=np.uint64)
    ids = ha.encode(arr, np.full(len(plays), held, dtype=np.uint64))
    assert len(set(ids.tolist())) == len(plays)
    assert ids.min() >= 0 and ids.max() < ha.size
    assert np.array_equal(ha.decode(ids, np.full(len(plays), held, dtype=np.uint64)), arr)


def test_hand_ids_name_places_in_card_order() -> None:
    ha = HandActions(13)
    hand = np.array([0b1011], dtype=np.uint64)  # cards 0, 1, 3
    assert ha.text(int(ha.encode(np.array([0b1000], np.uint64), hand)[0])) == "3"
    assert ha.text(int(ha.encode(np.array([0b1001], np.uint64), hand)[0])) == "1 3"
    with pytest.raises(ValueError, match="0..2379"):
        ha.text(2380)


@pytest.mark.parametrize(("options", "expected"), [
    ({}, 13), ({"players": 3}, 18), ({"players": 3, "spare_to": "aside"}, 17),
    ({"players": 2}, 26), ({"players": 3, "deal": "13-each"}, 13),
    ({"players": 2, "deal": "13-each", "go_fish": True}, 39),
])
def test_max_hand(options: dict, expected: int) -> None:
    assert max_hand(Rules(**options)) == expected


# -- agreement with the engine --------------------------------------------------------


@pytest.mark.parametrize(("preset", "players"), SETUPS)
def test_observations_and_masks_agree_with_the_engine(preset: str, players: int) -> None:
    run(VectorEnv(8, preset, players=players, seed=3), 60 if players > 2 else 25)


@pytest.mark.parametrize("options", ACCEPTED_OPTIONS, ids=lambda o: ",".join(o))
def test_house_rules_agree_with_the_engine(options: dict) -> None:
    players = 2 if options.get("go_fish") else (3 if "spare_to" in options else 4)
    rules = Rules(**for_players(options, players))
    run(VectorEnv(6, rules, seed=len(str(options))), 40)


@pytest.mark.parametrize("form", ACTION_FORMS)
def test_every_action_form_gives_the_reference_legal_plays(form: str) -> None:
    venv = VectorEnv(6, "classic", seed=5, actions=form)  # type: ignore[arg-type]
    rng = np.random.default_rng(1)
    obs, _ = venv.reset()
    for _ in range(40):
        decoded = legal_sets(venv, obs)
        for i, g in enumerate(venv.games):
            seat = g.to_move
            last = tuple(cards_of(g.last_play)) if not g.leading else None
            must = g.must_contain.bit_length() - 1 if g.must_contain else None
            led = last is not None and g.trick[0].cards == int(g.last_play)
            assert decoded[i] == ref_legal(cards_of(g.hands[seat]), g.rules, last, must,
                                           waive=g.waive, led=led)
        obs, *_ = venv.step(venv.sample(rng))
    assert venv.action_form == form
    assert obs["action_mask"].shape[1] == {"hand": 2380, "rule": 19899, "flat": 202204}[form]


def test_legal_plays_as_card_vectors() -> None:
    venv = VectorEnv(5, "pagat", players=3, seed=2)
    rng = np.random.default_rng(2)
    venv.reset()
    for _ in range(30):
        plays = venv.legal_plays()
        assert plays.cards.shape[:2] == plays.ids.shape
        for i, g in enumerate(venv.games):
            k = int(plays.counts[i])
            masks = [sum(1 << int(c) for c in np.flatnonzero(row)) for row in plays.cards[i, :k]]
            assert masks == g.legal_masks()
            assert not plays.cards[i, k:].any() and (plays.ids[i, k:] == -1).all()
            assert np.array_equal(venv.legal_ids()[i], plays.ids[i, :k])
        venv.step(venv.sample(rng))


# -- seeding, bots ---------------------------------------------------------------------


def trace(venv: VectorEnv, steps: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = [venv.reset()[0]["observation"]]
    for _ in range(steps):
        obs, rewards, done, _, info = venv.step(venv.sample(rng))
        out += [obs["observation"], rewards, info["seat_rewards"], done]
    return out


def test_same_seed_same_games_different_seed_different_games() -> None:
    a = trace(VectorEnv(4, "classic", seed=9), 120, 0)
    b = trace(VectorEnv(4, "classic", seed=9), 120, 0)
    c = trace(VectorEnv(4, "classic", seed=10), 120, 0)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))
    venv = VectorEnv(4, "classic", seed=9)
    first = venv.reset()[0]["observation"]
    venv.step(venv.sample())
    assert np.array_equal(venv.reset()[0]["observation"], first)  # reset() starts the seed again


class Spy(Bot):
    """Plays the weakest legal play and remembers the views it saw."""

    def __init__(self) -> None:
        super().__init__()
        self.views: list[PlayerView] = []

    def choose(self, view: PlayerView) -> int:
        self.views.append(view)
        return view.legal[0]


def test_bots_play_the_other_seats() -> None:
    spy = Spy()
    venv = VectorEnv(6, "classic", seed=4, opponents=[spy, "greedy", "random"], learners=[0])
    rng = np.random.default_rng(0)
    obs, _ = venv.reset()
    ended = 0
    for _ in range(150):
        assert (obs["to_move"] == 0).all()
        check_batch(venv, obs)
        obs, rewards, done, _, info = venv.step(venv.sample(rng))
        ended += int(done.sum())
        seat_rewards = info["seat_rewards"]
        assert np.allclose(seat_rewards[done].sum(axis=1), 0) or venv.rules.scoring != "classic"
        assert np.array_equal(rewards, seat_rewards[:, 0])  # the learner's, seat 0
    assert ended > 0 and spy.views and all(v.seat == 1 for v in spy.views)


def test_two_learners_against_bots() -> None:
    venv = VectorEnv(4, "classic", seed=1, opponents="greedy", learners=(0, 2))
    obs, _ = venv.reset()
    rng = np.random.default_rng(3)
    for _ in range(100):
        assert set(obs["to_move"].tolist()) <= {0, 2}
        obs, *_ = venv.step(venv.sample(rng))


# -- bad input ----------------------------------------------------------------------------


def test_bad_action_arrays_are_refused_naming_the_games() -> None:
    venv = VectorEnv(4, "classic", seed=0)
    venv.reset()
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        venv.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="integer"):
        venv.step(np.zeros(4))
    with pytest.raises(ValueError, match=r"games 2 \(2380\)"):
        venv.step(np.array([0, 1, 2380, 5]))
    with pytest.raises(RuntimeError, match="reset"):
        VectorEnv(2).step(np.zeros(2, dtype=np.int64))


def test_an_illegal_id_raises_and_moves_no_game() -> None:
    venv = VectorEnv(4, "classic", seed=0)
    venv.reset()
    before = [list(g.history) for g in venv.games]
    acts = venv.sample(np.random.default_rng(0))
    acts[1] = 0  # every game opens with a lead: passing is illegal
    with pytest.raises(ValueError, match=r"games \[1\].*game 1: action 0 \(pass\): the leader cannot pass"):
        venv.step(acts)
    assert [list(g.history) for g in venv.games] == before
    venv.step(venv.sample(np.random.default_rng(0)))  # and the env still works


def test_an_illegal_id_can_end_only_its_game() -> None:
    ended = VectorEnv(3, "classic", seed=7, illegal="end", illegal_reward=-5)
    control = VectorEnv(3, "classic", seed=7)
    ended.reset()
    control.reset()
    acts = control.sample(np.random.default_rng(0))
    seat = int(ended.observations()["to_move"][2])
    bad = acts.copy()
    bad[2] = 0
    obs, rewards, done, _, info = ended.step(bad)
    ref, *_ = control.step(acts)
    assert info["illegal"].tolist() == [False, False, True] and done.tolist() == [False, False, True]
    assert rewards[2] == -5 and info["seat_rewards"][2, seat] == -5
    assert info["seat_rewards"][2].sum() == -5
    assert np.array_equal(obs["observation"][:2], ref["observation"][:2])
    assert len(ended.games[2].history) == 0  # a new deal


def test_options_the_env_cannot_express_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="jokers=wild"):
        VectorEnv(2, Rules(jokers="wild"))
    with pytest.raises(ValueError, match="actions must be one of hand, rule, flat"):
        VectorEnv(2, actions="cards")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="opponents needed"):
        VectorEnv(2, opponents=["greedy"])
    with pytest.raises(ValueError, match="unknown|no bot"):
        VectorEnv(2, opponents="grandmaster")
    make_bot("greedy")  # the name check above did not break the registry


# -- the training example's NumPy pieces ------------------------------------------------


def _train_vec():  # type: ignore[no-untyped-def]
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).parents[2] / "examples" / "train_vec.py"
    spec = importlib.util.spec_from_file_location("train_vec", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_vec"] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


def test_training_example_labels_each_choice_with_its_seats_final_score() -> None:
    tv = _train_vec()
    venv = VectorEnv(4, "classic", seed=2, reward="score")
    rollouts = tv.Rollouts(venv, seed=0)
    weights = np.random.default_rng(0).normal(size=tv.FEATURES).astype(np.float32)
    x, y = rollouts.collect(lambda rows: rows @ weights, epsilon=0.1, steps=400)
    assert rollouts.deals > 0 and len(x) == len(y) > 0 and x.shape[1] == tv.FEATURES
    # a chosen pair holds the mover's own cards and a play from them
    hand, play = x[:, :52], x[:, tv.OBS_SIZE:]
    assert ((play > 0) <= (hand > 0)).all()
    # labels are final scores: whole points (scaled), the winner's positive, some losers'
    points = y * tv.SCORE_SCALE
    assert np.allclose(points, np.round(points)) and (points > 0).any() and (points < 0).any()
    better = tv.evaluate(lambda rows: rows[:, tv.OBS_SIZE:].sum(axis=1), 40, envs=8)
    worse = tv.evaluate(None, 40, envs=8)
    assert better.deals == worse.deals == 40 and -39 <= worse.mean <= 39


# -- worker processes ---------------------------------------------------------------------


def test_workers_give_the_same_games_as_one_process() -> None:
    def run_with(workers: int) -> tuple[list[np.ndarray], int, list[np.ndarray]]:
        with VectorEnv(7, "pagat", players=3, seed=8, workers=workers, opponents="greedy",
                       learners=(0, 1)) as venv:
            rng = np.random.default_rng(4)
            obs, _ = venv.reset()
            out = [obs["observation"], obs["action_mask"]]
            for _ in range(80):
                obs, rewards, done, _, info = venv.step(venv.sample(rng))
                out += [obs["observation"], obs["action_mask"], obs["to_move"], rewards, done,
                        info["seat_rewards"]]
                if done.any():  # the finished deals' last observations come back from the workers
                    out += [np.stack([info["final_obs"][i]["observation"]
                                      for i in np.flatnonzero(done)])]
            plays = venv.legal_plays()
            return out, venv.deals, [plays.cards, plays.ids]
    one, deals_one, plays_one = run_with(1)
    three, deals_three, plays_three = run_with(3)
    assert deals_one == deals_three > 0
    assert all(np.array_equal(a, b) for a, b in zip(one + plays_one, three + plays_three))


def test_workers_refuse_bad_actions_in_the_parent() -> None:
    with VectorEnv(4, "classic", seed=0, workers=2) as venv:
        venv.reset()
        acts = venv.sample(np.random.default_rng(0))
        acts[3] = 0
        with pytest.raises(ValueError, match=r"games \[3\]"):
            venv.step(acts)
        games = venv.games  # copies from the workers, the parent's positions
        assert [g.to_move for g in games] == venv.observations()["to_move"].tolist()
        venv.step(venv.sample(np.random.default_rng(0)))
    with pytest.raises(ValueError, match=r"workers must be 1..num_envs \(4\)"):
        VectorEnv(4, workers=5)
