"""Finished tables, read without replaying them (issue 26).

When a match ends, the server stores the table's final state as a spectator
sees it (:attr:`~big2.server.store.SaveTable.final`, JSON text) beside its
snapshot, and its records and summary as before. Every later read of the
table (``GET /api/tables/<id>``, ``/ws/<id>``) is sent that text: from a small
cache in memory, else from one database read in a thread. Nothing is rebuilt
on the event loop. A table finished before the final state was stored is
rebuilt once, in a thread, and its final state is then stored and cached;
readers of the same table meanwhile wait for that one rebuild.

Reads of tables that are not live are limited per address
(:class:`~big2.server.hygiene.IpLimiter`), since their ids are public in the
records.

>>> import asyncio
>>> from big2.server.store import SaveTable, Store
>>> store = Store("sqlite://")
>>> store.apply([SaveTable("t1", "over", {}, {}, 9, final='{"type": "state"}')])
>>> reads = FinishedTables(store, rebuild=None)
>>> asyncio.run(reads.state("t1")), asyncio.run(reads.state("t2"))
('{"type": "state"}', None)
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from big2.server.store import DatabaseError, Store

__all__ = ["FinishedTables", "final_state"]


def final_state(table: Any) -> str:
    """A finished table's state message for a spectator, as JSON text (what is stored)."""
    return json.dumps(table.state_for(None), ensure_ascii=False)


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
        self._cache: OrderedDict[str, str] = OrderedDict()
        self._pending: dict[str, asyncio.Future[str | None]] = {}

    def remember(self, table_id: str, final: str) -> None:
        """Keep *final*, the state of a table that has just finished."""
        self._cache[table_id] = final
        self._cache.move_to_end(table_id)
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)

    async def state(self, table_id: str) -> str | None:
        """The final state of finished table *table_id* (JSON text), or ``None``
        if no table of that id is over. Raises :class:`DatabaseError` when the
        database cannot be read."""
        cached = self._cache.get(table_id)
        if cached is not None:
            self._cache.move_to_end(table_id)
            return cached
        pending = self._pending.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
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

    def _read(self, table_id: str) -> str | None:
        """In a thread: the stored final state, worked out and stored if missing."""
        try:
            found = self.store.finished(table_id)
            if found is None or found[0] != "over":
                return None
            if found[1] is not None:
                return found[1]
            stored = self.store.table(table_id)
            if stored is None or self.rebuild is None:
                return None
            final = final_state(self.rebuild(stored[1], stored[2]))
            self.rebuilt += 1
            self.store.set_final(table_id, final)
            return final
        except sa.exc.SQLAlchemyError as exc:
            raise DatabaseError(str(exc).splitlines()[0][:200]) from exc
