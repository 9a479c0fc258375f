"""The web application: lobby and table pages, a JSON API and the WebSocket.

:func:`create_app` builds a FastAPI app around a :class:`Server`, which keeps
the live tables (:class:`~big2.server.tables.Table`), their connections and
timers, and writes every change to the :class:`~big2.server.store.Store`, so a
restart resumes unfinished tables. All game logic is in
:mod:`big2.server.tables`; all message checking in :mod:`big2.server.protocol`.

Run it with ``big2 serve`` (see :mod:`big2.server.cli`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect, WebSocketState

from big2 import svg
from big2.bots import BOT_LEVELS, available_bots
from big2.cards import CARD_NAMES
from big2.rules import OPTIONS, PRESETS
from big2.server import protocol
from big2.server.bodies import CreateTable, JoinTable, settings_of
from big2.server.store import Store
from big2.server.tables import Table, TableError, Timing, cards_text

__all__ = ["Limits", "Server", "create_app"]

log = logging.getLogger("big2.server")
STATIC = Path(__file__).parent / "static"


@dataclass(frozen=True)
class Limits:
    """Abuse limits.

    Attributes:
        rate: messages per second a connection may send on average.
        burst: how many it may send at once.
        kick_after: refused messages after which the connection is closed.
        max_tables: live tables at most.
        queue: messages waiting for a slow client before it is dropped.
    """

    rate: float = 8.0
    burst: float = 24.0
    kick_after: int = 200
    max_tables: int = 500
    queue: int = 256


class Connection:
    """One WebSocket client: its seat (``None`` watches), outgoing queue and limiter."""

    def __init__(self, ws: WebSocket, limits: Limits) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.hello = False
        self.limiter = protocol.RateLimiter(limits.rate, limits.burst)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(limits.queue)
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue *message*; a client that falls too far behind is dropped."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(json.dumps(message, ensure_ascii=False))
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Stop sending and close after what is queued."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages until closed."""
        while True:
            text = await self.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self.ws.close(1008)
                return
            try:
                await self.ws.send_text(text)
            except Exception:  # noqa: BLE001 - whatever the transport raises, the client is gone
                self.closed = True
                return


