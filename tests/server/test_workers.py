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
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1).read()
            return
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, "did not start"
            time.sleep(0.1)


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
    port = free_port()
    while True:  # two free ports in a row
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
