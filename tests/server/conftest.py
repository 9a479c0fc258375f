"""Live servers for the server tests: uvicorn on 127.0.0.1 with a free port,
in a thread (or a subprocess for the restart test), and small HTTP/WebSocket
clients that talk to it over real sockets.

Every server test outside the browser tests runs twice, on SQLite and on
PostgreSQL (the ``db_url`` fixture): ``BIG2_TEST_DB`` names the PostgreSQL
database (``.ci/run`` starts Debian's and sets it); without it a private
cluster is started in a temporary folder from the installed PostgreSQL
binaries. Each test gets a schema of its own, dropped afterwards."""

from __future__ import annotations

import contextlib
import fcntl
import glob
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from big2.server.app import Limits, create_app
from big2.server.guard import REQUEST_SECONDS, http_protocol
from big2.server.messages import CARD_NAME_HELP
from big2.server.pool import BotPool
from big2.server.tables import Timing

# a person's seat is covered by a bot 5 s after it goes (or never comes): long enough that
# a slow machine connecting four clients one by one never races it
FAST = Timing(bot_delay=0.0, grace=5.0, deal_pause=0.3)
# for the tests about absence: a bot covers a seat half a second after it goes
SHORT_GRACE = Timing(bot_delay=0.0, grace=0.5, deal_pause=0.3)

# Chromium's headless shell: the browser without its desktop parts (about two thirds of the
# full browser's CPU on these tests); the full `chromium` serves where it is the one installed
CHROMIUM = (shutil.which("chromium-headless-shell") or shutil.which("chromium")
            or "/usr/bin/chromium-headless-shell")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


_OPEN: dict[str, Any] = {}
"""The worker's Playwright and Chromium while browser tests run one after another."""


@pytest.fixture
def browser() -> Iterator[Any]:
    """One headless Chromium for the browser tests (each test opens its pages in contexts
    of its own), started for the first and kept open while the next test uses it too, so
    the browser files that a worker runs in a row share one (a start costs half a second
    of CPU). It is closed before any other test runs (:func:`pytest_runtest_teardown`):
    Playwright's synchronous API keeps an event loop running in the thread while it is
    open, and the other tests on that worker call ``asyncio.run``. The pages a test
    leaves open are closed after it."""
    if "browser" in _OPEN and not _OPEN["browser"].is_connected():
        _close_browser()  # it crashed in an earlier test: a fresh one
    if "browser" not in _OPEN:
        if not Path(CHROMIUM).exists():
            pytest.fail("Chromium is needed for the browser tests "
                        "(apt-get install chromium-headless-shell)")
        from playwright import sync_api

        _OPEN["playwright"] = sync_api.sync_playwright().start()
        _OPEN["browser"] = _OPEN["playwright"].chromium.launch(executable_path=CHROMIUM,
                                                               args=ARGS)
    yield _OPEN["browser"]
    if _OPEN["browser"].is_connected():
        for context in _OPEN["browser"].contexts:  # the pages a test left open end with it
            context.close()


def _close_browser() -> None:
    browser, playwright = _OPEN.pop("browser", None), _OPEN.pop("playwright", None)
    try:
        if browser is not None and browser.is_connected():
            browser.close()
    finally:
        if playwright is not None:
            playwright.stop()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Close the shared Chromium after a test unless the next one on this worker uses it
    (pytest-xdist runs a test once it knows the next, so *nextitem* is the real one)."""
    if _OPEN and "browser" not in getattr(nextitem, "fixturenames", ()):
        _close_browser()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Close the shared Chromium if a run ended while it was open (interrupted)."""
    if _OPEN:
        _close_browser()


