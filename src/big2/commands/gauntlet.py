"""``big2 gauntlet``: one bot against three copies of each opponent, one table."""

from __future__ import annotations

import json
import os

import click

from big2.arena import SeatError, check_seat
from big2.arena.gauntlet import DEFAULT_FAMILIES, DEFAULT_OPPONENTS, run_gauntlet
from big2.commands.checks import OutputFile
from big2.rules import PRESETS, Rules


def _names(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


@click.command(name="gauntlet")
@click.argument("bot")
@click.option("--against", default=",".join(DEFAULT_OPPONENTS), show_default=True,
              help="comma-separated opponents; each fills every other seat in turn")
@click.option("--rules", "families", default=",".join(DEFAULT_FAMILIES), show_default=True,
              help=f"comma-separated presets ({', '.join(PRESETS)}), one column each")
@click.option("--deals", type=click.IntRange(1), default=200, show_default=True,
              help="duplicate deals a cell (each played once per seat rotation; the "
                   "issue-53 targets use 2,000)")
@click.option("--scoring", type=click.Choice(["count", "classic", "penalty", "ranking",
                                              "rules"]),
              default="count", show_default=True,
              help="the scoring every cell uses ('rules': each preset's own)")
@click.option("--seed", type=int, default=0, show_default=True,
              help="seed of the deals (the same deals in every cell)")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="worker processes (default: CPU count)")
@click.option("--json", "json_file", type=OutputFile(), default=None,
              help="also write every cell's figures and arena result as JSON ('-': stdout)")
@click.option("--quiet", is_flag=True, help="no progress bar")
def gauntlet_command(bot: str, against: str, families: str, deals: int, scoring: str,
                     seed: int, workers: int | None, json_file: str | None,
                     quiet: bool) -> None:
    """Play BOT against three copies of each opponent (the league, heuristic,
    policy-net and hard unless told) on the same duplicate deals, under each rule
    set, and print its points a deal with 95% confidence intervals in one table."""
    opponents = _names(against)
    presets = _names(families)
    if not opponents:
        raise click.BadParameter("name at least one opponent", param_hint="--against")
    unknown = [p for p in presets if p not in PRESETS]
    if unknown or not presets:
        raise click.BadParameter(f"unknown preset {', '.join(unknown) or '(none)'}; choose "
                                 f"from {', '.join(PRESETS)}", param_hint="--rules")
    try:  # before any deal: unknown bots and options
        for spec in dict.fromkeys([bot, *opponents]):
            check_seat(spec)
    except SeatError as exc:
        raise click.BadParameter(str(exc)) from None
    rules = {name: Rules.preset(name) for name in presets}
    bar = None
    if not quiet:
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=deals * len(opponents) * len(rules), unit="deal", desc="gauntlet",
                   leave=False)
    try:
        result = run_gauntlet(bot, opponents, rules, deals=deals, seed=seed,
                              workers=workers or os.cpu_count() or 1,
                              scoring=None if scoring == "rules" else scoring,
                              progress=bar.update if bar is not None else None)
    except (ValueError, RuntimeError) as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        if bar is not None:
            bar.close()
    text = json.dumps(result.to_dict(), indent=2)
    if json_file == "-":
        click.echo(text)
        return
    click.echo(result.table())
    if json_file:
        try:
            with open(json_file, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError as exc:
            raise click.ClickException(f"{json_file}: cannot be written: "
                                       f"{exc.strerror or exc}") from None
