"""Strength keys: how a play's power is laid out, computed in one place.

A play's *power* is an ``int``; within a group of comparable plays the higher
power wins. Both play engines (:mod:`big2.variant.tables` for one deck and
:mod:`big2.variant.generic` for jokers and two decks) build powers only
through :class:`StrengthKeys`, so a flush or a straight compares the same way
whichever engine read it.

Bit layout of a power:

- singles and pairs: ``rank * 4 + suit position`` of the strongest card (just
  ``rank`` when suits do not rank); triples: ``rank``.
- four-card plays: two pairs as a pair's key of the higher pair; four of a kind
  alone has bit ``KIND_SHIFT`` set above that, so it beats any two pairs.
- five-card plays: ``kind position << KIND_SHIFT | key`` where the kind's
  position comes from the rule set's five-card order (:attr:`StrengthKeys.five_kinds`)
  and the key orders plays inside the kind (:meth:`StrengthKeys.flush_key`, by
  ``flush_order``;
  :meth:`StrengthKeys.seq_key`, the rank of a full house's triple…); under
  ``five_card_compare="top-card"`` the power is the top card's strength alone.
- plays of other lengths (long and short straights, runs of pairs, the
  dragon): ``size << LONG_SHIFT | key``.

Listed plays are encoded as ``power << PLAY_SHIFT | mask`` (:data:`PLAY_SHIFT`
is wider than every card number), so a sorted list of encoded plays is sorted
by power and the plays above a power are found by bisection.

>>> from big2.rules import Rules
>>> k = StrengthKeys(Rules())
>>> k.flush_key(k.rank_key((12, 8, 6, 3, 0)), 0) > k.flush_key(k.rank_key((11, 10, 9, 8, 6)), 3)
True
"""

from __future__ import annotations

from itertools import combinations

from big2.cards import DECK_SIZE, MAX_CARDS, NUM_CARDS, RANKS, SUITS, Mask
from big2.rules import Rules
from big2.variant.kinds import STRAIGHT_SEQUENCES, Kind

PLAY_SHIFT = MAX_CARDS
"""Encoded plays are ``power << PLAY_SHIFT | mask``."""
PLAY_MASK = (1 << PLAY_SHIFT) - 1
"""The card bits of an encoded play."""
KIND_SHIFT = 36
"""Five-card kinds (and four of a kind alone) sit above this bit."""
LONG_SHIFT = 40
"""Plays of other lengths than one to five: ``size << LONG_SHIFT | key``."""
_FLUSH_SPAN = 13**5  # rank keys of a flush are below this
_TOP_RANK_UNIT = 13**4  # a flush's rank key divided by this is its top rank


