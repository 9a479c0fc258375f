"""Who goes out first, every hand known: the puzzles' question, answered exactly.

A *side* is a set of seats. From a position with every hand known, the side
**goes out first whatever the others do** when one of its seats is the first to
empty its hand against every continuation of the other seats, who may play
together against it: at a seat of the side one legal play (or the pass) that
keeps this true is enough, at any other seat every legal play must keep it. It
is an AND-OR question (a seat of the side picks, the others all answer), not a
max^n one: no seat is assumed to play for its own score, so the answer does not
hang on how a seat that does not care breaks its ties.

:class:`FirstOutSolver` answers it in the compiled core
(``src/native/first_out.hpp``: a transposition table keeps each position's
proven bounds, plays that go out and long, strong plays are tried first) for
every rule set the core plays whole; :class:`ReferenceSolver` answers it in
plain Python over :class:`big2.Game` (every rule set, house rules included) and
is the reference the core's search is held to
(``tests/puzzles/test_solve.py``). Both give the same four answers: whether the
side wins (:meth:`~FirstOutSolver.wins`), after which plays
(:meth:`~FirstOutSolver.after_each`), in how few actions against the longest
resistance (:meth:`~FirstOutSolver.distance`), and a line that shows it
(:meth:`~FirstOutSolver.line`: the side's quickest win against the others'
longest resistance).

>>> from big2 import Game
>>> g = Game(hands=["3D 4D", "5C", "6C 7C", "8C 9C"], leader=0)
>>> solver = FirstOutSolver(g.rules)
>>> solver.wins(g)  # seat 0 cannot stop seat 1's 5♣
False
>>> solver.wins(g, side={1})
True
>>> [(seat, names(m)) for seat, m in solver.line(g, side={1})]
[(0, '4D'), (1, '5C')]
"""

from __future__ import annotations

from collections.abc import Collection, Hashable
from typing import Any

from big2.bots.search.endgame import position_key
from big2.cards import CARD_NAMES, Mask, cards_of
from big2.game import Game
from big2.rules import Rules
from big2.variant import native

__all__ = ["FirstOutSolver", "Line", "ReferenceSolver", "first_out", "names", "side_bits",
           "solver_for"]

Line = list[tuple[int, Mask]]
"""``(seat, cards)`` of each action (``0``: a pass), to the first seat going out."""


def names(mask: Mask) -> str:
    """``"3D 3S"``: card names, lowest first (``""``: a pass)."""
    return " ".join(CARD_NAMES[c] for c in cards_of(mask))


def side_bits(game: Game, side: Collection[int] | None) -> int:
    """*side* as a bit per seat (default: the seat to move alone); ``ValueError`` for
    an empty side or one naming no seat of *game*."""
    if side is None:
        if game.to_move is None:
            raise ValueError("the deal is over: no seat to move")
        side = (game.to_move,)
    bits = 0
    for seat in side:
        if not 0 <= seat < game.num_players:
            raise ValueError(f"side: {seat} is not a seat of this deal")
        bits |= 1 << seat
    if not bits:
        raise ValueError("side: name at least one seat")
    return bits


def first_out(game: Game) -> int | None:
    """The seat that went out first in *game*, or ``None`` while no seat has."""
    if game.finished:
        return game.finished[0]
    return game.winner if game.is_over() else None


class ReferenceSolver:
    """The first-out question in plain Python over :class:`big2.Game` (the reference).

    Exact minimax with a memo on :func:`~big2.bots.search.endgame.position_key`: a
    position's value is ``None`` when the side does not go out first, else the fewest
    actions in which it does against the longest resistance. No pruning and no
    ordering, so it is slow; it serves every rule set.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._memo: dict[tuple[int, Hashable], int | None] = {}

    def _value(self, game: Game, side: int) -> int | None:
        out = first_out(game)
        if out is not None:
            return 0 if side >> out & 1 else None
        key = (side, position_key(game))
        if key in self._memo:
            return self._memo[key]
        mine = game.to_move is not None and side >> game.to_move & 1
        got: list[int | None] = []
        for move in list(game.legal_masks()):
            child = game.copy()
            child.play(move)
            got.append(self._value(child, side))
        wins = [d for d in got if d is not None]
        if mine:
            value = min(wins) + 1 if wins else None
        else:
            value = max(wins) + 1 if len(wins) == len(got) else None
        self._memo[key] = value
        return value

    def _check(self, game: Game) -> None:
        if game.rules != self.rules:
            raise ValueError("this solver serves another rule set")
        if game.to_move is None or first_out(game) is not None:
            raise ValueError("no seat to move, or a seat already went out")

    def wins(self, game: Game, side: Collection[int] | None = None) -> bool:
        """Whether *side* (default: the seat to move) goes out first whatever the others do."""
        return self.distance(game, side) is not None

    def distance(self, game: Game, side: Collection[int] | None = None) -> int | None:
        """The fewest actions in which *side* goes out first against the longest
        resistance, or ``None`` when it does not."""
        self._check(game)
        return self._value(game, side_bits(game, side))

    def after_each(self, game: Game, side: Collection[int] | None = None
                   ) -> list[tuple[Mask, bool]]:
        """Each legal play of the seat to move (``0``: the pass), in
        :meth:`big2.Game.legal_masks`'s order, with whether *side* goes out first after it."""
        self._check(game)
        bits = side_bits(game, side)
        out = []
        for move in list(game.legal_masks()):
            child = game.copy()
            child.play(move)
            out.append((move, self._value(child, bits) is not None))
        return out


