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
from big2.i18n import said, t, width
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
        notes.append(t("termTeamsNote", tg.short[2], tg.short[1], tg.short[3]))
    if v.announces_last_card:
        notes.append(t("termLastCardNote"))
    if v.house_rule(WeakHandRedeal) is not None:
        notes.append(t("termRedealNote"))
    if v.house_rule(SpareSwap) is not None:
        notes.append(t("termSpareSwapNote"))
    if v.plan.exchange:
        notes.append(t("termExchangeNote"))
    for note in notes:
        tg.say("  " + note)


def team_result(tg: Console, game: Game) -> str:
    """Under ``teams``: the cards each side holds and who wins by how many."""
    left = [h.bit_count() for h in game.hands]
    ours, theirs = left[0] + left[2], left[1] + left[3]
    verdict = (t("termTeamTie") if ours == theirs else
               t("termTeamOursWin", theirs - ours) if ours < theirs else
               t("termTeamTheirsWin", ours - theirs))
    return t("termTeamResult", tg.short[2], ours, tg.short[1], tg.short[3], theirs, verdict)


def partner_tag(game: Game, seat: int) -> str:
    """`` (partner)`` after your partner's name under ``teams``, else empty."""
    return t("termPartnerTag") if game.variant.teams and seat == 2 else ""


def _yes_no(tg: Console, question: str) -> bool | None:
    """Ask a yes/no question (Enter: no); ``None`` to quit."""
    while True:
        answer = tg.ask(t("termYesNo", question))
        if answer is None or answer.lower() in parse.QUIT:
            return None
        if answer.lower() in parse.YES:
            return True
        if answer.lower() in parse.NO:
            return False
        tg.say(t("termAnswerYesNo"))


def title(name: str) -> str:
    """A President-form title (``President`` … ``Scum``) in the current language."""
    return t("title_" + name)


def _hand(tg: Console, game: Game) -> str:
    return render.cards(render.hand_order(cards_of(game.hands[0]), game.rules, tg.by_suit))


def offer_before_play(tg: Console, game: Game) -> bool:
    """Before the first play: the spare card, the swap and the throw-in, when
    the rules offer them to you. ``False`` if you quit."""
    while game.can_throw_in(0):
        tg.say(t("termYourHand", _hand(tg, game)))
        answer = _yes_no(tg, t("termThrowInAsk", hand_points(game.hands[0])))
        if answer is None:
            return False
        if not answer:
            break
        game.throw_in(0)
        tg.say("  " + t("termThrownIn"))
    spare = int(game.spare)
    if spare:
        tg.say(t("termSpareUp", render.cards(cards_of(spare))))
    if game.can_swap_spare(0):
        low = game.variant.deck.lowest(game.initial_hands)
        tg.say(t("termYourHand", _hand(tg, game)))
        answer = _yes_no(tg, t("termSwapAsk", render.cards(cards_of(low)),
                               render.cards(cards_of(spare))))
        if answer is None:
            return False
        if answer:
            game.swap_spare(0)
            tg.say("  " + t("termSwapped", render.cards(cards_of(low)),
                            render.cards(cards_of(spare))))
    return True


def show_exchanges(tg: Console) -> None:
    """The titles of the last deal and the cards that changed hands (``exchange``)."""
    match = tg.match
    if not match.titles:
        return
    tg.say(t("termTitles", " · ".join(f"{tg.short[s]} {title(name)}"
                                       for s, name in enumerate(match.titles))))
    for ex in match.exchanges:
        key = "termYouGive" if tg.verb(ex.giver, "give") == "give" else "termSeatGives"
        tg.say("  " + t(key, tg.short[ex.giver], title(match.titles[ex.giver]),
                        tg.short[ex.receiver], title(match.titles[ex.receiver]),
                        render.cards(cards_of(ex.cards))))


def gift_chooser(tg: Console) -> Chooser:
    """The chooser :meth:`Match.new_game` asks for the cards a high title gives
    back: you choose yours, the bots give their lowest."""
    rules = tg.match.rules

    def choose(seat: int, hand: Mask, count: int) -> Mask:
        default = lowest_cards(seat, hand, count, rules=rules)
        if seat != 0 or tg.quit:
            return default
        titles = tg.match.titles
        mine = titles[0]
        low = "Scum" if mine == "President" else "Vice-Scum"
        to = tg.short[titles.index(low)] if low in titles else t("termOtherSide")
        when = t("termAsDealt" if tg.match.plan.exchange_from_dealt else "termAfterReceiving")
        order = render.hand_order(cards_of(hand), rules, tg.by_suit)
        tg.say(t("termChooseGiftOne" if count == 1 else "termChooseGift", title(mine), to,
                 title(low), count))
        head = t("termHandWhen", when)
        lines = render.wrap([render.card(c) for c in order], "",
                            render.width() - width(head) - 1, sep=" ")
        for i, line in enumerate(lines):
            tg.say(f"{head if i == 0 else ' ' * width(head)} {line}")
        while True:
            answer = tg.ask(t("termGiftAsk", render.cards(cards_of(default))))
            if answer is None or answer.lower() in parse.QUIT:
                tg.quit = True
                return default
            if not answer:
                return default
            try:
                named = int(parse_cards(parse.spaced(answer), tg.match.variant.deck.decks))
            except InvalidCardError as exc:
                tg.say(t("termNotAllowed", said(exc)))
                continue
            cards = match_copies(named, hand)  # two decks: the copy you hold
            if cards is None or cards.bit_count() != count:
                tg.say(t("termGiveOwnOne") if count == 1 else t("termGiveOwn", count))
                continue
            return cards

    return choose