class StrengthKeys:
    """A rule set's power tables and key functions (see the module docstring)."""

    def __init__(self, rules: Rules) -> None:
        sr = tuple(rules.suit_order.index(s) for s in SUITS)
        self.suit_rank: tuple[int, ...] = sr
        """Strength position (0 lowest) of each suit number."""
        self.suited = rules.suit_ranking
        """Whether suits break ties."""
        self.flush_by_suit = rules.flush_order == "suit"
        self.flush_by_top = rules.flush_order == "top-card"
        self.top_card = rules.five_card_compare == "top-card"
        """Five-card plays compare by their top card alone."""
        strength = []
        for c in range(MAX_CARDS):
            b = c % DECK_SIZE
            strength.append(b if b >= NUM_CARDS else (b >> 2) * 4 + sr[b & 3])
        self.strength: tuple[int, ...] = tuple(strength)
        """Each card number's strength: rank first, suit breaks ties; jokers on top."""
        self.top_pos = tuple(max((sr[s] for s in range(4) if nib >> s & 1), default=0)
                             for nib in range(16))
        """The strongest suit's position among the suits of a rank's nibble."""
        self.five_kinds = _five_kind_order(rules)
        """The five-card kinds, weakest first, under this rule set."""
        self.kind_base = {k: i << KIND_SHIFT for i, k in enumerate(self.five_kinds)}
        for k in (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.TWO_PAIRS):
            self.kind_base[k] = 0
        self.kind_base[Kind.FOUR_OF_A_KIND] = 1 << KIND_SHIFT
        self.kind_order = {k: i for i, k in enumerate(self.five_kinds)}
        self.kind_order[Kind.FOUR_OF_A_KIND] = 1
        self.straights: dict[int, tuple[int, int]] = {}
        """Five-rank presence mask -> (sequence index, deciding rank)."""
        self.straight_list: list[tuple[int, tuple[int, ...], int]] = []
        """``(rank mask, ranks, sequence index)`` of each straight, lowest first."""
        for i, (seq, decide) in enumerate(STRAIGHT_SEQUENCES[rules.straight_order]):
            ranks = tuple(RANKS.index(ch) for ch in seq)
            rmask = sum(1 << r for r in ranks)
            self.straights[rmask] = (i, RANKS.index(decide))
            self.straight_list.append((rmask, ranks, i))
        self.flush_rank_key: dict[int, int] = {}
        """The rank part of a flush key, by the 13-bit set of its five ranks."""
        for ranks in combinations(range(13), 5):
            self.flush_rank_key[sum(1 << r for r in ranks)] = self.rank_key(ranks)
        # the same keys as whole five-card powers, looked up while listing a hand's plays
        self.flush_powers: tuple[dict[int, int], ...] = tuple(
            {rm: self.five(Kind.FLUSH, self.flush_key(rk, pos), 0)
             for rm, rk in self.flush_rank_key.items()} for pos in range(4))
        """Per suit position: a flush's power by its rank set (not under top-card)."""
        self.seq_powers: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(self.five(kind, self.seq_key(i, pos), 0) for pos in range(4))
                  for i in range(len(self.straight_list)))
            for kind in (Kind.STRAIGHT, Kind.STRAIGHT_FLUSH))
        """``seq_powers[flush][sequence index][suit position]``: a straight's (or straight
        flush's) power (not under top-card)."""

    @staticmethod
    def rank_key(ranks: tuple[int, ...] | list[int]) -> int:
        """Ranks compared highest first, as one int (for flushes)."""
        key = 0
        for r in sorted(ranks, reverse=True):
            key = key * 13 + r
        return key

    def card_key(self, rank: int, pos: int) -> int:
        """A single's or pair's key: rank, then the strongest suit position."""
        return rank * 4 + pos if self.suited else rank

    def flush_key(self, rank_key: int, pos: int) -> int:
        """A flush's key from its ranks' key (:meth:`rank_key` of its five ranks)
        and its suit's position: the one place ``flush_order`` is read.

        - ``ranks``: the ranks highest first, then the suit;
        - ``suit``: the suit first, then the ranks;
        - ``top-card``: the top card alone, its rank then its suit (the flush's
          highest card by Big-Two strength; the other four cards never count,
          so two flushes with the same top card are equal).

        Without suit ranking the suit never counts.

        >>> from big2.rules import Rules
        >>> k = StrengthKeys(Rules(flush_order="top-card"))
        >>> ak = k.flush_key(k.rank_key((11, 3, 2, 1, 0)), 0)  # A♦ 6♦ 5♦ 4♦ 3♦
        >>> kq = k.flush_key(k.rank_key((10, 9, 8, 7, 5)), 3)  # K♠ Q♠ J♠ 10♠ 8♠
        >>> ak > kq, ak == k.flush_key(k.rank_key((11, 10, 9, 8, 6)), 0)
        (True, True)
        """
        if self.flush_by_top:
            top = rank_key // _TOP_RANK_UNIT
            return top * 4 + pos if self.suited else top
        if not self.suited:
            return rank_key
        if self.flush_by_suit:
            return pos * _FLUSH_SPAN + rank_key
        return rank_key * 4 + pos

    def seq_key(self, seq_index: int, pos: int) -> int:
        """A straight's key from its place in the straight order and the
        deciding card's suit position."""
        return seq_index * 4 + pos if self.suited else seq_index

    def five(self, kind: Kind, key: int, top: int) -> int:
        """A five-card power: the kind's base and *key*, or under the top-card
        rule the top card's strength *top* alone."""
        if self.top_card:
            return top
        return self.kind_base[kind] | key

    def top_strength(self, mask: Mask) -> int:
        """The top card's strength of *mask* (its rank alone when suits do not rank)."""
        strength = self.strength
        best = max(strength[c] for c in _cards(mask))
        return best if self.suited else best >> 2

    def long(self, size: int, key: int) -> int:
        """The power of a play of *size* cards other than one to five."""
        return (size << LONG_SHIFT) | key


def _cards(mask: Mask) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _five_kind_order(rules: Rules) -> list[Kind]:
    """The five-card kinds weakest first, under the options that move them."""
    order: list[Kind] = []
    if rules.five_two_pairs != "no":
        order.append(Kind.FIVE_TWO_PAIRS)
    if rules.five_trips:
        order.append(Kind.FIVE_TRIPS)
    order += [Kind.FLUSH, Kind.STRAIGHT] if rules.straight_beats_flush else [Kind.STRAIGHT,
                                                                             Kind.FLUSH]
    order.append(Kind.FULL_HOUSE)
    if rules.four_kicker:
        order.append(Kind.FOUR_KICKER)
    order.append(Kind.STRAIGHT_FLUSH)
    if rules.five_of_a_kind == "below-straight-flush":
        order.insert(order.index(Kind.STRAIGHT_FLUSH), Kind.FIVE_OF_A_KIND)
    elif rules.five_of_a_kind == "above-straight-flush":
        order.append(Kind.FIVE_OF_A_KIND)
    return order
