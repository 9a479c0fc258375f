"""``big2 arena``: measure bots over duplicate deals from the command line."""

from __future__ import annotations

import json
import os

import click

from big2.arena import ArenaResult, SeatError, check_seat, run_arena
from big2.arena.paired import paired_difference
from big2.commands.checks import OutputFile, build_rules
from big2.rules import PRESETS


def _split_seats(text: str) -> list[str]:
    """Comma-separated seat specs; a ``cmd:`` spec may not contain commas."""
    return [s.strip() for s in text.split(",") if s.strip()]


@click.command(name="arena")
@click.option("--seats", required=True,
              help="comma-separated bots, one per seat: names or levels (expert, heuristic, "
                   "greedy, random, easy…), options as expert:budget=100, a bot of your "
                   "own as MODULE:FACTORY (mybots:make_bot, options after it), or "
                   "'cmd:PROGRAM ARGS' for an external bot speaking the protocol")
@click.option("--deals", type=click.IntRange(1), default=100, show_default=True,
              help="duplicate deals (each is played once per seat rotation)")
@click.option("--rules", "preset", default="classic", show_default=True,
              help=f"preset: {', '.join(PRESETS)}")
@click.option("--set", "options", multiple=True, metavar="NAME=VALUE",
              help="change one rule option; repeatable")
@click.option("--scoring", type=click.Choice(["classic", "penalty", "count", "ranking"]),
              default=None, help="override the rules' scoring")
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the whole run")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="worker processes (default: CPU count)")
@click.option("--json", "json_file", type=OutputFile(), default=None,
              help="also write the result as JSON to FILE ('-' for stdout)")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=10.0,
              show_default=True, help="seconds an external bot may take per reply")
@click.option("--ray", "ray_address", is_flag=False, flag_value="local", default=None,
              metavar="[ADDRESS]",
              help="run the deal jobs on Ray (optional dependency): bare --ray starts a "
                   "local instance, --ray auto joins the running cluster, or give its address")
@click.option("--compare", "compare", default=None, metavar="SPEC",
              help="also play the same deals with SPEC in the first seat, and report the "
                   "first seat's paired difference (first bot minus SPEC)")
@click.option("--quiet", is_flag=True, help="no progress bar")
def arena_command(seats: str, deals: int, preset: str, options: tuple[str, ...],
                  scoring: str | None, seed: int, workers: int | None, json_file: str | None,
                  timeout: float, ray_address: str | None, compare: str | None,
                  quiet: bool) -> None:
    """Play bots against each other over duplicate deals and print their figures."""
    from big2.variant import variant

    rules = build_rules(preset, options)
    specs = _split_seats(seats)
    n = variant(rules).players
    if len(specs) != n:
        raise click.BadParameter(f"{n} seats needed for {n} players, "
                                 f"got {len(specs)}", param_hint="--seats")
    runs = [specs] if compare is None else [specs, [compare.strip(), *specs[1:]]]
    try:  # before any deal: unknown bots and options, programs that do not start
        for spec in dict.fromkeys(s for run in runs for s in run):
            check_seat(spec, timeout=timeout)
    except SeatError as exc:
        raise click.BadParameter(str(exc), param_hint="--seats") from None
    workers = workers or os.cpu_count() or 1
    bar = None
    if not quiet:
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=deals * len(runs), unit="deal", desc="arena", leave=False)
    try:
        results = [run_arena(run, deals=deals, rules=rules, seed=seed, workers=workers,
                             scoring=scoring, timeout=timeout,
                             progress=bar.update if bar is not None else None,
                             use_ray=ray_address is not None,
                             ray_address=None if ray_address in (None, "local")
                             else ray_address) for run in runs]
    except (ValueError, RuntimeError) as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        if bar is not None:
            bar.close()
    _report(results, json_file)


def _report(results: list[ArenaResult], json_file: str | None) -> None:
    """The tables (and the paired line of a comparison), or the JSON."""
    data = results[0].to_dict()
    lines = [results[0].table()]
    if len(results) == 2:
        diff = paired_difference(results[0], results[1])
        data["compare"] = results[1].to_dict()
        data["paired"] = diff._asdict()
        lines += ["", results[1].table(), "",
                  (f"first seat, {results[0].seats[0].name} minus {results[1].seats[0].name}: "
                   f"{diff}")]
    text = json.dumps(data, indent=2)
    if json_file == "-":
        click.echo(text)
        return
    click.echo("\n".join(lines))
    if json_file:
        try:
            with open(json_file, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError as exc:  # checked before the run; the table above keeps the figures
            raise click.ClickException(f"{json_file}: cannot be written: "
                                       f"{exc.strerror or exc}") from None
