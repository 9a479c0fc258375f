"""Big Two puzzles (issues 41, 52): checking a try, the hint and the reason, the
puzzle of the day over many dates, a puzzle file, and ``big2 puzzle`` through a
pipe with its streak (the shipped set itself: test_puzzle_set.py)."""

from __future__ import annotations

import datetime as dt
import io
import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from big2.cards import parse_cards
from big2.cli import main
from big2.puzzles import daily, from_dict, load
from big2.puzzles.cli import solve
from big2.puzzles.mine import save


def _n(mask: int) -> str:
    from big2.puzzles import names

    return names(mask)


def test_checking_a_try_and_the_words() -> None:
    p = load()[0]
    right = p.check(p.answer)
    assert right.correct and right.reason.endswith("you go out first")
    wrong = p.check(p.natural)
    assert not wrong.correct and wrong.reason.startswith("it loses: ")
    assert "goes out first" in wrong.reason
    others = [m for m in p.game().legal_masks() if m not in (p.answer, p.natural)]
    if others:
        assert not p.check(others[0]).correct
    illegal = int(parse_cards(p.hands[(p.seat + 1) % 4].split()[0]))
    assert p.check(illegal) == p.check(illegal) and not p.check(illegal).correct
    assert p.hint().startswith("the answer is a ") and "whatever the others do" in p.hint()


def test_the_puzzle_of_the_day_is_everyones_and_changes() -> None:
    # over four years of dates, not only today's: every pick is a puzzle of the set that
    # opens (its position replays), the same for everyone, and never the same two days running
    start = dt.date(2025, 1, 1)
    days = [start + dt.timedelta(days=k) for k in range(4 * 366)]
    picks = [daily(d) for d in days]
    assert [p.id for p in picks] == [daily(d).id for d in days]  # the same for everyone
    ids = {p.id for p in load()}
    assert all(p.id in ids for p in picks)
    assert all(a.id != b.id for a, b in itertools.pairwise(picks))
    assert len({p.id for p in picks}) == min(len(ids), len(days))  # it goes through the set
    for p in {p.id: p for p in picks[:60]}.values():
        g = p.game()
        assert g.to_move == p.seat and p.answer in g.legal_masks()


def test_a_file_round_trips_and_bad_data_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "some.json"
    save(load()[:3], path)
    assert load(str(path)) == load()[:3]
    bad = json.loads(path.read_text())
    bad["puzzles"][0]["band"] = "impossible"
    with pytest.raises(ValueError, match="band must be one of easy, medium, hard"):
        from_dict(bad["puzzles"][0])
    path.write_text('{"format": "x"}')
    with pytest.raises(ValueError, match="not a puzzle file"):
        load(str(path))


def test_solving_through_a_pipe_keeps_a_streak() -> None:
    first, second, third = load()[:3]
    g = first.game()
    number = list(g.legal_masks()).index(first.answer) + 1
    typed = f"h\n{number}\n{_n(second.natural) or 'p'}\n{_n(second.answer) or 'p'}\na\nq\n"
    out = io.StringIO()
    solved = solve([first, second, third], io.StringIO(typed), out)
    text = out.getvalue()
    assert solved == 2
    assert "Hint: the answer is a" in text
    assert "Correct! You play" in text and "Streak: 1." in text
    assert "Not this one: it loses: " in text and "Streak: 0." in text
    assert text.count("Correct!") == 2 and "Answer: " in text and "Why: you p" in text
    assert text.rstrip().endswith("No more puzzles. Solved 2; streak 0.")  # "q" unread


def test_the_command() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["puzzle", "--id", "1"], input="a\n")
    assert res.exit_code == 0 and "=== Puzzle 1 · " in res.output and "Answer: " in res.output
    res = runner.invoke(main, ["puzzle", "--band", "hard", "--shuffle", "3"], input="q\n")
    assert res.exit_code == 0 and " · hard · streak 0 ===" in res.output
    before = daily().id
    res = runner.invoke(main, ["puzzle", "--daily"], input="q\n")
    assert any(f"=== Puzzle {n} · " in res.output for n in (before, daily().id))  # midnight
    res = runner.invoke(main, ["puzzle", "--id", "99999"])
    assert res.exit_code == 2 and "numbered 1 to" in res.output
    res = runner.invoke(main, ["puzzle", "--preset", "nowhere"])
    assert res.exit_code == 2 and "classic" in res.output
    res = runner.invoke(main, ["puzzle", "--id", "2"], input="h\na\n")
    for line in res.output.splitlines():  # 80 columns (the prompt shares a line in a pipe)
        assert len(line.split("q quit]: ")[-1]) <= 80 and "Traceback" not in line, line
