"""The house rules' choices at the terminal: throwing in a weak hand
(``redeal=weak``), the face-up spare and its swap (``spare_swap``), the
President titles and the cards you give back (``exchange``), your partner
(``teams``). Bots make none of these choices: they keep their hands and give
back their lowest cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from big2.cards import InvalidCardError, Mask, cards_of, match_copies, parse_cards
from big2.house.redeal import WeakHandRedeal, hand_points
from big2.house.spare import SpareSwap
from big2.i18n import t
from big2.match import Chooser, lowest_cards
from big2.terminal import parse, render

if TYPE_CHECKING:
    from big2.game import Game
    from big2.terminal.console import Console


def introduce(tg: Console) -> None:
    """The lines under the header: opponents, and the house rules that ask you things."""
    v = tg.match.variant
    kinds = {b.name for b in tg.bots}
    if len(kinds) == 1:
        tg.say(f"{t('termOpponents')} {t('termListComma').join(tg.short[1:])} ({kinds.pop()})")
    else:
        tg.say_list(t("termOpponents"), [f"{n}," for n in tg.names[1:-1]] + tg.names[-1:],
                    joiner="")
    notes = []
    if v.teams:
        notes.append(f"teams: you and {tg.short[2]} (opposite) against "
                     f"{tg.short[1]} and {tg.short[3]}")
    if v.announces_last_card:
        notes.append("last_card: type l when you are down to one card")
    if v.house_rule(WeakHandRedeal) is not None:
        notes.append("redeal=weak: a hand worth 3 points or less may be thrown in")
    if v.house_rule(SpareSwap) is not None:
        notes.append("spare_swap: the lowest card's holder may take the face-up spare")
    if v.plan.exchange:
        notes.append("exchange: titles after each deal, and cards change hands before the next")
    for note in notes:
        tg.say("  " + note)


def team_result(tg: Console, game: Game) -> str:
    """Under ``teams``: the cards each side holds and who wins by how many."""
    left = [h.bit_count() for h in game.hands]
    ours, theirs = left[0] + left[2], left[1] + left[3]
    verdict = ("a tie: a five-card shoot-out decides it" if ours == theirs else
               f"your side wins by {theirs - ours}" if ours < theirs else
               f"their side wins by {ours - theirs}")
    return (f"Teams: you and {tg.short[2]} hold {ours} cards, {tg.short[1]} and "
            f"{tg.short[3]} {theirs}: {verdict}.")


def partner_tag(game: Game, seat: int) -> str:
    """`` (partner)`` after your partner's name under ``teams``, else empty."""
    return " (partner)" if game.variant.teams and seat == 2 else ""


def _yes_no(tg: Console, question: str) -> bool | None:
    """Ask a yes/no question (Enter: no); ``None`` to quit."""
    while True:
        answer = tg.ask(question + " [y/N] ")
        if answer is None or answer.lower() in parse.QUIT:
            return None
        if answer.lower() in parse.YES:
            return True
        if answer.lower() in parse.NO:
            return False
        tg.say("Answer y or n (Enter: n).")


def _hand(tg: Console, game: Game) -> str:
    return render.cards(render.hand_order(cards_of(game.hands[0]), game.rules, tg.by_suit))


def offer_before_play(tg: Console, game: Game) -> bool:
    """Before the first play: the spare card, the swap and the throw-in, when
    the rules offer them to you. ``False`` if you quit."""
    while game.can_throw_in(0):
        tg.say(f"Your hand: {_hand(tg, game)}")
        answer = _yes_no(tg, f"It is worth {hand_points(game.hands[0])} points "
                             "(J1 Q2 K3 A4 2=5): throw it in for a new deal?")
        if answer is None:
            return False
        if not answer:
            break
        game.throw_in(0)
        tg.say("  You throw in your hand: the cards are dealt again.")
    spare = int(game.spare)
    if spare:
        tg.say(f"Spare card, face up in the middle: {render.cards(cards_of(spare))}")
    if game.can_swap_spare(0):
        low = game.variant.deck.lowest(game.initial_hands)
        tg.say(f"Your hand: {_hand(tg, game)}")
        answer = _yes_no(tg, f"You hold the lowest card, {render.cards(cards_of(low))}: "
                             f"swap it for the spare {render.cards(cards_of(spare))}?")
        if answer is None:
            return False
        if answer:
            game.swap_spare(0)
            tg.say(f"  You swap {render.cards(cards_of(low))} for "
                   f"{render.cards(cards_of(spare))}.")
    return True


def show_exchanges(tg: Console) -> None:
    """The titles of the last deal and the cards that changed hands (``exchange``)."""
    match = tg.match
    if not match.titles:
        return
    tg.say("Titles: " + " · ".join(f"{tg.short[s]} {t}" for s, t in enumerate(match.titles)))
    for ex in match.exchanges:
        tg.say(f"  {tg.short[ex.giver]} ({match.titles[ex.giver]}) "
               f"{tg.verb(ex.giver, 'give')} {tg.short[ex.receiver]} "
               f"({match.titles[ex.receiver]}): {render.cards(cards_of(ex.cards))}")


def gift_chooser(tg: Console) -> Chooser:
    """The chooser :meth:`Match.new_game` asks for the cards a high title gives
    back: you choose yours, the bots give their lowest."""
    rules = tg.match.rules

    def choose(seat: int, hand: Mask, count: int) -> Mask:
        default = lowest_cards(seat, hand, count, rules=rules)
        if seat != 0 or tg.quit:
            return default
        titles = tg.match.titles
        title = titles[0]
        low = "Scum" if title == "President" else "Vice-Scum"
        to = tg.short[titles.index(low)] if low in titles else "the other side"
        when = "as dealt" if tg.match.plan.exchange_from_dealt else "after receiving"
        order = render.hand_order(cards_of(hand), rules, tg.by_suit)
        tg.say(f"You are {title}: choose {count} card{'s' * (count > 1)} to give {to} ({low}).")
        head = f"Your hand ({when}):"
        lines = render.wrap([render.card(c) for c in order], "", render.width() - len(head) - 1,
                            sep=" ")
        for i, line in enumerate(lines):
            tg.say(f"{head if i == 0 else ' ' * len(head)} {line}")
        while True:
            answer = tg.ask(f"Cards to give (Enter: {render.cards(cards_of(default))}): ")
            if answer is None or answer.lower() in parse.QUIT:
                tg.quit = True
                return default
            if not answer:
                return default
            try:
                named = int(parse_cards(parse.spaced(answer), tg.match.variant.deck.decks))
            except InvalidCardError as exc:
                tg.say(f"Not allowed: {exc}")
                continue
            cards = match_copies(named, hand)  # two decks: the copy you hold
            if cards is None or cards.bit_count() != count:
                tg.say(f"Give {count} card{'s' * (count > 1)} of your own hand.")
                continue
            return cards

    return choose
