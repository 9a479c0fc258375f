"""Imitation: fit the policy network to a teacher bot's choices.

Two uses:

* **diagnosis** — can the network represent a given bot's play at all?
  :func:`teacher_decisions` records a teacher's choices in self-play deals,
  :func:`fit` trains a fresh :class:`~big2.learn.ppo_model.Actor` on them by
  cross-entropy and reports held-out top-1 agreement per epoch, and
  :func:`agreement` measures how often an existing policy picks what the
  teacher picks. ``raw=True`` zeroes the engineered inputs
  (:mod:`big2.bots.pfeatures`), which measures what they add.
* **distillation** — the fitted actor is a policy like any other
  (``python -m big2.learn imitate --out policy.npz``): a search's choices
  can be distilled back into the network this way (expert iteration).

Only decisions with two or more legal plays are kept: a forced pass teaches
nothing.

>>> data = teacher_decisions("greedy", ["classic"], deals=2, seed=1)
>>> len(data) > 10, bool((data.counts >= 2).all())
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from big2.bots import Bot, make_bot
from big2.bots.pfeatures import RAW_PLAY, RAW_STATE, play_features, state_features, unseen_cards
from big2.bots.phint import hints
from big2.bots.pnet import PolicyNet, family_index
from big2.game import Game
from big2.observation import card_vectors, encode_game
from big2.rules import Rules

I8 = npt.NDArray[np.int8]


@dataclass
class Decisions:
    """A teacher's choices: one row per decision, plays flat with counts."""

    obs: I8
    family: npt.NDArray[np.int64]
    cards: I8
    """``(sum(counts), 52)``: every decision's legal plays, one after another."""
    counts: npt.NDArray[np.int64]
    pick: npt.NDArray[np.int64]
    """The teacher's play, as an index into its decision's plays."""
    weight: npt.NDArray[np.float32] | None = None
    """How much each decision counts in the fit (``None``: all alike). Labels
    by value gap (:func:`big2.learn.distil.label_deals` with ``gap``) hold
    the gap, in points, or 0 where the student's own play was kept."""

    def __len__(self) -> int:
        return len(self.pick)

    @property
    def starts(self) -> npt.NDArray[np.int64]:
        """Each decision's first row in :attr:`cards`."""
        out: npt.NDArray[np.int64] = np.concatenate([[0], np.cumsum(self.counts)[:-1]])
        return out

    def features(self, raw: bool = False) -> tuple[npt.NDArray[np.float32],
                                                  npt.NDArray[np.float32]]:
        """State and play inputs of the network, the heuristic's hint included
        (engineered ones and the hint zeroed if *raw*)."""
        state = state_features(self.obs, self.family)
        hands = np.repeat(self.obs[:, :52], self.counts, axis=0)
        unseen = np.repeat(unseen_cards(self.obs), self.counts, axis=0)
        hint = None if raw else hints(self.obs, self.family, self.cards, self.counts)
        plays = play_features(self.cards, hands, unseen, hint)
        if raw:
            state[:, RAW_STATE:] = 0
            plays[:, RAW_PLAY:] = 0
        return state, plays


def teacher_decisions(teacher: str, families: Sequence[str], deals: int, seed: int = 0,
                      scoring: str = "count",
                      progress: Callable[[int], None] | None = None) -> Decisions:
    """*deals* deals per family with *teacher* in every seat, and its choices."""
    rng = np.random.default_rng(seed)
    log = DecisionLog()
    for name in families:
        rules = Rules.preset(name).replace(scoring=scoring)
        bots: list[Bot] = []
        for _ in range(deals):
            g = Game(rules, seed=int(rng.integers(1 << 62)))
            bots = bots or [make_bot(teacher, seed=seed * 10 + k) for k in range(g.num_players)]
            while (seat := g.to_move) is not None:
                masks = g.legal_masks()
                choice = int(bots[seat].choose(g.view(seat)))
                if len(masks) > 1:
                    log.add(encode_game(g, seat), family_index(name), card_vectors(masks),
                            masks.index(choice))
                g.play(choice)  # 0 passes
            if progress is not None:
                progress(1)
    return log.decisions()


