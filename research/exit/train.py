"""Expert iteration's learning step: the policy moves toward the search.

:func:`targets` turns a round's searched decisions (:class:`~research.exit.data.Samples`)
into a distribution over each decision's legal plays. The plays the search
did not try keep the policy's own probability (the prior); the plays it
tried share the prior's mass on them by what the search found:

* ``values``: a softmax of their values (mean points) at a temperature in
  points (lower: closer to the search's best play), the policy's favourite
  (its most probable play) credited with *favour* points first: with the
  search's margin (``guided-search``: 1 point) the target's most probable
  play is the play the search makes. Only the survivors of successive
  halving (the tried plays with the largest share: every survivor was
  played out in the same worlds) have values that compare; a play dropped
  early was valued on a few worlds of its own, and its mean there says
  more about those worlds than about the play, so it counts as no better
  than the worst survivor (it lost to the survivors on common worlds).
  Before this (2026-12-05) a dropped play's raw mean was used, and it was
  the target's favourite instead of the search's play in about 6% of the
  decisions;
* ``shares``: their shares of the play-outs (successive halving gives the
  survivors more; the favourite is never dropped, so it keeps a large share).

With a *significance* ``z`` above 0, only the decisions where the search
overturned the policy beyond its noise teach (:func:`teaching`): the play
made is not the policy's favourite and beat it by more than ``z`` standard
errors of their paired difference (:attr:`~research.exit.data.Samples.gap`).
Every other decision's target is the prior itself, an anchor: its loss's
gradient is 0 where the policy has not moved and pulls it back where it
has, so the policy changes where the search says so and nowhere else. (A
network as sure of itself as the PPO one, whose favourite the search keeps
in about 83% of decisions, otherwise learns mostly to be surer still, and
Adam's steps move it as far whatever the signal: rounds 5-8 of 2026-12-05.)

:func:`fit` trains the actor (:class:`~big2.learn.ppo_model.Actor`) on them
with Adam or with SGD (momentum 0.9: a step in proportion to the gradient,
so a weight no decision pulls on stays where it is, which Adam's
normalised steps do not promise): ``ce``, the cross-entropy of the targets under the policy (the
forward KL up to a constant), or ``kl``, the reverse KL of the policy from
the targets (mode-seeking). The critic is not trained here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from big2.bots.policy.pfeatures import unseen_cards
from big2.bots.policy.pnet import play_features, state_features
from big2.observation import LAYOUT
from research.exit.data import Samples

F32 = npt.NDArray[np.float32]
TARGETS = ("values", "shares")
"""The kinds of target :func:`targets` makes."""
LOSSES = ("ce", "kl")
"""The losses :func:`fit` minimises."""
OPTIMIZERS = ("adam", "sgd")
"""The optimisers :func:`fit` steps with."""


def teaching(s: Samples, significance: float) -> npt.NDArray[np.bool_]:
    """``(N,)``: the decisions where the search overturned the policy beyond its
    noise: the play made is not the policy's favourite (its most probable
    play) and its paired gap from it is above 0 and above *significance*
    standard errors. Decisions without a recorded gap teach nothing here.

    Raises:
        ValueError: a negative *significance*.
    """
    if significance < 0:
        raise ValueError("significance must be at least 0")
    ends = np.cumsum(s.counts)
    out = np.zeros(s.size, dtype=bool)
    for n, (a, b) in enumerate(zip(ends - s.counts, ends)):
        k = int(s.chosen[n])
        if k == int(np.argmax(s.prior[a:b])):
            continue
        gap, se = float(s.gap[a + k]), float(s.gap_se[a + k])
        out[n] = gap > 0 and gap > significance * se  # False where NaN
    return out


def targets(s: Samples, kind: str = "values", temperature: float = 1.0,
            favour: float = 1.0, significance: float = 0.0) -> F32:
    """``(P,)``: each legal play's target probability (see the module docstring;
    *significance* above 0: only the decisions :func:`teaching` finds move
    from the prior).

    Raises:
        ValueError: an unknown *kind*, a temperature not above 0 or a
            negative significance.
    """
    if kind not in TARGETS:
        raise ValueError(f"target {kind!r}: choose from {', '.join(TARGETS)}")
    if temperature <= 0:
        raise ValueError("temperature must be above 0")
    teach = teaching(s, significance) if significance > 0 else np.ones(s.size, dtype=bool)
    out = s.prior.astype(np.float64)
    ends = np.cumsum(s.counts)
    for n, (a, b) in enumerate(zip(ends - s.counts, ends)):
        value = s.value[a:b]
        tried = np.flatnonzero(~np.isnan(value))
        if len(tried) == 0 or not teach[n]:
            continue
        mass = out[a + tried].sum()
        if kind == "values":
            z = value[tried].astype(np.float64)
            alive = survivors(s.share[a + tried])
            z[~alive] = np.minimum(z[~alive], z[alive].min())
            z[np.argmax(s.prior[a + tried])] += favour
            z /= temperature
            w = np.exp(z - z.max())
        else:
            w = s.share[a + tried].astype(np.float64)
            if w.sum() <= 0:
                continue
        out[a + tried] = mass * w / w.sum()
    ends_sum = np.add.reduceat(out, ends - s.counts) if len(out) else out
    out /= np.repeat(ends_sum, s.counts)
    return out.astype(np.float32)


def survivors(share: F32) -> npt.NDArray[np.bool_]:
    """Which of a decision's tried plays (their shares of the play-outs)
    survived successive halving: those played out the most (the survivors
    are played out in every round, on the same worlds; a dropped play in
    fewer)."""
    alive: npt.NDArray[np.bool_] = np.isclose(share, share.max(), rtol=1e-4, atol=0.0)
    return alive


def acceptable(s: Samples, play: npt.NDArray[np.int64], margin: float = 1.0
               ) -> npt.NDArray[np.bool_]:
    """``(N,)``: whether *play* (an index among each decision's legal plays)
    is one the search would have kept as its favourite: a survivor whose
    value is within *margin* points of the best survivor's. The policy's
    agreement with the search's play (``chosen``) favours the favourite the
    search had (the margin keeps it); this does not, so it is the measure of
    a changed policy (for the policy that searched, the two are the same)."""
    ends = np.cumsum(s.counts)
    out = np.zeros(s.size, dtype=bool)
    for n, (a, b) in enumerate(zip(ends - s.counts, ends)):
        value, k = s.value[a:b], int(play[n])
        tried = np.flatnonzero(~np.isnan(value))
        if k not in tried:
            continue
        alive = tried[survivors(s.share[a + tried])]
        out[n] = k in alive and value[k] + margin >= value[alive].max()
    return out


@dataclass
class Features:
    """A round's decisions as the actor's inputs."""

    state: F32
    plays: F32
    counts: npt.NDArray[np.int64]
    starts: npt.NDArray[np.int64]
    chosen: npt.NDArray[np.int64]

    @classmethod
    def of(cls, s: Samples) -> Features:
        """The state and play features of every decision of *s*."""
        hands = np.repeat(s.obs[:, LAYOUT["hand"]], s.counts, axis=0)
        unseen = np.repeat(unseen_cards(s.obs), s.counts, axis=0)
        return cls(state=state_features(s.obs, s.family),
                   plays=play_features(s.cards, hands, unseen, s.hints),
                   counts=s.counts.astype(np.int64),
                   starts=np.concatenate([[0], np.cumsum(s.counts)[:-1]]).astype(np.int64),
                   chosen=s.chosen.astype(np.int64))

    def rows(self, idx: npt.NDArray[np.int64]) -> tuple[Any, Any, Any]:
        """For decisions *idx*: each play row's decision (0..len(idx)), slot and flat index."""
        counts = self.counts[idx]
        rows = np.repeat(np.arange(len(idx)), counts)
        slots = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
        flat = np.repeat(self.starts[idx], counts) + slots
        return rows, slots, flat


def fit(actor: Any, s: Samples, target: F32, *, epochs: int = 2, minibatch: int = 512,
        lr: float = 1e-4, loss: str = "ce", seed: int = 0, max_grad: float = 0.5,
        margin: float = 1.0, optimizer: str = "adam") -> dict[str, float]:
    """Train *actor* (in place) toward *target* on the decisions of *s*; its
    figures before and after: the loss, the agreement of the policy's most
    probable play with the search's play, the share of decisions where that
    play is :func:`acceptable` to the search (within *margin*), and the mean
    KL from the targets.

    Raises:
        ValueError: an unknown *loss* or *optimizer*, or no decisions.
    """
    import torch

    from big2.learn.ppo_model import masked_log_softmax

    if loss not in LOSSES:
        raise ValueError(f"loss {loss!r}: choose from {', '.join(LOSSES)}")
    if optimizer not in OPTIMIZERS:
        raise ValueError(f"optimizer {optimizer!r}: choose from {', '.join(OPTIMIZERS)}")
    if s.size == 0:
        raise ValueError("no decisions to learn from")
    f = Features.of(s)
    state, plays = torch.from_numpy(f.state), torch.from_numpy(f.plays)
    tgt = torch.from_numpy(np.maximum(target, 1e-8).astype(np.float32))
    chosen = torch.from_numpy(f.chosen)
    opt = (torch.optim.Adam(actor.parameters(), lr=lr, eps=1e-5) if optimizer == "adam"
           else torch.optim.SGD(actor.parameters(), lr=lr, momentum=0.9))
    rng = np.random.default_rng(seed)

    def batch(idx: npt.NDArray[np.int64]) -> tuple[Any, Any, Any, Any]:
        rows, slots, flat = f.rows(idx)
        r_t, s_t, fl = (torch.from_numpy(x) for x in (rows, slots, flat))
        scores = actor(state[torch.from_numpy(idx)], r_t, plays[fl])
        logp_all, _ = masked_log_softmax(scores, r_t, s_t, len(idx), int(f.counts[idx].max()))
        logp = logp_all[r_t, s_t]
        t = tgt[fl]
        ce = -(t * logp).sum() / len(idx)
        kl_fwd = (t * (t.log() - logp)).sum() / len(idx)
        kl_rev = (logp.exp() * (logp - t.log())).sum() / len(idx)
        best = logp_all.argmax(dim=1)
        agree = (best == chosen[torch.from_numpy(idx)]).float().mean()
        return (ce if loss == "ce" else kl_rev), kl_fwd, agree, best

    def measure() -> tuple[float, float, float, float]:
        with torch.no_grad():
            tot = [0.0, 0.0, 0.0]
            best = np.zeros(s.size, dtype=np.int64)
            for idx in np.array_split(np.arange(s.size), max(1, s.size // 4096)):
                lo, kl, ag, b = batch(idx.astype(np.int64))
                n = len(idx)
                tot = [tot[0] + float(lo) * n, tot[1] + float(kl) * n, tot[2] + float(ag) * n]
                best[idx] = b.numpy()
        ok = float(acceptable(s, best, margin).mean())
        return tot[0] / s.size, tot[1] / s.size, tot[2] / s.size, ok

    before = measure()
    steps = 0
    for _ in range(epochs):
        order = rng.permutation(s.size).astype(np.int64)
        for idx in np.array_split(order, max(1, round(s.size / minibatch))):
            value, _, _, _ = batch(idx)
            opt.zero_grad()
            value.backward()
            norm = torch.nn.utils.clip_grad_norm_(actor.parameters(), max_grad)
            if torch.isfinite(value) and torch.isfinite(norm):
                opt.step()
                steps += 1
    after = measure()
    return {"decisions": float(s.size), "steps": float(steps),
            "loss_before": before[0], "loss_after": after[0],
            "kl_before": before[1], "kl_after": after[1],
            "agree_before": before[2], "agree_after": after[2],
            "accept_before": before[3], "accept_after": after[3]}


__all__ = ["LOSSES", "OPTIMIZERS", "TARGETS", "Features", "acceptable", "fit", "survivors", "targets",
           "teaching"]
