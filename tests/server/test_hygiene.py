"""HTTP and WebSocket hygiene (issue 15): body limit, no echo, 404 for any id,
bad text, names, Origin and Host, hello deadline, socket caps, quiet
spectators, dropped messages named, quiet logs when clients vanish."""

from __future__ import annotations

import http.client
import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from big2.server.app import Limits, create_app
from conftest import LiveServer

MARK = "ZQXMARK"


def raw(live: LiveServer, method: str, path: str, body: bytes | None = None,
        headers: dict[str, str] | None = None, chunked: bool = False) -> tuple[int, str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"}
                     | (headers or {}), encode_chunked=chunked)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered (a 413) and closed before the whole body was sent
    res = conn.getresponse()
    text = res.read().decode()
    conn.close()
    return res.status, text, res.headers


def test_body_limit_413_before_parsing(live: LiveServer) -> None:
    big = json.dumps({"name": "x" * 100_000}).encode()
    status, text, _ = raw(live, "POST", "/api/tables", big)
    assert status == 413 and "x" * 50 not in text
    chunks = iter([b'{"name": "', b"y" * 70_000, b'"}'])
    status, text, _ = raw(live, "POST", "/api/tables", chunks, chunked=True)  # type: ignore[arg-type]
    assert status == 413 and "y" * 50 not in text


def test_errors_never_echo_input(live: LiveServer) -> None:
    for body in ({"players": MARK}, {MARK: 1}, {"name": 5, "seats": [MARK]},
                 {"preset": MARK}, {"players": 3, "seats": [None, MARK, None]},
                 {"options": {MARK: 1}}, {"options": {"suit_order": MARK}}):
        status, text, _ = raw(live, "POST", "/api/tables", json.dumps(body).encode())
        assert status in (400, 422), (body, status)
        assert MARK not in text and MARK.lower() not in text.lower(), (body, text)
    status, text, _ = raw(live, "POST", "/api/tables", b"{" + MARK.encode())
    assert status == 422 and MARK not in text


@pytest.mark.parametrize("path", [
    "/api/records/2147483648", "/api/records/99999999999999999999999999999", "/api/records/-1",
    "/api/records/0", "/api/records/abc", "/api/records/%C2%B2", "/replay/99999999999999",
    "/api/records/123/download", "/api/tables/" + "x" * 5000, "/api/tables/nosuch/records",
    "/api/tables/" + "y" * 300 + "/records",
])
def test_any_unknown_id_is_404(live: LiveServer, path: str) -> None:
    status, text, _ = raw(live, "GET", path)
    assert status == 404, (path, status, text)
    assert live.state.internal_errors == 0


def test_unknown_huge_table_id_on_the_websocket(live: LiveServer) -> None:
    with connect(f"{live.ws_url}/ws/{'z' * 3000}") as ws:
        assert json.loads(ws.recv(timeout=5))["message"] == "no such table"


def test_bad_text_422_and_names_cleaned(live: LiveServer) -> None:
    tid = live.create([None, None, "greedy", "greedy"])
    path = f"/api/tables/{tid}/join"
    status, text, _ = raw(live, "POST", path, b'{"seat": 0, "name": "A\\ud800B"}')
    assert status == 422 and json.loads(text)["detail"][0]["loc"] == ["body", "name"]
    status, text, _ = raw(live, "POST", "/api/tables", b'{"name": "\\udfff"}')
    assert status == 422
    for bot_like in ("Hard bot 3", "medium BOT 2", "Greedy bot1"):
        status, text, _ = raw(live, "POST", path, json.dumps({"seat": 0, "name": bot_like})
                              .encode())
        assert status == 422 and "kept for bots" in text, bot_like
    live.join(tid, 0, "A\u202eB\u0000C\u200b\u2067D\tE\nF")
    seats = live.get(f"/api/tables/{tid}")["table"]["seats"]
    assert seats[0]["name"] == "ABCD E F"
    assert live.state.internal_errors == 0


