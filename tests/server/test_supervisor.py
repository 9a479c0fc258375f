"""The ``--workers`` supervisor with real processes (issue 55, item 3): a server killed
soon after it started is started again with a growing wait while the other serves; a
fault that repeats stops every server with one line; a supervisor killed with SIGKILL
takes its servers with it, and the next start finds its ports free."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from test_workers import _shard_pid, serve_two_workers, wait_up

from big2.server.supervisor import BACKOFF, GIVE_UP, STABLE_SECONDS


def alive(pid: int) -> bool:
    """Whether process *pid* runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_server_killed_soon_after_it_started_comes_back(tmp_path: object) -> None:
    db = f"{tmp_path}/big2.sqlite3"
    port, proc = serve_two_workers(db)
    try:
        for p in (port, port + 1):
            wait_up(p, proc)
        for _ in range(2):  # twice in a row, each time well within 5 s of its start
            shard = _shard_pid(proc.pid, "0/2")
            os.kill(shard, signal.SIGKILL)
            start = time.monotonic()
            while alive(shard):
                time.sleep(0.05)
            wait_up(port + 1, proc)  # the other serves meanwhile
            wait_up(port, proc)
            assert proc.poll() is None
            assert time.monotonic() - start < 30
    finally:
        proc.send_signal(signal.SIGTERM)
        out = proc.communicate(timeout=30)[0].decode()
    assert f"server 0 (port {port}) stopped (killed by SIGKILL)" in out, out
    # the wait doubles with each stop in a row
    assert f"starting it again in {BACKOFF[0]:g} s" in out, out
    assert f"starting it again in {2 * BACKOFF[0]:g} s" in out, out
    assert "giving up" not in out and "Traceback" not in out, out


def test_a_fault_that_repeats_stops_every_server() -> None:
    _port, proc = serve_two_workers("postgresql://nobody@127.0.0.1:1/none")  # nothing there
    out = proc.communicate(timeout=120)[0].decode()
    assert proc.returncode == 1, out
    last = out.strip().splitlines()[-1]
    assert last.startswith("Error: server ") and (
        f"the {GIVE_UP}th time in a row within {STABLE_SECONDS:.0f} s of starting: giving up"
        in last), out
    assert out.count("cannot open database") >= GIVE_UP, out  # each start said why
    assert out.count("starting it again in") >= GIVE_UP - 1, out


def test_a_supervisor_killed_with_sigkill_takes_its_servers_with_it(tmp_path: object) -> None:
    db = f"{tmp_path}/big2.sqlite3"
    port, proc = serve_two_workers(db)
    for p in (port, port + 1):
        wait_up(p, proc)
    shards = [_shard_pid(proc.pid, "0/2"), _shard_pid(proc.pid, "1/2")]
    proc.kill()
    proc.wait(10)
    deadline = time.monotonic() + 5
    while any(alive(s) for s in shards):
        assert time.monotonic() < deadline, [s for s in shards if alive(s)]
        time.sleep(0.05)
    proc.stdout.close()  # type: ignore[union-attr]
    # the next start, on the same ports, at once
    again = subprocess.Popen(
        [sys.executable, "-m", "big2.cli", "serve", "--workers", "2", "--port", str(port),
         "--db", db, "--bot-workers", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for p in (port, port + 1):
            wait_up(p, again)
    finally:
        again.send_signal(signal.SIGTERM)
        out = again.communicate(timeout=30)[0].decode()
    assert out.count("serving on") == 2 and "already in use" not in out, out
