"""The table's rough edges filed down (issue 27, item 4): the bots' pace
(``--delay``), a deal's end that fits 80x24 with every seat's cards, ``q``
that asks and shows the totals, the hint (``a``) and ``l`` that explains
itself. The pace and the quit run through a pseudo-terminal."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest

from big2.bots import STRONGEST_LEVEL, bot_label, make_bot
from big2.game import Game
from big2.match import Match
from big2.rules import Rules
from big2.terminal import TerminalGame
from big2.terminal.loop import DEFAULT_DELAY

sys.path.insert(0, str(Path(__file__).parent))
from test_terminal import HANDS, Script, drive, scripted
from test_terminal_cli import BIG2, read_pty


@pytest.fixture(autouse=True)
def eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("NO_COLOR", raising=False)


def pty_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(TERM="xterm-256color", COLUMNS="80", LINES="24", NO_COLOR="1")
    return env


def test_the_delay_is_half_a_second_at_a_terminal_and_none_through_a_pipe(
        monkeypatch: pytest.MonkeyPatch) -> None:
    piped = TerminalGame(Match(Rules(), seed=1), [make_bot("easy")] * 3,
                         stdin=io.StringIO(""), stdout=io.StringIO())
    assert piped.delay == 0
    with pytest.raises(ValueError, match="delay"):
        TerminalGame(Match(Rules(), seed=1), [make_bot("easy")] * 3, delay=-1)
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    game = Game(Rules(), hands=HANDS)
    tg = TerminalGame(Match(Rules(), seed=1), scripted(), stdin=io.StringIO("1\n9d\n5d\n"),
                      stdout=io.StringIO(), delay=0.25)
    tg.play_deal(game)
    bot_plays = sum(1 for a in game.history if a.seat)
    assert game.is_over() and slept == [0.25] * bot_plays
    assert DEFAULT_DELAY == 0.5
    # --delay 0: the bots play without a pause
    slept.clear()
    game = Game(Rules(), hands=HANDS)
    TerminalGame(Match(Rules(), seed=1), scripted(), stdin=io.StringIO("1\n9d\n5d\n"),
                 stdout=io.StringIO(), delay=0).play_deal(game)
    assert game.is_over() and slept == []


def test_the_bots_wait_between_plays_in_a_terminal() -> None:
    """Through a pty: with --delay 0.4 the bots' plays before your first turn
    take at least 0.4 s each; the default at a terminal waits too. (Only lower bounds on
    time, which a busy machine cannot break; that --delay 0 never sleeps is checked in the test above.)"""
    args = [BIG2, "play", "--seed", "3", "--deals", "1"]
    times = {}
    for delay in ("0.4", None, "0"):
        start = time.monotonic()
        out = read_pty(args + (["--delay", delay] if delay else []), b"q\ny\n", pty_env())
        times[delay] = time.monotonic() - start
        before = out.split("-- Your turn --")[0]
        bots = len(re.findall(r"  Bot \d (plays|passes)", before))
        assert bots >= 1, out  # seed 3: a bot holds the 3♦ and leads
        if delay == "0.4":
            assert times[delay] >= 0.4 * bots
        if delay is None:
            assert times[delay] >= 0.5 * bots


def test_q_asks_first_and_shows_the_totals_through_a_pty() -> None:
    out = read_pty([BIG2, "play", "--seed", "4", "--delay", "0"], b"q\nn\nq\ny\n", pty_env())
    assert out.count("Match totals after 0 deals: You +0 · Bot 1 +0 · Bot 2 +0 · Bot 3 +0") == 2
    assert out.count("Quit the match? [y/N]") == 2
    assert out.count("-- Your turn --") == 1  # n: back to the same turn
    assert "Bye." in out
    # through a pipe, end of input after q quits too
    res = subprocess.run([BIG2, "play", "--seed", "4"], input="q\n", capture_output=True,
                         text=True, timeout=60, check=False)
    assert res.returncode == 0 and "Quit the match?" in res.stdout and "Bye." in res.stdout


def test_the_deal_end_lists_every_seats_cards_and_fits_80_by_24() -> None:
    """The deal's end and the prompt after it take at most 23 lines, with the
    winning play among them; every seat's cards left, yours included."""
    for seed in range(1, 6):
        out = subprocess.run([BIG2, "play", "--seed", str(seed), "--deals", "1", "--bot", "easy"],
                             input="1\np\n" * 300, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "COLUMNS": "80"}, check=False).stdout
        lines = out.split("Match over.")[0].rstrip().splitlines()
        screen = lines[-22:]  # and the "Enter: next deal" prompt below at a terminal
        assert any("(out!)" in ln for ln in screen), "\n".join(screen)
        assert all(len(click.unstyle(part)) <= 80 for ln in screen
                   for part in re.split(r"Your play \[[^]]*\]: ", ln))
        table = screen[screen.index(next(ln for ln in screen if "cards held" in ln)):]
        for name in ("You", "Bot 1", "Bot 2", "Bot 3"):
            row = next(ln for ln in table if ln.startswith(name + " "))
            left = int(row.split()[len(name.split())])
            assert len(row.split()) == len(name.split()) + 3 + max(left, 1)  # the cards


