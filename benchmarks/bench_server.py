"""Load on the game server over loopback: ``big2 serve`` in a subprocess and
scripted players over real WebSockets, bounded in count and time.

Scenarios (each prints one line):

- ``play``: N tables x 4 scripted players (each plays its first legal play);
  latency is from a play being sent to the state that shows it arriving at the
  player who made it; p50/p95/p99, actions/s, errors, server memory (RSS).
  ``--bots`` makes it 1 scripted player and 3 ``medium`` bots a table.
- ``experts``: K tables of four expert bots playing in the worker pool while
  one table of 4 scripted players is measured.
- ``capacity``: tables of 1 scripted player and 3 ``--bot-level`` bots (``hard``
  by default here), 4, 8, 16, ... of them (at most ``--tables``), a fresh server
  for each count, until a count fails ``--target`` ms (200), then the gap to the
  last count that held is halved down to 4 tables; prints a line per count, then
  the largest count that held (the capacity a deployer plans with). A count holds
  when the p95 of the player's play and the p95 of the bots' answer (from the
  state showing the player's play to the player's next turn: three bots'
  decisions, what a person playing bots waits for) are both within the target.
- ``flood``: 2,000 table creations from one client (counted 201 and 429),
  then one from a second client.
- ``memory``: the server's RSS before and after 1,000 finished deals (tables
  of 4 greedy bots, one deal each).
- ``stall``: a finished table of 100 deals (4 greedy bots) read over and over
  (``GET /api/tables/<id>``) by ``--readers`` clients, each read from a new
  address so the per-address limit does not hide its cost, while one table of
  4 scripted players is measured (issue 26: each read once replayed the match
  on the event loop).

Every figure is printed with the CPU other processes used during the run, in
cores on average (``/proc``: the machine's busy time less this benchmark's
process tree, its server included; :mod:`_quiet`): a line is called **quiet**
only when others used at most ``QUIET_CORES`` (0.2), else it says **loaded**,
so a figure taken beside other jobs is never read as an idle machine's (the
load average, used before issue 55, counted the benchmark's own load). The
server's CPU per action is printed too. ``--quiet-only`` makes a loaded run
exit with status 3.

With ``--db``, the database must hold no unfinished table: a server resumes
every unfinished table it finds, so an earlier run's leftovers would be
served beside the benchmark's (a reused PostgreSQL database held 661 of them
on 4 December, against a fresh SQLite file each run); ``--reuse`` allows it.

Each simulated player comes from an address of its own (``X-Forwarded-For``
from loopback, which the server trusts as it would a proxy on the same
machine), so the per-address limits apply per player as in production.

    python benchmarks/bench_server.py play --tables 100 [--db URL] [--seconds 60] [--workers 2]
    python benchmarks/bench_server.py play --tables 50 --db postgresql://big2:big2@127.0.0.1/big2bench
    python benchmarks/bench_server.py experts --experts 3
    python benchmarks/bench_server.py capacity --seconds 30 [--bot-level hard] [--db URL]
    python benchmarks/bench_server.py flood
    python benchmarks/bench_server.py memory --deals 1000
    python benchmarks/bench_server.py stall --readers 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from _quiet import QUIET_CORES, Quiet
from websockets.asyncio.client import connect


def free_port(count: int = 1) -> int:
    """A free loopback port, with the *count* - 1 ports after it free too."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        try:
            for k in range(1, count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port + k))
            return port
        except OSError:
            continue


