"""What the terminal game tells between plays: the trick so far and the high
cards out (``t``), and a finished deal's scores with the reasons for them
(:func:`big2.scoring.explain`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from big2.cards import ACE, RANK_MASKS, TWO, cards_of
from big2.scoring import explain
from big2.terminal import house, listing, render

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
            parts.append(f"{tg.short[a.seat]} pass")
    tg.say_list("This trick:", parts or ["nothing played yet"])
    played = game.played()
    deck = game.variant.deck.cards
    facts = [f"{played.bit_count()} cards"]
    for label, rank in (("2s", TWO), ("aces", ACE), ("jokers", 13)):
        of = (RANK_MASKS[rank] & deck).bit_count()
        if of:
            out = cards_of(played & RANK_MASKS[rank])
            named = render.cards(render.hand_order(out, game.rules, False)) if out else "none"
            facts.append(f"{label} out: {named} ({len(out)} of {of})")
    tg.say_list("Played so far:", facts)


def show_scores(tg: Console, game: Game) -> None:
    """The deal's end in about a dozen lines (so the winning plays stay on an
    80x24 screen): who went out, a line a seat with its cards left, the deal's
    score, the match total and the cards it still holds, then why each seat
    scored what it did."""
    outcome = game.outcome()
    assert outcome is not None
    if game.instant_result:  # a dealt hand ended the deal before any play
        tg.say(f"\nThe deal ended at once on a dealt hand ({game.instant_result}): "
               f"{tg.names[outcome.winner]} first.")
    else:
        tg.say(f"\n{tg.names[outcome.winner]} went out first.")
    width = max(len(n) for n in tg.short)
    head = f"{'':{width}}  left   deal  total  "
    tg.say(f"{head}cards held")
    limit = render.width() - 1 - len(head)
    for s, name in enumerate(tg.short):
        left = game.hands[s]
        order = render.hand_order(cards_of(left), game.rules, False)
        lines = render.wrap([render.card(c) for c in order], "", limit, sep=" ") or ["-"]
        tg.say(f"{name:{width}}  {left.bit_count():4d}  {outcome.scores[s]:+5d}"
               f"  {tg.match.totals[s]:+5d}  {lines[0]}")
        for rest in lines[1:]:
            tg.say(" " * len(head) + rest)
    tg.say("Why:")
    if game.variant.teams:
        tg.say("  " + house.team_result(tg, game))
    for line in explain(game):
        tg.say_list("", line.describe(tg.short[line.seat]).split(", "), joiner=",",
                    first="  ", indent="      ")
