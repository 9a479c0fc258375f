"""Table lifecycle (issue 15): finished tables leave memory, waiting tables
expire (and are not resumed), the cap counts live tables only, per-address
limits on creating and joining (429 with Retry-After), private tables."""

from __future__ import annotations

import http.client
import json
import time
from typing import Any

from big2.server.app import Limits
from conftest import LiveServer

MANY: dict[str, Any] = {"rate": 1000, "burst": 1000, "create_burst": 1000, "join_burst": 1000,
                        "waiting_per_ip": 1000}


def post_from(live: LiveServer, source: str, path: str, body: Any) -> tuple[int, Any, Any]:
    """POST from another loopback address (another client, as the server sees it)."""
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10,
                                      source_address=(source, 0))
    conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    res = conn.getresponse()
    out = json.loads(res.read())
    conn.close()
    return res.status, out, res.headers


def wait_for(pred: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_finished_tables_leave_memory_and_stay_in_the_database(live_factory: Any) -> None:
    live = live_factory(limits=Limits(max_tables=2, **MANY))
    done = [live.create(["greedy"] * 4, deals=1) for _ in range(2)]  # bots only: they play at once
    wait_for(lambda: not any(t in live.state.hubs for t in done))
    more = live.create([None, "greedy", "greedy", "greedy"])  # the cap counts live tables only
    assert more in live.state.hubs
    for tid in done:
        assert live.get(f"/api/tables/{tid}")["table"]["status"] == "over"  # read from the database
        assert len(live.get(f"/api/tables/{tid}/records")) == 1
    lobby = [t["id"] for t in live.get("/api/tables")]
    assert more in lobby and not set(done) & set(lobby)
    assert live.request("POST", "/api/tables", {"seats": [None, "greedy", "greedy", "greedy"],
                                                "players": 4})[0] == 201
    status, body = live.request("POST", "/api/tables", {"players": 4})
    assert status == 503 and "too many tables" in body["detail"]


def test_waiting_tables_expire_and_are_not_resumed(live_factory: Any) -> None:
    live = live_factory(limits=Limits(waiting_seconds=0.4, max_tables=1, **MANY))
    tid = live.create([None, None, "greedy", "greedy"])
    live.join(tid, 0, "Ann")  # one of two people: still waiting
    watcher = live.client(tid)
    assert live.request("POST", "/api/tables", {"players": 4})[0] == 503  # the cap is 1
    msg = watcher.wait(lambda m: m["type"] == "error", timeout=5)
    assert "expired" in msg["message"]
    assert tid not in live.state.hubs and live.request("GET", f"/api/tables/{tid}")[0] == 404
    assert live.request("POST", "/api/tables", {"players": 4})[0] == 201  # room again

    # a waiting table older than the limit when the server starts is not resumed
    first = live_factory(limits=Limits(waiting_seconds=3600, **MANY))
    old = first.create([None, None, "greedy", "greedy"])
    first.stop()
    time.sleep(0.3)
    again = live_factory(limits=Limits(waiting_seconds=0.2, **MANY))
    assert old not in again.state.hubs and again.request("GET", f"/api/tables/{old}")[0] == 404


def test_per_address_limits_answer_429_with_retry_after(live_factory: Any) -> None:
    live = live_factory(limits=Limits(rate=1000, burst=1000, create_burst=3, create_rate=0.01,
                                      join_burst=2, join_rate=0.01))
    body = {"players": 4, "seats": [None, None, None, None]}
    codes = [post_from(live, "127.0.0.1", "/api/tables", body)[0] for _ in range(5)]
    assert codes == [201, 201, 201, 429, 429]
    status, out, headers = post_from(live, "127.0.0.1", "/api/tables", body)
    assert status == 429 and int(headers["Retry-After"]) >= 1 and "too many" in out["detail"]
    status, out, _ = post_from(live, "127.0.0.2", "/api/tables", body)  # another client
    assert status == 201
    tid = out["id"]
    joins = [post_from(live, "127.0.0.3", f"/api/tables/{tid}/join", {"seat": s, "name": "x"})[0]
             for s in range(3)]
    assert joins == [200, 200, 429]
    assert post_from(live, "127.0.0.4", f"/api/tables/{tid}/join", {"seat": 2, "name": "y"})[0] \
        == 200


def test_private_tables_are_joined_by_link_only(live: LiveServer) -> None:
    tid = live.create([None, None, "greedy", "greedy"], private=True)
    public = live.create([None, None, "greedy", "greedy"])
    lobby = [t["id"] for t in live.get("/api/tables")]
    assert public in lobby and tid not in lobby
    token = live.join(tid, 0, "Ann")
    assert live.client(tid, token).state["you"] == 0


def test_one_address_may_keep_only_a_few_tables_waiting(live_factory: Any) -> None:
    live = live_factory(limits=Limits(rate=1000, burst=1000, create_burst=1000,
                                      join_burst=1000, waiting_per_ip=3))
    body = {"players": 4, "seats": [None, None, None, None]}
    made = [post_from(live, "127.0.0.5", "/api/tables", body) for _ in range(4)]
    assert [m[0] for m in made] == [201, 201, 201, 429]
    assert "3 tables waiting for players" in made[3][1]["detail"]
    assert post_from(live, "127.0.0.6", "/api/tables", body)[0] == 201  # another address
    # a table that starts no longer waits: the address may open another
    bots = {"players": 4, "seats": [None, "greedy", "greedy", "greedy"]}
    tid = made[0][1]["id"]
    for s in range(4):
        post_from(live, "127.0.0.7", f"/api/tables/{tid}/join", {"seat": s, "name": f"P{s}"})
    wait_for(lambda: live.state.hubs[tid].table.status != "waiting")
    assert post_from(live, "127.0.0.5", "/api/tables", bots)[0] == 201


def test_the_lobby_pages_and_filters(live: LiveServer) -> None:
    made = [live.create([None, None, "greedy", "greedy"], name=f"Table {i}") for i in range(5)]
    live.create([None, "greedy", "greedy", "greedy"], name="Friday night", preset="taiwan")
    full = live.create([None, None, "greedy", "greedy"], name="Full one")
    for s in (0, 1):
        live.join(full, s, f"P{s}")
    every = live.get("/api/tables")
    assert len(every) == 7
    page1, page2 = live.get("/api/tables?limit=3"), live.get("/api/tables?limit=3&offset=3")
    assert [t["id"] for t in page1 + page2] == [t["id"] for t in every[:6]]  # newest first
    assert [t["name"] for t in live.get("/api/tables?find=FRIDAY")] == ["Friday night"]
    assert [t["name"] for t in live.get("/api/tables?find=taiwan")] == ["Friday night"]
    assert {t["id"] for t in live.get("/api/tables?open=true")} == set(made) | {
        t["id"] for t in every if t["name"] == "Friday night" and t["open"]}
    assert full not in {t["id"] for t in live.get("/api/tables?open=true")}
    assert live.request("GET", "/api/tables?limit=0")[0] == 422
    assert live.request("GET", "/api/tables?find=" + "x" * 41)[0] == 422
