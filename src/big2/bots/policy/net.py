"""The PPO policy network as a bot: :class:`PolicyNetBot` (``policy-net``).

It plays the legal play the policy (:mod:`big2.bots.policy.pnet`) makes most
probable, from the seat's observation alone (:func:`big2.observation.encode_view`).
The weights ship inside the package (``big2/bots/policy/weights/policy.npz``,
with the critic beside it in ``value.npz``). Rule sets the observation cannot
hold (jokers, two decks, plays longer than five cards) get the heuristic bot.

>>> from big2 import Game
>>> g = Game(seed=5)
>>> bot = PolicyNetBot(seed=1)
>>> bot.choose(g.view(g.to_move)) in g.legal_masks()
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from big2.bots.base import Bot
from big2.bots.policy.pnet import PolicyNet, cached_policy, family_index
from big2.bots.rules_based.heuristic import HeuristicBot
from big2.cards import Mask
from big2.observation import card_vectors, encode_view
from big2.rules import Rules
from big2.variant import variant
from big2.view import PlayerView


def _same_family(rules: Rules, preset: str) -> bool:
    try:
        base = Rules.preset(preset)
    except ValueError:
        return False
    return rules.replace(scoring=base.scoring, players=base.players) == base


def policy_family(rules: Rules) -> int:
    """The policy's family input for *rules* (``selfplay-2018`` or ``classic``)."""
    return family_index("selfplay-2018" if _same_family(rules, "selfplay-2018") else "classic")


def encodable(rules: Rules) -> bool:
    """Whether the policy's observation can hold *rules* (else the bots fall back)."""
    return variant(rules).supports_network


class PolicyNetBot(Bot):
    """The PPO policy network (:mod:`big2.bots.policy.pnet`): its most probable legal
    play, from the seat's observation alone (see the module docstring).

    Args:
        weights: a path to an ``.npz``, a :class:`~big2.bots.policy.pnet.PolicyNet`,
            or ``None`` for the shipped ``policy.npz``.
        sample: draw from the policy (with the bot's seeded generator)
            instead of taking its most probable play.
    """

    name = "policy-net"

    def __init__(self, seed: int | None = None, weights: str | Path | PolicyNet | None = None,
                 sample: bool = False, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        self._net = weights if isinstance(weights, PolicyNet) else cached_policy(weights)
        self.sample = sample
        self._np_rng = np.random.default_rng(seed)
        self._fallback: Bot | None = None

    def choose(self, view: PlayerView) -> Mask:
        """The policy's choice (the heuristic's where the policy cannot read the rules)."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if not encodable(view.rules):
            if self._fallback is None:
                self._fallback = HeuristicBot(seed=int(self.rng.getrandbits(32)))
            return self._fallback.choose(view)
        return legal[self._pick(view)]

    @property
    def network(self) -> PolicyNet:
        """The policy network this bot plays."""
        return self._net

    def probabilities(self, view: PlayerView) -> np.ndarray:
        """The policy over ``view.legal``, in order."""
        return self._net.probabilities(encode_view(view), card_vectors(view.legal),
                                       policy_family(view.rules), view.rules)

    def _pick(self, view: PlayerView) -> int:
        """The policy's choice: its most probable play, or a draw from it."""
        p = self.probabilities(view)
        if self.sample:
            return int(self._np_rng.choice(len(p), p=p / p.sum()))
        return int(np.argmax(p))


__all__ = ["PolicyNetBot", "encodable", "policy_family"]
