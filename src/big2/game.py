"""A deal of Big Two: :class:`Game`, the trick loop over a position.

:class:`Game` is a thin sequencer: it deals, takes plays and passes
(:meth:`Game.play`, :meth:`Game.pass_turn`), moves the turn, ends tricks and
the deal, and takes actions back (:meth:`Game.undo`). The state it moves and
the legal plays belong to its base :class:`~big2.position.Position`; the house
rules' extra actions to :class:`~big2.actions.HouseActions`. The rules' meaning
comes from the compiled :func:`~big2.variant.variant`: the deck deals and names
the leader, the play engine lists and reads plays, the turn order moves the
turn, the scorer scores, and switched-on house rules join through their hooks.
:class:`Game` itself reads no rule option. For a rule set the compiled core
plays whole (no house-rule hook), the core keeps the deal and steps it
(:mod:`big2.native_deal`); the Python trick loop here is the reference it is
tested against, and what every other rule set runs.

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

from big2.actions import HouseActions
from big2.cards import CardSet, Mask
from big2.house.go_fish import unseen_stock
from big2.house.redeal import hand_points
from big2.house.teams import Teams
from big2.native_deal import start as start_native
from big2.position import PASS_TEXT, IllegalPlayError, LegalPlays, to_mask
from big2.rules import Rules
from big2.variant import Combo, Kind, Outcome, Termination, deal, kind_name, must_redeal, variant
from big2.variant.keys import PLAY_MASK, PLAY_SHIFT
from big2.view import Action, LastCardCall, PlayerView, Record

PASS = CardSet(0)
"""The pass, as a play: the empty card set."""
_DEFAULT_RULES = Rules()
_PASS_WORDS = PASS_TEXT | {"Pass", "PASS", "P"}
"""The pass's names as usually written (the rest are found stripped and lower-cased)."""


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
        self.names = tuple(names) if names else tuple(f"Player {i + 1}" for i in range(n))
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
        self.log: list[Record] = []
        """Every action in order: plays and passes, and house-rule actions (records of
        :mod:`big2.log`); :attr:`history` holds the plays and passes alone."""
        self.restart(v.deal(self.rng, self.dealer) if hands is None else self._given(hands))

    def _given(self, hands: Sequence[Mask | str | Iterable[int]]) -> list[Mask]:
        deck = self.variant.deck
        return deck.check_hands([to_mask(h, deck.decks) for h in hands])

    def undo(self) -> Action:
        """Take back the last play or pass (and any call made after it); return it."""
        core = self._core
        if core is not None:
            seat, cards = core.undo()
            del self._actions[core.steps:]
            self.to_move = core.to_move
            return Action(seat, cards)
        if not self.history:
            raise IndexError("nothing to undo")
        keep = len(self.history) - 1
        while self._undo[-1].history > keep:
            self._undo.pop()
        snap = self._undo[-1]
        self._passed, self.trick_start = snap.passed, snap.trick_start
        self._lead_passes, self.waive, self._must = snap.lead_passes, snap.waive, snap.must
        self.to_move, self._outcome = snap.to_move, snap.outcome
        undone, later = self.history[-1], self.log[snap.log:]
        self.hands, self.stock = list(snap.hands), list(snap.stock)
        del self.history[snap.history:], self.log[snap.log:], self.finished[snap.finished:]
        self._last = self._last_player = None
        self._hp = [None] * self.num_players
        self._legal = self._keys = None
        for r in later:  # replay what followed the snapshot, up to the undone action
            if type(r) is Action:
                if len(self.history) == keep:
                    break
                if r.cards:
                    self._do_play(r.seat, r.cards, self._eng.as_played(r.cards, self._last))  # type: ignore[arg-type]
                else:
                    self._do_pass(r.seat)
            else:
                self.log.append(r)
        return undone

    # -- actions -----------------------------------------------------------------

    def play(self, cards: Mask | str | Iterable[int]) -> None:
        """Play *cards* (a mask, :class:`CardSet`, card text or card numbers).

        An empty play (``0``, ``""``, ``"pass"``) passes. Raises
        :class:`IllegalPlayError` with a reason if the play is not allowed.
        """
        if type(cards) is str and (cards in _PASS_WORDS or cards.strip().lower() in PASS_TEXT):
            cards = 0  # the pass by name takes the pass's own path
        core = self._core
        if core is not None:  # the deal is in the core: a listed play goes straight in
            seat = core.try_play(cards)
            if seat == -2:  # not a listed play as it stands: check it, or say why not
                seat = core.try_play(self._check(cards)[0])
                if seat == -2:  # the rules allow it, the core does not list it
                    raise RuntimeError(f"the core does not list the legal play {cards!r}")
            self.to_move = seat if seat >= 0 else None
            return
        legal = self._legal
        seat = self.to_move
        if (legal is not None and (type(cards) is int or type(cards) is CardSet)
                and seat is not None and cards in legal):
            # fast path: one of the listed legal plays (bots, self-play, legal_plays())
            if cards:
                cards = int(cards)  # an int or a CardSet here
                self._do_play(seat, cards, self._eng.as_played(cards, self._last))  # type: ignore[arg-type]
            else:
                self._do_pass(seat)
            return
        mask, combo = self._check(cards)
        assert self.to_move is not None
        if combo is None:
            self._do_pass(self.to_move)
        else:
            self._do_play(self.to_move, mask, combo)

    def pass_turn(self) -> None:
        """Pass: the same as ``play(PASS)``. Raises :class:`IllegalPlayError` for a
        leader who can play."""
        self.play(0)

    def _do_pass(self, seat: int) -> None:
        a = Action(seat, 0)
        self.history.append(a)
        self.log.append(a)
        self._legal = None
        if self._passers:
            for on_pass in self._passers:
                on_pass(self, seat)
        if self._last is None:  # a leader with no legal play (finish restrictions)
            self._lead_passes += 1
            if self._lead_passes >= sum(1 for h in self.hands if h):
                self.waive = True
            self.to_move = self._next_active(seat)
            return
        self._passed |= 1 << seat
        if self._one_pass:
            self._end_trick()
        else:
            self._advance(seat)

    def _do_play(self, seat: int, mask: Mask, combo: Combo) -> None:
        hands = self.hands
        hands[seat] &= ~mask
        hp = self._hp[seat]
        if hp is not None:
            self._hp[seat] = self._eng.after(hp, mask, hands[seat])
        a = Action(seat, mask)
        self.history.append(a)
        self.log.append(a)
        self._legal = None
        self._last = combo
        self._last_player = seat
        size = mask.bit_count()
        self._last_size = size if size <= 5 else 0
        self._follow_key = (combo.power << PLAY_SHIFT) | PLAY_MASK
        self._must = self._lead_passes = 0
        self.waive = False
        if self._jump_back:
            self._passed = 0
        if not hands[seat]:
            self.finished.append(seat)
            if self._first_out_ends or sum(1 for h in hands if h) <= 1:
                self._finish(mask)
                return
        self._advance(seat)

    def _next_active(self, seat: int) -> int:
        return next(s for s in self._after[seat] if self.hands[s])

    def _advance(self, seat: int) -> None:
        """Give the turn to the next seat still in the trick, or end the trick."""
        last, passed, hands = self._last_player, self._passed, self.hands
        for s in self._after[seat]:
            if s != last and hands[s] and not passed >> s & 1:
                self.to_move = s
                return
        self._end_trick()  # every other seat with cards has passed

    def _end_trick(self) -> None:
        """End the trick: its last player (or the next seat with cards) leads."""
        last = self._last_player
        assert last is not None
        self._last = self._last_player = None
        self._passed = 0
        self.trick_start = len(self.history)
        self.to_move = last if self.hands[last] else self._next_active(last)
        self._snapshot()

    def _finish(self, last_play: Mask) -> None:
        winner = self.finished[0]
        scores = self.variant.scorer.score(self.hands, winner, last_play, self.finished)
        outcome = Outcome(winner, scores, tuple(self.finished))
        for adjust in self.variant.adjusters:
            outcome = adjust(self, outcome, last_play)  # type: ignore[assignment]
        self.end(outcome)

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
        if g._core is not None:  # the core replays the history, on a copy of the start
            core = start_native(g.variant, start, first, must) if must else g._core.copy()
            plays = view.history
            if core is not None and core.replay([a.seat for a in plays],
                                                [a.cards for a in plays]) == len(plays):
                g._attach(core)  # undo goes back to this start, not the dealt one
                return g
            g._detach()  # not a history the core takes: Python replays it, or says why not
        if must:
            g._must = must
        g.stock = []  # the drawn cards are in the guessed hands already
        g._undo = []
        g._snapshot()  # undo goes back to this start, not the dealt one
        for a in view.history:
            if a.cards:
                combo = g._eng.as_played(a.cards, g._last)
                if combo is None:
                    raise IllegalPlayError(f"not a combination: {a}")
                g._do_play(a.seat, a.cards, combo)
            else:
                g._do_pass(a.seat)
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
        if self._core is not None:
            g._core, g._actions = self._core.copy(), list(self._actions)
            return g
        for name in ("hands", "history", "log", "finished", "stock", "_hp", "_undo"):
            setattr(g, name, list(getattr(self, name)))
        g._legal = g._keys = None
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
