"""Card text in and out, masks and CardSet."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from big2 import CardSet, InvalidCardError, parse_card, parse_cards
from big2.cards import CARD_NAMES, CARD_SYMBOLS, cards_of, format_cards, mask_of, match_copies


def test_every_spelling_of_a_card() -> None:
    assert parse_card("3D") == parse_card("3d") == parse_card("3♦") == 0
    assert parse_card("TS") == parse_card("10S") == parse_card("10s") == parse_card("t♠")
    assert parse_card("2S") == 51 and parse_card("AS") == 47


def test_parse_cards_example_from_issue() -> None:
    cards = parse_cards("3D 3S 10H")
    assert isinstance(cards, int) and list(cards) == [0, 3, 30]
    assert str(cards) == "3♦ 3♠ 10♥" and cards.text() == "3D 3S TH"


@pytest.mark.parametrize("bad", ["1S", "3X", "11H", "S3", "", "X", "10", "♠"])
def test_bad_card_text_raises_named_error(bad: str) -> None:
    with pytest.raises(InvalidCardError) as err:
        parse_card(bad)
    assert isinstance(err.value, ValueError)
    assert repr(bad.strip()) in str(err.value)


def test_bad_token_is_named_in_a_list() -> None:
    with pytest.raises(InvalidCardError, match="'ZZ'"):
        parse_cards("3D 4D ZZ 5D")
    with pytest.raises(InvalidCardError, match="twice"):
        parse_cards("3D 3d")


@given(st.sets(st.integers(0, 51)))
def test_text_round_trip(cards: set[int]) -> None:
    mask = mask_of(cards)
    assert sorted(cards) == cards_of(mask)
    assert int(parse_cards(format_cards(mask))) == mask
    assert int(parse_cards(format_cards(mask, symbols=False))) == mask
    s = CardSet(mask)
    assert eval(repr(s), {"CardSet": CardSet}) == s
    assert len(s) == len(cards) and all(c in s for c in cards)


def test_names_tables() -> None:
    # 52 cards and two jokers per deck; the second deck repeats the names
    assert len(set(CARD_NAMES)) == 54 and len(set(CARD_SYMBOLS)) == 54
    for c in range(108):
        assert parse_card(CARD_NAMES[c]) == c % 54 == parse_card(CARD_SYMBOLS[c])


def test_cardset_rejects_out_of_range() -> None:
    with pytest.raises(InvalidCardError):
        CardSet(1 << 108)
    with pytest.raises(InvalidCardError):
        CardSet([108])
    with pytest.raises(InvalidCardError):
        CardSet(-1)


def test_two_deck_parsing_and_copies() -> None:
    with pytest.raises(InvalidCardError, match="given twice"):
        parse_cards("3D 3D")
    two = parse_cards("3D 3d", copies=2)
    assert list(two) == [0, 54]
    with pytest.raises(InvalidCardError, match="more than 2 times"):
        parse_cards("3D 3D 3D", copies=2)
    assert list(parse_cards("rj BJ")) == [52, 53]
    # a play names cards; the held copy is used
    assert match_copies(1 << 0, 1 << 54) == 1 << 54
    assert match_copies(1 | 1 << 54, 1 | 1 << 54) == 1 | 1 << 54
    assert match_copies(1 | 1 << 54, 1 << 54) is None
    assert match_copies(1 << 1, 1 << 54) is None
