"""The terminal game's commands that answer questions: the hint (``a``), the
last-card call (``l``) and quitting with the totals shown (``q``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from big2.bots.rules_based.reasons import why_play
from big2.i18n import t
from big2.terminal import listing, parse

if TYPE_CHECKING:
    from big2.bots import Bot
    from big2.game import Game
    from big2.terminal.console import Console


def totals(tg: Console) -> str:
    """The match totals so far, a seat each: ``You +0 · Bot 1 -5 …``."""
    return " · ".join(f"{tg.short[s]} {pts:+d}" for s, pts in enumerate(tg.match.totals))


def totals_line(tg: Console) -> str:
    """``Match totals after 2 deals: You +10 · Bot 1 -5 …``."""
    done = len(tg.match.results)
    return (t("termTotalsAfterOne", totals(tg)) if done == 1
            else t("termTotalsAfter", done, totals(tg)))


def match_result(tg: Console) -> str:
    """``Match over. Winner: You with +36.``, or, when the best total is shared,
    ``Match over. Tied for first: You and Bot 2 with +36.``"""
    first = tg.match.leaders()
    total = tg.match.totals[first[0]]
    if len(first) == 1:
        return t("termWinner", tg.names[first[0]], f"{total:+d}")
    names = [tg.short[s] for s in first]
    return t("termTiedFirst", t("termListComma").join(names[:-1]), names[-1], f"{total:+d}")


def confirm_quit(tg: Console) -> bool:
    """Show the totals and ask before quitting; ``True`` to quit (end of input quits)."""
    tg.say(totals_line(tg))
    answer = tg.ask(t("termQuitAsk"))
    return answer is None or answer.lower() in parse.YES | parse.QUIT


def hint(tg: Console, game: Game, bot: Bot, name: str = "") -> None:
    """What *bot* would play in your seat, and why where a simple fact says it;
    from a search bot (:class:`~big2.bots.SearchBot`), with the expected points
    of its play and of the next best. *name* says which bot answers (``heuristic
    bot``, ``expert: guided-search, 2,000 play-outs``: the bot that really runs,
    not only its level); the lines fit the terminal."""
    from big2.bots import SearchBot

    view = game.view(0)
    values = ""
    if isinstance(bot, SearchBot) and not game.rules.extended_deck:
        rows = bot.analyse(view)
        play = rows[0][0]
        best = t("termHintNextBest", _shown(game, rows[1][0]), f"{rows[1][2]:+.1f}") \
            if len(rows) > 1 else ""
        values = t("termHintValues", f"{rows[0][2]:+.1f}", best)
    else:
        play = bot.choose(view)
    why = why_play(view, play)
    text = t("termHintHead", name or bot.name + " bot", _shown(game, play)) + values
    text += t("hintWhy", why.said(game.rules)) if why else ""
    tg.say_list("", text.split(" "), joiner="", indent="  ")  # wrapped to the terminal


def _shown(game: Game, play: int) -> str:
    if not play:
        return t("termPass")
    shown = listing.describe(game, play)
    return f"{shown.label} {listing.show(shown)}"


def last_card(tg: Console, game: Game) -> None:
    """Announce your last card, or say what ``l`` is for and why not now."""
    if not game.variant.announces_last_card:
        tg.say(t("termLastCardOff"))
        return
    if game.can_call_last_card(0):
        game.call_last_card(0)
        tg.say("  " + t("termYouCallLast", t("termStepYou")))
        return
    held = game.hands[0].bit_count()
    if held == 1:
        tg.say(t("termLastCardAlready"))
    else:
        tg.say(t("termLastCardNotYet", held))
