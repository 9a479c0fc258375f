"""The Python reference deal behind :class:`big2.Game` (:class:`PythonDeal`): a deal's
state and its trick loop, the reference the compiled core's deal
(:mod:`big2.native_deal`) is tested against and what every rule set the core does not
play whole runs.

A :class:`~big2.Game` holds one deal object, chosen when the deal starts: a
:class:`~big2.native_deal.CoreDeal` where the core plays the rule set whole, else a
:class:`PythonDeal`. Both answer the same calls (:class:`Deal`); the game reads its state
through them. The house rules' hooks are called with the game (they read its state by
name, as a caller does), so a deal keeps the game it belongs to.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from big2.cards import CardSet, Mask
from big2.variant import Combo, Outcome
from big2.variant.engine import Engine
from big2.variant.handplays import HandPlays
from big2.variant.keys import PLAY_MASK, PLAY_SHIFT
from big2.view import Action, Record


class Snapshot(NamedTuple):
    """The state at a trick's start (or the deal's), as :meth:`PythonDeal.undo`
    restores it before replaying the actions since."""

    history: int
    """How many plays and passes had been made (the length of the history)."""
    log: int
    """The length of the log."""
    hands: tuple[Mask, ...]
    passed: int
    """The seats that had passed, a bit each."""
    trick_start: int
    lead_passes: int
    """Passes of the lead in a row (finish restrictions)."""
    waive: bool
    must: Mask
    """The card the next play had to contain."""
    to_move: int | None
    finished: int
    """How many seats had gone out."""
    stock: tuple[int, ...]
    outcome: Outcome | None


class Deal(Protocol):
    """What a :class:`~big2.Game` asks of its deal: the state, read by name, and the
    moves. :class:`PythonDeal` and :class:`big2.native_deal.CoreDeal` answer it."""

    @property
    def hands(self) -> list[Mask]:
        """The hands now."""
    @property
    def history(self) -> list[Action]:
        """The plays and passes."""
    @property
    def log(self) -> list[Record]:
        """The plays, passes and house-rule records."""
    @property
    def finished(self) -> list[int]:
        """The seats gone out, in order."""
    @property
    def stock(self) -> list[int]:
        """The Go-Fish stock."""
    @property
    def trick_start(self) -> int:
        """Where the current trick starts in the history."""
    @property
    def waive(self) -> bool:
        """Whether the finish restriction is waived."""
    @property
    def _last(self) -> Combo | None: ...
    @property
    def _last_player(self) -> int | None: ...
    @property
    def _passed(self) -> int: ...
    @property
    def _must(self) -> Mask: ...
    @property
    def _outcome(self) -> Outcome | None: ...

    def try_play(self, cards: Any) -> int:
        """Make *cards* if it is a listed play (an int or a CardSet, as listed): the seat
        to move then (-1: the deal is over); -2 (nothing made) for anything else."""

    def make(self, mask: Mask, combo: Combo | None) -> None:
        """Make the play *mask* (*combo*; ``None``: the pass) that the game checked."""

    def legal_masks(self) -> list[Mask]:
        """The legal plays now as masks (shared; not to be changed)."""

    def legal_plays(self) -> Sequence[CardSet]:
        """The legal plays now as a :class:`~big2.position.LegalPlays`."""

    def play_keys(self) -> dict[object, Mask]:
        """Each legal play by its play key (the engine's ``play_key``)."""

    def undo(self) -> Action:
        """Take back the last play or pass; return it."""

    def numbers(self) -> tuple[int, int, int, int, int, int, int, int]:
        """The table's public state as plain numbers (:meth:`big2.Game.numbers`)."""

    def copy(self, game: Any) -> Deal:
        """An independent copy of this deal for *game* (a copy of its game)."""


PLAYS: list[Any] = [None]
"""The class of the legal plays (:class:`big2.position.LegalPlays`, registered by
:func:`big2.native_deal.register_plays`)."""


class PythonDeal:
    """A deal in Python: the reference trick loop over plain attributes (see the module
    docstring). *game* is the :class:`~big2.Game` it belongs to (its rule set, its seats,
    and what the house rules' hooks are given)."""

    def __init__(self, game: Any, hands: Sequence[Mask], to_move: int | None, must: Mask,
                 log: list[Record]) -> None:
        self.game = game
        v = game.variant
        self._eng: Engine = v.engine
        self.hands: list[Mask] = list(hands)
        self.history: list[Action] = []
        self.log: list[Record] = log
        self.finished: list[int] = []
        self.stock: list[int] = []
        self._last: Combo | None = None
        self._last_player: int | None = None
        self._passed = 0
        self.trick_start = 0
        self._lead_passes = 0
        self.waive = False
        self._legal: list[Mask] | None = None
        self._keys: dict[object, Mask] | None = None
        self._outcome: Outcome | None = None
        self._hp: list[HandPlays | None] = [None] * game.num_players
        self._undo: list[Snapshot] = []
        self._last_size = 0
        self._follow_key = 0
        game.to_move = to_move
        self._must = must

    @classmethod
    def from_state(cls, game: Any, state: Deal, start: Snapshot) -> PythonDeal:
        """A deal in Python in the state *state* (another deal's, read by name), whose
        undo goes back to *start*."""
        deal = cls(game, state.hands, game.to_move, state._must, list(state.log))
        deal.history = list(state.history)
        deal.finished = list(state.finished)
        deal._last, deal._last_player = state._last, state._last_player
        deal._passed, deal.trick_start, deal.waive = state._passed, state.trick_start, state.waive
        deal._lead_passes = getattr(state, "_lead_passes", 0)
        deal._outcome = state._outcome
        last = state._last
        if last is not None:
            size = last.cards.bit_count()
            deal._last_size = size if size <= 5 else 0
            deal._follow_key = (last.power << PLAY_SHIFT) | PLAY_MASK
        deal._undo = [start]
        return deal

    @property
    def to_move(self) -> int | None:
        """The seat to move (kept on the game)."""
        return self.game.to_move  # type: ignore[no-any-return]

    @to_move.setter
    def to_move(self, seat: int | None) -> None:
        self.game.to_move = seat

    # -- legal plays -------------------------------------------------------------

    def legal_masks(self) -> list[Mask]:
        """Every legal play now as a plain mask; ``0`` is the pass (shared)."""
        if self._legal is not None:
            return self._legal
        seat: int | None = self.game.to_move
        if seat is None:
            self._legal = []
            return self._legal
        hp = self._hp[seat]
        if hp is None:
            hp = self._hp[seat] = self._eng.hand_plays(self.hands[seat])
        last = self._last
        game = self.game
        if last is None:
            plays = hp.leads()
            if self._must:
                plays = game.variant.deck.first_plays(plays, self._must)
        elif game._inline:  # the plays of that size above the last one, by bisection
            group = hp.groups[self._last_size]
            plays = [p & PLAY_MASK for p in group[bisect_right(group, self._follow_key):]]
        else:
            plays = hp.follows(last)
        if last is not None or not plays:
            plays.append(0)
        if game._filters:
            for f in game._filters:
                f(game, plays)
        self._legal = plays
        self._keys = None
        return plays

    def legal_plays(self) -> Sequence[CardSet]:
        """The legal plays as a :class:`~big2.position.LegalPlays`."""
        seat = self.game.to_move
        hand = self.hands[seat] if seat is not None else 0
        return PLAYS[0](self.legal_masks(), self.game.variant, hand)  # type: ignore[no-any-return]

    def play_keys(self) -> dict[object, Mask]:
        """Each legal play by its play key (kept until the position changes)."""
        legal = self.legal_masks()
        keys = self._keys
        if keys is None:
            key = self._eng.play_key
            keys = self._keys = {key(p): p for p in legal}
        return keys

    # -- actions -----------------------------------------------------------------

    def try_play(self, cards: Any) -> int:
        """Make *cards* if it is a listed play (an int or a CardSet, as listed): the seat
        to move then (-1: the deal is over); -2 (nothing made) for anything else."""
        legal = self._legal
        game = self.game
        seat = game.to_move
        if (legal is None or not (type(cards) is int or type(cards) is CardSet)
                or seat is None or cards not in legal):
            return -2
        if cards:
            cards = int(cards)
            self._do_play(seat, cards, self._eng.as_played(cards, self._last))
        else:
            self._do_pass(seat)
        seat = game.to_move
        return -1 if seat is None else seat

    def make(self, mask: Mask, combo: Combo | None) -> None:
        """Make the play *mask* (*combo*; ``None``: the pass) that the game checked
        (:meth:`big2.Game.check_play`)."""
        seat = self.game.to_move
        assert seat is not None
        if combo is None:
            self._do_pass(seat)
        else:
            self._do_play(seat, mask, combo)

    def replay(self, history: Sequence[Action]) -> None:
        """Make *history*'s actions without the legality check (a search's guessed deal);
        a play that is no combination raises :class:`ValueError`."""
        for a in history:
            if a.cards:
                combo = self._eng.as_played(a.cards, self._last)
                if combo is None:
                    raise ValueError(f"not a combination: {a}")
                self._do_play(a.seat, a.cards, combo)
            else:
                self._do_pass(a.seat)

    def end(self, outcome: Outcome) -> None:
        """End the deal with *outcome*."""
        self._outcome = outcome
        self.game.to_move = None
        self._legal = None

    def hand_changed(self, seat: int) -> None:
        """*seat*'s hand changed other than by playing: list its plays afresh."""
        self._hp[seat] = None
        self._legal = None

    def _do_pass(self, seat: int) -> None:
        a = Action(seat, 0)
        self.history.append(a)
        self.log.append(a)
        self._legal = None
        game = self.game
        if game._passers:
            for on_pass in game._passers:
                on_pass(game, seat)
        if self._last is None:  # a leader with no legal play (finish restrictions)
            self._lead_passes += 1
            if self._lead_passes >= sum(1 for h in self.hands if h):
                self.waive = True
            game.to_move = self._next_active(seat)
            return
        self._passed |= 1 << seat
        if game._one_pass:
            self._end_trick()
        else:
            self._advance(seat)

    def _do_play(self, seat: int, mask: Mask, combo: Combo | None) -> None:
        assert combo is not None
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
        game = self.game
        if game._jump_back:
            self._passed = 0
        if not hands[seat]:
            self.finished.append(seat)
            if game._first_out_ends or sum(1 for h in hands if h) <= 1:
                self._finish(mask)
                return
        self._advance(seat)

    def _next_active(self, seat: int) -> int:
        after: tuple[int, ...] = self.game._after[seat]
        return next(s for s in after if self.hands[s])

    def _advance(self, seat: int) -> None:
        """Give the turn to the next seat still in the trick, or end the trick."""
        last, passed, hands = self._last_player, self._passed, self.hands
        for s in self.game._after[seat]:
            if s != last and hands[s] and not passed >> s & 1:
                self.game.to_move = s
                return
        self._end_trick()  # every other seat with cards has passed

    def _end_trick(self) -> None:
        """End the trick: its last player (or the next seat with cards) leads."""
        last = self._last_player
        assert last is not None
        self._last = self._last_player = None
        self._passed = 0
        self.trick_start = len(self.history)
        self.game.to_move = last if self.hands[last] else self._next_active(last)
        self.snapshot()

    def _finish(self, last_play: Mask) -> None:
        game = self.game
        winner = self.finished[0]
        scores = game.variant.scorer.score(self.hands, winner, last_play, self.finished)
        outcome = Outcome(winner, scores, tuple(self.finished))
        for adjust in game.variant.adjusters:
            outcome = adjust(game, outcome, last_play)
        game.end(outcome)

    def snapshot(self) -> None:
        """Keep the state at a trick's start (and the deal's): :meth:`undo` restores
        the latest one and replays the few actions since, so the trick loop pays
        for one snapshot a trick rather than one an action."""
        self._undo.append(Snapshot(len(self.history), len(self.log), tuple(self.hands),
                                   self._passed, self.trick_start, self._lead_passes, self.waive,
                                   self._must, self.game.to_move, len(self.finished),
                                   tuple(self.stock) if self.stock else (), self._outcome))

    def undo(self) -> Action:
        """Take back the last play or pass (and any call made after it); return it."""
        if not self.history:
            raise IndexError("nothing to undo")
        keep = len(self.history) - 1
        while self._undo[-1].history > keep:
            self._undo.pop()
        snap = self._undo[-1]
        self._passed, self.trick_start = snap.passed, snap.trick_start
        self._lead_passes, self.waive, self._must = snap.lead_passes, snap.waive, snap.must
        self.game.to_move, self._outcome = snap.to_move, snap.outcome
        undone, later = self.history[-1], self.log[snap.log:]
        self.hands, self.stock = list(snap.hands), list(snap.stock)
        del self.history[snap.history:], self.log[snap.log:], self.finished[snap.finished:]
        self._last = self._last_player = None
        self._hp = [None] * self.game.num_players
        self._legal = self._keys = None
        for r in later:  # replay what followed the snapshot, up to the undone action
            if type(r) is Action:
                if len(self.history) == keep:
                    break
                if r.cards:
                    self._do_play(r.seat, r.cards, self._eng.as_played(r.cards, self._last))
                else:
                    self._do_pass(r.seat)
            else:
                self.log.append(r)
        return undone

    def numbers(self) -> tuple[int, int, int, int, int, int, int, int]:
        """The table's public state as plain numbers (:meth:`big2.Game.numbers`)."""
        last = self._last
        seat = self.game.to_move
        to_move = -1 if seat is None else seat
        if last is None:
            return (to_move, -1, 0, 0, 0, -1, self._must, len(self.stock))
        history, start = self.history, self.trick_start
        first = history[start] if len(history) > start else None
        if first is not None and first.cards:
            leader = first.seat
        else:  # the trick began with a leader's pass (finish restrictions)
            leader = next((a.seat for a in history[start:] if a.cards), -1)
        return (to_move, self._last_player if self._last_player is not None else -1,
                last.cards, int(last.kind), self._passed, leader, self._must, len(self.stock))

    def copy(self, game: Any) -> PythonDeal:
        """An independent copy of this deal for *game*."""
        d = object.__new__(PythonDeal)
        d.__dict__.update(self.__dict__)
        d.game = game
        for name in ("hands", "history", "log", "finished", "stock", "_hp", "_undo"):
            setattr(d, name, list(getattr(self, name)))
        d._legal = d._keys = None
        return d
