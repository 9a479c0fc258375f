"""The house rules' extra actions on a deal: the last-card call, throwing in a weak
hand and the spare swap (the teams shoot-out is :meth:`big2.Game.shootout_game`).
Each is refused with the reason unless its rule is on; each is recorded in the
game's log (:class:`~big2.log.LastCardCall`, :class:`~big2.log.ThrowIn`,
:class:`~big2.log.SpareSwap`)."""

from __future__ import annotations

from big2.house.redeal import WeakHandRedeal
from big2.house.spare import SpareSwap as SpareSwapRule
from big2.position import IllegalPlayError, Position
from big2.view import LastCardCall, SpareSwap, ThrowIn


def _refuse(message: str) -> Exception:
    return IllegalPlayError(message)


class HouseActions(Position):
    """The extra actions of :class:`big2.Game` (see the module docstring)."""

    def call_last_card(self, seat: int) -> None:
        """Announce that *seat* has one card left (a :class:`LastCardCall` in the log)."""
        if not self.can_call_last_card(seat):
            raise _refuse("a last card may be announced only under the last_card rule, "
                                   "by a player holding one card who has not announced yet")
        self.log.append(LastCardCall(seat))

    def can_throw_in(self, seat: int) -> bool:
        """Whether *seat* may throw in its hand now (``redeal`` weak, before play)."""
        rule = self.variant.house_rule(WeakHandRedeal)
        return rule is not None and rule.can_throw_in(self, seat)

    def throw_in(self, seat: int) -> None:
        """Throw in *seat*'s weak hand: the cards are dealt again from the game's
        random stream and the deal starts over (a :class:`ThrowIn` in the log)."""
        rule = self.variant.house_rule(WeakHandRedeal)
        if rule is None or not rule.can_throw_in(self, seat):
            raise _refuse(
                "a hand may be thrown in only under the weak-hand redeal rule, before the first "
                "play, when it is worth 3 points or less (J=1 Q=2 K=3 A=4 2=5)")
        self.log.append(ThrowIn(seat))
        rule.throw_in(self, seat)

    def can_swap_spare(self, seat: int) -> bool:
        """Whether *seat* may swap the lowest card for the face-up spare now."""
        rule = self.variant.house_rule(SpareSwapRule)
        return rule is not None and rule.can_swap(self, seat)

    def swap_spare(self, seat: int) -> None:
        """Swap *seat*'s lowest card for the face-up spare (a :class:`SpareSwap` in the log)."""
        rule = self.variant.house_rule(SpareSwapRule)
        if rule is None or not rule.can_swap(self, seat):
            raise _refuse("only the lowest card's holder may swap it for the face-up "
                                   "spare, before play, under spare_to=aside and spare_swap")
        self.log.append(SpareSwap(seat, self.variant.deck.lowest(self.initial_hands)))
        rule.swap(self, seat)
