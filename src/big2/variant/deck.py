"""The deck of a rule set: which cards, how they are dealt, who leads, copies.

:class:`Deck` is the one place that knows how many cards there are (one or two
decks, jokers), how many each seat is dealt, where a left-over card goes, the
lowest card and who leads the first trick (and what that first play must
be: :meth:`Deck.first_plays`), and how the copies of a card in a
two-deck game are told apart or matched.

>>> from big2.rules import Rules
>>> from big2.variant import variant
>>> variant(Rules(players=3)).deck.per_seat, variant(Rules(players=6, decks=2)).deck.per_seat
(17, 17)
>>> variant(Rules(players=3, jokers="wild")).deck.per_seat
18
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import repeat, starmap

from big2.cards import CARD_SYMBOLS, DECK_SIZE, Mask, cards_of, deck_mask, match_copies
from big2.i18n import Refusal
from big2.rules import Rules

_FIRST = (1 << DECK_SIZE) - 1
_BITS = tuple(1 << c for c in range(2 * DECK_SIZE))
"""Each card number's one-card mask."""

CoreShuffle = Callable[[Callable[[], float], int, int, Sequence[int]], tuple[list[Mask], list[int]]]
"""The core's shuffle and deal of one deck (:func:`big2.variant.native.shuffle_deal`)."""


def _names(cards: list[int]) -> str:
    return " ".join(CARD_SYMBOLS[c] for c in cards)


