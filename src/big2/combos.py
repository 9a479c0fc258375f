"""Combinations: what a set of cards is as a play, and which plays beat which.

Each :class:`Rules` compiles once into an :class:`Engine` holding its tables
(card strengths, straight sequences, per-rank combination lists). A
combination's strength within its group of comparable plays is one ``int``,
its *power*, so "does *a* beat *b*" is an integer comparison and the plays of
a hand that beat a given play are a slice of a sorted list (found by
bisection). Plays are encoded as ``power << 52 | mask`` in those lists.

>>> from big2.cards import parse_cards
>>> c = classify(parse_cards("5D 6C 7H 8S 9D"))
>>> c.kind.name, str(c)
('STRAIGHT', 'straight 5♦ 6♣ 7♥ 8♠ 9♦')
>>> beats(parse_cards("KS KC"), parse_cards("KH KD"))
True
>>> classify(parse_cards("3D 4D")) is None
True
"""

from __future__ import annotations

import bisect
from enum import IntEnum
from functools import lru_cache
from itertools import combinations, product
from typing import NamedTuple

from big2.cards import (
    BB_RANKS,
    BB_SUITS,
    CARD_SYMBOLS,
    DECK_SIZE,
    FULL_DECK,
    RANK_MASKS,
    RANKS,
    TWO,
    Mask,
    cards_of,
    ordered,
)
from big2.rules import Rules

_SHIFT = 52
_KIND_SHIFT = 36


class Kind(IntEnum):
    """Kinds of play. Five-card kinds are listed weakest first (default order)."""

    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    TWO_PAIRS = 4  # four-card
    FOUR_OF_A_KIND = 5  # four-card, alone
    FIVE_TWO_PAIRS = 6  # two pairs + odd card ("butterfly" or "sisters")
    FIVE_TRIPS = 7  # three of a kind + two odd cards
    STRAIGHT = 8
    FLUSH = 9
    FULL_HOUSE = 10
    FOUR_KICKER = 11  # four of a kind + one card
    STRAIGHT_FLUSH = 12
    PAIR_RUN = 13  # three or more consecutive pairs (smack-down only)
    DRAGON = 14  # 3 up to 2, thirteen cards
    FIVE_OF_A_KIND = 15  # two decks or wild jokers

    @property
    def label(self) -> str:
        """How players name the kind."""
        return _KIND_LABELS[self]


_KIND_LABELS = {
    Kind.SINGLE: "single", Kind.PAIR: "pair", Kind.TRIPLE: "triple",
    Kind.TWO_PAIRS: "two pairs", Kind.FOUR_OF_A_KIND: "four of a kind",
    Kind.FIVE_TWO_PAIRS: "two pairs and a card", Kind.FIVE_TRIPS: "three of a kind and two cards",
    Kind.STRAIGHT: "straight", Kind.FLUSH: "flush", Kind.FULL_HOUSE: "full house",
    Kind.FOUR_KICKER: "four of a kind and a card", Kind.STRAIGHT_FLUSH: "straight flush",
    Kind.PAIR_RUN: "run of pairs", Kind.DRAGON: "dragon", Kind.FIVE_OF_A_KIND: "five of a kind",
}
_LONG_SHIFT = 40  # plays of other lengths than the classic ones: size << 40 | key
_TOP_RUN_RANK = 11  # long and short straights and runs of pairs use ranks 3..A

