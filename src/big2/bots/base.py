"""The bot interface and the registry of bots by name and level."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from big2.cards import Mask
from big2.view import PlayerView

if TYPE_CHECKING:
    from big2.game import Game


class Bot(ABC):
    """A player given one seat's view. Deterministic for a given seed."""

    name = "bot"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.options = options

    @abstractmethod
    def choose(self, view: PlayerView) -> Mask:
        """Return one of ``view.legal`` (``0`` to pass)."""

    def choose_in(self, game: Game, seat: int) -> Mask:
        """:meth:`choose` for *seat*, the seat to move in *game* (``choose(game.view(seat))``);
        a bot that reads little of the view may skip building it (the vector
        environment's opponents call this)."""
        return self.choose(game.view(seat))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"


_REGISTRY: dict[str, Callable[..., Bot]] = {}
_NEEDS: dict[str, tuple[str, ...]] = {}
_ABOUT: dict[str, str] = {}

BOT_LEVELS: dict[str, str] = {
    "easy": "greedy", "medium": "heuristic", "hard": "guided-search", "expert": "guided-search",
}
"""Player-facing levels and the bot each maps to, the strongest measured for
the level within its time (docs/bots.md), with the options in
:data:`LEVEL_OPTIONS`: the one table of levels. ``hard`` and ``expert`` are
both the PPO policy network with a search on it (``guided-search``,
:func:`big2.bots.search.configs.guided_search`: heuristic play-outs may
overturn the network's play when another scores a point a deal better):
``hard`` with 200 play-outs a decision, ``expert`` with 2,000. No bot may be
registered under a level's name."""

LEVEL_OPTIONS: dict[str, dict[str, Any]] = {"hard": {"budget": 200}, "expert": {"budget": 2000}}
"""The options a level gives its bot; options passed to :func:`make_bot` win."""

STRONGEST_LEVEL = "expert"
"""The level of the strongest bot measured (docs/bots.md): the one the game
review (:mod:`big2.review`), the terminal's expert hint and the server's hint
use, so they follow when the level's bot changes."""


def bot_label(name: str) -> str:
    """How a bot named *name* (a level or a bot's name) is shown: a level with
    the bot it plays and its play-outs where it sets them, else the name.

    >>> bot_label("expert"), bot_label("greedy")
    ('expert: guided-search, 2,000 play-outs', 'greedy')
    """
    if name not in BOT_LEVELS:
        return name
    budget = LEVEL_OPTIONS.get(name, {}).get("budget")
    return f"{name}: {BOT_LEVELS[name]}" + (f", {budget:,} play-outs" if budget else "")


def register_bot(name: str, factory: Callable[..., Bot], about: str = "",
                 needs: tuple[str, ...] = ()) -> None:
    """Make *factory* available to :func:`make_bot` under *name*, described by
    *about* (one line); registering a name again replaces it. *needs*: the options it
    cannot play without (``dmc`` needs ``weights``), which leave it out of
    ``available_bots(ready=True)``, the list that front ends offer.

    Raises:
        ValueError: *name* is a level's (:data:`BOT_LEVELS`), which
            :func:`make_bot` would never reach.
    """
    if name in BOT_LEVELS:
        raise ValueError(f"{name!r} is a bot level (it plays {BOT_LEVELS[name]!r}); "
                         "choose another name")
    _REGISTRY[name] = factory
    _ABOUT[name] = about
    _NEEDS[name] = needs


def describe_bots() -> dict[str, str]:
    """Every name :func:`make_bot` accepts and what it is: the levels first."""
    out = {lv: f"level: {bot}" + "".join(f", {k}={v}" for k, v in LEVEL_OPTIONS.get(lv, {}).items())
           for lv, bot in BOT_LEVELS.items()}
    return out | {name: _ABOUT[name] for name in sorted(_REGISTRY)}


def available_bots(*, ready: bool = False) -> list[str]:
    """Bot names and levels :func:`make_bot` accepts (*ready*: only those that play
    without options, as a front end offers them)."""
    return sorted(n for n in _REGISTRY if not (ready and _NEEDS.get(n))) + list(BOT_LEVELS)


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by name (``random``, ``greedy`` …) or level (``easy`` …)."""
    key = BOT_LEVELS.get(name, name)
    if key not in _REGISTRY:
        raise ValueError(f"unknown bot {name!r}; choose from: {', '.join(available_bots())}")
    if name in BOT_LEVELS:
        options = {**LEVEL_OPTIONS.get(name, {}), **options}
    return _REGISTRY[key](seed=seed, **options)
