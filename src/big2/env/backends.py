"""What steps the games of a :class:`~big2.env.vector.VectorEnv`: its backend.

``VectorEnv`` chooses one in ``__init__`` and holds it (composition: one class,
whatever steps the games). Every backend has the same methods —
:meth:`~PythonBackend.reset`, :meth:`~PythonBackend.step` (a
:class:`~big2.env.batch.Stepped`), :meth:`~PythonBackend.observe`,
:meth:`~PythonBackend.games`, :meth:`~PythonBackend.hands`,
:meth:`~PythonBackend.legal_ids`, :meth:`~PythonBackend.legal_plays`,
:meth:`~PythonBackend.sample`, :meth:`~PythonBackend.decode`,
:meth:`~PythonBackend.close` and :attr:`~PythonBackend.to_move` — and every
one deals game *i* of a seed from the same stream (:mod:`big2.env.deals`):

* :class:`PythonBackend`: the Python engine's games in this process (any rule
  set the env takes, bots in the other seats, every action form);
* :class:`PythonShards`: the same in worker processes (:mod:`big2.env.shards`);
* :class:`~big2.env.native_backends.NativeBackend`: the compiled core's games, in
  this process, on one thread or on the core's worker threads.

The Python ones see each position as a :class:`~big2.env.batch.Batch` through a
:class:`BatchView` (lookup keys for legality, masks, ids).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from big2.bots import Bot
from big2.env.batch import Batch, PaddedPlays, Stepped
from big2.env.codec import ActionCodec
from big2.env.core import RewardMode
from big2.env.native_games import illegal_message, refusal
from big2.env.python_games import PythonGames
from big2.env.reset_options import Deal
from big2.env.shards import Shards
from big2.game import Game
from big2.rules import Rules

Obs = dict[str, npt.NDArray[Any]]
I64 = npt.NDArray[np.int64]


class BatchView:
    """The current :class:`~big2.env.batch.Batch` of *num_envs* games and what is
    looked up in it: which ids are legal, the masks, the ids and plays by game."""

    def __init__(self, num_envs: int, codec: ActionCodec) -> None:
        self.num_envs = num_envs
        self.codec = codec
        self.batch: Batch | None = None

    def adopt(self, batch: Batch) -> None:
        """Make *batch* the current position of every game."""
        self.batch = batch
        self._games = games = np.repeat(np.arange(self.num_envs), batch.counts)
        keys = games * self.codec.num_actions + batch.ids
        self.order = np.argsort(keys, kind="stable")
        self._keys = keys[self.order]

    def check(self, acts: I64) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
        """Where each game's (in-range) id *acts* sits in the sorted keys, and whether
        it is legal."""
        query = np.arange(self.num_envs) * self.codec.num_actions + acts
        pos = np.minimum(np.searchsorted(self._keys, query), len(self._keys) - 1)
        return pos, self._keys[pos] == query

    def observe(self, out: Obs | None) -> Obs:
        """The observations, written into *out* (reused arrays) when given."""
        b = self._b
        if out is None:
            mask = np.zeros((self.num_envs, self.codec.num_actions), dtype=bool)
            mask[self._games, b.ids] = True
            return {"observation": b.observation, "to_move": b.to_move, "action_mask": mask}
        np.copyto(out["observation"], b.observation)
        np.copyto(out["to_move"], b.to_move)
        out["action_mask"][:] = False
        out["action_mask"][self._games, b.ids] = True
        return out

    @property
    def _b(self) -> Batch:
        if self.batch is None:
            raise RuntimeError("call reset() first")
        return self.batch

    def legal_ids(self) -> list[I64]:
        """Each game's legal action ids."""
        return self._b.legal_ids()

    def legal_plays(self) -> PaddedPlays:
        """Each game's legal plays as card vectors with their ids."""
        return PaddedPlays.of(self._b, self._games)

    def sample(self, rng: np.random.Generator) -> I64:
        """One uniformly random legal action id per game."""
        return self._b.sample(rng)

    def decode(self, games: npt.NDArray[np.intp], ids: I64) -> npt.NDArray[np.uint64]:
        """The card masks *ids* name in *games* now."""
        return self.codec.decode(ids, self._b.mover_hand[games])