# Straight orders: (sequence of rank characters, deciding rank character), low to high.
_WINDOWS = [RANKS[i : i + 5] for i in range(8)]  # 34567 … TJQKA
STRAIGHT_SEQUENCES: dict[str, tuple[tuple[str, str], ...]] = {
    "hk": (*((w, w[-1]) for w in _WINDOWS), ("23456", "2"), ("A2345", "2")),
    "malaysia": (*((w, w[-1]) for w in _WINDOWS), ("A2345", "2"), ("23456", "2")),
    "indonesia": (*((w, w[-1]) for w in _WINDOWS), ("JQKA2", "2")),
    "pagat": (("A2345", "5"), ("23456", "6"), *((w, w[-1]) for w in _WINDOWS)),
    "ace-low": (("23456", "6"), *((w, w[-1]) for w in _WINDOWS), ("A2345", "A")),
    "ace-top": (("23456", "6"), *((w, w[-1]) for w in _WINDOWS[:7]), ("A2345", "A"),
                ("TJQKA", "A")),
    "vietnam": tuple((w, w[-1]) for w in _WINDOWS),
}
"""Each straight order's sequences, lowest first, with the rank whose suit decides ties."""


class Combo(NamedTuple):
    """A classified play: its kind, cards and power (comparable within its group)."""

    kind: Kind
    cards: Mask
    power: int

    @property
    def size(self) -> int:
        """Number of cards."""
        return self.cards.bit_count()

    def __str__(self) -> str:
        return f"{self.kind.label} " + " ".join(CARD_SYMBOLS[c] for c in ordered(self.cards))


def _nibbles(mask: Mask) -> list[int]:
    return [(mask >> (4 * r)) & 15 for r in range(13)]


