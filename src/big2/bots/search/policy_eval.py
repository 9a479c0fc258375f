"""Evaluators on the policy network: :class:`PolicyPlayout` and :class:`PolicyRollout`.

:class:`PolicyPlayout` makes each candidate in each world, lets every seat
play the policy's choice (its most probable play, or a draw from it) for the
first ``plies`` plies, then the heuristic play-out or the critic finishes;
all of it in the compiled core (:mod:`big2.bots.policy.pnative`), every world
and candidate of a call stepped together (one batched forward pass a ply).
Where the core cannot play the rule set it is the heuristic play-out.

:class:`PolicyRollout` makes each candidate in each world, then lets the policy
play (its most probable play, every game stepped together: one network call a
ply) either to the end of the deal (``until="end"``: the seat's final score)
or until the seat is to move again (``until="turn"``), where the critic
(:class:`~big2.bots.policy.pnet.ValueNet`, which in a sampled world may read
every hand: they are the sample's, never the table's) scores the leaf.

Either goes inside :class:`~big2.bots.search.evaluators.ExactLeaves` to
solve a world exactly where few cards are left (``policy-search`` does).

>>> import random
>>> from big2 import Game
>>> from big2.bots.search.worlds import sample_worlds
>>> g = Game(seed=5)
>>> view = g.view(g.to_move)
>>> score = PolicyRollout().start(view, random.Random(0))
>>> rows = score(sample_worlds(view, 2, seed=1), view.legal[:2])
>>> len(rows), len(rows[0])
(2, 2)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from big2.bots.policy.net import policy_family
from big2.bots.policy.pnet import (
    SCORE_SCALE,
    PolicyNet,
    ValueNet,
    cached_policy,
    cached_value,
    hidden_hands,
    pad_plays,
    sample_plays,
    state_features,
)
from big2.bots.search.evaluators import HeuristicPlayout, Score
from big2.bots.search.worlds import World
from big2.cards import Mask
from big2.game import Game
from big2.observation import _passed_and_leader, encode_game, played_by_seat
from big2.view import PlayerView


def shipped_policy() -> PolicyNet:
    """The shipped policy network (``policy.npz``), loaded once (:func:`~big2.bots.policy.pnet.cached_policy`)."""
    return cached_policy()


def shipped_critic() -> ValueNet:
    """The shipped critic (``value.npz``), loaded once (:func:`~big2.bots.policy.pnet.cached_value`)."""
    return cached_value()


class PolicyRollout:
    """The policy plays on after each candidate (see the module docstring).

    Args:
        policy: the policy network (default: the shipped one).
        critic: the critic that scores a leaf when ``until="turn"`` (default:
            the shipped one).
        until: ``"end"``: play every seat to the end of the deal; ``"turn"``:
            the other seats until the seat is to move again, then the critic.

    Wrap it in :class:`~big2.bots.search.evaluators.ExactLeaves` to solve
    small worlds exactly (``policy-search`` does).
    """

    def __init__(self, policy: PolicyNet | None = None, critic: ValueNet | str | Path | None = None,
                 until: str = "end") -> None:
        if until not in ("turn", "end"):
            raise ValueError(f"roll is 'turn' or 'end', not {until!r}")
        self.policy = policy if policy is not None else shipped_policy()
        self.critic = (critic if isinstance(critic, ValueNet) else shipped_critic()
                       if critic is None else cached_value(critic))
        self.until = until

    def start(self, view: PlayerView, rng: random.Random) -> Score:
        """Begin a decision."""

        def score(worlds: Sequence[World], cands: Sequence[Mask]) -> list[list[float]]:
            values = self._values(view, rng, worlds, cands)
            out: list[list[float]] = values.reshape(len(worlds), len(cands)).tolist()
            return out

        return score

    def _values(self, view: PlayerView, rng: random.Random, worlds: Sequence[World],
                cands: Sequence[Mask]) -> np.ndarray:
        seat, fam = view.seat, policy_family(view.rules)
        games: list[Game] = []
        for hands in worlds:
            base = Game.from_view(view, hands, rng=rng)
            for c in cands:
                g = base.copy()
                g.play(c)
                games.append(g)
        self._roll(games, None if self.until == "end" else seat, fam)
        values = np.zeros(len(games))
        waiting = [i for i, g in enumerate(games) if g.to_move is not None]
        for i, g in enumerate(games):
            if g.to_move is None:
                outcome = g.outcome()
                assert outcome is not None
                values[i] = outcome.scores[seat]
        if waiting:
            obs = np.stack([encode_game(games[i], seat) for i in waiting])
            hid = hidden_hands([games[i] for i in waiting], np.full(len(waiting), seat))
            values[waiting] = self.critic(state_features(obs, fam), hid) * SCORE_SCALE
        return values

    def _roll(self, games: list[Game], seat: int | None, fam: int) -> None:
        """Let the policy play until *seat* is to move (``None``: every seat) or the deal ends."""
        live = [g for g in games if g.to_move not in (None, seat)]
        while live:
            obs = np.stack([encode_game(g, g.to_move) for g in live])  # type: ignore[arg-type]
            legal = [g.legal_masks() for g in live]
            cards, counts = pad_plays([m for ms in legal for m in ms], [len(m) for m in legal])
            pick, _ = sample_plays(self.policy, obs, np.full(len(live), fam), cards, counts,
                                   np.random.default_rng(0), greedy=True, rules=live[0].rules)
            for g, m, k in zip(live, legal, pick.tolist()):
                g.play(m[k])
            live = [g for g in live if g.to_move not in (None, seat)]


class PolicyPlayout:
    """The policy plays every seat for the first plies after a candidate, then the
    heuristic or the critic finishes (see the module docstring).

    Args:
        policy: the policy network (default: the shipped one).
        plies: how many plies (every seat's turns, forced passes included) the
            policy plays after the candidate; ``None``: to the end of the deal.
        sample: draw each play from the policy (the bot's seeded stream) instead
            of taking its most probable one.
        finish: ``"heuristic"``: the heuristic plays the deal out (the greedy rule
            at a world's greedy seats); ``"critic"``: the critic values the position.
        critic: the critic for ``finish="critic"`` (default: the shipped one).
    """

    def __init__(self, policy: PolicyNet | None = None, plies: int | None = 4,
                 sample: bool = False, finish: str = "heuristic",
                 critic: ValueNet | str | Path | None = None) -> None:
        if plies is not None and plies < 0:
            raise ValueError("plies must be at least 0 (None: to the end)")
        if finish not in ("heuristic", "critic"):
            raise ValueError(f"finish is 'heuristic' or 'critic', not {finish!r}")
        self.policy = policy if policy is not None else shipped_policy()
        self.plies = plies
        self.sample = sample
        self.finish = finish
        self.critic = None if finish != "critic" else (
            critic if isinstance(critic, ValueNet) else shipped_critic()
            if critic is None else cached_value(critic))

    def start(self, view: PlayerView, rng: random.Random) -> Score:
        """Begin a decision: the core's table and the position are made once."""
        from big2.bots.policy import pnative
        from big2.bots.rules_based import native
        from big2.bots.rules_based.planning import DEFAULT_STYLE
        from big2.combos import engine

        fallback = HeuristicPlayout().start(view, rng)
        eng = engine(view.rules)
        config = native.config(eng)
        if not pnative.available() or config is None:
            return fallback
        seat, fam = view.seat, policy_family(view.rules)
        framed: list[tuple[object, pnative.Public] | None] = []  # once: the table, the position

        def score(worlds: Sequence[World], cands: Sequence[Mask]) -> list[list[float]]:
            if not framed:
                g = Game.from_view(view, worlds[0], rng=rng)
                position = native.frame(g, eng)
                leader = _passed_and_leader(g.trick, g.variant.turns.lock_out)[1]
                framed.append(None if position is None else (
                    pnative.table(self.policy, config, native._style(DEFAULT_STYLE),
                                  int(view.spare), fam),
                    (position, list(played_by_seat(g.history, g.num_players)),
                     -1 if leader is None else leader)))
            got = framed[0]
            if got is None:
                return fallback(worlds, cands)
            values = pnative.play_outs(got[0], worlds, got[1], cands, seat, self.plies,
                                       self.sample, rng.getrandbits(64),
                                       [w.greedy_seats for w in worlds], self.critic)
            out: list[list[float]] = values.tolist()
            return out

        return score


__all__ = ["PolicyPlayout",
           "PolicyRollout", "shipped_critic", "shipped_policy"]
