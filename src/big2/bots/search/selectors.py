"""Selectors: how a search spends its worlds on the candidates, and which play wins.

A selector runs ``selector.run(cands, sampler, score, keep)``: it draws worlds
from *sampler* (:mod:`big2.bots.search.worlds`), has *score*
(:mod:`big2.bots.search.evaluators`) value candidates in them, and returns a
:class:`Tally`: per candidate its value and share of the play-outs, and which
survived. :func:`rows` orders a tally best first; :func:`keep_unless_beaten`
makes the final choice, keeping a favourite (the policy's play, or the
heuristic's) unless another is better by more than a margin.

- :class:`SuccessiveHalving`: a budget of play-outs in rounds; each round the
  worse half is dropped and the rest get more worlds (common worlds for
  every candidate); candidates in *keep* are never dropped;
- :class:`Flat`: every candidate in the same *samples* worlds, their values
  averaged with the worlds' weights.

>>> t = Tally([1, 2], values=[0.5, 1.5], shares=[0.5, 0.5], alive=[1, 0])
>>> [r.play for r in rows(t)], keep_unless_beaten(t, favourite=1, margin=2.0)
([2, 1], 1)
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from big2.bots.search.evaluators import Score
from big2.bots.search.worlds import Sampler
from big2.cards import Mask


@dataclass
class Tally:
    """What a selector found: per candidate (in order, *cands*) its value
    (mean points for the seat) and share of the play-outs; *alive*: the
    indices of the candidates still in the running at the end, which
    :func:`rows` ranks first and :func:`keep_unless_beaten` reads (a
    favourite dropped earlier cannot be kept)."""

    cands: list[Mask]
    values: list[float]
    shares: list[float]
    alive: list[int]


class Row(NamedTuple):
    """One candidate of a search: its play, share of the play-outs and value."""

    play: Mask
    share: float
    value: float


class Selector(Protocol):
    """Spends worlds on candidates (see the module docstring)."""

    def run(self, cands: list[Mask], sampler: Sampler, score: Score,
            keep: Collection[int] = ()) -> Tally:
        """The :class:`Tally` of *cands*, worlds drawn from *sampler*
        (:meth:`~big2.bots.search.worlds.Sampler.draw` or ``draws``) and
        valued by *score*; candidates whose index is in *keep* are never dropped."""
        ...


def rows(tally: Tally) -> list[Row]:
    """The tally's candidates, best first: the survivors by value, then those
    dropped earlier (ties in candidate order)."""
    alive = set(tally.alive)
    order = sorted(range(len(tally.cands)),
                   key=lambda i: (i not in alive, -tally.values[i], i))
    return [Row(tally.cands[i], tally.shares[i], tally.values[i]) for i in order]


def keep_unless_beaten(tally: Tally, favourite: Mask, margin: float = 0.0) -> Mask:
    """The best play of *tally* (the head of :func:`rows`), unless *favourite*
    survived and the best is not worth more than *margin* points over it."""
    best = rows(tally)[0]
    for i in tally.alive:
        if tally.cands[i] == favourite and best.value <= tally.values[i] + margin:
            return favourite
    return best.play


@dataclass(frozen=True)
class SuccessiveHalving:
    """*budget* play-outs a decision in ``ceil(log2(candidates))`` rounds,
    halving the candidates each round; *seconds* optionally caps the time
    (then results depend on the machine's speed). *batch* worlds are scored
    in one call (1 for the heuristic play-out, which plays a world's
    candidates in one call to the core; more for an evaluator that batches
    across worlds, such as a policy's roll)."""

    budget: int = 800
    seconds: float | None = None
    batch: int = 1

    def __post_init__(self) -> None:
        if self.budget < 1:
            raise ValueError("budget must be at least 1 play-out")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("seconds must be positive")
        if self.batch < 1:
            raise ValueError("batch must be at least 1 world")

    def run(self, cands: list[Mask], sampler: Sampler, score: Score,
            keep: Collection[int] = ()) -> Tally:
        """Successive halving over *cands* on common worlds."""
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        totals = [0.0] * len(cands)
        counts = [0] * len(cands)
        alive = list(range(len(cands)))
        rounds = max(1, math.ceil(math.log2(len(cands))))
        spent = 0
        for rnd in range(rounds):
            share = (self.budget - spent) // (rounds - rnd)
            samples = max(1, share // len(alive))
            done = 0
            while done < samples:
                if deadline is not None and time.perf_counter() > deadline and min(
                        counts[i] for i in alive) > 0:
                    break
                worlds = [sampler.draw() for _ in range(min(self.batch, samples - done))]
                done += len(worlds)
                for got in score(worlds, [cands[i] for i in alive]):
                    for i, v in zip(alive, got):
                        totals[i] += v
                        counts[i] += 1
                        spent += 1
            if len(alive) <= 2 and rnd < rounds - 1:
                continue
            alive.sort(key=lambda i: -totals[i] / max(1, counts[i]))
            if rnd < rounds - 1:
                kept = alive[:max(1, math.ceil(len(alive) / 2))]
                alive = kept + [i for i in alive if i in keep and i not in kept]
        played = max(1, sum(counts))
        return Tally(list(cands), [t / max(1, c) for t, c in zip(totals, counts)],
                     [c / played for c in counts], alive)


@dataclass(frozen=True)
class Flat:
    """Every candidate in the same *samples* worlds, valued by the worlds'
    weighted mean (weights from :attr:`World.weight <big2.bots.search.worlds.World>`)."""

    samples: int = 48

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError("samples must be at least 1")

    def run(self, cands: list[Mask], sampler: Sampler, score: Score,
            keep: Collection[int] = ()) -> Tally:
        """Every candidate valued in every world."""
        import numpy as np

        worlds = sampler.draws(self.samples)
        w = np.array([x.weight for x in worlds])
        values = np.array(score(worlds, cands))
        means: list[float] = ((w / w.sum()) @ values).tolist()
        return Tally(list(cands), means, [1 / len(cands)] * len(cands),
                     list(range(len(cands))))


__all__ = ["Flat", "Row", "Selector", "SuccessiveHalving", "Tally",
           "keep_unless_beaten", "rows"]
