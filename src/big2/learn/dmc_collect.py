"""The DMC trainer's self-play (:mod:`big2.learn.dmc`): whole deals in the compiled
core's :class:`~big2.env.vector.VectorEnv`, every seat choosing epsilon-greedily
on a :class:`~big2.bots.policy.dmc.QNet` in NumPy.

:class:`DMCCollector` plays an iteration's deals where it is called;
:class:`CollectorProcesses` plays them in spawned processes, so that the next
iteration's deals are played on one core while the learner updates on another.
Both take the same two calls — :meth:`~DMCCollector.submit` the network an
iteration plays, then :meth:`~DMCCollector.result` its :class:`Batch` — and for
the same network, epsilon and iteration make the same batch: an iteration's deals
and its exploration come from the run's seed, the iteration's number, the family's
and the share's alone (:func:`shares`; not from what ran before), so where the
deals are played, and in how many processes, changes nothing.

>>> import numpy as np
>>> from big2.bots.policy.dmc import QNet
>>> from big2.rules import Rules
>>> c = DMCCollector({"classic": Rules.preset("classic")}, games=2, seed=0)
>>> b = c.collect(QNet.random(np.random.default_rng(0), hidden=(8,)), 0.1, iteration=0)
>>> b.deals, b.x.shape[0] == b.steps == len(b.y)
(2, True)
"""

from __future__ import annotations

import multiprocessing as mp
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from big2.bots.policy.dmc import FEATURES, SCORE_SCALE, STATE, QNet, state_inputs
from big2.bots.policy.pnet import family_index
from big2.env.batch import PaddedPlays
from big2.env.vector import VectorEnv
from big2.rules import Rules
from big2.threads import one_thread_each

I8 = npt.NDArray[np.int8]
F32 = npt.NDArray[np.float32]

Reward: TypeAlias = Literal["score", "win"]
"""What a decision learns to predict: its seat's final score / :data:`SCORE_SCALE`
(``score``), or whether the seat won the deal, 1 if it did and -1/(players - 1) if
not (``win``: zero-sum, as a score is)."""

__all__ = ["Batch", "CollectorProcesses", "DMCCollector", "Reward", "greedy_picks",
           "padded_values", "shares"]


@dataclass(frozen=True)
class Batch:
    """An iteration's decisions: each one's pair features ``x`` (``(steps,
    FEATURES)``, int8) and its seat's return ``y`` (:data:`Reward`); the
    decisions and deals played, and the seconds of wall time and of CPU (the
    playing processes' together) they took."""

    x: I8
    y: F32
    steps: int
    deals: int
    seconds: float
    cpu: float = 0.0


def shares(families: int, games: int, shards: int) -> list[tuple[int, int, int]]:
    """An iteration's shares of play, in the order their decisions are put together:
    ``(family number, share number, games)``, each family's *games* split into
    *shards* shares as evenly as can be.

    >>> shares(2, 5, 2)
    [(0, 0, 3), (0, 1, 2), (1, 0, 3), (1, 1, 2)]
    """
    if not 1 <= shards <= games:
        raise ValueError(f"shards must be 1 to games ({games}), not {shards}")
    sizes = [len(a) for a in np.array_split(np.arange(games), shards)]
    return [(j, k, sizes[k]) for j in range(families) for k in range(shards)]


def greedy_picks(net: QNet, obs: I8, lp: PaddedPlays, *, family: int) -> npt.NDArray[np.intp]:
    """Each game's legal play of highest Q (the bot's choice), as an index into *lp*."""
    q, _, _ = padded_values(net, state_inputs(obs, family), lp.cards, lp.counts)
    out: npt.NDArray[np.intp] = q.argmax(axis=1)
    return out


def padded_values(net: QNet, state: I8, cards: I8, counts: npt.NDArray[np.integer]
                  ) -> tuple[F32, I8, npt.NDArray[np.intp]]:
    """Q of every game's legal plays, ``(N, K)`` with ``-inf`` past each game's
    count; and the plays as flat ``(P, 52)`` rows with their games."""
    n, k, _ = cards.shape
    valid = np.arange(k)[None, :] < counts[:, None]
    plays = cards[valid]
    rows = np.repeat(np.arange(n), counts)
    q = np.full((n, k), -np.inf, dtype=np.float32)
    q[valid] = net.values(state, plays, rows)
    return q, plays, rows


