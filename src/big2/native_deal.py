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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from big2.cards import Mask
from big2.variant import Combo, Kind, Outcome, Variant
from big2.view import Action

LAZY = frozenset({
    "hands", "history", "log", "finished", "stock", "trick_start", "waive", "_lead_passes",
    "_last", "_last_player", "_passed", "_must", "_outcome", "_hp", "_legal", "_keys", "_undo",
})
"""The position's attributes that a game in the core makes when read (and a game in
Python keeps as plain attributes)."""


def start(v: Variant, hands: Sequence[Mask], to_move: int | None, must: Mask) -> Any:
    """The core's state of a deal of *hands* with *to_move* to lead (its first play
    containing *must*, or free when 0), or ``None`` when the deal runs in Python: a
    rule set with house-rule hooks or off the native engine, or a start the core
    does not take (a leader without cards)."""
    if not v.native_deal or to_move is None or not hands[to_move]:
        return None
    from big2 import _native  # built: native_deal says so

    return _native.State(v.engine.tables, list(hands), to_move, must)  # type: ignore[attr-defined]


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
    to_move: int | None
    num_players: int
    variant: Variant

    def _attach(self, core: Any) -> None:
        """Keep the deal in *core*: the lazy attributes leave the instance."""
        d = self.__dict__
        for name in LAZY:
            d.pop(name, None)
        self._core = core
        self._actions = []
        self.to_move = core.to_move

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
        if name in ("_last_player", "_passed", "_must", "trick_start"):
            return getattr(core, name.lstrip("_"))
        if name == "_undo":
            hands, to_move, must = core.start
            return [(0, 0, tuple(hands), 0, 0, 0, False, must, to_move, 0, (), None)]
        return {"stock": [], "waive": False, "_lead_passes": 0, "_legal": None, "_keys": None,
                "_hp": [None] * self.num_players}[name]

    if not TYPE_CHECKING:  # the checker reads the attributes' declared types instead
        def __getattr__(self, name: str) -> object:
            core = self.__dict__.get("_core")
            if core is None or name not in LAZY:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            return self._read(core, name)

    def _detach(self) -> None:
        """Leave the core: every lazy attribute becomes a plain one (those set on the
        instance meanwhile are kept) and the deal goes on in Python; an undo then
        replays from the deal's start."""
        core = self._core
        if core is None:
            return
        d = self.__dict__
        for name in LAZY:
            if name not in d:
                d[name] = self._read(core, name)
        self._core = None
        del self._actions

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
            self._core = core
