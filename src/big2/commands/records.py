"""``big2 svg`` and ``big2 replay``: pictures and replays from the command line.

Both are loaded lazily by :mod:`big2.cli`. ``big2 svg`` draws cards, a hand,
a seat's table at any point of a recorded deal, or a deal's replay strip;
``big2 replay`` steps through a recorded deal in the terminal (or prints it
whole with ``--all``). Record files are read with :func:`big2.records.load`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

import click

from big2.cards import CARD_SYMBOLS, InvalidCardError, Mask, cards_of, match_copies, parse_cards
from big2.commands.checks import OutputFile
from big2.game import Game
from big2.i18n import t, width
from big2.records import GameRecord, RecordError, load
from big2.rules import Rules
from big2.terminal.words import kind_text, lang_option, pad

# ------------------------------------------------------------------ helpers


def _load(path: str) -> list[GameRecord]:
    try:
        records = load(path)
    except RecordError as exc:
        raise click.ClickException(f"{path}: {exc}") from None
    except OSError as exc:
        raise click.ClickException(f"{path}: cannot be read: {exc.strerror or exc}") from None
    if not records:
        raise click.ClickException(f"{path}: no records")
    return records


def _pick(records: Sequence[GameRecord], deal: int | None) -> list[tuple[int, GameRecord]]:
    """``(number, record)`` for deal *deal* (1-based), or for every deal."""
    if deal is None:
        return list(enumerate(records, 1))
    if deal > len(records):
        raise click.BadParameter(f"the file holds {len(records)} deal(s)", param_hint="--deal")
    return [(deal, records[deal - 1])]


def _check_seat(seat: int | None, record: GameRecord) -> None:
    if seat is not None and not 0 <= seat < record.num_players:
        raise click.BadParameter(f"seats are 0..{record.num_players - 1}", param_hint="--seat")


def _cards(mask: Mask, rules: Rules) -> str:
    return " ".join(CARD_SYMBOLS[c] for c in sorted(cards_of(mask), key=rules.strength)) or "-"


def _short(name: str) -> str:
    """A seat name without a bot's trailing ``(level: bot)``: ``Bot 1``."""
    head, sep, _ = name.partition(" (")
    return head if sep and name.endswith(")") and head else name


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``…"""
    tail = {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n % 100 not in (11, 12, 13) else 0, "th")
    return f"{n}{tail}"


def _wrapped(head: str, parts: list[str], columns: int = 80) -> list[str]:
    """*head* and *parts* joined by `` · ``, in lines of at most *columns* display columns."""
    lines, line = [], head
    for i, part in enumerate(parts):
        piece = part + (" · " if i < len(parts) - 1 else "")
        if width(line) + width(piece.rstrip()) > columns and line.strip():
            lines.append(line.rstrip())
            line = "  "
        line += piece
    lines.append(line.rstrip())
    return lines


# --------------------------------------------------------------------- svg


@click.command(name="svg")
@click.argument("cards", required=False)
@click.option("-o", "--output", type=OutputFile(), default="-", metavar="FILE",
              help="where to write the SVG (default: standard output)")
@click.option("--record", "record_path", type=click.Path(exists=True, dir_okay=False),
              help="draw from this record file instead of CARDS")
@click.option("--deal", type=click.IntRange(1), default=1, show_default=True,
              help="which deal of the record file")
@click.option("--seat", type=int, default=0, show_default=True, help="the seat the table is seen from")
@click.option("--at", "ply", type=click.IntRange(0), default=None,
              help="after this many actions (default: the end)")
@click.option("--replay", "strip", is_flag=True, help="draw the whole deal as a replay strip")
@click.option("--layout", type=click.Choice(["row", "fan", "play"]), default="row",
              show_default=True, help="CARDS as a hand in a row, a fan, or a play")
@click.option("--selected", default="", metavar="CARDS", help="cards to draw raised")
@click.option("--size", type=click.IntRange(20), default=None,
              help="width in pixels: of a card (hand, play, replay) or of the table")
@click.option("--four-color", is_flag=True, help="four-colour deck")
def svg_command(cards: str | None, output: str, record_path: str | None, deal: int, seat: int,
                ply: int | None, strip: bool, layout: str, selected: str, size: int | None,
                four_color: bool) -> None:
    """Draw CARDS or a recorded deal as SVG: a hand, a table, a replay strip.

    \b
      big2 svg "3D 4D 5D 6D 7D" -o hand.svg
      big2 svg --record match.txt --seat 0 --at 12 -o table.svg
      big2 svg --record match.txt --deal 2 --replay -o deal2.svg
    """
    from big2 import svg

    if (cards is None) == (record_path is None):
        raise click.UsageError("give either CARDS or --record FILE")
    try:
        raised = int(parse_cards(selected, copies=2))  # two decks: a card named twice
    except InvalidCardError as exc:
        raise click.BadParameter(str(exc), param_hint="--selected") from None
    if cards is not None:
        try:
            mask = int(parse_cards(cards, copies=2))
        except InvalidCardError as exc:
            raise click.BadParameter(str(exc), param_hint="CARDS") from None
        raised = match_copies(raised, mask) or raised
        if raised & ~mask:
            raise click.BadParameter("selected cards must be among CARDS", param_hint="--selected")
        if layout == "play":
            image = svg.combination(mask, size=size or 80, four_color=four_color)
        else:
            image = svg.hand(mask, selected=raised, layout="fan" if layout == "fan" else "row",
                             size=size or 80, four_color=four_color)
    else:
        assert record_path is not None
        [(_, record)] = _pick(_load(record_path), deal)
        if strip:
            image = svg.replay(record.actions[:ply], names=record.names, size=size or 60,
                               four_color=four_color)
        else:
            _check_seat(seat, record)
            if ply is not None and ply > record.plies:
                raise click.BadParameter(f"the deal has {record.plies} actions", param_hint="--at")
            view = record.view(seat, ply)
            raised = match_copies(raised, int(view.hand)) or raised
            if raised & ~int(view.hand):
                raise click.BadParameter("selected cards must be in the seat's hand",
                                         param_hint="--selected")
            image = svg.table(view, size=size or 800, four_color=four_color, selected=raised)
    if output == "-":
        click.echo(image)
        return
    try:
        svg.save(image, output)
    except OSError as exc:
        raise click.ClickException(f"{output}: cannot be written: {exc.strerror or exc}") from None


# ------------------------------------------------------------------ replay


class Replay:
    """Text pictures of a recorded deal's positions, for ``big2 replay``.

    *seat* hides every other seat's hand (showing counts); ``None`` shows all.
    """

    def __init__(self, number: int, record: GameRecord, seat: int | None = None) -> None:
        self.number = number
        self.record = record
        self.seat = seat
        self.games = [record.new_game()]
        for action in record.actions:  # one game per position, for stepping back
            game = self.games[-1].copy()
            game.play(action.cards)
            self.games.append(game)

    def name(self, seat: int) -> str:
        """``S2 Cy``; a bot's ``(medium: heuristic)`` is left to the header."""
        return f"S{seat} {_short(self.record.names[seat])}"

    def header(self) -> str:
        """Who plays, under which rules, each seat's full name once; lines of
        at most 80 columns."""
        rec = self.record
        diff = ", ".join(f"{k}={v}" for k, v in rec.rules.diff().items())
        seed = t("replaySeed", rec.seed) if rec.seed is not None else ""
        rules = t("replayRules", rec.rules.name, t("termParen", diff) if diff else "")
        deal, dealer = t("replayDeal", self.number), t("replayDealer", self.name(rec.dealer))
        lines = [f"=== {deal} · {rules}{seed} · {dealer} ==="]
        if width(lines[0]) > 80:  # a long seed or many options: the facts a line each
            head = f"=== {deal} · {rules} ==="
            while width(head) > 80:
                head = head[:-1]
            lines = [head, f"{seed[3:] + ' · ' if seed else ''}{dealer}"]
        names = [f"S{s} {n}" for s, n in enumerate(rec.names)]
        if any(_short(n) != n for n in rec.names):
            lines += _wrapped(t("replaySeats"), names)
        if rec.totals:
            lines += _wrapped(t("replayTotalsBefore"), [
                f"{self.name(s)} {total:+d}" for s, total in enumerate(rec.totals)])
        return "\n".join(lines)

    def action_line(self, ply: int) -> str:
        """What action *ply* (1-based) was."""
        action = self.record.actions[ply - 1]
        game = self.games[ply]
        who = self.name(action.seat)
        if not action.cards:
            return f"{ply:3d}. " + t("lineSeatPasses", who)
        left = game.hands[action.seat].bit_count()
        play = f"{kind_text(action.cards, game.rules)} {_cards(action.cards, game.rules)}"
        return f"{ply:3d}. " + t("lineSeatPlays", who, play) + "  " + t("termNLeft", left)

    def hands(self, game: Game) -> list[str]:
        """One line per seat: its cards, or only a count when hidden."""
        out = []
        columns = max(width(self.name(s)) for s in range(game.num_players))
        for s in range(game.num_players):
            mark = ">" if game.to_move == s else " "
            count = game.hands[s].bit_count()
            shown = (_cards(game.hands[s], game.rules) if self.seat in (None, s)
                     else t("replayHidden"))
            out.append(f" {mark} {pad(self.name(s), columns)} {count:2d}  {shown}")
        return out

    def position(self, ply: int) -> str:
        """The position after *ply* actions: the last action, hands and table."""
        game = self.games[ply]
        total = self.record.plies
        lines = [t("replayPosition", self.number, ply, total)]
        lines.append(self.action_line(ply) if ply else "  " + t("replayDealt"))
        lines += self.hands(game)
        lines.append(self.table(game))
        return "\n".join(lines)

    def table(self, game: Game) -> str:
        """The play to beat and who acts, or the result."""
        outcome = game.outcome()
        if outcome is not None:
            scores = [f"{self.name(s)} {v:+d}" for s, v in enumerate(outcome.scores)]
            lines = _wrapped(t("wentOutScores", self.name(outcome.winner), ""), scores)
            if self.record.totals:  # in a match: the totals after it, tied ones sharing a place
                after = [t + v for t, v in zip(self.record.totals, outcome.scores)]
                places = [1 + sum(x > mine for x in after) for mine in after]
                lines += _wrapped(t("replayTotalsAfter"), [
                    f"{self.name(s)} {total:+d}" + t("termParen", t("placeN", _ordinal(p), p)
                                                     + "=" * (places.count(p) > 1))
                    for s, (total, p) in enumerate(zip(after, places))])
            return "\n".join(lines)
        if game.to_move is None:
            return t("replayEnd")
        if game.leading:
            must = t("replayMust", game.must_contain) if game.must_contain else ""
            return t("replayLead", self.name(game.to_move), must)
        assert game.last_player is not None
        play = f"{kind_text(int(game.last_play), game.rules)} {_cards(game.last_play, game.rules)}"
        return t("replayTable", play, self.name(game.last_player), self.name(game.to_move))

    def whole(self) -> str:
        """The whole deal at once: header, the deal, every action, the end."""
        lines = [self.header(), t("replayDealtHead")] + self.hands(self.games[0])
        for ply in range(1, self.record.plies + 1):
            if not self.games[ply - 1].trick:
                lines.append("")
            lines.append(self.action_line(ply))
        lines.append("")
        lines += self.hands(self.games[-1])
        lines.append(self.table(self.games[-1]))
        return "\n".join(lines)


