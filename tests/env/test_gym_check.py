"""Gymnasium's and PettingZoo's own checkers pass on the environments as made,
with default arguments: ``check_env`` samples any action, so an illegal one
ends the episode by default (``illegal="end"``) rather than raising."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

import big2.env.gym  # noqa: F401  registers Big2-v0
from big2 import IllegalPlayError, Rules
from big2.env import Big2AECEnv, Big2Env
from big2.env.actions import NUM_ACTIONS, PASS_ACTION, InvalidActionError
from big2.env.core import EnvTable
from big2.env.observation import LAYOUT, OBS_SIZE

WRAPPED = "is different from the unwrapped version"
"""check_env's note that it was given a wrapped env: what ``gymnasium.make`` returns."""


@contextmanager
def no_warnings(allowed: tuple[str, ...] = ()) -> Iterator[None]:
    """Fail on any warning whose text holds none of *allowed*."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    bad = [str(w.message) for w in caught if not any(a in str(w.message) for a in allowed)]
    assert not bad, bad


def test_check_env_passes_on_the_registered_env_with_defaults(capsys: pytest.CaptureFixture[str],
                                                              ) -> None:
    with no_warnings():
        check_env(gymnasium.make("Big2-v0").unwrapped)
    with no_warnings(allowed=(WRAPPED,)):
        check_env(gymnasium.make("Big2-v0"))
    assert "Big Two" in capsys.readouterr().out  # the "human" render mode was tried: it prints


@pytest.mark.parametrize("kwargs", [
    {"rules": "pagat", "players": 3, "opponents": "greedy", "seat": None},
    {"rules": Rules(go_fish=True, deal="13-each", players=2)},  # counts past 26, a stock
    {"rules": Rules(spare_to="aside", spare_swap=True, players=3), "reward": "win"},
    {"rules": Rules(teams=True, passing="lock-out")},
], ids=["pagat-3", "go_fish-2", "spare-aside-3", "teams"])
def test_check_env_under_house_rules(kwargs: dict[str, Any]) -> None:
    with no_warnings():
        check_env(Big2Env(**kwargs), skip_render_check=True)


def test_spaces() -> None:
    env = gymnasium.make("Big2-v0").unwrapped
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Box)
    assert space.shape == (OBS_SIZE,) == (635,) and space.dtype == np.int8
    assert (space.low == 0).all() and (space.high == 1).all()
    assert sum(sl.stop - sl.start for sl in LAYOUT.values()) == OBS_SIZE
    assert env.action_space == gymnasium.spaces.Discrete(NUM_ACTIONS)
    obs, info = env.reset(seed=0)
    assert obs in space and obs.dtype == np.int8
    assert info["action_mask"].dtype == np.bool_ and info["action_mask"].shape == (NUM_ACTIONS,)
    # the action space samples from the env's bool mask: a legal id every time
    for _ in range(20):
        assert int(env.action_space.sample(info["action_mask"])) in info["legal_actions"]


def test_every_env_gives_bool_masks() -> None:
    """One mask dtype: the AEC observation's mask (and its space), the Gymnasium
    env's info mask and ``action_masks()``, and the vector env's batch."""
    from big2.env import VectorEnv

    aec = Big2AECEnv("classic")
    aec.reset(seed=0)
    obs = aec.observe(aec.agent_selection)
    assert obs["action_mask"].dtype == np.bool_
    assert obs in aec.observation_space(aec.agent_selection)
    assert aec.observation_space(aec.agent_selection)["action_mask"].dtype == np.bool_
    legal = np.flatnonzero(obs["action_mask"])
    assert int(aec.action_space(aec.agent_selection).sample(obs["action_mask"])) in legal
    env = Big2Env()
    _, info = env.reset(seed=0)
    assert info["action_mask"].dtype == env.action_masks().dtype == np.bool_
    venv = VectorEnv(2, seed=0)
    vobs, _ = venv.reset()
    assert vobs["action_mask"].dtype == np.bool_
    assert venv.single_observation_space["action_mask"].dtype == np.bool_


def test_an_illegal_action_ends_the_episode_by_default() -> None:
    env = Big2Env()
    assert env.illegal == "end"
    _, info = env.reset(seed=1)
    leading = env.game.leading
    bad = PASS_ACTION if leading else next(a for a in range(1, 53)
                                           if a not in info["legal_actions"])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    assert info["reason"] and obs.shape == (OBS_SIZE,)
    assert not env.game.is_over()  # the deal itself is left where it was
    with pytest.raises(RuntimeError, match="reset"):
        env.step(info["legal_actions"][0])
    env.reset()  # and the next episode starts
    assert env.game.to_move == env.seat


def test_raise_is_still_available() -> None:
    env = Big2Env(illegal="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalPlayError, match="you do not hold|first play|leader cannot pass"):
        env.step(next(a for a in range(1, 53) if a not in env.table.legal_actions()))
    info = env.step(env.table.legal_actions()[0])[4]  # the episode goes on
    assert "illegal" not in info
    with pytest.raises(ValueError, match="illegal must be"):
        Big2Env(illegal="ignore")


@pytest.mark.parametrize("illegal", ["end", "raise"])
def test_ids_outside_the_space_and_steps_out_of_an_episode(illegal: str) -> None:
    env = Big2Env(illegal=illegal)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)  # no reset yet
    _, info = env.reset(seed=2)
    for bad in (-1, NUM_ACTIONS, 2.5):
        with pytest.raises(InvalidActionError):
            env.step(bad)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(info["legal_actions"][-1])
    assert env.game.is_over()
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(PASS_ACTION)


def test_seeded_episodes_repeat() -> None:
    def episode(env: gymnasium.Env[Any, Any], seed: int) -> list[Any]:
        obs, info = env.reset(seed=seed)
        out: list[Any] = [obs.tobytes()]
        done = False
        while not done:
            legal = info["legal_actions"]
            obs, reward, done, _, info = env.step(legal[len(out) % len(legal)])
            out.append((obs.tobytes(), reward))
        return out

    a = gymnasium.make("Big2-v0", seat=None, opponents="greedy")
    b = gymnasium.make("Big2-v0", seat=None, opponents="greedy")
    assert episode(a, 9) == episode(b, 9) == episode(a, 9)
    assert episode(a, 9) != episode(a, 10)


def _instant_seed(rules: Rules) -> int:
    """A seed whose first deal a dealt hand ends at once."""
    return next(s for s in range(3000) if EnvTable(rules, seed=s).game.is_over())


def test_a_deal_over_before_the_learners_turn_is_skipped() -> None:
    rules = Rules(four_twos="win")
    seed = _instant_seed(rules)
    env = Big2Env(rules)
    obs, info = env.reset(seed=seed)
    assert env.game.to_move == env.seat and info["legal_actions"]
    assert len(env.table.match.results) == 1  # the instant deal counts in the match
    assert obs in env.observation_space


def test_aec_reset_into_a_deal_over_at_once() -> None:
    rules = Rules(maltese=True)
    env = Big2AECEnv(rules)
    env.reset(seed=_instant_seed(rules))
    assert env.game.is_over() and all(env.terminations.values())
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        returns[agent] += reward
        env.step(None)
    assert tuple(returns.values()) == env.game.scores()


# -- PettingZoo: test_env.py runs api_test and seed_test under presets; these rule sets
#    fill the newer fields (a Go-Fish stock and counts past 26, a face-up spare) -------

AEC_SETUPS: list[tuple[str, Callable[[], Big2AECEnv]]] = [
    ("go_fish-2", lambda: Big2AECEnv(Rules(go_fish=True, deal="13-each", players=2))),
    ("go_fish-aside-3", lambda: Big2AECEnv(Rules(go_fish=True, spare_to="aside", players=3))),
    ("spare-aside-3", lambda: Big2AECEnv(Rules(spare_to="aside", players=3), reward="win")),
]


@pytest.mark.parametrize("make", [m for _, m in AEC_SETUPS], ids=[i for i, _ in AEC_SETUPS])
def test_pettingzoo_api_and_seed_under_house_rules(make: Callable[[], Big2AECEnv]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the API test warns that dict observations are not arrays
        api_test(make(), num_cycles=60)
        seed_test(make, num_cycles=20)
