"""The core's batched stepping (:class:`big2._native.Batch`) against Python games.

Each game of a batch is followed by a :class:`~big2.Game` on the Python
reference engine dealt the same hands: legal plays, moves and scores must agree
step by step, through auto-resets; threads must not change the results; bad
arrays raise before any game moves.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from python_engine import python_game

from big2 import Rules
from big2.observation import OBS_SIZE, encode_game, observation_layout
from big2.variant import native, variant

_native = native._native
pytestmark = pytest.mark.skipif(_native is None, reason="big2._native is not built")


class Arrays:
    """Preallocated buffers for a batch of *n* games."""

    def __init__(self, n: int, players: int, width: int = 512) -> None:
        self.masks = np.zeros((n, width), np.uint64)
        self.counts = np.zeros(n, np.int64)
        self.hands = np.zeros((n, players), np.uint64)
        self.to_move = np.zeros(n, np.int64)
        self.last = np.zeros(n, np.uint64)
        self.scores = np.zeros((n, players), np.int64)
        self.done = np.zeros(n, np.bool_)
        self.obs = np.zeros((n, OBS_SIZE), np.int8)


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("options", [{}, {"players": 3}, {"players": 2, "passing": "lock-out"},
                                     {"scoring": "ranking", "direction": "clockwise"},
                                     {"players": 3, "spare_to": "aside", "trick_end": "one-pass"},
                                     {"deal": "13-each", "players": 3, "opening": "alone"}],
                         ids=str)
def test_batch_matches_python_games(options: dict[str, object]) -> None:
    rules = Rules(**options)  # type: ignore[arg-type]
    n, p = 6, rules.players
    batch = _native.Batch(variant(rules).engine.tables, n, 11, 2)  # type: ignore[attr-defined]
    a = Arrays(n, p)
    batch.state_into(a.hands, a.to_move, a.last)
    games = [python_game(rules, [int(h) for h in a.hands[i]], 0) for i in range(n)]
    deals = [0] * n
    layout = observation_layout()
    rng = random.Random(3)
    for _ in range(400):
        most = batch.legal_into(a.masks, a.counts)
        if most > a.masks.shape[1]:  # cut at the width: widen and ask again
            a.masks = np.zeros((n, most), np.uint64)
            assert batch.legal_into(a.masks, a.counts) == most
        choices = np.zeros(n, np.int64)
        batch.observe_into(a.obs, layout)
        for i, g in enumerate(games):
            assert (a.obs[i] == encode_game(g, g.to_move)).all()
            legal = g.legal_masks()
            assert [int(m) for m in a.masks[i, :a.counts[i]]] == legal
            choices[i] = rng.randrange(len(legal))
            g.play(legal[choices[i]])
        batch.step(choices, a.scores, a.done)
        batch.state_into(a.hands, a.to_move, a.last)
        for i, g in enumerate(games):
            assert bool(a.done[i]) == g.is_over()
            if g.is_over():
                assert tuple(int(s) for s in a.scores[i]) == g.scores()
                deals[i] += 1
                games[i] = python_game(rules, [int(h) for h in a.hands[i]], deals[i] % p)
                assert int(a.to_move[i]) == games[i].to_move
            else:
                assert not a.scores[i].any()
                assert [int(h) for h in a.hands[i]] == g.hands
                assert int(a.to_move[i]) == g.to_move
                assert int(a.last[i]) == int(g.last_play)
    assert sum(deals) > 0


def test_threads_do_not_change_results() -> None:
    tables = variant(Rules()).engine.tables  # type: ignore[attr-defined]
    out = []
    for threads in (1, 3):
        batch = _native.Batch(tables, 10, 5, threads)
        a = Arrays(10, 4)
        rng = np.random.default_rng(0)
        trace = []
        for _ in range(200):
            batch.legal_into(a.masks, a.counts)
            choices = (rng.random(10) * a.counts).astype(np.int64)
            batch.step(choices, a.scores, a.done)
            trace.append(a.scores.copy())
        batch.state_into(a.hands, a.to_move, a.last)
        out.append((np.array(trace), a.hands.copy()))
    assert (out[0][0] == out[1][0]).all() and (out[0][1] == out[1][1]).all()
    steps, deals = _native.Batch(tables, 8, 1, 2).random_steps(100, 3)
    assert steps == 800 and deals > 0


def test_calls_from_several_threads_take_turns() -> None:
    import threading

    tables = variant(Rules()).engine.tables  # type: ignore[attr-defined]
    batch = _native.Batch(tables, 64, 2, 2)
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        a = Arrays(64, 4)
        rng = np.random.default_rng(seed)
        try:
            for _ in range(150):
                batch.legal_into(a.masks, a.counts)
                choices = (rng.random(64) * a.counts).astype(np.int64)
                try:
                    batch.step(choices, a.scores, a.done)
                except ValueError:
                    pass  # another thread stepped between our listing and our step
                batch.observe_into(a.obs, observation_layout())
        except BaseException as exc:  # noqa: BLE001 - a thread's error, reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    a = Arrays(64, 4)
    batch.state_into(a.hands, a.to_move, a.last)
    assert all(int(np.bitwise_or.reduce(a.hands[i])) & ~((1 << 52) - 1) == 0 for i in range(64))


def test_bad_arrays_raise_before_any_game_moves() -> None:
    tables = variant(Rules()).engine.tables  # type: ignore[attr-defined]
    batch = _native.Batch(tables, 4, 1)
    a = Arrays(4, 4)
    batch.state_into(a.hands, a.to_move, a.last)
    before = a.hands.copy()
    with pytest.raises(TypeError, match="dtype"):
        batch.legal_into(a.masks.astype(np.int64), a.counts)
    with pytest.raises(ValueError, match="dimension"):
        batch.legal_into(a.masks, np.zeros(5, np.int64))
    with pytest.raises(ValueError, match="dimensions"):
        batch.state_into(a.hands.ravel(), a.to_move, a.last)
    with pytest.raises(ValueError, match="contiguous"):
        batch.state_into(np.zeros((4, 8), np.uint64)[:, ::2], a.to_move, a.last)
    with pytest.raises(ValueError, match="legal plays"):
        batch.step(np.array([0, 0, 0, 10_000], np.int64), a.scores, a.done)
    with pytest.raises(ValueError, match="legal plays"):
        batch.step(np.array([0, -1, 0, 0], np.int64), a.scores, a.done)
    readonly = np.zeros(4, np.bool_)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        batch.step(np.zeros(4, np.int64), a.scores, readonly)
    with pytest.raises(TypeError):
        batch.step([0, 0, 0, 0], a.scores, a.done)
    with pytest.raises(ValueError, match="layout"):
        batch.observe_into(a.obs, {"hand": 0})
    bad = dict(observation_layout(), size=10)
    with pytest.raises(ValueError, match="layout"):
        batch.observe_into(a.obs, bad)
    # an offset that would write outside the buffer, or is no int, is refused by name
    for value, error, message in [(-100_000, ValueError, r"layout\['hand'\]: -100000 is outside"),
                                  (1 << 40, ValueError, r"layout\['hand'\]: 1099511627776 is outside"),
                                  (1.5, TypeError, r"layout\['hand'\]: expected an int, got float"),
                                  ("0", TypeError, r"layout\['hand'\]: expected an int, got str"),
                                  (True, TypeError, r"layout\['hand'\]: expected an int, got bool")]:
        with pytest.raises(error, match=message):
            batch.observe_into(a.obs, dict(observation_layout(), hand=value))
    with pytest.raises(ValueError, match="dimension"):
        batch.observe_into(a.obs[:, :600].copy(), observation_layout())
    with pytest.raises(ValueError, match="num_envs"):
        _native.Batch(tables, 0, 1)
    batch.state_into(a.hands, a.to_move, a.last)
    assert (a.hands == before).all()
