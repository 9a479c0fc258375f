"""Storage (issue 15): plays appended as rows between snapshots, commits
grouped off the event loop, and a database outage (a real one: PostgreSQL's
connections cut by a proxy, SQLite's file locked by another connection): the
move is refused with a clear message and rolled back, nobody is sent it, and
the table carries on by itself when the database returns."""

from __future__ import annotations

import contextlib
import logging
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from big2.server.app import Limits
from big2.server.sockets import NOT_SAVED
from big2.server.store import Store
from conftest import SHORT_GRACE, Client, LiveServer


class CutProxy:
    """A TCP proxy to a database that can be cut (every connection closed and
    new ones refused) and restored."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.socks: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            server = socket.create_connection(self.target)
            self.socks += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := a.recv(65536):
                b.sendall(data)
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.up = False
        for s in self.socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
        self.socks = []

    def restore(self) -> None:
        self.up = True


@contextlib.contextmanager
def outage_control(db_url: str) -> Iterator[tuple[str, Any, Any]]:
    """``(url the server uses, cut(), restore())`` for a real outage of *db_url*."""
    if db_url.startswith("postgresql"):
        url = sa.engine.make_url(db_url)
        proxy = CutProxy(url.host or "127.0.0.1", url.port or 5432)
        yield url.set(host="127.0.0.1", port=proxy.port).render_as_string(
            hide_password=False), proxy.cut, proxy.restore
        proxy.cut()
        proxy.listener.close()
        return
    lock = sqlite3.connect(db_url, timeout=5, isolation_level=None)

    def cut() -> None:
        lock.execute("BEGIN EXCLUSIVE")  # every other writer now gets "database is locked"

    def restore() -> None:
        lock.execute("COMMIT")

    yield db_url, cut, restore
    lock.close()


def test_plays_are_appended_between_snapshots(live_factory: Any) -> None:
    live = live_factory(limits=Limits(rate=1000, burst=1000, create_burst=1000,
                                      join_burst=1000, snapshot_every=4))
    tid = live.create([None] * 4, deals=1, turn_time=0)
    tokens = [live.join(tid, s, f"P{s}") for s in range(4)]
    people = [live.client(tid, t) for t in tokens]
    engine = live.state.store.engine
    rows_after = []
    for ply in range(1, 7):
        for c in people:
            c.wait_state(lambda s, n=ply - 1: s["game"] is not None and s["game"]["plies"] == n)
        mover = people[people[0].state["game"]["to_move"]]
        legal = mover.state["game"]["legal"]
        play = legal[0] if legal[0] else legal[-1]
        mover.send({"type": "play", "cards": play.split()} if play else {"type": "pass"})
        mover.wait_state(lambda s, n=ply: s["game"]["plies"] == n)
        with engine.connect() as conn:
            rows_after.append(conn.execute(sa.text(
                "SELECT count(*) FROM big2_actions WHERE table_id = :t"), {"t": tid}).scalar())
    assert rows_after == [1, 2, 3, 4, 0, 1]  # a snapshot every 4 plays replaces the rows
    hub = live.state.hubs[tid]
    back = live.state.rebuild(hub.saved, hub.since)  # what a restart would load
    assert back.game.history == hub.table.game.history


def test_a_move_is_refused_and_rolled_back_while_the_database_is_down(
        live_factory: Any, db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="big2.server")
    with outage_control(db_url) as (url, cut, restore):
        live: LiveServer = live_factory(db=url, store=Store(url, timeout=0.5),
                                       timing=SHORT_GRACE)
        tid = live.create([None, None, "greedy", "greedy"], deals=1, turn_time=0)
        tokens = [live.join(tid, s, f"P{s}") for s in (0, 1)]
        people = [live.client(tid, t) for t in tokens]
        watcher = live.client(tid)
        # the bots play until a person is to move
        people[0].wait_state(lambda s: s["game"]["to_move"] in (0, 1))
        for c in people + [watcher]:
            c.drain(0.3)
        mover = people[people[0].state["game"]["to_move"]]
        hand, plies = mover.state["game"]["hand"], mover.state["game"]["plies"]
        seen = len(watcher.messages)
        legal = mover.state["game"]["legal"]
        play = legal[0] if legal[0] else legal[-1]
        cut()
        mover.send({"type": "play", "cards": play.split(), "id": 7} if play
                   else {"type": "pass", "id": 7})
        err = mover.wait(lambda m: m["type"] == "error", timeout=15)
        assert err == {"type": "error", "message": NOT_SAVED, "id": 7, "retry": True}
        # the operator is told why, with the table and the seat
        said = [r.getMessage() for r in caplog.records if "not saved" in r.getMessage()]
        assert any(tid in m and f"seat {mover.state['you']}'s" in m for m in said), said
        back = mover.messages[-2]  # the table as it stands, sent with the refusal
        assert back["type"] == "state" and back["game"]["plies"] == plies
        assert back["game"]["hand"] == hand and back["game"]["to_move"] == back["you"]
        hub = live.state.hubs[tid]
        assert len(hub.table.game.history) == plies  # rolled back
        assert hub.table.state_for(mover.state["you"])["game"]["hand"] == hand
        watcher.drain(0.2)
        assert len(watcher.messages) == seen  # nobody was sent the refused move
        restore()
        mover.send({"type": "play", "cards": play.split()} if play else {"type": "pass"})
        st = watcher.wait_state(lambda s: s["game"]["plies"] > plies, timeout=15)
        assert st["game"]["log"][plies - st["game"]["plies"]] == [mover.state["you"], play]
        assert live.state.db_errors >= 1 and live.state.internal_errors == 0


def test_bots_carry_on_by_themselves_when_the_database_returns(
        live_factory: Any, db_url: str) -> None:
    with outage_control(db_url) as (url, cut, restore):
        live: LiveServer = live_factory(db=url, store=Store(url, timeout=0.5),
                                       timing=SHORT_GRACE)
        tid = live.create([None, "greedy", "greedy", "greedy"], deals=3, turn_time=0)
        watcher: Client = live.client(tid)
        cut()
        # the person never connects: after the grace period (0.5 s) a bot plays for her,
        # and every bot move fails to be stored while the database is down
        status, _ = live.request("POST", f"/api/tables/{tid}/join", {"seat": 0, "name": "Ann"})
        assert status == 503  # a join is refused too, with nothing changed
        assert live.state.hubs[tid].table.status == "waiting"
        restore()
        live.join(tid, 0, "Ann")
        start = watcher.wait_state(lambda s: s["game"] is not None, timeout=10)["game"]["plies"]
        cut()
        time.sleep(2.0)
        stuck = live.state.hubs[tid].table.game
        plies_down = len(stuck.history)
        restore()
        st = watcher.wait_state(lambda s: s["game"]["plies"] > max(plies_down, start) + 2,
                                timeout=20)
        assert st["game"]["plies"] > plies_down
        assert live.state.db_errors >= 1 and live.state.internal_errors == 0


def test_a_database_from_before_gets_the_new_columns(tmp_path: Any) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE big2_tables (id VARCHAR(32) PRIMARY KEY, status VARCHAR(16) "
                    "NOT NULL, updated FLOAT NOT NULL, snapshot TEXT NOT NULL)")
        old.execute("INSERT INTO big2_tables VALUES ('t1', 'over', 0, '{}')")
    store = Store(str(path))
    assert store.table("t1") == ("over", {}, []) and store.lobby() == []
    assert store.finished("t1") == ("over", None, None)  # no final state stored: worked out once
    store.close()


def test_writes_waiting_together_share_a_commit(db_url: str) -> None:
    import asyncio

    from big2.server.store import AddAction
    from big2.server.writer import Writer

    store = Store(db_url)
    writer = Writer(store)

    async def many() -> None:
        await asyncio.gather(*(writer.write([AddAction(f"t{i % 7}", i, i)]) for i in range(300)))

    asyncio.run(many())
    writer.close()
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM big2_actions")).scalar() == 300
    assert 1 <= writer.commits < 100  # 300 writes, far fewer commits
    store.close()


def test_a_run_of_plays_is_one_statement_and_keeps_its_order(db_url: str) -> None:
    from big2.server.store import AddAction, SaveTable

    store = Store(db_url)
    statements: list[str] = []
    sa.event.listen(store.engine, "before_cursor_execute",
                    lambda conn, cur, stmt, params, ctx, many: statements.append(stmt))
    snap = {"version": 2}
    store.apply([SaveTable("t1", "playing", snap, {}, 0),
                 AddAction("t1", 1, 5), AddAction("t1", 2, 0),  # stored, then replaced
                 SaveTable("t1", "playing", snap, {}, 2),
                 AddAction("t1", 3, 9), AddAction("t1", 4, 0), AddAction("t1", 5, 17)])
    inserts = [s for s in statements if s.lstrip().upper().startswith("INSERT INTO BIG2_ACTIONS")]
    assert len(inserts) == 2  # one a run of plays (not five)
    [(_saved, since)] = store.unfinished_tables()
    assert since == [(3, 9), (4, 0), (5, 17)]  # the snapshot at version 2 dropped plays 1-2
    store.close()


def test_a_full_disk_is_told_to_the_player_as_such(tmp_path: Any) -> None:
    """Issue 55: SQLite's ``SQLITE_FULL`` (here from ``max_page_count``: the file may grow
    no further, as on a full disk) is told as a full disk, not as a database away."""
    from big2.server.app import create_app
    from big2.server.pool import BotPool
    from big2.server.sockets import NOT_SAVED_FULL
    path = str(tmp_path / "full.sqlite3")
    live = LiveServer(create_app(path, timing=SHORT_GRACE,
                                 auto_bot="greedy", pool=BotPool(workers=0))).start()
    try:
        tid = live.create([None, "greedy", "greedy", "greedy"], deals=1, turn_time=0)
        me = live.client(tid, live.join(tid, 0, "Ann"))
        st = me.wait_state(lambda s: s["game"] is not None and s["game"]["to_move"] == 0)
        engine = live.state.store.engine

        @sa.event.listens_for(engine, "connect")
        def no_more_pages(dbapi_conn: Any, _record: Any) -> None:
            pages = dbapi_conn.execute("PRAGMA page_count").fetchone()[0]
            dbapi_conn.execute(f"PRAGMA max_page_count = {pages}")

        engine.dispose()
        filler = sqlite3.connect(path, isolation_level=None)  # each insert its own commit
        no_more_pages(filler, None)
        with contextlib.suppress(sqlite3.OperationalError):  # fill the plays' last page
            for _ in range(10_000):
                filler.execute("INSERT INTO big2_actions (table_id, version, cards) "
                               "VALUES ('filler', 0, '0')")
        filler.close()
        legal = st["game"]["legal"]
        play = legal[0] if legal[0] else legal[-1]
        me.send({"type": "play", "cards": play.split(), "id": 3} if play
                else {"type": "pass", "id": 3})
        err = me.wait(lambda m: m["type"] == "error", timeout=15)
        assert err == {"type": "error", "message": NOT_SAVED_FULL, "id": 3, "retry": True}
        status, body = live.request("POST", "/api/tables", {"players": 4, "seats": [None] * 4})
        full = "the server's disk is full: nothing changed; try again later"
        assert (status, body["detail"]) == (507, full), (status, body)
        me.close()
    finally:
        live.stop()
