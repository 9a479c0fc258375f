"""VectorEnv over its backends (issue 40): which one steps the games, one seed one
stream (the same hands on the Python engine, the core, and any number of workers),
the same trajectories for the same actions, ``games`` and every documented method
on every backend, reusable observation buffers, and the same errors everywhere.
The core's positions themselves are held to Python games in
tests/env/test_native_games.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import gymnasium
import numpy as np
import pytest

import big2._native as core
from big2.cards import CardSet
from big2.env.deals import GOLDEN, DealStream
from big2.env.native_backends import native_env_reason
from big2.env.native_games import MIN_SHARE
from big2.env.observation import encode_game
from big2.env.vector import VectorEnv
from big2.rules import Rules
from big2.variant import variant

HANDS = ["3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D", "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C",
         "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H", "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2S"]
BACKENDS: list[dict[str, Any]] = [{}, {"engine": "python"}, {"workers": 2},
                                  {"engine": "python", "workers": 2}]


def envs(n: int, rules: str = "classic", **kw: Any) -> list[VectorEnv]:
    """One env per backend: the core, Python, the core in 2 workers, Python in 2."""
    return [VectorEnv(n, rules, **kw, **b) for b in BACKENDS]


@pytest.fixture(scope="module")
def every() -> Iterator[list[VectorEnv]]:
    """Six classic games on each backend (the workers started once for the module)."""
    out = envs(6, seed=3)
    yield out
    for venv in out:
        venv.close()


def test_the_backend_is_chosen_in_init() -> None:
    assert VectorEnv(4, "classic").backend == "native"
    assert VectorEnv(4, "pagat", players=3).backend == "native"
    for kw in ({"engine": "python"}, {"opponents": "greedy"}, {"actions": "rule"}):
        venv = VectorEnv(4, "classic", **kw)  # type: ignore[arg-type]
        assert type(venv) is VectorEnv and venv.backend == "python"
    assert VectorEnv(4, "singapore").backend == "python"  # the winner leads the next deal
    with pytest.raises(ValueError, match="engine='native' cannot play these games: opponents"):
        VectorEnv(4, "classic", opponents="greedy", engine="native")
    with pytest.raises(ValueError, match="engine must be"):
        VectorEnv(4, "classic", engine="fast")  # type: ignore[arg-type]


def test_the_python_stream_is_the_cores() -> None:
    for rules, seed, game in ((Rules(), 0, 0), (Rules(), 7, 5), (Rules(players=3), 3, 2),
                              (Rules.preset("taiwan", players=3), 11, 1)):
        stream = DealStream(rules, seed, game)
        tables = variant(rules, engine="native").engine.tables  # type: ignore[attr-defined]
        hands, _, _ = core.deal(tables, (seed * GOLDEN + game) % (1 << 64), 0)
        assert stream.deal() == hands


def test_one_seed_deals_the_same_hands_on_every_backend(every: list[VectorEnv]) -> None:
    def dealt(venv: VectorEnv, seed: int) -> np.ndarray:
        venv.reset(seed=seed)
        return venv.hands()

    for seed in (4, 123456789):
        hands = [dealt(venv, seed) for venv in every]
        assert all(np.array_equal(hands[0], h) for h in hands[1:]), seed
    assert not np.array_equal(hands[0], dealt(every[0], 5))
    for rules, players in (("pagat", 3), ("taiwan", 3)):  # a left-over card, one aside
        pair = [VectorEnv(3, rules, players=players, seed=1, engine=e)
                for e in ("native", "python")]
        assert np.array_equal(dealt(pair[0], 8), dealt(pair[1], 8))


def test_the_same_actions_give_the_same_games_on_every_backend(every: list[VectorEnv]) -> None:
    for venv in every:
        venv.reset(seed=9, options={"hands": [None, HANDS] + [None] * 4})
    rng = np.random.default_rng(0)
    for _ in range(120):  # through several deals each: the streams go on alike
        acts = every[0].sample(rng)
        ref, *rest = [venv.step(acts) for venv in every]
        for out in rest:
            for key in ("observation", "to_move", "action_mask"):
                assert np.array_equal(out[0][key], ref[0][key])
            assert np.array_equal(out[1], ref[1]) and np.array_equal(out[2], ref[2])
            assert np.array_equal(out[4]["seat_rewards"], ref[4]["seat_rewards"])
    assert len({venv.deals for venv in every}) == 1 and every[0].deals > 4
    assert len({str(venv.legal_ids()) for venv in every}) == 1
    plays = [venv.legal_plays() for venv in every]
    assert all(np.array_equal(p.cards, plays[0].cards) and np.array_equal(p.ids, plays[0].ids)
               for p in plays)
    # games on every backend: the positions, the legal plays, the histories
    histories = []
    for venv in every:
        obs = venv.observations()
        games = venv.games
        assert [g.to_move for g in games] == obs["to_move"].tolist()
        assert np.array_equal(np.array([g.hands for g in games], np.uint64), venv.hands())
        for i, g in enumerate(games):
            assert np.array_equal(encode_game(g, g.to_move), obs["observation"][i])
            ids = np.flatnonzero(obs["action_mask"][i])
            assert {int(m) for m in venv.decode(np.full(len(ids), i), ids)} == set(
                g.legal_masks())
        histories.append([g.history for g in games])
    assert all(h == histories[0] for h in histories)


def test_it_steps_under_gymnasiums_api_on_the_core() -> None:
    venv = VectorEnv(16, "classic", seed=1)
    assert isinstance(venv, gymnasium.vector.VectorEnv)
    obs, infos = venv.reset()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(200):
        assert venv.single_observation_space.contains({k: v[0] for k, v in obs.items()})
        actor = obs["to_move"].copy()
        actions = venv.sample(rng)
        assert obs["action_mask"][np.arange(16), actions].all()
        obs, rewards, term, trunc, infos = venv.step(actions)
        assert not trunc.any() and rewards.dtype == np.float32
        assert (rewards == infos["seat_rewards"][np.arange(16), actor]).all()
        for i in np.flatnonzero(term):
            final = infos["final_obs"][i]
            assert final["to_move"] == actor[i] and not final["action_mask"].any()
            ended += 1
        assert (rewards[~term] == 0).all()
    assert ended > 0 and venv.deals == ended


@pytest.mark.parametrize("backend", BACKENDS[:3])
def test_reused_observation_buffers(backend: dict[str, Any]) -> None:
    with VectorEnv(4, "classic", seed=5, reuse_obs=True, **backend) as reused, \
            VectorEnv(4, "classic", seed=5, **backend) as fresh:
        a, _ = reused.reset()
        b, _ = fresh.reset()
        arrays = {k: id(v) for k, v in a.items()}
        rng = np.random.default_rng(2)
        for _ in range(30):
            acts = fresh.sample(rng)
            a = reused.step(acts)[0]
            b2 = fresh.step(acts)[0]
            assert {k: id(v) for k, v in a.items()} == arrays  # the same arrays, rewritten
            assert all(np.array_equal(a[k], b2[k]) for k in b2)
            assert not np.shares_memory(b2["observation"], b["observation"])
            b = b2


def test_bad_input_raises_the_same_words_on_every_backend(every: list[VectorEnv]) -> None:
    messages = []
    for venv in every:
        obs, _ = venv.reset(seed=0)
        with pytest.raises(ValueError, match="the same card is in two hands"):
            venv.reset(options={"hands": [None, [HANDS[0], HANDS[0], HANDS[2], HANDS[3]]]
                                + [None] * 4})
        obs, _ = venv.reset(seed=0)
        with pytest.raises(ValueError, match="shape"):
            venv.step(np.zeros(4, np.int64))
        with pytest.raises(ValueError, match="out of range"):
            venv.step(np.full(6, 10**6))
        bad = np.array([int(np.flatnonzero(~obs["action_mask"][i])[k])
                        for i, k in enumerate((0, 1, 30, 2, 3, 4))])
        with pytest.raises(ValueError, match="illegal actions in games") as err:
            venv.step(bad)
        messages.append(str(err.value))
        venv.step(venv.sample(np.random.default_rng(0)))  # nothing moved: still legal
    assert len(set(messages)) == 1, messages
    assert "does not beat" in messages[0] or "must contain" in messages[0] or \
        "beyond the hand" in messages[0]


BAD_ARRAYS: list[Any] = [
    np.zeros(4, np.int64), np.zeros(7, np.int64), np.zeros((6, 1), np.int64),
    np.zeros((1, 6), np.int64), np.int64(0), [], np.zeros(6), np.zeros(6, np.float32),
    np.zeros(6, bool), np.array(["0"] * 6), np.array([None] * 6), [0, 1, 2, 3, 4, 5.5],
    np.full(6, -1), np.full(6, 10**6), np.array([0, 0, 0, 0, 0, 2**63], np.uint64),
    [[0, 1], [2]],
]
"""Action arrays of the wrong shape, dtype or range (ids out of range included)."""


def test_bad_action_arrays_raise_the_same_words_and_move_nothing(every: list[VectorEnv]) -> None:
    """Wrong shapes and dtypes: the same exception type and words on the core and on
    the Python engine, here or in workers, before any game moves."""
    seen: list[list[str]] = []
    for venv in every:
        venv.reset(seed=1)
        before = venv.hands().copy(), venv.observations()["to_move"].copy()
        words = []
        for bad in BAD_ARRAYS:
            with pytest.raises((ValueError, TypeError)) as err:
                venv.step(bad)
            words.append(f"{err.type.__name__}: {err.value}")
        assert np.array_equal(venv.hands(), before[0])
        assert np.array_equal(venv.observations()["to_move"], before[1])
        seen.append(words)
    assert all(words == seen[0] for words in seen[1:])
    assert sum("shape" in w for w in seen[0]) >= 5 and sum("integer ids" in w for w in seen[0]) >= 4


def test_chosen_hands_are_dealt_on_the_core() -> None:
    venv = VectorEnv(3, "classic", seed=2)
    venv.reset(options={"hands": [None, HANDS, None]})
    assert [int(h) for h in venv.hands()[1]] == [int(CardSet.parse(h)) for h in HANDS]
    assert list(venv.games[1].initial_hands) == [int(CardSet.parse(h)) for h in HANDS]


def test_an_illegal_action_can_end_its_deal_on_the_core() -> None:
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


def _native_setups() -> list[tuple[str, int]]:
    out = []
    for name in Rules.presets():
        for players in (2, 3, 4):
            try:
                rules = Rules.preset(name, players=players)
            except ValueError:
                continue
            if native_env_reason(rules, opponents=None, actions="hand") is None:
                out.append((name, players))
    return out


@pytest.mark.nightly
@pytest.mark.parametrize(("name", "players"), _native_setups())
def test_every_native_preset_steps_alike_on_both_engines(name: str, players: int) -> None:
    """Every preset and table size the core steps: the core's and the Python engine's
    VectorEnv, one seed and the same actions, give the same observations, histories
    and rebuilt games."""
    rules = Rules.preset(name, players=players)
    native, python = VectorEnv(3, rules, seed=1), VectorEnv(3, rules, seed=1, engine="python")
    native.reset()
    python.reset()
    rng = np.random.default_rng(0)
    for _ in range(120):
        acts = native.sample(rng)
        a, b = native.step(acts)[0], python.step(acts)[0]
        assert all(np.array_equal(a[k], b[k]) for k in a)
    assert [g.history for g in native.games] == [g.history for g in python.games]
    for i, g in enumerate(native.games):
        assert np.array_equal(encode_game(g, g.to_move), a["observation"][i])


def test_core_threads_step_the_same_games_and_hand_over_their_arrays() -> None:
    """``workers=2`` on the core: two of the core's threads (256 games: two shares of
    128) give the games of one, and each step's observations stay as they were when the
    next steps write theirs (the core writes into new arrays after handing them over)."""
    with VectorEnv(2 * MIN_SHARE, "classic", seed=9, workers=2) as two, \
            VectorEnv(2 * MIN_SHARE, "classic", seed=9) as one:
        assert two.backend == one.backend == "native"
        assert two._games.nat.threads == 2 and one._games.nat.threads == 1  # type: ignore[attr-defined]
        a, _ = two.reset()
        one.reset()
        kept = [(a, {k: v.copy() for k, v in a.items()})]
        rng = np.random.default_rng(4)
        ended = 0
        for _ in range(80):
            acts = one.sample(rng)
            got, want = two.step(acts), one.step(acts)
            for x, y in zip(got[:4], want[:4]):
                if isinstance(x, dict):
                    assert all(np.array_equal(x[k], y[k]) for k in y)
                else:
                    assert np.array_equal(x, y)
            assert np.array_equal(got[4]["seat_rewards"], want[4]["seat_rewards"])
            ended += int(got[2].sum())
            kept.append((got[0], {k: v.copy() for k, v in got[0].items()}))
        assert ended > 0
        for obs, copy in kept:  # nothing handed over was written again
            assert all(np.array_equal(obs[k], copy[k]) for k in copy)
