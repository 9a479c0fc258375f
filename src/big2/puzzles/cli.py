"""``big2 puzzle``: Big Two puzzles in the terminal, and ``--mine`` to make more.

Each puzzle shows every hand (a hidden-hand puzzle only yours, the others' counts
and the cards each seat has played) and the table; type the play that wins the
deal (a number from the list, or the cards), ``h`` for a hint, ``a`` for the
answer with its line, ``n`` to skip, ``q`` to quit. A wrong play is answered with
the line that beats it (for a hidden-hand puzzle, on a deal of the unseen cards
that fits what you saw), played out step by step. A streak counts the puzzles
solved in a row without the answer shown; an input that names no play you hold
does not end it. Seats are numbered from 1, as at the table. It also works
through a pipe.
"""

from __future__ import annotations

import random
import shutil
import sys
from collections.abc import Sequence
from typing import TextIO

import click

from big2.cards import CARD_SYMBOLS, InvalidCardError, Mask, cards_of, parse_cards
from big2.game import Game
from big2.i18n import current, t, width, wrap
from big2.puzzles import BANDS, Puzzle, daily, load, names
from big2.terminal.words import kind_text, lang_option, pad, seat_label

__all__ = ["puzzle_command", "solve"]


def _cards(mask: Mask, game: Game) -> str:
    return " ".join(CARD_SYMBOLS[c] for c in sorted(cards_of(mask), key=game.rules.strength))


def _shown(game: Game, play: Mask) -> str:
    return t("termPass") if not play else f"{kind_text(play, game.rules)} {_cards(play, game)}"


def _band(band: str) -> str:
    return band if current() == "en" else t("band_" + band)


def say(text: str, out: TextIO) -> None:
    """*text* wrapped to the terminal's width (80 through a pipe) in display columns (a
    Chinese character takes two), later lines indented."""
    columns = max(40, shutil.get_terminal_size((80, 24)).columns) - 1
    print("\n".join(wrap(text, columns, "  ")), file=out)


def show(p: Puzzle, streak: int, out: TextIO) -> list[Mask]:
    """Print puzzle *p*'s position (a hidden-hand puzzle: your hand, the others'
    counts and the cards played); the legal plays as numbered."""
    g = p.game()
    print("\n" + t("termPuzzleHeader", p.id, p.label, _band(p.band), streak), file=out)
    about = t("puzzlesAboutHidden") if p.hidden else t("puzzlesAbout")
    gap = " " if current() == "en" else ""
    say(gap.join((t("termYouAre", seat_label(p.seat)), about, t("puzzleDefinition"))), out)
    say(rules_line(p), out)
    played: list[Mask] = [0] * g.num_players
    for s, cards in p.actions:
        played[s] |= int(parse_cards(cards)) if cards else 0
    mark_width = 1 + width(t("termYouMark"))
    for s, hand in enumerate(g.hands):
        mark = " " + t("termYouMark") if s == p.seat else ""
        cards = _cards(hand, g) if s == p.seat or not p.hidden else t("termUnseen")
        print(f"  {seat_label(s)}{pad(mark, mark_width)} {hand.bit_count():2d}  {cards}",
              file=out)
        if p.hidden and played[s]:
            say("    " + t("termPlayed", _cards(played[s], g)), out)
    if g.leading:
        print(t("termTableEmpty"), file=out)
    else:
        assert g.last_player is not None
        print(t("termTableBy", _shown(g, g.last_play), seat_label(g.last_player)), file=out)
    legal = list(g.legal_masks())
    listed = "  ".join(f"{i}) {_shown(g, m)}" for i, m in enumerate(legal, 1))
    say(t("termLegalPlays", listed), out)
    return legal


