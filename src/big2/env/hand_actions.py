"""Hand-relative action ids: a play named by the places of its cards in the
mover's sorted hand.

A hand of up to *H* cards is sorted by card number (3♦ first … 2♠ last, see
:mod:`big2.cards`); a play is a set of one to five places in it. Id ``0`` is
the pass, then every one-card set, every two-card set, … every five-card set,
each size ranked in colexicographic order (the set of places
``p1 < p2 < … < pk`` has rank ``C(p1, 1) + C(p2, 2) + … + C(pk, k)``). So:

=====  ========  ==========================================
*H*    ids       when
=====  ========  ==========================================
13     2,380     four players, or any 13-card deal
17     9,402     three players, the spare card set aside
18     12,616    three players, the spare card to a hand
26     83,682    two players (the whole deck dealt), or three under Go-Fish
39     667,928   two players under Go-Fish (13 dealt, 26 to draw)
=====  ========  ==========================================

:func:`max_hand` gives *H* for a rule set: the most cards one seat can hold.
The same id means "the same places" in every hand, so a network's output head
has one unit per place-set; ids whose places lie beyond the current hand are
never legal.

Everything here is vectorised over many games at once (NumPy arrays of card
masks as ``uint64``).

>>> from big2.cards import CardSet
>>> ha = HandActions(13)
>>> ha.size
2380
>>> hand = CardSet.parse("3D 3S 5H 9C KS 2S")
>>> ids = ha.encode(np.array([0, int(CardSet.parse("3D 3S")), int(CardSet.parse("2S"))], np.uint64),
...                 np.array([int(hand)] * 3, np.uint64))
>>> ids.tolist()
[0, 14, 6]
>>> [str(CardSet(int(m))) for m in ha.decode(ids, np.array([int(hand)] * 3, np.uint64))]
['', '3♦ 3♠', '2♠']
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from big2.rules import Rules
from big2.variant import variant

MAX_PLAY: Final = 5
"""The largest play a hand-relative id names."""

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]


def max_hand(rules: Rules) -> int:
    """The most cards one seat can hold under *rules*: the deal, a left-over
    card given to a hand, and every Go-Fish card drawn."""
    v = variant(rules)
    deck = v.deck
    held = deck.per_seat
    if not deck.thirteen_each and not deck.spare_aside and deck.left_over:
        held += deck.left_over
    if v.hands_grow:
        held += deck.size - deck.per_seat * deck.players
    return held


def num_hand_actions(hand: int) -> int:
    """Ids for hands of up to *hand* cards: the pass and every set of 1–5 places.

    >>> num_hand_actions(13), num_hand_actions(17), num_hand_actions(26)
    (2380, 9402, 83682)
    """
    return 1 + sum(comb(hand, k) for k in range(1, MAX_PLAY + 1))


@lru_cache(maxsize=8)
def _tables(hand: int) -> tuple[I64, I64, U64]:
    """``(offsets, binomials, places)``: the first id of each play size, C(p, k)
    for p < *hand* and k ≤ 5, and each id's set of places as a bit mask."""
    offsets = np.zeros(MAX_PLAY + 2, dtype=np.int64)
    for k in range(1, MAX_PLAY + 2):
        offsets[k] = offsets[k - 1] + (1 if k == 1 else comb(hand, k - 1))
    binom = np.array([[comb(p, k) for k in range(MAX_PLAY + 1)] for p in range(hand)],
                     dtype=np.int64)
    places = np.zeros(num_hand_actions(hand), dtype=np.uint64)
    for k in range(1, MAX_PLAY + 1):
        for combo in combinations(range(hand), k):
            rank = sum(comb(p, i + 1) for i, p in enumerate(combo))
            places[offsets[k] + rank] = sum(1 << p for p in combo)
    return offsets, binom, places


class HandActions:
    """Hand-relative ids for hands of up to *hand* cards (see the module docstring)."""

    def __init__(self, hand: int) -> None:
        if not 1 <= hand <= 52:
            raise ValueError(f"a hand holds 1 to 52 cards, not {hand}")
        self.hand = hand
        self.size = num_hand_actions(hand)
        """Number of ids (the pass included)."""
        self._offsets, self._binom, self._places = _tables(hand)

    def encode(self, plays: U64, hands: U64) -> I64:
        """The id of each play (a card mask, ``0`` = pass) in the hand beside it.

        Every play must be a subset of its hand of at most five cards (the
        legal plays are); the result is undefined otherwise.
        """
        plays = plays.astype(np.uint64, copy=True)
        hands = hands.astype(np.uint64, copy=False)
        rank = np.zeros(plays.shape, dtype=np.int64)
        size = np.zeros(plays.shape, dtype=np.int64)
        one = np.uint64(1)
        binom = self._binom
        for k in range(1, MAX_PLAY + 1):
            low = plays & (~plays + one)  # the lowest card left
            has = low != 0
            if not has.any():
                break
            place = np.bitwise_count(hands & (low - one)).astype(np.int64)
            rank += np.where(has, binom[np.minimum(place, self.hand - 1), k], 0)
            size += has
            plays ^= low
        return self._offsets[size] + rank

    def decode(self, ids: I64, hands: U64) -> U64:
        """The card mask each id names in the hand beside it (``0`` for the
        pass; places beyond a hand's cards are dropped)."""
        places = self._places[np.asarray(ids, dtype=np.int64)]
        hands = hands.astype(np.uint64, copy=True)
        out = np.zeros(places.shape, dtype=np.uint64)
        one = np.uint64(1)
        for p in range(self.hand):
            low = hands & (~hands + one)  # the card at place p
            out |= np.where((places >> np.uint64(p)) & one != 0, low, np.uint64(0))
            hands ^= low
            if not hands.any():
                break
        return out

    def text(self, action: int) -> str:
        """An id as its places, 1-based (``"pass"``, ``"1 2"``, …).

        >>> HandActions(13).text(14), HandActions(13).text(6)
        ('1 2', '6')
        """
        if not 0 <= action < self.size:
            raise ValueError(f"hand action ids are 0..{self.size - 1}, not {action}")
        if action == 0:
            return "pass"
        mask = int(self._places[action])
        return " ".join(str(p + 1) for p in range(self.hand) if mask >> p & 1)

    def __repr__(self) -> str:
        return f"HandActions({self.hand})"


__all__ = ["MAX_PLAY", "HandActions", "max_hand", "num_hand_actions"]
