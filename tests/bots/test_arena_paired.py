"""Paired comparisons: the same deals with one seat changed, the difference
deal by deal, and the arena's ``--compare``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from big2.arena import run_arena
from big2.arena.paired import paired_difference
from big2.commands.arena import arena_command
from big2.rules import Rules

RULES = Rules(scoring="count")


def test_the_difference_is_taken_deal_by_deal_and_is_tighter() -> None:
    a = run_arena(["heuristic", "greedy", "greedy", "greedy"], deals=30, rules=RULES, seed=4)
    b = run_arena(["heuristic:break_limit=0", "greedy", "greedy", "greedy"], deals=30,
                  rules=RULES, seed=4)
    d = paired_difference(a, b)
    assert d.deals == 30
    assert d.mean == pytest.approx(a.seats[0].mean - b.seats[0].mean, abs=1e-5)
    assert d.low <= d.mean <= d.high
    # the same cards against the same opponents: much of the luck cancels
    assert d.high - d.low < a.seats[0].ci_high - a.seats[0].ci_low
    same = paired_difference(a, a)
    assert (same.mean, same.low, same.high) == (0, 0, 0)


def test_runs_on_other_deals_are_refused() -> None:
    a = run_arena(["greedy"] * 4, deals=2, rules=RULES, seed=1)
    with pytest.raises(ValueError, match="same deals"):
        paired_difference(a, run_arena(["greedy"] * 4, deals=2, rules=RULES, seed=2))
    with pytest.raises(ValueError, match="same deals"):
        paired_difference(a, run_arena(["greedy"] * 4, deals=3, rules=RULES, seed=1))
    with pytest.raises(ValueError, match="player 4"):
        paired_difference(a, a, player=4)


def test_the_arena_compares_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    args = ["--seats", "heuristic,greedy,greedy,greedy", "--compare", "greedy", "--deals", "4",
            "--scoring", "count", "--seed", "3", "--workers", "1", "--quiet"]
    res = CliRunner().invoke(arena_command, [*args, "--json", str(out)])
    assert res.exit_code == 0, res.output
    assert "first seat, heuristic minus greedy:" in res.output and "paired over 4 deals" in res.output
    data = json.loads(out.read_text())
    assert len(data["points"]) == 4 and len(data["compare"]["points"]) == 4
    assert data["compare"]["seats"][0]["name"] == "greedy"
    first = [(x[0] - y[0]) / 4 for x, y in zip(data["points"], data["compare"]["points"])]
    assert data["paired"]["mean"] == pytest.approx(sum(first) / 4, abs=1e-5)
    bad = CliRunner().invoke(arena_command, [*args[:2], "--compare", "wizard", "--deals", "1"])
    assert bad.exit_code == 2 and "wizard" in bad.output