class Server:
    """``big2 serve`` in a subprocess on a free loopback port (with *workers* > 1,
    ``--workers`` processes on ports PORT..; requests are routed as a proxy
    would: by the table id's first character, creations round robin)."""

    def __init__(self, db: str, *extra: str, workers: int = 1) -> None:
        self.workers = workers
        self.port = free_port(workers)
        self.url = f"http://127.0.0.1:{self.port}"
        self.created = 0
        more = ["--workers", str(workers)] if workers > 1 else []
        self.proc = subprocess.Popen(
            [sys.executable, *os.environ.get("BENCH_PYTHON_ARGS", "").split(), "-m", "big2.cli",
             "serve", "--port", str(self.port), "--db", db,
             "--bot-delay", "0", "--grace", "600", "--deal-pause", "0.2", "--max-tables", "2000",
             *more, *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        for k in range(workers):
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{self.port + k}/api/tables",
                                           timeout=2).read()
                    break
                except OSError:
                    if self.proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError("server did not start: "
                                           + self.proc.stderr.read().decode()
                                           if self.proc.stderr else "") from None
                    time.sleep(0.1)

    def port_for(self, tid: str) -> int:
        """The port of the process that holds table *tid*."""
        return self.port + (int(tid[0]) if self.workers > 1 else 0)

    def pids(self) -> list[int]:
        """The server processes (with --workers, the supervisor's children; bot
        worker processes are not counted)."""
        if self.workers == 1:
            return [self.proc.pid]
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(p) for p in path.read_text().split()]

    def cpu_seconds(self) -> float:
        """CPU time the server processes have used."""
        total = 0.0
        for pid in self.pids():
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def rss_mb(self) -> float:
        total = 0.0
        for pid in self.pids():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        return total

    def request(self, method: str, path: str, body: Any = None, client: str = "10.0.0.1"
                ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        port = self.port
        if path.startswith("/api/tables/"):
            port = self.port_for(path.split("/")[3])
        elif path == "/api/tables" and method == "POST":
            port, self.created = self.port + self.created % self.workers, self.created + 1
        req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json",
                                              "X-Forwarded-For": client})
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)


def address(i: int) -> str:
    return f"10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}"


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.actions = 0
        self.stalls = 0
        self.late_next = 0  # "next" sent just after the next deal started: the script's race
        self.answers: list[float] = []  # the player's play shown -> the player's next turn
        self.messages: dict[str, int] = {}
        self.cpu_start = 0.0


async def player(server: Server, tid: str, token: str, who: int, stats: Stats,
                 stop_at: float, think: float) -> None:
    """Play the first legal play on each turn, after *think* seconds, until the match is
    over (or time is up). Thinking keeps a player under the server's 8 messages a second,
    as a person is; the latency measured starts when the play is sent."""
    url = f"ws://127.0.0.1:{server.port_for(tid)}/ws/{tid}"
    async with connect(url, additional_headers={"X-Forwarded-For": address(who)},
                       max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        shown_at: float | None = None  # when the state showing our play arrived
        plies_sent, ready_for = -1, -1
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), 30)
            except TimeoutError:
                stats.stalls += 1  # nothing for 30 s: give up on this table
                return
            msg = json.loads(raw)
            if msg["type"] == "error":
                if msg.get("id") == 1:
                    sent_at = None  # the play was refused: try again at the next state
                elif msg["message"].startswith("no deal to start"):  # the deal began meanwhile
                    stats.late_next += 1
                    continue
                stats.errors += 1
                stats.messages[msg["message"]] = stats.messages.get(msg["message"], 0) + 1
                continue
            if msg["type"] != "state" or msg["game"] is None:
                continue
            game = msg["game"]
            if sent_at is not None and game["plies"] > plies_sent:
                shown_at = time.perf_counter()
                stats.latencies.append(shown_at - sent_at)
                stats.actions += 1
                sent_at = None
            if msg["table"]["status"] == "over" or time.monotonic() > stop_at:
                return
            if msg["table"]["status"] == "between":
                if ready_for != msg["table"]["deal"]:
                    ready_for = msg["table"]["deal"]
                    await ws.send(json.dumps({"type": "next", "id": 2}))
                continue
            if game["to_move"] == msg["you"] and sent_at is None and game["legal"]:
                if shown_at is not None:
                    stats.answers.append(time.perf_counter() - shown_at)
                    shown_at = None
                legal = game["legal"]
                play = legal[0] if legal[0] else legal[-1]
                plies_sent = game["plies"]
                await asyncio.sleep(think)
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "play", "cards": play.split(), "id": 1} if play
                                         else {"type": "pass", "id": 1}))


