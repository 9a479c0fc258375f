"""``big2 gauntlet`` and :func:`big2.arena.gauntlet.run_gauntlet` (issue 53, item 3): one
bot against three copies of each opponent on the same duplicate deals, one table."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from big2.arena import run_arena
from big2.arena.gauntlet import DEFAULT_OPPONENTS, LEAGUE, run_gauntlet
from big2.cli import main
from big2.rules import Rules


def test_a_bot_against_copies_of_itself_scores_nothing() -> None:
    """Count scoring takes from the others what the winner gains, and a deterministic
    bot in every seat plays each rotation of a deal alike: over the rotations the first
    seat holds every hand once, so its points are exactly zero on every deal."""
    g = run_gauntlet("greedy", ["greedy"], {"classic": Rules.preset("classic")}, deals=6)
    assert g.rows[0].mean == g.rows[0].low == g.rows[0].high == 0
    other = run_gauntlet("greedy", ["random"], {"classic": Rules.preset("classic")}, deals=6)
    assert other.rows[0].low < other.rows[0].mean < other.rows[0].high  # not so against others


def test_each_cell_is_the_arena_with_the_bot_in_one_seat() -> None:
    rules = {"classic": Rules.preset("classic"), "taiwan": Rules.preset("taiwan")}
    g = run_gauntlet("greedy", ["random", "heuristic"], rules, deals=4, seed=7)
    assert [(r.opponent, r.family) for r in g.rows] == [
        ("random", "classic"), ("random", "taiwan"), ("heuristic", "classic"),
        ("heuristic", "taiwan")]
    alone = run_arena(["greedy", "heuristic", "heuristic", "heuristic"], deals=4,
                      rules=rules["taiwan"], seed=7, scoring="count")
    assert g.rows[3].result == alone
    assert g.rows[0].mean > g.rows[2].mean  # random is the easier opponent


def test_the_command_prints_one_table(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "g.json"
    res = runner.invoke(main, ["gauntlet", "greedy", "--against", "random,greedy", "--rules",
                               "classic,hong-kong", "--deals", "3", "--quiet", "--workers", "1",
                               "--json", str(out)])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].split() == ["against", "classic", "hong-kong"]
    assert [line.split()[0] for line in lines[3:5]] == ["random", "greedy"]
    assert lines[-1] == ("greedy in one seat, 3 duplicate deals x 4 rotations a cell, seed 0, "
                         "count scoring")
    data = json.loads(out.read_text())
    cells = {(r["opponent"], r["family"]): r for r in data["rows"]}
    assert cells[("greedy", "hong-kong")]["mean"] == 0
    shown = lines[3].split()
    assert float(shown[1]) == round(cells[("random", "classic")]["mean"], 2)


def test_bad_names_are_refused_before_any_deal() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["gauntlet", "greedy", "--against", "nobody", "--quiet"])
    assert res.exit_code == 2 and "nobody" in res.output
    res = runner.invoke(main, ["gauntlet", "greedy", "--rules", "classic,nowhere", "--quiet"])
    assert res.exit_code == 2 and "unknown preset nowhere" in res.output
    res = runner.invoke(main, ["gauntlet", "greedy", "--against", " , ", "--quiet"])
    assert res.exit_code == 2 and "at least one opponent" in res.output


def test_the_default_opponents_are_the_league_then_the_levels() -> None:
    assert DEFAULT_OPPONENTS == (*LEAGUE, "heuristic", "policy-net", "hard")
