"""Quick evaluation of a network during training: seat 0 against three bots
of one level, on a fixed stream of deals (NumPy only). The arena
(:mod:`big2.arena`) gives the duplicate-deal figures quoted in the docs."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from big2.bots.policy.pnet import PolicyNet, family_index, sample_plays
from big2.env.vector import VectorEnv
from big2.rules import Rules


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
    venv = VectorEnv(min(envs, deals), rules, seed=seed, opponents=opponent, learners=(0,))
    obs, _ = venv.reset()
    rng = np.random.default_rng(seed)
    fam = np.full(venv.num_envs, family_index(family))
    scores: list[float] = []
    while len(scores) < deals:
        if net is None:
            ids = venv.sample(rng)
        else:
            lp = venv.legal_plays()
            pick, _ = sample_plays(net, obs["observation"], fam, lp.cards, lp.counts, rng,
                                   greedy=True)
            ids = lp.ids[np.arange(venv.num_envs), pick]
        obs, _, done, _, infos = venv.step(ids)
        rewards = infos["seat_rewards"]
        scores += [float(rewards[i, 0]) for i in np.flatnonzero(done).tolist()]
    return _summary(scores[:deals])


__all__ = ["Evaluation", "evaluate_policy"]