def make_table(server: Server, seats: list[str | None], deals: int, n: int) -> tuple[str, list[str]]:
    status, out = server.request("POST", "/api/tables", {"players": 4, "seats": seats,
                                                          "deals": deals}, client=address(n))
    assert status == 201, (status, out)
    tid = out["id"]
    tokens = []
    for s, who in enumerate(seats):
        if who is None:
            status, got = server.request("POST", f"/api/tables/{tid}/join",
                                         {"seat": s, "name": f"P{s}"},
                                         client=address(n * 4 + s + 1))
            assert status == 200, (status, got)
            tokens.append(got["token"])
    return tid, tokens


async def play_tables(server: Server, tables: int, bots: bool, seconds: float,
                      deals: int, think: float, level: str = "medium") -> tuple[Stats, float]:
    seats: list[str | None] = [None, level, level, level] if bots else [None] * 4
    made = [await asyncio.to_thread(make_table, server, seats, deals, 1000 + i)
            for i in range(tables)]
    stats = Stats()
    stats.cpu_start = server.cpu_seconds()
    start = time.monotonic()
    stop_at = start + seconds
    await asyncio.gather(*(player(server, tid, tok, 5000 + 4 * i + k, stats, stop_at, think)
                           for i, (tid, tokens) in enumerate(made) for k, tok in enumerate(tokens)))
    return stats, time.monotonic() - start


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


LOAD: Quiet | None = None  # the CPU others used during the run, set by main()


def report(label: str, stats: Stats, elapsed: float, server: Server) -> None:
    lat = stats.latencies
    if LOAD is not None:
        LOAD.end()
    print(f"{label}: {len(lat)} plays in {elapsed:.1f} s, {stats.actions / elapsed:.0f} actions/s, "
          f"p50/p95/p99 {pct(lat, 0.5):.0f}/{pct(lat, 0.95):.0f}/{pct(lat, 0.99):.0f} ms, "
          f"errors {stats.errors}, stalls {stats.stalls}, server RSS {server.rss_mb():.0f} MB, server CPU "
          f"{(server.cpu_seconds() - stats.cpu_start) * 1000 / max(1, stats.actions):.1f} ms/action"
          + (f"; {LOAD.text()}" if LOAD is not None else ""), flush=True)
    for text, n in sorted(stats.messages.items(), key=lambda kv: -kv[1])[:5]:
        print(f"  {n} x error {text!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario",
                        choices=["play", "experts", "capacity", "flood", "memory", "stall"])
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--bots", action="store_true",
                        help="1 player and 3 bots a table (--bot-level, medium by default)")
    parser.add_argument("--bot-level", default=None,
                        help="the bots' level (play --bots: medium; capacity: hard)")
    parser.add_argument("--target", type=float, default=200.0,
                        help="capacity: the p95 in ms the tables must hold")
    parser.add_argument("--experts", type=int, default=3)
    parser.add_argument("--deals", type=int, default=1000, help="finished deals (memory)")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per scenario")
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes (big2 serve --workers N), routed by table id")
    parser.add_argument("--readers", type=int, default=4,
                        help="clients reading the finished table (stall)")
    parser.add_argument("--think", type=float, default=0.2,
                        help="seconds a scripted player waits before it plays")
    parser.add_argument("--quiet-only", action="store_true",
                        help="exit with status 3 when other processes used over "
                             f"{QUIET_CORES:g} cores during the run")
    parser.add_argument("--reuse", action="store_true",
                        help="run on a --db that holds unfinished tables (they are resumed "
                             "and served beside the benchmark's, so the figures are not alike)")
    args = parser.parse_args()
    if args.db and not args.reuse:
        left = unfinished(args.db)
        if left:
            sys.exit(f"{args.db.split('@')[-1]}: the database holds {left} unfinished tables "
                     "(an earlier run's?): the server would resume and serve them beside the "
                     "benchmark's tables. Give an empty database, or --reuse.")
    global LOAD
    LOAD = Quiet()
    if args.scenario == "capacity":
        if args.db:
            sys.exit("capacity runs on a fresh SQLite file for each count (a database that "
                     "kept one count's unfinished tables would serve them beside the next's)")
        capacity(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "bench.sqlite3")
        server = Server(db, "--bot-workers", "2", workers=args.workers)
        try:
            run(args, server)
        finally:
            server.stop()
    if LOAD.others is None:
        LOAD.end()
        print(LOAD.text(), flush=True)
    if args.quiet_only and not LOAD.quiet:
        sys.exit(3)


