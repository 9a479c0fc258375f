"""A gauntlet: one bot against three copies of each opponent, on duplicate deals.

For every opponent and every rule set, :func:`run_gauntlet` plays an arena with
the bot in the first seat and copies of the opponent in all the others, over
the same duplicate deals (each deal played once per seat rotation, so the bot
holds every hand of it), and keeps the bot's points a deal with their 95%
confidence interval and its win rate. ``big2 gauntlet`` prints them as one table.

The default opponents are :data:`DEFAULT_OPPONENTS`: the bots that do not think
like the heuristic (the league, :data:`LEAGUE`, those of it that are installed),
then ``heuristic``, ``policy-net`` and ``hard``.

>>> from big2.rules import Rules
>>> g = run_gauntlet("greedy", ["random"], {"classic": Rules.preset("classic")}, deals=3)
>>> [(row.opponent, row.family, row.deals) for row in g.rows]
[('random', 'classic', 3)]
>>> g.rows[0].low <= g.rows[0].mean <= g.rows[0].high
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from big2.arena import ArenaResult, run_arena
from big2.bots.policy.league import LEAGUE_WEIGHTS
from big2.rules import Rules
from big2.variant import variant

LEAGUE: tuple[str, ...] = tuple(LEAGUE_WEIGHTS)
"""Bots trained without the heuristic's features or planner (issue 53's league), by
bot name: the members :data:`big2.bots.policy.league.LEAGUE_WEIGHTS` ships (``league-dmc``)."""

DEFAULT_OPPONENTS: tuple[str, ...] = (*LEAGUE, "heuristic", "policy-net", "hard")
"""Whom ``big2 gauntlet`` plays the bot against unless told."""

DEFAULT_FAMILIES: tuple[str, ...] = ("classic", "selfplay-2018")
"""The rule sets (presets) a gauntlet plays unless told: the two the policy learns."""


@dataclass(frozen=True)
class GauntletRow:
    """The bot against copies of one opponent under one rule set."""

    opponent: str
    family: str
    result: ArenaResult

    @property
    def mean(self) -> float:
        """The bot's points a deal (its seat's, over every rotation)."""
        return self.result.seats[0].mean

    @property
    def low(self) -> float:
        """The 95% confidence interval's low end."""
        return self.result.seats[0].ci_low

    @property
    def high(self) -> float:
        """The 95% confidence interval's high end."""
        return self.result.seats[0].ci_high

    @property
    def win_rate(self) -> float:
        """How often the bot went out first."""
        return self.result.seats[0].win_rate

    @property
    def deals(self) -> int:
        """Duplicate deals played."""
        return self.result.deals


@dataclass(frozen=True)
class Gauntlet:
    """Every row of a gauntlet, opponents in the order given, rule sets within each."""

    bot: str
    rows: tuple[GauntletRow, ...]
    seed: int
    scoring: str | None

    def table(self) -> str:
        """One line an opponent, one column a rule set: points a deal (95% CI), wins."""
        families = list(dict.fromkeys(r.family for r in self.rows))
        opponents = list(dict.fromkeys(r.opponent for r in self.rows))
        by = {(r.opponent, r.family): r for r in self.rows}
        width = max(len("(every other seat)"), *(len(o) for o in opponents))
        cell = 30
        head = f"{'against':<{width}}" + "".join(f"  {f:>{cell}}" for f in families)
        sub = f"{'(every other seat)':<{width}}" + f"  {'points/deal (95% CI)   wins':>{cell}}" * len(
            families)
        lines = [head, sub, "-" * len(head)]
        for opp in opponents:
            cells = []
            for fam in families:
                r = by[(opp, fam)]
                cells.append(f"  {r.mean:>+6.2f} ({r.low:+.2f}, {r.high:+.2f}) {r.win_rate:>6.1%}"
                             .rjust(cell + 2))
            lines.append(f"{opp:<{width}}" + "".join(cells))
        first = self.rows[0].result if self.rows else None
        if first is not None:
            rotations = first.games // first.deals
            scoring = self.scoring or "each rule set's"
            lines.append(f"{self.bot} in one seat, {first.deals} duplicate deals x {rotations} "
                         f"rotations a cell, seed {self.seed}, {scoring} scoring")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: each row's figures and its whole arena result."""
        return {"bot": self.bot, "seed": self.seed, "scoring": self.scoring,
                "rows": [{"opponent": r.opponent, "family": r.family, "mean": r.mean,
                          "ci_low": r.low, "ci_high": r.high, "win_rate": r.win_rate,
                          "deals": r.deals, "arena": r.result.to_dict()} for r in self.rows]}


def run_gauntlet(bot: str, opponents: Sequence[str], families: Mapping[str, Rules],
                 deals: int = 200, seed: int = 0, workers: int = 1, *,
                 scoring: str | None = "count",
                 progress: Callable[[int], None] | None = None) -> Gauntlet:
    """Play *bot* against copies of each of *opponents* under each rule set of
    *families* (name -> rules), on *deals* duplicate deals each (the same deals for
    every opponent: the same *seed*); *scoring* overrides the rules' scoring (``None``
    keeps it). *progress* is called with the deals just finished.

    Raises:
        ValueError: no opponent or rule set, or a bot spec the arena refuses.
    """
    if not opponents or not families:
        raise ValueError("a gauntlet needs at least one opponent and one rule set")
    rows = []
    for opp in opponents:
        for name, rules in families.items():
            seats = [bot] + [opp] * (variant(rules).players - 1)
            result = run_arena(seats, deals=deals, rules=rules, seed=seed, workers=workers,
                               scoring=scoring, progress=progress)
            rows.append(GauntletRow(opp, name, result))
    return Gauntlet(bot, tuple(rows), seed, scoring)


__all__ = ["DEFAULT_FAMILIES", "DEFAULT_OPPONENTS", "LEAGUE", "Gauntlet", "GauntletRow",
           "run_gauntlet"]
