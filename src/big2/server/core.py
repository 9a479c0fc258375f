"""The server's live tables: changes, storage, timers and bot moves (no HTTP).

A :class:`Server` keeps the live tables (each a :class:`Hub`: the
:class:`~big2.server.tables.Table`, its connections and its timer). Every
change goes through :meth:`Server.change`: under the table's lock the change
is made in memory, written to the database (off the event loop, by the
:class:`~big2.server.writer.Writer`) and only then sent to the clients. A play
is one appended row; every ``snapshot_every`` plays, and at every other change,
the whole table is written. If the write fails the table is put back as it was
stored (the saved snapshot and the plays since) and the caller is told; a bot
move that could not be saved is tried again a second later, so a table carries
on by itself when the database returns.

Bot moves and hints are chosen by the :class:`~big2.server.pool.BotPool`, so a
slow bot never holds up the event loop. Finished tables leave memory (their
records and final state stay in the database, read back by
:class:`~big2.server.finished.FinishedTables` without replaying the match),
and tables still waiting for players expire.
WebSocket handling is in :mod:`big2.server.sockets`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from big2.server.finished import Final, FinishedTables
from big2.server.hygiene import AddressLimit, FairTurns
from big2.server.pool import INLINE_BOTS, BotPool
from big2.server.reactions import Reactions
from big2.server.store import AddAction, AddRecord, DatabaseError, Op, SaveTable, Store
from big2.server.tables import AUTO_BOT, HINT_BOT, Table, TableError, Timing
from big2.server.writer import Writer

__all__ = ["TABLE_ID", "Hub", "Limits", "Server", "TableLimit"]

log = logging.getLogger("big2.server")

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a table id may look like; anything else names no table."""


@dataclass(frozen=True)
class Limits:
    """Abuse limits and table lifetimes.

    Attributes:
        rate: messages per second a connection may send on average.
        burst: how many it may send at once.
        kick_after: refused messages after which the connection is closed.
        max_tables: live tables at most (finished and expired ones do not count).
        queue: messages waiting for a slow client before it is dropped.
        send_seconds: how long one message may wait for a client that stopped reading
            before it is dropped.
        send_buffer: the kernel's send buffer of a WebSocket (``SO_SNDBUF``, bytes), so
            a client that stopped reading holds little memory before it is dropped.
        hello_seconds: how long a new connection has to say ``hello``.
        sockets_per_ip: open WebSockets from one address at most.
        sockets_per_table: open WebSockets to one table at most.
        create_rate, create_burst: tables one address may create a second, at once.
        join_rate, join_burst: seats one address may take a second, at once.
        waiting_seconds: a table still waiting for players after this long expires.
        body_bytes: the largest HTTP request body.
        snapshot_every: plays between whole-table snapshots.
        finished_rate, finished_burst: reads of tables that are not live (finished
            ones, by HTTP or WebSocket) one address may make a second, at once.
        waiting_per_ip: tables one address may have waiting for players at once
            (in this process), so one address cannot flood the lobby.
    """

    rate: float = 8.0
    burst: float = 24.0
    kick_after: int = 200
    max_tables: int = 500
    queue: int = 256
    send_seconds: float = 10.0
    send_buffer: int = 65536
    hello_seconds: float = 5.0
    sockets_per_ip: int = 64
    sockets_per_table: int = 256
    create_rate: float = 0.2
    create_burst: float = 20.0
    join_rate: float = 1.0
    join_burst: float = 30.0
    waiting_seconds: float = 1800.0
    body_bytes: int = 65536
    snapshot_every: int = 16
    finished_rate: float = 2.0
    finished_burst: float = 30.0
    waiting_per_ip: int = 3


class Hub:
    """A live table with its connections, its timer and what is stored of it."""

    def __init__(self, table: Table, now: float) -> None:
        self.table = table
        self.connections: set[Any] = set()  # sockets.Connection, once they said hello
        self.sockets = 0  # open WebSockets, hello or not
        self.timer: asyncio.TimerHandle | None = None
        self.lock = asyncio.Lock()
        self.saved: dict[str, Any] | None = None  # the snapshot last stored
        self.since: list[tuple[int, int]] = []  # plays stored after it: (version, cards)
        self.busy = False  # a bot move is being chosen
        self.retry_at = 0.0  # after a failed write, automatic steps wait until then
        self.touched = now  # the last change, for expiry
        self.reactions = Reactions()  # the seats' recent quick reactions (rate limit)
        self.creator = ""  # the address that created it (a cap on waiting tables per address)

    def send_all(self, now: float) -> None:
        """Send each connection the state built for its own seat."""
        cache: dict[int | None, str] = {}
        for conn in list(self.connections):
            if conn.seat not in cache:
                cache[conn.seat] = json.dumps(self.table.state_for(conn.seat, now),
                                              ensure_ascii=False)
            conn.send_text(cache[conn.seat])


