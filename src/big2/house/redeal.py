"""Redeals (RULES.md §2): a weak hand may be thrown in; a deal with a hand without
face cards is dealt again.

Throwing in is the holder's choice, an action of its own
(:meth:`big2.Game.throw_in`) kept in the log as a :class:`~big2.log.ThrowIn`.
"""

from __future__ import annotations

from big2.cards import RANK_MASKS, Mask
from big2.log import Action
from big2.variant.hooks import DealState, HouseRule

_POINTS = {8: 1, 9: 2, 10: 3, 11: 4, 12: 5}  # J Q K A 2
_FACES = RANK_MASKS[8] | RANK_MASKS[9] | RANK_MASKS[10]


def hand_points(hand: Mask) -> int:
    """A hand's worth for the weak-hand redeal: J=1, Q=2, K=3, A=4, 2=5.

    >>> from big2.cards import parse_cards
    >>> hand_points(int(parse_cards("3D 4C JH 9S")))
    1
    """
    return sum(_POINTS.get(r, 0) * (hand & RANK_MASKS[r]).bit_count() for r in _POINTS)


class NoFaceRedeal(HouseRule):
    """``redeal`` with ``no-face``: a hand without a J, Q or K forces a new deal."""

    name = "no-face"

    def redeal(self, hand: Mask) -> bool:
        """No face card in *hand*."""
        return not hand & _FACES


class WeakHandRedeal(HouseRule):
    """``redeal`` with ``weak``: a hand worth 3 points or less may be thrown in."""

    name = "weak"

    def can_throw_in(self, game: DealState, seat: int) -> bool:
        """Before any play, a hand worth 3 points or less."""
        return (not any(type(r) is Action for r in game.log) and game.to_move is not None
                and hand_points(game.hands[seat]) <= 3)

    def throw_in(self, game: DealState, seat: int) -> None:
        """Deal again from the game's random stream and start over."""
        game.redeals += 1
        game.restart(game.variant.deal(game.rng, game.dealer))