class Deck:
    """Cards and dealing for a rule set (see the module docstring)."""

    def __init__(self, rules: Rules, strength: Sequence[int]) -> None:
        self.players = rules.players
        self.decks = rules.decks
        self.two_decks = rules.decks > 1
        """Copies of a card exist (card + 54 is the second deck's copy)."""
        self.jokers = rules.jokers != "none"
        self.wild = rules.jokers == "wild"
        """The jokers are wild (stand for any card)."""
        self.cards: Mask = deck_mask(rules.decks, self.jokers)
        """Every card number of the deck."""
        self.size = self.cards.bit_count()
        self.thirteen_each = rules.deal == "13-each"
        self.opening_alone = rules.opening == "alone"
        """The deal's first play is the lowest card dealt alone, as a single."""
        self.per_seat = 13 if self.thirteen_each else self.size // self.players
        """Cards dealt to each seat before any left-over card (the scoring thresholds'
        "whole hand": 13, or 17 with three players)."""
        self.left_over = self.size - self.per_seat * self.players
        self.spare_to = rules.spare_to
        self.spare_aside = (rules.spare_to == "aside" and not self.thirteen_each
                            and self.left_over > 0 and not rules.go_fish)
        """The left-over card lies face up in the middle."""
        self.strength = strength
        self.by_strength: tuple[int, ...] = tuple(sorted(cards_of(self.cards),
                                                         key=lambda c: (strength[c], c)))
        """Every card of the deck, weakest first."""
        cards = cards_of(self.cards)
        self._places = range(len(cards))
        """The shuffle's places, one a card."""
        self._card_at: tuple[int, ...] | None = (None if cards == list(self._places)
                                                 else tuple(cards))
        """The card at each place (``None``: the place is the card, as in one deck
        without jokers)."""

    # -- copies ----------------------------------------------------------------

    def copies(self, mask: Mask) -> Mask:
        """*mask* with each card's copy in the other deck added."""
        if not self.two_decks:
            return mask
        return mask | (mask & _FIRST) << DECK_SIZE | mask >> DECK_SIZE

    def match(self, mask: Mask, hand: Mask) -> Mask:
        """The cards of *hand* named by *mask* (copies matched to those held),
        or *mask* itself when the hand does not hold them."""
        if not self.two_decks or not mask & ~hand:
            return mask
        return match_copies(mask, hand) or mask

    def check_hands(self, hands: list[Mask]) -> list[Mask]:
        """Given hands, checked: every card in this deck, none in two hands (with two
        decks a card named in two hands is the second copy in the later one), none empty."""
        outside = [c for h in hands for c in cards_of(h & ~self.cards)]
        if outside:
            raise ValueError("not in this game's deck: " + _names(outside))
        seen = 0
        for i, h in enumerate(hands):
            if h & seen and self.two_decks:  # a card in two hands: the second deck's copy
                for c in cards_of(h & seen & _FIRST):
                    h ^= 1 << c | 1 << (c + DECK_SIZE)
                hands[i] = h
            if h & seen:
                raise ValueError("the same card is in two hands: " + _names(cards_of(h & seen)))
            seen |= h
        if not all(hands):
            raise ValueError("every seat must be dealt at least one card")
        return hands

    # -- dealing ---------------------------------------------------------------

    def shuffle_deal(self, rng: random.Random, order: Sequence[int],
                     core: CoreShuffle | None = None) -> list[Mask]:
        """Shuffle and deal *per_seat* cards to each seat in *order* (the seats
        from the dealer's left); a left-over card goes to the lowest card's
        holder (the first from the dealer's left, with two decks) or the
        highest's, or stays aside. *core*: the compiled core's shuffle of one deck
        (:func:`big2.variant.native.shuffle_deal`: the same keys, the same deal),
        used for one deck."""
        n = self.players
        per = self.per_seat
        if core is not None and self._card_at is None and len(self._places) <= 64:
            hands, rest = core(rng.random, len(self._places), per, order)
        else:
            places = self._places
            # a uniform shuffle: sort by independent random keys (faster than
            # random.shuffle in pure Python; ties have probability ~0); the keys drawn
            # and the loops in C (starmap, map, sum: the cards of a hand are distinct
            # bits, so their sum is their union)
            keys = list(starmap(rng.random, repeat((), len(places))))
            deck = sorted(places, key=keys.__getitem__)
            if self._card_at is not None:
                deck = list(map(self._card_at.__getitem__, deck))
            hands = [0] * n
            for i, seat in enumerate(order):
                hands[seat] = sum(map(_BITS.__getitem__, deck[i : per * n : n]))
            rest = deck[per * n:]
        if not self.thirteen_each and self.left_over and self.spare_to != "aside":
            dealt = 0
            for h in hands:
                dealt |= h
            ranked = [c for c in self.by_strength if dealt >> c & 1]
            card = ranked[0] if self.spare_to == "lowest" else ranked[-1]
            holder = next(s for s in order if hands[s] & self.copies(1 << card))
            for c in rest:
                hands[holder] |= 1 << c
        return hands

    def lowest(self, hands: Sequence[Mask]) -> Mask:
        """The lowest card dealt, as a one-card mask."""
        dealt = 0
        for h in hands:
            dealt |= h
        for c in self.by_strength:
            if dealt >> c & 1:
                return 1 << c
        raise ValueError("no card dealt")

    def opening(self, hands: Sequence[Mask], order: Sequence[int]) -> tuple[int, Mask]:
        """Who leads the first trick and the card that play must contain (or,
        under ``opening="alone"``, be): the holder of the lowest card dealt (of
        two holders, the first in *order*)."""
        low = self.copies(self.lowest(hands))
        seat = next(s for s in order if hands[s] & low)
        must = hands[seat] & low
        return seat, must & -must

    def first_plays(self, leads: list[Mask], must: Mask) -> list[Mask]:
        """The deal's first plays among the leader's *leads*, given the card
        *must* that :meth:`opening` named: the one place the ``opening`` option
        is read. ``contains``: every lead holding that card; ``alone``: that
        card played as a single, nothing else.

        >>> from big2.rules import Rules
        >>> from big2.variant import variant
        >>> three_d, pair = 1, 0b11  # 3♦, and 3♦ 3♣
        >>> variant(Rules()).deck.first_plays([three_d, pair, 1 << 4], three_d)
        [1, 3]
        >>> variant(Rules(opening="alone")).deck.first_plays([three_d, pair, 1 << 4], three_d)
        [1]
        """
        if self.opening_alone:
            return [p for p in leads if p & must and not p & (p - 1)]
        return [p for p in leads if p & must]

    def opening_rule(self, must: Mask) -> str:
        """The first-play rule as a player reads it (a refusal's reason)."""
        name = CARD_SYMBOLS[must.bit_length() - 1]
        return Refusal("firstAlone" if self.opening_alone else "firstContains", card=name)

    def breaks_opening(self, play: Mask, must: Mask) -> bool:
        """Whether *play* (a classified play) breaks the first-play rule for
        the card *must* (either copy of it, with two decks)."""
        if not play & self.copies(must):
            return True
        return self.opening_alone and play.bit_count() != 1
