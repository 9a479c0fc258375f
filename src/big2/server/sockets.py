"""The WebSocket side of the server: one :class:`Connection` per client and
the loop that reads its messages (:func:`serve_socket`).

Before a connection is accepted its ``Host`` and ``Origin`` are checked (a
page on another site cannot play with a visitor's seat) and the caps on
connections per address and per table; it must then say ``hello`` within
``hello_seconds``. A spectator's hello or goodbye changes nothing anyone else
sees, so only the newcomer is sent the state; a seat's does (its
``connected`` flag), so the table is. A message dropped by the rate limiter is
answered with an error naming it (its type and id).

A finished table is no longer live: its connection is sent the stored final
state after ``hello`` (for the seat whose token it names, else a spectator's)
and answers ``ping``; anything else is refused ("the match is over").
Opening one counts against the address's reads of finished tables
(:attr:`~big2.server.core.Server.reads`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from big2.server import messages
from big2.server.core import Hub, Limits, Server
from big2.server.finished import Final
from big2.server.hygiene import host_allowed, origin_allowed
from big2.server.reactions import react
from big2.server.store import DatabaseError, DiskFull
from big2.server.tables import TableError
from big2.variant import variant

__all__ = ["Connection", "Sockets", "quiet_disconnect_logs"]

log = logging.getLogger("big2.server")

NOT_SAVED = ("not saved: the database is unavailable, so nothing changed; "
             "try again in a moment")
"""The reply to a move that could not be stored (an ``error`` with ``"retry": true``,
after a ``state`` showing the table as it is stored)."""
NOT_SAVED_FULL = ("not saved: the server's disk is full, so nothing changed; "
                  "try again later")
"""The same reply when the cause is a full disk (:class:`~big2.server.store.DiskFull`)."""


class Connection:
    """One WebSocket client: its seat (``None`` watches), outgoing queue and limiter."""

    def __init__(self, ws: WebSocket, limits: Limits) -> None:
        self.ws = ws
        self.address = ws.client.host if ws.client else "?"
        self.seat: int | None = None
        self.hello = False
        self.limiter = messages.RateLimiter(limits.rate, limits.burst)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(limits.queue)
        self.closed = False
        self.send_seconds = limits.send_seconds
        self._transport = _transport_of(ws)
        sock = self._transport.get_extra_info("socket") if self._transport else None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limits.send_buffer)

    def send(self, message: dict[str, Any]) -> None:
        """Queue *message*; a client that falls too far behind is dropped."""
        self.send_text(json.dumps(message, ensure_ascii=False))

    def send_text(self, text: str) -> None:
        """Queue a message already in JSON text."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop("fell 256 messages behind")

    def close(self) -> None:
        """Stop sending and close after what is queued."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages until closed or the client is gone."""
        while True:
            text = await self.queue.get()
            if text is None or self.ws.client_state != WebSocketState.CONNECTED:
                if text is None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(1008)
                return
            try:
                await asyncio.wait_for(self.ws.send_text(text), self.send_seconds)
            except TimeoutError:
                self.drop(f"read nothing for {self.send_seconds:g} s")
                return
            except Exception:  # noqa: BLE001 - whatever the transport raises, the client is gone
                self.closed = True
                return

    def drop(self, why: str) -> None:
        """End the connection at once, unsent messages and all: a client that stopped
        reading could not be sent even a close frame (issue 55)."""
        if self._transport is not None and not self._transport.is_closing():
            log.info("websocket dropped: the client %s", why)
            self._transport.abort()
        self.close()


def _transport_of(ws: WebSocket) -> asyncio.Transport | None:
    """The connection's transport (uvicorn's protocol is the ASGI ``receive``'s owner),
    or ``None`` under a server that does not show it."""
    transport = getattr(getattr(ws, "_receive", None), "__self__", None)
    transport = getattr(transport, "transport", None)
    return transport if isinstance(transport, asyncio.Transport) else None


