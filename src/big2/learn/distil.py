"""Distillation of a search into the policy (expert iteration, DAgger-style).

A search such as ``expert-v1`` plays far better than the policy network but
costs a thousand times more a decision. Distillation teaches the network
the search's choices on the positions *the network itself* reaches:

1. :func:`label_deals` plays deals in which the student policy (sampling
   from itself) holds most seats and a fixed bot the others, and asks the
   teacher what it would play at each of the student's decisions that has a
   choice. The game goes on with the student's own play, so the labelled
   positions are the ones the student meets (DAgger), not the teacher's.
2. Labels accumulate on disk as chunks (:func:`save_chunk`), so labelling
   can run in the background for hours, stop, and go on later
   (``python -m big2.learn label``).
3. :func:`finetune` fits the policy to every label so far by cross-entropy,
   starting from the current weights (``python -m big2.learn distil``),
   and reports held-out agreement with the teacher before and after.

Labels by value gap (``gap``): hard labels of a sampling search are mostly
near ties a network cannot predict (a first try fitted them and played
worse). With ``gap=G`` the teacher (a search with ``analyse``, such as
``expert-v1``) values the student's own most probable play beside its
candidates; where its best play is worth at least G points more, that play
is the label, weighted by the gap; elsewhere the student's own play is kept
with weight 0, which :func:`finetune` turns into a small ``anchor`` weight
that holds the policy where the search finds nothing clearly better.

>>> from big2.bots.pnet import PolicyNet
>>> import numpy as np
>>> student = PolicyNet.random(np.random.default_rng(0))
>>> data = label_deals("greedy", student, ["classic"], deals=1, seed=3)
>>> bool((data.counts >= 2).all()) and len(data) > 0
True
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from big2.bots import Bot, make_bot
from big2.bots.pnet import PolicyNet, family_index
from big2.game import Game
from big2.learn.imitate import DecisionLog, Decisions
from big2.observation import card_vectors, encode_game
from big2.rules import Rules

CHUNK = re.compile(r"labels-(\d{5})\.npz$")
"""How a chunk of labels is named in a labels directory."""


def label_deals(teacher: str | Bot, student: PolicyNet, families: Sequence[str], deals: int,
                seed: int = 0, others: str = "heuristic", share: float = 0.25,
                scoring: str = "count", progress: Callable[[int], None] | None = None,
                gap: float | None = None) -> Decisions:
    """*deals* deals per family; each seat is *others* with probability *share*
    (never all four), else the student, sampling from its policy. Every student
    decision with two or more legal plays is labelled with *teacher*'s choice
    (by value *gap*, see the module doc, when given); the student's own sampled
    play is what is played.

    Raises:
        ValueError: *gap* with a teacher that cannot value plays (no ``analyse``).
    """
    rng = np.random.default_rng(seed)
    log = DecisionLog()
    coach = teacher if isinstance(teacher, Bot) else make_bot(teacher, seed=seed)
    if gap is not None:
        require_values(coach)
    for name in families:
        rules = Rules.preset(name).replace(scoring=scoring)
        fam = family_index(name)
        for _ in range(deals):
            g = Game(rules, seed=int(rng.integers(1 << 62)))
            fixed = rng.random(g.num_players) < share
            fixed[int(rng.integers(g.num_players))] = False  # one student seat at least
            bots = {s: make_bot(others, seed=int(rng.integers(1 << 31)))
                    for s in range(g.num_players) if fixed[s]}
            while (seat := g.to_move) is not None:
                masks = g.legal_masks()
                if len(masks) == 1:
                    choice = masks[0]
                elif seat in bots:
                    choice = int(bots[seat].choose(g.view(seat)))
                else:
                    o = encode_game(g, seat)
                    vecs = card_vectors(masks)
                    p = student.probabilities(o, vecs, fam).astype(np.float64)
                    choice = masks[int(rng.choice(len(p), p=p / p.sum()))]
                    if gap is None:
                        log.add(o, fam, vecs, masks.index(int(coach.choose(g.view(seat)))))
                    else:
                        own = masks[int(p.argmax())]
                        pick, worth = _by_gap(coach, g.view(seat), own, gap)
                        log.add(o, fam, vecs, masks.index(pick), worth)
                g.play(choice)  # 0 passes
            if progress is not None:
                progress(1)
    return log.decisions()


def require_values(coach: Bot) -> None:
    """Raise ``ValueError`` unless *coach* can value plays (has ``analyse``),
    as labels by gap need."""
    if not hasattr(coach, "analyse"):
        raise ValueError(f"{coach.name} cannot value plays: labels by gap need a search "
                         "such as expert-v1")


def _by_gap(coach: Any, view: Any, own: int, gap: float) -> tuple[int, float]:
    """The search's best play and its gap over *own* where that is at least
    *gap* points, else *own* and 0."""
    rows = coach.analyse(view, include=(own,))
    best, _, best_value = rows[0]
    own_value = next(v for m, _, v in rows if m == own)
    if int(best) != own and best_value - own_value >= gap:
        return int(best), float(best_value - own_value)
    return own, 0.0


def save_chunk(data: Decisions, folder: str | Path, meta: dict[str, str] | None = None) -> Path:
    """Write *data* as the next chunk of *folder*; its path. The chunk appears
    whole or not at all, and two writers at once never take the same name."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {"obs": data.obs, "family": data.family, "cards": data.cards,
                              "counts": data.counts, "pick": data.pick}
    if data.weight is not None:
        arrays["weight"] = data.weight
    arrays.update({f"meta_{k}": np.array(v) for k, v in (meta or {}).items()})
    tmp = out / f".labels-{os.getpid()}.tmp.npz"
    np.savez_compressed(tmp, **arrays)
    try:
        index = next_chunk(out)
        while True:
            path = out / f"labels-{index:05d}.npz"
            try:
                os.link(tmp, path)  # fails if another writer took the name
                return path
            except FileExistsError:
                index += 1
    finally:
        tmp.unlink()


