"""Scoring: RULES.md's worked examples exactly, each method, and the doubling counts."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from big2 import Rules, parse_cards, score
from big2.combos import Kind, classify
from big2.scoring import _straight_flushes, card_multiplier, doubling_count

P = parse_cards


def test_worked_example_one() -> None:
    """North wins; East, West, South hold 3, 11 and 8 cards, no doubling cards."""
    east, west = P("3D 4D 5D"), P("3C 4S 5C 6S 7C 8C 9S TC JS QC KS")
    south = P("3H 4H 6H 7H 9H JH QH KD")
    assert score(Rules(), [0, east, west, south], winner=0, last_play=P("AD")) == (33, -3, -22, -8)


def test_worked_example_two() -> None:
    """North wins with a 2; West still holds a straight flush, South a 2."""
    west = P("3H 4H 5H 6H 7H 9C 9D JS QS")
    south = P("2C 4S 5S 6C 8C 8D TC KD")
    got = score(Rules(), [0, P("4D 5D 6D"), west, south], winner=0, last_play=P("2S"))
    assert got == (74, -6, -36, -32)


def test_multipliers() -> None:
    assert [card_multiplier(n, 13) for n in (1, 9, 10, 12, 13)] == [1, 1, 2, 2, 3]
    assert [card_multiplier(n, 17) for n in (11, 12, 16, 17)] == [1, 2, 2, 3]


def test_twos_double_each_or_once() -> None:
    hand = P("2S 2H 4D")
    assert doubling_count(hand, Rules()) == 2
    assert doubling_count(hand, Rules(twos_double="once")) == 1
    assert doubling_count(P("9S 9H 9D 9C 4D"), Rules()) == 1  # a four of a kind held whole


def test_count_penalty_and_ranking() -> None:
    hands = [0, P("3D 4D 5D"), P("3C 2C"), P("3H")]
    assert score(Rules(scoring="count"), hands, 0, P("AS")) == (6, -3, -2, -1)
    assert score(Rules(scoring="count", count_twos_double=True), hands, 0, P("AS")) == (7, -3, -3, -1)
    assert score(Rules(scoring="penalty"), hands, 0, P("2S")) == (0, -3, -2, -1)  # no doublings
    assert score(Rules(scoring="ranking"), hands, 0, P("AS"), finished=[0, 3]) == (3, 0, 1, 2)


@pytest.mark.parametrize("order", ["hk", "pagat", "indonesia", "vietnam"])
def test_straight_flush_count_matches_brute_force(order: str) -> None:
    rules = Rules(straight_order=order)
    rng = random.Random(order)
    for _ in range(300):
        # suit-heavy hands so straight flushes actually occur
        suit = rng.randrange(4)
        cards = rng.sample([r * 4 + suit for r in range(13)], rng.randint(5, 10))
        cards += rng.sample([c for c in range(52) if c not in cards], 13 - len(cards))
        hand = sum(1 << c for c in cards)
        brute = sum(1 for sub in combinations(cards, 5)
                    if (c := classify(sum(1 << x for x in sub), rules)) is not None
                    and c.kind == Kind.STRAIGHT_FLUSH)
        assert _straight_flushes(hand, rules) == brute
