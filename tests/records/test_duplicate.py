"""``big2 replay FILE --duplicate`` (issue 52, item 8): a saved deal dealt again with
the expert in your seat and the other seats' bots and seeds as saved; its score
beside yours, and your decisions where the expert chooses otherwise, checked by
asking the expert again position by position."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from big2.bots import STRONGEST_LEVEL, make_bot
from big2.cli import main
from big2.duplicate import BOTS_TAG, bots_tag, duplicate, parse_bots
from big2.records import load


@pytest.fixture(scope="module")
def match_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``big2 play --seed 3 --deals 2 --save match.txt`` through a pipe."""
    path = tmp_path_factory.mktemp("duplicate") / "match.txt"
    res = subprocess.run([sys.executable, "-m", "big2.cli", "play", "--seed", "3", "--deals",
                          "2", "--save", str(path)], input="1\n" * 2000, capture_output=True,
                         text=True, timeout=300, check=False)
    assert res.returncode == 0, res.stderr
    return path


def test_the_saved_deal_names_its_bots(match_file: Path) -> None:
    record = load(match_file)[0]
    assert record.tags[BOTS_TAG] == "-,medium@31,medium@32,medium@33"
    assert parse_bots(record.tags[BOTS_TAG], 4) == [None, ("medium", 31), ("medium", 32),
                                                    ("medium", 33)]


def test_a_duplicate_deals_the_same_cards_and_marks_where_the_expert_differs(
        match_file: Path) -> None:
    record = load(match_file)[1]
    d = duplicate(record, 0, budget=60, seed=5)
    assert d.record.hands == record.hands and d.record.dealer == record.dealer
    assert d.original == record.scores[0] and d.replayed == d.record.scores[0]
    # the other seats are the saved bots with their seeds: replaying the expert's deal
    # with fresh copies of them and the expert's own plays gives the same deal again
    bots = {s: make_bot("medium", seed=30 + s) for s in (1, 2, 3)}
    g = record.to_game(ply=0)
    for action in d.record.actions:
        if action.seat != 0:
            assert bots[action.seat].choose(g.view(action.seat)) == action.cards
        g.play(action.cards)
    assert g.is_over() and g.scores() == d.record.scores
    # the marks: at each of your decisions with a choice, a fresh expert of the same seed
    # asked in your position; a mark exactly where its play is not yours
    expert = make_bot(STRONGEST_LEVEL, seed=5, budget=60)
    marked = {x.ply: x for x in d.differences}
    decisions = 0
    for i, action in enumerate(record.actions):
        view = record.view(0, i)
        if action.seat != 0 or len(view.legal) < 2:
            continue
        decisions += 1
        choice = expert.choose(view)
        assert (i + 1 in marked) == (choice != action.cards)
        if i + 1 in marked:
            assert marked[i + 1].expert == choice and marked[i + 1].made == action.cards
    assert decisions == d.decisions > 0


def test_the_command(match_file: Path) -> None:
    res = CliRunner().invoke(main, ["replay", str(match_file), "--deal", "1", "--duplicate",
                                    "--budget", "40"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == "=== Duplicate of deal 1 · S0 You ==="
    assert any(line.startswith("Score: you ") and f"· {STRONGEST_LEVEL} " in line
               for line in lines)
    assert any("chooses otherwise (same position)" in line for line in lines)
    assert all(len(line) <= 80 for line in lines), [x for x in lines if len(x) > 80]
    res = CliRunner().invoke(main, ["replay", str(match_file), "--duplicate", "--review"])
    assert res.exit_code == 2 and "one of --review and --duplicate" in res.output


def test_bad_tags_are_refused() -> None:
    with pytest.raises(ValueError, match="names 5 seats"):
        parse_bots("-,a,b,c,d", 4)
    with pytest.raises(ValueError, match="whole number"):
        parse_bots("-,medium@x", 4)
    with pytest.raises(ValueError, match="comma"):
        bots_tag(["-", "a,b"])
    assert parse_bots("", 3) == [None, None, None]
