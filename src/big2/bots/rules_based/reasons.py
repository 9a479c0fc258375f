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

from collections.abc import Sequence
from typing import Any, Self

from big2.bots.rules_based.control import beaten_by_unseen
from big2.bots.rules_based.planning import plan
from big2.cards import BB_RANKS, CARD_NAMES, CARD_SYMBOLS, RANKS, TWO, Mask, cards_of
from big2.combos import engine
from big2.variant import Engine, kind_name, variant
from big2.view import PlayerView

_GROUP = {2: "pair", 3: "triple", 4: "four"}


class Why(str):
    """A sentence of why, in English, that also carries a ``key`` and ``args``
    for a front end to say it in another language (the browser's review and
    hint): cards as card names (``"7C 7S"``), a play as ``{"cards", "kind"}``
    (a :class:`~big2.variant.Kind` name), a broken group as ``{"group", "rank"}``,
    seat names and counts as they are."""

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


def _broken(view: PlayerView, play: Mask) -> tuple[str, dict[str, str]] | None:
    """``a pair of 7s`` (and ``{"group": "pair", "rank": "7"}``) when *play* takes
    some, not all, of a rank the hand holds two or more of (and is not itself a
    five-card hand, which uses what it needs)."""
    if not play or play.bit_count() >= 5:
        return None
    hand = int(view.hand)
    for r in range(13):
        held = (hand & BB_RANKS[r]).bit_count()
        used = (play & BB_RANKS[r]).bit_count()
        if used and held >= 2 and used < held:
            group, rank = _GROUP.get(held, "group"), RANKS[r].replace("T", "10")
            return f"a {group} of {rank}s", {"group": group, "rank": rank}
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


def _s(n: int) -> str:
    return "s" * (n != 1)


def why_play(view: PlayerView, play: Mask) -> Why | None:
    """Why *play* is a good play now (the hint), in a few words; ``None`` under
    jokers or two decks (the facts are read for one 52-card deck)."""
    if view.rules.extended_deck:
        return None
    hand = int(view.hand)
    if play and play == hand:
        return Why("it goes out", "goesOut")
    eng = engine(view.rules)
    if not play:
        twos = _twos(hand)
        if twos and any(p & twos for p in view.legal if p):
            two = twos & -twos
            return Why(f"keeps the {_cards(view, two)} for control", "keepsTwo",
                       cards=_names_of(two))
        planned = set(plan(eng, hand).combos)
        if not any(p in planned for p in view.legal if p):
            return Why("every play that beats the table breaks up your hand", "allBreak")
        return None
    threat = _threat(view)
    legal_plays = [p for p in view.legal if p]
    if threat and not view.leading and legal_plays and play == legal_plays[-1]:
        seat, left = threat
        name = _name(view, seat)
        return Why(f"blocks {name}, who holds {left} card{_s(left)}", "blocks",
                   name=name, left=left)
    if not beaten_by_unseen(eng, play, int(view.unseen)):
        return Why("nobody can beat it: you keep the lead", "keepsLead")
    parts = plan(eng, hand).combos
    if play in parts:
        rest = len(parts) - 1
        if view.leading:
            return Why(f"leads the weakest part of your hand's plan ({rest} more play{_s(rest)} "
                       "to go out)", "leadsPlan", rest=rest)
        return Why(f"plays a part of your hand's plan ({rest} more play{_s(rest)} to go out)",
                   "playsPlan", rest=rest)
    broken = _broken(view, play)
    if broken is None:
        return None
    return Why(f"the cheapest way to beat the table, though it breaks {broken[0]}",
               "cheapestBreaks", **broken[1])


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
        return Why(f"{describe(view, best)} goes out at once", "bestGoesOut", best=b)
    nxt = _next_on_one(view)
    if nxt is not None and best and made.bit_count() == 1 and (
            best.bit_count() != 1 or _top(eng, best) > _top(eng, made)):
        name = _name(view, nxt)
        text = (f"{name}, next to play, holds one card: the single {_cards(view, made)} "
                "may let them go out")
        if best.bit_count() != 1:
            return Why(text, "nextOnOne", name=name, made=m)
        return Why(f"{text} where {_cards(view, best)} stops them", "nextOnOneStop",
                   name=name, made=m, best=b)
    if not made:
        if not beaten_by_unseen(eng, best, unseen):
            return Why(f"passes with a winning play in hand ({describe(view, best)})",
                       "passWinning", best=b)
        threat = _threat(view)
        if threat:
            seat, left = threat
            name = _name(view, seat)
            return Why(f"passes while {name} holds {left} card{_s(left)}", "passThreat",
                       name=name, left=left)
        return Why(f"passes where {describe(view, best)} was better", "passWorse", best=b)
    spent = _twos(made) & ~_twos(best)
    if spent:
        return Why(f"spends the {_cards(view, spent)}: the better play keeps it for control",
                   "spendsTwo", cards=_names_of(spent))
    broken = _broken(view, made)
    if broken and not _broken(view, best):
        return Why(f"breaks {broken[0]}", "breaks", **broken[1])
    if not best:
        return Why("the better play is to pass and keep the hand whole", "passBetter")
    if best.bit_count() > made.bit_count():
        n, k = made.bit_count(), best.bit_count()
        return Why(f"sheds {n} card{_s(n)} where {describe(view, best)} sheds {k}", "sheds",
                   n=n, best=b, k=k)
    if best and not beaten_by_unseen(eng, best, unseen) and beaten_by_unseen(eng, made, unseen):
        return Why(f"{describe(view, best)} cannot be beaten: it wins the trick", "unbeatable",
                   best=b)
    threat = _threat(view)
    if threat and not view.leading and _top(eng, best) > _top(eng, made):
        seat, left = threat
        name = _name(view, seat)
        return Why(f"too weak to stop {name}, who holds {left} card{_s(left)}", "tooWeak",
                   name=name, left=left)
    if (best.bit_count() == made.bit_count()
            and _top(eng, made) > _top(eng, best)):
        return Why(f"spends {describe(view, made)} where {describe(view, best)} does", "spends",
                   made=m, best=b)
    return None


__all__ = ["Why", "describe", "why_better", "why_play"]