class Sockets:
    """The WebSocket endpoint of a :class:`~big2.server.core.Server`.

    Args:
        server: the live tables.
        allowed_hosts: ``Host`` names accepted (``()``: loopback names; ``*``: any).
        allowed_origins: other origins whose pages may connect (``*``: any).
    """

    def __init__(self, server: Server, allowed_hosts: tuple[str, ...] = (),
                 allowed_origins: tuple[str, ...] = ()) -> None:
        self.server = server
        self.limits = server.limits
        self.allowed_hosts, self.allowed_origins = allowed_hosts, allowed_origins
        self.per_ip: Counter[str] = Counter()

    def _refusal(self, ws: WebSocket) -> str | None:
        host, origin = ws.headers.get("host"), ws.headers.get("origin")
        if not host_allowed(host, self.allowed_hosts):
            return "host not allowed"
        if not origin_allowed(origin, host, self.allowed_origins):
            return "origin not allowed"
        return None

    async def serve(self, ws: WebSocket, table_id: str) -> None:
        """Run one WebSocket connection to the end."""
        refusal = self._refusal(ws)
        if refusal is not None:
            log.info("websocket refused: %s", refusal)
            await ws.close(1008)  # before accepting: the handshake gets 403
            return
        ip = ws.client.host if ws.client else "?"
        hub = self.server.find(table_id)
        await ws.accept()
        final: Final | None = None
        if hub is None:
            try:
                if await self.server.reads.wait(ip):
                    await self._refuse(ws, "too many reads of finished tables from your "
                                       "address; try again later", 1013)
                    return
                final = await self.server.final_state(table_id)
            except DatabaseError as exc:
                await self._refuse(ws, "the server's disk is full; try again later"
                                   if isinstance(exc, DiskFull) else
                                   "the database is unavailable; try again in a moment", 1013)
                return
            if final is None:
                await self._refuse(ws, "no such table", 4404)
                return
        if self.per_ip[ip] >= self.limits.sockets_per_ip:
            await self._refuse(ws, "too many connections from your address", 1013)
            return
        if hub is not None and hub.sockets >= self.limits.sockets_per_table:
            await self._refuse(ws, "too many connections to this table", 1013)
            return
        self.per_ip[ip] += 1
        if hub is not None:
            hub.sockets += 1
        conn = Connection(ws, self.limits)
        pump = asyncio.create_task(conn.pump())
        try:
            if hub is not None:
                live = hub
                await self._read(conn, lambda text: self.handle(live, conn, text))
            else:
                assert final is not None
                over = final
                await self._read(conn, lambda text: self._finished(conn, over, text))
        finally:
            self.per_ip[ip] -= 1
            if not self.per_ip[ip]:
                del self.per_ip[ip]
            conn.closed = True
            if hub is not None:
                hub.sockets -= 1
                self._leave(hub, conn)
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, 2)
            if ws.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await ws.close()

    @staticmethod
    async def _refuse(ws: WebSocket, message: str, code: int) -> None:
        with contextlib.suppress(Exception):
            await ws.send_text(json.dumps(messages.error(message)))
            await ws.close(code)

    async def _read(self, conn: Connection, handle: Callable[[str], Awaitable[None]]) -> None:
        ws = conn.ws
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.hello_seconds
        try:
            while not conn.closed:
                if conn.hello:
                    event = await ws.receive()
                else:
                    try:
                        event = await asyncio.wait_for(ws.receive(), deadline - loop.time())
                    except TimeoutError:
                        conn.send(messages.error(
                            f"say hello within {self.limits.hello_seconds:g} seconds"))
                        conn.close()
                        return
                if event["type"] == "websocket.disconnect":
                    return
                text = event.get("text")
                if text is None:
                    text = (event.get("bytes") or b"").decode("utf-8", "replace")
                await handle(text)
        except (WebSocketDisconnect, RuntimeError):
            return  # gone mid-read

    def _leave(self, hub: Hub, conn: Connection) -> None:
        if conn not in hub.connections:
            return
        hub.connections.discard(conn)
        if conn.seat is None:
            return  # a spectator leaving changes nothing anyone sees
        hub.table.disconnect(conn.seat, self.server.now())
        if not hub.table.seats[conn.seat].connections:
            hub.send_all(self.server.now())
        self.server.schedule(hub)

    # -- messages ----------------------------------------------------------------

    def _parse(self, conn: Connection, text: str) -> messages.ClientMessage | None:
        """The message in *text*, or ``None`` when it was dropped or refused (the
        client is told; a client that keeps flooding is closed)."""
        if not conn.limiter.allow():
            if conn.limiter.refused > self.limits.kick_after:
                conn.close()
                return None
            conn.send(_dropped(text))
            return None
        try:
            return messages.parse(text)
        except messages.MessageError as exc:
            conn.send(messages.error(str(exc)))
            return None

    async def _finished(self, conn: Connection, final: Final, text: str) -> None:
        """One message to a finished table: its state after hello, pong to a ping."""
        msg = self._parse(conn, text)
        if msg is None:
            return
        if isinstance(msg, messages.Ping):
            conn.send({"type": "pong", "id": msg.id})
        elif isinstance(msg, messages.Hello) and not conn.hello:
            conn.hello, seat = True, final.seat_of(msg.token)
            if msg.token is not None and seat is None:
                conn.send(messages.error("unknown seat token: you are watching", msg.id))
            conn.send_text(final.text_for(seat))
        elif isinstance(msg, messages.Hello):
            conn.send(messages.error("this connection has already said hello", msg.id))
        else:
            conn.send(messages.error("the match is over", msg.id))

    async def handle(self, hub: Hub, conn: Connection, text: str) -> None:
        """Act on one client message; every refusal is an ``error`` reply."""
        msg = self._parse(conn, text)
        if msg is None:
            return
        try:
            await self._dispatch(hub, conn, msg)
        except TableError as exc:
            conn.send(messages.error(str(exc), msg.id))
        except DatabaseError as exc:
            # the table is as stored again: the sender gets it back with the refusal,
            # so the page shows what stands and offers to send the move again; the
            # operator reads the cause (a full disk, a lost database) in the log
            log.warning("table %s: seat %s's %s not saved (%s); refused, the player may "
                        "send it again", hub.table.id, conn.seat, msg.type, exc)
            conn.send(hub.table.state_for(conn.seat, self.server.now()))
            said = NOT_SAVED_FULL if isinstance(exc, DiskFull) else NOT_SAVED
            conn.send(messages.error(said, msg.id) | {"retry": True})
        except Exception:
            self.server.internal_errors += 1
            log.exception("table %s: message failed", hub.table.id)
            conn.send(messages.error("the server failed on this message; nothing changed", msg.id))

    async def _dispatch(self, hub: Hub, conn: Connection, msg: Any) -> None:
        server = self.server
        if isinstance(msg, messages.Ping):
            conn.send({"type": "pong", "id": msg.id})
            return
        if isinstance(msg, messages.Hello):
            self._hello(hub, conn, msg)
            return
        if not conn.hello:
            raise TableError("send hello first")
        if conn.seat is None:
            raise TableError("spectators cannot act: join a seat to play")
        seat = conn.seat
        if isinstance(msg, messages.Hint):
            conn.send({"type": "hint", **await server.hint(hub, seat, conn.address),
                       "id": msg.id})
            return
        if isinstance(msg, messages.React):
            react(hub, seat, msg.reaction, server.now())
            return
        if isinstance(msg, messages.Play | messages.Pass):
            cards = 0
            if isinstance(msg, messages.Play):
                try:
                    cards = messages.cards_mask(msg.cards, variant(hub.table.rules).deck.decks)
                except messages.MessageError as exc:
                    raise TableError(str(exc)) from None
            await server.change(hub, lambda: hub.table.act(seat, cards, server.now()))
        elif isinstance(msg, messages.Next):
            await server.change(hub, lambda: hub.table.ready(seat, server.now()))
        elif isinstance(msg, messages.Start):
            await server.change(hub, lambda: hub.table.fill_with_bots(server.now(),
                                                                      bot="medium"))

    def _hello(self, hub: Hub, conn: Connection, msg: messages.Hello) -> None:
        if conn.hello:
            raise TableError("this connection has already said hello")
        table, now = hub.table, self.server.now()
        seat = table.seat_for_token(msg.token)
        if msg.token is not None and seat is None:
            conn.send(messages.error("unknown seat token: you are watching", msg.id))
        conn.hello, conn.seat = True, seat
        hub.connections.add(conn)
        if seat is None:  # a spectator: only the newcomer needs the state
            conn.send(table.state_for(None, now))
            return
        was_connected = bool(table.seats[seat].connections)
        table.connect(seat, now)
        if was_connected:
            conn.send(table.state_for(seat, now))
        else:
            hub.send_all(now)
        self.server.schedule(hub)


