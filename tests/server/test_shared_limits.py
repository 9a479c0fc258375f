"""Per-address limits hold across processes (issue 26, item 4): servers
sharing one database (``--workers N``) share each address's buckets for
creating tables, taking seats and reading finished tables, so N processes do
not let an address do N times as much; the shared bucket is never overdrawn
by processes taking at once."""

from __future__ import annotations

import threading
from typing import Any

from big2.server.app import Limits
from big2.server.store import Store

TIGHT = Limits(rate=1000, burst=1000, create_rate=0.01, create_burst=3, join_rate=0.01,
               join_burst=2, finished_rate=0.01, finished_burst=4)


def test_two_servers_on_one_database_share_the_address_limits(live_factory: Any) -> None:
    a, b = (live_factory(limits=TIGHT, shared_lobby=True) for _ in range(2))
    made = [a.create([None, None, "greedy", "greedy"]), b.create([None, None, "greedy", "greedy"])]
    made.append(a.create([None, None, "greedy", "greedy"]))
    for server in (a, b):  # three made through two servers: the address's three are used
        status, out = server.request("POST", "/api/tables", {"players": 4})
        assert status == 429 and "new tables" in out["detail"], (status, out)
    a.join(made[0], 0, "Ann")
    b.join(made[1], 0, "Bob")
    status, _ = a.request("POST", f"/api/tables/{made[2]}/join", {"seat": 0, "name": "Cy"})
    assert status == 429
    unshared = live_factory(limits=TIGHT)  # one process alone keeps its own buckets
    assert unshared.request("POST", "/api/tables", {"players": 4})[0] == 201


def test_processes_taking_at_once_never_overdraw_a_bucket(db_url: str) -> None:
    stores = [Store(db_url) for _ in range(2)]
    got: list[float] = []
    lock = threading.Lock()

    def take(store: Store) -> None:
        for _ in range(10):
            wait = store.take("create:10.0.0.9", 0.001, 12.0)
            with lock:
                got.append(wait)

    threads = [threading.Thread(target=take, args=(stores[i % 2],)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(got) == 40 and got.count(0.0) == 12  # the burst, and not one more
    assert min(w for w in got if w) > 0
    for store in stores:
        store.close()
