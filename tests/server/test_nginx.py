"""The server behind a real nginx with the configuration of docs/deploy.md (issue 55,
item 1): nginx sends ``Connection: close`` on every request that is not a WebSocket,
and a request that arrived whole must be answered however long its answer takes
(a review of 12 s answers 200), while a body that stops half way still gets 408 and
headers that never finish are cut by nginx after 10 s (``client_header_timeout``).

nginx (Debian's ``nginx``, scripts/system-packages.sh) is started here on loopback
ports, its configuration, pid, logs and temporary files in the test's folder; the
site is the documented block itself, with only its ports and certificate paths
changed, so a change to the documentation is tested too.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_reviews import a_record

from big2.server.pool import BotPool
from conftest import LiveServer, free_port

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
NAME = "big2.example.org"  # the documented server_name, sent as Host and as TLS's SNI


def documented_site() -> str:
    """The ```nginx block of docs/deploy.md, as written there."""
    found = re.search(r"```nginx\n(.*?)```", DEPLOY.read_text(), re.DOTALL)
    assert found, "docs/deploy.md has no nginx configuration"
    return found.group(1)


def _replace(text: str, old: str, new: str, count: int) -> str:
    """*text* with *old* (found exactly *count* times) replaced by *new*."""
    assert text.count(old) == count, (old, text.count(old))
    return text.replace(old, new)


class Nginx:
    """nginx in the foreground with the documented site in front of one server."""

    def __init__(self, folder: Path, backend: int) -> None:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(binary).exists():
            pytest.fail("nginx is needed for this test (sh scripts/system-packages.sh test)")
        self.folder, self.port = folder, free_port()
        cert, key = folder / "cert.pem", folder / "key.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                        "1", "-subj", f"/CN={NAME}", "-keyout", str(key), "-out", str(cert)],
                       check=True, capture_output=True)
        site = documented_site()
        # both documented servers are the one server here (its port twice in big2_any)
        site = _replace(site, "127.0.0.1:8000", f"127.0.0.1:{backend}", 2)
        site = _replace(site, "127.0.0.1:8001", f"127.0.0.1:{backend}", 2)
        site = _replace(site, "listen 80;", f"listen 127.0.0.1:{free_port()};", 1)
        site = _replace(site, "listen 443 ssl http2;",
                        f"listen 127.0.0.1:{self.port} ssl http2;", 1)
        site = _replace(site, f"/etc/letsencrypt/live/{NAME}/fullchain.pem", str(cert), 1)
        site = _replace(site, f"/etc/letsencrypt/live/{NAME}/privkey.pem", str(key), 1)
        temp = "\n".join(f"    {kind}_temp_path {folder}/{kind};"
                         for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        # as root, the workers would be `nobody`, who cannot enter the test's folder
        user = "user root root;\n" if os.geteuid() == 0 else ""
        conf = folder / "nginx.conf"
        conf.write_text(f"""daemon off;
{user}worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log info;
events {{ worker_connections 64; }}
http {{
    access_log {folder}/access.log;
{temp}
{site}
}}
""")
        self.proc = subprocess.Popen([binary, "-p", str(folder), "-c", str(conf),
                                      "-e", str(folder / "error.log")],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise AssertionError(f"nginx did not start: {self.log()}") from None
                time.sleep(0.05)

    def log(self) -> str:
        """What nginx wrote to its error log."""
        path = self.folder / "error.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        """Stop nginx (SIGQUIT: let the workers finish), killing it after 10 s."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def connect(self) -> ssl.SSLSocket:
        """A TLS connection to nginx (its certificate is the test's own, not checked)."""
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        return context.wrap_socket(raw, server_hostname=NAME)


class SlowReviews(BotPool):
    """A bot pool whose reviews take *seconds* (awaited: the event loop stays free),
    answering a partial review of no decisions."""

    def __init__(self, seconds: float) -> None:
        super().__init__(workers=0)
        self.seconds = seconds

    async def review(self, text: str, seat: int) -> dict[str, Any]:
        await asyncio.sleep(self.seconds)
        return {"seat": seat, "decisions": [], "complete": False, "slept": self.seconds}


def answer(sock: socket.socket, limit: float) -> tuple[float, bytes]:
    """One HTTP response read from *sock* (head and ``Content-Length`` body, or all until
    the other side closes), waiting at most *limit* s, and how long it took."""
    start, got = time.monotonic(), b""
    sock.settimeout(limit)
    try:
        while chunk := sock.recv(65536):
            got += chunk
            head, sep, body = got.partition(b"\r\n\r\n")
            length = re.search(rb"(?im)^content-length: *(\d+)", head)
            if sep and length and len(body) >= int(length.group(1)):
                break
    except (TimeoutError, ConnectionResetError, ssl.SSLError):
        pass
    return time.monotonic() - start, got


@pytest.fixture
def behind_nginx(live_factory: Any, tmp_path: Path) -> Iterator[tuple[LiveServer, Nginx, Any]]:
    """A live server whose reviews take 12 s, nginx in front, and a stored deal's record."""
    pool = SlowReviews(12.0)
    live = live_factory(pool=pool, allowed_hosts=(NAME, "127.0.0.1"))
    record = a_record(live)
    nginx = Nginx(tmp_path, live.port)
    try:
        yield live, nginx, record
    finally:
        nginx.stop()


def test_a_12_second_review_answers_200_through_nginx(
        behind_nginx: tuple[LiveServer, Nginx, Any]) -> None:
    live, nginx, record = behind_nginx
    body = b'{"seat": 0}'
    head = (f"POST /api/records/{record['id']}/review HTTP/1.1\r\nHost: {NAME}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    # a body that stops half way, sent first: it is still refused, on its own deadline
    unfinished = nginx.connect()
    unfinished.sendall(head + body[:4])
    # and headers that never finish: nginx cuts them itself after the documented 10 s
    trickle = nginx.connect()
    trickle.sendall(head[:30])
    # the whole request, which nginx passes on with Connection: close
    whole = nginx.connect()
    whole.sendall(head + body)
    took, got = answer(whole, 60.0)
    assert got.startswith(b"HTTP/1.1 200"), (took, got, nginx.log()[-2000:])
    assert b'"slept":12.0' in got.replace(b" ", b"") and took >= 11.5, (took, got)
    late, cut = answer(unfinished, 60.0)
    assert cut.startswith(b"HTTP/1.1 408"), (late, cut, nginx.log()[-2000:])
    assert b"the request did not arrive in time" in cut  # the server's deadline, passed on
    waited, _ = answer(trickle, 3.0)  # 12 s on: closed already (nginx's default is 60 s)
    assert waited < 1.0, waited
    trickle.close()
    whole.close()
    unfinished.close()
    assert live.state.internal_errors == 0
