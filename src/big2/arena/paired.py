"""Paired comparisons: two bots in one seat, on the very same deals.

Two arena runs with the same seats but one, the same rules, deals and seed,
play the same cards against the same opponents (each bot is seeded from the
arena seed, the deal and its player number). Where the two bots make the
same plays, the deals play out the same and their scores cancel, so the
per-deal *difference* varies far less than either score: a paired comparison
separates two close bots with a fraction of the deals that two separate
confidence intervals need.

>>> from big2.arena import run_arena
>>> from big2.rules import Rules
>>> a = run_arena(["greedy", "random"], deals=20, rules=Rules(players=2), seed=3)
>>> b = run_arena(["random", "random"], deals=20, rules=Rules(players=2), seed=3)
>>> d = paired_difference(a, b)
>>> d.deals, d.low < d.mean < d.high
(20, True)
"""

from __future__ import annotations

import math
import statistics
from typing import NamedTuple

from big2.arena import ArenaResult


class Difference(NamedTuple):
    """Mean per-deal difference (points/deal of one player) with its 95% CI."""

    mean: float
    low: float
    high: float
    deals: int

    def __str__(self) -> str:
        return (f"{self.mean:+.2f} ({self.low:+.2f}, {self.high:+.2f}) "
                f"paired over {self.deals} deals")


def paired_difference(a: ArenaResult, b: ArenaResult, player: int = 0) -> Difference:
    """Player *player*'s points/deal in run *a* minus run *b*, deal by deal.

    Raises:
        ValueError: when the runs did not play the same deals (rules, seed,
            number of deals or of players differ).
    """
    if (a.rules, a.seed, a.deals, len(a.seats)) != (b.rules, b.seed, b.deals, len(b.seats)):
        raise ValueError("the two runs did not play the same deals: the rules, the seed, "
                         "the number of deals and of players must be equal")
    if not 0 <= player < len(a.seats):
        raise ValueError(f"player {player} is not in a run of {len(a.seats)} players")
    n = len(a.seats)
    diffs = [(x[player] - y[player]) / n for x, y in zip(a.points, b.points)]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return Difference(round(mean, 6), round(mean - half, 6), round(mean + half, 6), len(diffs))


__all__ = ["Difference", "paired_difference"]
