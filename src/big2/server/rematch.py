"""Rematches: a player of a finished match asks for another with the same seats.

``POST /api/tables/{id}/rematch`` with the seat token of a player of table *id*
(which is over) makes a new table with the same settings (rules, seats, bots,
deals, turn timer, name) once, and gives that player the same seat in it, under
the same name, with a new token. The other players who ask get their own seats
at that same new table; it starts when every person's seat is taken. A token
that is not one of the table's seats gets nothing (a clear refusal), and the
new table is remembered in memory only (after a restart, asking again makes
another)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import sqlalchemy as sa

from big2.server.core import Server
from big2.server.settings import TableError, TableSettings
from big2.server.store import DatabaseError
from big2.server.tables import Table

__all__ = ["Rematches"]


class NotAPlayer(TableError):
    """A rematch asked for with a token that is not one of the table's seats."""


class Rematches:
    """The rematch tables made so far, by the finished table they follow."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.made: dict[str, str] = {}
        self.lock = asyncio.Lock()

    async def ask(self, table_id: str, token: str) -> dict[str, Any]:
        """The rematch of finished table *table_id* for the player of *token*:
        ``{"table", "seat", "token"}`` (see the module doc)."""
        server = self.server
        if server.find(table_id) is not None:
            raise TableError("the match is not over yet: a rematch follows its last deal")
        final = await server.final_state(table_id)
        if final is None:
            raise TableError("no such finished table")
        seat = final.seat_of(token)
        if seat is None:
            raise NotAPlayer("only a player of this table can ask for its rematch")
        name = json.loads(final.text)["table"]["seats"][seat]["name"]
        async with self.lock:
            hub = server.find(self.made.get(table_id, ""))
            if hub is None:
                stored = await asyncio.to_thread(self._settings, table_id)
                table = Table.create(stored, timing=server.timing, auto_bot=server.auto_bot,
                                     now=server.now(), prefix=server.shard)
                hub = await server.add(table)
                self.made[table_id] = table.id
        tokens: list[str] = []
        await server.change(hub, lambda: tokens.append(hub.table.claim(seat, name,
                                                                         server.now())))
        return {"table": hub.table.id, "seat": seat, "token": tokens[0]}

    def _settings(self, table_id: str) -> TableSettings:
        """In a thread: the stored settings of the finished table."""
        try:
            found = self.server.store.table(table_id)
        except sa.exc.SQLAlchemyError as exc:
            raise DatabaseError(str(exc).splitlines()[0][:200]) from exc
        if found is None:
            raise TableError("no such finished table")
        return TableSettings.from_dict(found[1]["settings"])
