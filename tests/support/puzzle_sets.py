"""Puzzles the tests need that the shipped set may lack (a hidden-hand one, a
three-player one): the set's first of that kind, else one mined for the test
(seeded, so always the same) and numbered after the set."""

from __future__ import annotations

import dataclasses
from functools import cache

from big2.puzzles import PRESET_RULES, Puzzle, load
from big2.puzzles.mine import mine


@cache
def a_hidden_puzzle() -> Puzzle:
    """A hidden-hand puzzle (the seat sees only its own hand)."""
    shipped = next((p for p in load() if p.hidden), None)
    if shipped is not None:
        return shipped
    got = next(iter(mine(2026, 1, hidden=True, say=lambda _s: None)))
    return dataclasses.replace(got, id=len(load()) + 1)


@cache
def a_puzzle_of(label: str) -> Puzzle:
    """An open-hand puzzle of the rule set *label* (``taiwan:3``: three players)."""
    shipped = next((p for p in load() if p.label == label and not p.hidden), None)
    if shipped is not None:
        return shipped
    got = next(iter(mine(7, 1, labels=(label,), say=lambda _s: None)))
    return dataclasses.replace(got, id=len(load()) + 2 + sorted(PRESET_RULES).index(label))


def a_three_player_puzzle() -> Puzzle:
    """A ``taiwan:3`` puzzle (three players)."""
    return a_puzzle_of("taiwan:3")