def test_the_hint_names_the_medium_bots_play_and_why() -> None:
    game = Game(Rules(), hands=["3D 7C 7S 2S", "4D 9D", "5D 9H", "6D 9S"], leader=0)
    out, _ = drive(game, "a\nq\n")
    assert "Hint (heuristic bot): single 3♦: leads the weakest part of your hand's plan\n" \
           "  (2 more plays to go out)" in out  # wrapped at 80 columns
    assert "a hint" in out.split("Your play [")[1].split("]")[0]
    assert not game.history  # a hint plays nothing


def test_l_explains_itself() -> None:
    out, _ = drive(Game(Rules(), hands=HANDS), "l\nq\n", scripted())
    assert "l announces a last card under the last_card rule, which this game does not " \
           "use." in out
    out, _ = drive(Game(Rules(last_card=True), hands=HANDS), "l\nq\n", scripted())
    assert "l announces your last card: you hold 3 cards; announce when you are down to " \
           "one" in out
    assert "Not allowed" not in out
    game = Game(Rules(last_card=True), hands=["3D 5D", *HANDS[1:]])
    script = {1: "2S", 2: "p", 3: "p", 5: "4C", 6: "p", 7: "p"}
    out, _ = drive(game, "1\nl\nl\np\nq\n", [Script(script) for _ in range(3)])
    assert "  You announce: last card!" in out
    assert "You have already announced your last card." in out


def test_the_expert_hint_gives_expected_points() -> None:
    from click.testing import CliRunner

    from big2.cli import main

    res = CliRunner().invoke(main, ["play", "--seed", "4", "--hint", "expert"], input="a\nq\n")
    assert res.exit_code == 0, res.output
    # the bot that really runs, named as registered; the lines wrapped at 80 columns
    hint = res.output.split("Hint (")[1].split("Your play")[0]
    lines = hint.rstrip("\n").splitlines()
    assert lines[0].startswith(f"{bot_label(STRONGEST_LEVEL)}): ")  # the strongest, named
    assert lines[0].startswith("expert: guided-search, 2,000 play-outs): ")
    assert all(len(ln) < 80 for ln in lines), lines
    assert re.search(r"\([+-]\d+\.\d points expected; next best .+ [+-]\d+\.\d\)",
                     " ".join(ln.strip() for ln in lines)), res.output
    with pytest.raises(ValueError, match="hint"):
        TerminalGame(Match(Rules(), seed=1), [make_bot("easy")] * 3, hint="grandmaster")


class _CtrlC(io.StringIO):
    """Input that is interrupted (Ctrl-C) at the first prompt."""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_ctrl_c_shows_the_match_totals_and_ends_cleanly() -> None:
    out = io.StringIO()
    tg = TerminalGame(Match(Rules(), seed=3), [make_bot("greedy", seed=s) for s in (1, 2, 3)],
                      stdin=_CtrlC(), stdout=out)
    assert tg.run() == 0
    text = out.getvalue()
    assert "Match totals after 0 deals: You +0 · Bot 1 +0 · Bot 2 +0 · Bot 3 +0" in text
    assert text.rstrip().endswith("Bye.") and "Aborted" not in text


def test_a_tied_match_is_told_as_a_tie() -> None:
    from big2.terminal import advice

    tg = TerminalGame(Match(Rules(), seed=3), [make_bot("greedy", seed=s) for s in (1, 2, 3)],
                      stdin=io.StringIO(""), stdout=io.StringIO(), human_name="Ann")
    tg.match.totals = [36, -20, 36, -52]
    assert advice.match_result(tg) == "Match over. Tied for first: Ann and Bot 2 with +36."
    tg.match.totals = [36, -20, 30, -46]
    assert advice.match_result(tg) == "Match over. Winner: Ann with +36."
