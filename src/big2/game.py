"""A deal of Big Two: :class:`Game`, the trick loop over a position.

:class:`Game` is a thin sequencer over its deal: it deals, and hands plays and
passes (:meth:`Game.play`, :meth:`Game.pass_turn`) and take-backs
(:meth:`Game.undo`) to the deal it holds, chosen once when the deal starts: a
:class:`~big2.native_deal.CoreDeal` for a rule set the compiled core plays whole
(no house-rule hook), else the Python reference :class:`~big2.python_deal.PythonDeal`
(the trick loop the core is tested against). The state read from the deal and
the legal plays are its base :class:`~big2.position.Position`'s; the house
rules' extra actions are :class:`~big2.actions.HouseActions`'. The rules' meaning
comes from the compiled :func:`~big2.variant.variant`: the deck deals and names
the leader, the play engine lists and reads plays, the turn order moves the
turn, the scorer scores, and switched-on house rules join through their hooks.
:class:`Game` itself reads no rule option.

>>> from big2 import Game, Rules
>>> g = Game(seed=7)
>>> g.to_move, str(g.hand(g.to_move))[:2]
(3, '3♦')
>>> g.play("3D")
>>> g.to_move
0
>>> g.play("3D")
Traceback (most recent call last):
...
big2.game.IllegalPlayError: you do not hold 3♦
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache

from big2.actions import HouseActions
from big2.cards import CardSet, Mask
from big2.house.go_fish import unseen_stock
from big2.house.redeal import hand_points
from big2.house.teams import Teams
from big2.native_deal import CoreDeal
from big2.native_deal import start as start_core
from big2.position import PASS_TEXT, IllegalPlayError, LegalPlays, to_mask
from big2.rules import Rules
from big2.variant import Kind, Outcome, Termination, deal, kind_name, must_redeal, variant
from big2.view import Action, LastCardCall, PlayerView

PASS = CardSet(0)
"""The pass, as a play: the empty card set."""
_DEFAULT_RULES = Rules()
_PASS_WORDS = PASS_TEXT | {"Pass", "PASS", "P"}
"""The pass's names as usually written (the rest are found stripped and lower-cased)."""


@cache
def _default_names(n: int) -> tuple[str, ...]:
    return tuple(f"Player {i + 1}" for i in range(n))


