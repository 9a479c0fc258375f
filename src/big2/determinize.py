"""Determinization: a full game rebuilt from one seat's view and a guess of the
hidden cards, for search bots (:meth:`big2.Game.from_view`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from big2.cards import Mask
from big2.house.go_fish import unseen_stock
from big2.view import LastCardCall, PlayerView

if TYPE_CHECKING:
    from big2.game import Game


def from_view(cls: type[Game], view: PlayerView, hands: Sequence[Mask], *,
              rng: random.Random | None = None) -> Game:
    """A game in *view*'s position with *hands* as every seat's current cards
    (``hands[view.seat]`` must be the view's own hand): how a search bot plays
    out one guess of the hidden cards. A Go-Fish stock is guessed with *rng*
    (default: a fixed stream, so a seeded bot is reproducible)."""
    if len(hands) != view.num_players:
        raise ValueError(f"{view.num_players} hands needed")
    if int(hands[view.seat]) != int(view.hand):
        raise ValueError("hands[view.seat] must be the view's own hand")
    for s, h in enumerate(hands):
        if int(h).bit_count() != view.card_counts[s]:
            raise ValueError(f"seat {s} must hold {view.card_counts[s]} cards")
    start = [int(h) for h in hands]
    for a in view.history:
        start[a.seat] |= a.cards
    first = view.history[0].seat if view.history else (view.to_move or 0)
    g = cls(view.rules, hands=start, leader=first, names=view.names)
    if not view.history and (view.opening or view.must_contain):
        low = g.variant.deck.copies(int(view.must_contain) or g.variant.deck.lowest(start))
        g._must = start[first] & low & -(start[first] & low)
    g.stock = []  # the drawn cards are in the guessed hands already
    g._undo = []
    g._snapshot()  # undo goes back to this start, not the dealt one
    for a in view.history:
        if a.cards:
            combo = g._eng.as_played(a.cards, g._last)
            if combo is None:
                from big2.game import IllegalPlayError

                raise IllegalPlayError(f"not a combination: {a}")
            g._do_play(a.seat, a.cards, combo)
        else:
            g._do_pass(a.seat)
    if view.stock_size:  # Go-Fish: guess the stock among the unseen cards
        unseen = g.variant.deck.cards & ~int(view.played) & ~int(view.spare)
        for h in hands:
            unseen &= ~int(h)
        g.stock = unseen_stock(view.stock_size, unseen, rng or random.Random(0))
    g.log += [LastCardCall(s) for s, called in enumerate(view.announced) if called]
    return g