class FirstOutSolver:
    """The first-out question in the compiled core (see the module doc).

    Args:
        rules: the rule set of the games it is asked about; one the core plays
            (:func:`big2.variant.native.first_out_reason`), else ``ValueError``.
        budget: the most positions one call may expand (``0``: no limit); a call
            past it raises ``RuntimeError``.
        table_bits: the transposition table holds ``2 ** table_bits`` positions
            (about 64 bytes each).

    The table outlives a call, so a later question about the same deal reuses what
    an earlier one proved; :meth:`clear` empties it.
    """

    def __init__(self, rules: Rules, *, budget: int = 0, table_bits: int = 20) -> None:
        self.rules = rules
        self._core: Any = native.first_out(rules, table_bits)
        self._core.budget = budget

    @property
    def nodes(self) -> int:
        """Positions this solver has expanded, all calls together."""
        return int(self._core.nodes)

    @property
    def budget(self) -> int:
        """The most positions one call may expand (``0``: no limit)."""
        return int(self._core.budget)

    @budget.setter
    def budget(self, value: int) -> None:
        self._core.budget = value

    def clear(self) -> None:
        """Forget every proven position."""
        self._core.clear()

    def _spot(self, game: Game) -> tuple[list[Mask], int, Mask, int, int, Mask, int, bool]:
        if game.rules != self.rules:
            raise ValueError("this solver serves another rule set")
        if game.to_move is None or first_out(game) is not None:
            raise ValueError("no seat to move, or a seat already went out")
        to_move, last_player, last, _kind, passed, _leader, must, _stock = game.numbers()
        return ([int(h) for h in game.hands], to_move, int(last), last_player, passed,
                int(must), int(getattr(game, "_lead_passes", 0)), bool(game.waive))

    def wins(self, game: Game, side: Collection[int] | None = None) -> bool:
        """Whether *side* (default: the seat to move) goes out first whatever the others do."""
        return bool(self._core.wins(self._spot(game), side_bits(game, side)))

    def distance(self, game: Game, side: Collection[int] | None = None) -> int | None:
        """The fewest actions in which *side* goes out first against the longest
        resistance, or ``None`` when it does not."""
        d = int(self._core.distance(self._spot(game), side_bits(game, side)))
        return None if d < 0 else d

    def after_each(self, game: Game, side: Collection[int] | None = None
                   ) -> list[tuple[Mask, bool]]:
        """Each legal play of the seat to move (``0``: the pass), in
        :meth:`big2.Game.legal_masks`'s order, with whether *side* goes out first after it."""
        got = self._core.after_each(self._spot(game), side_bits(game, side))
        return [(int(m), bool(w)) for m, w in got]

    def hidden(self, game: Game, max_deals: int) -> tuple[int, list[tuple[Mask, bool, list[Mask]]]]:
        """The hidden-hand question for the seat to move (:func:`big2.puzzles.hidden.settle`
        reads it): the fitting deals tried, and each legal play with whether it went out
        first in all of them and the first deal (hands) in which it did not."""
        tried, plays = self._core.hidden(self._spot(game), side_bits(game, None), max_deals)
        return int(tried), [(int(m), bool(a), [int(h) for h in d]) for m, a, d in plays]

    def line(self, game: Game, side: Collection[int] | None = None) -> Line:
        """The actions by which *side* goes out first, to that seat going out: its
        seats play the quickest win, the others hold out longest. Empty when
        *side* does not go out first."""
        got = self._core.line(self._spot(game), side_bits(game, side))
        return [(int(s), int(m)) for s, m in got]


def solver_for(rules: Rules, **kwargs: Any) -> FirstOutSolver | ReferenceSolver:
    """The core's solver where the core plays *rules* whole, else the reference."""
    if native.available() and native.first_out_reason(rules) is None:
        return FirstOutSolver(rules, **kwargs)
    return ReferenceSolver(rules)
