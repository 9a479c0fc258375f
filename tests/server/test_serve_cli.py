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
