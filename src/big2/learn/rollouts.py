"""Self-play actors for Deep Monte-Carlo training (NumPy only).

An :class:`Actor` steps three groups of games, each a
:class:`~big2.env.vector.VectorEnv`:

* **self-play**: every seat is played by the current network;
* **pool**: seat 0 is the current network, the other seats an earlier
  version drawn from the pool of snapshots;
* **bots**: seat 0 is the current network, the other seats fixed bots.

Every (observation, play) pair the *current* network chooses is labelled,
when its deal ends, with that seat's final score divided by
:data:`~big2.bots.qnet.SCORE_SCALE` (the Monte-Carlo return). Features are
0/1, so samples are kept as ``int8``.

The actor needs no PyTorch: it acts with :class:`~big2.bots.qnet.QNet`, so
it runs the same in this process or as a Ray actor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from big2.bots.qnet import FEATURES, SCORE_SCALE, QNet, pair_features
from big2.env.vector import VectorEnv
from big2.rules import Rules

Samples = tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]


@dataclass
class ActorConfig:
    """How an actor splits its games."""

    rules: Rules
    self_play: int = 96
    pool: int = 32
    bots: int = 32
    opponents: Sequence[str] = ("heuristic", "greedy")
    """Fixed bots of the bots group, a level per game in turn."""
    seed: int = 0


@dataclass
class _Group:
    venv: VectorEnv
    learners: frozenset[int]
    obs: dict[str, npt.NDArray[np.int8]] = field(default_factory=dict)
    open: list[list[tuple[int, npt.NDArray[np.int8]]]] = field(default_factory=list)


def choose(q: QNet, obs: dict[str, npt.NDArray[np.int8]], venv: VectorEnv, epsilon: float,
           rng: np.random.Generator) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """Each game's action id (best Q, or a uniformly random legal play with
    probability *epsilon*) and the chosen pair's features."""
    plays = venv.legal_plays()
    o = obs["observation"]
    n, k, _ = plays.cards.shape
    values = q.scores(o, plays.cards)
    values[np.arange(k)[None, :] >= plays.counts[:, None]] = -np.inf
    pick = values.argmax(axis=1)
    if epsilon > 0:
        explore = np.asarray(rng.random(n) < epsilon)
        pick[explore] = (rng.random(int(explore.sum())) * plays.counts[explore]).astype(np.int64)
    rows = np.arange(n)
    chosen = pair_features(o, plays.cards[rows, pick][:, None, :])[:, 0]
    return plays.ids[rows, pick], chosen


class Actor:
    """Plays self-play, pool and bot games with the weights it is given."""

    def __init__(self, config: ActorConfig) -> None:
        self.config = config
        self.rng = np.random.default_rng(config.seed)
        rules, seed = config.rules, config.seed
        self.groups: list[_Group] = []
        if config.self_play:
            venv = VectorEnv(config.self_play, rules, seed=seed * 3 + 0)
            self.groups.append(_Group(venv, frozenset(range(venv.num_players))))
        if config.pool:
            venv = VectorEnv(config.pool, rules, seed=seed * 3 + 1)
            self.groups.append(_Group(venv, frozenset({0})))
        self._bot_envs: list[VectorEnv] = []
        if config.bots:
            per = max(1, config.bots // len(config.opponents))
            for j, level in enumerate(config.opponents):
                venv = VectorEnv(per, rules, seed=seed * 3 + 2 + 1000 * j, opponents=level,
                                 learners=(0,))
                self.groups.append(_Group(venv, frozenset({0})))
        for g in self.groups:
            g.obs, _ = g.venv.reset()
            g.open = [[] for _ in range(g.venv.num_envs)]
        self.deals = 0

    def deals_done(self) -> int:
        """Deals finished so far (every group)."""
        return self.deals

    def collect(self, net: QNet, pool: Sequence[QNet], steps: int, epsilon: float) -> Samples:
        """Step every group *steps* times; the labelled samples of every deal
        that ended (the current network's choices only)."""
        xs: list[npt.NDArray[np.int8]] = []
        ys: list[float] = []
        rival = pool[int(self.rng.integers(len(pool)))] if pool else net
        for group in self.groups:
            for _ in range(steps):
                self._step(group, net, rival, epsilon, xs, ys)
        if not xs:
            return np.zeros((0, FEATURES), np.int8), np.zeros(0, np.float32)
        return np.stack(xs), np.array(ys, dtype=np.float32)

    def _step(self, group: _Group, net: QNet, rival: QNet, epsilon: float,
              xs: list[npt.NDArray[np.int8]], ys: list[float]) -> None:
        venv, obs = group.venv, group.obs
        seats = obs["to_move"]
        mine = np.isin(seats, list(group.learners))
        ids, chosen = choose(net, obs, venv, epsilon, self.rng)
        if not mine.all():  # the pool's seats: the rival network, greedy in Q
            other_ids, _ = choose(rival, obs, venv, 0.0, self.rng)
            ids = np.where(mine, ids, other_ids)
        chosen8 = chosen.astype(np.int8)
        for i in np.flatnonzero(mine).tolist():
            group.open[i].append((int(seats[i]), chosen8[i]))
        group.obs, _, done, _, infos = venv.step(ids)
        rewards = infos["seat_rewards"]  # (N, players): each seat's final score
        for i in np.flatnonzero(done).tolist():
            for seat, x in group.open[i]:
                xs.append(x)
                ys.append(float(rewards[i, seat]) / SCORE_SCALE)
            group.open[i] = []
            self.deals += 1


__all__ = ["Actor", "ActorConfig", "Samples", "choose"]
