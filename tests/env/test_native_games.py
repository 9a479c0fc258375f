"""The native self-play backend (:class:`big2.env.native_games.NativeGames`)
against the Python reference.

Each native game is followed by a :class:`~big2.Game` on the Python engine
dealt the same hands (read from the core at every deal): at every step the
observation must equal :func:`big2.observation.encode_game`'s, the legal ids and
mask must be the reference's legal plays encoded as the Python ``VectorEnv``
encodes them (:meth:`HandActions.encode <big2.env.hand_actions.HandActions.encode>`
in the mover's hand), and a finished deal's scores and winner must be the
reference's — over many random deals of several presets.
"""

from __future__ import annotations

import gc
import hashlib
import os
import random
import signal
import time

import numpy as np
import pytest
from python_engine import python_engine, python_game

from big2 import Rules
from big2.env.hand_actions import HandActions, max_hand
from big2.env.native_games import MIN_SHARE, NativeGames, native_games_reason
from big2.observation import card_vectors, encode_game
from big2.variant import native


def test_the_extension_is_built() -> None:
    assert native.available()
    assert native_games_reason(Rules()) is None


RULE_SETS = {
    "classic": Rules.preset("classic"),
    "pagat": Rules.preset("pagat"),
    "hong-kong": Rules.preset("hong-kong"),
    "taiwan": Rules.preset("taiwan"),
    "selfplay-2018": Rules.preset("selfplay-2018"),
    "hawaii": Rules.preset("hawaii"),  # ranking scoring: the deal runs to the last seat
    "vietnam-straights": Rules.preset("vietnam-straights"),
    "three": Rules(players=3),
    "three-aside": Rules(players=3, spare_to="aside", trick_end="one-pass"),
    "two": Rules(players=2),
    "two-pagat": Rules.preset("pagat", players=2),
}


def _lockstep(rules: Rules, steps: int, seed: str, illegal_rate: float = 0.0) -> NativeGames:
    """Step native games and Python games side by side, checking everything the
    backend gives at every step; with *illegal_rate*, that share of the actions
    names no legal play (``illegal="end"``)."""
    n, p = 6, rules.players
    games = NativeGames(n, rules, seed=7, threads=2, illegal="end" if illegal_rate else "raise",
                        illegal_reward=-3.0)
    ha = HandActions(max_hand(rules))
    assert games.num_actions == ha.size
    hands = games.hands()
    ref = [python_game(rules, [int(h) for h in hands[i]], 0) for i in range(n)]
    dealt = [0] * n
    rng = random.Random(seed)
    for _ in range(steps):
        acts = np.zeros(n, np.int64)
        wrong = np.zeros(n, np.bool_)
        cards, ids, counts = games.legal_plays()
        for i, g in enumerate(ref):
            seat = g.to_move
            assert seat is not None and int(games.to_move[i]) == seat
            assert (games.observation[i] == encode_game(g, seat)).all()
            legal = g.legal_masks()
            want = ha.encode(np.array(legal, np.uint64), np.full(len(legal), g.hands[seat], np.uint64))
            assert int(games.counts[i]) == len(legal) == int(counts[i])
            assert games.legal_ids()[i].tolist() == want.tolist()
            assert ids[i, :len(legal)].tolist() == want.tolist() and (ids[i, len(legal):] == -1).all()
            assert (cards[i, :len(legal)] == card_vectors(np.array(legal, np.uint64))).all()
            assert not cards[i, len(legal):].any()
            assert np.flatnonzero(games.action_mask[i]).tolist() == sorted(want.tolist())
            if rng.random() < illegal_rate:
                wrong[i] = True
                acts[i] = next(a for a in iter(lambda: rng.randrange(ha.size), None) if a not in want)
                continue
            k = rng.randrange(len(legal))
            acts[i] = want[k]
            assert int(games.decode(np.array([i]), acts[i:i + 1])[0]) == legal[k]
            g.play(legal[k])
        movers = games.to_move.copy()
        scores, done = games.step(acts)
        win, score = games.rewards("win"), games.rewards("score")
        after = games.hands()
        assert (games.illegal == wrong).all()
        for i, g in enumerate(ref):
            assert bool(done[i]) == (g.is_over() or wrong[i])
            if wrong[i]:
                assert not scores[i].any() and int(games.winner[i]) == -1
                for r in (win, score):
                    assert r[i].tolist() == [-3.0 if s == movers[i] else 0.0 for s in range(p)]
            elif g.is_over():
                outcome = g.outcome()
                assert outcome is not None
                assert tuple(scores[i].tolist()) == g.scores() == outcome.scores
                assert score[i].tolist() == [float(x) for x in outcome.scores]
                assert int(games.winner[i]) == outcome.winner
                assert win[i].tolist() == [1.0 if s == outcome.winner else -1.0 for s in range(p)]
            else:
                assert not scores[i].any() and int(games.winner[i]) == -1
                assert not win[i].any() and not score[i].any()
                assert [int(h) for h in after[i]] == g.hands
                continue
            # the finished deal's last observation by the seat that acted
            assert (games.final_observation[i] == encode_game(g, int(movers[i]))).all()
            dealt[i] += 1
            ref[i] = python_game(rules, [int(h) for h in after[i]], dealt[i] % p)
    return games


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_lockstep_with_python_games(name: str) -> None:
    rules = RULE_SETS[name]
    games = _lockstep(rules, 250 if rules.players == 2 else 400, name)
    assert games.deals > 0


