"""The table-driven play engine for one 52-card deck.

Each rule set compiles once into a :class:`TableEngine`: per rank and suit
nibble the singles, pairs, triples and fours already encoded and sorted, the
straight sequences, the flush keys. A hand's plays are then concatenations
of table entries (:meth:`TableEngine.hand_plays`), and with no comparison
house rule on, the plays that beat a given play are a slice found by
bisection.

>>> from big2.rules import Rules
>>> from big2.cards import parse_cards
>>> eng = TableEngine(Rules())
>>> str(eng.classify(int(parse_cards("5D 6C 7H 8S 9D"))))
'straight 5♦ 6♣ 7♥ 8♠ 9♦'
>>> len(eng.hand_plays(int(parse_cards("3D 3S 4H"))).leads())
4
"""

from __future__ import annotations

import bisect
from itertools import combinations

from big2.cards import BB_SUITS, FULL_DECK, Mask
from big2.rules import Rules
from big2.variant.compare import Comparator
from big2.variant.generate import fives, long_leads, smacks, two_pairs
from big2.variant.handplays import EMPTY, HAND_CACHE, HandPlays
from big2.variant.keys import KIND_SHIFT, PLAY_MASK, PLAY_SHIFT, StrengthKeys
from big2.variant.kinds import TOP_RUN_RANK, Combo, Kind

_S = PLAY_SHIFT


def _nibbles(mask: Mask) -> list[int]:
    return [(mask >> (4 * r)) & 15 for r in range(13)]


