"""The ``big2`` command: play in the terminal, list rules, and more."""

from __future__ import annotations

import errno
import importlib
import importlib.machinery
import importlib.util
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from big2.commands.checks import build_rules
from big2.rules import PRESET_ALIASES, PRESETS, InvalidRulesError, Rules, describe_options
from big2.terminal.words import lang_option

if TYPE_CHECKING:
    from big2.game import Game
    from big2.match import Match


LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "poker": ("big2.poker.cli", "poker"),
    "arena": ("big2.commands.arena", "arena_command"),
    "gauntlet": ("big2.commands.gauntlet", "gauntlet_command"),
    "bot": ("big2.protocol", "bot_command"),
    "svg": ("big2.commands.records", "svg_command"),
    "replay": ("big2.commands.records", "replay_command"),
    "puzzle": ("big2.puzzles.cli", "puzzle_command"),
    "serve": ("big2.server.cli", "serve_command"),
}
"""Subcommands that live beside the core, imported only when used: name ->
(module, attribute). Keeps ``big2 play`` fast and the core free of them."""


class LazyGroup(click.Group):
    """A click group that imports the :data:`LAZY_COMMANDS` on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self._available()})

    @staticmethod
    def _available() -> list[str]:
        return [name for name, (module, _) in LAZY_COMMANDS.items() if _findable(module)]

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand; a file system error that no check caught is a
        one-line error (exit status 1), not a traceback."""
        try:
            return super().invoke(ctx)
        except OSError as exc:
            if exc.errno == errno.EPIPE:  # click quiets a closed pipe itself
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            raise click.ClickException(f"{where}{exc.strerror or exc}") from None

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        cmd = super().get_command(ctx, name)
        if cmd is not None or name not in LAZY_COMMANDS or not _findable(LAZY_COMMANDS[name][0]):
            return cmd
        module, attr = LAZY_COMMANDS[name]
        found: click.Command = getattr(importlib.import_module(module), attr)
        return found


def _findable(module: str) -> bool:
    """Whether *module* is there to import, found without importing the package that holds
    it (``big2.poker``'s own import costs more CPU than the rest of ``big2 serve``'s start)."""
    package, _, _ = module.rpartition(".")
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        return False
    where = spec.submodule_search_locations if spec is not None else None
    if not where:
        return False
    return importlib.machinery.PathFinder.find_spec(module, list(where)) is not None


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: the installed package's (:data:`big2.__version__`, looked up only here)."""
    if value and not ctx.resilient_parsing:
        import big2

        click.echo(f"{ctx.find_root().info_name}, version {big2.__version__}")
        ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_print_version, help="Show the version and exit.")
def main() -> None:
    """Big Two (Deuces, Pusoy Dos, Capsa, Dai Di): play, bots, tools."""


class _BotChoice(click.Choice):  # type: ignore[type-arg]
    """The bot levels and names, listed from the registry when first needed
    (so ``big2`` starts without importing the bots)."""

    def __init__(self) -> None:
        super().__init__([], case_sensitive=False)

    @property  # type: ignore[override]
    def choices(self) -> list[str]:
        from big2.bots import BOT_LEVELS, available_bots

        return [*BOT_LEVELS, *(b for b in available_bots(ready=True) if b not in BOT_LEVELS)]

    @choices.setter
    def choices(self, value: object) -> None:
        pass


def _check_save_path(path: str) -> None:
    """Refuse, before the first deal, a record file that cannot be written."""
    import os

    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    if os.path.isdir(target):
        raise click.ClickException(f"--save {path}: is a folder, not a file")
    if not os.path.isdir(folder):
        raise click.ClickException(f"--save {path}: no such folder {folder}")
    if os.path.exists(target) and not os.access(target, os.W_OK) \
            or not os.path.exists(target) and not os.access(folder, os.W_OK):
        raise click.ClickException(f"--save {path}: not allowed to write there")
    from big2.commands.checks import record_file_problem  # deals are appended: a record file only

    problem = record_file_problem(path)
    if problem is not None:
        raise click.ClickException(f"--save {path}: {problem}")


@main.command()
@click.option("--rules", "preset", default="classic", show_default=True,
              type=click.Choice([*PRESETS, *PRESET_ALIASES], case_sensitive=False),
              help="the preset to start from (see `big2 rules`)")
@click.option("--set", "options", multiple=True, metavar="NAME=VALUE",
              help="change one option (see `big2 rules`; a list option takes a,b or none); "
                   "repeatable")
@click.option("--players", type=click.IntRange(2, 8), default=None,
              help="number of players (5 to 8 with --set decks=2)")
@click.option("--seed", type=int, default=None, help="seed for reproducible deals")
@click.option("--deals", type=click.IntRange(0), default=None,
              help="deals in the match (default: the rules' match_deals)")