@pytest.mark.parametrize("name", ["classic", "three", "two"])
def test_lockstep_with_illegal_actions_ending_deals(name: str) -> None:
    games = _lockstep(RULE_SETS[name], 250, name, illegal_rate=0.02)
    assert games.deals > 0


def test_illegal_end_deals_again_unscored() -> None:
    games = NativeGames(4, "classic", seed=1, illegal="end", illegal_reward=-5)
    hands, movers = games.hands(), games.to_move.copy()
    scores, done = games.step(np.zeros(4, np.int64))  # the pass may not open a deal
    assert done.all() and games.illegal.all() and not scores.any() and games.deals == 0
    assert (games.winner == -1).all()
    assert (games.rewards() == np.where(np.arange(4) == movers[:, None], -5.0, 0.0)).all()
    assert not (games.hands() == hands).all()
    games.step(games.sample(np.random.default_rng(0)))
    assert not games.illegal.any() and not games.rewards().any()


def test_rows_widen_for_hands_with_many_plays() -> None:
    games = NativeGames(8, Rules(players=2), seed=3)  # 26-card hands lead with hundreds of plays
    assert int(games.counts.max()) > 64
    assert [len(x) for x in games.legal_ids()] == games.counts.tolist()
    cards, ids, counts = games.legal_plays()
    assert cards.shape == (8, int(counts.max()), 52) and ids.shape == cards.shape[:2]


def _trace(games: NativeGames, steps: int) -> list[str]:
    """A digest of every array the games give, step by step."""
    rng = np.random.default_rng(5)
    out = []
    for _ in range(steps):
        scores, done = games.step(games.sample(rng))
        arrays = (games.observation, games.action_mask, games.to_move, scores, done,
                  games.legal_plays()[1])
        out.append(hashlib.sha1(b"".join(a.tobytes() for a in arrays)).hexdigest())
    return out


def test_seed_and_threads_give_the_same_games() -> None:
    one = NativeGames(2 * MIN_SHARE, "classic", seed=11, threads=1)
    two = NativeGames(2 * MIN_SHARE, "classic", seed=11, threads=2)
    assert (one.threads, two.threads) == (1, 2)
    trace = _trace(one, 100)
    assert _trace(two, 100) == trace
    two.reset(11)
    assert two.deals == 0 and _trace(two, 100) == trace
    assert _trace(NativeGames(2 * MIN_SHARE, "classic", seed=12), 100) != trace
    assert NativeGames(MIN_SHARE, "classic", threads=2).threads == 1  # a share too small


def test_more_threads_than_cores_and_uneven_shares_give_the_same_games() -> None:
    """The pool cuts a call into chunks that its threads claim as they come (a thread
    whose core is busy leaves its share to the others): more threads than this
    machine's cores, over a count of games no chunk size divides, step the same games."""
    n = 4 * MIN_SHARE + 37
    one = NativeGames(n, "classic", seed=13, threads=1)
    many = NativeGames(n, "classic", seed=13, threads=4)
    assert many.threads == 4
    assert _trace(many, 60) == _trace(one, 60)


def test_calls_stepped_alone_or_split_give_the_same_games() -> None:
    """The pool measures each call site and steps a call alone or splits it over its
    threads, whichever was faster, trying the other way now and then: over enough steps
    both ways are taken, and the games are those of one thread."""
    one = NativeGames(2 * MIN_SHARE, "classic", seed=17, threads=1)
    two = NativeGames(2 * MIN_SHARE, "classic", seed=17, threads=2)
    assert one._batch.pool_calls() == []
    assert _trace(two, 200) == _trace(one, 200)
    calls = two._batch.pool_calls()
    assert all(alone + split <= 200 for alone, split in calls)
    alone, split = max(calls, key=sum)  # the step's site: one call a step
    assert alone + split == 200 and alone > 0 and split > 0