def step_through(replays: Sequence[Replay], inp: TextIO, out: TextIO) -> None:
    """Step through *replays* reading commands from *inp*, one per line;
    end of input quits."""
    spots = [(r, ply) for r in replays for ply in range(r.record.plies + 1)]
    i = 0
    shown: Replay | None = None
    while True:
        replay, ply = spots[i]
        if replay is not shown:
            print(replay.header(), file=out)
            shown = replay
        print(replay.position(ply), file=out)
        if i == len(spots) - 1:
            print(t("replayAtEnd"), file=out)
        out.write(t("replayPrompt"))
        out.flush()
        line = inp.readline()
        if not line:
            print(file=out)
            return
        answer = line.strip().lower()
        if answer in ("q", "quit", "exit"):
            return
        if answer in ("", "n", "next"):
            if i == len(spots) - 1:
                return
            i += 1
        elif answer in ("b", "back", "p", "prev"):
            i = max(i - 1, 0)
        elif answer.isdigit():
            target = int(answer)
            if target > replay.record.plies:
                print(t("replayHasActions", replay.record.plies), file=out)
            else:
                i = spots.index((replay, target))
        else:
            print(t("replayAnswer"), file=out)


@click.command(name="replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", type=int, default=None,
              help="show the deal as this seat saw it (other hands hidden)")
