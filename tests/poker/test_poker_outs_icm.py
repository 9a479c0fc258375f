"""Outs on hand-worked boards, ICM against hand-computed cases, and their commands."""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner

from big2.cards import CARD_SYMBOLS
from big2.poker.cards import parse_hand
from big2.poker.cli import poker
from big2.poker.icm import IcmError, icm
from big2.poker.outs import OutsError, outs
from big2.poker.tables import Category


def cards(text: str) -> set[int]:
    return set(parse_hand(text))


def test_flush_draw_with_two_overcards_has_fifteen_outs() -> None:
    o = outs("AH KH", board="QH 7H 2C")
    assert o.current == Category.HIGH_CARD and o.unseen == 47 and o.count == 15
    assert list(o.by_category) == [Category.FLUSH, Category.PAIR]
    assert set(o.by_category[Category.FLUSH]) == cards("2H 3H 4H 5H 6H 8H 9H TH JH")
    assert set(o.by_category[Category.PAIR]) == cards("AS AD AC KS KD KC")


def test_open_ended_straight_draw() -> None:
    o = outs("9S 8D", board="7C 6H 2S")
    assert set(o.by_category[Category.STRAIGHT]) == cards("5S 5H 5D 5C TS TH TD TC")
    assert set(o.by_category[Category.PAIR]) == cards("9H 9D 9C 8S 8H 8C")
    assert o.count == 14


def test_a_set_improves_to_a_full_house_or_quads() -> None:
    o = outs("7S 7D", board="7C KH 2S")
    assert o.current == Category.THREE_OF_A_KIND
    assert o.by_category == {Category.FOUR_OF_A_KIND: (parse_hand("7H")[0],),
                             Category.FULL_HOUSE: tuple(sorted(
                                 cards("2D 2C 2H KD KC KS"),
                                 key=lambda c: (c >> 2 != 12, c)))}


def test_cards_that_help_the_board_as_much_are_not_outs() -> None:
    # a third seven makes trips on the board for everyone; a queen makes the board's two pair
    o = outs("AS KD", board="QC 7H 7D")
    assert o.current == Category.PAIR
    assert o.by_category == {Category.TWO_PAIR: tuple(sorted(
        cards("KS KH KC AD AC AH"), key=lambda c: ((c >> 2) % 13, c & 3)))}
    # and on the turn too, where four to a flush on the board with one more is the board's
    o = outs("AS KD", board="2H 5H 9H JH")
    assert Category.FLUSH not in o.by_category


def test_dead_cards_and_stud_hands() -> None:
    assert outs("AH KH", board="QH 7H 2C", dead="3H 4H").count == 13
    o = outs("AS AD KC KH 7S 2D")            # stud, sixth street: no board
    assert o.by_category[Category.FULL_HOUSE] and o.unseen == 46
    assert o.count == 4


def test_outs_text_lists_cards_by_class() -> None:
    text = outs("AH KH", board="QH 7H 2C").text()
    assert text.splitlines()[1] == ("Flush: 9 cards (" + " ".join(
        CARD_SYMBOLS[c] for c in parse_hand("2H 3H 4H 5H 6H 8H 9H TH JH")) + ")")
    assert "Ace-high now, 15 outs of 47 unseen cards" in text


@pytest.mark.parametrize(("hand", "board", "dead", "message"), [
    ("", "", "", "no cards"),
    ("AH", "", "", "outs need 2 to 8"),
    ("AH KH", "QH JH TH 9C 8C 7C 6C", "", "9 cards"),
    ("AH KH", "AH 7H 2C", "", "given twice"),
    ("AH JK", "7H 2C 3C", "", "without jokers"),
    ("AH <ZZ>", "", "", "hand: not a card"),
])
def test_outs_errors(hand: str, board: str, dead: str, message: str) -> None:
    with pytest.raises(OutsError, match=message) as info:
        outs(hand, board=board, dead=dead)
    assert "ZZ" not in str(info.value)


def test_icm_two_players_is_chip_share_of_the_difference() -> None:
    # first takes P1 with chance a/(a+b), else P2
    a, b, p1, p2 = 7000, 3000, 65.0, 35.0
    assert icm([a, b], [p1, p2]) == pytest.approx(
        [a / (a + b) * p1 + b / (a + b) * p2, b / (a + b) * p1 + a / (a + b) * p2])