class Hub:
    """A live table with its connections and its timer."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.connections: set[Connection] = set()
        self.timer: asyncio.TimerHandle | None = None


class Server:
    """Live tables, persistence and message handling (no HTTP routing here)."""

    def __init__(self, store: Store, *, timing: Timing | None = None,
                 auto_bot: str | None = None, limits: Limits | None = None) -> None:
        self.store = store
        self.timing = timing or Timing()
        self.auto_bot = auto_bot
        self.limits = limits or Limits()
        self.hubs: dict[str, Hub] = {}
        self.internal_errors = 0

    @staticmethod
    def now() -> float:
        """The clock tables run on."""
        return time.monotonic()

    # -- lifecycle ---------------------------------------------------------------

    def resume(self) -> int:
        """Load every unfinished table from the store; return how many."""
        for snap in self.store.unfinished_tables():
            try:
                table = Table.restore(snap, timing=self.timing, auto_bot=self.auto_bot,
                                      now=self.now())
            except Exception:  # a bad row must not stop the server
                log.exception("cannot resume table %s", snap.get("id"))
                continue
            self.hubs[table.id] = Hub(table)
        for hub in self.hubs.values():
            self.schedule(hub)
        return len(self.hubs)

    def shutdown(self) -> None:
        """Cancel timers and save every table."""
        for hub in self.hubs.values():
            if hub.timer is not None:
                hub.timer.cancel()
            self.persist(hub)

    def add(self, table: Table) -> Hub:
        """Start serving a new table."""
        if len(self.hubs) >= self.limits.max_tables:
            raise HTTPException(503, "too many tables; try again later")
        hub = self.hubs[table.id] = Hub(table)
        self.commit(hub)
        return hub

    # -- changes -----------------------------------------------------------------

    def persist(self, hub: Hub) -> None:
        """Save the table and store any finished deal as a record."""
        table = hub.table
        self.store.save_table(table.id, table.status, table.snapshot())
        while table.finished:
            record = table.finished.pop(0)
            self.store.add_record(table.id, int(record.tags.get("Deal", "0")), record)

    def commit(self, hub: Hub) -> None:
        """After a change: save, tell every client, and re-arm the timer."""
        self.persist(hub)
        self.broadcast(hub)
        self.schedule(hub)

    def broadcast(self, hub: Hub) -> None:
        """Send each connection the state built for its own seat."""
        now = self.now()
        cache: dict[int | None, dict[str, Any]] = {}
        for conn in list(hub.connections):
            if conn.seat not in cache:
                cache[conn.seat] = hub.table.state_for(conn.seat, now)
            conn.send(cache[conn.seat])

    def schedule(self, hub: Hub) -> None:
        """Arm the table's timer for its next automatic step."""
        if hub.timer is not None:
            hub.timer.cancel()
            hub.timer = None
        due = hub.table.due()
        if due is None:
            return
        loop = asyncio.get_running_loop()
        hub.timer = loop.call_later(max(0.0, due - self.now()), self._tick, hub)

    def _tick(self, hub: Hub) -> None:
        hub.timer = None
        try:
            changed = hub.table.step(self.now())
        except Exception:
            self.internal_errors += 1
            log.exception("table %s: automatic step failed", hub.table.id)
            return
        if changed:
            self.commit(hub)
        else:
            self.schedule(hub)

    # -- messages ----------------------------------------------------------------

    def handle(self, hub: Hub, conn: Connection, text: str) -> None:
        """Act on one client message; every refusal is an ``error`` reply."""
        if not conn.limiter.allow():
            if conn.limiter.refused > self.limits.kick_after:
                conn.close()
            elif conn.limiter.refused % 10 == 1:
                conn.send(protocol.error("too many messages: slow down"))
            return
        try:
            msg = protocol.parse(text)
        except protocol.ProtocolError as exc:
            conn.send(protocol.error(str(exc)))
            return
        try:
            self._dispatch(hub, conn, msg)
        except TableError as exc:
            conn.send(protocol.error(str(exc), msg.id))
        except Exception:
            self.internal_errors += 1
            log.exception("table %s: message failed", hub.table.id)
            conn.send(protocol.error("internal error", msg.id))

    def _dispatch(self, hub: Hub, conn: Connection, msg: Any) -> None:
        table, now = hub.table, self.now()
        if isinstance(msg, protocol.Ping):
            conn.send({"type": "pong", "id": msg.id})
            return
        if isinstance(msg, protocol.Hello):
            if conn.hello:
                raise TableError("already identified")
            seat = table.seat_for_token(msg.token)
            if msg.token is not None and seat is None:
                conn.send(protocol.error("unknown seat token: you are watching", msg.id))
            conn.hello, conn.seat = True, seat
            hub.connections.add(conn)
            table.connect(seat, now)
            self.broadcast(hub)
            self.schedule(hub)
            return
        if not conn.hello:
            raise TableError("send hello first")
        if conn.seat is None:
            raise TableError("spectators cannot act: join a seat to play")
        seat = conn.seat
        if isinstance(msg, protocol.Hint):
            conn.send({"type": "hint", "cards": cards_text(table.hint(seat)).split(),
                       "id": msg.id})
            return
        if isinstance(msg, protocol.Play | protocol.Pass):
            cards = 0
            if isinstance(msg, protocol.Play):
                try:
                    cards = protocol.cards_mask(msg.cards, table.rules.decks)
                except protocol.ProtocolError as exc:
                    raise TableError(str(exc)) from None
            table.act(seat, cards, now)
        elif isinstance(msg, protocol.Next):
            table.ready(seat, now)
        elif isinstance(msg, protocol.Start):
            table.fill_with_bots(now, bot="medium")
        self.commit(hub)

    async def serve_socket(self, ws: WebSocket, table_id: str) -> None:
        """Run one WebSocket connection to the end."""
        await ws.accept()
        hub = self.hubs.get(table_id)
        if hub is None:
            await ws.send_text(json.dumps(protocol.error("no such table")))
            await ws.close(4404)
            return
        conn = Connection(ws, self.limits)
        pump = asyncio.create_task(conn.pump())
        try:
            while not conn.closed:
                event = await ws.receive()
                if event["type"] == "websocket.disconnect":
                    break
                text = event.get("text")
                if text is None:
                    raw = event.get("bytes") or b""
                    text = raw.decode("utf-8", "replace")
                self.handle(hub, conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            conn.closed = True
            if conn in hub.connections:
                hub.connections.discard(conn)
                hub.table.disconnect(conn.seat, self.now())
                self.broadcast(hub)
                self.schedule(hub)
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, 2)
            if ws.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await ws.close()


