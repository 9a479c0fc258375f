"""Finished tables cannot stall the others (issue 26, item 1): a finished
table's final state is stored when it ends and every read is served from it,
so reading a finished 100-deal table again and again leaves another table's
ping fast; a table finished before the state was stored is rebuilt once, off
the event loop; reads of finished tables are limited per address."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import sqlalchemy as sa
from websockets.sync.client import connect

from big2.rules import Rules
from big2.server.app import Limits
from big2.server.finished import Final
from big2.server.store import SaveTable
from big2.server.tables import Table, TableSettings, Timing
from conftest import SHORT_GRACE, LiveServer

MANY: dict[str, Any] = {"rate": 1000, "burst": 1000, "create_burst": 1000, "join_burst": 1000,
                        "waiting_per_ip": 1000,
                        "finished_burst": 10**6}


def store_finished(live: LiveServer, deals: int, *, final: bool = True) -> str:
    """A match of four greedy bots played to its end and stored as the server
    stores a finished table (*final*: with its final state, as now; else as a
    table finished before the final state was stored)."""
    table = Table.create(TableSettings(rules=Rules(), seats=("greedy",) * 4, deals=deals),
                         timing=Timing(bot_delay=0, deal_pause=0), now=0.0)
    now = 0.0
    while table.status != "over":
        now += 1.0
        table.step(now)
    stored = Final.of(table)
    live.state.store.apply([SaveTable(table.id, "over", table.snapshot(), {}, table.version,
                                      stored.text if final else None,
                                      list(stored.seats) if final else None)])
    return table.id


def test_a_finished_table_is_served_from_its_stored_state(live_factory: Any) -> None:
    live = live_factory(limits=Limits(**MANY), timing=SHORT_GRACE)
    tid = live.create([None, "greedy", "greedy", "greedy"], deals=2)
    token = live.join(tid, 0, "Ann")  # never connects: a bot plays for her after the grace
    deadline = time.monotonic() + 20
    while tid in live.state.hubs:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    with live.state.store.engine.connect() as conn:
        stored = conn.execute(sa.text("SELECT final FROM big2_tables WHERE id = :t"),
                              {"t": tid}).scalar()
    state = live.get(f"/api/tables/{tid}")
    assert state == json.loads(stored)  # the state stored when it finished, as it was
    assert state["table"]["status"] == "over" and len(state["results"]) == 2
    with connect(f"{live.ws_url}/ws/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(ws.recv(timeout=5)) == state
        ws.send(json.dumps({"type": "pass", "id": 3}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "error", "message": "the match is over",
                                                  "id": 3}
        ws.send(json.dumps({"type": "ping", "id": 4}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong", "id": 4}
    with connect(f"{live.ws_url}/ws/{tid}") as ws:  # the player sees it from her seat
        ws.send(json.dumps({"type": "hello", "token": token}))
        mine = json.loads(ws.recv(timeout=5))
        assert mine["you"] == 0 and mine["game"]["hand"] == state["game"]["end"]["hands"][0]
        assert mine["game"]["legal"] == [] and mine["totals"] == state["totals"]
    with connect(f"{live.ws_url}/ws/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
        assert "unknown seat token" in json.loads(ws.recv(timeout=5))["message"]
        assert json.loads(ws.recv(timeout=5)) == state
    status, out = live.request("POST", f"/api/tables/{tid}/join", {"seat": 0, "name": "Ann"})
    assert (status, out["detail"]) == (400, "the match is over")
    assert live.state.finished.rebuilt == 0


def test_reading_a_finished_100_deal_table_does_not_stall_another_table(
        live_factory: Any) -> None:
    live = live_factory(limits=Limits(**MANY))
    tid = store_finished(live, 100)
    other = live.create([None, "greedy", "greedy", "greedy"])
    reads, stop = [0], threading.Event()

    def reader() -> None:
        while not stop.is_set():
            assert live.get(f"/api/tables/{tid}")["table"]["status"] == "over"
            reads[0] += 1

    def opener() -> None:  # the WebSocket too
        while not stop.is_set():
            with connect(f"{live.ws_url}/ws/{tid}") as ws:
                ws.send(json.dumps({"type": "hello", "token": None}))
                assert json.loads(ws.recv(timeout=10))["type"] == "state"
            reads[0] += 1

    threads = [threading.Thread(target=reader) for _ in range(3)] + [threading.Thread(
        target=opener)]
    rtts = []
    with connect(f"{live.ws_url}/ws/{other}") as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        ws.recv(timeout=5)
        for t in threads:
            t.start()
        try:
            deadline = time.monotonic() + 60  # a hang's bound, not a timing
            while reads[0] < 40 or len(rtts) < 40:  # pings while the reads go on
                assert time.monotonic() < deadline, (reads, len(rtts))
                sent = time.perf_counter()
                ws.send(json.dumps({"type": "ping"}))
                assert json.loads(ws.recv(timeout=5))["type"] == "pong"
                rtts.append(time.perf_counter() - sent)
                time.sleep(0.01)
        finally:
            stop.set()
            for t in threads:
                t.join(15)
    # replaying the 100 deals cost 60-250 ms of the event loop a read; served
    # from the stored state no read rebuilds the match. How quick the pings
    # stay is measured by ``benchmarks/bench_server.py stall``, not here: a
    # timed test fails on a busy machine for no fault of the code.
    assert reads[0] > 0 and rtts, (reads, len(rtts))
    assert live.state.finished.rebuilt == 0 and live.state.internal_errors == 0


def test_a_table_finished_before_is_rebuilt_once_off_the_loop(live_factory: Any) -> None:
    live = live_factory(limits=Limits(**MANY))
    tid = store_finished(live, 30, final=False)
    got: list[Any] = []
    threads = [threading.Thread(target=lambda: got.append(live.get(f"/api/tables/{tid}")))
               for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(got) == 6 and all(g == got[0] for g in got)
    assert got[0]["table"]["status"] == "over" and len(got[0]["results"]) == 30
    assert live.state.finished.rebuilt == 1  # six readers at once, one rebuild
    assert live.state.store.finished(tid) == ("over", json.dumps(got[0], ensure_ascii=False),
                                              [None] * 4)


def test_reads_of_finished_tables_are_limited_per_address(live_factory: Any) -> None:
    live = live_factory(limits=Limits(rate=1000, burst=1000, finished_rate=0.01,
                                      finished_burst=3))
    tid = store_finished(live, 1)
    live_table = live.create([None, "greedy", "greedy", "greedy"])
    for _ in range(3):
        live.get(f"/api/tables/{tid}")
    status, out = live.request("GET", f"/api/tables/{tid}")
    assert status == 429 and "finished tables" in out["detail"]
    status, _ = live.request("GET", "/api/tables/nosuchtable")
    assert status == 429  # ids that name nothing count too: each costs a database read
    with connect(f"{live.ws_url}/ws/{tid}") as ws:
        assert "too many reads" in json.loads(ws.recv(timeout=5))["message"]
    assert live.get(f"/api/tables/{live_table}")["table"]["status"] == "waiting"  # live: free
