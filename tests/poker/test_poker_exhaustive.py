"""Every five- and seven-card hand through the fast evaluators (nightly; issue 43).

The compiled core's batch loops check their rows in a vector pass and evaluate them
in a plain loop; these sweeps hold them, on every hand there is, to the scalar entry
points and to independent references: the NumPy batch (five cards), the best of the
21 five-card subsets and the NumPy seven-card tables (seven cards), and the known
count of hands in each category.  Four to eight minutes on one core of a loaded machine.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from big2.poker import CLASSES, Category, all_five_card_hands, evaluate5_batch, evaluate7_batch
from big2.poker.batch import py_evaluate5_batch, py_evaluate7_batch
from big2.poker.lookup import combinations_array
from big2.poker.native import EXTENSION

pytestmark = pytest.mark.nightly

SEVEN_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 41_584, Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184, Category.FLUSH: 4_047_644, Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620, Category.TWO_PAIR: 31_433_400,
    Category.PAIR: 58_627_800, Category.HIGH_CARD: 23_294_460,
}
"""Seven-card hands by the category of their best five (133,784,560 in all)."""

_CATEGORY = np.array([0] + [int(CLASSES[v][0]) for v in range(1, 7463)], dtype=np.int64)


def test_every_five_card_hand_batch_equals_scalar_and_reference() -> None:
    """All 2,598,960 hands: the batch on uint8 and int64 rows, the scalar core call per
    hand and the NumPy reference agree on every one."""
    assert EXTENSION is not None, "the compiled core is not built (pip install -e .)"
    hands = all_five_card_hands()
    batch = evaluate5_batch(hands)
    assert np.array_equal(batch, evaluate5_batch(hands.astype(np.int64)))
    assert np.array_equal(batch, py_evaluate5_batch(hands))
    scalar = np.array([EXTENSION.evaluate5(*h) for h in hands.tolist()], dtype=np.int32)
    assert np.array_equal(batch, scalar)
    assert np.count_nonzero(np.bincount(batch, minlength=7463)) == 7462


def test_every_seven_card_hand_batch_equals_the_best_five_and_the_tables() -> None:
    """All 133,784,560 hands, in blocks by their two lowest cards: evaluate7_batch equals
    the best of the 21 five-card subsets (evaluate5_batch), the NumPy seven-card tables
    and, on every 97th hand, the scalar core call; the category counts are the known ones
    and 4,824 distinct values occur."""
    assert EXTENSION is not None, "the compiled core is not built (pip install -e .)"
    subsets = [list(s) for s in combinations(range(7), 5)]
    per_value = np.zeros(7463, dtype=np.int64)
    total = 0
    for a in range(46):
        for b in range(a + 1, 47):
            rest = combinations_array(51 - b, 5).astype(np.uint8) + np.uint8(b + 1)
            rows = np.empty((len(rest), 7), dtype=np.uint8)
            rows[:, 0], rows[:, 1], rows[:, 2:] = a, b, rest
            values = evaluate7_batch(rows)
            best = evaluate5_batch(np.ascontiguousarray(rows[:, subsets[0]]))
            for s in subsets[1:]:
                np.maximum(best, evaluate5_batch(np.ascontiguousarray(rows[:, s])), out=best)
            assert np.array_equal(values, best), (a, b)
            assert np.array_equal(values, py_evaluate7_batch(rows)), (a, b)
            for i in range(0, len(rows), 97):
                assert EXTENSION.evaluate7(*rows[i].tolist()) == values[i], rows[i]
            per_value += np.bincount(values, minlength=7463)
            total += len(rows)
    assert total == 133_784_560
    assert np.count_nonzero(per_value) == 4824
    counts = Counter({Category(c): int(n) for c, n in
                      enumerate(np.bincount(_CATEGORY, weights=per_value, minlength=9)) if n})
    assert counts == SEVEN_CARD_COUNTS
