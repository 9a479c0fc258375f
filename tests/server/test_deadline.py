"""HTTP request deadline (issue 26, item 3): a half-open request (part of a
request line, headers without their end, a body that stops) is answered 408
and closed within the deadline, also on a keep-alive connection after a first
answer; a WebSocket outlives it; ``big2 serve``'s deadline is 10 s."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

from websockets.sync.client import connect

from big2.server.guard import REQUEST_SECONDS, DeadlineH11Protocol


def closed_after(sock: socket.socket, limit: float) -> tuple[float, bytes]:
    """Seconds until the server closed *sock* (reading at most *limit* s), and what it sent."""
    sock.settimeout(limit)
    start, got = time.monotonic(), b""
    try:
        while chunk := sock.recv(4096):
            got += chunk
    except TimeoutError:
        return float("inf"), got
    except ConnectionResetError:
        pass
    return time.monotonic() - start, got


def test_half_open_requests_are_closed_within_the_deadline(live_factory: Any) -> None:
    live = live_factory(request_seconds=1.0)
    halves = [b"GET /api/tab", b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n",
              (b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50\r\n"
              b"Content-Type: application/json\r\n\r\n{\"players\": 4")]
    socks = []
    for half in halves * 10:  # thirty at once
        s = socket.create_connection(("127.0.0.1", live.port))
        s.sendall(half)
        socks.append(s)
    for i, s in enumerate(socks):
        # closed (30 s only guards against a hang: the 408 comes from the deadline's timer)
        took, got = closed_after(s, 30.0)
        assert took != float("inf"), got
        # 408 whether the line, the headers or the body stopped half way
        assert got.startswith(b"HTTP/1.1 408"), (i, got)
        s.close()
    # a keep-alive connection: the second request's headers stop half way
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        s.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        first = b""
        while not first.endswith(b"[]"):
            first += s.recv(4096)
        assert first.startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /api/tables HTTP/1.1\r\nHo")
        took, got = closed_after(s, 30.0)
        assert took != float("inf") and got.startswith(b"HTTP/1.1 408"), (took, got)
        assert json.loads(got.split(b"\r\n\r\n", 1)[1])["detail"].startswith("the request did")
    assert live.get("/api/tables") == []  # the server carries on
    assert live.state.internal_errors == 0


def test_a_whole_request_sent_slowly_but_in_time_is_answered(live_factory: Any) -> None:
    live = live_factory(request_seconds=10.0)  # far above the 0.6 s it is sent over
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        for part in (b"GET /api/tab", b"les HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n", b"\r\n"):
            s.sendall(part)
            time.sleep(0.2)
        assert s.recv(4096).startswith(b"HTTP/1.1 200")


def test_a_whole_request_with_connection_close_is_answered_after_the_deadline(
        live_factory: Any) -> None:
    """Issue 55: a request sent whole with ``Connection: close`` (what nginx sends) whose
    answer takes longer than the deadline is answered, not cut off with 408."""
    from test_nginx import SlowReviews
    from test_reviews import a_record

    live = live_factory(request_seconds=1.0, pool=SlowReviews(2.5))
    rid = a_record(live)["id"]
    body = b'{"seat": 1}'
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        s.sendall(f"POST /api/records/{rid}/review HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                  "Connection: close\r\n\r\n".encode() + body)
        took, got = closed_after(s, 30.0)
    assert got.startswith(b"HTTP/1.1 200"), (took, got)
    assert json.loads(got.split(b"\r\n\r\n", 1)[1])["slept"] == 2.5
    # and one whose body stops half way, with Connection: close, still gets 408
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        s.sendall(f"POST /api/records/{rid}/review HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                  + body[:3])
        took, got = closed_after(s, 30.0)
    assert got.startswith(b"HTTP/1.1 408") and took < 5, (took, got)


def test_a_websocket_outlives_the_request_deadline(live_factory: Any) -> None:
    live = live_factory(request_seconds=0.5)
    tid = live.create([None, "greedy", "greedy", "greedy"])
    with connect(f"{live.ws_url}/ws/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(ws.recv(timeout=5))["type"] == "state"
        time.sleep(1.5)
        ws.send(json.dumps({"type": "ping", "id": 1}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong", "id": 1}


def test_big2_serve_closes_a_half_open_request_within_10_seconds() -> None:
    assert REQUEST_SECONDS <= 10.0 and DeadlineH11Protocol.request_seconds == REQUEST_SECONDS
