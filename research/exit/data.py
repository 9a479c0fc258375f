"""Expert iteration's data: self-play deals where the search chooses.

:func:`play_deal` deals one hand set of a rule family and lets four copies of
the ``guided-search`` bot (the levels' search, on the network being
trained) play it out. At every decision the search tallies, it records what
the policy saw and what the search found (:class:`Samples`): the
observation, the legal plays with the heuristic's hints as the policy reads
them, the policy's probabilities (the prior), and per searched candidate its
value (mean points at the end of the deal over its play-outs) and its share
of the play-outs. :mod:`research.exit.train` turns those into targets.

A deal is fixed by its :class:`DealJob` (family, scoring, the round's seed,
its number, the search's budget) and the network: the same job gives the
same samples wherever it runs (this process, a worker process or a Ray
actor; :mod:`research.exit.pool`).

>>> from big2.bots.policy.pnet import PolicyNet
>>> import numpy as np
>>> s = play_deal(PolicyNet.random(np.random.default_rng(0)),
...               DealJob("classic", "count", seed=1, index=0, budget=8))
>>> s.deals, len(s.counts) == len(s.chosen), int(s.counts.sum()) == len(s.cards)
(1, True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from big2.arena import announce_last_cards
from big2.bots.policy.net import policy_family
from big2.bots.policy.phint import hints
from big2.bots.policy.pnet import PolicyNet
from big2.bots.search import Evaluator, Score, World
from big2.bots.search.configs import guided_search
from big2.cards import Mask
from big2.game import Game, deal
from big2.observation import card_vectors, encode_view
from big2.rules import Rules
from big2.variant import variant
from big2.view import PlayerView

I8 = npt.NDArray[np.int8]
F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class DealJob:
    """One self-play deal of a round.

    Attributes:
        family: the rule family's preset name.
        scoring: the scoring played.
        seed: the round's seed.
        index: the deal's number in the round.
        budget: the search's play-outs a decision.
    """

    family: str
    scoring: str
    seed: int
    index: int
    budget: int


@dataclass
class Samples:
    """Searched decisions, one row each; their legal plays one after another.

    Attributes:
        obs: ``(N, OBS_SIZE)`` observations of the mover.
        family: ``(N,)`` the policy's family input.
        counts: ``(N,)`` legal plays of each decision.
        chosen: ``(N,)`` the index (among its legal plays) of the play made.
        cards: ``(P, 52)`` the legal plays, decision after decision.
        hints: ``(P, HINTS)`` the heuristic's hints the policy read for them.
        prior: ``(P,)`` the policy's probability of each.
        value: ``(P,)`` the search's value (mean points for the mover);
            NaN for a play the search did not try.
        share: ``(P,)`` its share of the play-outs (0 where not tried).
        gap: ``(P,)`` its mean difference from the policy's favourite (the
            first candidate) on the worlds both were played out in; NaN for
            the favourite, a play not tried, and in shards written before
            this was recorded (2026-12-05).
        gap_se: ``(P,)`` the standard error of *gap* (NaN where *gap* is).
        deals: the deals these decisions come from.
    """

    obs: I8
    family: I64
    counts: I64
    chosen: I64
    cards: I8
    hints: F32
    prior: F32
    value: F32
    share: F32
    gap: F32
    gap_se: F32
    deals: int

    @property
    def size(self) -> int:
        """The number of decisions."""
        return len(self.counts)

    @classmethod
    def concat(cls, parts: list[Samples]) -> Samples:
        """One :class:`Samples` holding *parts* in order (at least one)."""
        if not parts:
            raise ValueError("nothing to concatenate")
        arrays = {f.name: np.concatenate([getattr(p, f.name) for p in parts])
                  for f in fields(cls) if f.name != "deals"}
        return cls(**arrays, deals=sum(p.deals for p in parts))

    def part(self, start: int, stop: int) -> Samples:
        """Decisions *start* to *stop* (its ``deals`` counts those the part
        is drawn from only approximately: the share of the decisions)."""
        ends = np.cumsum(self.counts)
        a = int(ends[start - 1]) if start > 0 else 0
        b = int(ends[stop - 1]) if stop > 0 else 0
        share = (stop - start) / max(1, self.size)
        return Samples(obs=self.obs[start:stop], family=self.family[start:stop],
                       counts=self.counts[start:stop], chosen=self.chosen[start:stop],
                       cards=self.cards[a:b], hints=self.hints[a:b], prior=self.prior[a:b],
                       value=self.value[a:b], share=self.share[a:b],
                       gap=self.gap[a:b], gap_se=self.gap_se[a:b], deals=round(self.deals * share))

    def save(self, path: str | Path) -> None:
        """Write the samples as a compressed ``.npz``."""
        arrays = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "deals"}
        np.savez_compressed(path, deals=np.array(self.deals), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> Samples:
        """Samples written by :meth:`save`."""
        with np.load(path) as data:
            arrays = {f.name: data[f.name] for f in fields(cls)
                      if f.name != "deals" and f.name in data}
            for name in ("gap", "gap_se"):  # not recorded before 2026-12-05
                arrays.setdefault(name, np.full(len(arrays["value"]), np.nan, np.float32))
            return cls(**arrays, deals=int(data["deals"]))


def paired_gaps(dsum: Sequence[float], dsq: Sequence[float], dn: Sequence[int]
                ) -> tuple[list[float], list[float]]:
    """Per candidate, the mean of its differences from the first candidate
    (their sum *dsum*, sum of squares *dsq*, count *dn*) and that mean's
    standard error; NaN for the first and where fewer than two are counted.

    >>> paired_gaps([0.0, 3.0], [0.0, 5.0], [4, 2])
    ([nan, 1.5], [nan, 0.5])
    """
    gaps, ses = [math.nan] * len(dn), [math.nan] * len(dn)
    for i in range(1, len(dn)):
        n = dn[i]
        if n >= 2:
            mean = dsum[i] / n
            var = max(0.0, (dsq[i] - n * mean * mean) / (n - 1))
            gaps[i], ses[i] = mean, math.sqrt(var / n)
    return gaps, ses


class Paired:
    """An evaluator that scores as *inner* does and keeps, per candidate of a
    decision, its differences from the favourite (the first candidate of the
    decision's first call) on the worlds both were valued in: :meth:`gaps`
    after the decision. A search part of its own, so the bots carry no hook."""

    def __init__(self, inner: Evaluator) -> None:
        self.inner = inner
        self._sums: dict[Mask, list[float]] = {}
        self._favourite: Mask | None = None

    def start(self, view: PlayerView, rng: random.Random) -> Score:
        """Begin a decision: forget the last one's differences."""
        inner = self.inner.start(view, rng)
        self._sums, self._favourite = {}, None

        def score(worlds: Sequence[World], cands: Sequence[Mask]) -> list[list[float]]:
            rows = inner(worlds, cands)
            if self._favourite is None and cands:
                self._favourite = cands[0]
            favourite = self._favourite
            if favourite is not None and favourite in cands:
                first = list(cands).index(favourite)
                for row in rows:
                    for c, v in zip(cands, row):
                        d = v - row[first]
                        acc = self._sums.setdefault(c, [0.0, 0.0, 0.0])
                        acc[0] += d
                        acc[1] += d * d
                        acc[2] += 1
            return rows

        return score

    def gaps(self, cands: Sequence[Mask]) -> tuple[list[float], list[float]]:
        """Per candidate of the last decision (*cands*, the favourite first), its
        mean difference from the favourite and that mean's standard error
        (:func:`paired_gaps`)."""
        sums = [self._sums.get(c, [0.0, 0.0, 0.0]) for c in cands]
        return paired_gaps([a[0] for a in sums], [a[1] for a in sums],
                           [int(a[2]) for a in sums])

def play_deal(net: PolicyNet, job: DealJob) -> Samples:
    """Self-play deal *job* with ``guided-search`` on *net* in every seat; the
    decisions it searched (see the module docstring)."""
    rules = Rules.preset(job.family).replace(scoring=job.scoring)
    rng = random.Random(f"big2-exit:{job.seed}:{job.family}:{job.index}")
    game = Game(rules, hands=deal(rules, rng))
    n = variant(rules).players
    bots = [guided_search(seed=rng.getrandbits(63), budget=job.budget, weights=net)
            for _ in range(n)]
    paired = [Paired(bot.search.evaluator) for bot in bots]
    for bot, pair in zip(bots, paired):  # the candidates' paired gaps from the favourite too
        bot.search = replace(bot.search, evaluator=pair)
    rows: dict[str, list[np.ndarray]] = {f.name: [] for f in fields(Samples) if f.name != "deals"}
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        choice, tally, p = bots[seat].decide(view)
        if tally is not None and p is not None:
            legal = list(view.legal)
            k = len(legal)
            obs = encode_view(view)
            cards = card_vectors(legal)
            fam = policy_family(view.rules)
            value = np.full(k, np.nan, dtype=np.float32)
            share = np.zeros(k, dtype=np.float32)
            gap = np.full(k, np.nan, dtype=np.float32)
            gap_se = np.full(k, np.nan, dtype=np.float32)
            gaps, ses = paired[seat].gaps(tally.cands)
            for play, v, s, g, e in zip(tally.cands, tally.values, tally.shares, gaps, ses):
                i = legal.index(play)
                value[i], share[i], gap[i], gap_se[i] = v, s, g, e
            rows["obs"].append(obs[None])
            rows["family"].append(np.array([fam], dtype=np.int64))
            rows["counts"].append(np.array([k], dtype=np.int64))
            rows["chosen"].append(np.array([legal.index(choice)], dtype=np.int64))
            rows["cards"].append(cards)
            rows["hints"].append(hints(obs[None], np.array([fam]), cards, np.array([k]),
                                       view.rules))
            rows["prior"].append(np.asarray(p, dtype=np.float32))
            rows["value"].append(value)
            rows["share"].append(share)
            rows["gap"].append(gap)
            rows["gap_se"].append(gap_se)
        game.play(choice)
        announce_last_cards(game)
    if not rows["counts"]:
        return empty_samples(deals=1)
    return Samples(**{k: np.concatenate(v) for k, v in rows.items()}, deals=1)


def empty_samples(deals: int = 0) -> Samples:
    """Samples with no decision (from *deals* deals)."""
    from big2.bots.policy.pfeatures import HINTS
    from big2.observation import OBS_SIZE

    return Samples(obs=np.zeros((0, OBS_SIZE), np.int8), family=np.zeros(0, np.int64),
                   counts=np.zeros(0, np.int64), chosen=np.zeros(0, np.int64),
                   cards=np.zeros((0, 52), np.int8), hints=np.zeros((0, HINTS), np.float32),
                   prior=np.zeros(0, np.float32), value=np.zeros(0, np.float32),
                   share=np.zeros(0, np.float32), gap=np.zeros(0, np.float32),
                   gap_se=np.zeros(0, np.float32), deals=deals)


__all__ = ["DealJob", "Paired", "Samples", "empty_samples", "paired_gaps", "play_deal"]
