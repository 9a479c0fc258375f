"""The 7,462 classes of five-card high poker, generated once from their declaration.

Each category lists its classes weakest first; the value of a class is its
position in the whole list counting from 1, so values compare like hands:
1 is 7-5-4-3-2 (no flush), 7,462 is a royal flush.  :data:`CLASSES` holds
``(category, ranks)`` for each value, *ranks* being the poker ranks that
decide ties in order of significance (for a straight, just its top card).

>>> len(CLASSES) - 1, CLASSES[1], CLASSES[7462]
(7462, (<Category.HIGH_CARD: 0>, (5, 3, 2, 1, 0)), (<Category.STRAIGHT_FLUSH: 8>, (12,)))
>>> VALUE_OF[Category.FULL_HOUSE, (11, 10)] > VALUE_OF[Category.FLUSH, (12, 11, 10, 9, 7)]
True
"""

from __future__ import annotations

from enum import IntEnum
from itertools import combinations

__all__ = [
    "BATCH_RANK_KEYS",
    "CATEGORY_BOUNDS",
    "CLASSES",
    "STRAIGHT_TOPS",
    "VALUE_OF",
    "Category",
    "straight_top",
]


class Category(IntEnum):
    """Hand categories, weakest first (five of a kind needs wild cards or decks)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def label(self) -> str:
        """The category as players say it: ``'Full house'``."""
        return _LABELS[self]


_LABELS = {
    Category.HIGH_CARD: "High card", Category.PAIR: "Pair", Category.TWO_PAIR: "Two pair",
    Category.THREE_OF_A_KIND: "Three of a kind", Category.STRAIGHT: "Straight",
    Category.FLUSH: "Flush", Category.FULL_HOUSE: "Full house",
    Category.FOUR_OF_A_KIND: "Four of a kind", Category.STRAIGHT_FLUSH: "Straight flush",
    Category.FIVE_OF_A_KIND: "Five of a kind",
}


def straight_top(rank_bits: int) -> int:
    """Top poker rank of the best straight in a 13-bit rank set, or -1 (wheel top is 3)."""
    for top in range(12, 3, -1):
        window = 0x1F << (top - 4)
        if rank_bits & window == window:
            return top
    return 3 if rank_bits & 0x100F == 0x100F else -1


STRAIGHT_TOPS: tuple[int, ...] = tuple(range(3, 13))
"""Top ranks of the ten straights, wheel (five-high) first."""


def _desc_sets(k: int, exclude: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """All *k*-sets of ranks not in *exclude*, each high first, weakest set first."""
    ranks = [r for r in range(13) if r not in exclude]
    sets = [tuple(sorted(c, reverse=True)) for c in combinations(ranks, k)]
    return sorted(sets)


def _build() -> list[tuple[Category, tuple[int, ...]]]:
    no_straight = [s for s in _desc_sets(5) if straight_top(sum(1 << r for r in s)) < 0]
    cats: list[tuple[Category, list[tuple[int, ...]]]] = [
        (Category.HIGH_CARD, no_straight),
        (Category.PAIR, sorted((p, *k) for p in range(13) for k in _desc_sets(3, (p,)))),
        (Category.TWO_PAIR, sorted(
            (hi, lo, k) for hi in range(13) for lo in range(hi) for k in range(13)
            if k not in (hi, lo))),
        (Category.THREE_OF_A_KIND, sorted(
            (t, *k) for t in range(13) for k in _desc_sets(2, (t,)))),
        (Category.STRAIGHT, [(t,) for t in STRAIGHT_TOPS]),
        (Category.FLUSH, no_straight),
        (Category.FULL_HOUSE, sorted((t, p) for t in range(13) for p in range(13) if p != t)),
        (Category.FOUR_OF_A_KIND, sorted((q, k) for q in range(13) for k in range(13) if k != q)),
        (Category.STRAIGHT_FLUSH, [(t,) for t in STRAIGHT_TOPS]),
    ]
    out: list[tuple[Category, tuple[int, ...]]] = [(Category.HIGH_CARD, ())]  # value 0 unused
    for cat, classes in cats:
        out.extend((cat, c) for c in classes)
    return out


CLASSES: list[tuple[Category, tuple[int, ...]]] = _build()
"""``(category, ranks)`` of each value 1…7,462 (index 0 is a placeholder)."""
VALUE_OF: dict[tuple[Category, tuple[int, ...]], int] = {
    c: v for v, c in enumerate(CLASSES) if v
}
"""The value of each ``(category, ranks)`` class."""
CATEGORY_BOUNDS: dict[Category, tuple[int, int]] = {}
"""Lowest and highest value of each of the nine standard categories."""
for _v, (_cat, _) in enumerate(CLASSES[1:], 1):
    _lo, _hi = CATEGORY_BOUNDS.get(_cat, (_v, _v))
    CATEGORY_BOUNDS[_cat] = (min(_lo, _v), max(_hi, _v))

BATCH_RANK_KEYS: tuple[int, ...] = (
    0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415,
)
"""Per-rank keys whose sums over any five ranks (at most four alike) are distinct;
found by a greedy search, the largest sum is 360,918 (used by :mod:`.batch`)."""
