"""``big2 replay FILE --review`` (issue 27, item 1): a saved deal's decisions
judged by the strongest bot's search, marks above the stated thresholds, a sentence
of why from facts of the plays, and the time it takes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from big2 import Game, Rules
from big2.bots import STRONGEST_LEVEL
from big2.bots.rules_based.reasons import why_better, why_play
from big2.cards import parse_cards
from big2.cli import main
from big2.records import load
from big2.review import INACCURACY, MISTAKE, REVIEW_BUDGET, Decision, judge_label, review


def cards(text: str) -> int:
    return int(parse_cards(text))


@pytest.fixture(scope="module")
def match_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``big2 play --seed 1 --save match.txt`` through a pipe, as docs/records.md has it."""
    path = tmp_path_factory.mktemp("review") / "match.txt"
    res = subprocess.run([sys.executable, "-m", "big2.cli", "play", "--seed", "1", "--save",
                          str(path)], input="1\n" * 3000, capture_output=True, text=True,
                         timeout=300, check=False)
    assert res.returncode == 0, res.stderr
    return path


def test_the_review_of_a_saved_deal(match_file: Path) -> None:
    res = CliRunner().invoke(main, ["replay", str(match_file), "--deal", "2", "--review",
                                    "--seat", "2"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == "=== Review of deal 2 · S2 Bot 2 (medium: heuristic) ==="
    assert lines[1] == f"Judged by {judge_label()} a decision."  # the strongest bot, named
    assert judge_label().startswith(f"{STRONGEST_LEVEL}: ")
    assert f"{REVIEW_BUDGET} play-outs" in lines[1]
    assert "inaccuracy 3 to 8 points below" in lines[3]
    decisions = [ln for ln in lines if re.match(r"\s+\d+\. (plays|passes)", ln)]
    record = load(str(match_file))[1]
    mine = [i for i, a in enumerate(record.actions) if a.seat == 2]
    assert 0 < len(decisions) <= len(mine)
    assert re.fullmatch(r"S2 Bot 2 \(medium: heuristic\): \d+ decisions reviewed: \d+ "
                        r"inaccurac(y|ies), \d+ mistakes?\.", lines[-2])
    assert re.fullmatch(r"\d+ with one legal play left out; [\d.]+ s\.", lines[-1])
    for ln in lines:  # a loss is signed as the page signs it: negative
        m = re.search(r"(inaccuracy|mistake) \(([+-])\d", ln)
        assert m is None or m.group(2) == "-", ln
    assert all(len(ln) <= 80 for ln in lines)
    for i, ln in enumerate(lines):  # a play not the best is followed by the best found
        if re.match(r"\s+\d+\. ", ln) and not ln.endswith("best"):
            assert lines[i + 1].lstrip().startswith("best found: ")


def test_the_fullest_13_card_deal_is_reviewed(match_file: Path) -> None:
    records = load(str(match_file))
    # the seat and deal with the most decisions to judge
    _, deal, seat = max((sum(1 for i, a in enumerate(r.actions) if a.seat == s
                             and len(r.view(s, i).legal) > 1), d, s)
                        for d, r in enumerate(records) for s in range(4))
    out = review(records[deal], seat)
    assert out  # its time: benchmarks/bench_review.py


def test_marks_follow_the_thresholds() -> None:
    def mark(gap: float, same: bool = False) -> str | None:
        return Decision(1, 0, 1, -gap, 1 if same else 2, 0.0, 3).mark

    assert (INACCURACY, MISTAKE) == (3.0, 8.0)
    assert mark(2.9) is None and mark(3.0) == "inaccuracy" and mark(7.9) == "inaccuracy"
    assert mark(8.0) == "mistake" and mark(20, same=True) is None
    assert Decision(1, 0, 1, 5.0, 2, 4.0, 3).loss == 0  # the play made measured higher


def test_why_is_read_off_the_two_plays() -> None:
    h = Game(Rules(), hands=["3D 7C 7S 8S 2S", "4D 9D JD", "5D 9H", "6D 9S TD"], leader=0)
    h.play(cards("3D"))
    h.play(cards("4D"))
    h.play(cards("5D"))
    h.play(cards("6D"))
    view = h.view(0)
    assert why_better(view, cards("8S"), cards("7S")) == "breaks a pair of 7s"
    assert str(why_better(view, cards("8S"), cards("2S"))).startswith("spends the 2♠")
    assert why_better(view, cards("2S"), 0) == "passes with a winning play in hand (single 2♠)"
    assert why_play(view, 0) == "keeps the 2♠ for control"
    assert why_better(view, cards("8S"), cards("8S")) is None


def test_review_errors_are_one_line(match_file: Path, tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["replay", str(match_file), "--budget", "10"])
    assert res.exit_code == 2 and "--budget goes with --review" in res.output
    res = CliRunner().invoke(main, ["replay", str(match_file), "--review", "--seat", "4"])
    assert res.exit_code == 2 and "seats are 0..3" in res.output
    wild = tmp_path / "wild.txt"
    r = subprocess.run([sys.executable, "-m", "big2.cli", "play", "--seed", "2", "--deals", "1",
                        "--set", "jokers=wild", "--bot", "easy", "--save", str(wild)],
                       input="1\np\n" * 400, capture_output=True, text=True, timeout=120,
                       check=False)
    assert r.returncode == 0, r.stderr
    res = CliRunner().invoke(main, ["replay", str(wild), "--review"])
    assert res.exit_code == 1 and "52-card deck" in res.output and "Traceback" not in res.output
