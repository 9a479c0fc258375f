"""Standard ranking examples, incomplete hands, suit tiebreaks, stripped decks,
"no unbeatable hand" rules and names, each from the seeds' poker pages."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from big2.poker import (
    GREEK,
    ITALIAN,
    STANDARD,
    Category,
    HandRank,
    Rules,
    compare,
    evaluate,
    format_hand,
    parse_hand,
    rank_hand,
    showdown,
)


def beats(a: str, b: str, rules: Rules = STANDARD) -> bool:
    return compare(a, b, rules) == 1


# --- standard high poker (seed 002) ---------------------------------------

def test_lower_four_of_a_kind_loses_whatever_the_kicker() -> None:
    assert beats("4S 4D 4H 4C 2S", "3S 3D 3H 3C AS")


def test_board_quads_kicker_decides_or_splits() -> None:
    board = "JS JD JH JC 9S"
    assert beats(board + " KD 7C", board + " QD TC")
    assert compare(board + " 8D 2C", board + " 6D 5C") == 0
    assert compare(board + " AD 2C", board + " AH KC") == 0


def test_full_house_by_triple_then_pair() -> None:
    assert beats("9S 9D 9H 4C 4S", "8S 8D 8H AC AS")
    assert beats("9S 9D 9H 5C 5S", "9C 9D 9H 4C 4S")


def test_flush_by_highest_card_then_next() -> None:
    assert beats("KH JH 9H 3H 2H", "KS JS 7S 6S 5S")
    assert compare("KH JH 9H 3H 2H", "KS JS 9S 3S 2S") == 0


def test_straights_ace_high_or_low_never_round_the_corner() -> None:
    assert rank_hand("AS KD QC JH TS").name == "Straight, Broadway"
    assert rank_hand("5S 4D 3C 2H AS").name == "Straight, wheel"
    assert beats("6S 5D 4C 3H 2S", "5S 4D 3C 2H AS")
    assert rank_hand("4S 3D 2C AH KS").category == Category.HIGH_CARD


def test_three_of_a_kind_then_kickers() -> None:
    assert beats("5S 5D 5H 3C 2S", "4S 4D 4H KC 5S")
    assert beats("4S 4D 4H KC 5S", "4C 4D 4H QC 9S")
    assert beats("4C 4D 4H QC 9S", "4S 4D 4H QD 8S")


def test_two_pairs_high_pair_low_pair_then_odd_card() -> None:
    assert beats("JS JD 2H 2C 4S", "TS TD 9H 9C 8S")
    assert beats("8S 8D 6H 6C 3S", "8C 8H 5H 5C KS")
    assert beats("QS QD 5H 5C 8S", "QC QH 5S 5D 4S")


def test_pair_then_odd_cards() -> None:
    assert beats("6S 6D 4H 3C 2S", "5S 5D AH KC QS")
    assert beats("JS JD AH 9C 3S", "JC JH AS 8C 7S")


def test_high_card() -> None:
    assert beats("AS JD 9H 5C 3S", "AH TD 9S 6C 4S")


def test_unused_cards_do_not_count() -> None:
    assert compare("AS AD KH QC JS 3D 2C", "AH AC KS QD JD 9S 8S") == 0


def test_royal_flush_is_a_straight_flush() -> None:
    royal = rank_hand("AS KS QS JS TS")
    assert royal.name == "Royal flush" and royal.category == Category.STRAIGHT_FLUSH
    assert royal > rank_hand("KS QS JS TS 9S")


# --- incomplete hands ------------------------------------------------------

def test_incomplete_hands_present_kicker_beats_missing_one() -> None:
    assert beats("8S 8D KH", "8H 8C 6S 2D")
    assert beats("8H 8C 6S 2D", "8S 8D 6H")
    chain = ["TS", "9S 5D", "9H 3C 2D", "9D 3S", "9C"]
    for better, worse in itertools.pairwise(chain):
        assert beats(better, worse), (better, worse)


def test_incomplete_hands_make_quads_and_two_pair_but_no_straight() -> None:
    assert rank_hand("7S 7D 7H 7C").category == Category.FOUR_OF_A_KIND
    assert rank_hand("7S 7D 4H 4C").category == Category.TWO_PAIR
    assert rank_hand("7S 7D 7H").category == Category.THREE_OF_A_KIND
    assert rank_hand("5S 6S 7S 8S").category == Category.HIGH_CARD


# --- suit tiebreaks ----------------------------------------------------------

def test_suit_tiebreak_highest_card() -> None:
    rules = Rules(suit_tiebreak="highest")
    # A holds the higher eight, B the higher jack: the jack decides
    assert compare("8S 8C JD 9H 3C", "8H 8D JS 9C 3D", rules) == -1
    assert compare("KS QC 7D 6H 2C", "KH QS 7C 6D 2S", rules) == 1


def test_suit_tiebreak_highest_paired_card() -> None:
    rules = Rules(suit_tiebreak="paired")
    assert compare("JS JC 7D 7H KC", "JH JD 7S 7C KS", rules) == 1
    assert compare("8S 8C JD 9H 3C", "8H 8D JS 9C 3D", rules) == 1


def test_suit_tiebreak_highest_unpaired_card() -> None:
    rules = Rules(suit_tiebreak="unpaired")
    assert compare("KS KC 7D 5H 4C", "KH KD 7S 5C 4S", rules) == -1


def test_suit_tiebreak_with_another_suit_order() -> None:
    hands = ("KS QC 7D 6H 2C", "KH QS 7C 6D 2S")
    assert compare(*hands, Rules(suit_tiebreak="highest")) == 1
    assert compare(*hands, Rules(suit_tiebreak="highest", suit_order="HDCS")) == -1
    assert compare(*hands) == 0


# --- stripped decks and unbeatable hands --------------------------------------

def test_stripped_deck_ace_next_to_lowest_rank() -> None:
    rules = Rules.stripped(36)
    h = rank_hand("AS 6D 7C 8H 9S", rules)
    assert h.category == Category.STRAIGHT and h.ranks == (7,)
    assert rank_hand("AS 6D 7C 8H 9S").category == Category.HIGH_CARD
    assert beats("TS 6D 7C 8H 9S", "AS 6D 7C 8H 9S", rules)


def test_stripped_deck_flush_beats_full_house() -> None:
    rules = Rules.stripped(32)
    assert beats("KH JH 9H 8H 7H", "AS AD AH KC KS", rules)
    assert not beats("KH JH 9H 8H 7H", "AS AD AH KC KS")


def test_italian_minimum_beats_maximum_beats_medium_beats_minimum() -> None:
    rules = Rules.stripped(40, italian_straight_flush=True)
    minimum, medium, maximum = "AS 5S 6S 7S 8S", "9H 8H 7H 6H 5H", "AD KD QD JD TD"
    assert beats(minimum, maximum, rules)
    assert beats(maximum, medium, rules)
    assert beats(medium, minimum, rules)
    assert showdown([minimum, medium, maximum], rules) == [0, 1, 2]
    assert showdown([maximum, medium, "KS KD KH KC 9S"], rules) == [0]
    assert ITALIAN.lowest == 5


def test_greek_imperial_flush_beaten_only_by_lowest_four_of_a_kind() -> None:
    imperial = "AH KH QH JH TH"
    assert beats(imperial, "AS KS QS JS TS", GREEK)
    assert beats(imperial, "AS AD AC AH KS", GREEK)
    assert beats("6S 6D 6H 6C KS", imperial, GREEK)
    assert showdown([imperial, "6S 6D 6H 6C KS", "9S 8S 7S 6S TS"], GREEK) == [0, 1, 2]
    assert showdown([imperial, "6S 6D 6H 6C KS", "AS AD AC 7H KS"], GREEK) == [1]


# --- names -------------------------------------------------------------------

def test_names_as_players_say_them() -> None:
    names = {
        "KH KS KD QC QS": "Full house, Kings full of Queens",
        "AS AD 8C 8H 3S": "Two pair, Aces up",
        "JS JD 4C 4H 3S": "Two pair, Jacks and Fours",
        "5H 4D 3C 2S AH": "Straight, wheel",
        "AH KD QC JS TH": "Straight, Broadway",
        "AH KH QH JH TH": "Royal flush",
        "5H 4H 3H 2H AH": "Straight flush, Five-high (steel wheel)",
        "9S 9D 4H 3C 2S": "Pair of Nines",
        "6S 6D 6H 3C 2S": "Three of a kind, Sixes",
        "QS QD QH QC 2S": "Four of a kind, Queens",
        "AS JD 9H 5C 3S": "Ace-high",
        "KH JH 9H 3H 2H": "Flush, King-high",
    }
    for hand, name in names.items():
        assert rank_hand(hand).name == name, hand


# --- agreement of the general ranker with the fast path ------------------------

def test_general_ranker_agrees_with_fast_values_on_random_hands() -> None:
    rng = random.Random(3)
    for _ in range(300):
        a, b = rng.sample(range(52), 7), rng.sample(range(52), 7)
        ha, hb = rank_hand(a), rank_hand(b)
        assert ha.value == evaluate(a) and hb.value == evaluate(b)
        assert compare(ha, hb) == (evaluate(a) > evaluate(b)) - (evaluate(a) < evaluate(b))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True))
def test_hand_rank_value_matches_evaluate_and_cards_come_from_hand(cards: list[int]) -> None:
    h = rank_hand(cards)
    assert isinstance(h, HandRank)
    assert h.value == evaluate(cards)
    assert sorted(h.cards) == sorted(cards)


@given(st.lists(st.integers(0, 53), min_size=1, max_size=9, unique=True))  # two jokers
def test_parse_format_round_trip(cards: list[int]) -> None:
    assert parse_hand(format_hand(cards)) == tuple(cards)
