"""VectorEnv as a Gymnasium vector env (big2.env.vector, big2.env.spaces,
big2.env.reset_options): the spaces hold what reset and step return, the
same-step autoreset hands over each finished deal's last observation, rewards
are the acting seat's with every seat's in ``infos``, ``options={"hands": ...}``
deals chosen hands (and refuses bad ones by name), seeds replay, and
Gymnasium's own vector wrappers run on it."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from big2.cards import CardSet
from big2.env.observation import encode_game
from big2.env.spaces import ActionSpace
from big2.env.vector import VectorEnv as AnyVectorEnv
from big2.game import Game


class VectorEnv(AnyVectorEnv):
    """The Python-backed env unless told otherwise: these tests hold it to the engine's
    own Game objects (tests/env/test_vector_backends.py holds every backend to it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("engine", "python")
        super().__init__(*args, **kwargs)


def test_it_is_a_gymnasium_vector_env_with_single_and_batched_spaces() -> None:
    venv = VectorEnv(3, "classic", players=3, seed=0)
    assert isinstance(venv, gymnasium.vector.VectorEnv)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert venv.num_envs == 3
    single = venv.single_observation_space
    assert isinstance(single, gymnasium.spaces.Dict)
    assert single["observation"].shape == (635,) and single["observation"].dtype == np.int8
    assert single["action_mask"].shape == (venv.num_actions,)
    assert single["action_mask"].dtype == np.bool_
    assert single["to_move"] == gymnasium.spaces.Discrete(3)
    assert isinstance(venv.single_action_space, ActionSpace)
    assert venv.single_action_space.n == venv.num_actions == 12616  # 18-card hands at 3 players
    assert venv.observation_space["observation"].shape == (3, 635)
    assert venv.observation_space["action_mask"].shape == (3, 12616)
    assert venv.action_space == gymnasium.spaces.MultiDiscrete([12616] * 3)
    assert "VectorEnv(num_envs=3)" in repr(venv)


@pytest.mark.parametrize("form", ["hand", "rule"])
def test_the_spaces_hold_every_observation_and_action(form: str) -> None:
    venv = VectorEnv(4, "classic", seed=2, actions=form)  # type: ignore[arg-type]
    obs, infos = venv.reset(seed=2)
    assert infos == {}
    rng = np.random.default_rng(0)
    for _ in range(120):
        assert obs in venv.observation_space
        assert obs["action_mask"].dtype == np.bool_ and obs["observation"].dtype == np.int8
        for i in range(venv.num_envs):
            one = {k: v[i] for k, v in obs.items()}
            assert one in venv.single_observation_space
        actions = venv.sample(rng)
        assert actions in venv.action_space
        obs, rewards, terminated, truncated, infos = venv.step(actions)
        assert rewards.shape == terminated.shape == truncated.shape == (4,)
        assert rewards.dtype == np.float32
        assert terminated.dtype == truncated.dtype == np.bool_ and not truncated.any()
        for key in [k for k in infos if not k.startswith("_")]:  # Gymnasium's vector info layout
            assert infos[f"_{key}"].shape == (4,) and infos[f"_{key}"].dtype == np.bool_


def test_autoreset_same_step_with_the_finished_deals_last_observation() -> None:
    venv = VectorEnv(6, "classic", seed=5)
    obs, _ = venv.reset(seed=5)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        before: list[Game] = venv.games
        actor = obs["to_move"].copy()
        obs, rewards, terminated, _, infos = venv.step(venv.sample(rng))
        seat_rewards = infos["seat_rewards"]
        assert np.array_equal(rewards, seat_rewards[np.arange(6), actor])  # the mover's reward
        assert not seat_rewards[~terminated].any()
        if not terminated.any():
            assert "final_obs" not in infos
            continue
        assert np.array_equal(infos["_final_obs"], terminated)
        assert np.array_equal(infos["_final_info"], terminated)
        for i in range(6):
            final = infos["final_obs"][i]
            if not terminated[i]:
                assert final is None and venv.games[i] is before[i]
                continue
            ended += 1
            old, new = before[i], venv.games[i]
            assert old.is_over() and new is not old and not new.history  # dealt again at once
            seat = int(actor[i])
            assert np.array_equal(final["observation"], encode_game(old, seat))
            assert final["to_move"] == seat and not final["action_mask"].any()
            assert final in venv.single_observation_space
            assert rewards[i] == old.scores()[seat]
            assert seat_rewards[i].tolist() == [float(x) for x in old.scores()]
            assert infos["final_info"]["seat_rewards"][i].tolist() == seat_rewards[i].tolist()
            # the observation returned is the new deal's
            assert np.array_equal(obs["observation"][i], encode_game(new, new.to_move))  # type: ignore[arg-type]
    assert ended >= 6


def test_the_final_observation_of_an_illegal_ending_is_the_position_it_left() -> None:
    venv = VectorEnv(2, "classic", seed=3, illegal="end", illegal_reward=-2)
    obs, _ = venv.reset()
    game, seat = venv.games[1], int(obs["to_move"][1])
    expected = encode_game(game, seat)
    acts = venv.sample(np.random.default_rng(0))
    acts[1] = 0  # the opening lead may not pass
    _, rewards, terminated, _, infos = venv.step(acts)
    assert terminated.tolist() == [False, True] and infos["illegal"].tolist() == [False, True]
    assert rewards[1] == -2 and infos["seat_rewards"][1].tolist() == [
        -2.0 if s == seat else 0.0 for s in range(4)]
    assert np.array_equal(infos["final_obs"][1]["observation"], expected)
    assert infos["final_obs"][0] is None


def test_bots_seats_final_observation_is_the_learners() -> None:
    venv = VectorEnv(4, "classic", seed=1, opponents="greedy", learners=[2])
    obs, _ = venv.reset()
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(200):
        assert (obs["to_move"] == 2).all()
        before = venv.games
        obs, rewards, terminated, _, infos = venv.step(venv.sample(rng))
        assert np.array_equal(rewards, infos["seat_rewards"][:, 2])
        for i in np.flatnonzero(terminated).tolist():
            assert np.array_equal(infos["final_obs"][i]["observation"], encode_game(before[i], 2))
            assert rewards[i] == before[i].scores()[2]
            seen += 1
    assert seen > 0


# -- options={"hands": ...} ---------------------------------------------------------------

HANDS = ["3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C",
         "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D",
         "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
         "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S"]


def test_options_hands_deal_the_given_hands() -> None:
    masks = [int(CardSet.parse(h)) for h in HANDS]
    as_numbers = [list(CardSet(m)) for m in masks]
    venv = VectorEnv(3, "classic", seed=4)
    plain, _ = venv.reset(seed=4)
    plain_games = [list(g.initial_hands) for g in venv.games]
    obs, _ = venv.reset(seed=4, options={"hands": [HANDS, None, as_numbers]})
    games = venv.games
    assert list(games[0].initial_hands) == list(games[2].initial_hands) == masks
    assert list(games[1].initial_hands) == plain_games[1]  # None: dealt as usual
    assert np.array_equal(obs["observation"][1], plain["observation"][1])
    assert obs["to_move"][0] == 1  # 3♦ leads: the diamonds hand
    assert np.array_equal(obs["observation"][0], encode_game(games[0], 1))
    # a (N, players) array of masks works too, and the deals go on after the given one
    venv.reset(options={"hands": np.array([masks] * 3, dtype=np.uint64)})
    assert all(list(g.initial_hands) == masks for g in venv.games)
    rng = np.random.default_rng(0)
    ended = np.zeros(3, dtype=bool)
    for _ in range(300):
        ended |= venv.step(venv.sample(rng))[2]
    assert ended.all() and all(list(g.initial_hands) != masks for g in venv.games)


def test_options_hands_work_with_workers() -> None:
    deals = [None, HANDS, None, None, HANDS]
    with VectorEnv(5, "classic", seed=6, workers=2) as two:
        a, _ = two.reset(options={"hands": deals})
    one = VectorEnv(5, "classic", seed=6)
    b, _ = one.reset(options={"hands": deals})
    assert all(np.array_equal(a[k], b[k]) for k in b)
    assert list(one.games[4].initial_hands) == [int(CardSet.parse(h)) for h in HANDS]


@pytest.mark.parametrize(("hands", "error", "message"), [
    ([HANDS], ValueError, r"one deal \(or None\) per game: 2 games, got 1"),
    ([HANDS, HANDS[:3]], ValueError, r"\[1\]: expected 4 hands \(one per seat\), got 3"),
    ([HANDS, [HANDS[0], HANDS[0], HANDS[2], HANDS[3]]], ValueError,
     r"\[1\]: the same card is in two hands: 3♣ \(seats 0 and 1\)"),
    ([None, [[0, 1, 52], [2], [3], [4]]], ValueError, r"\[1\]\[0\]: 52 is not a card number"),
    ([None, [[0, 1, -1], [2], [3], [4]]], ValueError, r"\[1\]\[0\]: -1 is not a card number"),
    ([None, [1 << 52, 2, 4, 8]], ValueError, (r"\[1\]\[0\]: the mask 0x10000000000000 holds "
                                              r"card numbers above 51")),
    ([None, [-1, 2, 4, 8]], ValueError, r"\[1\]\[0\]: a negative mask"),
    ([None, [[0, 0], [2], [3], [4]]], ValueError, r"\[1\]\[0\]: lists 3♦ twice"),
    ([None, ["3D XX", "4D", "5D", "6D"]], ValueError, r"\[1\]\[0\]: .*XX"),
    ([None, [1, 0, 4, 8]], ValueError, r"\[1\]: seat 1 has no cards"),
    ([None, [(1 << 14) - 1, 1 << 20, 1 << 21, 1 << 22]], ValueError,
     r"\[1\]: seat 0 has 14 cards; this env's hands hold at most 13"),
    ([None, [1.5, 2, 4, 8]], TypeError, r"\[1\]\[0\]: a hand is a mask"),
    ([None, [True, 2, 4, 8]], TypeError, (r"\[1\]\[0\]: a hand is a mask, card text or card "
                                          r"numbers, not a bool")),
    ([None, "3D"], TypeError, r"\[1\]: a deal is a list of 4 hands"),
    ("3D", TypeError, r"options\['hands'\] must be a list of one deal per game"),
    (np.zeros((2, 3), dtype=np.uint64), ValueError, r"shape \(2, 4\) \(games, seats\), not \(2, 3\)"),
    (np.zeros((2, 4)), TypeError, "integer masks, not float64"),
])
def test_bad_hands_are_refused_by_name_and_change_nothing(hands: Any, error: type[Exception],
                                                          message: str) -> None:
    venv = VectorEnv(2, "classic", seed=0)
    obs, _ = venv.reset()
    games = venv.games
    with pytest.raises(error, match=message):
        venv.reset(options={"hands": hands})
    assert venv.games == games and venv.observations() is obs


def test_bad_reset_arguments_are_refused() -> None:
    venv = VectorEnv(2, "classic", seed=0)
    with pytest.raises(ValueError, match=r"unknown reset options \['deal'\]; accepted: \['hands'\]"):
        venv.reset(options={"deal": HANDS})
    with pytest.raises(TypeError, match="options must be a dict"):
        venv.reset(options=[("hands", None)])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int or None, not str"):
        venv.reset(seed="1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed must be an int or None, not float"):
        venv.reset(seed=1.0)  # type: ignore[arg-type]
    venv.reset(options={"hands": None})  # no hands asked for: dealt as usual


# -- seeds, bad actions, wrappers ------------------------------------------------------------


def test_reset_with_a_seed_replays_and_seeds_np_random() -> None:
    venv = VectorEnv(4, "pagat", players=3, seed=None)
    a, _ = venv.reset(seed=17)
    draw = venv.np_random.integers(1 << 30)
    venv.step(venv.sample(np.random.default_rng(0)))
    b, _ = venv.reset(seed=17)
    assert venv.np_random.integers(1 << 30) == draw
    c, _ = venv.reset(seed=18)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not np.array_equal(a["observation"], c["observation"])
    assert venv.np_random_seed == 18


@pytest.mark.parametrize(("actions", "message"), [
    (None, r"shape \(3,\), not \(\)"),
    ([[0, 1, 2]], r"shape \(3,\), not \(1, 3\)"),
    (np.zeros((3, 1), dtype=np.int64), r"shape \(3,\), not \(3, 1\)"),
    (["a", "b", "c"], "integer ids, not <U1"),
    ([0.0, 1.0, 2.0], "integer ids, not float64"),
    ([True, False, True], "integer ids, not bool"),
    ([0, -1, 9], r"out of range in games 1 \(-1\)"),
])
def test_bad_action_arrays_raise_naming_the_problem(actions: Any, message: str) -> None:
    venv = VectorEnv(3, "classic", seed=0)
    venv.reset()
    with pytest.raises(ValueError, match=message):
        venv.step(actions)
    venv.step(venv.sample())  # nothing moved, and the env goes on


def test_gymnasiums_vector_wrappers_run_on_it() -> None:
    from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

    venv = RecordEpisodeStatistics(VectorEnv(4, "classic", seed=3))
    venv.reset(seed=3)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(300):
        _obs, _rewards, _terminated, _, infos = venv.step(venv.unwrapped.sample(rng))
        if "episode" in infos:
            episodes += int(infos["_episode"].sum())
            done = infos["_episode"]
            assert (infos["episode"]["l"][done] > 0).all()
    assert episodes > 0
    listed = DictInfoToList(VectorEnv(2, "classic", seed=1))
    _, infos = listed.reset()
    assert infos == [{}, {}]
    _, _, _, _, infos = listed.step(listed.unwrapped.sample())  # type: ignore[attr-defined]
    assert isinstance(infos, list) and len(infos) == 2 and "seat_rewards" in infos[0]
