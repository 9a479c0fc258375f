"""Which play may follow which: the one place the "beats" house rules live.

:class:`Comparator` is shared by both play engines. With none of the house
rules that change comparisons switched on (:attr:`Comparator.plain`), a play
beats another of its size exactly when its power is higher, so the engines
answer "what beats this" by bisection; otherwise :meth:`Comparator.beats`
applies, in order: the dragon, smack-downs, four-beats-all, bombs on small
plays, then the plain comparison.

>>> from big2.rules import Rules
>>> from big2.variant.kinds import Combo, Kind
>>> cmp = Comparator(Rules())
>>> cmp.beats(Combo(Kind.PAIR, 0, 50), Combo(Kind.PAIR, 0, 49))
True
"""

from __future__ import annotations

from collections.abc import Callable

from big2.cards import BB_RANKS, CARD_SYMBOLS, DECK_SIZE, RANK_MASKS, TWO, Mask, cards_of
from big2.i18n import Refusal
from big2.rules import Rules
from big2.variant.kinds import Combo, Kind

_TWO_SPADES = 1 << (TWO * 4 + 3) | 1 << (TWO * 4 + 3 + DECK_SIZE)  # either deck's 2♠


def quad_rank(combo: Combo) -> int:
    """The rank of the four of a kind in a one-deck four-of-a-kind *combo*."""
    cards = combo.cards
    return next(r for r in range(13) if cards & BB_RANKS[r] == BB_RANKS[r])


class Comparator:
    """The follow relation of a rule set (see the module docstring).

    Args:
        rules: the rule set.
        quad: the rank of a four (or five) of a kind play; the generic engine
            passes its own (a joker may be any rank; a five orders above every four).
    """

    def __init__(self, rules: Rules, quad: Callable[[Combo], int] = quad_rank) -> None:
        self.smack = rules.smack_down != "off"
        self.smack_any_two = rules.smack_down == "any-2"
        self.four_alone = rules.four_of_a_kind_alone
        self.four_beats_all = rules.four_beats_all
        self.bomb_on_small = rules.bomb_on_small
        self.same_kind = rules.five_card_compare == "same-kind"
        self.play_equal = rules.play_equal
        self.valueless = rules.jokers == "valueless"
        self.fours = {Kind.FOUR_KICKER} | ({Kind.FOUR_OF_A_KIND} if rules.four_of_a_kind_alone
                                           else set())
        if rules.five_of_a_kind != "off":
            self.fours.add(Kind.FIVE_OF_A_KIND)
        self.quad = quad
        self.plain = not (self.smack or rules.straight_min < 5 or rules.straight_max > 5
                          or rules.dragon or self.bomb_on_small or self.four_beats_all
                          or self.play_equal or self.valueless)
        """No house rule that changes comparisons is on: higher power of the same size wins."""

    def leadable(self, combo: Combo) -> bool:
        """Whether *combo* may open a trick (smack-down-only plays may not)."""
        kind = combo.kind
        return not (kind == Kind.PAIR_RUN or (kind == Kind.FOUR_OF_A_KIND and not self.four_alone))

    def beats(self, a: Combo, b: Combo) -> bool:
        """Whether *a* may be played on *b*."""
        if self.plain:
            return self._beats_plain(a, b)
        if self.valueless and a.size == 1 == b.size and (a.power < 0 or b.power < 0):
            return True  # a valueless joker beats, and is beaten by, any single
        if b.kind == Kind.DRAGON:
            return a.kind == Kind.DRAGON and a.power > b.power
        if self.smack and (a.kind == Kind.PAIR_RUN or a.kind == Kind.FOUR_OF_A_KIND):
            if b.size == 1 and b.cards & RANK_MASKS[TWO] and (
                    self.smack_any_two or b.cards & _TWO_SPADES):
                return True
            if a.kind == b.kind and a.size == b.size:
                return a.power > b.power  # smack-back
        fours = self.fours
        if self.four_beats_all:
            if a.kind in fours:
                return b.kind not in fours or self.quad(a) > self.quad(b)
            if b.kind in fours:
                return False
        if self.bomb_on_small and b.size <= 2 and (
                a.kind in fours or a.kind == Kind.STRAIGHT_FLUSH):
            return True
        if a.size != b.size or not (self.leadable(a) and self.leadable(b)):
            return False
        if a.size != 5 and (a.kind == Kind.STRAIGHT) != (b.kind == Kind.STRAIGHT):
            return False
        return self._beats_plain(a, b)

    def _beats_plain(self, a: Combo, b: Combo) -> bool:
        if a.size != b.size:
            return False
        if self.same_kind and a.size == 5 and a.kind != b.kind:
            return False
        return a.power > b.power or (a.power == b.power and self.play_equal)

    def reason(self, a: Combo, b: Combo) -> str:
        """Why *a* may not be played on *b*, as a player reads it."""
        what = " ".join(CARD_SYMBOLS[c] for c in cards_of(b.cards))
        if a.size != b.size:
            return Refusal("wrongSize", kind=a.kind, beaten=b.kind, size=b.size)
        if self.same_kind and a.size == 5 and a.kind != b.kind:
            return Refusal("noPoker", beaten=b.kind, cards=what)
        return Refusal("notBeat", cards=what)


def two_spades(mask: Mask) -> bool:
    """Whether *mask* holds a 2♠ (of either deck)."""
    return bool(mask & _TWO_SPADES)
