"""A deadline for reading each HTTP request, which uvicorn lacks (issue 26).

uvicorn closes a keep-alive connection that stays idle after a response
(``timeout_keep_alive``), but nothing bounds how long a client may take to
send a request's line and headers: a client that opens a connection and sends
half a request holds it open for ever (400 of them stayed open 60 s and more).
:class:`DeadlineH11Protocol` is uvicorn's h11 protocol with a timer: from the
moment a connection opens, and again after each response, the next request
(line, headers and body) must arrive whole within ``request_seconds``, or the
connection is answered ``408`` and closed (a body that stops half way too,
unless the application has already begun its answer: then it is only closed).
Once the request has arrived whole the timer stops, however long the answer
takes, whether the connection is kept alive or the client sent
``Connection: close`` (as the nginx configuration in docs/deploy.md does).
A WebSocket upgrade ends the timer (the WebSocket has its own ``hello``
deadline and pings).

Both ``big2 serve`` and the tests' servers run with it (:func:`http_protocol`).
Request lines and headers are also capped at h11's 16 KB.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["REQUEST_SECONDS", "DeadlineH11Protocol", "http_protocol"]

REQUEST_SECONDS = 10.0
"""How long a client has to send a whole HTTP request."""

_WHOLE = (h11.DONE, h11.MUST_CLOSE)
"""h11's states of the client once its request has arrived whole: ``DONE`` on a
keep-alive connection, ``MUST_CLOSE`` when it sent ``Connection: close`` (as nginx
does on every request that is not a WebSocket, issue 55)."""

_BODY = b'{"detail": "the request did not arrive in time; the connection is closed"}'
_TIMED_OUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
              b"content-length: %d\r\nconnection: close\r\n\r\n" % len(_BODY)) + _BODY


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request (see the module doc)."""

    request_seconds: float = REQUEST_SECONDS
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state in _WHOLE:  # the request has arrived whole
            self._disarm()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        self._arm()  # for the next request; pipelined ones already here disarm it again
        super().on_response_complete()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        # no request yet, or one whose body stopped before the application answered:
        # nothing of a response is on the wire, so the 408 is the whole answer
        if self.cycle is None or not self.cycle.response_started or self.cycle.response_complete:
            self.transport.write(_TIMED_OUT)
        self.transport.close()


def http_protocol(request_seconds: float = REQUEST_SECONDS) -> type[DeadlineH11Protocol]:
    """The HTTP protocol class for uvicorn (``http=``), with this deadline."""
    return type("DeadlineH11Protocol", (DeadlineH11Protocol,),
                {"request_seconds": request_seconds})