def rules_line(p: Puzzle) -> str:
    """The rules that decide *p*, in a line: the preset, the players, the suit order,
    the straights allowed (weakest first), the plays one may not go out on."""
    from big2.variant import variant

    rules = p.rules
    v = variant(rules)
    suits = sorted("DCHS", key=lambda s: rules.strength(int(parse_cards("3" + s)).bit_length() - 1))
    symbol = {"D": "♦", "C": "♣", "H": "♥", "S": "♠"}

    def rank(r: str) -> str:
        return "10" if r == "T" else r

    straights = ", ".join(f"{rank(q[0])}-{rank(q[-1])}" for q, _top in v.straight_sequences)
    finish = [t("finish_" + f) for f in rules.finish_restrictions]
    parts = [t("puzzleRulesOf", p.preset), t("puzzlePlayers", v.players),
             t("puzzleSuits", " < ".join(symbol[s] for s in suits)),
             t("puzzleStraights", straights or t("termNone"))]
    if finish:
        parts.append(t("puzzleFinish", t("termOr").join(finish)))
    return " · ".join(parts) + (" " if current() == "en" else "") + t("termRulesSee", p.preset)


def play_out(p: Puzzle, play: Mask, out: TextIO) -> None:
    """Print the line after *play* step by step on the cards: each seat's play and
    the cards it has left, to the first seat going out (for a hidden-hand puzzle,
    first the hands the line is played on)."""
    g = p.game()
    hands = [int(h) for h in p.hands_after(play)]
    if p.hidden:
        lie = t("termUnseenLie") if any(
            a != int(b) for a, b in zip(hands, g.hands, strict=True)) else t("termHandsWere")
        held = t("lineSep").join(t("termHolds", seat_label(s), _cards(h, g))
                                 for s, h in enumerate(hands) if s != p.seat)
        say(t("termLieHolds", lie, held), out)
    for step, (s, cards) in enumerate(((p.seat, names(play)), *p.line_after(play)), 1):
        mask = int(parse_cards(cards)) if cards else 0
        hands[s] &= ~mask
        who = t("termStepYou") if s == p.seat else seat_label(s)
        did = t("termStepPlay", _shown(g, mask)) if mask else t("termPass")
        left = (t("termOut") if not hands[s]
                else t("termLeft", hands[s].bit_count(), _cards(hands[s], g)))
        print(f"  {step:2d}. " + t("termStep", who, did, left), file=out)


def _hint(p: Puzzle) -> str:
    """:meth:`Puzzle.hint`'s nudge in the current language."""
    if current() == "en":
        return p.hint()
    mine = sum(1 for s, c in p.line if s == p.seat and c) + 1
    kind = kind_text(p.answer, p.rules) if p.answer else t("termPass")
    return t("termHintText", kind, mine)


def _read(answer: str, legal: list[Mask]) -> Mask | None:
    if answer.isdigit():
        i = int(answer)
        return legal[i - 1] if 1 <= i <= len(legal) else None
    if answer.lower() in ("p", "pass"):
        return 0
    try:
        return int(parse_cards(answer))
    except InvalidCardError:
        return None


def solve(puzzles: Sequence[Puzzle], inp: TextIO, out: TextIO) -> int:
    """Play through *puzzles* reading answers from *inp*; the puzzles solved."""
    streak = solved = 0
    for p in puzzles:
        legal = show(p, streak, out)
        while True:
            out.write(t("termPuzzlePrompt"))
            out.flush()
            line = inp.readline()
            if not line:
                print(file=out)
                print(t("termPuzzleBye", solved, streak), file=out)
                return solved
            answer = line.strip()
            low = answer.lower()
            if low in ("q", "quit"):
                print(t("termPuzzleBye", solved, streak), file=out)
                return solved
            if low in ("n", "next"):
                break
            if low in ("h", "hint"):
                say(t("termPuzzleHint", _hint(p)), out)
                continue
            if low in ("a", "answer"):
                streak = 0
                answer = t("termPuzzleAnswer", _shown(p.game(), p.answer))
                say(f"{answer} Why: {p.why()}." if current() == "en" else answer, out)
                play_out(p, p.answer, out)
                print(t("termStreak", 0), file=out)
                break
            play = _read(answer, legal)
            if play is None:
                print(t("termPuzzleAnswerWith"), file=out)
                continue
            if play not in legal:  # a typo: the streak stands
                held = int(p.game().hands[p.seat])
                print(t("termNotHeld", _cards(play & ~held, p.game()))
                      if play & ~held else t("termIllegalRetry"), file=out)
                continue
            verdict = p.check(play)
            if verdict.correct:
                streak += 1
                solved += 1
                # the reason is the line in words (English); played out below in any language
                say(f"Correct! {verdict.reason[0].upper()}{verdict.reason[1:]}."
                    if current() == "en" else t("termCorrect"), out)
                play_out(p, play, out)
                print(t("termStreak", streak), file=out)
                break
            streak = 0
            say(f"Not this one: {verdict.reason}." if current() == "en" else t("termWrong"), out)
            play_out(p, play, out)
            print(t("termStreakRetry"), file=out)
    print("\n" + t("termNoMore", solved, streak), file=out)
    return solved


