"""Two server processes on loopback sharing one database (``big2 serve
--workers 2``): each holds the tables whose ids carry its shard digit (what a
proxy routes by), the lobby of either lists both, and a table is played to
the end through each."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.request

from conftest import Remote, free_port


def wait_up(port: int, proc: subprocess.Popen[bytes]) -> None:
    """Wait until the server on *port* answers (60 s guard against a hang); if *proc* exits
    or the guard runs out, fail with what the supervisor printed."""
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1).read()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                out = proc.communicate(timeout=10)[0] if proc.stdout else b""
                raise AssertionError(f"port {port} did not start:\n{out.decode()[-3000:]}")
            time.sleep(0.1)


def serve_two_workers(db_url: str) -> tuple[int, subprocess.Popen[bytes]]:
    """``big2 serve --workers 2`` on two free ports in a row (the first one returned)."""
    port = free_port()
    while True:
        try:
            with socket.socket() as s:
                s.bind(("127.0.0.1", port + 1))
            break
        except OSError:
            port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "big2.cli", "serve", "--workers", "2", "--port", str(port),
         "--db", db_url, "--bot", "greedy", "--bot-delay", "0", "--bot-workers", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return port, proc


def play_to_the_end(live: Remote, tid: str) -> dict[str, object]:
    me = live.client(tid, live.join(tid, 0, "Ann"))
    while True:
        st = me.wait_state(lambda s: s["table"]["status"] == "over"
                           or s["game"]["to_move"] == 0, timeout=20)
        if st["table"]["status"] == "over":
            me.close()
            return st
        legal = st["game"]["legal"]
        play = legal[-1] if legal[-1] == "" else legal[0]
        me.send({"type": "play", "cards": play.split()} if play else {"type": "pass"})
        me.wait_state(lambda s, n=st["game"]["plies"]: s["game"]["plies"] > n)


def test_two_processes_share_the_database_and_the_lobby(db_url: str) -> None:
    port, proc = serve_two_workers(db_url)
    try:
        for p in (port, port + 1):
            wait_up(p, proc)
        servers = [Remote(port), Remote(port + 1)]
        made = [s.create([None, "greedy", "greedy", "greedy"], deals=1) for s in servers]
        assert [t[0] for t in made] == ["0", "1"]  # the shard digit a proxy routes by
        waiting = [s.create([None, None, "greedy", "greedy"]) for s in servers]
        for s in servers:
            lobby = {t["id"] for t in s.get("/api/tables")}
            assert set(made) | set(waiting) <= lobby  # the lobby is the shared database's
        for s, tid in zip(servers, made):
            st = play_to_the_end(s, tid)
            assert st["game"]["winner"] is not None  # type: ignore[index]
            assert len(s.get(f"/api/tables/{tid}/records")) == 1
        assert servers[0].request("GET", f"/api/tables/{waiting[1]}")[0] == 404  # not its table
    finally:
        proc.send_signal(signal.SIGTERM)
        out = proc.communicate(timeout=30)[0].decode()
    assert "Traceback" not in out, out
    assert out.count("serving on") == 2


def _shard_pid(parent: int, shard: str) -> int:
    """The process id of *parent*'s child serving ``--shard`` *shard* (Linux /proc)."""
    import os

    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{d}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if ppid == parent and shard.encode() in argv:
            return int(d)
    raise AssertionError(f"no process serves shard {shard}")


def test_a_dead_worker_is_started_again_while_the_other_serves(db_url: str) -> None:
    import os

    port, proc = serve_two_workers(db_url)
    try:
        for p in (port, port + 1):
            wait_up(p, proc)
        servers = [Remote(port), Remote(port + 1)]
        tables = [s.create([None, None, "greedy", "greedy"]) for s in servers]
        first = _shard_pid(proc.pid, "0/2")
        with open(f"/proc/{first}/cmdline", "rb") as f:  # the URL went by the environment
            argv = f.read()
        assert db_url.encode() not in argv and b"--db" not in argv, argv
        os.kill(first, signal.SIGKILL)
        # the other keeps serving all along, its waiting table with it
        for _ in range(10):
            assert servers[1].get(f"/api/tables/{tables[1]}")["table"]["id"] == tables[1]
            time.sleep(0.1)
        wait_up(port, proc)  # shard 0 is back, a new process, with its table resumed
        assert _shard_pid(proc.pid, "0/2") != first
        assert servers[0].get(f"/api/tables/{tables[0]}")["table"]["id"] == tables[0]
        assert proc.poll() is None
    finally:
        proc.send_signal(signal.SIGTERM)
        out = proc.communicate(timeout=30)[0].decode()
    assert f"server 0 (port {port}) stopped (killed by SIGKILL) " in out, out
    assert "starting it again in 0.5 s (the others keep serving)" in out, out
    assert "Traceback" not in out, out
    assert out.count("serving on") == 3
