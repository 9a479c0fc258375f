"""A deal stepped in the compiled core behind :class:`big2.Game` (:class:`NativeDeal`).

For a rule set the core plays whole (:attr:`~big2.variant.Variant.native_deal`: the
native engine and no house-rule hook), a game keeps its deal in a
:class:`big2._native.State`: the turn, the trick, the passes, the finishing order,
the scores and the history of plays and passes live there, and only the seat to
move is kept in Python (``to_move``, updated by each action). Every other piece
of the position (:data:`LAZY`: ``hands``, ``history``, ``log``, the play to beat,
the outcome, ...) is made as a Python object when it is read, from the core's
state at that moment; the history's :class:`~big2.view.Action` records are made
once each and kept.

The Python sequencing of :mod:`big2.game` stays the reference and is what every
other rule set runs. A game leaves the core (:meth:`NativeDeal._detach`: the
state becomes Python objects, the deal goes on in Python) when something the core
does not model happens to it: :meth:`~big2.position.Position.end` with an outcome
given from outside, a hand changed other than by playing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from big2.cards import CardSet, Mask
from big2.variant import Combo, Kind, Outcome, Variant, native
from big2.variant.keys import PLAY_MASK, PLAY_SHIFT
from big2.view import Action

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
    ``State.legal_plays()`` returns, each play read from it a :class:`CardSet`."""
    native.register_plays(cls, CardSet)

LAZY = frozenset({
    "hands", "history", "log", "finished", "stock", "trick_start", "waive", "_lead_passes",
    "_last", "_last_player", "_passed", "_must", "_outcome", "_hp", "_legal", "_keys", "_undo",
    "_last_size", "_follow_key",
})
"""The position's attributes that a game in the core makes when read (and a game in
Python keeps as plain attributes)."""


class Snapshot(NamedTuple):
    """The state at a trick's start (or the deal's), as :meth:`big2.Game.undo`
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


def start(v: Variant, hands: Sequence[Mask], to_move: int | None, must: Mask) -> Any:
    """The core's state of a deal of *hands* with *to_move* to lead (its first play
    containing *must*, or free when 0), or ``None`` when the deal runs in Python: a
    rule set with house-rule hooks or off the native engine, or a start the core
    does not take (a leader without cards)."""
    if not v.native_deal or to_move is None or not hands[to_move]:
        return None
    return native.deal_state(v.engine, list(hands), to_move, must, v)  # type: ignore[arg-type]


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


class NativeDeal:
    """The part of :class:`~big2.position.Position` that keeps a deal in the core
    (see the module docstring). ``_core`` is the :class:`big2._native.State`, or
    ``None`` while the deal runs in Python."""

    _core: Any
    _actions: list[Action]
    _in_python: type[NativeDeal] | None = None
    """On the class of a game in the core: the class it has in Python."""
    to_move: int | None
    num_players: int
    variant: Variant

    def _attach(self, core: Any) -> None:
        """Keep the deal in *core*: the lazy attributes leave the instance."""
        d = self.__dict__
        for name in LAZY:
            d.pop(name, None)
        d["_core"] = core
        self._actions = []
        self.to_move = core.to_move
        if self._in_python is None:
            self.__class__ = in_core(type(self))

    def _history(self, core: Any) -> list[Action]:
        """The history as :class:`Action` records, each made once (an undo cuts the list)."""
        acts = self._actions
        if len(acts) < core.steps:
            acts += core.actions(len(acts), Action)
        return acts

    def _read(self, core: Any, name: str) -> object:
        """The lazy attribute *name* made from *core* now."""
        if name == "history":
            return self._history(core)
        if name == "log":
            return list(self._history(core))
        if name == "hands":
            return core.hands
        if name == "finished":
            return core.finished
        if name == "_last":
            return combo(core.last)
        if name == "_outcome":
            return outcome(core)
        if name in ("_last_player", "_passed", "_must", "trick_start", "waive", "_lead_passes"):
            return getattr(core, name.lstrip("_"))
        if name in ("_last_size", "_follow_key"):  # what the Python loop follows by
            last = core.last
            if last is None:
                return 0
            size = last[0].bit_count()
            if name == "_last_size":
                return size if size <= 5 else 0
            return (last[2] << PLAY_SHIFT) | PLAY_MASK
        if name == "_undo":
            hands, to_move, must = core.start
            return [Snapshot(0, 0, tuple(hands), 0, 0, 0, False, must, to_move, 0, (), None)]
        return {"stock": [], "_legal": None, "_keys": None,
                "_hp": [None] * self.num_players}[name]

    def _detach(self) -> None:
        """Leave the core: every lazy attribute becomes a plain one and the deal goes
        on in Python (an undo then replays from the deal's start)."""
        core = self._core
        if core is None:
            return
        d = self.__dict__
        for name in LAZY:
            d[name] = self._read(core, name)
        d["_core"] = None
        del self._actions
        if self._in_python is not None:
            self.__class__ = self._in_python

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class in Python, with :meth:`__getstate__`'s state."""
        return (_rebuild, (self._in_python or type(self), self.__getstate__()))

    def __getstate__(self) -> dict[str, object]:
        """Pickled with the core's deal as its start and actions (rebuilt on load)."""
        state = dict(self.__dict__)
        core = state.get("_core")
        if core is not None:
            acts = core.actions()
            state["_core"] = (*core.start, [s for s, _ in acts], [m for _, m in acts])
            state["_actions"] = []
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        saved = state.get("_core")
        if isinstance(saved, tuple):
            hands, to_move, must, seats, masks = saved
            core = start(self.variant, hands, to_move, must)
            if core is None or core.replay(seats, masks) != len(masks):
                raise ValueError("a pickled native deal that its rule set cannot replay")
            self._attach(core)


class _Lazy:
    """A lazy attribute of a game in the core: made by :meth:`NativeDeal._read` when
    read; set from outside, it takes the game out of the core first."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, game: NativeDeal | None, owner: type | None = None) -> object:
        if game is None:
            return self
        return game._read(game._core, self.name)

    def __set__(self, game: NativeDeal, value: object) -> None:
        game._detach()
        setattr(game, self.name, value)


_IN_CORE: dict[type, type] = {}


def in_core(cls: type[NativeDeal]) -> type[NativeDeal]:
    """The class a game of class *cls* has while its deal is in the core: *cls* with
    the lazy attributes. (A game in Python has none, so reading its state is plain
    attribute access.)"""
    sub = _IN_CORE.get(cls)
    if sub is None:
        body: dict[str, object] = {name: _Lazy(name) for name in LAZY}
        body.update(__module__=cls.__module__, __qualname__=cls.__qualname__,
                    __doc__=cls.__doc__, _in_python=cls)
        sub = _IN_CORE[cls] = type(cls.__name__, (cls,), body)
    return sub


def _rebuild(cls: type[NativeDeal], state: dict[str, Any]) -> NativeDeal:
    """A pickled game back (see :meth:`NativeDeal.__reduce__`)."""
    game = object.__new__(cls)
    game.__setstate__(state)
    return game
