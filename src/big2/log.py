"""The records of a deal's log: :class:`Action` (a play or a pass) and the house
rules' extra actions (:class:`LastCardCall`, :class:`ThrowIn`, :class:`SpareSwap`).

They sit just above :mod:`big2.cards`, so the house rules (which read a
game's log) and the view (which shows it) both import them from below.
:mod:`big2.view` offers the same names.

>>> from big2.cards import parse_cards
>>> str(Action(2, int(parse_cards("3D 3S")))), Action(1, 0).is_pass
('seat 2: 3♦ 3♠', True)
"""

from __future__ import annotations

from typing import NamedTuple

from big2.cards import CARD_SYMBOLS, Mask, cards_of


class Action(NamedTuple):
    """One turn of a deal: *seat* played *cards*, or passed when ``cards == 0``."""

    seat: int
    cards: Mask

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.cards == 0

    def __str__(self) -> str:
        what = "pass" if not self.cards else " ".join(CARD_SYMBOLS[c] for c in cards_of(self.cards))
        return f"seat {self.seat}: {what}"


class LastCardCall(NamedTuple):
    """*seat* announced its last card (the ``last_card`` rule)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat}: last card"


class ThrowIn(NamedTuple):
    """*seat* threw in a weak hand and the cards were dealt again (``redeal`` weak)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat}: throws in"


class SpareSwap(NamedTuple):
    """*seat* swapped *card* (the lowest card) for the face-up spare (``spare_swap``)."""

    seat: int
    card: Mask

    def __str__(self) -> str:
        return f"seat {self.seat}: swaps {CARD_SYMBOLS[self.card.bit_length() - 1]} for the spare"


Record = Action | LastCardCall | ThrowIn | SpareSwap
"""One entry of a deal's log: a play or pass, or a house rule's extra action."""


__all__ = ["Action", "LastCardCall", "Record", "SpareSwap", "ThrowIn"]
