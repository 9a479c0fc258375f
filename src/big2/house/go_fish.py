"""Go-Fish (RULES.md §2, two players): a player who passes draws the top card of the stock.

The stock is the undealt cards, shuffled by its own stream from the game's
seed, so it is the same whether the game dealt the hands or was given them
(records replay by hands and seed). Views show only the stock's size.
"""

from __future__ import annotations

import random

from big2.cards import Mask, cards_of
from big2.variant.hooks import DealState, HouseRule


class GoFish(HouseRule):
    """The ``go_fish`` option."""

    name = "go_fish"

    def start(self, game: DealState) -> None:
        """Lay out the stock: the cards no seat was dealt, in drawing order (drawn from the end)."""
        dealt = 0
        for h in game.initial_hands:
            dealt |= h
        left = cards_of(game.variant.deck.cards & ~dealt)
        rng = game.rng if game.seed is None else random.Random(
            f"stock:{game.seed}:{game.redeals}")
        rng.shuffle(left)
        game.stock[:] = left

    def on_pass(self, game: DealState, seat: int) -> None:
        """The passing player draws."""
        if game.stock:
            game.hands[seat] |= 1 << game.stock.pop()
            game.plays_changed(seat)


def unseen_stock(stock_size: int, unseen: Mask, rng: random.Random) -> list[int]:
    """A guess of a stock of *stock_size* cards among the *unseen* cards (search bots)."""
    left = cards_of(unseen)
    rng.shuffle(left)
    return left[:stock_size]
