"""Database writes off the event loop, many in one commit.

:meth:`Writer.write` hands a list of :mod:`~big2.server.store` operations to a
thread of its own and awaits the outcome. The thread takes everything waiting
in its queue and applies it in one transaction (one commit for the moves of
many tables), so the event loop never waits on the disk or the network, and a
busy server commits far less often than it moves. If a grouped transaction
fails, each caller's list is tried alone, so one bad write fails only its own
caller; while the database is down every caller gets the
:class:`~big2.server.store.DatabaseError`.

>>> import asyncio
>>> from big2.server.store import SaveTable, Store
>>> store = Store("sqlite://")
>>> writer = Writer(store)
>>> asyncio.run(writer.write([SaveTable("t1", "waiting", {}, {}, 0)]))
>>> writer.close(); writer.commits
1
"""

from __future__ import annotations

import asyncio
import queue
import threading

from big2.server.store import DatabaseError, Op, Store

__all__ = ["Writer"]

_Item = tuple[list[Op], asyncio.Future[None], asyncio.AbstractEventLoop]


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


def _settle_all(settled: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for future, error in settled:
        _settle(future, error)


class Writer:
    """A writer thread over *store* (see the module doc); at most *batch*
    callers' writes go in one transaction."""

    def __init__(self, store: Store, batch: int = 500) -> None:
        self.store, self.batch = store, batch
        self.commits = 0
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    async def write(self, ops: list[Op]) -> None:
        """Apply *ops* (in one transaction, perhaps with others' ops); raises
        :class:`~big2.server.store.DatabaseError` when they were not applied."""
        if not ops:
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._start()
        self._queue.put((ops, future, loop))
        await future

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="big2-writer",
                                                daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            items = [item]
            while len(items) < self.batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)  # stop after this batch
                    break
                items.append(more)
            # one wake-up of each event loop for the whole batch, not one a caller
            done: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None],
                                                          BaseException | None]]] = {}
            for (_ops, future, loop), error in zip(items, self._apply(items)):
                done.setdefault(loop, []).append((future, error))
            for loop, settled in done.items():
                try:
                    loop.call_soon_threadsafe(_settle_all, settled)
                except RuntimeError:  # the loop has closed: nobody waits any more
                    pass

    def _apply(self, items: list[_Item]) -> list[BaseException | None]:
        try:
            self.store.apply([op for ops, _f, _l in items for op in ops])
            self.commits += 1
            return [None] * len(items)
        except DatabaseError as exc:
            if len(items) == 1:
                return [exc]
        except Exception as exc:  # noqa: BLE001 - reported to the caller that wrote it
            if len(items) == 1:
                return [exc]
        return [self._apply([item])[0] for item in items]

    def close(self) -> None:
        """Finish what is queued and stop the thread."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join(30)
