"""Combinations, rule by rule from RULES.md."""

from __future__ import annotations

from itertools import pairwise

import pytest

from big2 import Kind, Rules, beats, classify, parse_cards
from big2.combos import STRAIGHT_SEQUENCES

P = parse_cards


_DEFAULT = Rules()


def kind(text: str, rules: Rules = _DEFAULT) -> Kind | None:
    c = classify(P(text), rules)
    return c.kind if c else None


def test_card_strength_rank_then_suit() -> None:
    assert beats(P("3S"), P("3D")) and beats(P("4D"), P("3S")) and beats(P("2D"), P("AS"))
    assert not beats(P("3D"), P("3S"))


def test_pairs_compare_by_rank_then_higher_suit() -> None:
    assert beats(P("KS KC"), P("KH KD"))
    assert not beats(P("KH KD"), P("KS KC"))
    assert beats(P("AD AC"), P("KS KH"))


def test_triples_and_default_non_plays() -> None:
    assert kind("9S 9H 9D") == Kind.TRIPLE
    for text in ["9S 9H 9D 9C", "9S 9H 8D 8C", "3D 4D", "9S 9H 9D 8C 7D", "9S 9H 8D 8C 7C"]:
        assert kind(text) is None, text


def test_five_card_kind_order() -> None:
    straight, flush = P("3D 4C 5H 6S 7D"), P("3D 5D 7D 9D JD")
    full, four, sf = P("3D 3C 3H 4S 4D"), P("3D 3C 3H 3S 4D"), P("3D 4D 5D 6D 7D")
    chain = [straight, flush, full, four, sf]
    for lo, hi in pairwise(chain):
        assert beats(hi, lo) and not beats(lo, hi)
    assert beats(P("AS AH AD 2C 2D"), P("KS KH KD 2H 2S"))  # full house by triple


def test_flush_by_ranks_then_suit() -> None:
    assert beats(P("3D 4D 5D 6D AD"), P("9S TS JS QS 7S"))  # A high beats Q high
    assert beats(P("3S 5S 7S 9S JS"), P("3D 5D 7D 9D JD"))  # equal ranks: suit


def test_flush_by_suit_option() -> None:
    r = Rules(flush_order="suit")
    assert beats(P("KS QS JS TS 8S"), P("AD KD QD JD 9D"), r)  # RULES/seeds example
    assert not beats(P("KS QS JS TS 8S"), P("AD KD QD JD 9D"))


def _straight(seq: str) -> str:
    suits = "DCHSD"
    return " ".join(ch + suits[i] for i, ch in enumerate(seq))


@pytest.mark.parametrize("order", sorted(STRAIGHT_SEQUENCES))
def test_each_straight_order_full_sequence(order: str) -> None:
    """Every sequence of the order is a straight and beats the one before it."""
    expected = {
        "hk": "34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA 23456 A2345",
        "malaysia": "34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA A2345 23456",
        "indonesia": "34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA JQKA2",
        "pagat": "A2345 23456 34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA",
        "ace-low": "23456 34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA A2345",
        "ace-top": "23456 34567 45678 56789 6789T 789TJ 89TJQ 9TJQK A2345 TJQKA",
        "vietnam": "34567 45678 56789 6789T 789TJ 89TJQ 9TJQK TJQKA",
    }[order].split()
    rules = Rules(straight_order=order)
    plays = [P(_straight(s)) for s in expected]
    for p in plays:
        assert classify(p, rules).kind == Kind.STRAIGHT
    for lo, hi in pairwise(plays):
        assert beats(hi, lo, rules) and not beats(lo, hi, rules)
    others = {"JQKA2", "QKA23", "KA234", "A2345", "23456"} - set(expected)
    for s in others:
        assert classify(P(_straight(s)), rules) is None, (order, s)


def test_straight_deciding_card_suit() -> None:
    # hk: 2-3-4-5-6 decided by the 2's suit, not the 6's
    assert beats(P("2S 3D 4D 5D 6C"), P("2H 3S 4S 5S 6D"))
    assert not beats(P("2H 3S 4S 5S 6C"), P("2S 3D 4D 5D 6D"))
    # 10-J-Q-K-A decided by the ace
    assert beats(P("TD JD QD KD AS"), P("TS JS QS KS AH"))
    # pagat: the highest card of the sequence (the 5 in A-2-3-4-5)
    r = Rules(straight_order="pagat")
    assert beats(P("AD 2D 3D 4D 5S"), P("AS 2S 3S 4S 5H"), r)


def test_no_suit_ranking() -> None:
    r = Rules(suit_ranking=False)
    assert not beats(P("3S"), P("3D"), r) and beats(P("4D"), P("3S"), r)
    assert not beats(P("KS KC"), P("KH KD"), r)
    assert not beats(P("4S 5S 6S 7S 8D"), P("4D 5D 6D 7D 8C"), r)


def test_suit_orders() -> None:
    assert beats(P("3D"), P("3C"), Rules(suit_order="CDHS"))
    assert beats(P("3H"), P("3S"), Rules(suit_order="CDSH"))
    assert beats(P("3D"), P("3H"), Rules(suit_order="CSHD"))


def test_straight_beats_flush_option() -> None:
    r = Rules(straight_beats_flush=True)
    assert beats(P("3D 4C 5H 6S 7D"), P("3D 5D 7D 9D JD"), r)


def test_no_poker_and_top_card() -> None:
    same = Rules(five_card_compare="same-kind")
    assert not beats(P("3D 3C 3H 4S 4D"), P("3D 4C 5H 6S 7D"), same)
    assert beats(P("4D 5C 6H 7S 8D"), P("3D 4C 5H 6S 7D"), same)
    top = Rules(five_card_compare="top-card")
    # RULES.md: 4-5-6-7-8 may be played on 7-7-7-6-6
    assert beats(P("4D 5C 6H 7S 8D"), P("7D 7C 7H 6S 6D"), top)


def test_triples_only_in_full_house() -> None:
    r = Rules(triples=False)
    assert kind("9S 9H 9D", r) is None and kind("9S 9H 9D 4C 4D", r) == Kind.FULL_HOUSE


def test_four_card_plays() -> None:
    r = Rules(two_pairs=True, four_of_a_kind_alone=True)
    assert kind("9S 9H 8D 8C", r) == Kind.TWO_PAIRS
    assert kind("3S 3H 3D 3C", r) == Kind.FOUR_OF_A_KIND
    assert beats(P("3S 3H 3D 3C"), P("AS AH KD KC"), r)
    assert beats(P("AS AH KD KC"), P("KS KH QD QC"), r)


def test_four_kicker_option() -> None:
    assert kind("9S 9H 9D 9C 4D") == Kind.FOUR_KICKER
    assert kind("9S 9H 9D 9C 4D", Rules(four_kicker=False)) is None


def test_extra_five_card_kinds_rank_below_straight() -> None:
    r = Rules(five_two_pairs="any", five_trips=True)
    butterfly, trips = P("9S 9H 4D 4C KD"), P("9S 9H 9D 4C KD")
    assert kind(butterfly.text(), r) == Kind.FIVE_TWO_PAIRS
    assert kind(trips.text(), r) == Kind.FIVE_TRIPS
    straight = P("3D 4C 5H 6S 7D")
    assert beats(straight, trips, r) and beats(trips, butterfly, r)
    sisters = Rules(five_two_pairs="sisters")
    # RULES example: J-J-Q-Q-9 beaten by K-K-A-A-3 (only the pairs count)
    assert beats(P("KS KH AD AC 3D"), P("JS JH QD QC 9D"), sisters)
    assert kind("9S 9H 4D 4C KD", sisters) is None
