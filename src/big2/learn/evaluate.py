"""Quick evaluation of a network during training: seat 0 against three bots
of one level, on a fixed stream of deals (NumPy only). The arena
(:mod:`big2.arena`) gives the duplicate-deal figures quoted in the docs."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from big2.bots.policy.pnet import PolicyNet, family_index, sample_plays
from big2.env.batch import PaddedPlays
from big2.env.vector import VectorEnv
from big2.rules import Rules

Picker = Callable[[npt.NDArray[np.int8], PaddedPlays], npt.NDArray[np.intp]]
"""A network's choice in every game: (observations, legal plays) -> each game's
index into its legal plays."""


@dataclass
class Evaluation:
    """Seat 0's results over some deals."""

    deals: int
    mean: float
    ci95: float
    win_rate: float

    def __str__(self) -> str:
        return (f"{self.mean:+.2f} ± {self.ci95:.2f} points/deal, "
                f"{100 * self.win_rate:.1f}% wins ({self.deals} deals)")


def _summary(scores: list[float]) -> Evaluation:
    deals = len(scores)
    got = np.array(scores)
    ci = 1.96 * float(got.std(ddof=1)) / math.sqrt(deals) if deals > 1 else math.inf
    return Evaluation(deals, float(got.mean()), ci, float((got > 0).mean()))


def evaluate_policy(net: PolicyNet | None, rules: Rules, opponent: str, deals: int, *,
                    family: str = "classic", seed: int = 0, envs: int = 50) -> Evaluation:
    """The policy network *net* (its most probable play; ``None``: random legal
    plays) in seat 0 against three *opponent* bots, over the first *deals*
    deals of a seeded stream."""
    if net is None:
        return evaluate_picker(None, rules, opponent, deals, seed=seed, envs=envs)
    policy = net
    rng = np.random.default_rng(seed)

    def greedy(obs: npt.NDArray[np.int8], lp: PaddedPlays) -> npt.NDArray[np.intp]:
        fam = np.full(len(obs), family_index(family))
        pick, _ = sample_plays(policy, obs, fam, lp.cards, lp.counts, rng, greedy=True)
        return pick

    return evaluate_picker(greedy, rules, opponent, deals, seed=seed, envs=envs)


def evaluate_picker(pick: Picker | None, rules: Rules, opponent: str, deals: int, *,
                    seed: int = 0, envs: int = 50) -> Evaluation:
    """A network's choice *pick* (``None``: random legal plays) in seat 0 against
    three *opponent* bots, over the first *deals* deals of a seeded stream (the
    deals :func:`evaluate_policy` plays for the same *seed*)."""
    venv = VectorEnv(min(envs, deals), rules, seed=seed, opponents=opponent, learners=(0,))
    obs, _ = venv.reset()
    rng = np.random.default_rng(seed)
    scores: list[float] = []
    while len(scores) < deals:
        if pick is None:
            ids = venv.sample(rng)
        else:
            lp = venv.legal_plays()
            ids = lp.ids[np.arange(venv.num_envs), pick(obs["observation"], lp)]
        obs, _, done, _, infos = venv.step(ids)
        rewards = infos["seat_rewards"]
        scores += [float(rewards[i, 0]) for i in np.flatnonzero(done).tolist()]
    return _summary(scores[:deals])


__all__ = ["Evaluation", "Picker", "evaluate_picker", "evaluate_policy"]
