"""No error repeats what the client sent (issue 26, item 2): every refusal of
the HTTP API and of the WebSocket is checked with a marker string sent as a
value, as a field name, as a message type, as an id, inside bad JSON and in an
oversize body; the marker never comes back, and each reason reads as words
(no pydantic wording, no "the value sent" patched into a sentence)."""

from __future__ import annotations

import http.client
import json
import re
from typing import Any

from websockets.sync.client import connect

from conftest import LiveServer

MARK = "ZqXmArK"
XSS = "<img src=x onerror=alert(1)>"


def clean(text: str) -> bool:
    """Neither marker in *text*, in any case."""
    low = text.lower()
    return MARK.lower() not in low and "onerror" not in low and "<img" not in low


def sentence(message: str) -> bool:
    """A reason in words: several of them, none of pydantic's or the old patching."""
    return (len(message.split()) >= 3 and not re.search(
        r"Input should|Extra inputs|Field required|the value sent|Value error", message))


def send(live: LiveServer, method: str, path: str, body: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10)
    conn.request(method, path, body=body, headers={"Content-Type": "application/json"}
                 | (headers or {}))
    res = conn.getresponse()
    text = res.read().decode()
    conn.close()
    return res.status, text


def reasons(text: str) -> list[str]:
    detail = json.loads(text)["detail"]
    return [d["msg"] for d in detail] if isinstance(detail, list) else [detail]


CREATE_BODIES: list[Any] = [
    {"players": MARK}, {MARK: 1}, {XSS: 1}, {"name": 5}, {"name": MARK * 20},
    {"seats": [MARK]}, {"seats": MARK}, {"seats": [None, MARK, None, None]},
    {"preset": MARK}, {"options": {MARK: 1}}, {"options": {XSS: True}},
    {"options": {"suit_order": MARK}}, {"options": {"passing": [MARK]}},
    {"options": {"teams": MARK}}, {"options": {"match_deals": MARK}},
    {"options": {"spare_to": "highest", "deal": "13-each"}},  # once "a the value sent deal"
    {"options": {"finish_restrictions": [MARK]}}, {"options": MARK}, {"deals": MARK},
    {"turn_time": MARK}, {"private": MARK}, {"players": 3, "seats": [None, MARK, None]},
    [MARK], MARK, {"name": "A\ud800" + MARK},
]


def test_http_errors_never_echo_input(live: LiveServer) -> None:
    tid = live.create([None, None, "greedy", "greedy"])
    cases: list[tuple[str, str, bytes | None]] = [
        ("POST", "/api/tables", json.dumps(b).encode()) for b in CREATE_BODIES]
    cases += [("POST", f"/api/tables/{tid}/join", json.dumps(b).encode()) for b in (
        {"seat": MARK}, {"seat": 0, "name": MARK + " bot 3"}, {"seat": 0, MARK: 1},
        {"seat": 9, "name": MARK}, {XSS: 0}, {"name": MARK})]
    cases += [
        ("POST", "/api/tables", b"{" + MARK.encode()), ("POST", "/api/tables", MARK.encode()),
        ("POST", "/api/tables", b'{"name": "' + MARK.encode() * 10_000 + b'"}'),  # 413
        ("GET", f"/api/tables/{MARK}", None), ("GET", f"/api/tables/{MARK}/records", None),
        ("POST", f"/api/tables/{MARK}/join", b'{"seat": 0}'), ("GET", f"/t/{MARK}x", None),
        ("GET", f"/api/records/{MARK}", None), ("GET", f"/replay/{MARK}", None),
        ("GET", f"/api/records/1/download?format={MARK}", None),
        ("GET", f"/cards/{MARK}.svg", None),
    ]
    for method, path, body in cases:
        status, text = send(live, method, path, body)
        assert status >= 400 or path.startswith("/t/"), (path, body, status)
        assert clean(text), (path, body, text)
        if status >= 400 and text.startswith("{"):
            assert all(sentence(m) for m in reasons(text)), (body, text)
    status, text = send(live, "GET", "/api/tables", headers={"Host": MARK + ".example"})
    assert status == 400 and clean(text)
    assert live.state.internal_errors == 0


def test_the_refused_spare_card_reads_as_a_sentence(live: LiveServer) -> None:
    status, out = live.request("POST", "/api/tables", {
        "options": {"spare_to": "highest", "deal": "13-each"}})
    assert status == 400
    assert out["detail"] == ("spare_to: 'highest' needs deal=even (a 13-each deal leaves no "
                             "spare card)")
    status, out = live.request("POST", "/api/tables", {"options": {"suit_order": MARK}})
    assert status == 400 and out["detail"].startswith("option suit_order takes one of: ")


WS_MESSAGES: list[str] = [
    MARK, "{" + MARK, json.dumps([MARK]), json.dumps({"type": MARK}),
    json.dumps({"type": "pass", MARK: 1}), json.dumps({"type": "pass", XSS: 1}),
    json.dumps({"type": "play", "cards": [MARK]}), json.dumps({"type": "play", "cards": MARK}),
    json.dumps({"type": "play", "cards": ["3D", MARK, "4D"]}),
    json.dumps({"type": "play", "cards": [MARK] * 20}), json.dumps({"type": "play"}),
    json.dumps({"type": "pass", "id": MARK}), json.dumps({"type": "pass", "id": -5}),
    json.dumps({"type": "hello", "token": MARK}), json.dumps({"type": "hello", "token": [MARK]}),
    json.dumps({"type": "hello", "token": MARK * 40}), json.dumps({"type": "hint", MARK: MARK}),
    json.dumps({"type": "ping", "id": 1, "x": MARK}),
    json.dumps({"type": "play", "cards": "x" * 3000}),
    json.dumps({"type": "play", "cards": ["3D", "3D"]}),  # one deck: named twice
    json.dumps({"type": "next", "id": 4}),
]


def test_websocket_errors_never_echo_input(live: LiveServer) -> None:
    tid = live.create([None, None, "greedy", "greedy"])
    token = live.join(tid, 0, "Ann")
    with connect(f"{live.ws_url}/ws/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        got: list[dict[str, Any]] = []
        for text in WS_MESSAGES + [MARK.encode()]:
            ws.send(text)
            while True:
                msg = json.loads(ws.recv(timeout=5))
                if msg["type"] == "error":
                    got.append(msg)
                    break
        for msg in got:
            assert clean(json.dumps(msg)) and sentence(msg["message"]), msg
        assert "a pass message takes no other fields than type and id" in [
            m["message"] for m in got]
    with connect(f"{live.ws_url}/ws/{MARK}") as ws:
        msg = json.loads(ws.recv(timeout=5))
        assert msg["message"] == "no such table" and clean(json.dumps(msg))
    assert live.state.internal_errors == 0
