"""Rule options (more wild cards win, the 20-card game), card numbering, odds order, CLI."""

from __future__ import annotations

from itertools import pairwise

import pytest
from click.testing import CliRunner

from big2.poker import (
    TWENTY_CARD,
    Category,
    InvalidCardError,
    Rules,
    compare,
    is_joker,
    parse_hand,
    rank_hand,
)
from big2.poker.cli import poker
from big2.poker.odds import CATEGORIES, category_counts


def test_wild_tiebreak_more_wild_cards_win() -> None:
    natural, wild = "AS AH AD KC KS", "AS AH JK KC KS"
    assert compare(natural, wild) == 0
    assert compare(natural, wild, Rules(wild_tiebreak="more")) == -1
    assert compare(natural, wild, Rules(wild_tiebreak="fewer")) == 1
    assert compare(natural, wild, Rules(wild_tiebreak="natural")) == 1
    two = rank_hand("AS JK JK KC KS", Rules(wild_tiebreak="more"))
    one = rank_hand("AS AH JK KC KS", Rules(wild_tiebreak="more"))
    assert two > one and two.wilds == 2


def test_twenty_card_game_has_no_straights_or_flushes() -> None:
    assert rank_hand("AS KS QS JS TS", TWENTY_CARD).name == "Ace-high"
    assert rank_hand("AS KS QS JS TS").name == "Royal flush"
    assert rank_hand("AS KH QD JC TS", Rules.stripped(20)).category == Category.STRAIGHT
    assert compare("TS TH TD JC JD", "AS AH KS KH QD", TWENTY_CARD) == 1
    assert compare("AS KS QS JS 9S", "TS TH JC QD KD", TWENTY_CARD) == -1
    assert "no straights or flushes" in TWENTY_CARD.describe()


def test_second_deck_numbers_are_refused_and_jokers_keep_the_engines_numbers() -> None:
    with pytest.raises(InvalidCardError, match="copy of AS from another deck"):
        rank_hand([47, 47 + 54, 43, 39, 35])
    assert parse_hand("JK JK JK") == (52, 53, 106)
    assert [is_joker(c) for c in (52, 53, 54, 105, 106, 107, 108)] == [
        True, True, False, False, True, True, False]
    assert rank_hand([47, 106, 107, 43, 39]).name == "Royal flush"
    assert rank_hand(parse_hand("AS AS KS QS JS", allow_duplicates=True)
                     ).category == Category.FLUSH


BEST = {
    "Five of a kind, flush": "AS AS AS AS AS", "Five of a kind": "AS AS AS AS AH",
    "Straight flush": "AS KS QS JS TS", "Four of a kind, flush": "AS AS AS AS KS",
    "Four of a kind": "AS AH AD AC KS", "Full house, flush": "AS AS AS KS KS",
    "Full house": "AS AH AD KS KH", "Three of a kind, flush": "AS AS AS KS QS",
    "Two pair, flush": "AS AS KS KS QS", "Pair, flush": "AS AS KS QS JS",
    "Flush": "AS KS QS JS 9S", "Straight": "AS KH QD JC TS",
    "Three of a kind": "AS AH AD KS QH", "Two pair": "AS AH KS KH QD",
    "Pair": "AS AH KS QH JD", "High card": "AS KH QD JC 9S",
}


def test_odds_table_is_ordered_like_rank_hand() -> None:
    assert list(BEST) == list(CATEGORIES)
    ranked = [rank_hand(parse_hand(BEST[c], allow_duplicates=True)) for c in CATEGORIES]
    assert all(a >= b for a, b in pairwise(ranked))
    flushes = ranked[CATEGORIES.index("Three of a kind, flush"):CATEGORIES.index("Flush") + 1]
    assert all(a > b for a, b in pairwise(flushes))
    assert sum(category_counts(3).values()) > 0


def run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(poker, list(args))
    assert result.exit_code == code, result.output
    return result.output


@pytest.mark.parametrize(("args", "message"), [
    (["rank", "AS KS QS JS TS 9S 8S 7S 6S 5S"], "HAND: 10 cards; a hand has 1 to 9"),
    (["rank", "JK JK JK JK JK JK"], "HAND: 6 jokers; one deck has 2"),
    (["rank", "AS <b>evil</b>"], "HAND: card 2 is not a card"),
    (["rank", "AS AS"], "HAND: a card is given twice"),
    (["rank", ""], "HAND: no cards"),
    (["compare", "AS AH", "KS zz-top"], "SECOND: card 2 is not a card"),
    (["rank", "AS 2H 3D 4C 5S", "--game", "badugi"], "HAND: 5 cards; a hand has 1 to 4"),
    (["equity", "AS AH", "KS KH", "--board", "2C 7D KH"], "hand 2 shares a card"),
    (["equity", "AS AH", "<QQ+>"], "hand 2: range item 1"),
    (["equity", "AS AH", "KS KH", "--exact", "--trials", "5"], "exclude each other"),
    (["rank", "KH", "--wild", "purple<x>"], "unknown wild card kind"),
])
def test_cli_errors_are_one_line_and_do_not_echo(args: list[str], message: str) -> None:
    out = run(*args, code=2)
    assert out.count("\n") == 1 and out.startswith("Error: ") and message in out
    assert "Traceback" not in out
    for bad in ("evil", "zz", "<", "purple"):
        assert bad not in out


def test_cli_rank_and_compare_options() -> None:
    assert run("rank", "AS KS QS JS TS", "--no-straights", "--deck", "20").startswith("Ace-high")
    assert run("compare", "AS AH AD KC KS", "AS AH JK KC KS", "--wild-tiebreak",
               "more").startswith("Second wins")
    assert run("rank", "8S 5H 3D 2C", "--game", "badugi").startswith("4-card badugi, 8-5-3-2")
    assert run("compare", "8S 5H 3D 2C", "KS 4H 3D AD", "--game", "badugi").startswith(
        "First wins")
    assert run("rank", "JK JK AS KS QS").startswith("Royal flush")


def test_cli_equity() -> None:
    out = run("equity", "AS AH", "KS KH", "--board", "2C 7D 9H")
    assert "exact, 990 deals" in out and "91.62%" in out
    out = run("equity", "QQ+", "AKs", "--trials", "20000", "--seed", "1")
    assert "Monte Carlo, 20,000 deals" in out and "±" in out
    out = run("equity", "AS 2H 3D KC", "JS TS 9H 8H", "--board", "4S 5S KH", "--game", "omaha8")
    assert "omaha8, exact" in out


def test_cli_equity_progress_bar_on_long_runs() -> None:
    result = CliRunner().invoke(poker, ["equity", "AC AD", "KH KS", "--progress"])
    assert result.exit_code == 0
    assert "deal" in result.output and "1.71M" in result.output  # tqdm's bar (on stderr)
    quiet = CliRunner().invoke(poker, ["equity", "AC AD", "KH KS", "--no-progress"])
    assert "1.71M" not in quiet.output and "81.26%" in quiet.output