class Game(HouseActions):
    """One deal. Mutable, with a history that :meth:`undo` walks back.

    Args:
        rules: the rule set (default: the classic game).
        players: number of seats, overriding ``rules.players``.
        seed: seeds the shuffle, so a deal replays exactly.
        hands: deal these hands instead (masks, card text or card lists).
        dealer: the dealer's seat (the deal starts on its left).
        leader: the seat that leads freely; by default the holder of the
            lowest dealt card leads and must play that card.
        names: seat names.
    """

    def __init__(self, rules: Rules | None = None, players: int | None = None, *,
                 seed: int | None = None, hands: Sequence[Mask | str | Iterable[int]] | None = None,
                 dealer: int = 0, leader: int | None = None,
                 names: Sequence[str] | None = None) -> None:
        rules = rules or _DEFAULT_RULES
        v = variant(rules)
        if players is not None and players != v.turns.players:
            rules = rules.replace(players=players)
            v = variant(rules)
        if hands is not None and len(hands) != v.turns.players:
            rules = rules.replace(players=len(hands))
            v = variant(rules)
        self.rules = rules
        self.variant = v
        n = self.num_players = v.turns.players
        self.rng = random.Random(seed)
        """The deal's random stream (shuffles, redeals, the shoot-out)."""
        self.redeals = 0
        """How many times a weak hand was thrown in (:meth:`throw_in`)."""
        self.seed = seed
        self.dealer = dealer % n
        self.names = tuple(names) if names else _default_names(n)
        if len(self.names) != n:
            raise ValueError(f"{n} names needed, got {len(self.names)}")
        if leader is not None and not 0 <= leader < n:
            raise ValueError(f"leader must be a seat 0..{n - 1}")
        self._leader_arg = leader
        eng = self._eng = v.engine
        self._after = v.turns.after
        self._jump_back = v.turns.jump_back
        self._one_pass = v.turns.one_pass
        self._first_out_ends = v.scorer.first_out_ends
        self._inline = eng.bisect_follows
        self._filters, self._passers = v.filters, v.passers
        self.restart(v.deal(self.rng, self.dealer) if hands is None else self._given(hands))

    def _given(self, hands: Sequence[Mask | str | Iterable[int]]) -> list[Mask]:
        deck = self.variant.deck
        return deck.check_hands([to_mask(h, deck.decks) for h in hands])

    def undo(self) -> Action:
        """Take back the last play or pass (and any call made after it); return it."""
        return self._deal.undo()

    # -- actions -----------------------------------------------------------------

    def play(self, cards: Mask | str | Iterable[int]) -> None:
        """Play *cards* (a mask, :class:`CardSet`, card text or card numbers).

        An empty play (``0``, ``""``, ``"pass"``) passes. Raises
        :class:`IllegalPlayError` with a reason if the play is not allowed.
        """
        deal = self._deal
        seat = deal.try_play(cards)  # a listed play (an int) goes straight in
        if seat == -2:
            if type(cards) is str and (cards in _PASS_WORDS
                                       or cards.strip().lower() in PASS_TEXT):
                seat = deal.try_play(0)  # the pass by name takes the pass's own path
            if seat == -2:  # anything else: check it (or say why not), then make it
                deal.make(*self._check(cards))
                return
        self.to_move = seat if seat >= 0 else None

    def pass_turn(self) -> None:
        """Pass: the same as ``play(PASS)``. Raises :class:`IllegalPlayError` for a
        leader who can play."""
        self.play(0)

    @classmethod
    def from_view(cls, view: PlayerView, hands: Sequence[Mask], *,
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
        deck = g.variant.deck
        must = 0
        if not view.history and (view.opening or view.must_contain):
            low = deck.copies(int(view.must_contain) or deck.lowest(start))
            must = start[first] & low & -(start[first] & low)
        to_move = g.to_move
        if isinstance(g._deal, CoreDeal):  # the core replays the history, on a fresh deal
            core = start_core(g, start, first, must) if must else g._deal.copy(g)
            if core is not None and core.replay(view.history):
                g._use(core)  # undo goes back to this start, not the dealt one
                return g
            g.to_move = to_move  # not a history the core takes: Python replays it, or says why
        deal = g._in_python()
        if must:
            deal._must = must
        deal.stock = []  # the drawn cards are in the guessed hands already
        deal._undo = []
        deal.snapshot()  # undo goes back to this start, not the dealt one
        try:
            deal.replay(view.history)
        except ValueError as exc:
            raise IllegalPlayError(str(exc)) from None
        if view.stock_size:  # Go-Fish: guess the stock among the unseen cards
            unseen = int(view.unseen)
            for h in hands:
                unseen &= ~int(h)
            g.stock = unseen_stock(view.stock_size, unseen, rng or random.Random(0))
        if any(view.announced):
            g.log += [LastCardCall(s) for s, called in enumerate(view.announced) if called]
        return g

    def shootout_game(self) -> Game:
        """Teams: the five-card shoot-out that decides a tied deal: five fresh
        cards each (from this game's random stream), lowest card leads, same
        teams; a tie there calls for another."""
        if not self.shootout:
            raise ValueError("no shoot-out: the deal is not a tie between the teams")
        return Game(self.rules, seed=self.rng.getrandbits(64), hands=Teams.shootout_hands(self),
                    dealer=self.dealer, names=self.names)

    def copy(self) -> Game:
        """An independent copy of this game in its current position."""
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        g._use(self._deal.copy(g))
        return g


def free_leader(game: Game) -> int | None:
    """The seat *game* was told to lead freely (its ``leader`` argument), or
    ``None`` when the holder of the lowest card led (and had to play it), found
    from public facts: what a record or a snapshot needs to rebuild the deal."""
    if not game.history:
        return None if game.must_contain else game.to_move
    first = game.history[0]
    fresh = Game(game.rules, hands=list(game.initial_hands), dealer=game.dealer)
    if fresh.to_move == first.seat and fresh.is_legal(first.cards):
        return None  # the lowest-card rule gives the same deal (under opening="alone" too)
    return first.seat


__all__ = ["PASS", "Game", "IllegalPlayError", "Kind", "LegalPlays", "Outcome", "Termination",
           "deal", "free_leader", "hand_points", "kind_name", "must_redeal"]