class Engine:
    """A rule set compiled into lookup tables; get one with :func:`engine`."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        sr = rules.suit_rank
        self.suited = rules.suit_ranking
        self.suit_rank = sr
        self.strength = tuple((c >> 2) * 4 + sr[c & 3] for c in range(52))
        self._top_pos = tuple(max((sr[s] for s in range(4) if nib >> s & 1), default=0)
                              for nib in range(16))
        """The strongest suit's position among the suits of a rank's nibble."""
        self.by_strength = tuple(sorted(range(52), key=self.strength.__getitem__))
        self.lowest_card = rules.lowest_card
        self.deck_cards: Mask = FULL_DECK
        """Every card of this rule set's deck."""
        self.restrictions = bool(rules.finish_restrictions)
        # house rules that add plays or change what beats what (RULES.md §2)
        self.smack = rules.smack_down != "off"
        self.straight_lengths = frozenset(
            k for k in (*range(rules.straight_min, 5), *range(6, rules.straight_max + 1)))
        self.extra_leads = bool(self.straight_lengths) or rules.dragon
        self.plain = not (self.smack or self.extra_leads or rules.bomb_on_small
                          or rules.four_beats_all or rules.play_equal)
        """True when no house rule of this kind is on: the classic, fast comparisons hold."""
        self._fours = {Kind.FOUR_KICKER} | ({Kind.FOUR_OF_A_KIND} if rules.four_of_a_kind_alone
                                            else set())
        five = self.five_kinds = self._five_kind_order()
        self.kind_base = {k: i << _KIND_SHIFT for i, k in enumerate(five)}
        self.kind_base[Kind.TWO_PAIRS] = 0
        self.kind_base[Kind.FOUR_OF_A_KIND] = 1 << _KIND_SHIFT
        for k in (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE):
            self.kind_base[k] = 0
        # straights: rank-presence mask -> (sequence index, deciding rank)
        self.straights: dict[int, tuple[int, int]] = {}
        self.straight_list: list[tuple[int, tuple[int, ...], int]] = []
        for i, (seq, decide) in enumerate(STRAIGHT_SEQUENCES[rules.straight_order]):
            ranks = tuple(RANKS.index(ch) for ch in seq)
            rmask = sum(1 << r for r in ranks)
            self.straights[rmask] = (i, RANKS.index(decide))
            self.straight_list.append((rmask, ranks, i))
        # per rank and nibble: encoded singles, pairs, triples, quads, sorted by power
        self._groups: list[list[list[list[int]]]] = [
            [[[] for _ in range(16)] for _ in range(13)] for _ in range(5)
        ]
        for r in range(13):
            for nib in range(16):
                suits = [s for s in range(4) if nib >> s & 1]
                for size in (1, 2, 3, 4):
                    out = self._groups[size][r][nib]
                    for sub in combinations(suits, size):
                        mask = sum(1 << (4 * r + s) for s in sub)
                        top = max(sr[s] for s in sub)
                        if size <= 2 and self.suited:
                            key = r * 4 + top
                        else:
                            key = r
                        if size == 4:
                            key |= self.kind_base[Kind.FOUR_OF_A_KIND]
                        out.append(key << _SHIFT | mask)
                    out.sort()
        self._cache: dict[Mask, tuple[list[int], ...]] = {}
        self._classified: dict[Mask, Combo | None] = {}
        # flush keys by the 13-bit set of ranks (exactly five ranks)
        self._flush_rank_key: dict[int, int] = {}
        for ranks in combinations(range(13), 5):
            key = 0
            for r in sorted(ranks, reverse=True):
                key = key * 13 + r
            self._flush_rank_key[sum(1 << r for r in ranks)] = key
        self._singles_by_nib: list[list[tuple[int, ...]]] = [
            [tuple(1 << (4 * r + s) for s in range(4) if nib >> s & 1) for nib in range(16)]
            for r in range(13)
        ]

    def _five_kind_order(self) -> list[Kind]:
        r = self.rules
        order: list[Kind] = []
        if r.five_two_pairs != "no":
            order.append(Kind.FIVE_TWO_PAIRS)
        if r.five_trips:
            order.append(Kind.FIVE_TRIPS)
        order += [Kind.FLUSH, Kind.STRAIGHT] if r.straight_beats_flush else [Kind.STRAIGHT, Kind.FLUSH]
        order.append(Kind.FULL_HOUSE)
        if r.four_kicker:
            order.append(Kind.FOUR_KICKER)
        order.append(Kind.STRAIGHT_FLUSH)
        return order

    # -- powers ------------------------------------------------------------

    def _flush_key(self, mask: Mask) -> int:
        ranks = sorted((c >> 2 for c in cards_of(mask)), reverse=True)
        key = 0
        for r in ranks:
            key = key * 13 + r
        if not self.suited:
            return key
        suit = self.suit_rank[(mask.bit_length() - 1) & 3]
        if self.rules.flush_order == "suit":
            return suit * 13**5 + key
        return key * 4 + suit

    def _five_power(self, kind: Kind, key: int, mask: Mask) -> int:
        if self.rules.five_card_compare == "top-card":
            return max(self.strength[c] for c in cards_of(mask)) if self.suited else (
                max(c >> 2 for c in cards_of(mask)))
        return self.kind_base[kind] | key

    def _seq_key(self, seq_index: int, decide_rank: int, mask: Mask) -> int:
        if not self.suited:
            return seq_index
        suit = ((mask >> (4 * decide_rank)) & 15).bit_length() - 1
        return seq_index * 4 + self.suit_rank[suit]

    # -- classification ------------------------------------------------------

    def classify(self, mask: Mask) -> Combo | None:
        """The combination *mask* forms under these rules, or ``None``."""
        try:
            return self._classified[mask]
        except KeyError:
            pass
        if len(self._classified) > 200_000:
            self._classified.clear()
        combo = self._classified[mask] = (self._classify(mask) if self.plain
                                          else self._classify_house(mask))
        return combo

    def _classify_house(self, mask: Mask) -> Combo | None:
        n = mask.bit_count()
        if n == 0 or mask < 0 or mask > FULL_DECK:
            return None
        if n > 5:
            return self._classify_extra(mask, n)
        combo = self._classify(mask)
        if combo is None and n in (3, 4):
            return self._classify_extra(mask, n)
        return combo

    def _classify_extra(self, mask: Mask, n: int) -> Combo | None:
        """Short and long straights, the dragon, runs of pairs, smack-down fours."""
        nibs = _nibbles(mask)
        present = [r for r in range(13) if nibs[r]]
        top = present[-1]
        suited = self.suited
        if len(present) == n:
            if n == 13 and self.rules.dragon:
                return Combo(Kind.DRAGON, mask, (13 << _LONG_SHIFT)
                             | (self.suit_rank[nibs[top].bit_length() - 1] if suited else 0))
            if n in self.straight_lengths and top - present[0] == n - 1 and top <= _TOP_RUN_RANK:
                key = top * 4 + self.suit_rank[nibs[top].bit_length() - 1] if suited else top
                return Combo(Kind.STRAIGHT, mask, (n << _LONG_SHIFT) | key)
            return None
        if not self.smack:
            return None
        if n == 4 and len(present) == 1:
            return Combo(Kind.FOUR_OF_A_KIND, mask, self.kind_base[Kind.FOUR_OF_A_KIND] | top)
        if (n >= 6 and len(present) * 2 == n and all(nibs[r].bit_count() == 2 for r in present)
                and top - present[0] == len(present) - 1 and top <= _TOP_RUN_RANK):
            key = top * 4 + self._top_pos[nibs[top]] if suited else top
            return Combo(Kind.PAIR_RUN, mask, (n << _LONG_SHIFT) | key)
        return None

    def _classify(self, mask: Mask) -> Combo | None:
        n = mask.bit_count()
        if n == 0 or n > 5 or mask < 0 or mask > FULL_DECK:
            return None
        nibs = _nibbles(mask)
        present = [r for r in range(13) if nibs[r]]
        counts = sorted((nibs[r].bit_count() for r in present), reverse=True)
        if n <= 4 and len(present) == 1:
            kind = (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.FOUR_OF_A_KIND)[n - 1]
            if kind == Kind.TRIPLE and not self.rules.triples:
                return None
            if kind == Kind.FOUR_OF_A_KIND and not self.rules.four_of_a_kind_alone:
                return None
            r = present[0]
            for enc in self._groups[n][r][nibs[r]]:
                if enc & FULL_DECK == mask:
                    return Combo(kind, mask, enc >> _SHIFT)
            raise AssertionError("unreachable")
        if n == 4:
            if counts == [2, 2] and self.rules.two_pairs:
                hi = present[-1]
                key = hi * 4 + self._top_pos[nibs[hi]] if self.suited else hi
                return Combo(Kind.TWO_PAIRS, mask, key)
            return None
        if n != 5:
            return None
        rmask = sum(1 << r for r in present)
        if len(present) == 5:
            suit_full = any(mask & BB_SUITS[s] == mask for s in range(4))
            seq = self.straights.get(rmask)
            if seq is not None:
                kind = Kind.STRAIGHT_FLUSH if suit_full else Kind.STRAIGHT
                return Combo(kind, mask, self._five_power(kind, self._seq_key(*seq, mask), mask))
            if suit_full:
                return Combo(Kind.FLUSH, mask, self._five_power(Kind.FLUSH, self._flush_key(mask), mask))
            return None
        if counts == [4, 1] and self.rules.four_kicker:
            quad = next(r for r in present if nibs[r] == 15)
            return Combo(Kind.FOUR_KICKER, mask, self._five_power(Kind.FOUR_KICKER, quad, mask))
        if counts == [3, 2]:
            trip = next(r for r in present if nibs[r].bit_count() == 3)
            return Combo(Kind.FULL_HOUSE, mask, self._five_power(Kind.FULL_HOUSE, trip, mask))
        if counts == [3, 1, 1] and self.rules.five_trips:
            trip = next(r for r in present if nibs[r].bit_count() == 3)
            return Combo(Kind.FIVE_TRIPS, mask, self._five_power(Kind.FIVE_TRIPS, trip, mask))
        if counts == [2, 2, 1] and self.rules.five_two_pairs != "no":
            pairs = [r for r in present if nibs[r].bit_count() == 2]
            if self.rules.five_two_pairs == "sisters" and not _consecutive(pairs[0], pairs[1]):
                return None
            hi = pairs[-1]
            key = hi * 4 + self._top_pos[nibs[hi]] if self.suited else hi
            return Combo(Kind.FIVE_TWO_PAIRS, mask, self._five_power(Kind.FIVE_TWO_PAIRS, key, mask))
        return None

    def leadable(self, combo: Combo) -> bool:
        """Whether *combo* may open a trick (smack-down-only plays may not)."""
        return not (combo.kind == Kind.PAIR_RUN or (
            combo.kind == Kind.FOUR_OF_A_KIND and not self.rules.four_of_a_kind_alone))

    def beats(self, a: Combo, b: Combo) -> bool:
        """Whether combination *a* may be played on *b*."""
        if not self.plain:
            return self._beats_house(a, b)
        return self._beats_classic(a, b)

    def _beats_house(self, a: Combo, b: Combo) -> bool:
        """:meth:`beats` with the bomb, smack-down and straight-length house rules."""
        rules = self.rules
        if b.kind == Kind.DRAGON:
            return a.kind == Kind.DRAGON and a.power > b.power
        if self.smack and (a.kind == Kind.PAIR_RUN or a.kind == Kind.FOUR_OF_A_KIND):
            if b.size == 1 and b.cards & RANK_MASKS[TWO] and (
                    rules.smack_down == "any-2" or b.cards & _TWO_SPADES):
                return True
            if a.kind == b.kind and a.size == b.size:
                return a.power > b.power  # smack-back
        fours = self._fours
        if rules.four_beats_all:
            if a.kind in fours:
                return b.kind not in fours or self.quad_rank(a) > self.quad_rank(b)
            if b.kind in fours:
                return False
        if rules.bomb_on_small and b.size <= 2 and (
                a.kind in fours or a.kind == Kind.STRAIGHT_FLUSH):
            return True
        if a.size != b.size or not (self.leadable(a) and self.leadable(b)):
            return False
        if a.size != 5 and (a.kind == Kind.STRAIGHT) != (b.kind == Kind.STRAIGHT):
            return False
        return self._beats_classic(a, b)

    def _beats_classic(self, a: Combo, b: Combo) -> bool:
        if a.size != b.size:
            return False
        if a.size == 5 and self.rules.five_card_compare == "same-kind" and a.kind != b.kind:
            return False
        return a.power > b.power or (a.power == b.power and self.rules.play_equal)

    def quad_rank(self, combo: Combo) -> int:
        """The rank of the four of a kind in a four-of-a-kind *combo*."""
        return _quad_rank(combo.cards)

    def as_played(self, mask: Mask, last: Combo | None) -> Combo | None:
        """The combination *mask* makes when played on *last* (``None``: a lead).

        With one deck and no jokers a set of cards has one reading, so this is
        :meth:`classify`; wild jokers may read differently against different plays.
        """
        return self.classify(mask)

    # -- generation ----------------------------------------------------------

    def hand_plays(self, hand: Mask) -> tuple[list[int], ...]:
        """Every play of *hand*, by size (index 1–5), encoded and sorted by power.

        The result is cached per hand and must not be changed by the caller.
        """
        got = self._cache.get(hand)
        if got is not None:
            return got
        if len(self._cache) > 50_000:
            self._cache.clear()
        got = self._cache[hand] = self._generate(hand)
        return got

    def _generate(self, hand: Mask) -> tuple[list[int], ...]:
        rules = self.rules
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
        fours: list[int] = []
        if rules.four_of_a_kind_alone:
            fours += quads
        if rules.two_pairs and len(pairs) > 1:
            fours += self._two_pairs(pairs)
            fours.sort()
        fives = self._fives(hand, nibs, rmask, pairs, triples, quads) if hand.bit_count() >= 5 else []
        if self.plain:
            return ([], singles, pairs, triples if rules.triples else [], fours, fives)
        # house rules: [6] plays of other lengths that may lead, [7] smack-down-only plays
        return ([], singles, pairs, triples if rules.triples else [], fours, fives,
                self._long_leads(nibs, rmask), self._smacks(nibs, quads))

    def _long_leads(self, nibs: list[int], rmask: int) -> list[int]:
        """Short and long straights and the dragon of a hand, encoded and sorted."""
        out: list[int] = []
        sbn = self._singles_by_nib
        sr = self.suit_rank
        suited = self.suited
        for k in sorted(self.straight_lengths):
            for lo in range(_TOP_RUN_RANK - k + 2):
                ranks = range(lo, lo + k)
                if any(not nibs[r] for r in ranks):
                    continue
                top = lo + k - 1
                for combo in product(*[sbn[r][nibs[r]] for r in ranks]):
                    m = sum(combo)
                    key = top * 4 + sr[(combo[-1].bit_length() - 1) & 3] if suited else top
                    out.append(((k << _LONG_SHIFT) | key) << _SHIFT | m)
        if self.rules.dragon and rmask == 0x1FFF:
            for combo in product(*[sbn[r][nibs[r]] for r in range(13)]):
                key = sr[(combo[-1].bit_length() - 1) & 3] if suited else 0
                out.append(((13 << _LONG_SHIFT) | key) << _SHIFT | sum(combo))
        out.sort()
        return out

    def _smacks(self, nibs: list[int], quads: list[int]) -> list[int]:
        """Plays that exist only as smack-downs: four alone (unless it is a play
        anyway) and runs of three or more consecutive pairs."""
        if not self.smack:
            return []
        out = [] if self.rules.four_of_a_kind_alone else list(quads)
        g2 = self._groups[2]
        r = 0
        while r <= _TOP_RUN_RANK:
            if nibs[r].bit_count() < 2:
                r += 1
                continue
            end = r
            while end + 1 <= _TOP_RUN_RANK and nibs[end + 1].bit_count() >= 2:
                end += 1
            for lo in range(r, end - 1):
                for hi in range(lo + 2, end + 1):
                    for combo in product(*[g2[x][nibs[x]] for x in range(lo, hi + 1)]):
                        m = 0
                        for enc in combo:
                            m |= enc & FULL_DECK
                        key = combo[-1] >> _SHIFT  # the top pair's power
                        out.append(((2 * (hi - lo + 1) << _LONG_SHIFT) | key) << _SHIFT | m)
            r = end + 1
        out.sort()
        return out

    def _two_pairs(self, pairs: list[int]) -> list[int]:
        out = []
        for i, hi in enumerate(pairs):
            hr = (hi & FULL_DECK).bit_length() - 1 >> 2
            for lo in pairs[:i]:
                if (lo & FULL_DECK).bit_length() - 1 >> 2 != hr:
                    out.append((hi >> _SHIFT) << _SHIFT | (hi | lo) & FULL_DECK)
        return out

    def _fives(self, hand: Mask, nibs: list[int], rmask: int, pairs: list[int],
               triples: list[int], quads: list[int]) -> list[int]:
        rules = self.rules
        out: list[int] = []
        power = self._five_power
        base = self.kind_base
        suited = self.suited
        sr = self.suit_rank
        top_card = rules.five_card_compare == "top-card"
        # straights and straight flushes
        for smask, ranks, idx in self.straight_list:
            if rmask & smask != smask:
                continue
            decide = self.straights[smask][1]
            sbn = self._singles_by_nib
            for combo in product(*[sbn[r][nibs[r]] for r in ranks]):
                m = combo[0] | combo[1] | combo[2] | combo[3] | combo[4]
                flush = m & BB_SUITS[(combo[0].bit_length() - 1) & 3] == m
                kind = Kind.STRAIGHT_FLUSH if flush else Kind.STRAIGHT
                if top_card:
                    p = power(kind, 0, m)
                else:
                    dsuit = ((m >> (4 * decide)) & 15).bit_length() - 1
                    p = base[kind] | (idx * 4 + sr[dsuit] if suited else idx)
                out.append(p << _SHIFT | m)
        # flushes
        rank_keys = self._flush_rank_key
        flush_base = base[Kind.FLUSH]
        straights = self.straights
        suit_first = rules.flush_order == "suit"
        for s in range(4):
            suit_cards = hand & BB_SUITS[s]
            if suit_cards.bit_count() >= 5:
                sp = sr[s]
                for combo in combinations([r for r in range(13) if suit_cards >> (4 * r + s) & 1], 5):
                    rm = (1 << combo[0]) | (1 << combo[1]) | (1 << combo[2]) | (1 << combo[3]) | (1 << combo[4])
                    if rm in straights:
                        continue
                    m = sum(1 << (4 * r + s) for r in combo)
                    if top_card:
                        p = power(Kind.FLUSH, 0, m)
                    elif not suited:
                        p = flush_base | rank_keys[rm]
                    elif suit_first:
                        p = flush_base | (sp * 13**5 + rank_keys[rm])
                    else:
                        p = flush_base | (rank_keys[rm] * 4 + sp)
                    out.append(p << _SHIFT | m)
        # full houses
        if triples and len(pairs) > 1:
            for t in triples:
                tm = t & FULL_DECK
                tr = (tm.bit_length() - 1) >> 2
                p = power(Kind.FULL_HOUSE, tr, 0) if not top_card else 0
                for pr in pairs:
                    pm = pr & FULL_DECK
                    if (pm.bit_length() - 1) >> 2 != tr:
                        m = tm | pm
                        out.append((power(Kind.FULL_HOUSE, tr, m) if top_card else p) << _SHIFT | m)
        # four of a kind + kicker
        if quads and rules.four_kicker:
            for q in quads:
                qm = q & FULL_DECK
                qr = (qm.bit_length() - 1) >> 2
                rest = hand & ~qm
                while rest:
                    low = rest & -rest
                    rest ^= low
                    m = qm | low
                    out.append(power(Kind.FOUR_KICKER, qr, m) << _SHIFT | m)
        # optional kinds
        if rules.five_trips and triples:
            for t in triples:
                tm = t & FULL_DECK
                tr = (tm.bit_length() - 1) >> 2
                others = [c for c in cards_of(hand & ~BB_RANKS[tr])]
                for a, b in combinations(others, 2):
                    if a >> 2 != b >> 2:
                        m = tm | 1 << a | 1 << b
                        out.append(power(Kind.FIVE_TRIPS, tr, m) << _SHIFT | m)
        if rules.five_two_pairs != "no" and len(pairs) > 1:
            sisters = rules.five_two_pairs == "sisters"
            for tp in self._two_pairs(pairs):
                tm = tp & FULL_DECK
                present = [r for r in range(13) if tm & BB_RANKS[r]]
                if sisters and not _consecutive(present[0], present[1]):
                    continue
                hi = present[1]
                key = hi * 4 + self._top_pos[(tm >> (4 * hi)) & 15] if suited else hi
                rest = hand & ~BB_RANKS[present[0]] & ~BB_RANKS[present[1]]
                while rest:
                    low = rest & -rest
                    rest ^= low
                    m = tm | low
                    out.append(power(Kind.FIVE_TWO_PAIRS, key, m) << _SHIFT | m)
        out.sort()
        return out

    def follows(self, hand: Mask, last: Combo) -> list[Mask]:
        """The plays of *hand* that may be played on *last* (no pass)."""
        return self.follows_from(self.hand_plays(hand), last)

    def follows_from(self, hand_plays: tuple[list[int], ...], last: Combo) -> list[Mask]:
        """Like :meth:`follows`, from a hand's :meth:`hand_plays`."""
        if not self.plain:
            classify = self.classify
            beats = self._beats_house
            return [p & FULL_DECK for group in hand_plays[1:] for p in group
                    if beats(classify(p & FULL_DECK), last)]  # type: ignore[arg-type]
        size = last.cards.bit_count()
        if size > 5:
            return []
        plays = hand_plays[size]
        if not plays:
            return []
        lo = bisect.bisect_right(plays, (last.power << _SHIFT) | FULL_DECK)
        hi = len(plays)
        if size == 5 and self.rules.five_card_compare == "same-kind":
            hi = bisect.bisect_left(plays, (self.kind_base[last.kind] + (1 << _KIND_SHIFT)) << _SHIFT, lo)
        return [p & FULL_DECK for p in plays[lo:hi]]

    def leads(self, hand: Mask) -> list[Mask]:
        """Every play of *hand* on a free lead."""
        return self.leads_from(self.hand_plays(hand))

    @staticmethod
    def leads_from(hand_plays: tuple[list[int], ...]) -> list[Mask]:
        """Like :meth:`leads`, from a hand's :meth:`hand_plays`."""
        if len(hand_plays) > 7:  # [7] holds smack-down-only plays
            hand_plays = hand_plays[:7]
        return [p & FULL_DECK for group in hand_plays for p in group]

    def after_play(self, hand_plays: tuple[list[int], ...], cards: Mask,
                   hand: Mask) -> tuple[list[int], ...]:
        """The plays of *hand*, what is left once *cards* are played, from its
        plays before (one deck: :meth:`without`; two decks move plays onto the
        other copy of a played card)."""
        return self.without(hand_plays, cards)

    @staticmethod
    def without(hand_plays: tuple[list[int], ...], cards: Mask) -> tuple[list[int], ...]:
        """The plays left in *hand_plays* once *cards* are gone from the hand.

        A hand's plays are exactly its superset's plays that use none of the
        removed cards, so filtering is all it takes (and much cheaper than
        generating again).
        """
        try:
            _, g1, g2, g3, g4, g5 = hand_plays
        except ValueError:  # house-rule groups [6] and [7] follow
            return (hand_plays[0], *([p for p in g if not p & cards] if g else g
                                     for g in hand_plays[1:]))
        return (_, [p for p in g1 if not p & cards],
                [p for p in g2 if not p & cards] if g2 else g2,
                [p for p in g3 if not p & cards] if g3 else g3,
                [p for p in g4 if not p & cards] if g4 else g4,
                [p for p in g5 if not p & cards] if g5 else g5)


