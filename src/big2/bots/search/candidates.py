"""Candidate plays: which of the legal plays a search compares.

A candidate rule is called as ``rule(view, guide, p)``: the seat's view, the
heuristic bot's play there (*guide*, :func:`heuristic_guide`) and the policy's
probabilities over ``view.legal`` (*p*, ``None`` without a policy). It returns
distinct legal plays, the one it favours first.

- :class:`AllLegal`: every legal play (the heuristic's first);
- :class:`HeuristicCandidates`: the heuristic's play, the pass, the plays of
  its hand plan, the strongest play (to block), then the weakest;
- :class:`PolicyFirst`: the policy's likeliest plays, then the heuristic's list
  (the policy's alone when ``top`` is ``limit``).

>>> from big2 import Game
>>> g = Game(seed=5)
>>> view = g.view(g.to_move)
>>> cands = HeuristicCandidates(limit=4)(view, heuristic_guide(view), None)
>>> cands[0] == heuristic_guide(view) and len(cands) <= 4 and set(cands) <= set(view.legal)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from big2.bots.rules_based.heuristic import decide
from big2.bots.rules_based.planning import plan
from big2.cards import Mask
from big2.combos import engine
from big2.view import PlayerView


class CandidateRule(Protocol):
    """Chooses the plays a search compares (see the module docstring)."""

    def __call__(self, view: PlayerView, guide: Mask,
                 p: Sequence[float] | None) -> list[Mask]:
        """Distinct legal plays, the favoured one first."""
        ...


def heuristic_guide(view: PlayerView) -> Mask:
    """The heuristic bot's play in *view* (its default style)."""
    return decide(engine(view.rules), view.seat, int(view.hand), view.legal,
                  int(view.last_play), view.card_counts, int(view.unseen))


def _ranked(p: Sequence[float]) -> list[int]:
    """Indices of *p*, most probable first (ties in index order)."""
    return sorted(range(len(p)), key=lambda i: -p[i])


@dataclass(frozen=True)
class AllLegal:
    """Every legal play, the heuristic's first (at most *limit*, the weakest
    first after it, when given)."""

    limit: int | None = None

    def __post_init__(self) -> None:
        if self.limit is not None and self.limit < 2:
            raise ValueError("candidates must be at least 2")

    def __call__(self, view: PlayerView, guide: Mask,
                 p: Sequence[float] | None = None) -> list[Mask]:
        """The legal plays (*p* is not read)."""
        out = [guide] + [m for m in view.legal if m != guide]
        return out if self.limit is None else out[:self.limit]


@dataclass(frozen=True)
class HeuristicCandidates:
    """The heuristic's play, the pass, its plan's plays, the strongest, then the
    weakest plays: at most *limit*."""

    limit: int = 8

    def __post_init__(self) -> None:
        if self.limit < 2:
            raise ValueError("candidates must be at least 2")

    def __call__(self, view: PlayerView, guide: Mask,
                 p: Sequence[float] | None = None) -> list[Mask]:
        """The heuristic's list (*p* is not read)."""
        legal = view.legal
        order: list[Mask] = [guide]
        if 0 in legal:
            order.append(0)
        legal_set = set(legal)
        order += [c for c in plan(engine(view.rules), int(view.hand)).combos if c in legal_set]
        plays = [m for m in legal if m]
        if plays:
            order.append(plays[-1])  # the strongest, to block
        order += plays
        out: list[Mask] = []
        seen: set[Mask] = set()
        for m in order:
            if m not in seen:
                seen.add(m)
                out.append(m)
                if len(out) >= self.limit:
                    break
        return out


@dataclass(frozen=True)
class PolicyFirst:
    """The policy's *top* likeliest plays (its favourite first), then the
    heuristic's list, at most *limit* in all."""

    top: int = 3
    limit: int = 8

    def __post_init__(self) -> None:
        if self.top < 1:
            raise ValueError("policy_candidates must be at least 1")
        if self.limit < 2:
            raise ValueError("candidates must be at least 2")

    def __call__(self, view: PlayerView, guide: Mask,
                 p: Sequence[float] | None) -> list[Mask]:
        """The policy's plays, then the heuristic's."""
        if p is None:
            raise ValueError("PolicyFirst needs the policy's probabilities")
        legal = view.legal
        out = [legal[i] for i in _ranked(p)[:self.top]]
        if len(out) >= self.limit:
            return out[:self.limit]
        for m in HeuristicCandidates(self.limit)(view, guide):
            if len(out) >= self.limit:
                break
            if m not in out:
                out.append(m)
        return out


__all__ = ["AllLegal", "CandidateRule", "HeuristicCandidates", "PolicyFirst", "heuristic_guide"]