class TableEngine:
    """A one-deck rule set compiled into lookup tables (see the module docstring)."""

    def __init__(self, rules: Rules, keys: StrengthKeys | None = None,
                 compare: Comparator | None = None) -> None:
        self.rules = rules
        k = self.keys = keys or StrengthKeys(rules)
        self.compare = compare or Comparator(rules)
        self.suited = k.suited
        self.suit_rank = k.suit_rank
        self.strength = k.strength
        self.five_kinds = k.five_kinds
        self.straight_list = k.straight_list
        self.deck_cards: Mask = FULL_DECK
        self.by_strength = tuple(sorted(range(52), key=k.strength.__getitem__))
        self.triples = rules.triples
        self.two_pairs = rules.two_pairs
        self.four_alone = rules.four_of_a_kind_alone
        self.four_kicker = rules.four_kicker
        self.five_trips = rules.five_trips
        self.five_two_pairs = rules.five_two_pairs
        self.same_kind = rules.five_card_compare == "same-kind"
        self.smack = self.compare.smack
        self.dragon = rules.dragon
        self.straight_lengths = frozenset(
            n for n in (*range(rules.straight_min, 5), *range(6, rules.straight_max + 1)))
        self.extra = self.smack or bool(self.straight_lengths) or self.dragon
        """Plays other than the classic sizes exist (long or short straights, smack-downs)."""
        self.plain = self.compare.plain
        """No house rule changes comparisons: follows are a bisection."""
        self.bisect_follows = self.plain and not self.same_kind
        """Follows are the plays of the last one's size above it (the game bisects)."""
        sr = k.suit_rank
        self._groups: list[list[list[list[int]]]] = [
            [[[] for _ in range(16)] for _ in range(13)] for _ in range(5)]
        for r in range(13):
            for nib in range(16):
                suits = [s for s in range(4) if nib >> s & 1]
                for size in (1, 2, 3, 4):
                    out = self._groups[size][r][nib]
                    for sub in combinations(suits, size):
                        mask = sum(1 << (4 * r + s) for s in sub)
                        key = k.card_key(r, max(sr[s] for s in sub)) if size <= 2 else r
                        if size == 4:
                            key |= k.kind_base[Kind.FOUR_OF_A_KIND]
                        out.append(key << _S | mask)
                    out.sort()
        self._singles_by_nib = [[tuple(1 << (4 * r + s) for s in range(4) if nib >> s & 1)
                                 for nib in range(16)] for r in range(13)]
        self._cache: dict[Mask, HandPlays] = {}
        self._classified: dict[Mask, Combo | None] = {}

    # -- classification --------------------------------------------------------

    def classify(self, mask: Mask) -> Combo | None:
        """The combination *mask* forms under these rules, or ``None``."""
        try:
            return self._classified[mask]
        except KeyError:
            pass
        if len(self._classified) > 200_000:
            self._classified.clear()
        combo = self._classified[mask] = self._classify_new(mask)
        return combo

    def _classify_new(self, mask: Mask) -> Combo | None:
        """:meth:`classify` of a mask not in its cache (the work it caches)."""
        n = mask.bit_count()
        if n == 0 or mask < 0 or mask > FULL_DECK:
            return None
        if n > 5:
            return self._classify_extra(mask, n) if self.extra else None
        combo = self._classify(mask, n)
        if combo is None and self.extra and n in (3, 4):
            combo = self._classify_extra(mask, n)
        return combo

    def as_played(self, mask: Mask, last: Combo | None) -> Combo | None:
        """The combination *mask* makes played on *last* (one reading with one deck)."""
        return self.classify(mask)

    def leadable(self, combo: Combo) -> bool:
        """Whether *combo* may open a trick."""
        return self.compare.leadable(combo)

    def beats(self, a: Combo, b: Combo) -> bool:
        """Whether *a* may be played on *b*."""
        return self.compare.beats(a, b)

    def _classify_extra(self, mask: Mask, n: int) -> Combo | None:
        """Short and long straights, the dragon, runs of pairs, smack-down fours."""
        k = self.keys
        nibs = _nibbles(mask)
        present = [r for r in range(13) if nibs[r]]
        top = present[-1]
        if len(present) == n:
            pos = self.suit_rank[nibs[top].bit_length() - 1]
            if n == 13 and self.dragon:
                return Combo(Kind.DRAGON, mask, k.long(13, pos if self.suited else 0))
            if n in self.straight_lengths and top - present[0] == n - 1 and top <= TOP_RUN_RANK:
                return Combo(Kind.STRAIGHT, mask, k.long(n, k.card_key(top, pos)))
            return None
        if not self.smack:
            return None
        if n == 4 and len(present) == 1:
            return Combo(Kind.FOUR_OF_A_KIND, mask, k.kind_base[Kind.FOUR_OF_A_KIND] | top)
        if (n >= 6 and len(present) * 2 == n and all(nibs[r].bit_count() == 2 for r in present)
                and top - present[0] == len(present) - 1 and top <= TOP_RUN_RANK):
            return Combo(Kind.PAIR_RUN, mask, k.long(n, k.card_key(top, k.top_pos[nibs[top]])))
        return None

    def _classify(self, mask: Mask, n: int) -> Combo | None:
        k = self.keys
        nibs = _nibbles(mask)
        present = [r for r in range(13) if nibs[r]]
        if n <= 4 and len(present) == 1:
            kind = (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.FOUR_OF_A_KIND)[n - 1]
            if (kind == Kind.TRIPLE and not self.triples) or (
                    kind == Kind.FOUR_OF_A_KIND and not self.four_alone):
                return None
            r = present[0]
            enc = next(e for e in self._groups[n][r][nibs[r]] if e & PLAY_MASK == mask)
            return Combo(kind, mask, enc >> _S)
        counts = sorted((nibs[r].bit_count() for r in present), reverse=True)
        if n == 4:
            if counts == [2, 2] and self.two_pairs:
                hi = present[-1]
                return Combo(Kind.TWO_PAIRS, mask, k.card_key(hi, k.top_pos[nibs[hi]]))
            return None
        if n != 5:
            return None
        top = k.top_strength(mask) if k.top_card else 0
        if len(present) == 5:
            rmask = sum(1 << r for r in present)
            suit_full = any(mask & BB_SUITS[s] == mask for s in range(4))
            seq = k.straights.get(rmask)
            if seq is not None:
                kind = Kind.STRAIGHT_FLUSH if suit_full else Kind.STRAIGHT
                idx, decide = seq
                pos = self.suit_rank[nibs[decide].bit_length() - 1]
                return Combo(kind, mask, k.five(kind, k.seq_key(idx, pos), top))
            if suit_full:
                pos = self.suit_rank[(mask.bit_length() - 1) & 3]
                key = k.flush_key(k.flush_rank_key[rmask], pos)
                return Combo(Kind.FLUSH, mask, k.five(Kind.FLUSH, key, top))
            return None
        if counts == [4, 1] and self.four_kicker:
            quad = next(r for r in present if nibs[r] == 15)
            return Combo(Kind.FOUR_KICKER, mask, k.five(Kind.FOUR_KICKER, quad, top))
        if counts == [3, 2] or (counts == [3, 1, 1] and self.five_trips):
            kind = Kind.FULL_HOUSE if counts == [3, 2] else Kind.FIVE_TRIPS
            trip = next(r for r in present if nibs[r].bit_count() == 3)
            return Combo(kind, mask, k.five(kind, trip, top))
        if counts == [2, 2, 1] and self.five_two_pairs != "no":
            pairs = [r for r in present if nibs[r].bit_count() == 2]
            if self.five_two_pairs == "sisters" and pairs[1] - pairs[0] != 1:
                return None
            hi = pairs[-1]
            key = k.card_key(hi, k.top_pos[nibs[hi]])
            return Combo(Kind.FIVE_TWO_PAIRS, mask, k.five(Kind.FIVE_TWO_PAIRS, key, top))
        return None

    # -- listing ---------------------------------------------------------------

    def hand_plays(self, hand: Mask) -> HandPlays:
        """Every play of *hand* (cached per hand; do not change the result)."""
        got = self._cache.get(hand)
        if got is None:
            if len(self._cache) > HAND_CACHE:
                self._cache.clear()
            got = self._cache[hand] = self._generate(hand)
        return got

    def leads(self, hand: Mask) -> list[Mask]:
        """Every play of *hand* on a free lead."""
        return self.hand_plays(hand).leads()

    def follows(self, hand: Mask, last: Combo) -> list[Mask]:
        """The plays of *hand* that may be played on *last* (no pass)."""
        return self.follows_from(self.hand_plays(hand), last)

    def follows_from(self, plays: HandPlays, last: Combo) -> list[Mask]:
        """The plays in *plays* that may be played on *last*."""
        groups = plays.groups
        if not self.plain:
            classify = self.classify
            beats = self.compare.beats
            return [p & PLAY_MASK for group in groups[1:] for p in group
                    if beats(classify(p & PLAY_MASK), last)]  # type: ignore[arg-type]
        size = last.cards.bit_count()
        if size > 5:
            return []
        group = groups[size]
        if not group:
            return []
        lo = bisect.bisect_right(group, (last.power << _S) | PLAY_MASK)
        hi = len(group)
        if size == 5 and self.same_kind:
            nxt = (self.keys.kind_base[last.kind] + (1 << KIND_SHIFT)) << _S
            hi = bisect.bisect_left(group, nxt, lo)
        return [p & PLAY_MASK for p in group[lo:hi]]

    def after(self, plays: HandPlays, cards: Mask, hand: Mask) -> HandPlays:
        """The plays left once *cards* are gone: a hand's plays are exactly its
        superset's plays that use none of the removed cards, so filtering does it."""
        _, g1, g2, g3, g4, g5, g6, g7 = plays.groups
        return HandPlays((EMPTY, [p for p in g1 if not p & cards],
                          [p for p in g2 if not p & cards] if g2 else g2,
                          [p for p in g3 if not p & cards] if g3 else g3,
                          [p for p in g4 if not p & cards] if g4 else g4,
                          [p for p in g5 if not p & cards] if g5 else g5,
                          [p for p in g6 if not p & cards] if g6 else g6,
                          [p for p in g7 if not p & cards] if g7 else g7), self)

    def play_key(self, mask: Mask) -> Mask:
        """Two masks are the same listed play when their keys are equal (one deck: the mask)."""
        return mask

    def _generate(self, hand: Mask) -> HandPlays:
        g1, g2, g3, g4 = self._groups[1], self._groups[2], self._groups[3], self._groups[4]
        singles: list[int] = []
        pairs: list[int] = []
        triples: list[int] = []
        quads: list[int] = []
        nibs = [0] * 13
        rmask = 0
        for r in range(13):
            nib = (hand >> (4 * r)) & 15
            if nib:
                nibs[r] = nib
                rmask |= 1 << r
                singles += g1[r][nib]
                if nib & (nib - 1):
                    pairs += g2[r][nib]
                    if nib.bit_count() >= 3:
                        triples += g3[r][nib]
                        if nib == 15:
                            quads += g4[r][nib]
        fours: list[int] = list(quads) if self.four_alone else []
        if self.two_pairs and len(pairs) > 1:
            fours += two_pairs(pairs)
            fours.sort()
        five = fives(self, hand, nibs, rmask, pairs, triples, quads) if hand.bit_count() >= 5 \
            else EMPTY
        long = long_leads(self, nibs, rmask) if self.straight_lengths or self.dragon else EMPTY
        smack = smacks(self, nibs, quads) if self.smack else EMPTY
        return HandPlays((EMPTY, singles, pairs, triples if self.triples else EMPTY, fours, five,
                          long, smack), self)
