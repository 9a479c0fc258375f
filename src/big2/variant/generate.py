"""Listing a hand's plays from the one-deck tables: five-card hands, long plays, smack-downs.

These run once per fresh hand (a hand's plays are then filtered as it plays
out), on behalf of :class:`big2.variant.tables.TableEngine`; powers come from
its :class:`~big2.variant.keys.StrengthKeys`.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Protocol

from big2.cards import BB_RANKS, BB_SUITS, Mask, cards_of
from big2.variant.keys import PLAY_MASK, PLAY_SHIFT, StrengthKeys
from big2.variant.kinds import TOP_RUN_RANK, Kind


class GeneratingEngine(Protocol):
    """What the generation reads of its engine (:class:`big2.variant.tables.TableEngine`
    is the one): the rule set's switches and the per-rank tables."""

    @property
    def keys(self) -> StrengthKeys:
        """The powers."""

    @property
    def dragon(self) -> bool:
        """The dragon is a play."""

    @property
    def five_trips(self) -> bool:
        """Three of a kind and two odd cards is a five."""

    @property
    def five_two_pairs(self) -> str:
        """Two pairs and a card as a five: no, any or sisters."""

    @property
    def four_alone(self) -> bool:
        """Four of a kind is a play by itself."""

    @property
    def four_kicker(self) -> bool:
        """Four of a kind and a card is a five."""

    @property
    def straight_lengths(self) -> frozenset[int]:
        """Straight lengths other than five."""

    @property
    def _groups(self) -> list[list[list[list[int]]]]: ...

    @property
    def _singles_by_nib(self) -> list[list[tuple[int, ...]]]: ...

_S = PLAY_SHIFT


def two_pairs(pairs: list[int]) -> list[int]:
    """Two pairs of different ranks from a hand's encoded *pairs*, keyed by the higher pair."""
    out = []
    for i, hi in enumerate(pairs):
        hr = (hi & PLAY_MASK).bit_length() - 1 >> 2
        for lo in pairs[:i]:
            if (lo & PLAY_MASK).bit_length() - 1 >> 2 != hr:
                out.append((hi >> _S) << _S | (hi | lo) & PLAY_MASK)
    return out


def long_leads(eng: GeneratingEngine, nibs: list[int], rmask: int) -> list[int]:
    """Short and long straights and the dragon of a hand, encoded and sorted."""
    out: list[int] = []
    sbn = eng._singles_by_nib
    k = eng.keys
    sr = k.suit_rank
    for n in sorted(eng.straight_lengths):
        for lo in range(TOP_RUN_RANK - n + 2):
            ranks = range(lo, lo + n)
            if any(not nibs[r] for r in ranks):
                continue
            top = lo + n - 1
            for combo in product(*[sbn[r][nibs[r]] for r in ranks]):
                key = k.card_key(top, sr[(combo[-1].bit_length() - 1) & 3])
                out.append(k.long(n, key) << _S | sum(combo))
    if eng.dragon and rmask == 0x1FFF:
        for combo in product(*[sbn[r][nibs[r]] for r in range(13)]):
            key = sr[(combo[-1].bit_length() - 1) & 3] if k.suited else 0
            out.append(k.long(13, key) << _S | sum(combo))
    out.sort()
    return out


def smacks(eng: GeneratingEngine, nibs: list[int], quads: list[int]) -> list[int]:
    """Plays that exist only as smack-downs: four alone (unless it is a play
    anyway) and runs of three or more consecutive pairs."""
    out = [] if eng.four_alone else list(quads)
    g2 = eng._groups[2]
    k = eng.keys
    r = 0
    while r <= TOP_RUN_RANK:
        if nibs[r].bit_count() < 2:
            r += 1
            continue
        end = r
        while end + 1 <= TOP_RUN_RANK and nibs[end + 1].bit_count() >= 2:
            end += 1
        for lo in range(r, end - 1):
            for hi in range(lo + 2, end + 1):
                for combo in product(*[g2[x][nibs[x]] for x in range(lo, hi + 1)]):
                    m = 0
                    for enc in combo:
                        m |= enc & PLAY_MASK
                    key = combo[-1] >> _S  # the top pair's power
                    out.append(k.long(2 * (hi - lo + 1), key) << _S | m)
        r = end + 1
    out.sort()
    return out