class DMCCollector:
    """Each family's games, a whole deal each per :meth:`collect`, played here.

    Args:
        families: each family's rule set (its name picks the family input).
        games: deals of each family an iteration plays.
        seed: the run's seed (with an iteration's and a family's number, the deals
            and exploration of that family in that iteration).
        part: the numbers of the shares this one plays (default: all; see
            :func:`shares`).
        reward: what a decision's return is.
        shards: each family's games come in this many shares, each dealt and
            explored from a seed of its own (the deals depend on it; one share a
            family keeps the seeds of earlier runs).
    """

    def __init__(self, families: dict[str, Rules], games: int, seed: int,
                 part: Sequence[int] | None = None, reward: Reward = "score",
                 shards: int = 1) -> None:
        if reward not in ("score", "win"):
            raise ValueError(f"reward is 'score' or 'win', not {reward!r}")
        self.seed, self.reward = seed, reward
        rules = list(families.items())
        every = shares(len(rules), games, shards)
        self.groups = [(j, k, family_index(rules[j][0]),
                        VectorEnv(n, rules[j][1], seed=seed, reuse_obs=True))
                       for j, k, n in (every if part is None else [every[i] for i in part])]
        self._ready: Batch | None = None

    def collect(self, net: QNet, epsilon: float, iteration: int) -> Batch:
        """Deal every game of every family afresh (the deals of *iteration*) and play
        each deal to its end, a decision a uniformly random legal play with chance
        *epsilon* and else the play of highest Q."""
        t0, c0 = time.perf_counter(), time.process_time()
        xs: list[I8] = []
        ys: list[F32] = []
        deals = 0
        for j, k, fam, venv in self.groups:
            rng = np.random.default_rng((self.seed, iteration, j, k) if k else
                                        (self.seed, iteration, j))
            deals_seed = self.seed * 1_000_003 + iteration * 7919 + j + k * 1_000_033
            x, y = self._deal(venv, fam, net, epsilon, rng, deals_seed % (1 << 63), self.reward)
            xs.append(x)
            ys.append(y)
            deals += venv.num_envs
        x = np.concatenate(xs)
        return Batch(x, np.concatenate(ys), len(x), deals, time.perf_counter() - t0,
                     time.process_time() - c0)

    def submit(self, net: QNet, epsilon: float, iteration: int) -> None:
        """Play *iteration*'s deals with *net* (here: now) for :meth:`result`."""
        self._ready = self.collect(net, epsilon, iteration)

    def result(self) -> Batch:
        """The batch of the last :meth:`submit`."""
        if self._ready is None:
            raise RuntimeError("result() before submit()")
        batch, self._ready = self._ready, None
        return batch

    def close(self) -> None:
        """Nothing to release (the process collector's counterpart)."""

    @staticmethod
    def _deal(venv: VectorEnv, fam: int, net: QNet, epsilon: float, rng: np.random.Generator,
              seed: int, reward: Reward) -> tuple[I8, F32]:
        obs, _ = venv.reset(seed=seed)
        n = venv.num_envs
        live = np.ones(n, dtype=bool)
        final = np.zeros((n, venv.num_players), dtype=np.float32)
        games: list[npt.NDArray[np.intp]] = []
        seats: list[npt.NDArray[np.int64]] = []
        pairs: list[I8] = []
        while live.any():
            lp = venv.legal_plays()
            act = np.flatnonzero(live)
            counts = lp.counts[act]
            state = state_inputs(obs["observation"][act], fam)
            q, plays, _ = padded_values(net, state, lp.cards[act], counts)
            pick = q.argmax(axis=1)
            explore = rng.random(len(act)) < epsilon
            pick[explore] = rng.integers(0, counts[explore])
            ids = lp.ids[:, 0].copy()  # a finished deal's game: its first play, unrecorded
            ids[act] = lp.ids[act, pick]
            x = np.empty((len(act), FEATURES), dtype=np.int8)
            x[:, :STATE] = state
            x[:, STATE:] = plays[np.cumsum(counts) - counts + pick]
            games.append(act)
            seats.append(obs["to_move"][act].copy())
            pairs.append(x)
            obs, _, done, _, infos = venv.step(ids)
            ended = done & live
            final[ended] = infos["seat_rewards"][ended]
            live &= ~done
        g, s = np.concatenate(games), np.concatenate(seats)
        if reward == "win":  # the winner is the seat with the highest score, alone above 0
            won = final == final.max(axis=1, keepdims=True)
            final = np.where(won, np.float32(1), np.float32(-1 / (venv.num_players - 1)))
        else:
            final /= np.float32(SCORE_SCALE)
        return np.concatenate(pairs), final[g, s]


