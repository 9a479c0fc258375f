"""The `big2` command: terminal play through a pipe, rules listing, errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from big2.cli import main
from big2.rules import PRESET_ALIASES, PRESETS

BIG2 = [sys.executable, "-m", "big2.cli"]


def run(args: list[str], stdin: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(BIG2 + args, input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=Path(__file__).parent, check=False)


def test_play_a_whole_match_through_a_pipe_by_numbers() -> None:
    """Always answering 1 (first legal play) or p plays a whole match to its end."""
    answers = "1\np\n" * 400
    r = run(["play", "--seed", "4", "--deals", "2"], answers)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.count("=== Deal") == 2
    assert "Match over. Winner:" in out
    assert "left   deal  total  cards held" in out
    assert "Your hand (by rank):" in out and "Legal plays:" in out


def test_bad_input_gets_a_clear_message_and_nothing_is_lost() -> None:
    r = run(["play", "--seed", "4", "--deals", "1"], "zz\n99\n9S 9D\ns\nh\nq\n")
    assert r.returncode == 0
    out = r.stdout
    assert "Not allowed: not a card: 'zz'" in out
    assert "No play number 99" in out
    assert "Your hand (by suit):" in out
    assert "Answer with:" in out
    assert out.rstrip().endswith("Bye.")


def test_typed_cards_are_played() -> None:
    # seed 4: find our hand first, then play our lowest single by name
    r = run(["play", "--seed", "4", "--deals", "1"], "q\n")
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("Your hand"))
    first = line.split(":", 1)[1].split()[0]
    text = first.replace("♦", "D").replace("♣", "C").replace("♥", "H").replace("♠", "S")
    r2 = run(["play", "--seed", "4", "--deals", "1"], f"{text}\nq\n")
    assert f"You play single {first}" in r2.stdout or "Not allowed" in r2.stdout


def test_end_of_input_quits_cleanly() -> None:
    r = run(["play", "--seed", "1"], "")
    assert r.returncode == 0 and "Bye." in r.stdout


def test_rules_listing_and_preset() -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["rules"]).output
    assert "straight_order" in out and "Presets:" in out and "philippines" in out
    out = runner.invoke(main, ["rules", "pagat"]).output
    assert "flush_order=suit" in out
    res = runner.invoke(main, ["rules", "nope"])
    assert res.exit_code != 0 and "presets:" in res.output


def test_rules_lists_every_preset_and_alias() -> None:
    """Issue 23: `big2 rules` names every preset (president included) and every
    alias (`vietnam`), and each name it lists works with `big2 rules NAME`."""
    runner = CliRunner()
    out = runner.invoke(main, ["rules"]).output
    presets = out.split("Presets:")[1]
    for name in PRESETS:
        assert f"\n  {name} " in presets, name
    aliases = out.split("Aliases (other names for a preset):")[1]
    for alias, name in PRESET_ALIASES.items():
        assert f"  {alias}" in aliases and name in aliases
    assert "president          scoring=ranking, exchange=before" in presets
    for name in [*PRESETS, *PRESET_ALIASES]:
        res = runner.invoke(main, ["rules", name])
        assert res.exit_code == 0 and res.output.startswith(f"{name}: "), name
    assert runner.invoke(main, ["rules", "vietnam"]).output == (
        "vietnam: straight_order=vietnam\n")


def test_bad_options_are_usage_errors() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["play", "--set", "straight_order=zz"])
    assert res.exit_code == 2 and "hk, malaysia" in res.output
    res = runner.invoke(main, ["play", "--set", "nonsense"])
    assert res.exit_code == 2 and "name=value" in res.output
    res = runner.invoke(main, ["play", "--players", "7"])
    assert res.exit_code == 2


def test_options_reach_the_game() -> None:
    r = run(["play", "--rules", "taiwan", "--players", "3", "--seed", "2", "--deals", "1"], "q\n")
    assert r.returncode == 0
    assert "Bot 3" not in r.stdout  # three players: you and two bots
