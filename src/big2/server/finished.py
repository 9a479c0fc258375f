"""Finished tables, read without replaying them (issue 26).

When a match ends, the server stores the table's final state as a spectator
sees it (:attr:`~big2.server.store.SaveTable.final`, JSON text) and its seats'
token hashes beside its snapshot, and its records and summary as before.
Every later read of the table (``GET /api/tables/<id>``, ``/ws/<id>``) is sent
that text (a :class:`Final`): from a small cache in memory, else from one
database read in a thread. A player who says ``hello`` with its seat's token
gets the same state for its seat (``you``, and its hand, which the end of the
deal shows anyway). Nothing is rebuilt
on the event loop. A table finished before the final state was stored is
rebuilt once, in a thread, and its final state is then stored and cached;
readers of the same table meanwhile wait for that one rebuild.

Reads of tables that are not live are limited per address
(:class:`~big2.server.hygiene.IpLimiter`), since their ids are public in the
records.

>>> import asyncio
>>> from big2.server.store import SaveTable, Store
>>> store = Store("sqlite://")
>>> store.apply([SaveTable("t1", "over", {}, {}, 9, '{"type": "state"}', [None])])
>>> reads = FinishedTables(store, rebuild=None)
>>> asyncio.run(reads.state("t1")).text, asyncio.run(reads.state("t2"))
('{"type": "state"}', None)
"""

from __future__ import annotations

import asyncio
import hmac
import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from big2.server.store import DatabaseError, Store
from big2.server.tables import Table, _hash_token

__all__ = ["Final", "FinishedTables"]


@dataclass(frozen=True)
class Final:
    """A finished table as it is stored: the spectator's state message (JSON
    text) and each seat's token hash (``None`` for a bot's or an open seat)."""

    text: str
    seats: tuple[str | None, ...] = ()

    @classmethod
    def of(cls, table: Table) -> Final:
        """What is stored of *table*, which is over."""
        return cls(json.dumps(table.state_for(None), ensure_ascii=False),
                   tuple(s.token_hash for s in table.seats))

    def seat_of(self, token: str | None) -> int | None:
        """The seat *token* belongs to, or ``None`` (compared in constant time)."""
        if not token or len(token) > 200:
            return None
        digest, found = _hash_token(token), None
        for i, h in enumerate(self.seats):
            if h is not None and hmac.compare_digest(h, digest):
                found = i
        return found

    def text_for(self, seat: int | None) -> str:
        """The state message for *seat* (``None``: a spectator): the same state,
        with ``you`` and the seat's remaining cards (shown at the deal's end anyway)."""
        if seat is None:
            return self.text
        state = json.loads(self.text)
        state["you"] = seat
        game = state.get("game")
        if game is not None:
            game["hand"] = game["end"]["hands"][seat] if game.get("end") else []
            game["legal"] = []
        return json.dumps(state, ensure_ascii=False)


class FinishedTables:
    """The final states of finished tables (see the module doc).

    Args:
        store: the database.
        rebuild: ``rebuild(snapshot, actions) -> Table``, for a table finished
            before its final state was stored (called in a thread).
        size: final states kept in memory.
    """

    def __init__(self, store: Store, rebuild: Callable[..., Any] | None,
                 size: int = 256) -> None:
        self.store, self.rebuild, self.size = store, rebuild, size
        self.rebuilt = 0  # tables rebuilt because no final state was stored
        self._cache: OrderedDict[str, Final] = OrderedDict()
        self._pending: dict[str, asyncio.Future[Final | None]] = {}

    def remember(self, table_id: str, final: Final) -> None:
        """Keep *final*, the state of a table that has just finished."""
        self._cache[table_id] = final
        self._cache.move_to_end(table_id)
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)

    async def state(self, table_id: str) -> Final | None:
        """What is stored of finished table *table_id*, or ``None``
        if no table of that id is over. Raises :class:`DatabaseError` when the
        database cannot be read."""
        cached = self._cache.get(table_id)
        if cached is not None:
            self._cache.move_to_end(table_id)
            return cached
        pending = self._pending.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Final | None] = asyncio.get_running_loop().create_future()
        self._pending[table_id] = future
        try:
            final = await asyncio.to_thread(self._read, table_id)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a failure no other reader waited for is not logged
            raise
        finally:
            del self._pending[table_id]
        future.set_result(final)
        if final is not None:
            self.remember(table_id, final)
        return final

    def _read(self, table_id: str) -> Final | None:
        """In a thread: what is stored of the finished table, worked out and
        stored if missing."""
        try:
            found = self.store.finished(table_id)
            if found is None or found[0] != "over":
                return None
            if found[1] is not None:
                return Final(found[1], tuple(found[2] or ()))
            stored = self.store.table(table_id)
            if stored is None or self.rebuild is None:
                return None
            final = Final.of(self.rebuild(stored[1], stored[2]))
            self.rebuilt += 1
            self.store.set_final(table_id, final.text, list(final.seats))
            return final
        except sa.exc.SQLAlchemyError as exc:
            raise DatabaseError(str(exc).splitlines()[0][:200]) from exc
