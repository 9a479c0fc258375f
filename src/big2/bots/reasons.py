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

from big2.bots.control import beaten_by_unseen
from big2.bots.planning import plan
from big2.cards import BB_RANKS, CARD_SYMBOLS, FULL_DECK, RANKS, TWO, Mask, cards_of
from big2.combos import engine
from big2.variant import Engine, kind_name, variant
from big2.view import PlayerView

_GROUP = {2: "pair", 3: "triple", 4: "four"}


def _cards(view: PlayerView, mask: Mask) -> str:
    rules = view.rules
    return " ".join(CARD_SYMBOLS[c] for c in sorted(cards_of(mask), key=rules.strength))


def describe(view: PlayerView, play: Mask) -> str:
    """``pair 7♣ 7♠``, or ``pass``."""
    if not play:
        return "pass"
    return f"{kind_name(play, view.rules)} {_cards(view, play)}"


def _unseen(view: PlayerView) -> Mask:
    return FULL_DECK & ~int(view.hand) & ~int(view.played) & ~int(view.spare)


def _broken(view: PlayerView, play: Mask) -> str | None:
    """``a pair of 7s`` when *play* takes some, not all, of a rank the hand holds
    two or more of (and is not itself a five-card hand, which uses what it needs)."""
    if not play or play.bit_count() >= 5:
        return None
    hand = int(view.hand)
    for r in range(13):
        held = (hand & BB_RANKS[r]).bit_count()
        used = (play & BB_RANKS[r]).bit_count()
        if used and held >= 2 and used < held:
            return f"a {_GROUP.get(held, 'group')} of {RANKS[r].replace('T', '10')}s"
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


def why_play(view: PlayerView, play: Mask) -> str | None:
    """Why *play* is a good play now (the terminal's hint), in a few words."""
    hand = int(view.hand)
    if play and play == hand:
        return "it goes out"
    eng = engine(view.rules)
    if not play:
        twos = _twos(hand)
        if twos and any(p & twos for p in view.legal if p):
            return f"keeps the {_cards(view, twos & -twos)} for control"
        planned = set(plan(eng, hand).combos)
        if not any(p in planned for p in view.legal if p):
            return "every play that beats the table breaks up your hand"
        return None
    threat = _threat(view)
    legal_plays = [p for p in view.legal if p]
    if threat and not view.leading and legal_plays and play == legal_plays[-1]:
        seat, left = threat
        return f"blocks {_name(view, seat)}, who holds {left} card{'s' * (left > 1)}"
    if not beaten_by_unseen(eng, play, _unseen(view)):
        return "nobody can beat it: you keep the lead"
    parts = plan(eng, hand).combos
    if play in parts:
        rest = len(parts) - 1
        lead = "leads" if view.leading else "plays"
        return (f"{lead} the weakest part of your hand's plan ({rest} more play"
                f"{'s' * (rest != 1)} to go out)" if view.leading else
                f"{lead} a part of your hand's plan ({rest} more play{'s' * (rest != 1)} "
                "to go out)")
    broken = _broken(view, play)
    return f"the cheapest way to beat the table, though it breaks {broken}" if broken else None


def why_better(view: PlayerView, best: Mask, made: Mask,
               alternatives: Sequence[Mask] = ()) -> str | None:
    """Why *best* beats *made* for the seat of *view*, from facts of the two
    plays; ``None`` when none tells them apart. *alternatives* is unused but
    kept for callers that pass the other candidates."""
    if best == made:
        return None
    hand = int(view.hand)
    eng = engine(view.rules)
    unseen = _unseen(view)
    if best and best == hand:
        return f"{describe(view, best)} goes out at once"
    nxt = _next_on_one(view)
    if nxt is not None and best and made.bit_count() == 1 and (
            best.bit_count() != 1 or _top(eng, best) > _top(eng, made)):
        return (f"{_name(view, nxt)}, next to play, holds one card: the single "
                f"{_cards(view, made)} may let them go out"
                + ("" if best.bit_count() != 1 else f" where {_cards(view, best)} stops them"))
    if not made:
        if not beaten_by_unseen(eng, best, unseen):
            return f"passes with a winning play in hand ({describe(view, best)})"
        threat = _threat(view)
        if threat:
            seat, left = threat
            return (f"passes while {_name(view, seat)} holds {left} "
                    f"card{'s' * (left > 1)}")
        return f"passes where {describe(view, best)} was better"
    spent = _twos(made) & ~_twos(best)
    if spent:
        return f"spends the {_cards(view, spent)}: the better play keeps it for control"
    broken = _broken(view, made)
    if broken and not _broken(view, best):
        return f"breaks {broken}"
    if not best:
        return "the better play is to pass and keep the hand whole"
    if best.bit_count() > made.bit_count():
        return f"sheds {made.bit_count()} card{'s' * (made.bit_count() > 1)} where " \
               f"{describe(view, best)} sheds {best.bit_count()}"
    if best and not beaten_by_unseen(eng, best, unseen) and beaten_by_unseen(eng, made, unseen):
        return f"{describe(view, best)} cannot be beaten: it wins the trick"
    threat = _threat(view)
    if threat and not view.leading and _top(eng, best) > _top(eng, made):
        seat, left = threat
        return (f"too weak to stop {_name(view, seat)}, who holds {left} "
                f"card{'s' * (left > 1)}")
    if (best.bit_count() == made.bit_count()
            and _top(eng, made) > _top(eng, best)):
        return f"spends {describe(view, made)} where {describe(view, best)} does"
    return None


__all__ = ["describe", "why_better", "why_play"]