_TWO_SPADES = 1 << 51 | 1 << (51 + DECK_SIZE)  # either deck's 2♠


def _quad_rank(mask: Mask) -> int:
    """The rank of the four of a kind in *mask*."""
    return next(r for r in range(13) if mask & BB_RANKS[r] == BB_RANKS[r])


def _consecutive(r1: int, r2: int) -> bool:
    """Two ranks next to each other in rank order (2 above A, not wrapping)."""
    return abs(r1 - r2) == 1


@lru_cache(maxsize=64)
def engine(rules: Rules) -> Engine:
    """The compiled :class:`Engine` of *rules* (built once per rule set).

    Rules with jokers or two decks get a :class:`big2.wild.WildEngine`.
    """
    if rules.extended_deck:
        from big2.wild import WildEngine  # imported here: it builds on this module

        return WildEngine(rules)
    return Engine(rules)


_DEFAULT = Rules()


def classify(cards: Mask, rules: Rules = _DEFAULT) -> Combo | None:
    """The combination *cards* form under *rules*, or ``None`` if no play.

    >>> from big2.cards import parse_cards
    >>> classify(parse_cards("9S 9H 9D 4C 4D")).kind.label
    'full house'
    """
    return engine(rules).classify(int(cards))


def beats(a: Mask | Combo, b: Mask | Combo, rules: Rules = _DEFAULT) -> bool:
    """Whether play *a* may be played on play *b* under *rules*.

    Raises ``ValueError`` if either is not a combination under *rules*.
    """
    eng = engine(rules)
    ca = a if isinstance(a, Combo) else eng.classify(int(a))
    cb = b if isinstance(b, Combo) else eng.classify(int(b))
    if ca is None or cb is None:
        raise ValueError("not a combination under these rules")
    return eng.beats(ca, cb)
