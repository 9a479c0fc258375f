"""What the PPO learner trains on: a batch of samples as flat arrays.

Both collectors hand over the same :class:`Samples`: the NumPy reference
(:mod:`big2.learn.ppo_collect`, its trajectories converted by
:meth:`Samples.from_trajectories`) and the core's
(:mod:`big2.learn.ppo_native`, which writes the arrays directly). A
trajectory is one seat's decisions in one deal, its samples consecutive, its
final score (/ :data:`~big2.bots.policy.pnet.SCORE_SCALE`) its only reward.

>>> import numpy as np
>>> s = Samples.empty()
>>> s.size, s.lengths.tolist()
(0, [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np
import numpy.typing as npt

from big2.bots.policy.pfeatures import (
    PLAY_FEATURES,
    RAW_PLAY,
    RAW_STATE,
    STATE_FEATURES,
    play_features,
    unseen_cards,
)
from big2.bots.policy.pnet import state_features
from big2.learn.ppo_collect import Trajectory

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
I8 = npt.NDArray[np.int8]
I64 = npt.NDArray[np.int64]


@dataclass
class Samples:
    """A batch of decisions, trajectory after trajectory."""

    state: F32
    """``(N, STATE_FEATURES)``: each decision's state features (the observation first)."""
    hidden: I8
    """``(N, 156)``: the three next seats' hands (the critic's extra input)."""
    plays: F32
    """``(P, PLAY_FEATURES)``: every decision's legal plays' features, hints included."""
    counts: I64
    """``(N,)``: how many of the play rows are each decision's."""
    pick: I64
    """``(N,)``: the chosen play's place among the decision's plays."""
    logp: F32
    """``(N,)``: its log-probability under the policy that chose it."""
    lengths: I64
    """``(T,)``: each trajectory's decisions."""
    rewards: F64
    """``(T,)``: each trajectory's final score / SCORE_SCALE."""
    families: I64
    """``(T,)``: each trajectory's family index."""

    @property
    def size(self) -> int:
        """Decisions in the batch."""
        return len(self.pick)

    @property
    def starts(self) -> I64:
        """``(N,)``: each decision's first play row."""
        out: I64 = np.cumsum(self.counts) - self.counts
        return out

    def rows(self, idx: npt.NDArray[np.integer]) -> tuple[I64, I64, I64]:
        """For decisions *idx*: each of their play rows' decision (0..len(idx)),
        slot, and row in :attr:`plays`."""
        counts = self.counts[idx]
        rows = np.repeat(np.arange(len(idx)), counts)
        first = np.repeat(np.cumsum(counts) - counts, counts)
        slots = np.arange(len(rows)) - first
        flat = np.repeat(self.starts[idx], counts) + slots
        return rows, slots, flat

    @classmethod
    def empty(cls) -> Samples:
        """No decisions."""
        return cls(np.zeros((0, STATE_FEATURES), np.float32), np.zeros((0, 156), np.int8),
                   np.zeros((0, PLAY_FEATURES), np.float32), *(np.zeros(0, np.int64),) * 2,
                   np.zeros(0, np.float32), np.zeros(0, np.int64), np.zeros(0, np.float64),
                   np.zeros(0, np.int64))

    @classmethod
    def from_trajectories(cls, trajs: Sequence[Trajectory]) -> Samples:
        """The NumPy collector's trajectories as arrays (the features computed
        here, with the hints each decision kept)."""
        if not trajs:
            return cls.empty()
        obs = np.stack([o for t in trajs for o in t.obs])
        fam = np.concatenate([np.full(len(t.pick), t.family) for t in trajs])
        plays = [p for t in trajs for p in t.plays]
        counts = np.array([len(p) for p in plays], dtype=np.int64)
        hands = np.repeat(obs[:, :52], counts, axis=0)
        unseen = np.repeat(unseen_cards(obs), counts, axis=0)
        hint = np.concatenate([h for t in trajs for h in t.hints])
        return cls(state_features(obs, fam),
                   np.stack([h for t in trajs for h in t.hidden]).astype(np.int8),
                   play_features(np.concatenate(plays), hands, unseen, hint), counts,
                   np.array([p for t in trajs for p in t.pick], dtype=np.int64),
                   np.array([p for t in trajs for p in t.logp], dtype=np.float32),
                   np.array([len(t.pick) for t in trajs], dtype=np.int64),
                   np.array([t.reward for t in trajs], dtype=np.float64),
                   np.array([t.family for t in trajs], dtype=np.int64))

    def plain(self) -> Samples:
        """Zero the engineered inputs of these samples, in place (the state's after
        :data:`~big2.bots.policy.pfeatures.RAW_STATE`, the plays' after
        :data:`~big2.bots.policy.pfeatures.RAW_PLAY`, the hints included), and return
        them: what a run of the plain encoding learns from, whichever collector played
        (no copy of the batch: the learner owns it)."""
        self.state[:, RAW_STATE:] = 0
        self.plays[:, RAW_PLAY:] = 0
        return self

    @classmethod
    def concat(cls, parts: Sequence[Samples]) -> Samples:
        """Several batches as one (trajectories in order)."""
        if not parts:
            return cls.empty()
        return cls(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)))


def gae(values: F32, samples: Samples, lam: float) -> tuple[F32, F32]:
    """Advantages and returns (γ = 1, the reward at each trajectory's end) of
    *samples*, given the critic's *values* of its decisions.

    >>> s = Samples.empty()
    >>> s.lengths, s.rewards = np.array([2]), np.array([1.0])
    >>> adv, ret = gae(np.array([0.5, 0.25], np.float32), s, 1.0)
    >>> adv.tolist(), ret.tolist()
    ([0.5, 0.75], [1.0, 1.0])
    """
    adv = np.zeros_like(values)
    at = 0
    for n, reward in zip(samples.lengths.tolist(), samples.rewards.tolist()):
        v = values[at:at + n]
        delta = np.append(v[1:], reward) - v
        acc = 0.0
        for j in range(n - 1, -1, -1):
            acc = delta[j] + lam * acc
            adv[at + j] = acc
        at += n
    return adv, adv + values


__all__ = ["Samples", "gae"]
