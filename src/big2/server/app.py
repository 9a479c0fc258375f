"""The web application: lobby and table pages, a JSON API and the WebSocket.

:func:`create_app` builds a FastAPI app around a :class:`~big2.server.core.Server`,
which keeps the live tables and writes every change to the
:class:`~big2.server.store.Store`, so a restart resumes unfinished tables.
Game logic is in :mod:`big2.server.tables`, message checking in
:mod:`big2.server.messages`, the WebSocket loop in :mod:`big2.server.sockets`,
input hygiene in :mod:`big2.server.hygiene`.

Every error reply is ``{"detail": …}`` and never repeats what was sent: ``400``
a request the table refuses, ``404`` any id that names nothing (whatever its
size), ``413`` a body over the limit, ``422`` a body that does not fit the
schema (bad text included), ``429`` too many tables, seats or waiting reviews from
one address (with ``Retry-After``), ``503`` the table cap or the database unavailable,
``507`` the database's disk full.

Run it with ``big2 serve`` (see :mod:`big2.server.cli`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, HTTPException, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from big2 import svg
from big2.bots import BOT_LEVELS, available_bots, make_bot
from big2.cards import CARD_NAMES
from big2.rules import OPTIONS, PRESETS, Rules
from big2.server.bodies import (
    CreateTable,
    JoinTable,
    Rematch,
    ReviewSeat,
    settings_of,
    validation_errors,
)
from big2.server.core import TABLE_ID, Limits, Server, TableLimit
from big2.server.guide import guide
from big2.server.hygiene import AddressLimit, BodyLimit, host_allowed
from big2.server.pool import BotPool
from big2.server.puzzlepage import (
    BadPlay,
    NoSuchPuzzle,
    find,
    puzzle_after,
    puzzle_list,
    puzzle_view,
)
from big2.server.rematch import NotAPlayer, Rematches
from big2.server.reviews import QueueFull, Reviews
from big2.server.sockets import Sockets, quiet_disconnect_logs
from big2.server.store import MAX_RECORD_ID, DatabaseError, DiskFull, Store, database_error
from big2.server.tables import Table, TableError, Timing

__all__ = ["Limits", "Server", "create_app"]

log = logging.getLogger("big2.server")
STATIC = Path(__file__).parent / "static"
CATALOGUE = Path(__file__).parent.parent / "i18n" / "catalogue.json"
"""The pages' and the terminal's words (big2.i18n), served at /i18n/catalogue.json."""


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


def _record_id(text: str) -> int:
    """A record id from the URL; ``404`` for anything no record can have."""
    if not (text.isascii() and text.isdigit() and len(text) <= 10
            and 0 < int(text) <= MAX_RECORD_ID):
        raise HTTPException(404, "no such record")
    return int(text)


def create_app(db: str | None = None, *, timing: Timing | None = None,
               auto_bot: str | None = None, limits: Limits | None = None,
               store: Store | None = None, pool: BotPool | None = None,
               allowed_hosts: tuple[str, ...] = (), allowed_origins: tuple[str, ...] = (),
               shard: str = "", shared_lobby: bool = False) -> FastAPI:
    """The ASGI app. *db* is a database URL or path (default: SQLite in the
    user data directory); *timing*, *auto_bot*, *limits* and *pool* tune the
    server (tests use short timings and the fast ``greedy`` bot);
    *allowed_hosts* are the ``Host`` names served (``()``: loopback names only,
    ``("*",)``: any) and *allowed_origins* other sites whose pages may open the
    WebSocket; *shard* and *shared_lobby* are for several processes (see
    docs/deploy.md). Raises :class:`ValueError` for an unknown *auto_bot*."""
    if auto_bot is not None:
        make_bot(auto_bot)  # an unknown bot is refused now, not at the first hint
    limits = limits or Limits()
    server = Server(store or Store(db), timing=timing, auto_bot=auto_bot, limits=limits,
                    pool=pool, shard=shard, shared_lobby=shared_lobby)
    sockets = Sockets(server, allowed_hosts, allowed_origins)
    quiet_disconnect_logs()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        n = await server.start()
        if n:
            log.warning("resumed %d unfinished table%s", n, "s" if n != 1 else "")
        yield
        await server.stop()

    app = FastAPI(title="big2", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.server = server

    @app.middleware("http")
    async def headers(request: Request, call_next: Any) -> Response:
        if not host_allowed(request.headers.get("host"), allowed_hosts):
            return JSONResponse({"detail": "host not allowed"}, status_code=400)
        response: Response = await call_next(request)
        for k, v in _SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
        return response

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=503 if isinstance(
            exc, TableLimit) else 400)

    @app.exception_handler(DatabaseError)
    async def database_error(request: Request, exc: DatabaseError) -> JSONResponse:
        log.warning("%s %s refused: the database failed (%s)", request.method,
                    request.url.path, exc)
        if isinstance(exc, DiskFull):
            return JSONResponse({"detail": "the server's disk is full: nothing changed; "
                                 "try again later"}, status_code=507)
        return JSONResponse({"detail": "the database is unavailable: nothing changed; "
                             "try again in a moment"}, status_code=503)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": validation_errors(exc.errors())}, status_code=422)

    async def limited(limiter: AddressLimit, request: Request, what: str) -> None:
        wait = await limiter.wait(request.client.host if request.client else "?")
        if wait:
            raise HTTPException(429, f"too many {what} from your address; try again later",
                                headers={"Retry-After": str(max(1, round(wait + 0.5)))})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/i18n/catalogue.json", include_in_schema=False)
    async def catalogue() -> FileResponse:
        # the words of every page, in each language: the one catalogue the terminal reads too
        return FileResponse(CATALOGUE, media_type="application/json")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/replay/{record_id}", include_in_schema=False)
    async def replay_page(record_id: str) -> FileResponse:
        _record_id(record_id)
        return FileResponse(STATIC / "replay.html")

    @app.get("/cards/{name}.svg", include_in_schema=False)
    async def card(name: str) -> Response:
        if name != "back" and name not in CARD_NAMES:
            raise HTTPException(404, "no such card")
        return Response(card_svg(name), media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400, immutable"})

    @app.get("/how", include_in_schema=False)
    async def how_page() -> FileResponse:
        return FileResponse(STATIC / "how.html")

    @app.get("/puzzles", include_in_schema=False)
    async def puzzles_page() -> FileResponse:
        return FileResponse(STATIC / "puzzles.html")

    @app.get("/api/puzzles")
    async def puzzles() -> dict[str, Any]:
        """The puzzle set: each puzzle's id, band, preset and choices, and today's id."""
        return puzzle_list()

    @app.get("/api/puzzles/{number}")
    async def one_puzzle(number: str) -> dict[str, Any]:
        """One puzzle as the page draws it (a hidden-hand puzzle without the others'
        cards), with its answer."""
        try:
            return dict(await _to_thread(puzzle_view, find(number)))
        except NoSuchPuzzle as exc:
            raise HTTPException(404, str(exc)) from None

    @app.get("/api/puzzles/{number}/after")
    async def puzzle_line(number: str, play: str = "") -> dict[str, Any]:
        """A legal play at the puzzle (``play=3D+3S``, ``play=pass``): whether it is the
        answer, the line after it to the first seat going out and the hands it is
        played on."""
        try:
            return dict(await _to_thread(puzzle_after, find(number), play))
        except NoSuchPuzzle as exc:
            raise HTTPException(404, str(exc)) from None
        except BadPlay as exc:
            raise HTTPException(400, str(exc)) from None

    @app.get("/api/guide")
    async def rules_guide(request: Request, preset: str = "classic", table: str | None = None,
                          players: str | None = None) -> dict[str, Any]:
        """The How to play page's facts: a preset's (for *players* seats, if given: the
        puzzles' ``taiwan:3``), or a table's rules (live or over)."""
        if table is None:
            if preset not in PRESETS:
                raise TableError(f"unknown preset; choose from: {', '.join(PRESETS)}")
            rules = Rules.preset(preset)
            if players is not None:
                if not (players.isascii() and players.isdigit() and players == str(int(players))):
                    raise TableError("players: give a whole number of seats, as 3")
                try:
                    rules = Rules.preset(preset, players=int(players))
                except ValueError as exc:
                    raise TableError(f"players: {exc}") from None
        else:
            hub = server.find(table)
            if hub is not None:
                rules = hub.table.rules
            else:
                await limited(server.reads, request, "reads of finished tables")
                final = await server.final_state(table)
                if final is None:
                    raise HTTPException(404, "no such table")
                rules = Rules.from_dict(json.loads(final.text)["rules"]["all"])
        return dict(await _to_thread(guide, rules))

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return {
            "presets": {k: {kk: list(v) if isinstance(v, tuple) else v for kk, v in d.items()}
                        for k, d in PRESETS.items()},
            "options": [{"name": o.name, "default": list(o.default) if isinstance(o.default, tuple)
                         else o.default, "choices": list(o.choices) if o.choices else None,
                         "multi": o.multi, "help": o.help, "min": o.minimum, "max": o.maximum}
                        for o in OPTIONS],
            "bots": sorted(set(available_bots(ready=True)) | set(BOT_LEVELS)),
            "levels": dict(BOT_LEVELS),
        }

    @app.get("/api/tables")
    async def list_tables(find: str = Query("", max_length=40),
                          open_only: bool = Query(False, alias="open"),
                          offset: int = Query(0, ge=0, le=200),
                          limit: int = Query(100, ge=1, le=100)) -> list[dict[str, Any]]:
        return await server.lobby(find, open_only, offset, limit)

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        await limited(server.creating, request, "new tables")
        address = request.client.host if request.client else "?"
        cap = server.limits.waiting_per_ip
        if server.waiting_from(address) >= cap:
            raise HTTPException(429, f"your address already has {cap} tables waiting for "
                                "players: play or share one of those first (a table waiting "
                                "too long closes by itself)", headers={
                                    "Retry-After": str(server.first_expiry(address))})
        table = Table.create(settings_of(body), timing=server.timing, auto_bot=server.auto_bot,
                             now=server.now(), prefix=server.shard)
        hub = await server.add(table)
        hub.creator = address
        return table.summary()

    @app.get("/api/tables/{table_id}")
    async def table_state(table_id: str, request: Request) -> Any:
        hub = server.find(table_id)
        if hub is not None:
            return hub.table.state_for(None, server.now())
        await limited(server.reads, request, "reads of finished tables")
        final = await server.final_state(table_id)
        if final is None:
            raise HTTPException(404, "no such table")
        return Response(final.text, media_type="application/json")

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        hub = server.find(table_id)
        if hub is None:
            await limited(server.reads, request, "reads of finished tables")
            if await server.final_state(table_id) is None:
                raise HTTPException(404, "no such table")
            raise TableError("the match is over")
        await limited(server.joining, request, "seats taken")
        tokens: list[str] = []
        await server.change(hub, lambda: tokens.append(
            hub.table.claim(body.seat, body.name, server.now())))
        return {"table": table_id, "seat": body.seat, "token": tokens[0]}

    rematches = Rematches(server)

    @app.post("/api/tables/{table_id}/rematch", status_code=201)
    async def rematch(table_id: str, body: Rematch, request: Request) -> dict[str, Any]:
        await limited(server.creating, request, "new tables")
        try:
            return await rematches.ask(table_id, body.token)
        except NotAPlayer as exc:
            raise HTTPException(403, str(exc)) from None

    @app.get("/api/tables/{table_id}/records")
    async def table_records(table_id: str) -> list[dict[str, Any]]:
        if table_id not in server.hubs and (
                not TABLE_ID.fullmatch(table_id)
                or await _to_thread(server.store.finished, table_id) is None):
            raise HTTPException(404, "no such table")
        rows: list[dict[str, Any]] = await _to_thread(server.store.records, table_id)
        return rows

    @app.get("/api/records")
    async def all_records() -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = await _to_thread(server.store.records, None, 50)
        return rows

    async def record_of(record_id: str) -> tuple[str, str]:
        found: tuple[str, str] | None = await _to_thread(server.store.record,
                                                         _record_id(record_id))
        if found is None:
            raise HTTPException(404, "no such record")
        return found

    @app.get("/api/records/{record_id}")
    async def record(record_id: str) -> Response:
        return Response((await record_of(record_id))[0], media_type="application/json")

    reviews = Reviews(server.pool)

    @contextlib.contextmanager
    def queue_full_is_429() -> Iterator[None]:
        try:
            yield
        except QueueFull as exc:
            raise HTTPException(429, str(exc),
                                headers={"Retry-After": str(exc.retry_after)}) from None

    @app.post("/api/records/{record_id}/review")
    async def review(record_id: str, body: ReviewSeat, request: Request) -> dict[str, Any]:
        """The expert's review of a seat's decisions in a stored deal (see reviews.py)."""
        json_text, _ = await record_of(record_id)
        await limited(server.reads, request, "reviews")
        with queue_full_is_429():
            return await reviews.review(int(record_id), json_text, body.seat,
                                        request.client.host if request.client else "?")

    @app.post("/api/records/{record_id}/duplicate")
    async def duplicate(record_id: str, body: ReviewSeat, request: Request) -> dict[str, Any]:
        """The same deal dealt again with the expert in a seat (see reviews.py)."""
        json_text, _ = await record_of(record_id)
        await limited(server.reads, request, "reviews")
        with queue_full_is_429():
            return await reviews.duplicate(int(record_id), json_text, body.seat,
                                           request.client.host if request.client else "?")

    @app.get("/api/records/{record_id}/download")
    async def download(record_id: str, format: str = "txt") -> Response:
        json_text, notation = await record_of(record_id)
        rid = int(record_id)
        if format == "json":
            return Response(json_text, media_type="application/json", headers={
                "Content-Disposition": f'attachment; filename="big2-deal-{rid}.json"'})
        if format != "txt":
            raise HTTPException(400, "format is txt or json")
        return PlainTextResponse(notation, headers={
            "Content-Disposition": f'attachment; filename="big2-deal-{rid}.txt"'})

    @app.websocket("/ws/{table_id}")
    async def socket(ws: WebSocket, table_id: str) -> None:
        await sockets.serve(ws, table_id)

    app.add_middleware(BodyLimit, limit=limits.body_bytes)  # outermost: before parsing
    return app


async def _to_thread(fn: Any, *args: Any) -> Any:
    """Run a database read in a thread; a database error becomes :class:`DatabaseError`."""
    try:
        return await asyncio.to_thread(fn, *args)
    except sa.exc.SQLAlchemyError as exc:
        raise database_error(exc) from exc
