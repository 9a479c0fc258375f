"""Scoring a finished deal: the four methods and the one finishing order.

All scores are "higher is better": a loser's payment or penalty is negative.
The classic thresholds count the cards left in hand against the deal's whole
hand (:attr:`big2.variant.deck.Deck.per_seat`: 13, or 17 with three players),
whatever one seat was dealt: the holder of a spare 18th card left with 12
pays ×2, with 17 ×3 (RULES.md §1).

>>> from big2.rules import Rules
>>> from big2.variant import variant
>>> from big2.cards import parse_cards as p
>>> s = variant(Rules(players=3)).scorer
>>> s.multiplier(12), s.multiplier(11), s.multiplier(17)
(2, 1, 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from big2.cards import DECK_SIZE, FULL_DECK, RANK_MASKS, TWO, Mask, cards_of, rank_of
from big2.rules import Rules
from big2.variant.engine import Engine
from big2.variant.keys import StrengthKeys
from big2.variant.kinds import FOURS, Kind

_NATURAL = FULL_DECK  # the 52 card names of the first deck


class Scorer:
    """A rule set's scoring (see the module docstring)."""

    def __init__(self, rules: Rules, engine: Engine, keys: StrengthKeys, per_seat: int,
                 after: tuple[tuple[int, ...], ...]) -> None:
        self.method = rules.scoring
        self.twos_each = rules.twos_double == "each"
        self.count_twos = rules.count_twos_double
        self.per_seat = per_seat
        self.engine = engine
        self.after = after
        self.first_out_ends = rules.scoring != "ranking" or rules.teams
        """The deal ends when the first player goes out (all but ranking scoring;
        teams end at the first out whatever the scoring)."""
        self._sequences = [(smask, ranks) for smask, ranks, _ in keys.straight_list]

    def multiplier(self, left: int) -> int:
        """Points per card for *left* cards in hand: ×3 for a whole hand, ×2 from
        70% of it (10 of 13, 12 of 17), else ×1."""
        whole = self.per_seat
        if left >= whole:
            return 3
        if left >= math.ceil(whole * 0.7):
            return 2
        return 1

    def finishing_order(self, finished: Sequence[int], hands: Sequence[Mask]) -> list[int]:
        """Seats from first out to last: those who went out in order, then the rest
        by fewest cards left, ties in turn order after the first out."""
        order = list(finished)
        start = order[0] if order else 0
        turn = [start, *self.after[start][:-1]]
        rest = sorted((s for s in turn if s not in order),
                      key=lambda s: (int(hands[s]).bit_count(), turn.index(s)))
        return order + rest

    def doubling_count(self, hand: Mask) -> int:
        """How many times a loser's figure doubles for what *hand* still holds:
        each 2 (or once for any), and each four of a kind or straight flush held
        whole, a card counting in at most one of those (the most disjoint ones)."""
        twos = (hand & RANK_MASKS[TWO]).bit_count()
        n = twos if self.twos_each else min(twos, 1)
        return n + self.bombs_held(hand)

    def bombs_held(self, hand: Mask) -> int:
        """The largest number of disjoint fours of a kind and five-card straight
        flushes in *hand* (copies of a card are distinct cards)."""
        names = (hand | hand >> DECK_SIZE) & _NATURAL  # each card name held
        flushes = []
        if names.bit_count() >= 5:
            suit_ranks = [0, 0, 0, 0]
            while names:
                low = names & -names
                c = low.bit_length() - 1
                suit_ranks[c & 3] |= 1 << (c >> 2)
                names ^= low
            for s, ranks in enumerate(suit_ranks):
                if ranks.bit_count() >= 5:
                    flushes += [(s, seq) for smask, seq in self._sequences
                                if ranks & smask == smask]
        if not flushes:  # most hands: the fours alone
            return sum((hand & RANK_MASKS[r]).bit_count() // 4 for r in range(13))
        counts = [0] * 52
        for c in cards_of(hand):
            b = c % DECK_SIZE
            if b < 52:
                counts[b] += 1

        def best(i: int) -> int:
            fours = sum(sum(counts[r * 4: r * 4 + 4]) // 4 for r in range(13))
            top = fours
            for j in range(i, len(flushes)):
                s, ranks = flushes[j]
                if all(counts[r * 4 + s] for r in ranks):
                    for r in ranks:
                        counts[r * 4 + s] -= 1
                    top = max(top, 1 + best(j))
                    for r in ranks:
                        counts[r * 4 + s] += 1
            return top

        return best(0)

    def winning_play_doubles(self, last_play: Mask) -> bool:
        """Whether going out with *last_play* doubles every loser once (a 2, a pair
        of 2s, four of a kind, five of a kind, or a straight flush)."""
        combo = self.engine.classify(last_play)
        if combo is None:
            return False
        if combo.kind in (Kind.SINGLE, Kind.PAIR) and all(
                rank_of(c % DECK_SIZE) == TWO for c in cards_of(last_play)):
            return True
        return combo.kind in FOURS or combo.kind == Kind.STRAIGHT_FLUSH

    def score(self, hands_left: Sequence[Mask], winner: int, last_play: Mask,
              finished: Sequence[int] = ()) -> tuple[int, ...]:
        """Each seat's score for a finished deal (see :func:`big2.scoring.score`)."""
        n = len(hands_left)
        hands = [int(h) for h in hands_left]
        if self.method == "ranking":
            order = self.finishing_order(list(finished) or [winner], hands)
            return tuple(n - 1 - order.index(s) for s in range(n))
        pay = [0] * n
        classic = self.method == "classic"
        double_all = classic and self.winning_play_doubles(last_play)
        for seat, hand in enumerate(hands):
            if seat == winner:
                continue
            left = hand.bit_count()
            if self.method == "count":
                figure = left + ((hand & RANK_MASKS[TWO]).bit_count() if self.count_twos else 0)
            else:
                figure = left * self.multiplier(left)
                if classic:
                    figure <<= self.doubling_count(hand) + (1 if double_all else 0)
            pay[seat] = figure
        if self.method == "penalty":
            return tuple(-p for p in pay)
        total = sum(pay)
        return tuple(total if s == winner else -pay[s] for s in range(n))