def test_the_fused_step_checks_its_arrays_before_any_game_moves() -> None:
    """``step_observe`` (the step and the refresh of every array in one pass over the
    games) checks each array first; a hand size too small for a mover's hand is found
    after the step, and that row of ids is left unwritten."""
    games = NativeGames(4, "classic", seed=3)
    b = games._batch
    log = [b.deal_log(i) for i in range(4)]
    p = games.num_players

    def arrays(**change: object) -> dict[str, object]:
        out: dict[str, object] = {
            "choices": np.zeros(4, np.int64), "scores": np.zeros((4, p), np.int64),
            "done": np.zeros(4, np.bool_), "redeal": None,
            "final": np.zeros_like(games.final_observation),
            "observation": np.zeros_like(games.observation),
            "hands": np.zeros((4, p), np.uint64), "to_move": np.zeros(4, np.int64),
            "last": np.zeros(4, np.uint64), "hand_size": 13, "ids": np.zeros((4, 8), np.int64),
            "counts": np.zeros(4, np.int64), "mask": None, "pad": 0}
        out.update(change)
        return out

    with pytest.raises(ValueError, match="observation: dimension 1"):
        b.step_observe(**arrays(observation=np.zeros((4, 10), np.int8)))
    read_only = np.zeros(4, np.int64)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="to_move: read-only"):
        b.step_observe(**arrays(to_move=read_only))
    with pytest.raises(ValueError, match="choices: game 0 has"):
        b.step_observe(**arrays(choices=np.full(4, 99, np.int64)))
    assert [b.deal_log(i) for i in range(4)] == log  # nothing moved
    fresh = native.batch(games._engine, 4, 3, 1, 0)
    with pytest.raises(ValueError, match="set_layout"):
        fresh.step_observe(**arrays())
    got = arrays()
    most = b.step_observe(**got)
    ids, counts = got["ids"], got["counts"]
    assert isinstance(ids, np.ndarray) and isinstance(counts, np.ndarray)
    assert most == int(counts.max())
    for row, c in zip(ids, counts.tolist(), strict=True):  # padded up to the largest count
        assert (row[:c] >= 0).all() and (row[c:most] == -1).all()
    with pytest.raises(ValueError, match="hand_size: game 0's mover holds"):
        b.step_observe(**arrays(hand_size=5))
    assert [b.deal_log(i)[2] for i in range(4)] != [entry[2] for entry in log]


def test_without_masks_the_ids_still_come() -> None:
    games = NativeGames(4, "classic", seed=2, masks=False)
    assert games.action_mask.shape == (4, 0)
    with_masks = NativeGames(4, "classic", seed=2)
    for _ in range(50):
        acts = with_masks.sample(np.random.default_rng(1))
        assert [x.tolist() for x in games.legal_ids()] == [x.tolist() for x in with_masks.legal_ids()]
        games.step(acts)
        with_masks.step(acts)


def test_bad_actions_raise_before_any_game_moves() -> None:
    games = NativeGames(4, "classic", seed=1)
    first = games.observation.copy()
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        games.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        games.step(np.zeros((4, 1), np.int64))
    with pytest.raises(ValueError, match="integer ids"):
        games.step(np.zeros(4, np.float64))
    with pytest.raises(ValueError, match="integer ids"):
        games.step(np.ones(4, np.bool_))
    with pytest.raises(ValueError, match="out of range in games 2"):
        games.step(np.array([0, 0, 2380, 0]))
    with pytest.raises(ValueError, match="out of range in games 1"):
        games.step(np.array([0, -1, 0, 0]))
    with pytest.raises(ValueError, match="out of range"):
        games.step(np.array([0, 0, 0, 2**64 - 1], np.uint64))
    # a deal's first play must hold the lowest card: the pass (0) is not legal in any game
    with pytest.raises(ValueError, match=r"illegal actions in games \[0, 1, 2, 3\].*pass"):
        games.step(np.zeros(4, np.int64))
    assert games.deals == 0 and (games.observation == first).all()
    rng = np.random.default_rng(0)
    while True:  # play on until a mover holds fewer than 13 cards
        held = [int(h).bit_count() for h in games.mover_hand()]
        if min(held) < 13:
            break
        games.step(games.sample(rng))
    before = games.observation.copy()
    short = held.index(min(held))
    legal = games.sample(rng)
    acts = legal.copy()
    acts[short] = 13  # the single card at place 13 (1-based), beyond the hand
    with pytest.raises(ValueError, match=rf"games \[{short}\]: game {short}: .*beyond the hand"):
        games.step(acts)
    assert (games.observation == before).all()
    games.step(legal.tolist())  # a list of legal ids plays
    assert not (games.observation == before).all()


