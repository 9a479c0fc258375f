"""Search on the PPO policy: :class:`PolicySearchBot`.

For a decision the policy is unsure of, the bot

1. takes the policy's most probable plays as candidates;
2. samples deals of the unseen cards consistent with everything the seat
   has seen (the sampler of :class:`~big2.bots.expert.ExpertBot`: counts,
   plays, informative passes, each opponent's greedy reading);
3. in each sampled deal (the same deals for every candidate), makes the
   candidate and lets the policy play the other seats until the turn comes
   back (a short roll, all games stepped together: one network call a ply);
4. scores that leaf with the critic, which in a sampled deal may read every
   hand (the hands are the sample's, never the table's), or with the final
   score when the deal ended on the way;
5. except where few cards are left (``endgame``): there a sampled deal is a
   perfect-information game small enough to solve exactly
   (:class:`~big2.bots.endgame.EndgameSolver`), and the solved value replaces
   the roll: for every candidate at once when the deal is small at the
   decision, else for a candidate after which it is;

and plays the candidate with the best mean. The critic and the policy come
from the same training run (:mod:`big2.learn.ppo`).

>>> from big2 import Game
>>> g = Game(seed=5)
>>> bot = PolicySearchBot(seed=1, samples=4)
>>> bot.choose(g.view(g.to_move)) in g.legal_masks()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from big2.bots.belief import belief_weights
from big2.bots.endgame import EndgameSolver, Values, cards_left
from big2.bots.expert import ExpertBot
from big2.bots.learned import PolicyNetBot, _encodable, policy_family
from big2.bots.pnet import (
    SCORE_SCALE,
    WEIGHTS_DIR,
    PolicyNet,
    ValueNet,
    hidden_hands,
    load_value,
    pad_plays,
    sample_plays,
    state_features,
)
from big2.cards import Mask
from big2.game import Game
from big2.observation import encode_game
from big2.view import PlayerView


DEFAULT_ENDGAME = 8
"""Solve a sampled deal exactly from this many cards left (all hands together)."""
DEFAULT_ENDGAME_NODES = 12_000
"""The positions a decision's exact solves may expand together (about 1 s on one core)."""


@lru_cache(maxsize=4)
def _load_value(path: str) -> ValueNet:
    return load_value(path)


