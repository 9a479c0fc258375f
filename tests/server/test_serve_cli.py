"""``big2 serve`` refuses bad setups before it starts (issues 15 and 17): one
line, a non-zero exit, no traceback, and no "serving on" line."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from conftest import free_port


def serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "big2.cli", "serve", *args],
                          check=False, capture_output=True, text=True, timeout=60,
                          env=env)


def refused(r: subprocess.CompletedProcess[str], *words: str) -> None:
    out = r.stdout + r.stderr
    assert r.returncode != 0, out
    assert "Traceback" not in out and "serving on" not in out, out
    for w in words:
        assert w in out, out


def test_unknown_bot_is_refused(tmp_path: Path) -> None:
    r = serve("--bot", "nope", "--db", str(tmp_path / "x.sqlite3"))
    refused(r, "unknown bot", "greedy")


def test_busy_port_is_refused(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = serve("--port", str(port), "--db", str(tmp_path / "x.sqlite3"))
    refused(r, "already in use", str(port))
    assert len((r.stdout + r.stderr).strip().splitlines()) == 1


def test_postgres_without_psycopg_says_what_to_install(tmp_path: Path) -> None:
    fake = tmp_path / "nopsycopg"
    (fake / "psycopg").mkdir(parents=True)
    (fake / "psycopg" / "__init__.py").write_text("raise ImportError('no psycopg here')\n")
    env = dict(os.environ, PYTHONPATH=f"{fake}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    r = serve("--db", "postgresql://nobody@127.0.0.1:1/none", env=env)
    refused(r, "pip install 'big2[postgres]'")


def test_a_database_password_is_never_printed(tmp_path: Path) -> None:
    # port 1: nothing listens, so the connection is refused and the error is printed
    r = serve("--db", "postgresql://ann:s3cret-pw@127.0.0.1:1/big2")
    out = r.stdout + r.stderr
    refused(r, "cannot open database", "ann:***@127.0.0.1:1")
    assert "s3cret-pw" not in out, out
    # a URL SQLAlchemy cannot read at all
    r = serve("--db", "postgresql://ann:s3cret-pw@127.0.0.1:notaport/big2")
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "s3cret-pw" not in out and "Traceback" not in out, out


def test_redaction_of_urls_and_messages() -> None:
    from big2.server.store import redact_text, redact_url

    assert redact_url("postgresql://ann:pw@db:5432/big2") == "postgresql://ann:***@db:5432/big2"
    assert redact_url("postgresql://ann@db/big2") == "postgresql://ann@db/big2"
    assert redact_url("sqlite:////tmp/a.sqlite3") == "sqlite:////tmp/a.sqlite3"
    assert redact_url("postgresql://ann:p@ss@db/big2") == "postgresql://ann:***@db/big2"
    url = "postgresql://ann:p%40ss@db/big2"
    said = "Could not parse URL 'postgresql://ann:p%40ss@db/big2' (password p@ss)"
    shown = redact_text(said, url)
    assert "p%40ss" not in shown and "p@ss" not in shown and "ann:***@db" in shown
    assert redact_text("no url here", None) == "no url here"


# -- no password on the process list (issue 55, item 2) -----------------------------

PASSWORD = "QZ9-s/e?c#r:e%t@Ω"
"""A password with each character that once cut a URL short or leaked a fragment."""


def _cmdlines(pids: list[int]) -> str:
    """What ``/proc/PID/cmdline`` and ``ps`` show of *pids* (their whole command lines)."""
    shown = []
    for pid in pids:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            shown.append(f.read().replace(b"\0", b" ").decode())
    ps = subprocess.run(["ps", "-ww", "-o", "args=", "-p", ",".join(map(str, pids))],
                        capture_output=True, text=True, check=True, timeout=10).stdout
    return "\n".join(shown) + "\n" + ps


def _children(parent: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == parent:
                        out.append(int(d))
            except (OSError, IndexError, ValueError):
                continue
    return out


def _start_and_look(args: list[str], ports: list[int]) -> tuple[str, str]:
    """Start ``big2 serve ARGS``, wait until every port answers, and return what the
    process list shows of it and its servers, and what it printed once stopped."""
    from test_workers import wait_up

    proc = subprocess.Popen([sys.executable, "-m", "big2.cli", "serve", *args,
                             "--bot-workers", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for port in ports:
            wait_up(port, proc)
        pids = [proc.pid] + [p for p in _children(proc.pid)
                             if b"big2.cli" in Path(f"/proc/{p}/cmdline").read_bytes()]
        assert len(pids) == (1 if len(ports) == 1 else 1 + len(ports)), pids
        shown = _cmdlines(pids)
    finally:
        proc.send_signal(signal.SIGTERM)
        out = proc.communicate(timeout=30)[0].decode()
    return shown, out


def test_ps_shows_no_password_of_a_keyword_string(postgres_url: str) -> None:
    from sqlalchemy.engine import make_url

    from big2.server.dburl import passwords

    pg = make_url(postgres_url)  # the tests' cluster trusts loopback: any password is taken
    port = free_port()
    keywords = (f"host={pg.host} port={pg.port} dbname={pg.database} user={pg.username} "
                f"password='{PASSWORD}'")
    shown, out = _start_and_look(["--port", str(port), "--db", keywords], [port])
    assert "serving on" in out and "postgresql+psycopg://postgres:***@" in out, out
    for text in (shown, out):
        assert not any(p in text for p in passwords(keywords) + ["QZ9"]), text
    assert "--db" not in shown and "big2.cli serve --port" in shown, shown


def test_ps_shows_no_password_of_the_supervisor_or_its_servers(postgres_url: str) -> None:
    from sqlalchemy.engine import make_url

    pg = make_url(postgres_url)
    url = (f"postgresql://{pg.username}:{PASSWORD.replace('@', '%40')}@{pg.host}:{pg.port}"
           f"/{pg.database}")
    port = free_port()
    while True:  # two free ports in a row
        try:
            with socket.socket() as s:
                s.bind(("127.0.0.1", port + 1))
            break
        except OSError:
            port = free_port()
    shown, out = _start_and_look(["--workers", "2", "--port", str(port), f"--db={url}"],
                                 [port, port + 1])
    assert out.count("serving on") == 2 and "Traceback" not in out, out
    for text in (shown, out):
        assert "QZ9" not in text, text


def test_the_url_may_come_from_a_file(tmp_path: Path) -> None:
    secret = tmp_path / "db-url"
    secret.write_text(f"postgresql://ann:{PASSWORD.replace('@', '%40')}@127.0.0.1:1/big2\n")
    r = serve("--db-file", str(secret))
    refused(r, "cannot open database", "ann:***@127.0.0.1:1")
    assert "QZ9" not in r.stdout + r.stderr
    r = serve("--db-file", str(secret), "--db", str(tmp_path / "x.sqlite3"))
    refused(r, "give the database once")


def test_a_keyword_string_is_postgresql_or_refused_never_a_file(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "big2.cli", "serve", "--db", "mydb=1.sqlite3"],
                       capture_output=True, text=True, timeout=60, check=False, cwd=tmp_path)
    refused(r, "'mydb' is not a PostgreSQL connection keyword", "sqlite:///PATH")
    assert list(tmp_path.iterdir()) == []  # no SQLite file made of it
    r = serve("--db", f"host=127.0.0.1 port=1 dbname=big2 user=ann password='{PASSWORD}'")
    refused(r, "cannot open database postgresql+psycopg://ann:***@127.0.0.1:1/big2")
    assert "QZ9" not in r.stdout + r.stderr
