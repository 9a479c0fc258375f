"""Opponent modelling for the searches: does a seat play like ``greedy``?

The greedy rule leaves public traces: it leads the play holding its lowest
card, beats the table with its weakest beating play, and never passes when it
could beat the table. Every card a seat plays later was already in its hand
(hands only shrink, unless Go-Fish draws), so each of its earlier actions can
be *tested* against the cards it played afterwards:

- a lead ``P``: greedy held no card weaker than ``P``'s lowest card;
- a follow ``P`` on ``T``: greedy held no play that beats ``T`` and is weaker
  than ``P``;
- a pass on ``T`` (its first in the trick): greedy held no play beating ``T``.

:func:`greedy_posterior` turns the tests into a probability per seat (a test
a greedy seat always passes and another style passes with probability
``heuristic_pass``). :func:`greedy_forbidden` gives, per seat, the cards a
greedy seat cannot hold now (single-card evidence only), so the search can
sample hands consistent with the greedy reading of that seat.

>>> from big2 import Game
>>> from big2.bots import make_bot
>>> g = Game(seed=4)
>>> bots = [make_bot("greedy") for _ in range(4)]
>>> for _ in range(24):
...     g.play(bots[g.to_move].choose(g.view(g.to_move)))
>>> tests = greedy_tests(g.view(0))  # (tests, failures) per seat
>>> all(fails == 0 for _, fails in tests) and all(t > 0 for t, _ in tests[1:])
True
>>> all(p > 0.3 for p in greedy_posterior(g.view(0), prior=0.3)[1:])
True
"""

from __future__ import annotations

from typing import NamedTuple

from big2.cards import Mask, cards_of
from big2.combos import Combo, engine
from big2.game import Game
from big2.variant import variant
from big2.view import Action, PlayerView

__all__ = ["Step", "greedy_forbidden", "greedy_posterior", "greedy_tests", "public_steps"]


class Step(NamedTuple):
    """One action of the history with the public trick state before it."""

    action: Action
    leading: bool
    last: Combo | None
    first_pass: bool
    """For a pass: the seat's first pass in this trick (a free choice even
    under lock-out passing)."""


def _supported(view: PlayerView) -> bool:
    v = variant(view.rules)
    return v.engine.plain and not v.hands_grow


def any_consistent_hands(view: PlayerView) -> list[Mask]:
    """One guess of every seat's hand consistent with *view*'s card counts
    (the unseen cards handed out in order): enough to replay the public
    history, whose flow does not depend on who holds which hidden card."""
    pool = cards_of(int(view.unseen))
    hands: list[Mask] = []
    i = 0
    for s, c in enumerate(view.card_counts):
        if s == view.seat:
            hands.append(int(view.hand))
            continue
        hands.append(sum(1 << x for x in pool[i:i + c]))
        i += c
    return hands


def public_steps(view: PlayerView) -> list[Step]:
    """The view's history with, before each action, whether the mover led and
    the play to beat (rebuilt from public information only)."""
    if not view.history:
        return []
    g = Game.from_view(view, any_consistent_hands(view))
    back: list[tuple[Action, bool, Combo | None]] = []
    while g.history:
        a = g.undo()
        back.append((a, g.leading, g.last_combo))
    back.reverse()
    steps: list[Step] = []
    passed: set[int] = set()
    for a, leading, last in back:
        if leading:
            passed = set()
        first = a.is_pass and a.seat not in passed
        if a.is_pass:
            passed.add(a.seat)
        steps.append(Step(a, leading, last, first))
    return steps


def greedy_tests(view: PlayerView, steps: list[Step] | None = None) -> list[tuple[int, int]]:
    """Per seat, ``(tests, failures)`` of the greedy rule over its actions
    that later plays can check (the seat's own entry is ``(0, 0)``)."""
    n = view.num_players
    out = [[0, 0] for _ in range(n)]
    if not _supported(view):
        return [(0, 0)] * n
    eng = engine(view.rules)
    steps = public_steps(view) if steps is None else steps
    later = [0] * n
    strength = eng.strength
    for idx in range(len(steps) - 1, -1, -1):
        a, leading, last, first = steps[idx]
        seat = a.seat
        if seat == view.seat:
            continue
        held = later[seat]
        if a.cards:
            later[seat] |= a.cards
        if not held or idx == 0:
            continue
        fail = False
        if a.cards and leading:
            low = min(strength[c] for c in cards_of(a.cards))
            fail = any(strength[c] < low for c in cards_of(held))
        elif a.cards and last is not None:
            mine = eng.classify(a.cards)
            if mine is None:
                continue
            beating = eng.follows(held | a.cards, last)
            fail = any(eng.classify(b).power < mine.power  # type: ignore[union-attr]
                       for b in beating if b.bit_count() == a.cards.bit_count())
        elif not a.cards and not leading and first and last is not None:
            fail = bool(eng.follows(held, last))
        else:
            continue
        out[seat][0] += 1
        out[seat][1] += fail
    return [(t, f) for t, f in out]


def greedy_posterior(view: PlayerView, prior: float, heuristic_pass: float = 0.75,
                     slip: float = 0.02, steps: list[Step] | None = None) -> list[float]:
    """Per seat, the probability that it plays by the greedy rule, from the
    *prior* and its :func:`greedy_tests` (a greedy seat fails a test with
    probability *slip*, any other style passes one with *heuristic_pass*)."""
    probs: list[float] = []
    for seat, (tests, fails) in enumerate(greedy_tests(view, steps)):
        if seat == view.seat or prior <= 0 or prior >= 1:
            probs.append(prior)
            continue
        odds = prior / (1 - prior)
        odds *= ((1 - slip) / heuristic_pass) ** (tests - fails)
        odds *= (slip / (1 - heuristic_pass)) ** fails
        probs.append(odds / (1 + odds))
    return probs


def greedy_forbidden(view: PlayerView, steps: list[Step] | None = None) -> list[Mask]:
    """Per seat, the unseen cards it cannot hold now if it plays greedily:
    below the lowest card of its last lead, between the single it beat and
    the single it beat it with, and above a single it passed on."""
    n = view.num_players
    out = [0] * n
    if not _supported(view):
        return out
    eng = engine(view.rules)
    steps = public_steps(view) if steps is None else steps
    strength = eng.strength
    order = eng.by_strength
    single: list[Combo] = []
    for c in range(52):
        combo = eng.classify(1 << c)
        assert combo is not None
        single.append(combo)
    for idx, (a, leading, last, first) in enumerate(steps):
        seat = a.seat
        if seat == view.seat or idx == 0:
            continue
        if a.cards and leading:
            low = min(strength[c] for c in cards_of(a.cards))
            out[seat] |= sum(1 << c for c in order if strength[c] < low)
        elif last is None or last.size != 1:
            continue
        elif a.cards:
            if a.cards.bit_count() != 1:
                continue
            mine = single[a.cards.bit_length() - 1]
            for c in range(52):
                if eng.beats(single[c], last) and eng.beats(mine, single[c]):
                    out[seat] |= 1 << c
        elif first:
            for c in range(52):
                if eng.beats(single[c], last):
                    out[seat] |= 1 << c
    return out
