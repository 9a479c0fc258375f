"""Batched pieces of :class:`big2.env.vector.VectorEnv`: what one refresh of
N games leaves (:class:`Batch`), what one step leaves (:class:`Stepped`, and
the Gymnasium results made of it), every game's legal plays as card vectors
(:class:`PaddedPlays`), the checks of an action array and of the seating, and
the observation of each game's seat to move built for all games at once
(:func:`~big2.observation.observe_batch`, re-exported)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from big2.bots import Bot, make_bot
from big2.observation import card_vectors, observe_batch

Encoder = Callable[[npt.NDArray[np.uint64], npt.NDArray[np.int64], npt.NDArray[np.uint64]],
                   npt.NDArray[np.int64]]
"""Plays (card masks), their games and the games' mover hands → action ids."""


class Batch(NamedTuple):
    """What one refresh leaves: the observations and every game's legal plays."""

    observation: npt.NDArray[np.int8]
    to_move: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int64]
    ids: npt.NDArray[np.int64]
    plays: npt.NDArray[np.uint64]
    mover_hand: npt.NDArray[np.uint64]

    @staticmethod
    def join(parts: Sequence[Batch]) -> Batch:
        """One batch of the games of *parts*, in order."""
        return Batch(*(np.concatenate([getattr(p, f) for p in parts]) for f in Batch._fields))

    @staticmethod
    def collect(flat: list[int], counts: list[int], nums: list[int], players: int,
                spares: npt.NDArray[np.uint64], encode: Encoder) -> Batch:
        """The batch of N games from their legal plays (*flat*, *counts* per
        game) and public numbers (*nums*: each game's
        :meth:`~big2.game.Game.numbers`, hands and played cards per seat);
        *encode* turns plays into the env's action ids."""
        n_env = len(counts)
        num = np.array(nums, dtype=np.int64).reshape(n_env, 8 + 2 * players)
        plays = np.array(flat, dtype=np.uint64)
        counts_a = np.array(counts, dtype=np.int64)
        games = np.repeat(np.arange(n_env), counts_a)
        mover = num[:, 0]
        hands = num[:, 8:8 + players].astype(np.uint64)
        mover_hand = hands[np.arange(n_env), mover]
        ids = encode(plays, games, mover_hand)
        return Batch(observe_batch(num, hands, mover, mover_hand, spares), mover.copy(), counts_a,
                     ids, plays, mover_hand)

    def legal_ids(self) -> list[npt.NDArray[np.int64]]:
        """Each game's legal action ids."""
        starts = np.concatenate([[0], np.cumsum(self.counts)])
        return [self.ids[starts[i]:starts[i + 1]] for i in range(len(self.counts))]

    def sample(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """One uniformly random legal action id per game."""
        starts = np.concatenate([[0], np.cumsum(self.counts)[:-1]])
        pick = starts + (rng.random(len(self.counts)) * self.counts).astype(np.int64)
        out: npt.NDArray[np.int64] = self.ids[pick]
        return out


class Stepped(NamedTuple):
    """What one step of N games leaves (in one process, or joined from the
    worker processes)."""

    batch: Batch
    """The games' positions after the step."""
    seat_rewards: npt.NDArray[np.float32]
    """``(N, players)``: each seat's reward from the deals that ended."""
    done: npt.NDArray[np.bool_]
    """``(N,)``: the games whose deal ended (and were dealt again)."""
    illegal: npt.NDArray[np.bool_]
    """``(N,)``: the games whose deal an illegal action ended."""
    deals: int
    """How many deals ended (a game may end two: an instant win as dealt)."""
    final_games: npt.NDArray[np.int64]
    """``(k,)``: the games whose deal ended, ascending."""
    final_obs: npt.NDArray[np.int8]
    """``(k, OBS_SIZE)``: each such game's last observation of the deal, by the
    seat that acted."""

    def results(self, actor: npt.NDArray[np.int64], num_actions: int) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Gymnasium's ``(rewards, terminations, truncations, infos)`` of this
        step, *actor* the seat that acted in each game (see
        :meth:`big2.env.vector.VectorEnv.step`)."""
        n_env, done = len(self.done), self.done
        every = np.ones(n_env, dtype=bool)
        seats = self.seat_rewards.shape[1]  # each game's actor's reward, read off the flat rows
        rewards = self.seat_rewards.ravel().take(np.arange(0, n_env * seats, seats) + actor)
        infos: dict[str, Any] = {"seat_rewards": self.seat_rewards, "_seat_rewards": every,
                                 "illegal": self.illegal, "_illegal": every.copy()}
        if len(self.final_games):
            final = np.empty(n_env, dtype=object)  # None in each
            masks = np.zeros((len(self.final_games), num_actions), dtype=bool)  # a row each
            for i, vec, mask in zip(self.final_games.tolist(), self.final_obs, masks):
                final[i] = {"observation": vec, "action_mask": mask, "to_move": actor[i]}
            infos["final_obs"], infos["_final_obs"] = final, done.copy()
            infos["final_info"] = {"seat_rewards": self.seat_rewards, "_seat_rewards": done.copy(),
                                   "illegal": self.illegal, "_illegal": done.copy()}
            infos["_final_info"] = done.copy()
        return rewards, done, np.zeros(n_env, dtype=bool), infos

    @staticmethod
    def join(parts: Sequence[Stepped], firsts: Sequence[int]) -> Stepped:
        """One step of the games of *parts*, in order; *firsts*: each part's
        first game number."""
        return Stepped(Batch.join([p.batch for p in parts]),
                       np.concatenate([p.seat_rewards for p in parts]),
                       np.concatenate([p.done for p in parts]),
                       np.concatenate([p.illegal for p in parts]),
                       sum(p.deals for p in parts),
                       np.concatenate([p.final_games + first for p, first in zip(parts, firsts)]),
                       np.concatenate([p.final_obs for p in parts]))


class PaddedPlays(NamedTuple):
    """Every game's legal plays, padded to the largest count *K* of the batch."""

    cards: npt.NDArray[np.int8]
    """``(N, K, 52)``: row k of game i is its k-th play as a 0/1 card vector
    (the pass an all-zero row); rows past ``counts[i]`` are zero."""
    ids: npt.NDArray[np.int64]
    """``(N, K)``: each play's action id in the env's form, ``-1`` as padding."""
    counts: npt.NDArray[np.int64]
    """``(N,)``: how many plays each game has."""

    @staticmethod
    def of(batch: Batch, games: npt.NDArray[np.int64]) -> PaddedPlays:
        """The legal plays of *batch* (*games*: each play's game number)."""
        counts = batch.counts
        n_env, k = len(counts), int(counts.max())
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        slot = np.arange(len(games)) - starts[games]
        cards = np.zeros((n_env, k, 52), dtype=np.int8)
        cards[games, slot] = card_vectors(batch.plays)
        ids = np.full((n_env, k), -1, dtype=np.int64)
        ids[games, slot] = batch.ids
        return PaddedPlays(cards, ids, counts.copy())


def check_actions(actions: npt.ArrayLike, num_envs: int, num_actions: int,
                  out: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
    """*actions* as ``int64`` ids (written into *out* when given, else a new
    array), or a :class:`ValueError` naming what is wrong: the shape (it must
    be ``(num_envs,)``), the dtype (integers), or the games whose id is out of
    range."""
    a = np.asarray(actions)
    if a.shape != (num_envs,):
        raise ValueError(f"actions must have shape ({num_envs},), not {a.shape}")
    kind = a.dtype.kind  # "i" and "u" at once; else what NumPy counts as an integer, not bool
    if kind not in "iu" and (kind == "b" or not np.issubdtype(a.dtype, np.integer)):
        raise ValueError(f"actions must be integer ids, not {a.dtype}")
    if out is None:
        out = np.empty(num_envs, dtype=np.int64)
    np.copyto(out, a, casting="unsafe")  # a uint64 id of 2**63 or more wraps below 0
    if num_envs and out.view(np.uint64).max() >= num_actions:  # a negative id wraps above
        bad = np.flatnonzero((out < 0) | (out >= num_actions))
        shown = ", ".join(f"{int(i)} ({int(a[i])})" for i in bad[:10])
        more = f" and {len(bad) - 10} more" if len(bad) > 10 else ""
        raise ValueError(f"action ids are 0..{num_actions - 1}; out of range in games "
                         f"{shown}{more}")
    return out


def seating(players: int, opponents: str | Bot | Sequence[str | Bot] | None,
            learners: Sequence[int]) -> tuple[frozenset[int], dict[int, str | Bot]]:
    """The learners' seats and the bot spec of every other seat, checked (an
    unknown bot name fails here, not in a step)."""
    if opponents is None:
        return frozenset(range(players)), {}
    seats = sorted({int(s) for s in learners})
    if not seats or any(not 0 <= s < players for s in seats):
        raise ValueError(f"learners must be seats 0..{players - 1}, not {list(learners)!r}")
    others = [s for s in range(players) if s not in seats]
    if isinstance(opponents, (str, Bot)):
        specs: list[str | Bot] = [opponents] * len(others)
    else:
        specs = list(opponents)
    if len(specs) != len(others):
        raise ValueError(f"{len(others)} opponents needed for seats {others}, got {len(specs)}")
    for spec in specs:
        if isinstance(spec, str):
            make_bot(spec)
        elif not isinstance(spec, Bot):
            raise TypeError(f"an opponent is a bot name or a Bot, not {type(spec).__name__}")
    return frozenset(seats), dict(zip(others, specs))


__all__ = ["Batch", "PaddedPlays", "Stepped", "check_actions", "observe_batch", "seating"]
