"""One sentence of why, from simple facts of plays: for the terminal's hint
(:func:`why_play`) and the game review (:func:`why_better`).

The sentences are read off the plays and the hand, not off the search: a play
that goes out, a pass that keeps a 2, a single that breaks a pair, a pass with
a play nobody can beat in hand, a seat about to go out. ``None`` when no such
fact tells the plays apart.

>>> from big2 import Game, Rules
>>> from big2.cards import parse_cards
>>> g = Game(Rules(), hands=["3D 7C 7S 2S", "4D 9D", "5D 9H", "6D 9S"], leader=0)
>>> why_better(g.view(0), int(parse_cards("3D")), int(parse_cards("3D 7C")))
'breaks a pair of 7s'
>>> why_play(g.view(0), int(parse_cards("3D")))
"leads the weakest part of your hand's plan (2 more plays to go out)"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self

from big2.bots.rules_based.control import beaten_by_unseen
from big2.bots.rules_based.planning import plan
from big2.cards import (
    BB_RANKS,
    CARD_NAMES,
    CARD_SYMBOLS,
    RANKS,
    TWO,
    Mask,
    cards_of,
    parse_cards,
)
from big2.combos import engine
from big2.i18n import catalogue, current, kind_label, reason, t
from big2.rules import Rules
from big2.variant import Engine, kind_name, variant
from big2.view import PlayerView

_GROUP = {2: "pair", 3: "triple", 4: "four"}


class Why(str):
    """A sentence of why, in English, that also carries a ``key`` and ``args``
    for a front end to say it in another language (the browser's review and
    hint, the terminal's): cards as card names (``"7C 7S"``), a play as
    ``{"cards", "kind"}`` (a :class:`~big2.variant.Kind` name), a broken group as
    ``{"group", "rank"}``, seat names and counts as they are. The sentences, English
    too, are the ``whys`` rows of the one catalogue (:func:`big2.i18n.reason`)."""

    key: str
    args: dict[str, Any]

    def __new__(cls, text: str, key: str, **args: Any) -> Self:
        out = super().__new__(cls, text)
        out.key, out.args = key, args
        return out

    def __getnewargs_ex__(self) -> tuple[tuple[str, str], dict[str, Any]]:
        return (str(self), self.key), dict(self.args)  # pickles whole (process pools)

    def data(self) -> dict[str, Any]:
        """``{"key": …, "args": {…}, "text": the English sentence}``, JSON-friendly."""
        return {"key": self.key, "args": dict(self.args), "text": str(self)}

    def said(self, rules: Rules | None = None) -> str:
        """The sentence in the language spoken now (:func:`big2.i18n.current`): in
        English itself, in Chinese the catalogue's row for :attr:`key` with a play
        named by its kind in that language and its cards as the terminal shows them
        (``單張 2♠``; by strength under *rules*, else in the order sent).

        >>> from big2 import Game, Rules
        >>> from big2.cards import parse_cards
        >>> from big2.i18n import language
        >>> g = Game(Rules(), hands=["3D 7C 7S 2S", "4D 9D", "5D 9H", "6D 9S"], leader=0)
        >>> why = why_better(g.view(0), int(parse_cards("2S")), 0)
        >>> why.said()
        'passes with a winning play in hand (single 2♠)'
        >>> with language("zh-Hant"):
        ...     why.said()
        '手上有沒人壓得過的牌（單張 2♠）卻不出'
        """
        if current() == "en" or self.key not in catalogue()["whys"]:
            return str(self)

        def cards(names: str) -> str:
            shown = cards_of(_mask(names))
            if rules is not None:
                shown = sorted(shown, key=rules.strength)
            return " ".join(CARD_SYMBOLS[c] for c in shown)

        def play(value: Mapping[str, str]) -> str:
            if not value.get("cards"):
                return t("termPass")
            label = kind_label(value.get("kind", ""))
            return f"{label} {cards(value['cards'])}" if label else cards(value["cards"])

        return reason(self.key, self.args, play=play, cards=cards)


def _mask(names: str) -> Mask:
    """Card names (``"7C 7S"``, as a :class:`Why` carries them) as a mask."""
    return int(parse_cards(names)) if names else 0


def _why(view: PlayerView, key: str, **args: Any) -> Why:
    """The :class:`Why` *key* with *args*, its English filled in from the catalogue:
    plays as :func:`describe` says them, cards by strength under the view's rules."""
    text = reason(key, args, lang="en", play=lambda p: describe(view, _mask(p["cards"])),
                  cards=lambda names: _cards(view, _mask(names)))
    return Why(text, key, **args)


def _names_of(mask: Mask) -> str:
    return " ".join(CARD_NAMES[c] for c in cards_of(mask))


def _play(view: PlayerView, mask: Mask) -> dict[str, str]:
    """A play as a :class:`Why` argument: its cards and its kind's name."""
    combo = engine(view.rules).classify(mask) if mask else None
    return {"cards": _names_of(mask), "kind": combo.kind.name if combo is not None else ""}


def _cards(view: PlayerView, mask: Mask) -> str:
    rules = view.rules
    return " ".join(CARD_SYMBOLS[c] for c in sorted(cards_of(mask), key=rules.strength))


def describe(view: PlayerView, play: Mask) -> str:
    """``pair 7♣ 7♠``, or ``pass``."""
    if not play:
        return "pass"
    return f"{kind_name(play, view.rules)} {_cards(view, play)}"


def _broken(view: PlayerView, play: Mask) -> dict[str, str] | None:
    """``{"group": "pair", "rank": "7"}`` (said ``a pair of 7s``) when *play* takes
    some, not all, of a rank the hand holds two or more of (and is not itself a
    five-card hand, which uses what it needs)."""
    if not play or play.bit_count() >= 5:
        return None
    hand = int(view.hand)
    for r in range(13):
        held = (hand & BB_RANKS[r]).bit_count()
        used = (play & BB_RANKS[r]).bit_count()
        if used and held >= 2 and used < held:
            return {"group": _GROUP.get(held, "group"), "rank": RANKS[r].replace("T", "10")}
    return None


def _top(eng: Engine, mask: Mask) -> int:
    """The strength of *mask*'s strongest card."""
    return max(eng.strength[c] for c in cards_of(mask))


def _twos(mask: Mask) -> Mask:
    return mask & BB_RANKS[TWO]


def _threat(view: PlayerView) -> tuple[int, int] | None:
    """The other seat with the fewest cards, and its count, when it holds 2 or fewer."""
    counts = [(c, s) for s, c in enumerate(view.card_counts) if s != view.seat and c]
    if not counts:
        return None
    c, s = min(counts)
    return (s, c) if c <= 2 else None


def _next_on_one(view: PlayerView) -> int | None:
    """The next seat to act after this one (in the direction of play, skipping
    seats out of cards or out of the trick) when it holds one card."""
    for s in variant(view.rules).turns.after[view.seat][:-1]:
        if not view.card_counts[s] or (view.passed[s] and not view.leading):
            continue
        return s if view.card_counts[s] == 1 else None
    return None


def _name(view: PlayerView, seat: int) -> str:
    return view.names[seat] if seat < len(view.names) and view.names[seat] else f"S{seat}"


def why_play(view: PlayerView, play: Mask) -> Why | None:
    """Why *play* is a good play now (the hint), in a few words; ``None`` under
    jokers or two decks (the facts are read for one 52-card deck)."""
    if view.rules.extended_deck:
        return None
    hand = int(view.hand)
    if play and play == hand:
        return _why(view, "goesOut")
    eng = engine(view.rules)
    if not play:
        twos = _twos(hand)
        if twos and any(p & twos for p in view.legal if p):
            two = twos & -twos
            return _why(view, "keepsTwo", cards=_names_of(two))
        planned = set(plan(eng, hand).combos)
        if not any(p in planned for p in view.legal if p):
            return _why(view, "allBreak")
        return None
    threat = _threat(view)
    legal_plays = [p for p in view.legal if p]
    if threat and not view.leading and legal_plays and play == legal_plays[-1]:
        seat, left = threat
        name = _name(view, seat)
        return _why(view, "blocks", name=name, left=left)
    if not beaten_by_unseen(eng, play, int(view.unseen)):
        return _why(view, "keepsLead")
    parts = plan(eng, hand).combos
    if play in parts:
        rest = len(parts) - 1
        if view.leading:
            return _why(view, "leadsPlan", rest=rest)
        return _why(view, "playsPlan", rest=rest)
    broken = _broken(view, play)
    if broken is None:
        return None
    return _why(view, "cheapestBreaks", **broken)


def why_better(view: PlayerView, best: Mask, made: Mask,
               alternatives: Sequence[Mask] = ()) -> Why | None:
    """Why *best* beats *made* for the seat of *view*, from facts of the two
    plays; ``None`` when none tells them apart. *alternatives* is unused but
    kept for callers that pass the other candidates. ``None`` under jokers or
    two decks, as :func:`why_play`."""
    if best == made or view.rules.extended_deck:
        return None
    hand = int(view.hand)
    eng = engine(view.rules)
    unseen = int(view.unseen)
    b, m = _play(view, best), _play(view, made)
    if best and best == hand:
        return _why(view, "bestGoesOut", best=b)
    nxt = _next_on_one(view)
    if nxt is not None and best and made.bit_count() == 1 and (
            best.bit_count() != 1 or _top(eng, best) > _top(eng, made)):
        name = _name(view, nxt)
        if best.bit_count() != 1:
            return _why(view, "nextOnOne", name=name, made=m)
        return _why(view, "nextOnOneStop", name=name, made=m, best=b)
    if not made:
        if not beaten_by_unseen(eng, best, unseen):
            return _why(view, "passWinning", best=b)
        threat = _threat(view)
        if threat:
            seat, left = threat
            name = _name(view, seat)
            return _why(view, "passThreat", name=name, left=left)
        return _why(view, "passWorse", best=b)
    spent = _twos(made) & ~_twos(best)
    if spent:
        return _why(view, "spendsTwo", cards=_names_of(spent))
    broken = _broken(view, made)
    if broken and not _broken(view, best):
        return _why(view, "breaks", **broken)
    if not best:
        return _why(view, "passBetter")
    if best.bit_count() > made.bit_count():
        return _why(view, "sheds", n=made.bit_count(), best=b, k=best.bit_count())
    if best and not beaten_by_unseen(eng, best, unseen) and beaten_by_unseen(eng, made, unseen):
        return _why(view, "unbeatable", best=b)
    threat = _threat(view)
    if threat and not view.leading and _top(eng, best) > _top(eng, made):
        seat, left = threat
        name = _name(view, seat)
        return _why(view, "tooWeak", name=name, left=left)
    if (best.bit_count() == made.bit_count()
            and _top(eng, made) > _top(eng, best)):
        return _why(view, "spends", made=m, best=b)
    return None


__all__ = ["Why", "describe", "why_better", "why_play"]