def test_unknown_bot_is_refused_at_startup(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        create_app(str(tmp_path / "x.sqlite3"), auto_bot="nope")


def ws_status(live: LiveServer, path: str, **headers: str) -> int:
    """The status of a WebSocket handshake sent with *headers* (101: accepted)."""
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10)
    conn.putrequest("GET", path, skip_host=True)
    for k, v in ({"Host": f"127.0.0.1:{live.port}", "Upgrade": "websocket",
                  "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                  "Sec-WebSocket-Version": "13"} | headers).items():
        conn.putheader(k, v)
    conn.endheaders()
    status = conn.getresponse().status
    conn.close()
    return status


def test_origin_and_host_are_checked(live: LiveServer) -> None:
    tid = live.create([None, "greedy", "greedy", "greedy"])
    path = f"/ws/{tid}"
    assert ws_status(live, path, Origin="http://evil.example") == 403
    assert ws_status(live, path, Origin=f"http://127.0.0.1:{live.port}") == 101  # its own pages
    assert ws_status(live, path) == 101  # no Origin: not a browser
    assert ws_status(live, path, Host="evil.example") == 403  # DNS rebinding
    status, _text, _ = raw(live, "GET", "/api/tables", headers={"Host": "evil.example"})
    assert status == 400
    assert raw(live, "GET", "/api/tables", headers={"Host": f"localhost:{live.port}"})[0] == 200


def test_hello_is_required_within_the_deadline(live_factory: Any) -> None:
    live = live_factory(limits=Limits(rate=100, burst=100, hello_seconds=0.3))
    tid = live.create([None, "greedy", "greedy", "greedy"])
    with connect(f"{live.ws_url}/ws/{tid}") as ws:
        msg = json.loads(ws.recv(timeout=30))  # sent by the 0.3 s deadline's timer
        assert "hello" in msg["message"]
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)


def test_socket_caps_per_address_and_per_table(live_factory: Any) -> None:
    live = live_factory(limits=Limits(rate=100, burst=100, sockets_per_ip=3,
                                      sockets_per_table=2))
    a = live.create([None, "greedy", "greedy", "greedy"])
    b = live.create([None, "greedy", "greedy", "greedy"])
    first = [live.client(a), live.client(a)]
    with connect(f"{live.ws_url}/ws/{a}") as ws:
        assert "too many connections to this table" in json.loads(ws.recv(timeout=5))["message"]
    third = live.client(b)
    with connect(f"{live.ws_url}/ws/{b}") as ws:
        assert "from your address" in json.loads(ws.recv(timeout=5))["message"]
    for c in first + [third]:
        c.close()
    time.sleep(0.3)
    live.client(b).close()  # freed again


def test_spectators_get_only_their_own_state(live: LiveServer) -> None:
    tid = live.create([None, "greedy", "greedy", "greedy"], turn_time=0)
    player = live.client(tid, live.join(tid, 0, "Ann"))
    player.drain(0.3)
    before = len(player.messages)
    watchers = [live.client(tid) for _ in range(6)]
    for w in watchers:
        w.close()
    time.sleep(0.3)
    player.drain(0.2)
    assert len(player.messages) == before  # six joins and leaves sent the player nothing
    assert all(w.state["you"] is None for w in watchers)


def test_dropped_messages_are_answered_by_name(live_factory: Any) -> None:
    live = live_factory(limits=Limits(rate=0.5, burst=3, kick_after=50))
    tid = live.create([None, "greedy", "greedy", "greedy"])
    c = live.client(tid)  # hello took one token
    for i in range(6):
        c.send({"type": "ping", "id": i})
    c.send("not json")
    got = [c.recv(5) for _ in range(7)]
    pongs = [m["id"] for m in got if m["type"] == "pong"]
    dropped = [m for m in got if m["type"] == "error"]
    assert pongs == [0, 1]
    assert [m["id"] for m in dropped[:4]] == [2, 3, 4, 5]
    assert all("your ping was dropped" in m["message"] for m in dropped[:4])
    assert "dropped unread" in dropped[4]["message"]


def test_logs_stay_quiet_when_clients_vanish(live: LiveServer,
                                             caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    tid = live.create(["greedy"] * 4, deals=20)
    clients = [live.client(tid) for _ in range(25)]
    time.sleep(0.3)
    for c in clients:  # gone without a close frame, while states keep coming
        c.ws.socket.close()
    time.sleep(1.0)
    lines = [r.getMessage() for r in caplog.records]
    assert not [x for x in lines if "socket.send() raised exception" in x]
    assert not [x for x in lines if "Exception in ASGI" in x or "Traceback" in x]
    assert live.state.internal_errors == 0


@pytest.mark.parametrize("number", ["abc", "+1", "%201", "1.0", "01", "-1", "%C2%B2", "1e3",
                                    "99999999999999999999", "0x1"])
def test_a_puzzle_id_that_is_not_a_canonical_number_is_404(live: LiveServer,
                                                           number: str) -> None:
    status, text, _ = raw(live, "GET", f"/api/puzzles/{number}")
    assert status == 404, (number, status, text)
    assert "numbered 1 to" in json.loads(text)["detail"], text
    assert raw(live, "GET", "/api/puzzles/1")[0] == 200  # the canonical form of a real one


def test_errors_about_the_path_or_query_say_so(live: LiveServer) -> None:
    for query, name in (("offset=abc", "offset"), ("limit=0", "limit"),
                        ("find=" + "x" * 41, "find"), ("open=maybe", "open")):
        status, text, _ = raw(live, "GET", f"/api/tables?{query}")
        assert status == 422, (query, status, text)
        detail = json.loads(text)["detail"]
        assert detail[0]["loc"] == ["query", name], detail
        assert detail[0]["msg"].startswith(f"in the query: {name} must"), detail
        assert "body" not in text and "x" * 10 not in text, text


def test_too_many_waiting_tables_answer_429_with_retry_after(live_factory: Any) -> None:
    live = live_factory(limits=Limits(waiting_per_ip=3, create_burst=100, rate=1000,
                                      burst=1000, waiting_seconds=600))
    for _ in range(3):
        live.create([None, None, "greedy", "greedy"])
    status, text, headers = raw(live, "POST", "/api/tables", json.dumps(
        {"players": 4, "seats": [None, None, "greedy", "greedy"]}).encode())
    assert status == 429 and "3 tables waiting" in text, (status, text)
    assert 590 <= int(headers["Retry-After"]) <= 601, headers  # when the first one expires


def test_an_invalid_utf8_frame_is_one_log_line(live: LiveServer,
                                               caplog: pytest.LogCaptureFixture) -> None:
    import base64
    import os
    import socket

    caplog.set_level(logging.INFO)
    tid = live.create([None, "greedy", "greedy", "greedy"])
    for _ in range(5):
        with socket.create_connection(("127.0.0.1", live.port), timeout=10) as s:
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall(f"GET /ws/{tid} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n".encode())
            assert s.recv(4096).startswith(b"HTTP/1.1 101")
            mask, payload = os.urandom(4), b"\xff\xfe"
            s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask
                      + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
            closing = s.recv(4096)
            assert closing[:1] == b"\x88" and closing[2:4] == (1007).to_bytes(2, "big")
    bad = [r for r in caplog.records if "UTF-8" in r.getMessage()]
    assert len(bad) == 5 and not any(r.exc_info for r in bad), caplog.text
    assert "Traceback" not in caplog.text, caplog.text


def server_side(port: int, peer: int) -> int | None:
    """The bytes waiting in the send queue of the server's end (local *port*) of the
    loopback connection from client port *peer*, or ``None`` once it is closed."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        f = line.split()
        if (f[1].endswith(f":{port:04X}") and f[2].endswith(f":{peer:04X}")
                and f[3] in ("01", "08")):  # ESTABLISHED or CLOSE_WAIT
            return int(f[4].split(":")[0], 16)
    return None


def test_a_spectator_that_stops_reading_is_dropped(live_factory: Any) -> None:
    """Issue 55: a spectator that stops reading is dropped once a message has waited
    ``send_seconds`` for it (the server's send buffer is bounded meanwhile), while one
    that reads stays."""
    import base64
    import os
    import socket

    live = live_factory(limits=Limits(rate=10_000, burst=10_000, create_burst=10_000,
                                      join_burst=10_000, waiting_per_ip=10_000,
                                      send_seconds=1.0, send_buffer=16384))
    tid = live.create(["greedy"] * 4, deals=100)
    reader = live.client(tid)
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting
    stalled.connect(("127.0.0.1", live.port))
    key = base64.b64encode(os.urandom(16)).decode()
    stalled.sendall(f"GET /ws/{tid} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                    f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += stalled.recv(1)  # the handshake's answer only: then it stops reading
    assert head.startswith(b"HTTP/1.1 101"), head
    mask, hello = os.urandom(4), b'{"type": "hello", "token": null}'
    stalled.sendall(bytes([0x81, 0x80 | len(hello)]) + mask
                    + bytes(b ^ mask[i % 4] for i, b in enumerate(hello)))
    hub = live.state.hubs[tid]
    start = time.monotonic()
    while len(hub.connections) < 2:  # the stalled one said hello
        assert time.monotonic() - start < 10
        reader.drain(0.05)
    peer = stalled.getsockname()[1]
    gone, most = None, 0
    while gone is None and time.monotonic() - start < 60:
        reader.drain(0.05)
        held = server_side(live.port, peer)  # bytes the server's kernel holds for it
        if held is None:
            gone = time.monotonic() - start
        else:
            most = max(most, held)
    assert gone is not None, f"a spectator that stopped reading was kept ({most} bytes)"
    assert most <= 4 * 16384, most  # its send buffer, bounded
    assert len(hub.connections) == 1
    reader.drain(0.3)
    assert reader.ws.protocol.state.name == "OPEN"  # the one that reads is still served
    stalled.close()
    assert live.state.internal_errors == 0


def test_fair_turns_share_their_slots_by_address() -> None:
    """Issue 55: with two slots (the hint pool's two workers), an address asking for six
    hints at once takes both slots, and another address's hint goes next, not seventh."""
    import asyncio

    from big2.server.hygiene import FairTurns

    order: list[str] = []

    async def ask(turns: FairTurns, address: str, label: str) -> None:
        async with turns.turn(address):
            order.append(label)
            await asyncio.sleep(0.02)

    async def main() -> None:
        turns = FairTurns(2)
        tasks = [asyncio.create_task(ask(turns, "10.0.0.1", f"ann{i}")) for i in range(6)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(ask(turns, "10.0.0.2", "bob")))
        await asyncio.gather(*tasks)
        assert turns.waiting() == 0 and turns._holders == 0

    asyncio.run(main())
    assert order[:2] == ["ann0", "ann1"] and order.index("bob") <= 3, order
    assert sorted(order) == sorted([f"ann{i}" for i in range(6)] + ["bob"])
