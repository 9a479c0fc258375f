"""Hidden-hand puzzles: the seat sees only what it may know.

In a hidden-hand puzzle the seat to move sees its own hand, the others' card
counts and every play made so far; the others' cards are unseen. A deal of the
unseen cards *fits* the position when it gives each other seat as many cards as
it holds (passing is always allowed, so the plays made rule out nothing more;
every card is dealt in the four-player rule sets these puzzles use). The answer
is the one legal play that goes out first in **every** fitting deal, whatever
the others do (each deal settled by the first-out search), and no other play
does; the natural play is not it.

:func:`settle` answers that in the compiled core
(:meth:`big2._native.FirstOut.hidden`, which stops once no play is left that won
every deal so far); :func:`fitting_deals` lists the fitting deals in plain
Python, and the tests hold the core's answer to the reference solver run on each
of them.

>>> from big2 import Game, parse_cards
>>> g = Game(hands=["3D 3S 2S", "5C 6C", "7C 8C", "9C 9D"], leader=0)
>>> got = settle(g)  # seat 0 sees its own three cards and two cards in each other hand
>>> got.deals, [names(m) for m in got.winners]  # any single wins, whoever holds what
(90, ['3D', '3S', '2S'])
>>> describe(got.counters[int(parse_cards("3D 3S"))], 0)  # the pair of 3s loses to a pair
'Seat 2 holds 5C 6C; Seat 3 holds 7C 8C; Seat 4 holds 9D 9C'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from big2.cards import Mask, cards_of
from big2.game import Game
from big2.puzzles.solve import FirstOutSolver, names

__all__ = ["MAX_DEALS", "Settled", "describe", "fitting_deals", "settle"]

MAX_DEALS = 100_000
"""The most fitting deals :func:`settle` tries before it refuses a position."""


@dataclass(frozen=True)
class Settled:
    """A hidden-hand position settled: the fitting deals tried (all of them when some
    play won every one), the plays that won in every deal, and for each other play
    the first deal (every seat's hand) in which it does not go out first."""

    deals: int
    winners: tuple[Mask, ...]
    counters: dict[Mask, tuple[Mask, ...]]


def fitting_deals(game: Game) -> Iterator[list[Mask]]:
    """Every deal of the cards unseen by the seat to move to the other seats, with the
    counts they hold (the seat's own hand kept), as every seat's hand."""
    seat = game.to_move
    assert seat is not None
    hands = [int(h) for h in game.hands]
    unseen = [c for s, h in enumerate(hands) if s != seat for c in cards_of(h)]
    need = [0 if s == seat else h.bit_count() for s, h in enumerate(hands)]
    deal = [hands[seat] if s == seat else 0 for s in range(len(hands))]

    def place(i: int) -> Iterator[list[Mask]]:
        if i == len(unseen):
            yield list(deal)
            return
        for s in range(len(deal)):
            if s != seat and deal[s].bit_count() < need[s]:
                deal[s] |= 1 << unseen[i]
                yield from place(i + 1)
                deal[s] &= ~(1 << unseen[i])

    yield from place(0)


def settle(game: Game, solver: FirstOutSolver | None = None, max_deals: int = MAX_DEALS
           ) -> Settled:
    """The hidden-hand question at *game*'s position for the seat to move (see the
    module doc); ``RuntimeError`` past *max_deals* fitting deals or the solver's budget."""
    solver = solver or FirstOutSolver(game.rules)
    seat = game.to_move
    if seat is None:
        raise ValueError("the deal is over: no seat to move")
    tried, plays = solver.hidden(game, max_deals)
    return Settled(tried, tuple(m for m, alive, _ in plays if alive),
                   {m: tuple(hands) for m, alive, hands in plays if not alive})


def describe(deal: tuple[Mask, ...], seat: int) -> str:
    """``"Seat 2 holds 5C; Seat 3 holds 6C 7C"``: the other seats' hands of a deal (seats
    numbered from 1, as the table numbers them)."""
    return "; ".join(f"Seat {s + 1} holds {names(h)}" for s, h in enumerate(deal) if s != seat)