class DecisionLog:
    """Decisions as they are recorded, one at a time; :meth:`decisions` packs them."""

    def __init__(self) -> None:
        self.obs: list[I8] = []
        self.family: list[int] = []
        self.plays: list[I8] = []
        self.pick: list[int] = []
        self.weight: list[float] = []

    def add(self, obs: I8, family: int, plays: I8, pick: int, weight: float = 1.0) -> None:
        """One decision: the observation, the family, the legal plays' card
        vectors, the index of the play chosen and its weight."""
        self.obs.append(obs)
        self.family.append(family)
        self.plays.append(plays)
        self.pick.append(pick)
        self.weight.append(weight)

    def __len__(self) -> int:
        return len(self.pick)

    def decisions(self) -> Decisions:
        """Everything recorded, as :class:`Decisions`.

        Raises:
            ValueError: when nothing was recorded.
        """
        if not self.pick:
            raise ValueError("no decision with a choice was recorded")
        return Decisions(np.stack(self.obs), np.array(self.family, dtype=np.int64),
                         np.concatenate(self.plays),
                         np.array([len(p) for p in self.plays], dtype=np.int64),
                         np.array(self.pick, dtype=np.int64),
                         np.array(self.weight, dtype=np.float32))


def _loss(actor: Any, data: Decisions, feats: tuple[Any, Any], idx: npt.NDArray[np.int64],
          weight: npt.NDArray[np.float32] | None = None) -> tuple[Any, float]:
    """Cross-entropy on decisions *idx* (weighted by *weight*, indexed like
    ``data.pick``, when given) and the top-1 agreement (unweighted)."""
    import torch

    from big2.learn.ppo_model import masked_log_softmax

    state, plays = feats
    counts = data.counts[idx]
    rows = np.repeat(np.arange(len(idx)), counts)
    slots = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
    flat = np.repeat(data.starts[idx], counts) + slots
    r_t, s_t = torch.from_numpy(rows), torch.from_numpy(slots)
    scores = actor(torch.from_numpy(state[idx]), r_t, torch.from_numpy(plays[flat]))
    logp, _ = masked_log_softmax(scores, r_t, s_t, len(idx), int(counts.max()))
    y = torch.from_numpy(data.pick[idx])
    picked = logp.gather(1, y[:, None])[:, 0]
    if weight is None:
        loss = -picked.mean()
    else:
        w = torch.from_numpy(weight[idx])
        loss = -(w * picked).sum() / w.sum().clamp_min(1e-6)
    return loss, float((logp.argmax(1) == y).float().mean())


def fit(data: Decisions, *, epochs: int = 6, lr: float = 1e-3, minibatch: int = 512,
        holdout: int = 10_000, raw: bool = False, seed: int = 0, actor: Any = None,
        weight: npt.NDArray[np.float32] | None = None,
        log: Callable[[str], None] = print) -> tuple[Any, list[tuple[float, float]]]:
    """Train *actor* (a fresh one by default) on *data* by cross-entropy
    (each decision weighted by *weight* when given); the actor and each
    epoch's held-out (loss, top-1 agreement)."""
    import torch

    from big2.learn.ppo_model import Actor

    torch.manual_seed(seed)
    actor = actor if actor is not None else Actor()
    feats = data.features(raw)
    order = np.random.default_rng(seed).permutation(len(data))
    test, train = order[:holdout], order[holdout:]
    if len(train) == 0:
        raise ValueError(f"{len(data)} decisions leave none to train on after "
                         f"holding out {holdout}")
    opt = torch.optim.Adam(actor.parameters(), lr=lr)
    curve = []
    for epoch in range(epochs):
        for i, chunk in enumerate(np.array_split(np.random.default_rng(seed + epoch + 1)
                                                 .permutation(train),
                                                 max(1, len(train) // minibatch))):
            loss, _ = _loss(actor, data, feats, chunk, weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            tl, acc = _loss(actor, data, feats, test, weight)
        curve.append((float(tl), acc))
        log(f"epoch {epoch + 1}: held-out loss {float(tl):.3f}, agreement {acc:.1%}")
    return actor, curve


def agreement(net: PolicyNet, data: Decisions) -> float:
    """How often *net*'s most probable play is the teacher's."""
    hits = 0
    for i, start in enumerate(data.starts.tolist()):
        plays = data.cards[start:start + int(data.counts[i])]
        p = net.probabilities(data.obs[i], plays, family=int(data.family[i]))
        hits += int(p.argmax() == data.pick[i])
    return hits / max(len(data), 1)


__all__ = ["DecisionLog", "Decisions", "agreement", "fit", "teacher_decisions"]