class Shots:
    """The browser tests' screenshots, for a person to look at: taken only when
    ``BIG2_SHOTS`` names a folder for them (a screenshot costs the browser and Playwright
    about 0.1 s of CPU, and nothing looks at those of an ordinary run)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def take(self, page: Any, name: str, **kw: Any) -> None:
        """Save *page* as *name* (``page.screenshot``'s *kw*) when screenshots are asked for."""
        if self.folder is not None:
            page.screenshot(path=str(self.folder / name), **kw)


@pytest.fixture(scope="session")
def shots() -> Shots:
    """Where the browser tests' screenshots go: ``BIG2_SHOTS=DIR``, else none are taken."""
    folder = os.environ.get("BIG2_SHOTS")
    if not folder:
        return Shots(None)
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    return Shots(out)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """A uvicorn server running one app in a background thread."""

    def __init__(self, app: Any, request_seconds: float = REQUEST_SECONDS) -> None:
        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=16384, lifespan="on",
                                http=http_protocol(request_seconds))  # as big2 serve
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def state(self) -> Any:
        """The app's :class:`Server` (tables, error counter)."""
        return self.app.state.server

    # -- HTTP ----------------------------------------------------------------------

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                raw = res.read()
                status = res.status
        except urllib.error.HTTPError as exc:
            raw, status = exc.read(), exc.code
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw.decode()

    def get(self, path: str) -> Any:
        status, body = self.request("GET", path)
        assert status == 200, (status, body)
        return body

    def post(self, path: str, body: Any) -> Any:
        status, out = self.request("POST", path, body)
        assert status in (200, 201), (status, out)
        return out

    def create(self, seats: list[str | None], **kw: Any) -> str:
        body = {"players": len(seats), "seats": seats, "deals": 1} | kw
        table_id: str = self.post("/api/tables", body)["id"]
        return table_id

    def join(self, table_id: str, seat: int, name: str) -> str:
        token: str = self.post(f"/api/tables/{table_id}/join", {"seat": seat, "name": name})["token"]
        return token

    def client(self, table_id: str, token: str | None = None) -> Client:
        return Client(self, table_id, token)


class Remote(LiveServer):
    """The HTTP/WS helpers of LiveServer, pointed at a server in another process."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"


CARD_RE = re.compile(r"(?<![0-9A-Za-z])(?:(10|[2-9TJQKA])([DCHS♦♣♥♠])|([RB]J))(?![A-Za-z])")
_NOT_CARDS = {"id", "table", "name"}
_SUIT = {"♦": "D", "♣": "C", "♥": "H", "♠": "S"}


def cards_in(message: Any) -> set[str]:
    """Every card named anywhere in a message (names like 3D or symbols like 3♦,
    jokers RJ and BJ), as a set of names (copies of a card share a name)."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            x = x.replace(CARD_NAME_HELP, "")  # the fixed help on writing cards
            for rank, suit, joker in CARD_RE.findall(x):
                found.add(joker or ("T" if rank == "10" else rank) + _SUIT.get(suit, suit))
        elif isinstance(x, dict):
            for k, v in x.items():
                if k in _NOT_CARDS and isinstance(v, str):
                    continue  # ids and player names are free text, not cards
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(message)
    return found


class Client:
    """A WebSocket client of one table that keeps every message it got."""

    def __init__(self, live: LiveServer, table_id: str, token: str | None) -> None:
        self.ws: ClientConnection = connect(f"{live.ws_url}/ws/{table_id}", open_timeout=10).__enter__()
        self.token = token
        self.messages: list[Any] = []
        self.sent_cards: set[str] = set()
        self.state: Any = None
        self.send({"type": "hello", "token": token})
        self.wait_state()

    def send(self, msg: Any) -> None:
        text = msg if isinstance(msg, str) else json.dumps(msg)
        self.sent_cards |= cards_in(msg if not isinstance(msg, str) else [msg])
        self.ws.send(text)

    def recv(self, timeout: float = 5.0) -> Any:
        msg = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(msg)
        if msg.get("type") == "state":
            self.state = msg
        return msg

    def wait(self, pred: Any, timeout: float = 10.0) -> Any:
        """Read messages until *pred(message)* holds; return that message."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def wait_state(self, pred: Any = lambda s: True, timeout: float = 10.0) -> Any:
        if self.state is not None and pred(self.state):
            return self.state
        return self.wait(lambda m: m.get("type") == "state" and pred(m), timeout)

    def drain(self, quiet: float = 0.15) -> None:
        """Read until nothing arrives for *quiet* seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    def close(self) -> None:
        self.ws.close()


STORAGE_MODULES = {"test_storage", "test_restart", "test_finished", "test_lifecycle",
                   "test_workers", "test_shared_limits", "test_rematch", "test_fuzz"}
"""The server test files about what is stored (writes, restarts, finished tables, several
workers on one database, limits shared through it): ``make test`` runs them on PostgreSQL
too. The other files' PostgreSQL runs exercise the same storage code again under other
traffic: they are in the nightly set."""


POSTGRESQL_FIRST = {"test_a_dead_worker_is_started_again_while_the_other_serves"}
"""Storage tests whose subject is not the database (a supervisor restarting a worker):
``make test`` runs them on PostgreSQL, the database several workers share in production,
and their SQLite run is nightly."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The server tests (not the browser tests) run on SQLite and PostgreSQL."""
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if "db_url" in metafunc.fixturenames and not module.startswith("test_browser"):
        postgres = pytest.param("postgresql", id="postgresql", marks=(
            () if module in STORAGE_MODULES else pytest.mark.nightly))
        sqlite = pytest.param("sqlite", id="sqlite", marks=(
            pytest.mark.nightly if metafunc.function.__name__ in POSTGRESQL_FIRST else ()))
        metafunc.parametrize("db_url", [sqlite, postgres], indirect=True)


