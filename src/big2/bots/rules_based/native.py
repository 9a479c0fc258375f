"""The heuristic bot in the compiled core: its decision and the searches' play-out.

``big2._native.bots`` (C++17, ``src/native/heuristic.hpp`` and
``heuristic_plan.hpp``) is :func:`big2.bots.rules_based.planning.heuristic_play` line for
line (the planner's bounded search, :func:`big2.bots.rules_based.control.way_out`, the
tie-breaks and orderings, the float arithmetic in the same order), and
:func:`big2.bots.search.evaluators.rollout` on a deal stepped in the core. The Python code
stays the reference: ``tests/bots/test_native_heuristic.py`` checks that both
choose the same play and that play-outs end with the same scores.

What runs natively, and what falls back to Python:

- :func:`heuristic_play`: every rule set the native engine plays
  (:func:`big2.variant.native.native_reason` is ``None``, and the variant's
  engine is the compiled one, so not under ``BIG2_ENGINE=python``), house
  rules included (their legal plays come from the game; finish restrictions
  and Go-Fish's growing hands are compiled in). Otherwise it returns ``None``
  and the caller runs the Python code.
- :func:`rollout` (and :func:`frame`, :func:`play_outs`, the searches' batch of
  a sample's candidates): those rule sets whose deals the core steps itself
  (:func:`big2.variant.native.native_game_reason` is ``None``: no house-rule
  hooks), from a position with a seat to move. Otherwise ``None``.

Each rule set's :func:`config` is compiled once (cached per engine).

>>> from big2.rules import Rules
>>> from big2.combos import engine
>>> from big2.cards import FULL_DECK
>>> from big2.bots.rules_based.planning import heuristic_play as python_play
>>> eng = engine(Rules())
>>> hand = 0b1011 | 1 << 20 | 1 << 33
>>> legal = eng.leads(hand)
>>> got = heuristic_play(eng, 0, hand, legal, 0, (6, 13, 13, 13), FULL_DECK & ~hand)
>>> got is None or got == python_play(eng, 0, hand, legal, 0, (6, 13, 13, 13), FULL_DECK & ~hand)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from big2.cards import Mask
from big2.house.restrictions import FinishRestrictions
from big2.variant import Engine, variant
from big2.variant.native import NativeEngine, native_game_reason, native_reason

if TYPE_CHECKING:
    from big2.bots.rules_based.planning import Style
    from big2.game import Game

try:
    from big2._native import bots as _core
except ImportError:  # pragma: no cover - a source tree without the built extension
    _core = None  # type: ignore[assignment]

_CONFIGS: dict[int, tuple[Engine, Any]] = {}
_STYLES: dict[Any, Any] = {}


def config(eng: Engine) -> Any | None:
    """The core's compiled view of *eng*'s rule set (:class:`big2._native.bots.Config`),
    or ``None`` when the heuristic runs in Python there (see the module docstring)."""
    got = _CONFIGS.get(id(eng))
    if got is not None and got[0] is eng:
        return got[1]
    cfg = None
    if _core is not None and isinstance(eng, NativeEngine) and native_reason(eng.rules) is None:
        v = variant(eng.rules)
        barring = v.house_rule(FinishRestrictions)
        if not v.odd_straights and not eng.compare.smack:
            cfg = _core.Config(
                eng.tables, suit_rank=list(eng.suit_rank), suited=bool(eng.suited),
                five_kinds=[int(k) for k in eng.five_kinds], hands_grow=v.hands_grow,
                barred=list(barring.restrictions) if barring is not None else [],
                longest_play=v.longest_play)
    _CONFIGS[id(eng)] = (eng, cfg)
    return cfg


def _style(style: Style) -> Any:
    got = _STYLES.get(style)
    if got is None:
        got = _STYLES[style] = _core.Style(
            all_kinds=style.all_kinds, go_out=style.go_out, hold_two_above=style.hold_two_above,
            hold_two_plays=style.hold_two_plays, break_limit=float(style.break_limit),
            break_limit_danger=float(style.break_limit_danger), low_cards=style.low_cards)
    return got


def plan(eng: Engine, hand: Mask, all_kinds: bool = True) -> tuple[tuple[Mask, ...], float] | None:
    """:func:`big2.bots.rules_based.planning.plan` in the core, as ``(combos, cost)``, or ``None``
    when the rule set is not played there."""
    cfg = config(eng)
    if cfg is None:
        return None
    combos, cost = _core.plan(cfg, hand, all_kinds)
    return tuple(combos), cost


def heuristic_play(eng: Engine, seat: int, hand: Mask, legal: Sequence[Mask], last: Mask,
                   counts: Sequence[int], unseen: Mask, style: Style | None = None) -> Mask | None:
    """:func:`big2.bots.rules_based.planning.heuristic_play` in the core (same arguments, same
    choice), or ``None`` when the rule set is not played there."""
    cfg = config(eng)
    if cfg is None:
        return None
    if style is None:
        from big2.bots.rules_based.planning import DEFAULT_STYLE

        style = DEFAULT_STYLE
    return _core.heuristic_play(cfg, _style(style), seat, hand, list(legal), last, list(counts),
                                unseen)


def rollout(game: Game, eng: Engine, greedy_seats: int = 0,
            style: Style | None = None) -> tuple[int, ...] | None:
    """The final scores of :func:`big2.bots.search.evaluators.rollout` from *game*'s position
    (the heuristic at every seat, the greedy rule at the seats in the bit mask
    *greedy_seats*), played in the core; ``None`` when the core cannot play the
    deal out (house-rule hooks on, another engine, the deal over). *game* is
    left as it was."""
    cfg = config(eng)
    if cfg is None or native_game_reason(eng.rules) is not None or game.to_move is None:
        return None
    if style is None:
        from big2.bots.rules_based.planning import DEFAULT_STYLE

        style = DEFAULT_STYLE
    got = frame(game, eng)
    if got is None:
        return None
    to_move, must, last, last_player, passed, finished = got
    scores = _core.rollout(cfg, _style(style), list(game.hands), to_move, must, last,
                           last_player, passed, list(finished), greedy_seats)
    return tuple(scores)


Frame = tuple[int, Mask, Mask, int, int, tuple[int, ...]]
"""A position without its hands, as the core steps it: ``(to_move, must-card, play to
beat (0: none), its player (-1), passed seats (bits), finished seats in order)``."""


def frame(game: Game, eng: Engine) -> Frame | None:
    """*game*'s position without its hands (:data:`Frame`), or ``None`` when the core
    cannot play it out (as :func:`rollout`). It depends on the public actions alone, so
    one frame serves every guess of the hidden hands of a view."""
    if (config(eng) is None or native_game_reason(eng.rules) is not None
            or game.to_move is None):
        return None
    to_move, last_player, last, _, passed, _, must, stock = game.numbers()
    if stock:
        return None
    return to_move, must, last, last_player, passed, tuple(game.finished)


def play_outs(eng: Engine, position: Frame, hands: Sequence[Mask], firsts: Sequence[Mask],
              greedy_seats: int = 0, style: Style | None = None) -> list[tuple[int, ...]]:
    """For each legal play in *firsts*: the final scores of playing it in *position*
    with *hands* and then :func:`rollout` (one call for a sample's candidates).

    Raises:
        ValueError: a play of *firsts* is not legal there, or *position* is not a
            frame of this rule set (:func:`frame` gave it).
    """
    cfg = config(eng)
    if cfg is None:
        raise ValueError("play_outs: the rule set is not played in the core")
    if style is None:
        from big2.bots.rules_based.planning import DEFAULT_STYLE

        style = DEFAULT_STYLE
    to_move, must, last, last_player, passed, finished = position
    got = _core.play_outs(cfg, _style(style), list(hands), to_move, must, last, last_player,
                          passed, list(finished), list(firsts), greedy_seats)
    return [tuple(s) for s in got]


def seat_play_outs(eng: Engine, position: Frame, seat: int, style: Style | None = None
                   ) -> Callable[[Sequence[Mask], Sequence[Mask], int], list[float]]:
    """:func:`play_outs` for many hand guesses of one position: the function
    ``run(hands, firsts, greedy_seats)`` giving *seat*'s final score for each
    play of *firsts* (as ``[float(s[seat]) for s in play_outs(...)]``), with
    the position's arguments made once (a search calls it once a world).

    Raises:
        ValueError: the rule set is not played in the core.
    """
    cfg = config(eng)
    if cfg is None:
        raise ValueError("play_outs: the rule set is not played in the core")
    if style is None:
        from big2.bots.rules_based.planning import DEFAULT_STYLE

        style = DEFAULT_STYLE
    st, core = _style(style), _core.play_outs
    to_move, must, last, last_player, passed, finished = position
    done = list(finished)

    def run(hands: Sequence[Mask], firsts: Sequence[Mask], greedy_seats: int = 0
            ) -> list[float]:
        got = core(cfg, st, list(hands), to_move, must, last, last_player, passed, done,
                   list(firsts), greedy_seats)
        return [float(s[seat]) for s in got]

    return run


__all__ = ["Frame", "config", "frame", "heuristic_play", "plan", "play_outs", "rollout",
           "seat_play_outs"]
