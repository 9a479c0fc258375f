"""`big2 play` as a user starts it: the rules header, list options cleared with
none, the choices of --bot and --rules, the default opponent, --save checked
before the first deal, and colour in a terminal only (a pseudo-terminal here)."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from big2.cli import build_rules, main

BIG2 = str(Path(sys.executable).with_name("big2"))


def test_the_header_reads_as_words() -> None:
    res = CliRunner().invoke(main, ["play", "--rules", "taiwan", "--players", "3", "--seed", "1"],
                             input="q\n")
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[0] == "Big Two · rules: custom: taiwan with players=3"
    assert "{" not in res.output
    res = CliRunner().invoke(main, ["play", "--rules", "philippines", "--seed", "1",
                                    "--set", "finish_restrictions=none"], input="q\n")
    assert res.output.splitlines()[0] == ("Big Two · rules: custom: philippines with "
                                          "finish_restrictions=none")
    res = CliRunner().invoke(main, ["play", "--rules", "Pagat", "--seed", "1"], input="q\n")
    assert res.output.splitlines()[0] == "Big Two · rules: pagat"


def test_list_options_take_none_and_several_values() -> None:
    assert build_rules("philippines", ("finish_restrictions=none",)).finish_restrictions == ()
    assert build_rules("classic", ("redeal=weak,no-face",)).redeal == ("weak", "no-face")
    assert build_rules("classic", ("redeal=weak", "redeal=none")).redeal == ()
    res = CliRunner().invoke(main, ["play", "--set", "redeal=weak,sometimes"])
    assert res.exit_code == 2 and "sometimes" in res.output


def test_bots_and_presets_are_choices_and_the_default_is_medium() -> None:
    runner = CliRunner()
    help_text = runner.invoke(main, ["play", "--help"]).output
    assert "[easy|medium|hard|expert|" in help_text and "heuristic" in help_text
    assert "classic|pagat|" in help_text and "[default: medium]" in help_text
    res = runner.invoke(main, ["play", "--bot", "grandmaster"])
    assert res.exit_code == 2 and "'grandmaster' is not one of" in res.output
    assert "'medium'" in res.output
    res = runner.invoke(main, ["play", "--rules", "nowhere"])
    assert res.exit_code == 2 and "'classic'" in res.output
    res = runner.invoke(main, ["play", "--seed", "1"], input="q\n")
    assert "Opponents: Bot 1, Bot 2, Bot 3 (medium: heuristic)" in res.output
    res = runner.invoke(main, ["play", "--seed", "1", "--bot", "EASY"], input="q\n")
    assert res.exit_code == 0 and "Opponents: Bot 1, Bot 2, Bot 3 (easy: greedy)" in res.output
    res = runner.invoke(main, ["play", "--seed", "1", "--bot", "hard"], input="q\n")
    assert res.exit_code == 0 and "Opponents: Bot 1, Bot 2, Bot 3 (hard: guided-search)" in res.output
    res = runner.invoke(main, ["play", "--seed", "1", "--bot", "expert"], input="q\n")
    assert res.exit_code == 0 and "Opponents: Bot 1, Bot 2, Bot 3 (expert: guided-search)" in res.output


def test_save_path_is_checked_before_the_first_deal(tmp_path: Path) -> None:
    for bad, status in ((tmp_path / "missing" / "m.txt", 1), (tmp_path, 2)):
        r = subprocess.run([BIG2, "play", "--seed", "1", "--save", str(bad)], input="1\n" * 50,
                           capture_output=True, text=True, timeout=60, check=False)
        assert r.returncode == status, r.stdout
        assert "Traceback" not in r.stderr and "=== Deal" not in r.stdout
        errors = [ln for ln in r.stderr.splitlines() if ln.startswith("Error: ")]
        assert len(errors) == 1 and str(bad) in errors[0]
        if status == 1:  # our own check: that one line alone
            assert r.stderr.strip() == errors[0]
    assert "no such folder" in errors[0] or "directory" in errors[0]
    good = tmp_path / "m.txt"
    r = subprocess.run([BIG2, "play", "--seed", "1", "--deals", "1", "--save", str(good)],
                       input="1\np\n" * 300, capture_output=True, text=True, timeout=120,
                       check=False)
    assert r.returncode == 0, r.stderr
    assert good.read_text(encoding="utf-8").count("[Deal ") == 1


def read_pty(args: list[str], answers: bytes, env: dict[str, str]) -> str:
    """Run *args* in a pseudo-terminal, type *answers*, and return all it printed."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(args, stdin=follower, stdout=follower, stderr=follower, env=env,
                            close_fds=True)
    os.close(follower)
    os.write(leader, answers)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1)
        if ready:
            try:
                data = os.read(leader, 65536)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    proc.wait(timeout=30)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace")


def test_colour_in_a_terminal_and_never_under_no_color_or_through_a_pipe() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(TERM="xterm-256color", COLUMNS="80", LINES="24")
    args = [BIG2, "play", "--seed", "4", "--deals", "1"]
    coloured = read_pty(args, b"q\ny\n", env)
    assert "Big Two" in coloured and "Bye." in coloured
    red = "\x1b[31m"
    assert red + "K♥" in coloured or red + "10♦" in coloured  # red suits
    assert "\x1b[1m" in coloured  # bold: the header, your turn, the play to beat
    plain = read_pty(args, b"q\ny\n", {**env, "NO_COLOR": "1"})
    assert "Big Two" in plain and "\x1b[" not in plain
    piped = subprocess.run(args, input="q\n", capture_output=True, text=True, timeout=60,
                           env=env, check=False)
    assert "Big Two" in piped.stdout and "\x1b[" not in piped.stdout


def test_every_line_fits_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole matches through a pipe at 80 columns: no line is wider (the prompt
    is left out: through a pipe what follows it shares its line)."""
    import click

    monkeypatch.setenv("COLUMNS", "80")
    runs = [["--players", "2"], ["--set", "decks=2", "--players", "6", "--set", "jokers=wild"],
            ["--set", "teams=true", "--set", "exchange=after", "--set", "last_card=true"],
            ["--players", "3", "--set", "spare_to=aside", "--set", "spare_swap=true"]]
    for extra in runs:
        res = CliRunner().invoke(main, ["play", "--seed", "5", "--deals", "2", "--bot", "easy",
                                        *extra], input="1\np\nm\nt\n" * 400)
        assert res.exit_code == 0, res.output
        assert "Match over." in res.output
        for line in res.output.splitlines():
            for part in re.split(r"Your play \[[^]]*\]: |Cards to give \(Enter: [^)]*\): "
                                 r"|\[y/N\] ", line):
                assert len(click.unstyle(part)) <= 80, (extra, line)
