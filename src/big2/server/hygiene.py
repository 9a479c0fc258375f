"""Input hygiene and abuse limits for the server, with no game logic.

- :func:`clean_name`: a person's or table's name without control, format or
  bidirectional characters, refused when it poses as a bot.
- :class:`IpLimiter`: per-address token buckets (creating and joining tables),
  with the seconds to wait for the ``Retry-After`` header; :class:`AddressLimit`
  adds a bucket in the database shared by every process (``--workers N``).
- :class:`BodyLimit`: an ASGI wrapper answering ``413`` to a request body over
  the limit, before anything parses it.
- :func:`origin_allowed` / :func:`host_allowed`: the WebSocket's ``Origin`` and
  ``Host`` checks.

>>> clean_name("  Ann\\u202e \\x00 Lee ")
'Ann Lee'
>>> clean_name("Hard bot 3")
Traceback (most recent call last):
...
ValueError: names ending in 'bot' and a number are kept for bots
>>> origin_allowed("http://localhost:8000", "localhost:8000", ())
True
>>> origin_allowed("http://evil.example", "localhost:8000", ())
False
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
import unicodedata
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from big2.server.store import Store

__all__ = ["AddressLimit", "BodyLimit", "FairTurns", "IpLimiter", "clean_name", "host_allowed",
           "origin_allowed"]

_BOT_NAME = re.compile(r"\bbot\s*\d+\s*$", re.IGNORECASE)


def _visible(ch: str) -> str:
    """*ch*, a space for any white space, nothing for control and format characters."""
    kind = unicodedata.category(ch)[0]
    if kind == "Z" or ch.isspace():
        return " "
    return "" if kind == "C" else ch


def clean_name(text: str, *, limit: int = 24, bots_ok: bool = False) -> str:
    """*text* with control, format (bidirectional overrides, zero-width
    characters…) and other invisible characters removed, runs of white space
    made one space, cut to *limit* characters. Raises :class:`ValueError` for a
    lone surrogate (not text) or, unless *bots_ok*, a name like a bot's
    (``… bot 3``)."""
    if any(unicodedata.category(ch) == "Cs" for ch in text):
        raise ValueError("not valid text (a lone surrogate)")
    kept = "".join(map(_visible, text))
    name = " ".join(kept.split())[:limit].strip()
    if not bots_ok and _BOT_NAME.search(name):
        raise ValueError("names ending in 'bot' and a number are kept for bots")
    return name


class IpLimiter:
    """Token buckets keyed by client address: *rate* a second, *burst* at once.
    At most *size* addresses are remembered (the least recently seen go first).

    >>> clock = [0.0]
    >>> lim = IpLimiter(rate=1, burst=2, clock=lambda: clock[0])
    >>> [lim.wait("a") for _ in range(3)], lim.wait("b")
    ([0.0, 0.0, 1.0], 0.0)
    """

    def __init__(self, rate: float, burst: float, *, size: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.size, self.clock = rate, burst, size, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def wait(self, key: str) -> float:
        """Take one token for *key*: ``0.0`` if there was one, else the seconds
        until there will be (nothing is taken then)."""
        now = self.clock()
        tokens, last = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.rate if self.rate > 0 else 3600.0
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.size:
            self._buckets.popitem(last=False)
        return wait


class AddressLimit:
    """A per-address limit named *name*: *rate* a second, *burst* at once. With
    a *store* (several processes on one database) the bucket is the database's
    (:meth:`~big2.server.store.Store.take`), so N processes do not make it N
    times larger; a bucket of the same size in this process refuses a flood
    before it reaches the database. Without one, the process's bucket alone.

    >>> import asyncio
    >>> limit = AddressLimit("create", rate=1, burst=2)
    >>> [asyncio.run(limit.wait("a")) > 0 for _ in range(3)]
    [False, False, True]
    """

    def __init__(self, name: str, rate: float, burst: float, store: Store | None = None) -> None:
        self.name, self.rate, self.burst, self.store = name, rate, burst, store
        self.local = IpLimiter(rate, burst)

    async def wait(self, address: str) -> float:
        """Take one token for *address*: ``0.0``, or the seconds to wait (nothing
        taken). Raises :class:`~big2.server.store.DatabaseError` when the shared
        bucket cannot be read."""
        wait = self.local.wait(address)
        if wait or self.store is None:
            return wait
        shared: float = await asyncio.to_thread(self.store.take, f"{self.name}:{address}",
                                                self.rate, self.burst)
        return shared


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: an HTTP request body over *limit* bytes gets ``413``
    (from its ``Content-Length``, or as soon as the streamed body passes it)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]],
                 limit: int = 65536) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", ()):
            if key == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(send)
                    return
        seen, too_big = 0, False

        async def counted() -> MutableMapping[str, Any]:
            nonlocal seen, too_big
            if too_big:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:  # the app sees a client gone; the client gets 413
                    too_big = True
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: MutableMapping[str, Any]) -> None:
            if not too_big:
                await send(message)

        try:
            await self.app(scope, counted, watched)
        except Exception:
            if not too_big:
                raise
        if too_big:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": f"request body over {self.limit} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1", "[::1]")


def _hostname(host: str) -> str:
    """``example.org`` from ``example.org:8000``, ``::1`` from ``[::1]:8000``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def host_allowed(host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether the ``Host`` header names an allowed host (``*`` allows any;
    an empty tuple allows the loopback names only, which stops DNS rebinding
    against a server on 127.0.0.1)."""
    if "*" in allowed:
        return True
    if not host:
        return False
    name = _hostname(host)
    return name in (allowed or _LOOPBACK_NAMES) or name in (_hostname(a) for a in allowed)


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a WebSocket from *origin* may connect: no ``Origin`` (not a
    browser), the server's own (the origin's host and port equal ``Host``), or
    one of *allowed* (``scheme://host[:port]``, ``*`` for any)."""
    if origin is None or "*" in allowed:
        return True
    origin = origin.strip().lower()
    if origin in (a.lower().rstrip("/") for a in allowed):
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == (host or "").lower()


class FairTurns:
    """At most *slots* holders at a time; those waiting are given a turn by address in
    rotation (each address's own in the order they came), so an address that queues
    many waits behind its own and every other address's next one (issue 55: reviews,
    hints)."""

    def __init__(self, slots: int = 1) -> None:
        self.slots = max(1, slots)
        self._holders = 0
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    def waiting(self) -> int:
        """How many wait for the turn."""
        return sum(len(q) for q in self._waiting.values())

    def waiting_for(self, address: str) -> int:
        """How many of *address*'s wait for the turn."""
        return len(self._waiting.get(address, ()))

    @contextlib.asynccontextmanager
    async def turn(self, address: str) -> AsyncIterator[None]:
        """Hold the turn (waiting for it first) for the ``async with`` block."""
        if self._holders >= self.slots or self._waiting:
            ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(address, deque()).append(ticket)
            try:
                await ticket
            except asyncio.CancelledError:
                if ticket.done() and not ticket.cancelled():
                    self._pass_on()  # it was handed the turn as it was cancelled
                else:
                    self._forget(address, ticket)
                raise
        else:
            self._holders += 1
        try:
            yield
        finally:
            self._pass_on()

    def _pass_on(self) -> None:
        while self._waiting:
            address, queue = next(iter(self._waiting.items()))
            ticket = queue.popleft()
            if queue:
                self._waiting.move_to_end(address)  # its next one after the others'
            else:
                del self._waiting[address]
            if not ticket.done():
                ticket.set_result(None)  # the turn goes on to it: as many hold one
                return
        self._holders -= 1

    def _forget(self, address: str, ticket: asyncio.Future[None]) -> None:
        queue = self._waiting.get(address)
        if queue is not None and ticket in queue:
            queue.remove(ticket)
            if not queue:
                del self._waiting[address]