@click.option("--bot", "bot_name", default="medium", show_default=True, type=_BotChoice(),
              help="the opponents: a level (easy, medium, hard, expert) or a bot's name")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None,
              help="append each finished deal's record to FILE (see `big2 replay`)")
@click.option("--delay", type=click.FloatRange(0), default=None, metavar="SECONDS",
              help="wait between the bots' plays (default: 0.5 at a terminal, 0 through a pipe)")
@click.option("--hint", "hint_bot", type=click.Choice(["medium", "expert"]), default="medium",
              show_default=True,
              help="who answers the hint (a): the heuristic, or the strongest bot (the expert "
                   "level's search) with expected points")
@lang_option
def play(preset: str, options: tuple[str, ...], players: int | None, seed: int | None,
         deals: int | None, bot_name: str, save_path: str | None,
         delay: float | None, hint_bot: str) -> None:
    """Play a match in the terminal against bots (you are seat 0).

    At your turn type a play's number or its cards (3d3s, "10h jh qh kh ah"),
    p to pass, a for a hint, u to undo, t for the trick, h for help, q to quit.
    Colour shows in a terminal unless NO_COLOR is set.
    """
    from big2.bots import BOT_LEVELS, make_bot
    from big2.match import Match
    from big2.terminal import TerminalGame
    from big2.variant import variant

    rules = build_rules(preset, options, players)
    if save_path:
        _check_save_path(save_path)
    try:
        seeds = [None if seed is None else seed * 10 + i for i in range(1, variant(rules).players)]
        bots = [make_bot(bot_name, seed=s) for s in seeds]
        match = Match(rules, seed=seed, deals=deals)
        for bot in bots:  # seat names show the level asked for and the bot playing it
            if bot.name == "bot":
                bot.name = BOT_LEVELS.get(bot_name, bot_name)
            if bot_name in BOT_LEVELS:
                bot.name = f"{bot_name}: {bot.name}"
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    # the Bots tag names each seat's bot and seed, for `big2 replay --duplicate`
    who = ["-"] + [bot_name if s is None else f"{bot_name}@{s}" for s in seeds]
    on_deal_end = _deal_saver(save_path, match, {"Bots": ",".join(who)}) if save_path else None
    base = PRESET_ALIASES.get(preset.lower(), preset.lower())
    sys.exit(TerminalGame(match, bots, on_deal_end=on_deal_end, preset=base,
                          delay=delay, hint=hint_bot).run())


def _deal_saver(path: str, match: Match, tags: dict[str, str]) -> Callable[[Game], None]:
    """A callback that appends each finished deal of *match* to the record
    file *path* (with the date, the deal number, the totals before it and *tags*)."""
    from datetime import date

    from big2.records import append_game

    def save_deal(game: Game) -> None:
        scores = game.scores() or ()
        before = [t - d for t, d in zip(match.totals, scores)]
        try:
            append_game(path, game, totals=before,
                        tags={"Date": date.today().strftime("%Y.%m.%d"),
                              "Deal": str(len(match.results)), **tags})
        except OSError as exc:
            click.echo(f"big2 play: could not save the deal to {path}: "
                       f"{exc.strerror or exc}", err=True)

    return save_deal


@main.command(name="rules")
@click.argument("preset", required=False)
@click.option("--json", "as_json", is_flag=True, help="print the rules as JSON")
def rules_cmd(preset: str | None, as_json: bool) -> None:
    """List every option with its values, or show one PRESET's options."""
    if preset:
        try:
            rules = Rules.preset(preset)
        except InvalidRulesError as exc:
            raise click.UsageError(str(exc)) from None
        if as_json:
            click.echo(json.dumps(rules.to_dict(), indent=2))
            return
        click.echo(f"{preset}: " + (", ".join(f"{k}={v}" for k, v in rules.diff().items())
                                    or "the default game"))
        return
    if as_json:
        click.echo(json.dumps({o[0]: {"values": o[1], "help": o[2]} for o in describe_options()},
                              indent=2))
        return
    click.echo("Options (use with --set NAME=VALUE):")
    for name, values, help_text in describe_options():
        click.echo(f"  {name:22} {help_text}")
        click.echo(f"  {'':22}   {values}")
    click.echo("\nPresets:")
    for name, diff in PRESETS.items():
        click.echo(f"  {name:18} " + (", ".join(f"{k}={v}" for k, v in diff.items())
                                      or "the default game"))
    click.echo("\nAliases (other names for a preset):")
    for alias, name in PRESET_ALIASES.items():
        click.echo(f"  {alias:18} {name}")


if __name__ == "__main__":  # pragma: no cover
    main()
