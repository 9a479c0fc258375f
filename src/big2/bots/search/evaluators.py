"""Evaluators: what a candidate play is worth in a sampled world.

An evaluator is started once a decision, ``score = evaluator.start(view, rng)``,
and then scores batches: ``score(worlds, cands)`` is, per world, the value of
each candidate for the seat (``view.seat``'s points at the end of the deal,
or an estimate of them) when it makes that play in that world. The random
stream *rng* is the bot's (used only where a world leaves something to guess,
such as a Go-Fish stock), so a seeded bot repeats its decisions.

- :class:`HeuristicPlayout`: every seat played out by the heuristic (or the
  greedy rule at a world's :attr:`~big2.bots.search.worlds.World.greedy_seats`),
  in the compiled core where the rule set allows it (:func:`play_out`);
- :class:`ExactLeaves`: the one exact-endgame wrapper, around any evaluator:
  where few cards are left in all hands a world is solved exactly
  (:class:`~big2.bots.search.endgame.EndgameSolver`, max^n) instead of scored
  by the evaluator it wraps;
- :class:`big2.bots.search.policy_eval.PolicyRollout` and
  :class:`~big2.bots.search.policy_eval.PolicyPlayout`: the policy network
  plays on after a candidate, the critic or the heuristic finishing.

>>> import random
>>> from big2 import Game
>>> from big2.bots.search.worlds import sample_worlds
>>> g = Game(seed=5)
>>> view = g.view(g.to_move)
>>> score = HeuristicPlayout().start(view, random.Random(0))
>>> rows = score(sample_worlds(view, 2, seed=1), view.legal[:3])
>>> len(rows), len(rows[0])
(2, 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from big2.bots.rules_based import native
from big2.bots.rules_based.planning import heuristic_play
from big2.bots.search.endgame import EndgameSolver, cards_left
from big2.bots.search.worlds import World
from big2.cards import Mask, cards_of
from big2.combos import engine
from big2.game import Game
from big2.variant import Engine
from big2.view import PlayerView

Score = Callable[[Sequence[World], Sequence[Mask]], list[list[float]]]
"""Scores candidates in worlds: per world, the value of each candidate for the seat."""


class Evaluator(Protocol):
    """Values candidate plays in sampled worlds (see the module docstring)."""

    def start(self, view: PlayerView, rng: random.Random) -> Score:
        """Begin a decision of *view*'s seat: the function that scores it."""
        ...


def greedy_play(eng: Engine, hand: Mask, legal: list[Mask], leading: bool) -> Mask:
    """The greedy bot's rule on plain values: the weakest play that beats the
    table; leading, the play holding the lowest card that sheds the most."""
    if not leading:
        return legal[0]
    plays = [p for p in legal if p]
    if not plays:
        return 0
    low = min(cards_of(hand), key=eng.strength.__getitem__)
    holding = [p for p in plays if p >> low & 1] or plays
    return max(holding, key=lambda p: (p.bit_count(), -holding.index(p)))


def rollout(game: Game, eng: Engine, greedy_seats: int = 0) -> None:
    """Play *game* to the end with the heuristic policy at every seat, or the
    greedy rule at the seats in the bit mask *greedy_seats*."""
    while game.to_move is not None:
        seat = game.to_move
        legal = game.legal_masks()
        if len(legal) == 1:
            game.play(legal[0])
            continue
        if greedy_seats >> seat & 1:
            game.play(greedy_play(eng, game.hands[seat], legal, game.leading))
            continue
        hands = game.hands
        hand = hands[seat]
        others = 0
        for s, h in enumerate(hands):
            if s != seat:
                others |= h
        last = game.last_combo
        choice = heuristic_play(eng, seat, hand, legal, last.cards if last else 0,
                                game.card_counts(), others)
        game.play(choice)


def play_out(game: Game, eng: Engine, greedy_seats: int = 0) -> tuple[int, ...]:
    """The final scores of :func:`rollout` from *game*'s position: played in the
    compiled core where the rule set allows it (:func:`big2.bots.rules_based.native.rollout`,
    *game* left as it was), else by :func:`rollout` on *game* itself."""
    scores = native.rollout(game, eng, greedy_seats)
    if scores is not None:
        return scores
    rollout(game, eng, greedy_seats)
    outcome = game.outcome()
    assert outcome is not None
    return outcome.scores


