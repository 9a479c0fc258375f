"""Bot moves off the event loop (issue 15): while a table of expert bots
thinks in a worker process, another table answers at once; a move over its
time budget is made by the quick fallback bot, so no table waits longer."""

from __future__ import annotations

import json
import time
from typing import Any

from big2.server.pool import BotPool


def ping_times(ws: Any, n: int, gap: float) -> list[float]:
    out = []
    for i in range(n):
        start = time.monotonic()
        ws.send(json.dumps({"type": "ping", "id": i}))
        while json.loads(ws.recv(timeout=10)).get("type") != "pong":
            pass
        out.append(time.monotonic() - start)
        time.sleep(gap)
    return out


def test_expert_bots_do_not_delay_another_table(live_factory: Any) -> None:
    pool = BotPool(workers=1, budget=30)
    live = live_factory(pool=pool)
    busy = live.create(["expert"] * 4, deals=1)
    other = live.create([None, "greedy", "greedy", "greedy"])
    me = live.client(other, live.join(other, 0, "Ann"))
    watcher = live.client(busy)
    watcher.wait_state(lambda s: s["game"]["plies"] >= 1, timeout=60)  # the workers are up
    times = ping_times(me.ws, 30, 0.05)
    st = watcher.wait_state(lambda s: s["game"]["plies"] >= 3, timeout=60)
    assert st["game"]["plies"] >= 3  # the experts kept playing meanwhile
    assert max(times) < 0.25, sorted(times)[-5:]  # one expert move takes ~0.6 s
    assert pool.timeouts == 0


def test_a_move_over_budget_is_made_by_the_fallback(live_factory: Any) -> None:
    pool = BotPool(workers=1, budget=0.001)
    live = live_factory(pool=pool)
    tid = live.create(["expert"] * 4, deals=1)
    watcher = live.client(tid)
    st = watcher.wait_state(lambda s: s["game"]["plies"] >= 8, timeout=30)
    assert st["game"]["plies"] >= 8 and pool.timeouts >= 8
    assert live.state.internal_errors == 0
