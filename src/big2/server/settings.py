"""What a server table is made of, before any play: its settings, the
server's pacing, table ids and the bot for hints and timeouts.

>>> len(new_id()), new_id("3")[0]
(8, '3')
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from big2.bots import STRONGEST_LEVEL, Bot, make_bot
from big2.rules import Rules
from big2.variant import variant

__all__ = ["AUTO_BOT", "HINT_BOT", "TableError", "TableSettings", "Timing", "hint_bot", "new_id"]

HINT_BOT = STRONGEST_LEVEL
"""The bot that gives hints where the server names none (``big2 serve --bot``):
the strongest level (:data:`big2.bots.STRONGEST_LEVEL`)."""

AUTO_BOT = "heuristic"
"""The bot that plays for timed-out or absent players where the server names
none, when registered (quick, so a table never waits on it)."""


def hint_bot(name: str | None = None, seed: int | None = None) -> Bot:
    """The bot for timeouts (:meth:`Table.hint <big2.server.tables.Table.hint>`
    uses it too): *name*, else :data:`AUTO_BOT` if some module has registered
    it, else ``greedy``."""
    if name:
        return make_bot(name, seed=seed)
    try:
        import big2.bots.rules_based.heuristic  # noqa: F401  (registers "heuristic")
    except ImportError:  # pragma: no cover - depends on the installed bots
        pass
    try:
        return make_bot(AUTO_BOT, seed=seed)
    except ValueError:  # pragma: no cover
        return make_bot("greedy", seed=seed)


def new_id(prefix: str = "") -> str:
    """An unguessable table id for links, after *prefix* (the shard of the
    server process that holds the table, see ``big2 serve --workers``)."""
    return prefix + secrets.token_urlsafe(6)


class TableError(ValueError):
    """A request the table refuses (not your turn, seat taken, illegal play…);
    the message says why and nothing has changed."""


@dataclass(frozen=True)
class Timing:
    """Server-wide pacing (seconds).

    Attributes:
        bot_delay: pause before a bot moves, so people can follow.
        grace: how long a disconnected player's seat waits before a bot plays for it.
        deal_pause: pause between deals unless every connected player says next.
    """

    bot_delay: float = 0.9
    grace: float = 30.0
    deal_pause: float = 20.0


@dataclass(frozen=True)
class TableSettings:
    """What a table is created with.

    Attributes:
        rules: the rule set (``rules.players`` seats).
        seats: per seat, ``None`` for a person or a bot name/level.
        deals: deals in the match (``0``: the rules' ``match_deals``).
        turn_time: seconds a person has per turn (``0``: no limit); on
            timeout the server plays the hint bot's choice.
        name: the table's name in the lobby.
        private: not listed in the lobby; people join by the table's link.
    """

    rules: Rules
    seats: tuple[str | None, ...]
    deals: int = 0
    turn_time: float = 0.0
    name: str = "Big Two"
    private: bool = False

    def __post_init__(self) -> None:
        v = variant(self.rules)
        if len(self.seats) != v.players:
            raise TableError(f"{v.players} seats needed, got {len(self.seats)}")
        for s in self.seats:
            if s is not None:
                make_bot(s)  # raises ValueError for an unknown bot
        if self.turn_time < 0:
            raise TableError("turn_time must be 0 (none) or positive")
        if self.deals < 0:
            raise TableError("deals must be 0 (the rules' number) or positive")
        if not self.deals and v.plan.endless:
            raise TableError("a match needs a number of deals unless scoring is 'penalty'")

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (full rules)."""
        return {"rules": self.rules.to_dict(), "seats": list(self.seats), "deals": self.deals,
                "turn_time": self.turn_time, "name": self.name, "private": self.private}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSettings:
        """Inverse of :meth:`to_dict`."""
        return cls(rules=Rules.from_dict(data["rules"]), seats=tuple(data["seats"]),
                   deals=int(data["deals"]), turn_time=float(data["turn_time"]),
                   name=str(data["name"]), private=bool(data.get("private", False)))