class PolicySearchBot(ExpertBot):
    """Determinized search with policy candidates and critic leaves (see the module docstring).

    Args:
        samples: sampled deals per decision.
        candidates: the policy's most probable plays tried (at least 2).
        sure: a play the policy gives at least this probability is made
            without searching.
        roll: ``"turn"``: the policy plays the other seats until the turn
            comes back, and the critic scores the leaf; ``"end"``: the
            policy plays every seat to the end of the deal (no critic).
        margin: another candidate replaces the policy's favourite only when
            its mean is higher by more than this many points.
        belief: weigh each sampled deal by how likely the policy makes the
            other seats' actual plays and passes in it (the product of
            their probabilities, raised to this power and floored at 1%
            a decision); 0 weighs every sample the same.
        endgame: in a sampled deal, solve exactly (max^n over every hand,
            :class:`~big2.bots.endgame.EndgameSolver`) once the cards left in
            all hands together are at most this many, instead of rolling or
            asking the critic; 0 never solves.
        endgame_nodes: the positions all of a decision's solves may expand
            together; a sampled deal past it is rolled as without ``endgame``
            (so a decision's solving stays within about a second).
        weights, value: the policy and critic ``.npz`` (default: the shipped ones).

    Other options are :class:`~big2.bots.expert.ExpertBot`'s sampler's.
    """

    def __init__(self, seed: int | None = None, samples: int = 48, candidates: int = 4,
                 sure: float = 0.9, roll: str = "end", margin: float = 0.0,
                 belief: float = 0.5, endgame: int = DEFAULT_ENDGAME,
                 endgame_nodes: int = DEFAULT_ENDGAME_NODES,
                 weights: str | Path | PolicyNet | None = None,
                 value: str | Path | ValueNet | None = None, **options: Any) -> None:
        super().__init__(seed=seed, candidates=candidates, **options)
        if samples < 1:
            raise ValueError("samples must be at least 1")
        if roll not in ("turn", "end"):
            raise ValueError(f"roll is 'turn' or 'end', not {roll!r}")
        self.roll = roll
        self.margin = float(margin)
        if belief < 0:
            raise ValueError("belief must be at least 0")
        self.belief = float(belief)
        self.samples = int(samples)
        if endgame < 0 or endgame_nodes < 1:
            raise ValueError("endgame must be at least 0 and endgame_nodes at least 1")
        self.endgame = int(endgame)
        self.endgame_nodes = int(endgame_nodes)
        self.sure = float(sure)
        self.policy = PolicyNetBot(seed=seed, weights=weights)
        self.value = value if isinstance(value, ValueNet) else _load_value(
            str(value if value is not None else WEIGHTS_DIR / "value.npz"))

    def analyse(self, view: PlayerView,
                include: Sequence[Mask] = ()) -> list[tuple[Mask, float, float]]:
        """The candidates (the policy's likeliest, and the legal plays in
        *include*) with their policy probability and searched value (expected
        points), best first."""
        legal = view.legal
        p = self.policy.probabilities(view)
        order = np.argsort(-p, kind="stable")[:self.max_candidates]
        extra = [legal.index(m) for m in dict.fromkeys(include) if m in legal]
        order = np.concatenate([order, [i for i in extra if i not in order]]).astype(int)
        cands = [legal[int(i)] for i in order]
        values = self._search(view, cands)
        out = [(c, float(p[int(i)]), float(v)) for c, i, v in zip(cands, order, values)]
        return sorted(out, key=lambda t: -t[2])

    def choose(self, view: PlayerView) -> Mask:
        """The candidate with the best mean value over the sampled deals."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if not _encodable(view.rules):
            return super().choose(view)
        p = self.policy.probabilities(view)
        top = legal[int(np.argmax(p))]
        if p.max() >= self.sure:
            return top
        rows = self.analyse(view)
        best, value = rows[0][0], rows[0][2]
        top_value = next(v for c, _, v in rows if c == top)
        return best if value > top_value + self.margin else top

    def _search(self, view: PlayerView, cands: list[Mask]) -> list[float]:
        seat, fam = view.seat, policy_family(view.rules)
        unseen = int(view.unseen)
        evidence = self._evidence(view)
        games: list[Game] = []
        worlds = [self._world(view, unseen, evidence)[0] for _ in range(self.samples)]
        weights = (belief_weights(self.policy.network, view, worlds, self.belief) if self.belief
                   else np.ones(self.samples))
        solved: dict[int, float] = {}  # index in *games* -> exact value (not rolled)
        nodes = self.endgame_nodes if self.endgame else 0
        for hands in worlds:
            base = Game.from_view(view, hands, rng=self.rng)
            solver: EndgameSolver | None = None
            exact: dict[Mask, Values] = {}
            if nodes > 0:
                solver = EndgameSolver(nodes)
                if cards_left(base) <= self.endgame:
                    exact = dict(solver.move_values(base) or ())
                    nodes -= solver.nodes
            for c in cands:
                g = base.copy()
                g.play(c)
                value = exact.get(c)
                if (value is None and solver is not None and nodes > 0 and g.to_move is not None
                        and cards_left(g) <= self.endgame):
                    solver.budget = nodes
                    value = solver.solve(g)
                    nodes -= solver.nodes
                if value is not None:
                    solved[len(games)] = value[seat]
                games.append(g)
        self._roll([g for i, g in enumerate(games) if i not in solved],
                   None if self.roll == "end" else seat, fam)
        values = np.zeros(len(games))
        waiting = [i for i, g in enumerate(games) if g.to_move is not None and i not in solved]
        for i, g in enumerate(games):
            if i in solved:
                values[i] = solved[i]
            elif g.to_move is None:
                outcome = g.outcome()
                assert outcome is not None
                values[i] = outcome.scores[seat]
        if waiting:
            obs = np.stack([encode_game(games[i], seat) for i in waiting])
            hid = hidden_hands([games[i] for i in waiting], np.full(len(waiting), seat))
            values[waiting] = self.value(state_features(obs, fam), hid) * SCORE_SCALE
        w = weights / weights.sum()
        means: list[float] = (w @ values.reshape(self.samples, len(cands))).tolist()
        return means

    def _roll(self, games: list[Game], seat: int | None, fam: int) -> None:
        """Let the policy play until *seat* is to move (``None``: every seat) or the deal ends."""
        net = self.policy._net
        live = [g for g in games if g.to_move not in (None, seat)]
        while live:
            obs = np.stack([encode_game(g, g.to_move) for g in live])  # type: ignore[arg-type]
            legal = [g.legal_masks() for g in live]
            cards, counts = pad_plays([m for ms in legal for m in ms], [len(m) for m in legal])
            pick, _ = sample_plays(net, obs, np.full(len(live), fam), cards, counts,
                                   np.random.default_rng(0), greedy=True, rules=live[0].rules)
            for g, m, k in zip(live, legal, pick.tolist()):
                g.play(m[k])
            live = [g for g in live if g.to_move not in (None, seat)]


__all__ = ["PolicySearchBot"]