class Server:
    """Live tables, persistence and automatic steps (see the module doc).

    Args:
        store: the database.
        timing: bot delay, grace period and pause between deals.
        auto_bot: the bot for hints and for absent or timed-out people (default:
            :data:`HINT_BOT`, the strongest level, for hints; :data:`AUTO_BOT` for the rest).
        limits: see :class:`Limits`.
        pool: where bot moves are chosen (default: two worker processes).
        shard: this process's table id prefix (``big2 serve --workers``);
            it resumes only its own tables.
        shared_lobby: list the lobby from the database (several processes).
    """

    def __init__(self, store: Store, *, timing: Timing | None = None,
                 auto_bot: str | None = None, limits: Limits | None = None,
                 pool: BotPool | None = None, shard: str = "",
                 shared_lobby: bool = False) -> None:
        self.store = store
        self.writer = Writer(store)
        self.timing = timing or Timing()
        self.auto_bot = auto_bot
        self.limits = limits or Limits()
        self.pool = pool if pool is not None else BotPool()
        self.hint_turns = FairTurns(max(1, self.pool.workers))
        """Hints waiting for the pool, taken in turn by address (one address asking
        from many seats waits behind its own, not others behind it)."""
        self.shard = shard
        self.shared_lobby = shared_lobby
        self.hubs: dict[str, Hub] = {}
        self.finished = FinishedTables(store, self.rebuild)
        shared = store if shared_lobby else None  # several processes: limits in the database
        lim = self.limits
        self.creating = AddressLimit("create", lim.create_rate, lim.create_burst, shared)
        self.joining = AddressLimit("join", lim.join_rate, lim.join_burst, shared)
        self.reads = AddressLimit("read", lim.finished_rate, lim.finished_burst, shared)
        self.internal_errors = 0
        self.db_errors = 0
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    @staticmethod
    def now() -> float:
        """The clock tables run on."""
        return time.monotonic()

    # -- lifecycle ---------------------------------------------------------------

    async def start(self) -> int:
        """Expire old waiting tables, resume the others; return how many resumed."""
        loaded = await asyncio.to_thread(self._load)
        now = self.now()
        for table, saved, since in loaded:
            hub = self.hubs[table.id] = Hub(table, now)
            hub.saved, hub.since = saved, since
        for hub in self.hubs.values():
            self.schedule(hub)
        self._sweeper = asyncio.create_task(self._sweep())
        bots = {s.bot for h in self.hubs.values() for s in h.table.seats if s.bot}
        if bots - INLINE_BOTS:  # the workers start with the first table that needs them
            self.pool.warm(sorted(bots | self._auto_bots()))
        return len(loaded)

    def _load(self) -> list[tuple[Table, dict[str, Any], list[tuple[int, int]]]]:
        expired = self.store.expire_waiting(time.time() - self.limits.waiting_seconds,
                                            self.shard)
        if expired:
            log.warning("%d table%s waiting too long expired", expired, "s"[:expired != 1])
        out = []
        for snap, actions in self.store.unfinished_tables(self.shard):
            try:
                out.append((self.rebuild(snap, actions), snap, actions))
            except Exception:  # a bad row must not stop the server
                log.exception("cannot resume table %s", snap.get("id"))
        return out

    def rebuild(self, snap: dict[str, Any], actions: list[tuple[int, int]]) -> Table:
        """The table stored as *snap* with *actions* played since."""
        now = self.now()
        table = Table.restore(snap, timing=self.timing, auto_bot=self.auto_bot, now=now)
        for version, cards in actions:
            table.replay(cards, version, now)
        return table

    async def stop(self) -> None:
        """Cancel timers, store every table whole, stop the writer and the pool."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in list(self._tasks):
            task.cancel()
        for hub in self.hubs.values():
            if hub.timer is not None:
                hub.timer.cancel()
        ops: list[Op] = []
        for hub in self.hubs.values():
            ops += self._full(hub.table)[1]
        try:
            await self.writer.write(ops)
        except DatabaseError as exc:
            log.error("tables not saved at shutdown: %s", exc)
        self.writer.close()
        self.pool.close()
        self.store.close()

    async def add(self, table: Table) -> Hub:
        """Start serving a new table (stored first)."""
        if len(self.hubs) >= self.limits.max_tables:
            raise TableLimit("too many tables; try again later")
        hub = Hub(table, self.now())
        snap, ops = self._full(table)
        await self.writer.write(ops)
        hub.saved, hub.since = snap, []
        self.hubs[table.id] = hub
        bots = {s.bot for s in table.seats if s.bot}
        if bots - INLINE_BOTS:
            self.pool.warm(sorted(bots | self._auto_bots()))
        self.schedule(hub)
        return hub

    def find(self, table_id: str) -> Hub | None:
        """The live table *table_id*, or ``None`` (a finished table's state is
        read with :meth:`final_state`)."""
        return self.hubs.get(table_id)

    async def final_state(self, table_id: str) -> Final | None:
        """What is stored of finished table *table_id* (its final state), or
        ``None``; never replayed on the event loop (see :mod:`big2.server.finished`)."""
        if not TABLE_ID.fullmatch(table_id):
            return None
        return await self.finished.state(table_id)

    async def lobby(self, find: str = "", open_only: bool = False, offset: int = 0,
                    limit: int = 100) -> list[dict[str, Any]]:
        """The open and running tables, newest first: *limit* of them from *offset*
        (of the newest 200), those with *find* in their name or rules (any case)
        only, and with *open_only* those with a seat open only."""
        if self.shared_lobby:
            rows = await asyncio.to_thread(self.store.lobby, 200)
        else:
            rows = [self.summary(h) for h in self.hubs.values()
                    if h.table.status != "over" and not h.table.settings.private]
        rows = sorted(rows, key=lambda r: -float(r.get("created", 0)))[:200]
        needle = find.casefold().strip()
        if needle:
            rows = [r for r in rows if needle in str(r.get("name", "")).casefold()
                    or needle in str(r.get("rules", "")).casefold()]
        if open_only:
            rows = [r for r in rows if r.get("open")]
        return rows[offset:offset + limit]

    def waiting_from(self, address: str) -> int:
        """How many tables *address* created that are still waiting for players."""
        return sum(1 for h in self.hubs.values()
                   if h.creator == address and h.table.status == "waiting")

    def first_expiry(self, address: str) -> int:
        """Whole seconds (at least 1) until the first of *address*'s waiting tables expires
        (``Retry-After`` when it has too many waiting)."""
        now = self.now()
        left = [self.limits.waiting_seconds - (now - h.touched) for h in self.hubs.values()
                if h.creator == address and h.table.status == "waiting"]
        return max(1, round(min(left, default=1.0) + 0.5))

    def summary(self, hub: Hub) -> dict[str, Any]:
        """A table's lobby entry."""
        return hub.table.summary() | {"watchers": len(hub.connections),
                                      "created": hub.table.created}

    async def _sweep(self) -> None:
        """Expire tables that waited for players too long."""
        every = max(0.05, min(30.0, self.limits.waiting_seconds / 4))
        while True:
            await asyncio.sleep(every)
            now = self.now()
            for hub in list(self.hubs.values()):
                if (hub.table.status == "waiting"
                        and now - hub.touched > self.limits.waiting_seconds):
                    await self._expire(hub)
            if self.shared_lobby:  # shared buckets untouched for an hour are full: forget them
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self.store.forget_limits, time.time() - 3600)

    async def _expire(self, hub: Hub) -> None:
        table = hub.table
        try:
            await self.writer.write([SaveTable(table.id, "expired", table.snapshot(), {},
                                               table.version)])
        except DatabaseError:
            return  # tried again at the next sweep
        self._retire(hub)
        for conn in list(hub.connections):
            conn.send({"type": "error", "message": "this table expired: nobody took the "
                       "open seats in time", "id": None})
            conn.close()

    def _retire(self, hub: Hub) -> None:
        if hub.timer is not None:
            hub.timer.cancel()
            hub.timer = None
        if self.hubs.get(hub.table.id) is hub:
            del self.hubs[hub.table.id]

    # -- changes -----------------------------------------------------------------

    async def change(self, hub: Hub, make: Callable[[], object]) -> bool:
        """Make a change with *make* (which raises :class:`TableError` to refuse
        and returns ``False`` if it did nothing), store it, then send it.
        Raises :class:`DatabaseError` when it could not be stored: the table is
        then as it was before."""
        async with hub.lock:
            table = hub.table
            game = table.game
            before = (table.version, len(table.match.games), len(game.history) if game else 0)
            if make() is False or table.version == before[0]:
                return False
            now = self.now()
            try:
                await self._store(hub, before)
            except DatabaseError:
                self.db_errors += 1
                self._roll_back(hub)
                raise
            hub.touched, hub.retry_at = now, 0.0
            hub.send_all(now)
            if hub.table.status == "over":
                self.finished.remember(hub.table.id, Final.of(hub.table))
                self._retire(hub)
            else:
                self.schedule(hub)
            return True

    async def _store(self, hub: Hub, before: tuple[int, int, int]) -> None:
        table = hub.table
        game = table.game
        one_play = (game is not None and table.status == "playing"
                    and (len(table.match.games), len(game.history)) == (before[1], before[2] + 1)
                    and len(hub.since) < self.limits.snapshot_every and hub.saved is not None)
        if one_play:
            assert game is not None
            action = (table.version, game.history[-1].cards)
            await self.writer.write([AddAction(table.id, *action)])
            hub.since.append(action)
            return
        snap, ops = self._full(table)
        await self.writer.write(ops)
        hub.saved, hub.since = snap, []
        table.finished.clear()

    def _full(self, table: Table) -> tuple[dict[str, Any], list[Op]]:
        """The whole table's snapshot and the writes that store it (with any
        finished deals)."""
        snap = table.snapshot()
        summary = ({} if table.settings.private
                   else table.summary() | {"created": table.created, "watchers": 0})
        final = Final.of(table) if table.status == "over" else None
        ops: list[Op] = [SaveTable(table.id, table.status, snap, summary, table.version,
                                   None if final is None else final.text,
                                   None if final is None else list(final.seats))]
        ops += [AddRecord(table.id, int(r.tags.get("Deal", "0")), r) for r in table.finished]
        return snap, ops

    def _roll_back(self, hub: Hub) -> None:
        """Put the table back as it is stored, keeping who is connected."""
        old = hub.table
        assert hub.saved is not None
        try:
            new = self.rebuild(hub.saved, hub.since)
        except Exception:  # pragma: no cover - the stored form always rebuilds
            self.internal_errors += 1
            log.exception("table %s: cannot roll back", old.id)
            return
        for seat, was in zip(new.seats, old.seats):
            seat.connections, seat.away_since, seat._bot = was.connections, was.away_since, was._bot
        new.version = max(new.version, old.version) + 1
        new.last_change, new.turn_started = old.last_change, old.turn_started
        hub.table = new

    # -- automatic steps ---------------------------------------------------------

    def schedule(self, hub: Hub) -> None:
        """Arm the table's timer for its next automatic step."""
        if hub.timer is not None:
            hub.timer.cancel()
            hub.timer = None
        due = hub.table.due()
        if due is None or hub.busy or self.hubs.get(hub.table.id) is not hub:
            return
        loop = asyncio.get_running_loop()
        when = max(due, hub.retry_at) - self.now()
        hub.timer = loop.call_later(max(0.0, when), self._tick, hub)

    def _tick(self, hub: Hub) -> None:
        hub.timer = None
        task = asyncio.create_task(self._step(hub))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _step(self, hub: Hub) -> None:
        table = hub.table
        try:
            if table.status == "between":
                await self.change(hub, lambda: hub.table.step(self.now()))
                return
            move = table.pending(self.now())
            if move is None:
                self.schedule(hub)
                return
            hub.busy = True
            try:
                choice = await self.pool.choose(move.bot, move.view)
            finally:
                hub.busy = False
            if not await self.change(hub, lambda: hub.table.apply(move, choice, self.now())):
                self.schedule(hub)
        except DatabaseError as exc:
            log.warning("table %s: automatic step not saved (%s); trying again", table.id, exc)
            hub.retry_at = self.now() + 1.0
            self.schedule(hub)
        except Exception:
            self.internal_errors += 1
            log.exception("table %s: automatic step failed", table.id)

    def _auto_bots(self) -> set[str]:
        """The bots this server plays for people: the hint's and the timeouts'."""
        return {self.auto_bot or AUTO_BOT, self.auto_bot or HINT_BOT}

    async def hint(self, hub: Hub, seat: int, address: str = "") -> dict[str, Any]:
        """The hint bot's play for *seat* (on its turn): ``cards`` (card names),
        ``bot`` (the bot that chose it: a level with the bot it plays,
        :func:`big2.bots.bot_label`, or the quick bot that answered when the
        hint bot ran out of time) and ``why`` (:meth:`Why.data
        <big2.bots.rules_based.reasons.Why.data>`, or ``None`` when no simple fact says it);
        ``fallback``: when another bot answered, the bot asked and its time budget in
        seconds (``{"asked": …, "seconds": …}``), else ``None``. Hints asked from *address*
        wait their turn behind other addresses' (:attr:`hint_turns`)."""
        from big2.bots import bot_label
        from big2.bots.rules_based.reasons import why_play
        from big2.server.state import cards_text

        view = hub.table.hint_view(seat)
        asked = self.auto_bot or HINT_BOT
        async with self.hint_turns.turn(address):
            play, bot = await self.pool.choose_named(asked, view)
        why = why_play(view, play)
        return {"cards": cards_text(play).split(), "bot": bot_label(bot),
                "why": None if why is None else why.data(),
                "fallback": None if bot == asked else {"asked": bot_label(asked),
                                                       "seconds": self.pool.budget}}


class TableLimit(TableError):
    """The server holds as many live tables as it may (HTTP 503)."""

