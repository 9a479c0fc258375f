"""A match: a series of deals with running totals and a moving dealer.

>>> from big2 import Match, Rules
>>> m = Match(Rules(match_deals=2), seed=5)
>>> g = m.new_game()
>>> g.dealer
0
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from big2.cards import Mask, cards_of
from big2.combos import engine
from big2.game import Game, deal
from big2.rules import Rules

TITLES = {
    **{n: ("President", "Vice-President", *("Citizen",) * (n - 4), "Vice-Scum", "Scum")
       for n in range(4, 9)},
    3: ("President", "Citizen", "Scum"),
    2: ("President", "Scum"),
}
"""Finishing titles by number of players, best first (President form; with five
to eight players, two decks, the middle seats are Citizens and exchange nothing)."""

Chooser = Callable[[int, Mask, int], Mask]
"""``choose(seat, hand, count) -> cards``: the cards a President or
Vice-President gives back (a mask of *count* cards from *hand*)."""


class Exchange(NamedTuple):
    """Cards handed over before a deal in the President form."""

    giver: int
    receiver: int
    cards: Mask


def finishing_order(game: Game) -> list[int]:
    """Seats from first out to last: the finishing order, then the rest by
    fewest cards left (ties in turn order after the winner)."""
    outcome = game.outcome()
    if outcome is None:
        raise RuntimeError("the deal is not over")
    order = list(outcome.finished) or [outcome.winner]
    start = order[0]
    turn = [start, *game._after[start][:-1]]
    rest = sorted((s for s in turn if s not in order), key=lambda s: (game.hands[s].bit_count(),
                                                                       turn.index(s)))
    return order + rest


def lowest_cards(seat: int, hand: Mask, count: int, *, rules: Rules | None = None) -> Mask:
    """The default giver's choice: the *count* lowest cards of *hand*."""
    strength = engine(rules or Rules()).strength
    out = 0
    for c in sorted(cards_of(hand), key=strength.__getitem__)[:count]:
        out |= 1 << c
    return out


class Match:
    """Deals in sequence. Call :meth:`new_game`, play it out, then
    :meth:`record`; :meth:`is_over` says when the end condition is met
    (``rules.match_deals`` deals, or a penalty total reaching
    ``rules.penalty_target`` under penalty scoring)."""

    def __init__(self, rules: Rules | None = None, *, seed: int | None = None,
                 names: Sequence[str] | None = None, deals: int | None = None) -> None:
        self.rules = rules or Rules()
        self.deals = self.rules.match_deals if deals is None else deals
        if self.deals == 0 and self.rules.scoring != "penalty":
            raise ValueError("a match needs a number of deals unless scoring is 'penalty'")
        self.names = tuple(names) if names else None
        self._rng = random.Random(seed)
        self.totals: list[int] = [0] * self.rules.players
        self.results: list[tuple[int, ...]] = []
        self.games: list[Game] = []
        self.dealer = 0
        self.last_winner: int | None = None
        self.titles: tuple[str, ...] = ()
        """Each seat's title after the last recorded deal (``exchange`` rule)."""
        self.exchanges: list[Exchange] = []
        """The cards handed over before the current deal (``exchange`` rule)."""
        self._order: list[int] = []
        self._shootout: Game | None = None

    def new_game(self, choose: Chooser | None = None) -> Game:
        """Deal the next game (the dealer moves one seat each deal).

        Under the ``exchange`` rule (President form), deals after the first
        start with the card exchange: the low titles' best cards go up
        automatically, and *choose* (default: the lowest cards) picks what each
        high title gives back, from the hand as dealt (``before``) or after
        receiving (``after``). The exchange is listed in :attr:`exchanges`.
        """
        if self.is_over():
            raise RuntimeError("the match is over")
        if self.games and not self.games[-1].is_over():
            raise RuntimeError("finish the current deal first")
        leader = None
        if self.rules.later_lead == "winner" and self.last_winner is not None:
            leader = self.last_winner
        if self._shootout is not None:  # teams: a tied deal is decided by a shoot-out
            game, self._shootout = self._shootout, None
            self.games.append(game)
            return game
        seed = self._rng.getrandbits(64)
        self.exchanges = []
        if self.rules.exchange != "off" and self._order:
            hands = self._exchange(deal(self.rules, random.Random(seed), self.dealer), choose)
            game = Game(self.rules, seed=seed, hands=hands, dealer=self.dealer, leader=leader,
                        names=self.names)
        else:
            game = Game(self.rules, seed=seed, dealer=self.dealer, leader=leader, names=self.names)
        self.games.append(game)
        return game

    def _exchange(self, hands: list[Mask], choose: Chooser | None) -> list[Mask]:
        """Hand cards over between the titles of the last deal."""
        rules = self.rules
        order = self._order
        strength = engine(rules).strength
        pairs = [(order[0], order[-1], 2 if len(order) > 2 else 1)]
        if len(order) >= 4:
            pairs.append((order[1], order[-2], 1))
        choose = choose or (lambda seat, hand, count: lowest_cards(seat, hand, count, rules=rules))
        dealt = list(hands)
        for high, low, count in pairs:
            best = 0
            for c in sorted(cards_of(hands[low]), key=strength.__getitem__)[-count:]:
                best |= 1 << c
            pool = dealt[high] if rules.exchange == "before" else hands[high] | best
            back = int(choose(high, pool, count))
            if back & ~pool or back.bit_count() != count:
                raise ValueError(f"seat {high} must give back {count} card(s) of its own hand")
            hands[low] &= ~best
            hands[high] |= best
            hands[high] &= ~back
            hands[low] |= back
            self.exchanges += [Exchange(low, high, best), Exchange(high, low, back)]
        return hands

    def record(self, game: Game | None = None) -> tuple[int, ...]:
        """Add a finished deal's scores to the totals and move the dealer."""
        game = game or self.games[-1]
        outcome = game.outcome()
        if outcome is None:
            raise RuntimeError("the deal is not over")
        if game.shootout:
            # teams tied: the next "deal" is the five-card shoot-out, same dealer
            self._shootout = game.shootout_game()
            return outcome.scores
        self.results.append(outcome.scores)
        self.totals = [t + s for t, s in zip(self.totals, outcome.scores)]
        self.last_winner = outcome.winner
        if self.rules.exchange != "off":
            self._order = finishing_order(game)
            names = TITLES[len(self._order)]
            self.titles = tuple(names[self._order.index(s)] for s in range(len(self._order)))
        step = -1 if self.rules.direction == "clockwise" else 1
        self.dealer = (self.dealer + step) % self.rules.players
        return outcome.scores

    def is_over(self) -> bool:
        """Whether the end condition is met."""
        if self.deals and len(self.results) >= self.deals:
            return True
        if self.rules.scoring == "penalty":
            return any(-t >= self.rules.penalty_target for t in self.totals)
        return False

    def standings(self) -> list[int]:
        """Seats from best total to worst."""
        return sorted(range(len(self.totals)), key=lambda s: -self.totals[s])
