"""Self-play collection for PPO (NumPy only).

A :class:`Collector` steps groups of games, each a
:class:`~big2.env.vector.VectorEnv` of one rule family:

* **self-play** (most games): every seat samples from the current policy;
* **pool**: seat 0 is the current policy, the other seats an earlier one;
* **bots**: seat 0 is the current policy, the other seats a fixed bot.

Only the current policy's decisions become samples. A seat's decisions in a
deal form one trajectory, handed over whole when the deal ends, with the
seat's final score as its only reward. Each sample keeps the actor's inputs
(observation, legal plays and their hint columns, family), the critic's extra input (the other
seats' hands, relative to the mover — training only: the actor never reads
it), the chosen play and its log-probability under the policy that chose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from big2.bots.policy.pfeatures import HINTS
from big2.bots.policy.phint import hints
from big2.bots.policy.pnet import SCORE_SCALE, PolicyNet, family_index, hidden_hands, sample_plays
from big2.env.vector import VectorEnv
from big2.rules import Rules

I8 = npt.NDArray[np.int8]
F32 = npt.NDArray[np.float32]


@dataclass
class Trajectory:
    """One seat's decisions in one deal, and the score it ended with."""

    obs: list[I8] = field(default_factory=list)
    hidden: list[I8] = field(default_factory=list)
    plays: list[I8] = field(default_factory=list)
    hints: list[F32] = field(default_factory=list)
    """Each decision's hint columns (``(plays, HINTS)``), as the policy read them."""
    pick: list[int] = field(default_factory=list)
    logp: list[float] = field(default_factory=list)
    family: int = 0
    reward: float = 0.0


@dataclass
class _Group:
    venv: VectorEnv
    family: int
    learners: frozenset[int]
    rival: bool
    obs: dict[str, npt.NDArray[Any]] = field(default_factory=dict)
    open: list[dict[int, Trajectory]] = field(default_factory=list)


class Collector:
    """Steps every group and hands over finished trajectories."""

    def __init__(self, families: dict[str, Rules], *, self_play: int, pool: int, bots: int,
                 opponents: tuple[str, ...], seed: int, plain: bool = False) -> None:
        self.rng = np.random.default_rng(seed)
        self.plain = plain
        """The plain encoding's run: the hints are not computed (0), the networks
        having zero weights on them (:func:`~big2.learn.ppo_model.plain_inputs`)."""
        self.groups: list[_Group] = []
        for j, (name, rules) in enumerate(families.items()):
            fam = family_index(name)
            s = seed * 7919 + j * 101
            if self_play:
                venv = VectorEnv(self_play, rules, seed=s)
                self.groups.append(_Group(venv, fam, frozenset(range(venv.num_players)), False))
            if pool:
                self.groups.append(_Group(VectorEnv(pool, rules, seed=s + 1), fam,
                                          frozenset({0}), True))
            for k, level in enumerate(opponents if bots else ()):
                venv = VectorEnv(bots, rules, seed=s + 2 + k, opponents=level, learners=(0,))
                self.groups.append(_Group(venv, fam, frozenset({0}), False))
        for g in self.groups:
            g.obs, _ = g.venv.reset()
            g.open = [{} for _ in range(g.venv.num_envs)]
        self.steps = 0
        self.deals = 0

    def collect(self, net: PolicyNet, rival: PolicyNet | None, samples: int) -> list[Trajectory]:
        """Step every group in turn until at least *samples* decisions of
        finished deals are in hand; those trajectories."""
        done: list[Trajectory] = []
        have = 0
        while have < samples:
            for group in self.groups:
                for t in self._step(group, net, rival or net):
                    done.append(t)
                    have += len(t.pick)
        return done

    def _step(self, group: _Group, net: PolicyNet, rival: PolicyNet) -> list[Trajectory]:
        venv, obs = group.venv, group.obs
        o, movers = obs["observation"], obs["to_move"]
        lp = venv.legal_plays()
        fam = np.full(len(o), group.family)
        valid = np.arange(lp.cards.shape[1])[None, :] < lp.counts[:, None]
        hint = (np.zeros((int(valid.sum()), HINTS), np.float32) if self.plain
                else hints(o, fam, lp.cards[valid], lp.counts))  # once: sampled with, and kept
        starts = np.cumsum(lp.counts) - lp.counts
        pick, logp = sample_plays(net, o, fam, lp.cards, lp.counts, self.rng, hint=hint)
        mine = np.isin(movers, list(group.learners))
        if group.rival and not mine.all():
            other = np.flatnonzero(~mine)
            rp, _ = sample_plays(rival, o[other], fam[other], lp.cards[other], lp.counts[other],
                                 self.rng)
            pick[other] = rp
        hid = hidden_hands(venv.hands(), movers)
        for i in np.flatnonzero(mine).tolist():
            seat = int(movers[i])
            t = group.open[i].get(seat)
            if t is None:
                t = group.open[i][seat] = Trajectory(family=group.family)
            t.obs.append(o[i])
            t.hidden.append(hid[i])
            t.plays.append(lp.cards[i, :lp.counts[i]])
            t.hints.append(hint[starts[i]:starts[i] + lp.counts[i]])
            t.pick.append(int(pick[i]))
            t.logp.append(float(logp[i]))
        ids = lp.ids[np.arange(len(o)), pick]
        group.obs, _, ended, _, infos = venv.step(ids)
        rewards = infos["seat_rewards"]  # (N, players): each seat's final score
        self.steps += len(o)
        out: list[Trajectory] = []
        for i in np.flatnonzero(ended).tolist():
            for seat, t in group.open[i].items():
                t.reward = float(rewards[i, seat]) / SCORE_SCALE
                out.append(t)
            group.open[i] = {}
            self.deals += 1
        return out


__all__ = ["Collector", "Trajectory"]
