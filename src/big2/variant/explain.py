"""Why a deal scored what it did: each seat's cards left, multipliers and
doublings, worked out by the same rules as :meth:`Scorer.score
<big2.variant.scorer.Scorer.score>` (tests check the two agree on random
deals), for the terminal, the browser and records to explain a result.

>>> from big2.rules import Rules
>>> from big2.variant import variant
>>> from big2.cards import parse_cards as p
>>> s = variant(Rules()).scorer
>>> hands = [0, p("4D 5D 6D"), p("3H 4H 5H 6H 7H 9C 9D JS QS"), p("2C 4S 5S 6C 8C 8D TC KD")]
>>> lines = explain_score(s, hands, winner=0, last_play=p("2S"))
>>> [line.points for line in lines]
[74, -6, -36, -32]
>>> print(lines[2].describe("West"))
West -36: 9 cards, doubled for a four of a kind or straight flush held, doubled for going out on a 2
>>> print(lines[0].describe("North"))
North +74: went out first and collects 6 + 36 + 32
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from big2.cards import DECK_SIZE, RANK_MASKS, TWO, Mask, cards_of, rank_of
from big2.rules import Scoring

if TYPE_CHECKING:
    from big2.variant.scorer import Scorer

__all__ = ["ScoreLine", "explain_score"]


@dataclass(frozen=True)
class ScoreLine:
    """One seat's part of a deal's score and the reasons for it.

    For a loser under ``classic`` scoring the payment is ``left × per_card``
    doubled ``twos + bombs + winning_play`` times; under ``count`` it is
    ``left`` plus ``twos`` (each 2 held counts twice when
    ``count_twos_double`` is on); under ``penalty`` it is ``left × per_card``.
    The first out collects the others' payments (``penalty``: scores 0).
    Under ``ranking`` scoring, ``place`` is the finishing place (0 = first)."""

    seat: int
    left: int
    """Cards left in hand when the deal ended."""
    points: int
    """The seat's score for the deal (higher is better)."""
    per_card: int = 1
    """Points per card: 3 for a whole hand, 2 from 70% of it, else 1."""
    whole: int = 13
    """The deal's whole hand, against which ``per_card`` counts (13, or 17 with three)."""
    twos: int = 0
    """2s that doubled the payment (classic) or were counted twice (count)."""
    bombs: int = 0
    """Fours of a kind and straight flushes held whole, each doubling (classic)."""
    winning_play: Literal["", "two", "bomb"] = ""
    """Doubled because the winner went out on a 2 or a pair of 2s (``"two"``), or on
    four of a kind, five of a kind or a straight flush (``"bomb"``); classic only."""
    collects: tuple[int, ...] = ()
    """For the first out: the payment taken from each other seat, in seat order."""
    place: int | None = None
    """Under ranking scoring: 0 for the first out, 1 for the second, …"""
    method: Scoring = "classic"
    """The rule set's ``scoring`` option."""
    adjusted: str = ""
    """Set when a house rule changed the scores (teams, a penalty, an instant
    win…): how the deal ended; ``points`` is then the final score."""

    @property
    def doublings(self) -> int:
        """How many times the payment was doubled."""
        return self.twos * (self.method == "classic") + self.bombs + int(bool(self.winning_play))

    def describe(self, name: str | None = None) -> str:
        """The line in English, e.g. ``"Bob -40: 10 cards ×2 (10 or more of 13)"``."""
        who = name if name is not None else f"Seat {self.seat}"
        head = f"{who} {self.points:+d}"
        if self.adjusted:
            return f"{head} ({self.adjusted.replace('-', ' ')})"
        if self.method == "ranking":
            return f"{head}: {_ordinal(self.place or 0)} out"
        if self.collects:
            parts = " + ".join(str(c) for c in self.collects)
            return f"{head}: went out first and collects {parts}"
        if self.left == 0:
            return f"{head}: went out"
        text = f"{head}: {self.left} card{'s' * (self.left != 1)}"
        if self.per_card == 3:
            text += f" ×3 (the whole hand of {self.whole})"
        elif self.per_card == 2:
            text += f" ×2 ({-(-self.whole * 7 // 10)} or more of {self.whole})"
        reasons = []
        if self.method == "count" and self.twos:
            reasons.append(f"+{self.twos} for 2s held")
        if self.method == "classic":
            if self.twos:
                reasons.append("doubled for a 2 held" if self.twos == 1 else
                               f"doubled {_times(self.twos)} for {self.twos} 2s held")
            if self.bombs:
                reasons.append("doubled for a four of a kind or straight flush held"
                               if self.bombs == 1 else f"doubled {_times(self.bombs)} for "
                               f"{self.bombs} fours of a kind or straight flushes held")
            if self.winning_play:
                reasons.append("doubled for going out on a " + (
                    "2" if self.winning_play == "two" else "bomb"))
        return ", ".join([text, *reasons])


def _times(n: int) -> str:
    return "twice" if n == 2 else f"{n} times"


def _ordinal(place: int) -> str:
    n = place + 1
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


def explain_score(scorer: Scorer, hands_left: Sequence[Mask], winner: int, last_play: Mask,
                  finished: Sequence[int] = ()) -> tuple[ScoreLine, ...]:
    """Each seat's :class:`ScoreLine` for a finished deal; the points equal
    ``scorer.score(hands_left, winner, last_play, finished)``."""
    n = len(hands_left)
    hands = [int(h) for h in hands_left]
    method = scorer.method
    whole = scorer.per_seat
    if method == "ranking":
        order = scorer.finishing_order(list(finished) or [winner], hands)
        return tuple(ScoreLine(s, hands[s].bit_count(), n - 1 - order.index(s), whole=whole,
                               place=order.index(s), method=method) for s in range(n))
    classic = method == "classic"
    double_all = classic and scorer.winning_play_doubles(last_play)
    on: Literal["", "two", "bomb"] = ""
    if double_all:
        on = "two" if all(rank_of(c % DECK_SIZE) == TWO for c in cards_of(last_play)) else "bomb"
    losers: dict[int, ScoreLine] = {}
    for seat, hand in enumerate(hands):
        if seat == winner:
            continue
        left = hand.bit_count()
        twos_held = (hand & RANK_MASKS[TWO]).bit_count()
        if method == "count":
            twos = twos_held if scorer.count_twos else 0
            losers[seat] = ScoreLine(seat, left, -(left + twos), whole=whole, twos=twos,
                                     method=method)
            continue
        per_card = scorer.multiplier(left)
        figure = left * per_card
        twos = bombs = 0
        if classic:
            twos = twos_held if scorer.twos_each else min(twos_held, 1)
            bombs = scorer.bombs_held(hand)
            figure <<= twos + bombs + int(double_all)
        losers[seat] = ScoreLine(seat, left, -figure, per_card=per_card, whole=whole, twos=twos,
                                 bombs=bombs, winning_play=on if left else "", method=method)
    pays = tuple(-losers[s].points for s in range(n) if s != winner)
    top = 0 if method == "penalty" else sum(pays)
    first = ScoreLine(winner, hands[winner].bit_count(), top, whole=whole,
                      collects=pays if method != "penalty" else (), method=method)
    return tuple(first if s == winner else losers[s] for s in range(n))
