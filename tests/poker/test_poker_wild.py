"""Wild cards: jokers, deuces, one-eyed jacks, lowest card, the bug, fitters, house rules."""

from __future__ import annotations

from big2.poker import (
    ACE_TO_FIVE,
    DEUCE_TO_SEVEN,
    DEUCES_WILD,
    STANDARD,
    Category,
    Rules,
    compare,
    rank_hand,
)


def test_joker_cannot_make_a_double_ace_flush() -> None:
    h = rank_hand("AH 9H 8H 5H JK")
    assert h.category == Category.FLUSH and h.played_as == (12, 11, 7, 6, 3)
    assert compare("AH 9H 8H 5H JK", "AS KS TS 4S 3S") == -1


def test_double_ace_flush_house_rule() -> None:
    rules = Rules(double_ace_flush=True)
    h = rank_hand("AH 9H 8H 5H JK", rules)
    assert h.category == Category.FLUSH and h.played_as == (12, 12, 7, 6, 3)
    assert compare("AH 9H 8H 5H JK", "AS KS TS 4S 3S", rules) == 1


def test_five_of_a_kind_beats_royal_flush_and_ranks_by_rank() -> None:
    five = rank_hand("9S 9D 9H 9C JK")
    assert five.name == "Five of a kind, Nines"
    assert five > rank_hand("AS KS QS JS TS")
    assert rank_hand("TS TD TH TC JK") > five


def test_deuces_wild() -> None:
    h = rank_hand("KS KD 2H 2C 7S", DEUCES_WILD)
    assert h.name == "Four of a kind, Kings" and h.wilds == 2
    assert rank_hand("KS KD 2H 2C 7S").name == "Two pair, Kings and Twos"


def test_one_eyed_jacks_are_the_jacks_of_hearts_and_spades() -> None:
    rules = Rules(wild=("one-eyed-jacks",))
    assert rank_hand("QS QD JH 4C 7S", rules).name == "Three of a kind, Queens"
    assert rank_hand("QS QD JD 4C 7S", rules).name == "Pair of Queens"
    assert rank_hand("QS QD JS 4C 7S", rules).name == "Three of a kind, Queens"


def test_lowest_card_wild_counts_aces_high() -> None:
    rules = Rules(wild=("lowest",))
    assert rank_hand("AS AD 9H 4C KS", rules).name == "Three of a kind, Aces"
    # the ace cannot count low to be the wild card: the nine is lowest here
    h = rank_hand("AS KD QH JC 9S", rules)
    assert h.name == "Straight, Broadway" and h.wilds == 1


def test_bug_is_an_ace_or_fills_straights_and_flushes() -> None:
    bug = Rules(bug=True)
    assert rank_hand("AS AD AH AC JK", bug).name == "Five of a kind, Aces"
    quads = rank_hand("6S 6D 6H 6C JK", bug)
    assert quads.name == "Four of a kind, Sixes" and quads.kickers == (12,)
    assert rank_hand("9S 8S 7S 6S 5S", bug) > quads
    two_pair = rank_hand("8S 8D 5H 5C JK", bug)
    assert two_pair.name == "Two pair, Eights and Fives" and two_pair.kickers == (12,)
    assert rank_hand("9S TD JH QC JK", bug).name == "Straight, King-high"
    assert rank_hand("KH QH 9H 5H JK", bug).name == "Flush, Ace-high"
    assert rank_hand("AH QH 9H 5H JK", bug).played_as == (12, 11, 10, 7, 3)


def test_wild_card_in_low_poker_is_a_fitter() -> None:
    # The seeds call 6-5-4-2-joker "a pair of sixes in normal poker", but the
    # joker as a three makes a six-high straight, which is better.
    assert rank_hand("6S 5D 4H 2C JK").name == "Straight, Six-high"
    assert rank_hand("6S 5D 4H 2C JK").name != "Pair of Sixes"
    a5 = rank_hand("6S 5D 4H 2C JK", ACE_TO_FIVE)
    assert a5.name == "6-low" and sorted(a5.played_as) == [0, 2, 3, 4, 12]
    d27 = rank_hand("6S 5D 4H 2C JK", DEUCE_TO_SEVEN)
    assert d27.name == "7-low" and sorted(d27.played_as) == [0, 2, 3, 4, 5]


def test_natural_beats_wild_house_rule() -> None:
    natural, wild = "KS KD KH 7C 4S", "KC KD JK 7S 4H"
    assert compare(natural, wild) == 0
    assert compare(natural, wild, Rules(wild_tiebreak="natural")) == 1
    fewer = Rules(wild=("2",), wild_tiebreak="fewer")
    assert compare("KS KD 2H 7C 4S", "KC 2D JK 7S 4H", fewer) == 1


def test_several_wild_cards_best_hand() -> None:
    assert rank_hand("4S 3S 2D JK JK").name == "Straight, Six-high"
    assert rank_hand("JK JK JK JK JK").name == "Five of a kind, Aces"
    assert rank_hand("TS JK JK QS KS").name == "Royal flush"


def test_wild_cards_in_seven_cards() -> None:
    h = rank_hand("AS KS 2D 7C 9H 2C QS", DEUCES_WILD)
    assert h.name == "Royal flush" and h.wilds == 2
    assert STANDARD.wild_cards((52, 3)) == (52,)
