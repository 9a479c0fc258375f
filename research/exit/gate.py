"""Expert iteration's gate: a round's network against the last kept one,
on duplicate deals (:func:`play_gate`, :func:`gate_jobs`, :func:`summarise`).

Two measures per rule family, both at the ``hard`` level (``guided-search``
with the round's budget) on each network:

* **paired vs heuristic**: ``hard`` on the new network in seat 0 against three
  ``heuristic``, and ``hard`` on the old one in its place, on the same duplicate
  deals; the per-deal difference of seat 0's points (what
  :func:`big2.arena.paired.paired_difference` gives for two arena runs);
* **head to head**: ``hard`` on the new network against three ``hard`` on
  the old one; seat 0's points a deal.

Each duplicate deal is :func:`big2.arena.play_duplicate` with the seats
``hard:budget=B:weights=FILE``, so a gate is the arena run
``big2 arena --seats hard:weights=new.npz,heuristic,heuristic,heuristic
--scoring count --seed S --deals D`` (and the others) deal for deal.
"""

from __future__ import annotations

import math
import statistics
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from big2.bots.policy.pnet import PolicyNet
from big2.rules import Rules

KINDS = ("new-vs-heuristic", "old-vs-heuristic", "new-vs-old")
"""The three arena runs of a gate, per family."""

_SEATS = {"new-vs-heuristic": ("new", "heuristic", "heuristic", "heuristic"),
          "old-vs-heuristic": ("old", "heuristic", "heuristic", "heuristic"),
          "new-vs-old": ("new", "old", "old", "old")}


@dataclass(frozen=True)
class GateJob:
    """One duplicate deal of one of a gate's arena runs."""

    kind: str
    family: str
    scoring: str
    seed: int
    index: int
    budget: int


def gate_jobs(families: tuple[str, ...], scoring: str, seed: int, deals: int,
              budget: int, h2h_deals: int | None = None) -> list[GateJob]:
    """Every duplicate deal of a gate: *deals* a family of the paired runs
    against ``heuristic`` and *h2h_deals* (all *deals* if ``None``) of the
    head to head, which costs about four times a deal (four searching seats);
    deal by deal, so that a gate cut short has whole pairs for its first deals.

    >>> [(j.kind, j.index) for j in gate_jobs(("classic",), "count", 0, 2, 100, h2h_deals=1)]
    [('new-vs-heuristic', 0), ('old-vs-heuristic', 0), ('new-vs-old', 0), ('new-vs-heuristic', 1), ('old-vs-heuristic', 1)]
    """
    h2h = deals if h2h_deals is None else h2h_deals
    return [GateJob(kind, fam, scoring, seed, i, budget)
            for i in range(max(deals, h2h)) for fam in families for kind in KINDS
            if i < (h2h if kind == "new-vs-old" else deals)]


_FILES: dict[str, str] = {}


def _weights_file(key: str, net: PolicyNet) -> str:
    """*net* written once per process to a temporary ``.npz`` named by *key*."""
    if key not in _FILES:
        folder = Path(tempfile.mkdtemp(prefix="big2-exit-"))
        path = folder / f"{key}.npz"
        net.save(path)
        _FILES[key] = str(path)
    return _FILES[key]


def play_gate(nets: dict[str, Any], job: GateJob) -> tuple[int, ...]:
    """The points (each player's, summed over the rotations) of gate deal
    *job*; *nets* maps ``"new"`` and ``"old"`` to networks and ``"keys"`` to
    a name for each that is unique to this gate (the workers' file names)."""
    from big2.arena import play_duplicate

    seats = []
    for who in _SEATS[job.kind]:
        if who in ("new", "old"):
            path = _weights_file(nets["keys"][who], nets[who])
            seats.append(f"hard:budget={job.budget}:weights={path}")
        else:
            seats.append(who)
    rules = Rules.preset(job.family).replace(scoring=job.scoring)
    return play_duplicate(seats, rules, job.seed, job.index).points


@dataclass(frozen=True)
class Measure:
    """A mean points/deal with its 95% confidence interval."""

    mean: float
    low: float
    high: float
    deals: int

    def __str__(self) -> str:
        return f"{self.mean:+.2f} ({self.low:+.2f}, {self.high:+.2f}) over {self.deals} deals"


def measure(values: list[float]) -> Measure:
    """Mean and normal 95% interval of per-deal *values* (NaN with none)."""
    if not values:
        return Measure(math.nan, math.nan, math.nan, 0)
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return Measure(mean, mean - half, mean + half, len(values))


def summarise(results: dict[tuple[str, str, int], tuple[int, ...]],
              families: tuple[str, ...]) -> dict[str, Measure]:
    """The gate's figures from its deals' points (keyed by kind, family and
    deal): ``paired/FAMILY`` and ``h2h/FAMILY`` per family and ``paired``,
    ``h2h`` over every family (a deal counts where all of its runs finished)."""
    out: dict[str, Measure] = {}
    paired_all: list[float] = []
    h2h_all: list[float] = []
    for fam in families:
        paired, h2h = [], []
        deals = sorted({i for (_, f, i) in results if f == fam})
        for i in deals:
            a, b, c = (results.get((kind, fam, i)) for kind in KINDS)
            if a is not None and b is not None:
                paired.append((a[0] - b[0]) / len(a))
            if c is not None:
                h2h.append(c[0] / len(c))
        out[f"paired/{fam}"], out[f"h2h/{fam}"] = measure(paired), measure(h2h)
        paired_all += paired
        h2h_all += h2h
    out["paired"], out["h2h"] = measure(paired_all), measure(h2h_all)
    return out


def wins(figures: dict[str, Measure]) -> bool:
    """Whether a round's network is kept: it beats the old one head to head
    (mean above 0 over every family) and is not measurably worse against
    three ``heuristic`` (the paired interval's top above 0)."""
    h2h, paired = figures["h2h"], figures["paired"]
    return h2h.deals > 0 and h2h.mean > 0 and paired.high > 0


__all__ = ["KINDS", "GateJob", "Measure", "gate_jobs", "measure", "play_gate", "summarise", "wins"]
