"""The learned bots: the self-play Q network (``learned``), the PPO policy
network (``policy-net``, the ``hard`` level) and the searches on them.

:class:`LearnedBot` scores each legal play with the Q(state, play) network
of :mod:`big2.bots.qnet` — trained by self-play (:mod:`big2.learn`) to
predict the seat's final score after that play — and plays the best. It
reads only its :class:`~big2.view.PlayerView`, through the same encoder as
the environments (:func:`big2.observation.encode_view`).

:class:`SearchBot` (``learned-search``) samples deals of the unseen cards the way
:class:`~big2.bots.expert.ExpertBot` does (consistent with every count,
play and informative pass, and weighted by how well a greedy reading
explains each opponent's plays), tries the network's best few plays in each,
and plays every sampled deal out with the network in all seats — all the
play-outs stepped together, so one network call serves them all. The play
with the best mean final score wins.

Weights ship inside the package (``big2/bots/weights/*.npz``): one network
per rule family (``classic`` and ``selfplay-2018``), chosen by
:func:`weights_for`. Rule sets the observation cannot hold (jokers, two
decks, plays longer than five cards) fall back to the heuristic bot.

>>> from big2 import Game
>>> g = Game(seed=5)
>>> bot = LearnedBot(seed=1)
>>> bot.choose(g.view(g.to_move)) in g.legal_masks()
True
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from big2.bots.base import Bot
from big2.bots.expert import ExpertBot
from big2.bots.heuristic import HeuristicBot
from big2.bots.pnet import WEIGHTS_DIR, PolicyNet, family_index, load_policy, pad_plays
from big2.bots.qnet import QNet, load
from big2.cards import Mask
from big2.game import Game
from big2.house.spare import spare
from big2.observation import card_vectors, encode_view, observe_batch, played_by_seat
from big2.rules import Rules
from big2.variant import variant
from big2.view import PlayerView

WEIGHTS = Path(__file__).parent / "weights"
"""Where the shipped networks are."""
FAMILIES = ("classic", "selfplay-2018")
"""The rule families with a network of their own (preset names)."""


@lru_cache(maxsize=8)
def _load(path: str) -> QNet:
    return load(path)


def _same_family(rules: Rules, preset: str) -> bool:
    try:
        base = Rules.preset(preset)
    except ValueError:
        return False
    return rules.replace(scoring=base.scoring, players=base.players) == base


def weights_for(rules: Rules) -> Path:
    """The shipped network for *rules*: the family whose preset it is (any
    scoring and player count), else the classic network."""
    for family in FAMILIES:
        if family != "classic" and _same_family(rules, family):
            path = WEIGHTS / f"{family}.npz"
            if path.exists():
                return path
    return WEIGHTS / "classic.npz"


def policy_family(rules: Rules) -> int:
    """The policy's family input for *rules* (``selfplay-2018`` or ``classic``)."""
    return family_index("selfplay-2018" if _same_family(rules, "selfplay-2018") else "classic")


def _encodable(rules: Rules) -> bool:
    return variant(rules).supports_network


class _NetworkBot(Bot):
    """A bot whose network picks among ``view.legal``; a rule set the
    observation cannot hold (jokers, two decks, long plays…) gets the heuristic."""

    _fallback: Bot | None = None

    def choose(self, view: PlayerView) -> Mask:
        """The network's choice (the heuristic's where the network cannot read the rules)."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if not _encodable(view.rules):
            if self._fallback is None:
                self._fallback = HeuristicBot(seed=int(self.rng.getrandbits(32)))
            return self._fallback.choose(view)
        return legal[self._pick(view)]

    def _pick(self, view: PlayerView) -> int:
        raise NotImplementedError


class LearnedBot(_NetworkBot):
    """The ``hard`` level: the self-play network's best play (see the module docstring).

    Args:
        weights: a path to an ``.npz``, a :class:`QNet`, or ``None`` for the
            shipped network of the rule set's family.
    """

    def __init__(self, seed: int | None = None, weights: str | Path | QNet | None = None,
                 **options: Any) -> None:
        super().__init__(seed=seed, **options)
        self._given = weights

    def net(self, rules: Rules) -> QNet:
        """The network that plays *rules*."""
        if isinstance(self._given, QNet):
            return self._given
        return _load(str(self._given if self._given is not None else weights_for(rules)))

    def values(self, view: PlayerView) -> np.ndarray:
        """The network's value of each of ``view.legal``, in order."""
        obs = encode_view(view)[None]
        out: np.ndarray = self.net(view.rules).scores(obs, card_vectors(view.legal)[None])[0]
        return out

    def _pick(self, view: PlayerView) -> int:
        """The legal play the network values most."""
        return int(np.argmax(self.values(view)))