def test_the_core_checks_its_arrays() -> None:
    games = NativeGames(4, "classic", seed=1)
    b = games._batch
    ids, counts = np.zeros((4, 8), np.int64), np.zeros(4, np.int64)
    with pytest.raises(ValueError, match="hand_size"):
        b.hand_ids_into(5, ids, counts)  # the movers hold 13 cards
    with pytest.raises(ValueError, match="hand_size"):
        b.hand_ids_into(0, ids, counts)
    with pytest.raises(ValueError, match="mask: dimension 1"):
        b.hand_ids_into(13, ids, counts, np.zeros((4, 100), np.bool_))
    with pytest.raises(TypeError, match="ids: expected dtype"):
        b.hand_ids_into(13, ids.astype(np.int32), counts)
    with pytest.raises(ValueError, match="actions: dimension 0"):
        b.choices_from_hand_ids(13, np.zeros(5, np.int64), np.zeros(4, np.int64))
    choices = np.zeros(4, np.int64)
    assert b.choices_from_hand_ids(13, np.array([0, -5, 10**9, 1]), choices) == 4 - (choices >= 0).sum()
    assert (choices[1:3] == -1).all()
    scores, done = np.zeros((4, 4), np.int64), np.zeros(4, np.bool_)
    with pytest.raises(ValueError, match="redeal: dimension 0"):
        b.step(np.zeros(4, np.int64), scores, done, np.zeros(5, np.bool_))
    with pytest.raises(TypeError, match="redeal: expected dtype"):
        b.step(np.zeros(4, np.int64), scores, done, np.zeros(4, np.int64))
    most = b.hand_ids_into(13, ids, counts)  # cut at the width, counts in full
    assert most == int(counts.max()) > 8
    for row, c in zip(ids, counts.tolist(), strict=True):
        assert (row[:c] >= 0).all() and (row[c:] == -1).all()


@pytest.mark.parametrize(("rules", "reason"), [
    (Rules.preset("singapore"), "later_lead"),
    (Rules.preset("president"), "exchange"),
    (Rules.preset("philippines"), "finish_restrictions"),
])
def test_refuses_rule_sets_it_cannot_step(rules: Rules, reason: str) -> None:
    assert native_games_reason(rules) == reason
    with pytest.raises(ValueError, match=reason):
        NativeGames(2, rules)


def test_refuses_when_the_python_engine_is_asked_for() -> None:
    with python_engine():
        assert native_games_reason(Rules()) == "BIG2_ENGINE=python"
        with pytest.raises(ValueError, match="BIG2_ENGINE=python"):
            NativeGames(2, "classic")


@pytest.mark.parametrize("kwargs", [{"num_envs": 0}, {"num_envs": True}, {"threads": 0},
                                    {"threads": 1.5}, {"seed": -1}, {"seed": "x"}], ids=str)
def test_bad_settings_raise(kwargs: dict[str, object]) -> None:
    args: dict[str, object] = {"num_envs": 2, **kwargs}
    with pytest.raises(ValueError):
        NativeGames(**args)  # type: ignore[arg-type]


def test_bad_reward_mode_raises() -> None:
    with pytest.raises(ValueError, match="reward"):
        NativeGames(2).rewards("points")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="illegal"):
        NativeGames(2, illegal="skip")  # type: ignore[arg-type]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_copy_steps_on_its_own_and_exits() -> None:
    """A process forked from one whose games run on the core's threads (its copy has
    none of them) steps the same games on one thread and can free them: it neither
    waits for the threads it lacks nor for their lock when the games are destroyed."""
    games = NativeGames(2 * MIN_SHARE, "classic", seed=3, threads=2)
    assert games.threads == 2
    games.step(games.sample(np.random.default_rng(1)))
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: step, free the games, report
        try:
            digest = _trace(games, 20)[-1]
            del games
            gc.collect()
            os.write(write, digest.encode())
        finally:
            os._exit(0)
    os.close(write)
    deadline = time.monotonic() + 60
    while os.waitpid(pid, os.WNOHANG) == (0, 0):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("the forked copy hung")
        time.sleep(0.05)
    with os.fdopen(read, "rb") as f:
        got = f.read().decode()
    assert got == _trace(games, 20)[-1]  # the parent, on its threads, steps alike


def test_a_share_numbered_from_first_deals_what_the_whole_batch_deals() -> None:
    """Game *i* of ``first=k`` deals the stream of game *k + i* of the same seed."""
    whole = NativeGames(6, "classic", seed=21)
    share = NativeGames(4, "classic", seed=21, first=2)
    assert (share.hands() == whole.hands()[2:]).all()
    assert not (NativeGames(4, "classic", seed=21).hands() == share.hands()).all()