class HeuristicPlayout:
    """Each candidate made, then the deal played to its end by the heuristic at
    every seat (the greedy rule at a world's greedy seats): the seat's final
    score. All of a world's candidates are played out in one call to the
    compiled core where the rule set allows it, else in Python."""

    def start(self, view: PlayerView, rng: random.Random) -> Score:
        """Begin a decision (the position without its hands is framed once)."""
        eng = engine(view.rules)
        seat = view.seat
        framed = False
        run: Callable[[Sequence[Mask], Sequence[Mask], int], list[float]] | None = None

        def score(worlds: Sequence[World], cands: Sequence[Mask]) -> list[list[float]]:
            nonlocal framed, run
            out: list[list[float]] = []
            for hands in worlds:
                if not framed:  # the position without its hands is the same in every world
                    position = native.frame(Game.from_view(view, hands, rng=rng), eng)
                    if position is not None:
                        run = native.seat_play_outs(eng, position, seat)
                    framed = True
                if run is not None:  # every candidate played out in the core at once
                    out.append(run(hands, cands, hands.greedy_seats))
                    continue
                base = Game.from_view(view, hands, rng=rng)
                row = []
                for c in cands:
                    g = base.copy()
                    g.play(c)
                    row.append(float(play_out(g, eng, hands.greedy_seats)[seat]))
                out.append(row)
            return out

        return score


DEFAULT_ENDGAME = 8
""":class:`ExactLeaves` solves a world exactly from this many cards left (all hands together)."""
DEFAULT_ENDGAME_NODES = 12_000
"""The positions :class:`ExactLeaves`'s solves may expand together a decision
(about 1 s in Python on one core)."""


class ExactLeaves:
    """The exact endgame around any evaluator: *inner*'s values, except where at
    most *cards* cards are left in all hands together. There a world is solved
    exactly (max^n, every seat playing its best with every hand known,
    :class:`~big2.bots.search.endgame.EndgameSolver`) and a candidate is worth
    the seat's final score under that play: every candidate at once when the
    world is that small at the decision, else each candidate after which it is.

    One solver serves a decision, so a world drawn again (late in a deal there
    are few) and the positions worlds share cost nothing the second time. The
    solves share *nodes* expanded positions a decision; what is not solved
    (a world too big for what is left, every world once the budget is spent)
    is scored by *inner*. Where the world is small at the decision, all of its
    candidates are scored by the same evaluator, so they are compared on
    common worlds. *cards* 0 never solves.

    >>> import random
    >>> from big2 import Game
    >>> from big2.bots.search.worlds import sample_worlds
    >>> g = Game(hands=["3D 4D", "5C", "6C 7C", "8C 9C"], leader=0)
    >>> view = g.view(0)
    >>> score = ExactLeaves(HeuristicPlayout()).start(view, random.Random(0))
    >>> score(sample_worlds(view, 1, seed=1), view.legal)  # seat 1 goes out either way
    [[-1.0, -1.0]]
    """

    def __init__(self, inner: Evaluator | None = None, cards: int = DEFAULT_ENDGAME,
                 nodes: int = DEFAULT_ENDGAME_NODES) -> None:
        if cards < 0:
            raise ValueError("endgame (cards left) must be at least 0")
        if nodes < 1:
            raise ValueError("endgame_nodes must be at least 1")
        self.inner: Evaluator = inner if inner is not None else HeuristicPlayout()
        self.cards, self.nodes = int(cards), int(nodes)

    def start(self, view: PlayerView, rng: random.Random) -> Score:
        """Begin a decision: *inner*'s scorer where no play can leave ``cards`` cards or fewer."""
        inner = self.inner.start(view, rng)
        biggest = max((m.bit_count() for m in view.legal), default=0)
        if not self.cards or sum(view.card_counts) - biggest > self.cards:
            return inner
        seat, limit = view.seat, self.cards
        solver = EndgameSolver(self.nodes)
        left = [self.nodes]

        def solve(game: Game, cands: Sequence[Mask]) -> list[float | None]:
            row: list[float | None] = [None] * len(cands)
            if cards_left(game) <= limit:  # every candidate at once, or none
                solver.budget = left[0]
                values = solver.move_values(game)
                left[0] -= solver.nodes
                if values is not None:
                    exact = dict(values)
                    row = [float(exact[c][seat]) for c in cands]
                return row
            for j, c in enumerate(cands):
                child = game.copy()
                child.play(c)
                if left[0] > 0 and child.to_move is not None and cards_left(child) <= limit:
                    solver.budget = left[0]
                    value = solver.solve(child)
                    left[0] -= solver.nodes
                    if value is not None:
                        row[j] = float(value[seat])
            return row

        def score(worlds: Sequence[World], cands: Sequence[Mask]) -> list[list[float | None]]:
            unsolved: list[float | None] = [None] * len(cands)
            out = [solve(Game.from_view(view, hands, rng=rng), cands) if left[0] > 0
                   else list(unsolved) for hands in worlds]
            rest = [w for w, row in zip(worlds, out) if None in row]
            played = iter(inner(rest, cands) if rest else [])
            return [[x if x is not None else y for x, y in zip(row, next(played))]
                    if None in row else row for row in out]

        return score  # type: ignore[return-value]  # every None is filled by *inner*


__all__ = ["DEFAULT_ENDGAME", "DEFAULT_ENDGAME_NODES", "Evaluator", "ExactLeaves", "HeuristicPlayout", "Score",
           "greedy_play", "play_out", "rollout"]
