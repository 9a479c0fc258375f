"""Kill the server mid-deal, start it again on the same database (SQLite and
PostgreSQL): the table carries on where it was, from its snapshot and the plays
appended since, and a player's token still holds the seat."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request

from conftest import Remote, free_port


def start(db: str, port: int, *extra: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "big2.cli", "serve", "--port", str(port), "--db", db,
         "--bot", "greedy", "--bot-delay", "0", "--grace", "60", "--deal-pause", "60",
         *(extra or ("--bot-workers", "0"))],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1).read()
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(proc.stdout.read().decode() if proc.stdout else "no start")
            time.sleep(0.1)


def test_restart_resumes_the_deal(db_url: str) -> None:
    db, port = db_url, free_port()
    proc = start(db, port)
    try:
        first = proc.stdout.readline().decode() if proc.stdout else ""
        assert f"http://127.0.0.1:{port}/" in first  # serve prints the address
        live = Remote(port)
        tid = live.create([None, None, "greedy", "greedy"], deals=2, turn_time=0)
        tokens = [live.join(tid, s, name) for s, name in ((0, "Ann"), (1, "Bob"))]
        players = [live.client(tid, t) for t in tokens]
        # play until a few actions are on the table and a person is to move
        while True:
            st = players[0].wait_state(lambda s: s["game"]["to_move"] in (0, 1))
            for p in players:
                p.drain(0.05)
            game = players[0].state["game"]
            if game["plies"] >= 6:
                break
            mover = players[game["to_move"]]
            legal = mover.state["game"]["legal"]
            choice = legal[-1] if legal[-1] == "" else legal[0]
            mover.send({"type": "play", "cards": choice.split()} if choice else {"type": "pass"})
            players[0].wait_state(lambda s, n=game["plies"]: s["game"]["plies"] > n)
        before = {p.state["you"]: p.state["game"] for p in players}
        os.kill(proc.pid, signal.SIGKILL)  # a crash, not a clean shutdown
        proc.wait(10)

        proc = start(db, port)
        watcher = live.client(tid)
        after = watcher.state["game"]
        assert after["plies"] == before[0]["plies"] and after["log"] == before[0]["log"]
        assert after["counts"] == before[0]["counts"] and after["to_move"] == before[0]["to_move"]
        back = [live.client(tid, t) for t in tokens]
        for p in back:
            seat = p.state["you"]
            assert p.state["game"]["hand"] == before[seat]["hand"]
            assert p.state["game"]["legal"] == before[seat].get("legal", [])
        mover = back[after["to_move"]]
        legal = mover.state["game"]["legal"]
        choice = legal[-1] if legal[-1] == "" else legal[0]
        mover.send({"type": "play", "cards": choice.split()} if choice else {"type": "pass"})
        st = watcher.wait_state(lambda s: s["game"]["plies"] > after["plies"])
        assert st["game"]["log"][-1] == [after["to_move"], choice]
        assert st["table"]["seats"][0]["name"] == "Ann"
        for c in back + [watcher]:
            c.close()
    finally:
        proc.kill()
        proc.wait(10)

