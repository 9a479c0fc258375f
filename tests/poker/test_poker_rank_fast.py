"""rank_hand's fast path (standard rules, 5-9 plain cards) equals the general path."""

from __future__ import annotations

import random

import pytest

from big2.poker import STANDARD, Rules, rank_hand
from big2.poker.cards import parse_hand
from big2.poker.ranking import HandRank, _rank_general, _rank_plain

FIELDS = ("category", "ranks", "cards", "played_as", "kickers", "wilds", "suit", "key",
          "qualifies", "name")


def same(a: HandRank | None, b: HandRank) -> None:
    assert a is not None
    for f in FIELDS:
        assert getattr(a, f) == getattr(b, f), f


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9])
def test_fast_path_equals_general_on_random_hands(n: int) -> None:
    rng = random.Random(n)
    for _ in range(3000 if n == 7 else 600):
        cards = tuple(rng.sample(range(52), n))
        fast = _rank_plain(cards, STANDARD)
        assert fast is not None
        same(fast, _rank_general(cards, STANDARD))


def test_fast_path_equals_general_where_cards_tie() -> None:
    # equal cards to choose from (a third pair, two kickers of one rank, a wheel with
    # two aces, straights beside flushes): the general path keeps the first in order given
    rng = random.Random(28)
    for text in ("AS AD KC KH QS QD 2C", "QS QD AS AD KC KH 2C", "5S 4D 3C 2H AS AD AH",
                 "9H 8H 7H 6H 2H TS TD", "7C 7D 7H 7S 2C 2D 2H", "KS KD KH 3C 3D 3H 9S",
                 "AH KH QH JH TH 9H 8H AS KS", "5D 4D 3D 2D AD AS 6C"):
        cards = list(parse_hand(text))
        for _ in range(30):
            rng.shuffle(cards)
            same(_rank_plain(tuple(cards), STANDARD), _rank_general(tuple(cards), STANDARD))
    # and many random hands drawn from few ranks, where pairs and trips abound
    for _ in range(3000):
        ranks = rng.sample(range(13), 4)
        pool = [((r - 1) % 13) * 4 + s for r in ranks for s in range(4)]
        hand = tuple(rng.sample(pool, 7))
        same(_rank_plain(hand, STANDARD), _rank_general(hand, STANDARD))


def test_other_rules_jokers_and_repeated_cards_take_the_general_path() -> None:
    assert _rank_plain(parse_hand("AS KS QS JS JK"), STANDARD) is None
    assert _rank_plain((47, 47, 43, 39, 35), STANDARD) is None
    doubled = (47, 47, 43, 39, 35)     # two decks: A-A-K-Q-J
    same(rank_hand(doubled), _rank_general(doubled, STANDARD))
    low = Rules(low="27")
    same(rank_hand("7S 5D 4H 3C 2D 9C", low), _rank_general(parse_hand("7S 5D 4H 3C 2D 9C"), low))