def fives(eng: GeneratingEngine, hand: Mask, nibs: list[int], rmask: int, pairs: list[int],
          triples: list[int], quads: list[int]) -> list[int]:
    """Every five-card play of *hand*, encoded and sorted."""
    out: list[int] = []
    k = eng.keys
    five = k.five
    sr = k.suit_rank
    top_card = k.top_card
    # straights and straight flushes
    sbn = eng._singles_by_nib
    straights = k.straights
    seq_powers = k.seq_powers
    for smask, ranks, idx in k.straight_list:
        if rmask & smask != smask:
            continue
        decide = straights[smask][1]
        plain, flushed = seq_powers[0][idx], seq_powers[1][idx]
        for combo in product(*[sbn[r][nibs[r]] for r in ranks]):
            m = combo[0] | combo[1] | combo[2] | combo[3] | combo[4]
            flush = m & BB_SUITS[(combo[0].bit_length() - 1) & 3] == m
            if top_card:
                kind = Kind.STRAIGHT_FLUSH if flush else Kind.STRAIGHT
                out.append(five(kind, 0, k.top_strength(m)) << _S | m)
                continue
            pos = sr[((m >> (4 * decide)) & 15).bit_length() - 1]
            out.append((flushed if flush else plain)[pos] << _S | m)
    # flushes
    for s in range(4):
        suit_cards = hand & BB_SUITS[s]
        if suit_cards.bit_count() >= 5:
            powers = k.flush_powers[sr[s]]
            for combo in combinations([r for r in range(13) if suit_cards >> (4 * r + s) & 1], 5):
                rm = (1 << combo[0]) | (1 << combo[1]) | (1 << combo[2]) | (1 << combo[3]) \
                    | (1 << combo[4])
                if rm in straights:
                    continue
                m = sum(1 << (4 * r + s) for r in combo)
                p = five(Kind.FLUSH, 0, k.top_strength(m)) if top_card else powers[rm]
                out.append(p << _S | m)
    # full houses
    if triples and len(pairs) > 1:
        for t in triples:
            tm = t & PLAY_MASK
            tr = (tm.bit_length() - 1) >> 2
            p = five(Kind.FULL_HOUSE, tr, 0)
            for pr in pairs:
                pm = pr & PLAY_MASK
                if (pm.bit_length() - 1) >> 2 != tr:
                    m = tm | pm
                    out.append((k.top_strength(m) if top_card else p) << _S | m)
    # four of a kind + kicker
    if quads and eng.four_kicker:
        for q in quads:
            qm = q & PLAY_MASK
            qr = (qm.bit_length() - 1) >> 2
            _add_kickers(k, out, Kind.FOUR_KICKER, qr, qm, hand & ~qm)
    # optional kinds
    if eng.five_trips and triples:
        for t in triples:
            tm = t & PLAY_MASK
            tr = (tm.bit_length() - 1) >> 2
            others = cards_of(hand & ~BB_RANKS[tr])
            for a, b in combinations(others, 2):
                if a >> 2 != b >> 2:
                    m = tm | 1 << a | 1 << b
                    out.append(five(Kind.FIVE_TRIPS, tr, k.top_strength(m) if top_card else 0)
                               << _S | m)
    if eng.five_two_pairs != "no" and len(pairs) > 1:
        sisters = eng.five_two_pairs == "sisters"
        for tp in two_pairs(pairs):
            tm = tp & PLAY_MASK
            present = [r for r in range(13) if tm & BB_RANKS[r]]
            if sisters and present[1] - present[0] != 1:
                continue
            hi = present[1]
            key = k.card_key(hi, k.top_pos[(tm >> (4 * hi)) & 15])
            _add_kickers(k, out, Kind.FIVE_TWO_PAIRS, key, tm,
                         hand & ~BB_RANKS[present[0]] & ~BB_RANKS[present[1]])
    out.sort()
    return out


def _add_kickers(k: StrengthKeys, out: list[int], kind: Kind, key: int, base: Mask,
                 rest: Mask) -> None:
    """Append *base* plus each card of *rest* as a five-card *kind* with *key*."""
    power = k.five(kind, key, 0)
    while rest:
        low = rest & -rest
        rest ^= low
        m = base | low
        out.append((k.five(kind, key, k.top_strength(m)) if k.top_card else power) << _S | m)
