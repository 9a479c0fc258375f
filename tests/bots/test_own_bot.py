"""docs/bots.md's "Write your own bot" (issue 54): its code block runs as
written, and both of its bots take seats as ``MODULE:FACTORY`` in the arena
and in ``big2 arena``."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from big2.arena import SeatError, check_seat, load_factory, parse_seat, run_arena
from big2.bots import Bot
from big2.commands.arena import arena_command
from big2.rules import Rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def doc_code() -> str:
    """The first ``python`` block of the section "Write your own bot"."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Write your own bot"):]
    section = section[:section.index("\n## ", 1)]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found, "no python block under 'Write your own bot'"
    return found.group(1)


@pytest.fixture
def mybots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The doc's block saved as ``mybots.py`` in the folder the test runs from."""
    (tmp_path / "mybots.py").write_text(doc_code(), encoding="utf-8")
    (tmp_path / "notabot.py").write_text("def make(seed=None):\n    return 42\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    for name in ("mybots", "notabot"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return tmp_path


def test_the_docs_bots_play_a_deal_in_the_arena(mybots: Path) -> None:
    seats = ["mybots:make_bot:samples=4", "mybots:LowestBot", "heuristic", "heuristic"]
    for spec in seats:
        check_seat(spec)
    result = run_arena(seats, deals=1, rules=Rules(), seed=3, workers=1)
    assert [s.name for s in result.seats] == seats
    assert result.games == 4
    assert all(s.faults == 0 for s in result.seats)  # every play they made was legal


def test_a_module_seat_is_parsed_loaded_and_checked(mybots: Path) -> None:
    assert parse_seat("mybots:make_bot:samples=8") == (
        "module", {"factory": "mybots:make_bot", "samples": 8})
    assert parse_seat("expert:budget=5") == ("expert", {"budget": 5})
    bot = load_factory("mybots:LowestBot")(seed=1)
    assert isinstance(bot, Bot) and bot.name == "lowest"
    with pytest.raises(SeatError, match="no bot factory 'missing'"):
        check_seat("mybots:missing")
    with pytest.raises(SeatError, match="cannot import 'no_such_module_54'"):
        check_seat("no_such_module_54:make")
    with pytest.raises(SeatError, match="made a int, not a big2 Bot"):
        check_seat("notabot:make")
    with pytest.raises(SeatError, match="unexpected keyword argument 'depth'"):
        check_seat("mybots:make_bot:depth=2")


def test_big2_arena_seats_a_bot_from_the_users_module(mybots: Path) -> None:
    got = CliRunner().invoke(arena_command, [
        "--seats", "mybots:make_bot:samples=4,mybots:LowestBot,greedy,greedy",
        "--deals", "1", "--workers", "1", "--quiet", "--seed", "2"])
    assert got.exit_code == 0, got.output
    assert "mybots:make_bot:samples=4" in got.output and "mybots:LowestBot" in got.output
    bad = CliRunner().invoke(arena_command, [
        "--seats", "mybots:nothing,greedy,greedy,greedy", "--deals", "1", "--quiet"])
    assert bad.exit_code == 2 and "no bot factory 'nothing'" in bad.output