def _start_private_postgres(folder: str) -> tuple[str, subprocess.Popen[bytes] | None]:
    """Start a throwaway PostgreSQL cluster in *folder*; return its URL."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb")) or (
        [shutil.which("initdb")] if shutil.which("initdb") else [])
    if not found:
        pytest.fail("the server tests need PostgreSQL: set BIG2_TEST_DB=postgresql://… or "
                    "install it (.ci/run installs Debian's postgresql)")
    bindir = os.path.dirname(str(found[-1]))
    as_user: list[str] = []
    user = os.environ.get("USER", "postgres")
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        as_user, user = ["runuser", "-u", "postgres", "--"], "postgres"
        shutil.chown(folder, "postgres")
    data, port = os.path.join(folder, "data"), free_port()
    subprocess.run([*as_user, f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", user],
                   check=True, capture_output=True)
    proc = subprocess.Popen([*as_user, f"{bindir}/postgres", "-D", data, "-p", str(port),
                             "-k", folder, "-h", "127.0.0.1", "-c", "fsync=off"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"postgresql://{user}@127.0.0.1:{port}/postgres"
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                time.sleep(0.5)
                return url, proc
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                pytest.fail("could not start a private PostgreSQL for the tests")
            time.sleep(0.1)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file *path* (between the xdist workers)."""
    with open(path, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _stop_private_postgres(folder: str) -> None:
    """Stop the cluster in *folder* (``pg_ctl stop``, as the user that runs it)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl")) or [shutil.which("pg_ctl")]
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if found[-1]:
        subprocess.run([*as_user, str(found[-1]), "stop", "-D", os.path.join(folder, "data"),
                        "-m", "fast", "-w"], capture_output=True, check=False, timeout=60)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The PostgreSQL the tests use (``BIG2_TEST_DB``, else a private one). Under
    pytest-xdist the workers share one private cluster: the first to need it starts it,
    the last to finish stops it (a count in a file under the run's shared temporary
    folder, kept under a lock), so no worker waits for a second ``initdb``."""
    url = os.environ.get("BIG2_TEST_DB")
    if url:
        yield url
        return
    # this run's folder: under xdist its parent is the one every worker of the run shares
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    lock, info = shared / "postgres.lock", shared / "postgres.json"
    with _locked(lock):
        if info.exists():
            state = json.loads(info.read_text())
        else:
            folder = tempfile.mkdtemp(prefix="big2-pg-")
            url, _proc = _start_private_postgres(folder)
            state = {"url": url, "folder": folder, "users": 0}
        state["users"] += 1
        info.write_text(json.dumps(state))
    yield state["url"]
    with _locked(lock):
        state = json.loads(info.read_text())
        state["users"] -= 1
        if state["users"]:
            info.write_text(json.dumps(state))
        else:
            info.unlink()
            _stop_private_postgres(state["folder"])


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database for one test: an SQLite file, or a PostgreSQL schema of its own."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield str(tmp_path / "big2.sqlite3")
        return
    import psycopg

    base: str = request.getfixturevalue("postgres_url")
    schema = "t_" + secrets.token_hex(6)
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    yield f"{base}{sep}options=-csearch_path%3D{schema}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def live_factory(db_url: str) -> Iterator[Any]:
    """Start live servers: ``live_factory(**create_app_kwargs)`` (and
    ``request_seconds``, the HTTP request deadline); all stop after the test."""
    started: list[LiveServer] = []

    def make(**kw: Any) -> LiveServer:
        kw.setdefault("db", db_url)
        kw.setdefault("timing", FAST)
        kw.setdefault("auto_bot", "greedy")
        kw.setdefault("limits", Limits(rate=10_000, burst=10_000, kick_after=10**9,
                                       create_burst=10_000, join_burst=10_000,
                                       waiting_per_ip=10_000))
        kw.setdefault("pool", BotPool(workers=0))
        request_seconds = kw.pop("request_seconds", REQUEST_SECONDS)
        server = LiveServer(create_app(**kw), request_seconds).start()
        started.append(server)
        return server

    yield make
    for s in started:
        s.stop()


@pytest.fixture
def live(live_factory: Any) -> LiveServer:
    server: LiveServer = live_factory()
    return server
