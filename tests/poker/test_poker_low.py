"""Low poker: the three orders against the OneJoker classes and the seeds' worked examples."""

from __future__ import annotations

import itertools

import pytest

from big2.poker import (
    ACE_TO_FIVE,
    ACE_TO_SIX,
    DEUCE_TO_SEVEN,
    Rules,
    compare,
    qualifies_eight_or_better,
    rank_hand,
)


def _order_agrees(keys: list[tuple[int, ...]], classes: list[int]) -> None:
    """Higher key must mean better (smaller) class, equal key equal class."""
    pairs = sorted(zip(keys, classes))
    for (k1, c1), (k2, c2) in itertools.pairwise(pairs):
        assert (k1 == k2) == (c1 == c2) and (k1 < k2) == (c1 > c2), (k1, c1, k2, c2)


@pytest.mark.parametrize("used", [
    pytest.param(10_000, id="10k"), pytest.param(None, id="all", marks=pytest.mark.nightly),
])
@pytest.mark.parametrize(("rules", "column", "classes"), [
    (DEUCE_TO_SEVEN, 2, 7462), (ACE_TO_FIVE, 3, 6175), (ACE_TO_SIX, 4, 7462),
])
def test_low_orders_match_onejoker_classes(five_rows, to_text, rules, column, classes, used) -> None:  # type: ignore[no-untyped-def]
    rows = five_rows[:used]
    keys = [rank_hand(to_text(r[0]), rules).key for r in rows]
    _order_agrees(keys, [r[column] for r in rows])
    assert max(r[column] for r in five_rows) == classes


def _ordered(hands: list[str], rules: Rules) -> None:
    for better, worse in itertools.pairwise(hands):
        assert compare(better, worse, rules) == 1, (better, worse)


def test_ace_to_five_best_hands_in_order() -> None:
    _ordered(["5S 4S 3S 2S AS", "6D 4C 3H 2S AD", "6D 5C 3H 2S AD", "6D 5C 4H 2S AD",
              "6D 5C 4H 3S AD", "6D 5C 4H 3S 2D", "7D 4C 3H 2S AD"], ACE_TO_FIVE)


def test_ace_to_five_wheel_counts_even_suited_and_names() -> None:
    h = rank_hand("5S 4S 3S 2S AS", ACE_TO_FIVE)
    assert h.name == "5-low"
    assert rank_hand("8S 6D 5C 4H 2S", ACE_TO_FIVE).name == "8-low"


def test_ace_to_five_highest_card_compared_first() -> None:
    assert compare("6D 5C 4H 3S 2D", "7D 4C 3H 2S AD", ACE_TO_FIVE) == 1


def test_ace_to_five_best_pair_is_aces() -> None:
    best_pair = rank_hand("AD AC 4H 3S 2D", ACE_TO_FIVE)
    assert best_pair > rank_hand("2D 2C 4H 3S 5D", ACE_TO_FIVE)
    assert best_pair > rank_hand("AD AC 5H 3S 2D", ACE_TO_FIVE)
    assert best_pair < rank_hand("KD QC JH 9S 8D", ACE_TO_FIVE)


def test_eight_or_better_worst_qualifier_and_selection_from_seven() -> None:
    assert qualifies_eight_or_better("8C 7D 6H 5S 4C")
    assert not qualifies_eight_or_better("9C 7D 6H 5S 4C")
    assert not qualifies_eight_or_better("8C 8D 6H 5S 4C")
    hand = rank_hand("TC 8D 6H 6S 3C 2D AH", Rules(low="a5", eight_or_better=True))
    assert hand.qualifies and sorted(hand.played_as) == [0, 1, 4, 6, 12]
    rules = Rules(low="a5", eight_or_better=True)
    assert compare("8C 7D 6H 5S 4C", "9C 4D 3H 2S AC", rules) == 1


def test_deuce_to_seven_best_hands_in_order() -> None:
    _ordered(["7D 5C 4H 3S 2D", "7D 6C 4H 3S 2D", "7D 6C 5H 3S 2D", "7D 6C 5H 4S 2D",
              "8D 5C 4H 3S 2D", "8D 6C 4H 3S 2D", "8D 6C 5H 3S 2D", "8D 6C 5H 4S 2D",
              "8D 6C 5H 4S 3D", "8D 7C 4H 3S 2D"], DEUCE_TO_SEVEN)


def test_deuce_to_seven_wheel_is_ace_high_between_kings_and_aces() -> None:
    wheel = rank_hand("AD 2C 3H 4S 5D", DEUCE_TO_SEVEN)
    assert wheel.name == "Ace-low"
    assert rank_hand("KD QC JH TS 8D", DEUCE_TO_SEVEN) > wheel
    assert wheel > rank_hand("AD 6C 4H 3S 2D", DEUCE_TO_SEVEN)


def test_deuce_to_seven_straights_and_flushes_count_against() -> None:
    assert compare("8D 6C 5H 4S 3D", "6D 5C 4H 3S 2D", DEUCE_TO_SEVEN) == 1
    assert compare("9D 6C 5H 4S 3D", "7S 5S 4S 3S 2S", DEUCE_TO_SEVEN) == 1


def test_deuce_to_seven_best_pair_loses_to_worst_high_card() -> None:
    pair = rank_hand("2D 2C 5H 4S 3D", DEUCE_TO_SEVEN)
    assert rank_hand("AD KC QH JS 9D", DEUCE_TO_SEVEN) > pair
    assert pair > rank_hand("2D 2C 6H 4S 3D", DEUCE_TO_SEVEN)


def test_ace_to_six_wheel_is_a_straight_and_six_four_best() -> None:
    assert rank_hand("5D 4C 3H 2S AD", ACE_TO_SIX).name == "Straight, Five-high"
    assert compare("6D 4C 3H 2S AD", "5D 4C 3H 2S AD", ACE_TO_SIX) == 1
    assert compare("6D 4C 3H 2S AD", "7D 4C 3H 2S AD", ACE_TO_SIX) == 1


def test_ace_to_six_ace_king_queen_jack_ten_is_a_king_down() -> None:
    h = rank_hand("AD KC QH JS TD", ACE_TO_SIX)
    assert h.name == "King-low"
    assert h > rank_hand("KD QC JH TS 2D", ACE_TO_SIX)


def test_ace_to_six_aces_are_the_best_pair() -> None:
    assert compare("AD AC 5H 4S 3D", "2D 2C 5H 4S 3D", ACE_TO_SIX) == 1


def test_low_selection_from_seven_cards() -> None:
    h = rank_hand("TC 8D 6H 6S 3C 2D AH", ACE_TO_FIVE)
    assert h.name == "8-low"
    assert "TC" not in h.text()