@click.option("--all", "show_all", is_flag=True, help="print the whole deal at once")
@click.option("--deal", type=click.IntRange(1), default=None,
              help="only this deal of a match file (default: every deal in turn)")
@click.option("--review", is_flag=True,
              help="judge the seat's decisions (--seat, default 0) with the expert search")
@click.option("--duplicate", is_flag=True,
              help="play the deal again with the expert in the seat (--seat, default 0), the "
                   "other seats the same bots and seeds, and compare")
@click.option("--budget", type=click.IntRange(2), default=None,
              help="with --review or --duplicate: play-outs a decision (default 400)")
@lang_option
def replay_command(file: str, seat: int | None, show_all: bool, deal: int | None,
                   review: bool, duplicate: bool, budget: int | None) -> None:
    """Step through the deals recorded in FILE (Enter/n next, b back, q quit).

    Reads answers one line at a time, so it works through a plain pipe too.
    With --review, prints each of a seat's decisions against the best play
    the expert search finds, marking inaccuracies and mistakes. With
    --duplicate, deals the same cards again with the expert in the seat and
    prints its score beside yours and your decisions it would have made otherwise.
    """
    chosen = _pick(_load(file), deal)
    for _, record in chosen:
        _check_seat(seat, record)
    if budget is not None and not (review or duplicate):
        raise click.UsageError("--budget goes with --review or --duplicate")
    if review and duplicate:
        raise click.UsageError("choose one of --review and --duplicate")
    if duplicate or review:
        from big2 import duplicate as dup
        from big2 import review as reviewing

        report, default = ((dup.report, dup.BUDGET) if duplicate
                           else (reviewing.report, reviewing.REVIEW_BUDGET))
        for i, (number, record) in enumerate(chosen):
            if i:
                click.echo()
            try:
                report(record, 0 if seat is None else seat, number=number,
                       budget=budget or default, say=click.echo)
            except ValueError as exc:
                raise click.ClickException(f"deal {number}: {exc}") from None
        return
    replays = [Replay(number, record, seat) for number, record in chosen]
    if show_all:
        click.echo("\n\n".join(r.whole() for r in replays))
        return
    step_through(replays, sys.stdin, sys.stdout)


__all__ = ["Replay", "replay_command", "step_through", "svg_command"]
