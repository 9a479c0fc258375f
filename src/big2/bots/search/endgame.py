"""Exact solving of a perfect-information endgame: :class:`EndgameSolver`.

When every hand is known (a sampled deal of the hidden cards, late in a deal),
the rest of the deal is a finite game tree. The solver searches it whole with
*max^n*: the seat to move picks the play (or pass) that maximises its own
final score, as :meth:`big2.Game.outcome` scores it under the game's own
rules (so every scoring and house rule holds), and the value of a position is
the vector of every seat's final score. Ties between plays worth the same to
the mover go to the first in :meth:`big2.Game.legal_masks`'s order, so the
value is a function of the position alone.

Positions are memoised on everything that decides the future: the hands,
the seat to move, the current trick's actions (the play to beat, who made
it, who passed since, a leader's passes), the last action (a house rule's
penalty reads it), the finishing order so far, the card the next play must
contain, the waived finish restriction and the Go-Fish stock; the rules and
the last-card calls, which no search changes, hold for the whole memo. A
node budget caps the work: a tree with more distinct positions than the
budget is refused (:meth:`EndgameSolver.solve` returns ``None``) rather than
searched for long.

Nothing here restates a rule: the legal plays, the turn, the end of a trick
and the scores all come from :class:`big2.Game`.

>>> from big2 import Game
>>> from big2.cards import format_cards
>>> g = Game(hands=["3D 4D", "5C", "6C 7C", "8C 9C"], leader=0)
>>> solver = EndgameSolver(budget=1000)
>>> solver.solve(g)  # seat 1 goes out with its 5♣ whatever seat 0 leads
(-1, 5, -2, -2)
>>> [(format_cards(m), v) for m, v in solver.move_values(g) or []]
[('3♦', (-1, 5, -2, -2)), ('4♦', (-1, 5, -2, -2))]
>>> EndgameSolver(budget=1).solve(Game(seed=1)) is None  # a whole deal is far too big
True
"""

from __future__ import annotations

from collections.abc import Hashable

from big2.cards import Mask
from big2.game import Game

Values = tuple[int, ...]
"""Every seat's final score, by seat."""


class BudgetExceeded(Exception):
    """The position's tree has more distinct positions than the solver's budget."""


def position_key(game: Game) -> Hashable:
    """What decides the rest of *game*'s deal (see the module docstring) but
    the rules and the last-card calls, which a search does not change: two
    positions with the same rules and calls and equal keys have the same future."""
    history = game.history
    return (tuple(game.hands), game.to_move, game.trick, history[-1] if history else None,
            tuple(game.finished), int(game.must_contain), game.waive, tuple(game.stock))


def cards_left(game: Game) -> int:
    """The cards still in all hands together."""
    return sum(h.bit_count() for h in game.hands)


class EndgameSolver:
    """Max^n over a perfect-information position, memoised, with a node budget.

    Args:
        budget: the most distinct positions one :meth:`solve` (or
            :meth:`move_values`) call may expand; a larger tree is refused.

    The memo outlives a call, so the positions a later call shares with an
    earlier one (a candidate's position after the root was solved) cost
    nothing; :meth:`clear` empties it. One solver serves one rule set and one
    set of last-card calls at a time (a game with others clears the memo).
    """

    def __init__(self, budget: int = 20_000) -> None:
        if budget < 1:
            raise ValueError("budget must be at least 1")
        self.budget = int(budget)
        self.nodes = 0
        """Positions expanded by the last call."""
        self._memo: dict[Hashable, Values] = {}
        self._context: object = None

    def clear(self) -> None:
        """Forget every solved position."""
        self._memo.clear()

    def solve(self, game: Game) -> Values | None:
        """Every seat's final score under max^n play from *game* (unchanged), or
        ``None`` when the tree is larger than the budget."""
        self._start(game)
        try:
            return self._value(game)
        except BudgetExceeded:
            return None

    def move_values(self, game: Game) -> list[tuple[Mask, Values]] | None:
        """Each legal play of the seat to move (``0``: the pass) with the value
        of the position it leads to, in :meth:`big2.Game.legal_masks`'s order;
        ``None`` when the tree is larger than the budget (or the deal is over)."""
        if game.to_move is None:
            return None
        self._start(game)
        try:
            return [(m, self._child(game, m)) for m in list(game.legal_masks())]
        except BudgetExceeded:
            return None

    def _start(self, game: Game) -> None:
        context = (game.rules, game.announced)  # fixed within a search: no seat calls
        if context != self._context:
            self._memo.clear()
            self._context = context
        self.nodes = 0

    def _child(self, game: Game, move: Mask) -> Values:
        child = game.copy()
        child.legal_masks()  # listed on the copy, the play takes the game's fast path
        child.play(move)
        return self._value(child)

    def _value(self, game: Game) -> Values:
        if game.to_move is None:
            outcome = game.outcome()
            assert outcome is not None
            return tuple(outcome.scores)
        key = position_key(game)
        known = self._memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise BudgetExceeded
        seat = game.to_move
        best: Values | None = None
        for move in list(game.legal_masks()):
            value = self._child(game, move)
            if best is None or value[seat] > best[seat]:
                best = value
        assert best is not None  # a seat to move always has a play or the pass
        self._memo[key] = best
        return best


__all__ = ["BudgetExceeded", "EndgameSolver", "Values", "cards_left", "position_key"]