@click.command(name="puzzle")
@click.option("--band", type=click.Choice(BANDS), default=None, help="only this band")
@click.option("--preset", default=None, help="only puzzles under this preset")
@click.option("--id", "number", type=click.IntRange(1), default=None, help="this puzzle")
@click.option("--daily", "today", is_flag=True,
              help="the puzzle of the day (the same for everyone)")
@click.option("--shuffle", type=int, default=None, metavar="SEED",
              help="in a shuffled order (by this seed)")
@click.option("--mine", is_flag=True, help="make new puzzles from self-play deals instead")
@click.option("--seed", type=int, default=1, show_default=True, help="first deal's seed (--mine)")
@click.option("--count", type=click.IntRange(1), default=20, show_default=True,
              help="puzzles to make (--mine)")
@click.option("--hidden", type=click.IntRange(0), default=0, show_default=True,
              help="hidden-hand puzzles to make after the others (--mine)")
@click.option("-o", "--out", default="puzzles.json", show_default=True,
              help="where --mine writes them (big2.puzzles.load reads the file)")
@lang_option
def puzzle_command(band: str | None, preset: str | None, number: int | None, today: bool,
                   shuffle: int | None, mine: bool, seed: int, count: int, hidden: int,
                   out: str) -> None:
    """Big Two puzzles: find the one play that wins the deal.

    \b
      big2 puzzle                 every puzzle, easiest band first
      big2 puzzle --band hard --shuffle 7
      big2 puzzle --daily
      big2 puzzle --mine --seed 2026 --count 20 --hidden 5 -o more.json
    """
    if mine:
        from big2.puzzles.mine import mine as dig
        from big2.puzzles.mine import save

        found: list[Puzzle] = []
        runs = [dig(seed, count, say=lambda s: click.echo(s, err=True))]
        if hidden:
            runs.append(dig(seed + 10**6, hidden, say=lambda s: click.echo(s, err=True),
                            first_id=count + 1, hidden=True))
        for run in runs:
            for p in run:
                found.append(p)
                click.echo(f"#{p.id} {p.label} {p.band} ({p.choices} choices"
                           f"{f', {p.deals} deals' if p.hidden else ''})")
                if len(found) % 25 == 0:
                    save(found, out)
        save(found, out)
        click.echo(f"{len(found)} puzzles written to {out}")
        return
    puzzles = list(load())
    if today:
        puzzles = [daily()]
    if number is not None:
        puzzles = [p for p in puzzles if p.id == number]
        if not puzzles:
            raise click.BadParameter(f"puzzles are numbered 1 to {len(load())}",
                                     param_hint="--id")
    if band is not None:
        puzzles = [p for p in puzzles if p.band == band]
    if preset is not None:
        puzzles = [p for p in puzzles if p.preset == preset]
        if not puzzles:
            raise click.BadParameter("no puzzle under that preset; there are: "
                                     + ", ".join(sorted({p.preset for p in load()})),
                                     param_hint="--preset")
    if shuffle is not None:
        random.Random(shuffle).shuffle(puzzles)
    elif number is None:
        puzzles.sort(key=lambda p: (BANDS.index(p.band), p.id))
    solve(puzzles, sys.stdin, sys.stdout)