def capacity(args: argparse.Namespace) -> None:
    """Tables of 1 player and 3 bots: 4, doubling until a count fails the target, then
    halving the gap to the last count that held it down to a step of 4; the largest count
    that held. A count holds when the p95 of the player's play (sent to shown) and the
    p95 of the bots' answer (the player's play shown to its next turn: three bots'
    decisions) are both at most the target, with no error and no stall."""
    level = args.bot_level or "hard"
    held, failed, tables = 0, 0, 4
    while True:
        ok = capacity_step(args, tables, level)
        if ok:
            held = tables
        else:
            failed = tables
        if failed:  # between the last count that held and the first that failed
            if failed - held <= 4:
                break
            tables = held + (failed - held) // 2 // 4 * 4 or held + 4
        elif tables >= args.tables:
            break
        else:
            tables = min(tables * 2, args.tables)
    print(f"capacity: {held} tables of 1 player and 3 {level} bots held p95 <= "
          f"{args.target:g} ms (the player's play and the bots' answer)"
          + ("" if held else " (not even 4)")
          + (f" (the ceiling, --tables {args.tables})" if held >= args.tables else ""),
          flush=True)


def capacity_step(args: argparse.Namespace, tables: int, level: str) -> bool:
    """One count of :func:`capacity` on a fresh server and SQLite file: its lines, and
    whether it held the target."""
    global LOAD
    LOAD = Quiet()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(str(Path(tmp) / "bench.sqlite3"), "--bot-workers", "2",
                        workers=args.workers)
        try:
            stats, elapsed = asyncio.run(play_tables(server, tables, True, args.seconds,
                                                     deals=2, think=args.think, level=level))
            report(f"capacity (sqlite) {tables} tables x (1 player, 3 {level})", stats,
                   elapsed, server)
        finally:
            server.stop()
    answer = pct(stats.answers, 0.95)
    print(f"  bots' answer (3 decisions) p50/p95 {pct(stats.answers, 0.5):.0f}/{answer:.0f} ms",
          flush=True)
    return (pct(stats.latencies, 0.95) <= args.target and answer <= args.target
            and not stats.errors and not stats.stalls)


def unfinished(db: str) -> int:
    """Tables in *db* a starting server would resume (0 for a new database)."""
    import sqlalchemy as sa

    from big2.server.store import Store

    store = Store(db)
    try:
        with store.engine.connect() as conn:
            return int(conn.execute(sa.text(
                "SELECT count(*) FROM big2_tables WHERE status NOT IN ('over', 'expired')"
            )).scalar() or 0)
    finally:
        store.close()