@lru_cache(maxsize=64)
def card_svg(name: str) -> str:
    """One card (or ``back``) as SVG text, drawn once."""
    if name == "back":
        return str(svg.back(size=120))
    return str(svg.card(CARD_NAMES.index(name), size=120))


_SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data:; "
                                "style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; "
                                "frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def create_app(db: str | None = None, *, timing: Timing | None = None,
               auto_bot: str | None = None, limits: Limits | None = None,
               store: Store | None = None) -> FastAPI:
    """The ASGI app. *db* is a database URL or path (default: SQLite in the
    user data directory); *timing*, *auto_bot* and *limits* tune the server
    (tests use short timings and the fast ``greedy`` bot)."""
    server = Server(store or Store(db), timing=timing, auto_bot=auto_bot, limits=limits)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        n = server.resume()
        if n:
            log.warning("resumed %d unfinished table%s", n, "s" if n != 1 else "")
        yield
        server.shutdown()

    app = FastAPI(title="big2", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.server = server

    @app.middleware("http")
    async def headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        for k, v in _SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
        return response

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/replay/{record_id}", include_in_schema=False)
    async def replay_page(record_id: int) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/cards/{name}.svg", include_in_schema=False)
    async def card(name: str) -> Response:
        if name != "back" and name not in CARD_NAMES:
            raise HTTPException(404, "no such card")
        return Response(card_svg(name), media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400, immutable"})

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {
            "presets": {k: {kk: list(v) if isinstance(v, tuple) else v for kk, v in d.items()}
                        for k, d in PRESETS.items()},
            "options": [{"name": o.name, "default": list(o.default) if isinstance(o.default, tuple)
                         else o.default, "choices": list(o.choices) if o.choices else None,
                         "multi": o.multi, "help": o.help, "min": o.minimum, "max": o.maximum}
                        for o in OPTIONS],
            "bots": sorted(set(available_bots()) | set(BOT_LEVELS)),
            "levels": dict(BOT_LEVELS),
        }

    @app.get("/api/tables")
    async def list_tables() -> list[dict[str, Any]]:
        hubs = sorted(server.hubs.values(), key=lambda h: -h.table.created)
        return [h.table.summary() | {"watchers": len(h.connections)}
                for h in hubs if h.table.status != "over"][:100]

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable) -> dict[str, Any]:
        table = Table.create(settings_of(body), timing=server.timing, auto_bot=server.auto_bot,
                             now=server.now())
        server.add(table)
        return table.summary()

    def hub_of(table_id: str) -> Hub:
        hub = server.hubs.get(table_id)
        if hub is None:
            raise HTTPException(404, "no such table")
        return hub

    @app.get("/api/tables/{table_id}")
    async def table_state(table_id: str) -> dict[str, Any]:
        return hub_of(table_id).table.state_for(None, server.now())

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable) -> dict[str, Any]:
        hub = hub_of(table_id)
        token = hub.table.claim(body.seat, body.name, server.now())
        server.commit(hub)
        return {"table": table_id, "seat": body.seat, "token": token}

    @app.get("/api/tables/{table_id}/records")
    async def table_records(table_id: str) -> list[dict[str, Any]]:
        return server.store.records(table_id)

    @app.get("/api/records")
    async def all_records() -> list[dict[str, Any]]:
        return server.store.records(None, limit=50)

    def record_of(record_id: int) -> tuple[str, str]:
        found = server.store.record(record_id)
        if found is None:
            raise HTTPException(404, "no such record")
        return found

    @app.get("/api/records/{record_id}")
    async def record(record_id: int) -> Response:
        return Response(record_of(record_id)[0], media_type="application/json")

    @app.get("/api/records/{record_id}/download")
    async def download(record_id: int, format: str = "txt") -> Response:
        json_text, notation = record_of(record_id)
        if format == "json":
            return Response(json_text, media_type="application/json", headers={
                "Content-Disposition": f'attachment; filename="big2-deal-{record_id}.json"'})
        if format != "txt":
            raise HTTPException(400, "format is txt or json")
        return PlainTextResponse(notation, headers={
            "Content-Disposition": f'attachment; filename="big2-deal-{record_id}.txt"'})

    @app.websocket("/ws/{table_id}")
    async def socket(ws: WebSocket, table_id: str) -> None:
        await server.serve_socket(ws, table_id)

    return app

