"""A hand's plays, listed once and kept up to date as the hand plays out.

:class:`HandPlays` is what a play engine lists for a hand. It has one layout
whatever the rule set: eight groups of encoded plays (``power << PLAY_SHIFT |
mask``, see :mod:`big2.variant.keys`), each sorted by power:

- ``groups[1]`` … ``groups[5]``: the plays of that many cards that may lead;
- ``groups[6]``: longer plays that may lead (long straights, the dragon);
- ``groups[7]``: plays that may only follow (smack-downs);
- ``groups[0]`` is always empty.

The engine that made it answers :meth:`leads`, :meth:`follows` and
:meth:`after`, so callers never look inside.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from big2.cards import Mask
from big2.variant.keys import PLAY_MASK

if TYPE_CHECKING:
    from big2.variant.kinds import Combo

Groups = tuple[list[int], list[int], list[int], list[int], list[int], list[int], list[int],
               list[int]]
"""The eight groups of encoded plays."""
EMPTY: list[int] = []
"""A shared empty group (never appended to)."""
HAND_CACHE = 4096
"""How many hands' plays an engine keeps (then it starts afresh). Search bots
list the same hand over and over; self-play deals new hands, so a larger cache
only holds memory and gives the garbage collector more to walk (a 50,000-hand
cache cost the vector environment a fifth of its speed)."""


class PlayLister(Protocol):
    """What a :class:`HandPlays` needs from its engine."""

    def follows_from(self, plays: HandPlays, last: Combo) -> list[Mask]:
        """The plays in *plays* that may be played on *last*."""

    def after(self, plays: HandPlays, cards: Mask, hand: Mask) -> HandPlays:
        """*plays* once *cards* have left the hand, which is now *hand*."""


class HandPlays:
    """Every play of one hand, by group (see the module docstring)."""

    __slots__ = ("engine", "groups")

    def __init__(self, groups: Groups, engine: PlayLister) -> None:
        self.groups = groups
        self.engine = engine

    def leads(self) -> list[Mask]:
        """Every play that may open a trick, as masks (weakest first within a size)."""
        g = self.groups
        return [p & PLAY_MASK for group in (g[1], g[2], g[3], g[4], g[5], g[6]) for p in group]

    def follows(self, last: Combo) -> list[Mask]:
        """Every play that may be played on *last* (the pass not included)."""
        return self.engine.follows_from(self, last)

    def after(self, cards: Mask, hand: Mask) -> HandPlays:
        """The plays left once *cards* are played from the hand, which is then *hand*."""
        return self.engine.after(self, cards, hand)

    def __iter__(self) -> Iterator[Mask]:
        """Every play, follow-only ones included."""
        for group in self.groups:
            for p in group:
                yield p & PLAY_MASK

    def __len__(self) -> int:
        return sum(len(g) for g in self.groups)

    def sized(self, size: int) -> list[Mask]:
        """The plays of *size* cards (1 to 5) that may lead."""
        return [p & PLAY_MASK for p in self.groups[size]]
