"""What the terminal game tells between plays: the trick so far and the high
cards out (``t``), and a finished deal's scores with the reasons for them
(:func:`big2.scoring.explain`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from big2.cards import ACE, RANK_MASKS, TWO, cards_of
from big2.i18n import t, width
from big2.scoring import explain
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
    if game.variant.teams:
        tg.say("  " + house.team_result(tg, game))
    for line in explain(game):
        tg.say_list("", line.describe(tg.short[line.seat]).split(", "), joiner=",",
                    first="  ", indent="      ")