class CollectorProcesses:
    """A :class:`DMCCollector` split over spawned processes (one BLAS thread each), some
    shares of play each (:func:`shares`): :meth:`submit` returns at once and the deals are
    played there while this process learns; :meth:`result` waits for them all and
    puts them together in the shares' order, as one :class:`DMCCollector` makes
    them. An error there is raised here, with its traceback; the processes end
    with :meth:`close` or with this one.

    Args:
        processes: how many (at most one a share of play, :func:`shares`).
        reward, shards: as :class:`DMCCollector`'s.
    """

    def __init__(self, families: dict[str, Rules], games: int, seed: int,
                 processes: int = 1, reward: Reward = "score", shards: int = 1) -> None:
        if processes < 1:
            raise ValueError(f"processes must be at least 1, not {processes}")
        ctx = mp.get_context("spawn")
        units = len(shares(len(families), games, shards))
        parts = [p for p in np.array_split(np.arange(units), processes) if len(p)]
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        for i, part in enumerate(parts):
            conn, child = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(child, families, games, seed,
                                                    [int(j) for j in part], reward,
                                                    shards),
                               name=f"big2-dmc-collector-{i}", daemon=True)
            with one_thread_each():
                proc.start()
            child.close()
            self._conns.append(conn)
            self._procs.append(proc)
        self._pending = False

    @property
    def processes(self) -> int:
        """How many processes play (fewer than asked where there are fewer shares)."""
        return len(self._procs)

    def submit(self, net: QNet, epsilon: float, iteration: int) -> None:
        """Start playing *iteration*'s deals with *net* (a copy travels to each)."""
        if self._pending:
            raise RuntimeError("submit() again before result()")
        for conn in self._conns:
            conn.send((net, epsilon, iteration))
        self._pending = True

    def result(self) -> Batch:
        """The batch of the last :meth:`submit` (waits for it)."""
        if not self._pending:
            raise RuntimeError("result() before submit()")
        self._pending = False
        replies: list[Any] = []
        for conn, proc in zip(self._conns, self._procs):
            try:
                replies.append(conn.recv())
            except EOFError:
                raise RuntimeError(f"a collector process ended (exit code "
                                   f"{proc.exitcode})") from None
        failed = [r for r in replies if not isinstance(r, Batch)]
        if failed:
            raise RuntimeError(f"a collector process failed:\n{failed[0]}")
        return Batch(np.concatenate([b.x for b in replies]), np.concatenate([b.y for b in replies]),
                     sum(b.steps for b in replies), sum(b.deals for b in replies),
                     max(b.seconds for b in replies), sum(b.cpu for b in replies))

    def close(self) -> None:
        """End the processes (a batch in flight is dropped)."""
        for conn in self._conns:
            conn.close()
        for proc in self._procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()
                proc.join()


def _serve(conn: Connection, families: dict[str, Rules], games: int, seed: int,
           part: list[int], reward: Reward, shards: int) -> None:
    """A collector process: a batch for each network received, until the pipe closes."""
    import signal

    for sig in (signal.SIGINT, signal.SIGTERM):  # the trainer stops on these, then closes us
        signal.signal(sig, signal.SIG_IGN)
    collector = DMCCollector(families, games, seed, part, reward, shards)
    while True:
        try:
            net, epsilon, iteration = conn.recv()
        except (EOFError, OSError):
            return
        reply: Any
        try:
            reply = collector.collect(net, epsilon, iteration)
        except Exception:  # noqa: BLE001 - handed to the trainer, which raises it
            reply = traceback.format_exc()
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return