def next_chunk(folder: str | Path) -> int:
    """The index the next chunk in *folder* takes (one past the highest)."""
    found = [int(m.group(1)) for p in Path(folder).glob("labels-*.npz")
             if (m := CHUNK.search(p.name))]
    return max(found, default=-1) + 1


def load_labels(folder: str | Path) -> Decisions:
    """Every chunk of *folder*, as one :class:`~big2.learn.imitate.Decisions`.

    Raises:
        FileNotFoundError: when *folder* holds no chunk.
    """
    paths = sorted(p for p in Path(folder).glob("labels-*.npz") if CHUNK.search(p.name))
    if not paths:
        raise FileNotFoundError(f"no labels-*.npz in {folder}")
    parts = [np.load(p) for p in paths]
    data = Decisions(*(np.concatenate([z[k] for z in parts])
                       for k in ("obs", "family", "cards", "counts", "pick")))
    if any("weight" in z for z in parts):  # chunks of hard labels weigh 1
        data.weight = np.concatenate([z["weight"] if "weight" in z else
                                      np.ones(len(z["pick"]), np.float32) for z in parts])
    return data


def finetune(data: Decisions, init: PolicyNet, *, epochs: int = 3, lr: float = 1e-4,
             holdout: int = 2000, seed: int = 0, anchor: float = 0.1,
             log: Callable[[str], None] = print) -> tuple[Any, float, float]:
    """Fit the actor started from *init* to *data*; the actor and the held-out
    top-1 agreement before and after. With labels by gap (``data.weight``),
    each decision weighs its gap, those where the student's play was kept
    weigh *anchor*, and the agreement is measured where the gap labelled
    (over all held-out decisions when none of them is)."""
    import torch

    from big2.learn.imitate import _loss, fit
    from big2.learn.ppo_model import actor_from_numpy

    actor = actor_from_numpy(init)
    order = np.random.default_rng(seed).permutation(len(data))
    holdout = min(holdout, len(data) // 5)
    weight, judged = None, order[:holdout]
    if data.weight is not None:
        weight = np.where(data.weight > 0, data.weight, np.float32(anchor)).astype(np.float32)
        if (data.weight[judged] > 0).any():
            judged = judged[data.weight[judged] > 0]
        else:
            log("no held-out decision is labelled by gap: agreement over all held out")
    feats = data.features()

    def agree() -> float:
        with torch.no_grad():
            return _loss(actor, data, feats, judged)[1]

    before = agree()
    log(f"held-out agreement before: {before:.1%} ({len(judged):,} decisions)")
    actor, _ = fit(data, epochs=epochs, lr=lr, holdout=holdout, seed=seed, actor=actor,
                   weight=weight, log=log)
    after = agree()
    log(f"held-out agreement after: {after:.1%}")
    return actor, before, after


__all__ = ["finetune", "label_deals", "load_labels", "next_chunk", "require_values",
           "save_chunk"]
