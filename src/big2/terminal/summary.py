"""What the terminal game tells between plays: the trick so far and the high
cards out (``t``), and a finished deal's scores with the reasons for them
(:func:`big2.scoring.explain`, said in the browser's words: :func:`score_why`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from big2.cards import ACE, RANK_MASKS, TWO, cards_of
from big2.i18n import t, width, wrap
from big2.scoring import ScoreLine, explain
from big2.terminal import house, listing, render
from big2.terminal.words import pad

if TYPE_CHECKING:
    from big2.game import Game
    from big2.terminal.console import Console


def show_trick(tg: Console, game: Game) -> None:
    """The current trick, and the high cards played so far."""
    parts = []
    eng = game.variant.engine
    beaten = None  # each play read as it was played on the one before
    for a in game.trick:
        if a.cards:
            beaten = eng.as_played(a.cards, beaten) or eng.classify(a.cards)
            shown = listing.describe(game, a.cards, beaten)
            parts.append(f"{tg.short[a.seat]} {shown.label} {listing.show(shown)}")
        else:
            parts.append(t("termSeatPassShort", tg.short[a.seat]))
    tg.say_list(t("termThisTrick"), parts or [t("termNothingYet")])
    played = game.played()
    deck = game.variant.deck.cards
    facts = [t("termNCards", played.bit_count())]
    for key, rank in (("termTwosOut", TWO), ("termAcesOut", ACE), ("termJokersOut", 13)):
        of = (RANK_MASKS[rank] & deck).bit_count()
        if of:
            out = cards_of(played & RANK_MASKS[rank])
            named = (render.cards(render.hand_order(out, game.rules, False)) if out
                     else t("termNone"))
            facts.append(t(key, named, len(out), of))
    tg.say_list(t("termPlayedSoFar"), facts)


def show_scores(tg: Console, game: Game) -> None:
    """The deal's end in about a dozen lines (so the winning plays stay on an
    80x24 screen): who went out, a line a seat with its cards left, the deal's
    score, the match total and the cards it still holds, then why each seat
    scored what it did."""
    outcome = game.outcome()
    assert outcome is not None
    if game.instant_result:  # a dealt hand ended the deal before any play
        tg.say("\n" + t("termInstantWin", game.instant_result, tg.names[outcome.winner]))
    else:
        tg.say("\n" + t("termWentOutFirst", tg.names[outcome.winner]))
    names = max(width(n) for n in tg.short)

    def right(key: str, columns: int) -> str:
        return " " * max(0, columns - width(t(key))) + t(key)

    head = (" " * names + "  " + right("termScoreLeft", 4) + "  " + right("termScoreDeal", 5)
            + "  " + right("termScoreTotal", 5) + "  ")
    tg.say(head + t("termScoreHeld"))
    limit = render.width() - 1 - width(head)
    for s, name in enumerate(tg.short):
        left = game.hands[s]
        order = render.hand_order(cards_of(left), game.rules, False)
        lines = render.wrap([render.card(c) for c in order], "", limit, sep=" ") or ["-"]
        tg.say(f"{pad(name, names)}  {left.bit_count():4d}  {outcome.scores[s]:+5d}"
               f"  {tg.match.totals[s]:+5d}  {lines[0]}")
        for rest in lines[1:]:
            tg.say(" " * width(head) + rest)
    tg.say(t("termWhyHead"))
    rows = explain(game)
    teams = game.variant.teams and len(rows) == 4
    if game.variant.teams:
        tg.say("  " + house.team_result(tg, game))
    for line in rows:
        side = None
        if teams:  # the cards left on each side decide the score
            held = [rows[s].left + rows[(s + 2) % 4].left for s in range(4)]
            side = (held[line.seat], held[(line.seat + 1) % 4])
        text = t("termScoreWhy", tg.short[line.seat], f"{line.points:+d}", score_why(line, side))
        for part in wrap(text, render.width() - 3, indent="    "):
            tg.say("  " + part)


def score_why(line: ScoreLine, side: tuple[int, int] | None = None) -> str:
    """Why *line*'s seat scored what it did, in the browser's words (the catalogue's
    ``s…`` rows, put together as the result panel's ``scoreWhy`` does): ``10 cards left ·
    counted ×2: 10 or more of the 13 cards still in hand · doubled for holding a 2``.
    Under teams *side* is the cards left on the seat's side and on the other.

    >>> from big2.scoring import ScoreLine
    >>> score_why(ScoreLine(seat=1, left=10, points=-40, per_card=2, twos=1))
    '10 cards left · counted ×2: 10 or more of the 13 cards still in hand · doubled for holding a 2'
    """
    left = (t("sWentOut") if line.left == 0 else t("sOneCard") if line.left == 1
            else t("sCards", line.left))
    if side is not None:
        return " · ".join([left, t("sTeams", *side)])
    if line.adjusted:
        return t("sAdjusted", line.adjusted.replace("-", " "))
    if line.method == "ranking":
        return t("sPlace", (line.place or 0) + 1)
    if line.collects:
        return t("sCollects", " + ".join(str(c) for c in line.collects))
    if line.left == 0:
        return left
    parts = [left]
    if line.per_card == 3:
        parts.append(t("sWhole", line.whole))
    elif line.per_card == 2:
        parts.append(t("sMost", math.ceil(line.whole * 0.7), line.whole))
    if line.method == "count" and line.twos:
        parts.append(t("sTwosCount", line.twos))
    if line.method == "classic":  # repeated doublings said once: "×8 three 2s held"
        if line.twos:
            parts.append(t("sTwo") if line.twos == 1 else t("sTwos", 2 ** line.twos, line.twos))
        if line.bombs:
            parts.append(t("sBomb") if line.bombs == 1
                         else t("sBombs", 2 ** line.bombs, line.bombs))
        if line.winning_play:
            parts.append(t("sOnTwo" if line.winning_play == "two" else "sOnBomb"))
    return " · ".join(parts)
