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
    # every ping was answered while the worker thought; how quickly is measured by
    # benchmarks/bench_server.py (a timed assert fails on a busy machine, not for the code)
    assert len(times) == 30
    assert pool.timeouts == 0


def test_a_move_over_budget_is_made_by_the_fallback(live_factory: Any) -> None:
    pool = BotPool(workers=1, budget=0.001)
    live = live_factory(pool=pool)
    tid = live.create(["expert"] * 4, deals=1)
    watcher = live.client(tid)
    st = watcher.wait_state(lambda s: s["game"]["plies"] >= 8, timeout=30)
    assert st["game"]["plies"] >= 8 and pool.timeouts >= 8
    assert live.state.internal_errors == 0


def stat_of(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (None: no such process)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children_of(pid: int) -> set[int]:
    import glob

    found = set()
    for path in glob.glob("/proc/[0-9]*/stat"):
        child = int(path.split("/")[2])
        fields = stat_of(child)
        if fields is not None and int(fields[1]) == pid:
            found.add(child)
    return found


def alive(pid: int) -> bool:
    fields = stat_of(pid)
    return fields is not None and fields[0] != "Z"


def test_workers_end_with_the_server_even_after_kill_9(tmp_path: Any) -> None:
    import os
    import signal

    from test_restart import start

    from conftest import Remote, free_port

    port = free_port()
    proc = start(str(tmp_path / "w.sqlite3"), port, "--bot-workers", "2")
    try:
        Remote(port).create(["expert"] * 4, deals=1)  # the workers start for it
        deadline = time.monotonic() + 30
        while len(children_of(proc.pid)) < 2:
            assert time.monotonic() < deadline, "no workers started"
            time.sleep(0.2)
        workers = children_of(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        deadline = time.monotonic() + 10
        while any(alive(w) for w in workers):
            assert time.monotonic() < deadline, "bot workers outlived the server"
            time.sleep(0.2)
    finally:
        proc.kill()


def test_a_worker_runs_numerical_libraries_on_one_thread(monkeypatch: Any) -> None:
    """The workers are the parallelism: a worker's BLAS and OpenMP get one thread each
    (a network bot's small products only spin on more), unless the environment says."""
    import os

    from big2.threads import THREAD_VARIABLES

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    pool = BotPool(workers=1)
    try:
        seen = [pool._pool().submit(os.getenv, k).result(timeout=60) for k in THREAD_VARIABLES]
    finally:
        pool.close()
    assert seen == ["1", "1", "3"]
    assert os.getenv("OPENBLAS_NUM_THREADS") is None  # this process's own is as it was
