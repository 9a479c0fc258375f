"""Search guided by the PPO policy: :class:`GuidedSearchBot`.

:class:`~big2.bots.expert.ExpertBot`'s determinized search (sampled deals of
the unseen cards, heuristic play-outs in the compiled core, successive
halving), with the policy in three roles:

1. **candidates**: the policy's most probable plays come first, then the
   heuristic's choice and the usual list;
2. **default**: the policy's favourite is never dropped by the halving, so it
   is compared with the survivors on every sampled deal, and another play
   replaces it only when its mean is higher by more than ``margin`` points
   (1 by default);
3. **shortcut** (optional): a play the policy gives more than ``sure`` is
   made without searching.

The play-outs model every seat by the heuristic (or the greedy rule), a
different player from the policy: the search corrects the policy where its
sampled deals agree, and the margin keeps noise from overturning it.

>>> from big2 import Game
>>> g = Game(seed=5)
>>> bot = GuidedSearchBot(seed=1, budget=40)
>>> bot.choose(g.view(g.to_move)) in g.legal_masks()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from big2.bots.belief import belief_weights
from big2.bots.expert import ExpertBot, _Evidence
from big2.bots.learned import PolicyNetBot, _encodable
from big2.bots.pnet import PolicyNet
from big2.cards import Mask
from big2.variant import Engine
from big2.view import PlayerView


class GuidedSearchBot(ExpertBot):
    """Determinized search with the policy's candidates and default (see the module docstring).

    Args:
        policy_candidates: the policy's most probable plays put first among
            the candidates (the rest of ``candidates`` come from the heuristic's list).
        sure: a play the policy gives more than this probability is made
            without searching (1, the default: every decision with a choice
            is searched; the policy is often sure to a float's precision,
            and searching those decisions too measured stronger).
        margin: another play replaces the policy's favourite only when its
            mean play-out score is higher by more than this many points
            (default 1: with 100 play-outs, +0.33 classic and +0.38
            selfplay-2018 points a deal over 0 against three ``heuristic``).
        belief: above 0, the sampled deals are drawn from a pool of ``pool``
            deals weighed by how likely the policy makes the other seats'
            plays so far in each (:func:`~big2.bots.belief.belief_weights`,
            raised to this power); 0 (the default) draws every deal afresh.
        pool: the deals sampled and weighed per decision when ``belief`` is above 0.
        weights: the policy ``.npz`` (default: the shipped one).

    Other options are :class:`~big2.bots.expert.ExpertBot`'s.
    """

    name = "guided-search"

    def __init__(self, seed: int | None = None, policy_candidates: int = 3,
                 sure: float = 1.0, margin: float = 1.0, belief: float = 0.0,
                 pool: int = 128, weights: str | Path | PolicyNet | None = None, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        if policy_candidates < 1:
            raise ValueError("policy_candidates must be at least 1")
        if not 0 < sure <= 1:
            raise ValueError("sure must be in (0, 1]")
        if margin < 0:
            raise ValueError("margin must be at least 0")
        self.policy_candidates = int(policy_candidates)
        self.sure = float(sure)
        self.margin = float(margin)
        if belief < 0:
            raise ValueError("belief must be at least 0")
        if pool < 1:
            raise ValueError("pool must be at least 1")
        self.belief = float(belief)
        self.pool = int(pool)
        self._pool: tuple[list[tuple[list[Mask], int]], list[float]] | None = None
        self.policy = PolicyNetBot(seed=seed, weights=weights)

    def choose(self, view: PlayerView) -> Mask:
        """The policy's favourite, unless a searched play beats it by more than ``margin``."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.rules.extended_deck or not _encodable(view.rules):
            return super().choose(view)
        p = self.policy.probabilities(view)
        top = legal[int(np.argmax(p))]
        if p.max() > self.sure:
            return top
        rows = self._rows(view, p)
        best, value = rows[0][0], rows[0][2]
        top_value = next(v for c, _, v in rows if c == top)
        return best if value > top_value + self.margin else top

    def analyse(self, view: PlayerView,
                include: Sequence[Mask] = ()) -> list[tuple[Mask, float, float]]:
        """As :meth:`ExpertBot.analyse <big2.bots.expert.ExpertBot.analyse>`,
        with the policy's candidates and its favourite never dropped."""
        if view.rules.extended_deck or not _encodable(view.rules):
            return super().analyse(view, include)
        if not view.legal:
            raise ValueError(f"seat {view.seat} is not to move: nothing to analyse")
        return self._rows(view, self.policy.probabilities(view), include)

    def _rows(self, view: PlayerView, p: np.ndarray,
              include: Sequence[Mask] = ()) -> list[tuple[Mask, float, float]]:
        """Candidates searched with the policy's favourite kept: ``(play, share, value)``, best first."""
        eng, unseen, heuristic = self._guide(view)
        cands = self._policy_candidates(eng, view, heuristic, p)
        cands += [m for m in dict.fromkeys(include) if m in view.legal and m not in cands]
        keep = {0} | {i for i, m in enumerate(cands) if m in include}
        if self.belief > 0 and any(a.seat != view.seat for a in view.history):
            evidence = self._evidence(view)
            worlds = [super(GuidedSearchBot, self)._world(view, unseen, evidence)
                      for _ in range(self.pool)]
            w = belief_weights(self.policy.network, view, [h for h, _ in worlds], self.belief)
            self._pool = (worlds, w.tolist())
        try:
            totals, counts, alive = self._halving(view, eng, cands, unseen, keep)
        finally:
            self._pool = None
        spent = max(1, sum(counts))
        order = sorted(range(len(cands)), key=lambda i: (
            i not in alive, -totals[i] / max(1, counts[i]), i))
        return [(cands[i], counts[i] / spent, totals[i] / max(1, counts[i])) for i in order]

    def _world(self, view: PlayerView, unseen: Mask,
               evidence: _Evidence) -> tuple[list[Mask], int]:
        """A deal from the weighed pool when there is one, else a fresh one."""
        if self._pool is None:
            return super()._world(view, unseen, evidence)
        worlds, w = self._pool
        return worlds[self.rng.choices(range(len(worlds)), weights=w)[0]]

    def _policy_candidates(self, eng: Engine, view: PlayerView, heuristic: Mask,
                           p: np.ndarray) -> list[Mask]:
        """The policy's likeliest plays (its favourite first), then the heuristic's list."""
        legal = view.legal
        out = [legal[int(i)] for i in np.argsort(-p, kind="stable")[:self.policy_candidates]]
        for m in self._candidates(eng, view, heuristic):
            if len(out) >= self.max_candidates:
                break
            if m not in out:
                out.append(m)
        return out


__all__ = ["GuidedSearchBot"]
