"""Weighing sampled deals by the policy's likelihood of what the others did.

A determinized search samples deals of the unseen cards that agree with the
public history (counts, plays, passes). Not every such deal is as likely:
with some hands the other seats' actual plays would have been odd choices.
:func:`belief_weights` replays the history in each sampled deal and asks the
PPO policy how likely it makes every choice the other seats made; the
product of those probabilities (floored per decision, raised to a power
``belief``) is the deal's weight.

>>> from big2 import Game
>>> from big2.bots.policy.net import PolicyNetBot
>>> from big2.bots.rules_based.modelling import any_consistent_hands
>>> g, bot = Game(seed=3), PolicyNetBot()
>>> for _ in range(8):
...     g.play(bot.choose(g.view(g.to_move)))
>>> view = g.view(g.to_move)
>>> true = [int(h) for h in g.hands]
>>> w = belief_weights(bot.network, view, [true, any_consistent_hands(view)])
>>> w.shape, float(w.max())
((2,), 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from big2.bots.policy.net import policy_family
from big2.bots.policy.pnet import PolicyNet, pad_plays
from big2.cards import Mask
from big2.game import Game
from big2.observation import encode_game
from big2.view import PlayerView

FLOOR = 0.01
"""The least probability one decision may contribute (a bad guess by the
policy must not rule a deal out alone)."""


def belief_weights(net: PolicyNet, view: PlayerView, worlds: Sequence[Sequence[Mask]],
                   belief: float = 1.0) -> np.ndarray:
    """Each deal in *worlds* weighed by the policy's likelihood of the other
    seats' actions in *view*'s history, raised to *belief*; the largest
    weight is 1. A deal whose history cannot be replayed (a house rule the
    replay does not follow) gets likelihood 1; decisions with one legal
    action say nothing and are skipped."""
    obs: list[np.ndarray] = []
    plays: list[list[Mask]] = []
    owner: list[int] = []
    chosen: list[int] = []
    for w, hands in enumerate(worlds):
        start = [int(h) for h in hands]
        for a in view.history:
            start[a.seat] |= a.cards
        first = view.history[0].seat if view.history else view.to_move
        try:
            g = Game(view.rules, hands=start, leader=first, names=view.names)
            for a in view.history:
                if a.seat != view.seat:
                    legal = g.legal_masks()
                    if len(legal) > 1 and a.cards in legal:
                        obs.append(encode_game(g, a.seat))
                        plays.append(legal)
                        owner.append(w)
                        chosen.append(legal.index(a.cards))
                if a.cards:
                    g.play(a.cards)
                else:
                    g.pass_turn()
        except ValueError:  # a house rule's history this replay does not follow
            continue
    logw = np.zeros(len(worlds))
    if obs:
        cards, counts = pad_plays([m for ms in plays for m in ms], [len(p) for p in plays])
        logits = net.logits_batch(np.stack(obs), np.full(len(obs), policy_family(view.rules)),
                                  cards, counts, view.rules)
        top = logits.max(axis=1)
        logz = top + np.log(np.exp(logits - top[:, None]).sum(axis=1))
        logp = logits[np.arange(len(obs)), chosen] - logz
        np.add.at(logw, owner, np.maximum(logp, np.log(FLOOR)))
    logw *= belief
    out: np.ndarray = np.exp(logw - logw.max())
    return out


__all__ = ["FLOOR", "belief_weights"]