class PolicyNetBot(_NetworkBot):
    """The PPO policy network (:mod:`big2.bots.pnet`): its most probable legal
    play, from the seat's observation alone.

    Args:
        weights: a path to an ``.npz``, a :class:`~big2.bots.pnet.PolicyNet`,
            or ``None`` for the shipped ``policy.npz``.
        sample: draw from the policy (with the bot's seeded generator)
            instead of taking its most probable play.
    """

    def __init__(self, seed: int | None = None, weights: str | Path | PolicyNet | None = None,
                 sample: bool = False, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        self._net = weights if isinstance(weights, PolicyNet) else _load_policy(
            str(weights if weights is not None else WEIGHTS_DIR / "policy.npz"))
        self.sample = sample
        self._np_rng = np.random.default_rng(seed)

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


@lru_cache(maxsize=4)
def _load_policy(path: str) -> PolicyNet:
    return load_policy(path)


def policy_playouts(games: list[Game], net: QNet, seat: int) -> list[float]:
    """Play every game out with *net* choosing for every seat; *seat*'s final
    score in each. All games are stepped together: one batched observation
    (:func:`~big2.observation.observe_batch`) and one network call a ply."""
    if not games:
        return []
    n = games[0].num_players
    played = [played_by_seat(g.history, n) for g in games]
    spares = [spare(g) for g in games]
    live = [i for i, g in enumerate(games) if g.to_move is not None]
    while live:
        nums: list[int] = []
        flat: list[int] = []
        counts: list[int] = []
        for i in live:
            g = games[i]
            legal = g.legal_masks()
            flat.extend(legal)
            counts.append(len(legal))
            nums.extend(g.numbers())
            nums.extend(g.hands)
            nums.extend(played[i])
        num = np.array(nums, dtype=np.int64).reshape(len(live), 8 + 2 * n)
        hands = num[:, 8:8 + n].astype(np.uint64)
        mover = num[:, 0]
        rows = np.arange(len(live))
        obs = observe_batch(num, hands, mover, hands[rows, mover],
                            np.array([spares[i] for i in live], dtype=np.uint64))
        cards, cnt = pad_plays(flat, counts)
        q = net.scores(obs, cards)
        q[np.arange(cards.shape[1])[None, :] >= cnt[:, None]] = -np.inf
        starts = (np.cumsum(cnt) - cnt).tolist()
        for j, (i, pick) in enumerate(zip(live, q.argmax(axis=1).tolist())):
            g = games[i]
            m = flat[starts[j] + pick]
            played[i][g.to_move] |= m  # type: ignore[index]
            g.play(m)
        live = [i for i in live if games[i].to_move is not None]
    out = []
    for g in games:
        outcome = g.outcome()
        assert outcome is not None
        out.append(float(outcome.scores[seat]))
    return out


class SearchBot(ExpertBot):
    """The ``expert`` level: determinized search guided by the network.

    Args:
        budget: play-outs per decision: ``budget // candidates`` sampled deals
            of the unseen cards, each played out once per candidate.
        candidates: the network's best plays tried (at least 2).
        margin: when the network's best play leads the second by more than
            this (in points), it is played without searching.
        weights: as for :class:`LearnedBot`.

    Other options are :class:`~big2.bots.expert.ExpertBot`'s (its sampling;
    and its whole search for rule sets the network cannot read).
    """

    def __init__(self, seed: int | None = None, budget: int = 64, candidates: int = 4,
                 margin: float = 6.0, weights: str | Path | QNet | None = None,
                 **options: Any) -> None:
        super().__init__(seed=seed, budget=budget, candidates=candidates, **options)
        self.samples = max(1, self.budget // self.max_candidates)
        self.margin = float(margin)
        self.policy = LearnedBot(seed=seed, weights=weights)

    def choose(self, view: PlayerView) -> Mask:
        """The candidate with the best mean score over network play-outs."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if not _encodable(view.rules):
            return super().choose(view)
        from big2.bots.qnet import SCORE_SCALE

        values = self.policy.values(view)
        order = np.argsort(-values, kind="stable")
        if len(order) > 1 and (values[order[0]] - values[order[1]]) * SCORE_SCALE > self.margin:
            return legal[int(order[0])]
        cands = [legal[int(i)] for i in order[:self.max_candidates]]
        net = self.policy.net(view.rules)
        unseen = int(view.unseen)
        evidence = self._evidence(view)
        games: list[Game] = []
        for _ in range(self.samples):
            hands, _ = self._world(view, unseen, evidence)
            base = Game.from_view(view, hands, rng=self.rng)
            for c in cands:
                g = base.copy()
                g.play(c)
                games.append(g)
        scores = np.array(policy_playouts(games, net, view.seat)).reshape(self.samples, len(cands))
        means = scores.mean(axis=0)
        return cands[int(np.argmax(means))]



__all__ = ["FAMILIES", "WEIGHTS", "LearnedBot", "PolicyNetBot", "SearchBot", "policy_playouts", "weights_for"]
