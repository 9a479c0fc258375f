"""The fast evaluator: full enumeration, the OneJoker data, the reference ranker, best-of-n."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, pairwise

import numpy as np
import pytest

from big2.cards import CARD_NAMES
from big2.poker import (
    CLASSES,
    Category,
    all_five_card_hands,
    evaluate,
    evaluate5,
    evaluate5_batch,
    evaluate7,
    evaluate7_batch,
    parse_hand,
)
from big2.poker.batch import py_evaluate5_batch
from big2.poker.native import EXTENSION
from big2.poker.reference import reference_key

STANDARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 40, Category.FOUR_OF_A_KIND: 624, Category.FULL_HOUSE: 3744,
    Category.FLUSH: 5108, Category.STRAIGHT: 10200, Category.THREE_OF_A_KIND: 54912,
    Category.TWO_PAIR: 123552, Category.PAIR: 1098240, Category.HIGH_CARD: 1302540,
}


@pytest.fixture(scope="module")
def every_hand() -> tuple[np.ndarray, np.ndarray]:
    hands = all_five_card_hands()
    return hands, evaluate5_batch(hands)


def test_all_hands_category_counts_and_7462_values(every_hand) -> None:  # type: ignore[no-untyped-def]
    hands, values = every_hand
    assert len(hands) == 2_598_960
    assert len({tuple(sorted(h)) for h in hands[::9973].tolist()}) == len(hands[::9973])
    per_value = np.bincount(values, minlength=7463)
    assert per_value[0] == 0
    assert np.count_nonzero(per_value) == 7462
    counts = Counter()
    for v, n in enumerate(per_value.tolist()):
        if n:
            counts[CLASSES[v][0]] += n
    assert dict(counts) == STANDARD_COUNTS


@pytest.mark.parametrize("stride", [
    pytest.param(50, id="every-50th"), pytest.param(1, id="all", marks=pytest.mark.nightly),
])
def test_single_hand_path_agrees_with_batch_on_every_hand(every_hand, stride) -> None:  # type: ignore[no-untyped-def]
    """The scalar path (the compiled core's where built) against the NumPy reference batch."""
    hands, _ = every_hand
    reference = py_evaluate5_batch(hands[::stride])
    fast = [evaluate5(a, b, c, d, e) for a, b, c, d, e in hands[::stride].tolist()]
    assert np.array_equal(np.array(fast, dtype=np.int32), reference)


@pytest.mark.nightly
def test_every_hand_through_the_native_scalar_path_orders_like_the_plain_reference(
        every_hand) -> None:  # type: ignore[no-untyped-def]
    """All 2,598,960 hands: the core's evaluate5, one hand per call, gives each of the
    7,462 values to exactly one class of the plain reference ranker, in its order."""
    assert EXTENSION is not None, "the compiled core is not built (pip install -e .)"
    hands, _ = every_hand
    names = [CARD_NAMES[c] for c in range(52)]
    key_of: dict[int, tuple[int, ...]] = {}
    for h in hands.tolist():
        v = EXTENSION.evaluate5(*h)
        key = reference_key([names[c] for c in h])
        assert key_of.setdefault(v, key) == key, (h, v)
    assert sorted(key_of) == list(range(1, 7463))
    keys = [key_of[v] for v in range(1, 7463)]
    assert keys == sorted(keys) and len(set(keys)) == 7462


def test_five_card_classes_match_onejoker_data(five_rows, to_text) -> None:  # type: ignore[no-untyped-def]
    for row in five_rows:
        assert 7463 - evaluate(parse_hand(to_text(row[0]))) == row[1], row


def test_batch_matches_onejoker_data(five_rows, to_text) -> None:  # type: ignore[no-untyped-def]
    hands = np.array([parse_hand(to_text(r[0])) for r in five_rows[:20000]])
    expected = np.array([7463 - r[1] for r in five_rows[:20000]])
    assert np.array_equal(evaluate5_batch(hands), expected)


def test_seven_card_classes_match_onejoker_data(seven_rows, to_text) -> None:  # type: ignore[no-untyped-def]
    hands = [parse_hand(to_text(r[0])) for r in seven_rows]
    for hand, row in zip(hands, seven_rows):
        assert 7463 - evaluate7(*hand) == row[1], row
        # the stored best five cards have the same value
    for row in seven_rows[:5000]:
        assert evaluate(parse_hand(to_text(row[2]))) == 7463 - row[1]
    batch = evaluate7_batch(np.array(hands[:20000]))
    assert batch.tolist() == [7463 - r[1] for r in seven_rows[:20000]]


def test_fast_path_agrees_with_plain_reference_ranker() -> None:
    rng = random.Random(7)
    hands = [rng.sample(range(52), 5) for _ in range(30000)]
    pairs = sorted((evaluate(h), reference_key([CARD_NAMES[c] for c in h])) for h in hands)
    for (v1, k1), (v2, k2) in pairwise(pairs):
        assert (v1 < v2) == (k1 < k2) and (v1 == v2) == (k1 == k2), (k1, k2)


@pytest.mark.parametrize("n", [6, 7, 8, 9])
def test_best_of_n_agrees_with_brute_force_over_five_card_subsets(n: int) -> None:
    rng = random.Random(n)
    for _ in range(3000 if n == 7 else 500):
        hand = rng.sample(range(52), n)
        brute = max(evaluate5(*five) for five in combinations(hand, 5))
        assert evaluate(hand) == brute, hand
        if n == 7:
            assert evaluate7(*hand) == brute


def test_flush_beside_full_house_in_eight_cards_takes_the_full_house() -> None:
    hand = parse_hand("9H 9S KH KS KD 5H 3H 2H")
    assert CLASSES[evaluate(hand)] == (Category.FULL_HOUSE, (11, 7))


@pytest.mark.parametrize("core", [True, False], ids=["core", "numpy"])
def test_batches_write_into_out(core: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``out=`` (issue 43): the values land in the given array, on the core's path and on
    the NumPy one, and an unfit array is refused alike."""
    from big2.poker import batch

    if not core:
        monkeypatch.setattr(batch, "CORE", None)
    rng = random.Random(3)
    seven = np.array([rng.sample(range(52), 7) for _ in range(500)], dtype=np.uint8)
    out = np.zeros(500, dtype=np.int32)
    assert evaluate7_batch(seven, out=out) is out
    assert out.tolist() == [evaluate7(*map(int, h)) for h in seven]
    five = seven[:, :5].copy()
    assert evaluate5_batch(five, out=out) is out
    assert out.tolist() == [evaluate5(*map(int, h)) for h in five]
    with pytest.raises(ValueError, match="out must be"):
        evaluate5_batch(five, out=np.zeros(499, dtype=np.int32))
    with pytest.raises(ValueError, match="out must be"):
        evaluate5_batch(five, out=np.zeros(500, dtype=np.int64))