class PythonBackend:
    """*num_envs* games on the Python engine in this process, numbered from *first*."""

    def __init__(self, rules: Rules, codec: ActionCodec, *, reward: RewardMode,
                 learners: frozenset[int], bot_specs: dict[int, str | Bot], illegal: str,
                 illegal_reward: float, first: int, num_envs: int) -> None:
        self.num_envs = num_envs
        self.illegal = illegal
        self.view = BatchView(num_envs, codec)
        self.python = PythonGames(rules, num_envs, reward=reward, learners=learners,
                                  bot_specs=bot_specs, illegal_reward=illegal_reward,
                                  encode=codec.encode, first=first)

    def reset(self, seed: int | None, hands: Sequence[Deal | None] | None) -> Batch:
        """Deal every game afresh from *seed* (chosen *hands* where given)."""
        batch = self.python.reset(seed, None if hands is None else list(hands))
        self.view.adopt(batch)
        return batch

    def step(self, acts: I64) -> Stepped:
        """Play the in-range ids *acts*: illegal ones raise before any game moves
        (``illegal="raise"``) or end their deal."""
        pos, legal = self.view.check(acts)
        if self.illegal == "raise" and not legal.all():
            bad = np.flatnonzero(~legal)
            raise ValueError(illegal_message(bad, acts, self.reasons(bad[:5], acts)))
        out = self.python.step(self.view.order[pos], legal)
        self.view.adopt(out.batch)
        return out

    def reasons(self, games: npt.NDArray[np.intp], acts: I64) -> list[tuple[int, str]]:
        """For each of *games*, the cards its id names and why it is not legal now."""
        codec = self.view.codec
        per_hand = codec.hand_actions if codec.form == "hand" else None
        out = []
        for i in np.asarray(games).tolist():
            cards = int(self.view.decode(np.array([i]), acts[i:i + 1])[0])
            game = self.python.tables[i].game
            hand = game.hands[game.to_move or 0]
            out.append((cards, refusal(per_hand, int(acts[i]), hand, partial(game.refusal, cards))))
        return out

    @property
    def to_move(self) -> I64:
        """Each game's seat to move."""
        return self.view._b.to_move

    def observe(self, out: Obs | None) -> Obs:
        """The observations (into *out* when given)."""
        return self.view.observe(out)

    def games(self) -> list[Game]:
        """The games themselves (live: these are the games being stepped)."""
        return [t.game for t in self.python.tables]

    def hands(self) -> npt.NDArray[np.uint64]:
        """Every seat's hand, ``(N, players)``."""
        return np.array([g.hands for g in self.games()], dtype=np.uint64).reshape(
            self.num_envs, -1)

    def legal_ids(self) -> list[I64]:
        """Each game's legal ids."""
        return self.view.legal_ids()

    def legal_plays(self) -> PaddedPlays:
        """Each game's legal plays as card vectors."""
        return self.view.legal_plays()

    def sample(self, rng: np.random.Generator) -> I64:
        """A random legal id per game."""
        return self.view.sample(rng)

    def decode(self, games: npt.NDArray[np.intp], ids: I64) -> npt.NDArray[np.uint64]:
        """The card masks of *ids* in *games*."""
        return self.view.decode(games, ids)

    def close(self) -> None:
        """Nothing to stop."""


def _python_worker(settings: dict[str, Any], first: int, size: int) -> PythonBackend:
    return PythonBackend(**settings, first=first, num_envs=size)


class PythonShards(PythonBackend):
    """The Python engine's games in *workers* processes, each a :class:`PythonBackend`
    of its share; the positions are joined here."""

    def __init__(self, rules: Rules, codec: ActionCodec, *, workers: int, num_envs: int,
                 illegal: str, **settings: Any) -> None:
        self.num_envs = num_envs
        self.illegal = illegal
        self.view = BatchView(num_envs, codec)
        make = partial(_python_worker, dict(settings, rules=rules, codec=codec, illegal="end"))
        self.shards = Shards(num_envs, workers, make)

    def reset(self, seed: int | None, hands: Sequence[Deal | None] | None) -> Batch:
        """Deal every game afresh, in the workers."""
        parts = self.shards.call("reset", [(seed, h) for h in self.shards.split(hands)])
        batch = Batch.join(parts)
        self.view.adopt(batch)
        return batch

    def step(self, acts: I64) -> Stepped:
        """Check *acts* here, then play them in the workers."""
        _, legal = self.view.check(acts)
        if self.illegal == "raise" and not legal.all():
            bad = np.flatnonzero(~legal)
            raise ValueError(illegal_message(bad, acts, self.reasons(bad[:5], acts)))
        b = self.shards.bounds
        parts = self.shards.call("step", [(acts[b[k]:b[k + 1]],) for k in range(len(b) - 1)])
        out = Stepped.join(parts, self.shards.firsts)
        self.view.adopt(out.batch)
        return out

    def reasons(self, games: npt.NDArray[np.intp], acts: I64) -> list[tuple[int, str]]:
        """As :meth:`PythonBackend.reasons`, asked of the workers holding *games*."""
        return self.shards.reasons(games, acts)

    def games(self) -> list[Game]:
        """Copies of the workers' games (changing them changes nothing there)."""
        return [g for part in self.shards.call_all("games") for g in part]

    def close(self) -> None:
        """Stop the workers."""
        self.shards.close()


__all__ = ["BatchView", "Obs", "PythonBackend", "PythonShards"]
