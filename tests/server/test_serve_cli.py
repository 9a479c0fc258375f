"""``big2 serve`` refuses bad setups before it starts (issues 15 and 17): one
line, a non-zero exit, no traceback, and no "serving on" line."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path


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
