"""Hand-category counts for 1-8 decks (more in test_poker_outs_icm.py), and the ``poker`` command group."""

from __future__ import annotations

from math import comb

import pytest
from click.testing import CliRunner

from big2.poker import category_counts, probabilities
from big2.poker.cli import poker


def test_one_deck_counts_are_the_standard_ones() -> None:
    counts = category_counts(1)
    assert {k: v for k, v in counts.items() if v} == {
        "Straight flush": 40, "Four of a kind": 624, "Full house": 3744, "Flush": 5108,
        "Straight": 10200, "Three of a kind": 54912, "Two pair": 123552, "Pair": 1098240,
        "High card": 1302540,
    }


@pytest.mark.parametrize("d", range(1, 9))
def test_several_decks_add_up_and_match_closed_forms(d: int) -> None:
    counts = category_counts(d)
    assert sum(counts.values()) == comb(52 * d, 5)
    assert counts["Five of a kind, flush"] == 52 * comb(d, 5)
    assert counts["Five of a kind"] == 13 * comb(4 * d, 5) - 52 * comb(d, 5)
    assert counts["Straight flush"] == 40 * d ** 5
    assert counts["Straight"] == 10 * (4 * d) ** 5 - 40 * d ** 5
    assert counts["Flush"] == 4 * (comb(13, 5) - 10) * d ** 5
    assert counts["Pair, flush"] == 4 * 13 * comb(12, 3) * comb(d, 2) * d ** 3
    assert sum(probabilities(d).values()) == 1


def test_flush_pairs_need_two_decks_and_flush_fours_need_four() -> None:
    assert category_counts(1)["Pair, flush"] == 0
    assert category_counts(2)["Pair, flush"] > 0
    assert category_counts(3)["Four of a kind, flush"] == 0
    assert category_counts(4)["Four of a kind, flush"] > 0


def run(*args: str) -> str:
    result = CliRunner().invoke(poker, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_rank() -> None:
    out = run("rank", "KH KS KD QC QS")
    assert out.splitlines()[0] == "Full house, Kings full of Queens"
    assert "value:    7283 of 7462" in out  # class 180 of Cactus Kev's order, counted down


def test_cli_rank_low_and_wild() -> None:
    assert run("rank", "8S 6D 5C 4H 2S", "--low", "a5").startswith("8-low")
    out = run("rank", "2S 5H 7D 9C JK", "--wild", "deuces")
    assert out.startswith("Straight, Nine-high") and "plays as: 9 8 7 6 5" in out


def test_cli_compare() -> None:
    assert run("compare", "AS AD 8C 8H 3S", "KS KD QC QH 2S").startswith("First wins")
    assert run("compare", "6S 5D 4H 2C JK", "7S 5D 4H 3C 2D", "--low", "27").startswith(
        "Second wins")
    assert run("compare", "6S 5D 4H 3C 2D", "7S 4D 3H 2C AD", "--low", "a5").startswith(
        "First wins")
    assert run("compare", "KS KD 2H 7C 4S", "KC KH KD 7S 4H", "--wild", "deuces").startswith(
        "Tie")


def test_cli_odds_table() -> None:
    out = run("odds")
    assert "2,598,960" in out and "1,302,540" in out and "Five of a kind" not in out
    out2 = run("odds", "--decks", "2")
    assert "Five of a kind" in out2 and "728" in out2


def test_cli_errors_are_usage_errors() -> None:
    result = CliRunner().invoke(poker, ["rank", "KH XX"])
    assert result.exit_code == 2 and "not a card" in result.output
    result = CliRunner().invoke(poker, ["rank", "KH", "--wild", "purple"])
    assert result.exit_code == 2 and "unknown wild" in result.output
