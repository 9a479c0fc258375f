"""A deal stepped in the compiled core behind :class:`big2.Game` (:class:`CoreDeal`).

For a rule set the core plays whole (:attr:`~big2.variant.Variant.native_deal`: the
native engine and no house-rule hook), a game's deal is a :class:`CoreDeal` over a
:class:`big2._native.State` (or ``WideState``): the turn, the trick, the passes, the
finishing order, the scores and the history of plays and passes live there, and only
the seat to move is kept in Python (the game's ``to_move``, updated by each action).
Every other piece of the position (``hands``, ``history``, ``log``, the play to beat,
the outcome, ...) is made as a Python object when it is read, from the core's state
at that moment; the history's :class:`~big2.view.Action` records are made once each
and kept.

The Python deal (:class:`big2.python_deal.PythonDeal`) stays the reference and is what
every other rule set runs; both answer :class:`big2.python_deal.Deal`. A game leaves
the core (:meth:`CoreDeal.to_python`: the game's deal becomes a ``PythonDeal`` in the
same state, which goes on from there) when something the core does not model happens
to it: :meth:`~big2.position.Position.end` with an outcome given from outside, a hand
changed other than by playing, a piece of state set from outside.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from big2.cards import CardSet, Mask
from big2.python_deal import PLAYS, PythonDeal, Snapshot
from big2.variant import Combo, Kind, Outcome, Variant, native
from big2.view import Action, Record

_card_set = int.__new__
"""A :class:`CardSet` of a listed play, which needs no check."""


class _PlaysBase:
    """The sequence part of :class:`big2.position.LegalPlays` in Python, where the core
    is not built (the core's ``PlaysBase`` does the same in C): the masks, read as
    :class:`CardSet` plays one at a time."""

    __slots__ = ("_hand", "_keys", "_masks", "_variant")
    _masks: Sequence[Mask]
    _variant: Variant
    _hand: Mask
    _keys: frozenset[object] | None

    def __len__(self) -> int:
        return len(self._masks)

    @overload
    def __getitem__(self, i: int) -> CardSet: ...
    @overload
    def __getitem__(self, i: slice) -> list[CardSet]: ...
    def __getitem__(self, i: int | slice) -> CardSet | list[CardSet]:
        if type(i) is slice:
            return [_card_set(CardSet, m) for m in self._masks[i]]
        return _card_set(CardSet, self._masks[i])

    def __iter__(self) -> Iterator[CardSet]:
        return iter([_card_set(CardSet, m) for m in self._masks])


if TYPE_CHECKING:
    PlaysBase = _PlaysBase
else:
    PlaysBase = native.plays_base() or _PlaysBase


def register_plays(cls: type[PlaysBase]) -> None:
    """Make *cls* (:class:`big2.position.LegalPlays`) what the core's
    ``State.legal_plays()`` returns, each play read from it a :class:`CardSet`, and what
    a :class:`~big2.python_deal.PythonDeal` returns."""
    PLAYS[0] = cls
    native.register_plays(cls, CardSet)


def start(game: Any, hands: Sequence[Mask], to_move: int | None, must: Mask) -> CoreDeal | None:
    """*game*'s deal of *hands* in the core, with *to_move* to lead (its first play
    containing *must*, or free when 0), or ``None`` when the deal runs in Python: a
    rule set with house-rule hooks or off the native engine, or a start the core
    does not take (a leader without cards)."""
    v: Variant = game.variant
    if not v.native_deal or to_move is None or not hands[to_move]:
        return None
    core = native.deal_state(v.engine, list(hands), to_move, must, v)  # type: ignore[arg-type]
    return CoreDeal(game, core)


def combo(last: tuple[int, int, int] | None) -> Combo | None:
    """The core's play to beat, ``(cards, kind, power)``, as the engine's :class:`Combo`."""
    return None if last is None else Combo(Kind(last[1]), last[0], last[2])


def outcome(core: Any) -> Outcome | None:
    """The core's finished deal as an :class:`Outcome`, or ``None`` while it is played."""
    scores = core.scores
    if scores is None:
        return None
    finished = tuple(core.finished)
    return Outcome(finished[0], scores, finished)


