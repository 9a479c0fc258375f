"""Quick reactions at a friends' table: a seated player sends one of the fixed
set in :data:`big2.server.messages.REACTIONS` (👍 😮 😂 GG, never free text) and
everyone at the table, spectators too, gets ``{"type": "reaction", "seat": S,
"reaction": R}``. Nothing is stored.

A seat may react :data:`BURST` times in :data:`WINDOW` seconds; more is refused
with an error that says how long to wait. A table where every other seat is a
bot has nobody to react to: refused too."""

from __future__ import annotations

from collections import deque
from typing import Any

from big2.server.settings import TableError

BURST = 3  # reactions a seat may send ...
WINDOW = 10.0  # ... in this many seconds

__all__ = ["BURST", "WINDOW", "Reactions"]


class Reactions:
    """The recent reactions of one table's seats, for the rate limit."""

    def __init__(self) -> None:
        self._sent: dict[int, deque[float]] = {}

    def check(self, seat: int, now: float) -> None:
        """Count a reaction from *seat* at *now*, or raise :class:`TableError`
        if the seat has sent :data:`BURST` in the last :data:`WINDOW` seconds."""
        sent = self._sent.setdefault(seat, deque())
        while sent and now - sent[0] >= WINDOW:
            sent.popleft()
        if len(sent) >= BURST:
            wait = max(1, round(WINDOW - (now - sent[0]) + 0.5))
            raise TableError(f"too many reactions: wait {wait} s")
        sent.append(now)


def react(hub: Any, seat: int, reaction: str, now: float) -> None:
    """Send *seat*'s *reaction* (already one of the fixed set) to everyone at
    *hub*'s table, after the checks (see the module doc)."""
    table = hub.table
    if all(s.is_bot for i, s in enumerate(table.seats) if i != seat):
        raise TableError("reactions are for tables with friends: every other seat is a bot")
    hub.reactions.check(seat, now)
    message = {"type": "reaction", "seat": seat, "reaction": reaction}
    for conn in list(hub.connections):
        conn.send(message)