def run(args: argparse.Namespace, server: Server) -> None:
    label = f"{args.scenario} ({'postgresql' if 'postgres' in (args.db or '') else 'sqlite'})"
    if args.workers > 1:
        label += f" --workers {args.workers}"
    if args.scenario == "play":
        stats, elapsed = asyncio.run(play_tables(server, args.tables, args.bots, args.seconds,
                                                 deals=2, think=args.think,
                                                 level=args.bot_level or "medium"))
        bots = f"(1 player, 3 {args.bot_level or 'medium'})"
        report(f"{label} {args.tables} tables x 4 {bots if args.bots else 'players'}",
               stats, elapsed, server)
    elif args.scenario == "experts":
        for i in range(args.experts):
            make_table(server, ["expert"] * 4, 100, 100 + i)
        time.sleep(3)  # the workers start and the experts are thinking
        stats, elapsed = asyncio.run(play_tables(server, 1, False, args.seconds, deals=3,
                                                 think=args.think))
        report(f"{label} 1 table x 4 players while {args.experts} expert tables play", stats,
               elapsed, server)
    elif args.scenario == "stall":
        stall(args, server, label)
    elif args.scenario == "flood":
        codes: dict[int, int] = {}
        start = time.monotonic()
        for _ in range(2000):
            if time.monotonic() - start > args.seconds:
                break
            status, _ = server.request("POST", "/api/tables", {"players": 4}, client="10.9.9.9")
            codes[status] = codes.get(status, 0) + 1
        second, _ = server.request("POST", "/api/tables", {"players": 4}, client="10.8.8.8")
        print(f"{label}: one client's 2,000 creations: {codes}; a second client: {second}; "
              f"live tables {len(server.request('GET', '/api/tables')[1])}, "
              f"server RSS {server.rss_mb():.0f} MB", flush=True)
    else:
        time.sleep(1)
        before = server.rss_mb()
        start = time.monotonic()
        for i in range(args.deals):
            make_table(server, ["greedy"] * 4, 1, 20000 + i)
            if i % 50 == 49:  # let them finish
                while len(server.request("GET", "/api/tables")[1]) > 20:
                    time.sleep(0.05)
            if time.monotonic() - start > args.seconds:
                break
        while server.request("GET", "/api/tables")[1]:
            time.sleep(0.1)
        time.sleep(1)
        print(f"{label}: {i + 1} finished deals in {time.monotonic() - start:.0f} s; "
              f"server RSS {before:.0f} -> {server.rss_mb():.0f} MB "
              f"(+{server.rss_mb() - before:.1f} MB)", flush=True)


def stall(args: argparse.Namespace, server: Server, label: str) -> None:
    """The ``stall`` scenario (see the module doc)."""
    tid, _ = make_table(server, ["greedy"] * 4, 100, 30000)
    start = time.monotonic()
    while server.request("GET", f"/api/tables/{tid}", client="10.7.0.1")[1]["table"][
            "status"] != "over":
        if time.monotonic() - start > 600:
            raise RuntimeError("the 100-deal table did not finish in 10 minutes")
        time.sleep(0.5)
    print(f"{label}: the 100-deal table finished in {time.monotonic() - start:.0f} s", flush=True)
    reads: dict[int, int] = {}
    cost: list[float] = []
    done = [False]

    def reader(k: int) -> None:
        n = 0
        while not done[0]:
            n += 1
            begun = time.perf_counter()
            status, _ = server.request("GET", f"/api/tables/{tid}",
                                       client=f"10.{100 + k}.{n >> 8 & 255}.{n & 255}")
            cost.append(time.perf_counter() - begun)
            reads[status] = reads.get(status, 0) + 1

    async def measured() -> tuple[Stats, float]:
        tasks = [asyncio.create_task(asyncio.to_thread(reader, k)) for k in range(args.readers)]
        try:
            return await play_tables(server, 1, False, args.seconds, deals=3, think=args.think)
        finally:
            done[0] = True
            await asyncio.gather(*tasks)

    stats, elapsed = asyncio.run(measured())
    report(f"{label} 1 table x 4 players while {args.readers} clients read a finished "
           f"100-deal table ({sum(reads.values()) / elapsed:.0f} reads/s, statuses {reads}, "
           f"read p50 {pct(cost, 0.5):.0f} ms)", stats, elapsed, server)


if __name__ == "__main__":
    main()
