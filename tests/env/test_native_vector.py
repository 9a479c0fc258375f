"""VectorEnv on the compiled core: when it is chosen, and the Gymnasium API it
keeps (the positions themselves are held to Python games in
tests/env/test_native_games.py)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from big2.cards import CardSet
from big2.env.native_vector import NativeVectorEnv
from big2.env.vector import VectorEnv
from big2.rules import Rules

HANDS = ["3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D", "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C",
         "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H", "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S"]


def test_the_core_plays_what_it_can() -> None:
    assert type(VectorEnv(4, "classic")) is NativeVectorEnv
    assert type(VectorEnv(4, "pagat", players=3)) is NativeVectorEnv
    for kw in ({"engine": "python"}, {"opponents": "greedy"}, {"actions": "rule"}):
        assert type(VectorEnv(4, "classic", **kw)) is VectorEnv  # type: ignore[arg-type]
    assert type(VectorEnv(4, "singapore")) is VectorEnv  # the winner leads the next deal
    with pytest.raises(ValueError, match="engine='native' cannot play these games: opponents"):
        VectorEnv(4, "classic", opponents="greedy", engine="native")
    with pytest.raises(ValueError, match="engine must be"):
        VectorEnv(4, "classic", engine="fast")  # type: ignore[arg-type]


def test_it_steps_under_gymnasiums_api() -> None:
    venv = VectorEnv(16, "classic", seed=1)
    assert isinstance(venv, gymnasium.vector.VectorEnv)
    obs, infos = venv.reset()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(200):
        assert venv.single_observation_space.contains(
            {k: v[0] for k, v in obs.items()})
        mask = obs["action_mask"]
        assert mask.dtype == np.bool_ and mask.any(axis=1).all()
        actor = obs["to_move"].copy()
        actions = venv.sample(rng)
        assert mask[np.arange(16), actions].all()
        obs, rewards, term, trunc, infos = venv.step(actions)
        assert not trunc.any() and rewards.dtype == np.float32
        assert (rewards == infos["seat_rewards"][np.arange(16), actor]).all()
        for i in np.flatnonzero(term):
            final = infos["final_obs"][i]
            assert final["to_move"] == actor[i] and not final["action_mask"].any()
            assert infos["seat_rewards"][i].sum() == 0 or infos["seat_rewards"][i].any()
            ended += 1
        assert (rewards[~term] == 0).all()
    assert ended > 0 and venv.deals == ended


def test_a_seed_replays() -> None:
    a, b = VectorEnv(8, "classic", seed=5), VectorEnv(8, "classic", seed=5)
    oa, _ = a.reset()
    ob, _ = b.reset()
    assert (oa["observation"] == ob["observation"]).all()
    again, _ = a.reset()
    assert (again["observation"] == oa["observation"]).all()
    other, _ = a.reset(seed=6)
    assert not (other["observation"] == oa["observation"]).all()


def test_chosen_hands_give_the_python_envs_position() -> None:
    deals: list[list[str] | None] = [None, HANDS, None]
    native = VectorEnv(3, "classic", seed=2)
    python = VectorEnv(3, "classic", seed=2, engine="python")
    on, _ = native.reset(options={"hands": deals})
    op, _ = python.reset(options={"hands": deals})
    assert [int(h) for h in native.hands()[1]] == [int(CardSet.parse(h)) for h in HANDS]
    for key in ("observation", "to_move", "action_mask"):
        assert (on[key][1] == op[key][1]).all()
    assert native.legal_ids()[1].tolist() == python.legal_ids()[1].tolist()


def test_bad_input_is_refused_by_name() -> None:
    venv = VectorEnv(2, "classic", seed=0)
    obs, _ = venv.reset()
    with pytest.raises(ValueError, match="the same card is in two hands"):
        venv.reset(options={"hands": [None, [HANDS[0], HANDS[0], HANDS[2], HANDS[3]]]})
    with pytest.raises(ValueError, match="shape"):
        venv.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="illegal actions in games"):
        bad = np.array([int(np.flatnonzero(~obs["action_mask"][i])[0]) for i in range(2)])
        venv.step(bad)
    with pytest.raises(RuntimeError, match="no Game objects"):
        _ = venv.games


def test_an_illegal_action_can_end_its_deal() -> None:
    venv = VectorEnv(2, Rules(), seed=0, illegal="end", illegal_reward=-5.0)
    obs, _ = venv.reset()
    wrong = int(np.flatnonzero(~obs["action_mask"][0])[0])
    acts = np.array([wrong, venv.sample(np.random.default_rng(0))[1]])
    before = obs["observation"][0].copy()
    mover = int(obs["to_move"][0])
    obs, rewards, term, _, infos = venv.step(acts)
    assert term[0] and infos["illegal"][0] and rewards[0] == -5.0
    assert infos["seat_rewards"][0, mover] == -5.0
    assert (infos["final_obs"][0]["observation"] == before).all()  # the position it left