def hand_icm3(s: list[int], p: list[int]) -> list[Fraction]:
    """Three players by the textbook formula, written out place by place."""
    t = sum(s)
    out = []
    for i in range(3):
        j, k = [x for x in range(3) if x != i]
        first = Fraction(s[i], t)
        second = (Fraction(s[j], t) * Fraction(s[i], t - s[j])
                  + Fraction(s[k], t) * Fraction(s[i], t - s[k]))
        third = 1 - first - second
        out.append(first * p[0] + second * p[1] + third * (p[2] if len(p) > 2 else 0))
    return out


@pytest.mark.parametrize(("stacks", "payouts"), [
    ([5000, 3000, 2000], [50, 30, 20]),
    ([1000, 1000, 8000], [60, 40]),
    ([1, 2, 3], [5, 3, 2]),
])
def test_icm_three_players_matches_the_formula(stacks: list[int], payouts: list[int]) -> None:
    assert icm(stacks, payouts) == pytest.approx([float(x) for x in hand_icm3(stacks, payouts)])


def test_icm_textbook_values_and_invariants() -> None:
    # the usual example: 50/30/20 % of the chips, paying 50/30/20 %
    assert [round(x, 2) for x in icm([5000, 3000, 2000], [50, 30, 20])] == [38.39, 32.75, 28.86]
    six = icm([10, 20, 30, 15, 25, 40], [40, 25, 15, 10])
    assert sum(six) == pytest.approx(90)
    assert six[5] == max(six) and six[0] == min(six)
    assert icm([100, 100, 100, 100], [4, 3, 2, 1]) == pytest.approx([2.5] * 4)
    assert icm([100, 0, 0], [50, 30, 20]) == [50.0, 25.0, 25.0]   # the busted share 2nd and 3rd


@pytest.mark.parametrize(("stacks", "payouts", "message"), [
    ([100, -1], [1], "stack 2 is negative"),
    ([100, 50], [3, 2, 1], "3 payouts for 2 players"),
    ([100], [-1], "payout 1 is negative"),
    ([0, 0], [1], "no chips"),
    ([], [], "no players"),
    ([float("nan"), 1], [1], "not finite"),
    ([1] * 40, [1] * 20, "pay fewer places"),
])
def test_icm_errors(stacks: list[float], payouts: list[float], message: str) -> None:
    with pytest.raises(IcmError, match=message):
        icm(stacks, payouts)


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(poker, list(args))
    return result.exit_code, result.output


def test_cli_outs_and_icm() -> None:
    code, out = invoke("outs", "AH KH", "--board", "QH 7H 2C")
    assert code == 0 and "Flush: 9 cards (2♥ 3♥" in out and "Pair: 6 cards" in out
    code, out = invoke("icm", "5000", "3000", "2000", "--payouts", "50", "30", "20")
    assert code == 0 and "38.39" in out and "32.75" in out and "28.86" in out
    assert invoke("icm", "5000,3000,2000", "--payouts=50,30,20")[1] == out


@pytest.mark.parametrize(("args", "message"), [
    (["icm", "100", "-5", "--payouts", "1"], "stack 2 is negative"),
    (["icm", "100", "50", "--payouts", "3", "2", "1"], "3 payouts for 2 players"),
    (["icm", "100", "50"], "give the payouts"),
    (["icm", "100", "x<b>", "--payouts", "1"], "STACKS: item 2 is not a number"),
    (["icm", "100", "50", "--payouts", "1", "--payouts", "2"], "given twice"),
    (["outs", "AH", "--board", "AH 2C"], "given twice"),
    (["outs", "AH ZZ", "--board", "2C 3C 4C"], "HAND: card 2 is not a card"),
    (["odds", "--decks", "1000001"], "1 to 1,000,000 decks"),
])
def test_cli_errors_are_one_line(args: list[str], message: str) -> None:
    code, out = invoke(*args)
    assert code == 2 and message in out and "ZZ" not in out and "<b>" not in out


@pytest.mark.parametrize("d", [9, 52, 1000, 1_000_000])
def test_odds_beyond_eight_decks(d: int) -> None:
    from math import comb

    from big2.poker import category_counts

    counts = category_counts(d)
    assert sum(counts.values()) == comb(52 * d, 5)
    assert counts["Five of a kind, flush"] == 52 * comb(d, 5)
    assert counts["Straight flush"] == 40 * d ** 5
    code, out = invoke("odds", "--decks", str(d))
    assert code == 0 and f"{comb(52 * d, 5):,}" in out
