"""The one small protocol both play engines implement.

The game, the bots and the scorer use a play engine only through these
methods, so the table-driven engine for one deck
(:class:`big2.variant.tables.TableEngine`) and the generic one for jokers and
two decks (:class:`big2.variant.generic.GenericEngine`) are interchangeable.
"""

from __future__ import annotations

from typing import Protocol

from big2.cards import Mask
from big2.rules import Rules
from big2.variant.compare import Comparator
from big2.variant.handplays import HandPlays
from big2.variant.keys import StrengthKeys
from big2.variant.kinds import Combo, Kind


class Engine(Protocol):
    """What a play engine offers (see the module docstring)."""

    rules: Rules
    keys: StrengthKeys
    compare: Comparator
    strength: tuple[int, ...]
    suit_rank: tuple[int, ...]
    suited: bool
    five_kinds: list[Kind]
    straight_list: list[tuple[int, tuple[int, ...], int]]
    by_strength: tuple[int, ...]
    deck_cards: Mask
    plain: bool
    bisect_follows: bool
    """The plays that follow a play are exactly the hand's plays of its size with
    a higher power: the game may find them by bisection in :attr:`HandPlays.groups`."""

    def classify(self, mask: Mask) -> Combo | None:
        """The strongest reading of *mask* as a play, or ``None``."""

    def as_played(self, mask: Mask, last: Combo | None) -> Combo | None:
        """The reading of *mask* played on *last* (``None``: a lead), or ``None``."""

    def leadable(self, combo: Combo) -> bool:
        """Whether *combo* may open a trick."""

    def beats(self, a: Combo, b: Combo) -> bool:
        """Whether *a* may be played on *b*."""

    def hand_plays(self, hand: Mask) -> HandPlays:
        """Every play of *hand*."""

    def leads(self, hand: Mask) -> list[Mask]:
        """Every lead of *hand*."""

    def follows(self, hand: Mask, last: Combo) -> list[Mask]:
        """The plays of *hand* that may be played on *last*."""

    def follows_from(self, plays: HandPlays, last: Combo) -> list[Mask]:
        """The plays in *plays* that may be played on *last*."""

    def after(self, plays: HandPlays, cards: Mask, hand: Mask) -> HandPlays:
        """*plays* once *cards* have left the hand, which is now *hand*."""

    def play_key(self, mask: Mask) -> object:
        """Equal for two masks exactly when they are the same listed play."""
