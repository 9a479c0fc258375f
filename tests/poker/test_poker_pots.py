"""Omaha best hands, split pots with odd chips, and badugi."""

from __future__ import annotations

import random
from itertools import combinations, pairwise

import numpy as np
import pytest

from big2.cards import CARD_NAMES
from big2.poker import rank_hand
from big2.poker.badugi import compare_badugi, rank_badugi
from big2.poker.games import omaha_values
from big2.poker.omaha import omaha_high, omaha_low
from big2.poker.pots import settle, split_pot
from big2.poker.reference import reference_key


def deal(rng: random.Random, hole: int) -> tuple[list[int], list[int], list[int]]:
    cards = rng.sample(range(52), 2 * hole + 5)
    return cards[:hole], cards[hole:2 * hole], cards[2 * hole:]


def test_omaha_high_is_the_best_of_exactly_two_and_three() -> None:
    rng = random.Random(5)
    for _ in range(60):
        hole, _, board = deal(rng, 4)
        best = max(reference_key([CARD_NAMES[c] for c in (*p, *t)])
                   for p in combinations(hole, 2) for t in combinations(board, 3))
        h = omaha_high(hole, board)
        assert reference_key([CARD_NAMES[c] for c in h.cards]) == best
        assert sum(c in hole for c in h.cards) == 2


def test_omaha_scalar_and_batch_agree_high_and_low() -> None:
    rng = random.Random(9)
    for _ in range(30):
        a, b, board = deal(rng, 4)
        arr = np.array([board], dtype=np.uint8)
        hi = [int(omaha_values(arr, np.array([h], dtype=np.uint8))[0]) for h in (a, b)]
        lo = [int(omaha_values(arr, np.array([h], dtype=np.uint8), low=True)[0]) for h in (a, b)]
        sa, sb = omaha_high(a, board), omaha_high(b, board)
        assert hi == [sa.value, sb.value]
        la, lb = omaha_low(a, board), omaha_low(b, board)
        assert (la is None, lb is None) == (lo[0] == 0, lo[1] == 0)
        if la is not None and lb is not None:
            assert (la > lb) - (la < lb) == (lo[0] > lo[1]) - (lo[0] < lo[1])


def test_omaha_low_needs_two_low_hole_cards_and_three_low_board_cards() -> None:
    assert omaha_low("AS 2D 3C 4H", "KS QD 5C 9H TD") is None  # one low card on the board
    assert omaha_low("AS 2D 3C 4H", "KS QD 5C 6H 7D") is not None
    assert omaha_low("AS KD QC JH", "2S 3D 4C 5H 6D") is None  # one low card in hand
    low = omaha_low("AS 3D QC JH", "2S 7D 4C 5H KD")
    assert low is not None and low.name == "5-low"
    with pytest.raises(ValueError, match="4 to 6 hole cards"):
        omaha_high("AS KS", "2S 3D 4C")


def test_split_pot_odd_chips() -> None:
    assert split_pot(10, [0, 1, 2]) == [4, 3, 3]
    assert split_pot(10, [0, 1, 2], order=[1, 2, 0]) == [3, 4, 3]
    assert split_pot(11, [0], [1]) == [6, 5]                 # the high half takes the odd chip
    assert split_pot(100, [0], [0, 1]) == [75, 25]           # quartered
    assert split_pot(101, [0, 1], [1, 2], players=4) == [26, 50, 25, 0]
    assert split_pot(5, [3], players=5) == [0, 0, 0, 5, 0]
    assert sum(split_pot(997, [0, 2, 4], [1, 3], players=6, order=[3, 4, 5, 0, 1, 2])) == 997
    with pytest.raises(ValueError, match="high winner"):
        split_pot(10, [])
    with pytest.raises(ValueError, match="every seat"):
        split_pot(10, [0], order=[0, 0])


def test_settle_holdem_three_way_chop_and_stud8() -> None:
    s = settle(100, ["2C 3D", "2D 3C", "2H 4S"], board="AS KS QD JH TC")
    assert s.high == (0, 1, 2) and s.amounts == (34, 33, 33) and s.low == ()
    s = settle(100, ["2C 3D", "KD KC"], board="AS KS QD JH 5C")
    assert s.amounts == (0, 100) and s.high_hands[1].name == "Three of a kind, Kings"
    s = settle(41, ["AS 2S 3D 4D 5H KC KS", "KD KH 9C 9D 7S 7C 6H"], game="stud8")
    assert s.low == (0,) and s.high == (0,) and s.amounts == (41, 0)  # a wheel scoops
    s = settle(41, ["AS 2S 3D 4D 8H QC QS", "KD KH 9C 9D 7S 7C 6H"], game="stud8")
    assert s.high == (1,) and s.low == (0,) and s.amounts == (20, 21)
    s = settle(40, ["AS 2S 3D 9D TH QC QS", "KD KH 9C JD 7S 7C 6H"], game="stud8")
    assert s.low == () and s.amounts == (0, 40)                 # no low: high takes all


def test_settle_short_deck_uses_its_ranking() -> None:
    s = settle(10, ["AH KH", "TS TC"], board="TH 6H 7H 6S JC", game="shortdeck")
    assert s.high == (0,)
    s = settle(10, ["AH KH", "TS TC"], board="TH 6H 7H 6S JC")
    assert s.high == (1,)


@pytest.mark.parametrize(("hand", "name"), [
    ("4S 3H 2D AC", "4-card badugi, 4-3-2-A"),
    ("KS QH JD TC", "4-card badugi, K-Q-J-T"),
    ("KS QH JD AS", "3-card hand, Q-J-A"),
    ("AS AH 2D 3C", "3-card hand, 3-2-A"),
    ("AS 2S 3S 4S", "1-card hand, A"),
    ("5S 5H 5D 2S", "2-card hand, 5-2"),
])
def test_badugi_names(hand: str, name: str) -> None:
    assert rank_badugi(hand).name == name


def test_badugi_order() -> None:
    worst_first = ["AS 2S 3S 4S", "KS KH QH QD", "KS QH JD TS", "8S 7H 6D AD",
                   "2S 3H AH AD", "KS QH JD TC", "8S 5H 3D 2C", "4S 3H 2D AC"]
    ranked = [rank_badugi(h) for h in worst_first]
    assert all(a < b for a, b in pairwise(ranked))
    assert compare_badugi("4S 3H 2D AC", "4H 3S 2C AD") == 0  # suits never break ties
    with pytest.raises(ValueError, match="1 to 4 cards"):
        rank_badugi("AS 2H 3D 4C 5S")


def test_high_rank_hand_still_used_for_holdem_names() -> None:
    assert settle(2, ["AS AD", "KS KD"], board="2C 7H 9D JS 3C").high_hands[0].name == (
        rank_hand("AS AD 2C 7H 9D JS 3C").name)
