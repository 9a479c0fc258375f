"""The compiled core's backends of :class:`~big2.env.vector.VectorEnv` (see
:mod:`big2.env.backends` for what a backend is): :class:`NativeBackend`, the
core's games in this process (:class:`~big2.env.native_games.NativeGames`), and
:class:`NativeShards`, the same in worker processes that write the positions into
shared memory, so that a step sends the parent nothing but a count of deals.

Both take self-play games of a rule set the core plays, with ``"hand"`` actions
(:func:`native_env_reason` says what else keeps a set of settings off).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from multiprocessing import shared_memory
from typing import Any

import numpy as np
import numpy.typing as npt

from big2.env.batch import LegalPlays, Stepped
from big2.env.core import RewardMode
from big2.env.native_games import (
    IllegalMode,
    NativeGames,
    buffer_shapes,
    illegal_message,
    native_games_reason,
)
from big2.env.reset_options import Deal
from big2.env.shards import Shards
from big2.game import Game
from big2.rules import Rules

Obs = dict[str, npt.NDArray[Any]]
I64 = npt.NDArray[np.int64]
_OBS_KEYS = ("observation", "to_move", "action_mask")


def native_env_reason(rules: Rules, *, opponents: object, actions: str) -> str | None:
    """What keeps these settings off the core (``None``: nothing): bots in other
    seats, an action form but ``"hand"``, or the rule set
    (:func:`~big2.env.native_games.native_games_reason`)."""
    if opponents is not None:
        return "opponents"
    if actions != "hand":
        return f"actions={actions!r}"
    return native_games_reason(rules)


class NativeBackend:
    """*num_envs* self-play games in the core, numbered from *first*, writing into
    *buffers* where given (see :class:`~big2.env.native_games.NativeGames`)."""

    def __init__(self, rules: Rules, *, reward: RewardMode, illegal: IllegalMode,
                 illegal_reward: float, num_envs: int, first: int = 0,
                 buffers: dict[str, npt.NDArray[Any]] | None = None) -> None:
        self.num_envs = num_envs
        self.reward = reward
        self.nat = NativeGames(num_envs, rules, seed=0, illegal=illegal,
                               illegal_reward=illegal_reward, first=first, buffers=buffers)
        self.rewards = np.zeros((num_envs, self.nat.num_players), np.float32)
        """The last step's rewards by seat (a worker's share of the shared buffer)."""

    def reset(self, seed: int, hands: Sequence[Deal | None] | None) -> None:
        """Deal every game afresh from *seed* (chosen *hands* where given)."""
        nat = self.nat
        nat.reset(seed)
        if hands is not None:
            which = np.array([d is not None for d in hands])
            grid = np.zeros((self.num_envs, nat.num_players), np.uint64)
            for i, d in enumerate(hands):
                if d is not None:
                    grid[i] = d
            nat.deal(grid, which)

    def advance(self, acts: I64) -> int:
        """Step the games (ids checked by the caller, or ended as illegal); the rewards
        go to :attr:`rewards`. How many deals ended."""
        before = self.nat.deals
        self.nat.step(acts)
        np.copyto(self.rewards, self.nat.rewards(self.reward))
        return self.nat.deals - before

    def step(self, acts: I64) -> Stepped:
        """Play the in-range ids *acts* (the core checks them)."""
        nat = self.nat
        deals = self.advance(acts)
        finals = np.flatnonzero(nat.done)
        return Stepped(None, self.rewards.copy(), nat.done.copy(),  # type: ignore[arg-type]
                       nat.illegal.copy(), deals, finals.astype(np.int64),
                       nat.final_observation[finals])

    def reasons(self, games: npt.NDArray[np.intp], acts: I64) -> list[tuple[int, str]]:
        """For each of *games*, the cards its id names and why it is not legal now."""
        return self.nat.reasons(games, acts)

    @property
    def to_move(self) -> I64:
        """Each game's seat to move."""
        return self.nat.to_move

    def observe(self, out: Obs | None) -> Obs:
        """The observations: copies, or (*out* given) the buffers themselves."""
        nat = self.nat
        arrays = {"observation": nat.observation, "to_move": nat.to_move,
                  "action_mask": nat.action_mask}
        if out is None:
            return {k: v.copy() for k, v in arrays.items()}
        return arrays

    def games(self) -> list[Game]:
        """Each game rebuilt as a :class:`~big2.game.Game` (new objects, each call)."""
        return self.nat.games()

    def hands(self) -> npt.NDArray[np.uint64]:
        """Every seat's hand, ``(N, players)``."""
        return self.nat.hands()

    def legal_ids(self) -> list[I64]:
        """Each game's legal ids."""
        return [ids.copy() for ids in self.nat.legal_ids()]

    def legal_plays(self) -> LegalPlays:
        """Each game's legal plays as card vectors."""
        return LegalPlays(*self.nat.legal_plays())

    def sample(self, rng: np.random.Generator) -> I64:
        """A random legal id per game."""
        return self.nat.sample(rng)

    def sample_seeded(self, seed: int) -> I64:
        """:meth:`sample` with a generator of *seed* (what a worker is asked)."""
        return self.nat.sample(np.random.default_rng(seed))

    def decode(self, games: npt.NDArray[np.intp], ids: I64) -> npt.NDArray[np.uint64]:
        """The card masks of *ids* in *games*."""
        return self.nat.decode(games, ids)

    def close(self) -> None:
        """Nothing to stop."""