class CoreDeal:
    """A deal kept in the core (see the module docstring): *core* is the
    :class:`big2._native.State` (or ``WideState``) of *game*'s deal."""

    def __init__(self, game: Any, core: Any) -> None:
        self.game = game
        self.core = core
        self.variant: Variant = game.variant
        self._actions: list[Action] = []
        self.legal_masks = core.legal
        self.legal_plays = core.legal_plays
        self.numbers = core.numbers
        self.try_play = core.try_play
        game.to_move = core.to_move

    legal_masks: Any
    """The legal plays now as masks: the core's list (shared; not to be changed)."""
    legal_plays: Any
    """The legal plays now: a :class:`~big2.position.LegalPlays` the core makes."""
    numbers: Any
    """The table's public state as plain numbers (:meth:`big2.Game.numbers`)."""

    try_play: Any
    """Make *cards* if it is a listed play (an int or a CardSet, as listed): the seat to
    move then (-1: the deal is over); -2 (nothing made) for anything else."""

    def make(self, mask: Mask, combo: Combo | None) -> None:
        """Make the play *mask* that the game checked (:meth:`big2.Game.check_play`)."""
        seat = self.core.try_play(mask)
        if seat == -2:  # the rules allow it, the core does not list it
            raise RuntimeError(f"the core does not list the legal play {mask!r}")
        self.game.to_move = seat if seat >= 0 else None

    def replay(self, history: Sequence[Action]) -> bool:
        """Make *history*'s actions without the legality check (a search's guessed
        deal); whether the core took them all (if not, it is left part-way)."""
        core = self.core
        if core.replay([a.seat for a in history], [a.cards for a in history]) != len(history):
            return False
        self.game.to_move = core.to_move
        return True

    def play_keys(self) -> dict[object, Mask]:
        """Each legal play by its play key."""
        key = self.variant.engine.play_key
        return {key(p): p for p in self.core.legal()}

    def undo(self) -> Action:
        """Take back the last play or pass (the core replays from the deal's start)."""
        core = self.core
        seat, cards = core.undo()
        del self._actions[core.steps:]
        self.game.to_move = core.to_move
        return Action(seat, cards)

    def copy(self, game: Any) -> CoreDeal:
        """An independent copy of this deal for *game*."""
        d = object.__new__(CoreDeal)
        d.__dict__.update(self.__dict__)
        d.game = game
        d.core = core = self.core.copy()
        d._actions = list(self._actions)
        d.legal_masks, d.legal_plays, d.numbers = core.legal, core.legal_plays, core.numbers
        d.try_play = core.try_play
        return d

    def to_python(self) -> PythonDeal:
        """This deal in Python, in the same state (its undo goes back to the deal's
        start): what the game goes on with when it leaves the core."""
        hands, to_move, must = self.core.start
        start = Snapshot(0, 0, tuple(hands), 0, 0, 0, False, must, to_move, 0, (), None)
        return PythonDeal.from_state(self.game, self, start)

    # -- the state, made when read -------------------------------------------------

    @property
    def history(self) -> list[Action]:
        """The plays and passes as :class:`Action` records, each made once."""
        acts, core = self._actions, self.core
        if len(acts) < core.steps:
            acts += core.actions(len(acts), Action)
        return acts

    @property
    def log(self) -> list[Record]:
        """The log: the history (no house-rule records in the core)."""
        return list(self.history)

    @property
    def hands(self) -> list[Mask]:
        """The hands now."""
        return self.core.hands  # type: ignore[no-any-return]

    @property
    def finished(self) -> list[int]:
        """The seats gone out, in order."""
        return self.core.finished  # type: ignore[no-any-return]

    @property
    def stock(self) -> list[int]:
        """No Go-Fish stock in the core."""
        return []

    @property
    def _last(self) -> Combo | None:
        return combo(self.core.last)

    @property
    def _outcome(self) -> Outcome | None:
        return outcome(self.core)

    @property
    def _last_player(self) -> int | None:
        return self.core.last_player  # type: ignore[no-any-return]

    @property
    def _passed(self) -> int:
        return self.core.passed  # type: ignore[no-any-return]

    @property
    def _must(self) -> Mask:
        return self.core.must  # type: ignore[no-any-return]

    @property
    def _lead_passes(self) -> int:
        return self.core.lead_passes  # type: ignore[no-any-return]

    @property
    def trick_start(self) -> int:
        """Where the current trick starts in the history."""
        return self.core.trick_start  # type: ignore[no-any-return]

    @property
    def waive(self) -> bool:
        """Every seat passed the lead (finish restrictions): the restriction is waived."""
        return self.core.waive  # type: ignore[no-any-return]

    @property
    def _hp(self) -> list[None]:
        return [None] * self.game.num_players

    def __getstate__(self) -> dict[str, object]:
        """Pickled as the deal's start and actions (replayed when loaded)."""
        core = self.core
        acts = core.actions()
        return {"game": self.game, "variant": self.variant,
                "core": (*core.start, [s for s, _ in acts], [m for _, m in acts])}

    def __setstate__(self, state: dict[str, Any]) -> None:
        hands, to_move, must, seats, masks = state["core"]
        v: Variant = state["variant"]
        core = native.deal_state(v.engine, list(hands), to_move, must, v)  # type: ignore[arg-type]
        if core.replay(seats, masks) != len(masks):
            raise ValueError("a pickled native deal that its rule set cannot replay")
        self.game, self.variant, self.core = state["game"], v, core
        self._actions = []
        self.legal_masks, self.legal_plays, self.numbers = core.legal, core.legal_plays, core.numbers
        self.try_play = core.try_play