def _dropped(text: str) -> dict[str, Any]:
    """The error for a message the rate limiter dropped, naming it."""
    try:
        msg = messages.parse(text)
    except messages.MessageError:
        return messages.error("too many messages: a message was dropped unread; slow down")
    return messages.error(f"too many messages: your {msg.type} was dropped; slow down", msg.id)


class _SendAfterClose(logging.Filter):
    """Drops asyncio's "socket.send() raised exception." (a write to a client
    already gone, thousands of lines when many leave at once) and counts it."""

    dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("socket.send() raised exception"):
            _SendAfterClose.dropped += 1
            return False
        return True


class _BadFrameOneLine(logging.Filter):
    """uvicorn logs a WebSocket text frame that is not UTF-8 with its traceback (six
    lines a frame, issue 55): its one line is kept, the traceback dropped (the client is
    sent close code 1007 by uvicorn, as the protocol says)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], UnicodeDecodeError):
            record.exc_info, record.exc_text = None, None
            record.msg, record.args = "a WebSocket text frame was not valid UTF-8; closed", ()
        return True


def quiet_disconnect_logs() -> None:
    """Install the filters on asyncio's and uvicorn's loggers (once)."""
    logger = logging.getLogger("asyncio")
    if not any(isinstance(f, _SendAfterClose) for f in logger.filters):
        logger.addFilter(_SendAfterClose())
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _BadFrameOneLine) for f in logger.filters):
        logger.addFilter(_BadFrameOneLine())