def _layout(num_envs: int, players: int, width: int) -> tuple[dict[str, Any], int]:
    """Where each shared array lies in one block: name → (offset, shape, dtype)."""
    spec = dict(buffer_shapes(num_envs, players, width))
    spec["rewards"] = ((num_envs, players), np.float32)
    out, at = {}, 0
    for name, (shape, dtype) in spec.items():
        out[name] = (at, shape, np.dtype(dtype).str)
        at += -(-int(np.prod(shape)) * np.dtype(dtype).itemsize // 64) * 64
    return out, max(at, 64)


def _views(buf: Any, layout: dict[str, Any], lo: int, hi: int) -> dict[str, npt.NDArray[Any]]:
    out = {}
    for name, (at, shape, dtype) in layout.items():
        whole = np.ndarray(shape, dtype=np.dtype(dtype), buffer=buf, offset=at)
        out[name] = whole[lo:hi]
    return out


class _SharedWorker(NativeBackend):
    """A worker's :class:`NativeBackend`, its buffers rows *first*.. of the shared block."""

    def __init__(self, name: str, layout: dict[str, Any], settings: dict[str, Any],
                 first: int, size: int) -> None:
        self._shm = shared_memory.SharedMemory(name=name)
        views = _views(self._shm.buf, layout, first, first + size)
        rewards = views.pop("rewards")
        super().__init__(**settings, num_envs=size, first=first, buffers=views)
        self.rewards = rewards


class NativeShards(NativeBackend):
    """The core's games in *workers* processes, each stepping its share into one block
    of shared memory that this process reads without a copy."""

    def __init__(self, rules: Rules, *, workers: int, num_envs: int, **settings: Any) -> None:
        self.num_envs = num_envs
        self.reward = settings["reward"]
        self.illegal: IllegalMode = settings["illegal"]
        probe = NativeGames(1, rules, seed=0)
        self.hand_actions = probe.hand_actions
        self.num_players = p = probe.num_players
        layout, size = _layout(num_envs, p, probe.num_actions)
        self._shm = shared_memory.SharedMemory(create=True, size=size)
        self.buf = _views(self._shm.buf, layout, 0, num_envs)
        self.rewards = self.buf["rewards"]
        make = partial(_SharedWorker, self._shm.name, layout,
                       dict(settings, rules=rules, illegal="end"))
        try:
            self.shards = Shards(num_envs, workers, make)
        except BaseException:
            self._release()
            raise
        self._rows = np.arange(num_envs)

    def reset(self, seed: int, hands: Sequence[Deal | None] | None) -> None:
        """Deal every game afresh, in the workers."""
        self.shards.call("reset", [(seed, h) for h in self.shards.split(hands)])

    def advance(self, acts: I64) -> int:
        """Check *acts* here against the shared masks, then step the workers."""
        legal = self.buf["action_mask"][self._rows, acts]
        if self.illegal == "raise" and not legal.all():
            bad = np.flatnonzero(~legal)
            raise ValueError(illegal_message(bad, acts, self.reasons(bad[:5], acts)))
        b = self.shards.bounds
        return sum(self.shards.call("advance", [(acts[b[k]:b[k + 1]],)
                                                for k in range(len(b) - 1)]))

    def step(self, acts: I64) -> Stepped:
        """As :meth:`NativeBackend.step`, read from the shared block."""
        deals = self.advance(acts)
        done = self.buf["done"]
        finals = np.flatnonzero(done)
        return Stepped(None, self.rewards.copy(), done.copy(),  # type: ignore[arg-type]
                       self.buf["illegal"].copy(), deals, finals.astype(np.int64),
                       self.buf["final_observation"][finals])

    def reasons(self, games: npt.NDArray[np.intp], acts: I64) -> list[tuple[int, str]]:
        """As :meth:`NativeBackend.reasons`, asked of the workers holding *games*."""
        return self.shards.reasons(games, acts)

    @property
    def to_move(self) -> I64:
        """Each game's seat to move."""
        return self.buf["to_move"]

    def observe(self, out: Obs | None) -> Obs:
        """The observations: copies, or (*out* given) the shared arrays themselves."""
        arrays = {k: self.buf[k] for k in _OBS_KEYS}
        return {k: v.copy() for k, v in arrays.items()} if out is None else arrays

    def games(self) -> list[Game]:
        """Each game rebuilt as a :class:`~big2.game.Game`, in the workers."""
        return [g for part in self.shards.call_all("games") for g in part]

    def hands(self) -> npt.NDArray[np.uint64]:
        """Every seat's hand, ``(N, players)``."""
        return self.buf["hands"].copy()

    def legal_ids(self) -> list[I64]:
        """Each game's legal ids, from the workers."""
        return [ids for part in self.shards.call_all("legal_ids") for ids in part]

    def legal_plays(self) -> LegalPlays:
        """Each game's legal plays, from the workers, padded to the largest count."""
        parts = self.shards.call_all("legal_plays")
        k = max(p.ids.shape[1] for p in parts)
        cards = np.concatenate([np.pad(p.cards, ((0, 0), (0, k - p.cards.shape[1]), (0, 0)))
                                for p in parts])
        ids = np.concatenate([np.pad(p.ids, ((0, 0), (0, k - p.ids.shape[1])),
                                     constant_values=-1) for p in parts])
        return LegalPlays(cards, ids, np.concatenate([p.counts for p in parts]))

    def sample(self, rng: np.random.Generator) -> I64:
        """A random legal id per game (each worker drawing from a seed of *rng*)."""
        seeds = rng.integers(0, 2**63, size=len(self.shards.firsts)).tolist()
        return np.concatenate(self.shards.call("sample_seeded", [(int(s),) for s in seeds]))

    def decode(self, games: npt.NDArray[np.intp], ids: I64) -> npt.NDArray[np.uint64]:
        """The card masks of *ids* in *games*, from the shared hands."""
        mover = self.buf["hands"][self._rows, self.buf["to_move"]]
        return self.hand_actions.decode(np.asarray(ids, np.int64), mover[games])

    def _release(self) -> None:
        self.buf = {}
        self.rewards = np.zeros((0, 0), np.float32)
        try:
            self._shm.close()
        except BufferError:  # the caller still holds reused observations: freed with them
            pass
        self._shm.unlink()

    def close(self) -> None:
        """Stop the workers and free the shared block."""
        self.shards.close()
        if self.buf:
            self._release()


__all__ = ["NativeBackend", "NativeShards", "native_env_reason"]
