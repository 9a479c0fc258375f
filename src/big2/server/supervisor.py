"""``big2 serve --workers N``: N server processes on ports PORT … PORT+N-1, each
an ordinary ``big2 serve --shard K/N`` (see docs/deploy.md).

A server that stops is started again alone, on its own port, while the others
keep serving: at once (half a second) if it had served a minute or more, else
after a wait that doubles with each stop in a row (0.5, 1, 2, 4 s …), so a
server killed soon after it started comes back too (issue 55). Only a fault
that repeats ends it all: :data:`GIVE_UP` stops in a row, each within
:data:`STABLE_SECONDS` of starting (a wrong database URL, a port another
program holds), stop every server with one line saying so.

The servers die with the supervisor, however it ends (``SIGKILL`` included):
on Linux each asks the kernel for ``SIGKILL`` when its parent dies
(``PR_SET_PDEATHSIG``), and every server also watches its parent and exits
when it is gone (:func:`exit_with_parent`), so no server is left serving
without its supervisor and the next start finds its ports free. What a server
had acknowledged is stored, as after any ``kill -9``.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import click

__all__ = ["BACKOFF", "GIVE_UP", "STABLE_SECONDS", "exit_with_parent", "supervise"]

STABLE_SECONDS = 60.0
"""A server that served this long before it stopped starts its count of stops afresh."""
GIVE_UP = 5
"""Stops in a row, each within :data:`STABLE_SECONDS` of starting, after which all stop."""
BACKOFF = (0.5, 8.0)
"""The wait before the first restart, and the longest wait (it doubles in between)."""
_PR_SET_PDEATHSIG = 1


def supervise(argv: list[str], workers: int, port: int, db: str | None) -> None:
    """Run ``big2 serve --shard K/N`` on ports PORT+K (see the module doc); *argv* is
    this command's arguments (``sys.argv[1:]``), *db* the database it was given.
    Returns when stopped (SIGTERM, Ctrl+C); raises :class:`click.ClickException`
    when it gave up."""
    args = _without("--port", _without("--workers", argv))
    args = _without("--db", _without("--db-file", args))
    me = os.getpid()
    env = dict(os.environ, BIG2_SUPERVISOR=str(me))
    if db is not None:  # to the servers through the environment: never on their argv
        env["BIG2_DB"] = db

    def start(k: int) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", "big2.cli", *args, "--port",
                                 str(port + k), "--shard", f"{k}/{workers}"], env=env,
                                preexec_fn=_die_with(me))  # noqa: PLW1509 - no threads here

    children = [start(k) for k in range(workers)]
    started = [time.monotonic()] * workers
    stops = [0] * workers  # stops in a row, each soon after its start
    due: list[float | None] = [None] * workers  # when a stopped server starts again
    click.echo(f"{workers} big2 servers on ports {port}..{port + workers - 1}: "
               "put a proxy in front that routes by table id (docs/deploy.md). "
               "Press Ctrl+C to stop.")
    stopping = False
    failed = ""

    def stop(*_: Any) -> None:
        nonlocal stopping
        stopping = True
        for k, c in enumerate(children):
            if due[k] is None:
                with contextlib.suppress(OSError):
                    c.terminate()

    signal.signal(signal.SIGTERM, stop)
    try:
        while not stopping and not failed:
            time.sleep(0.2)
            now = time.monotonic()
            for k, c in enumerate(children):
                if stopping:
                    break
                when = due[k]
                if when is not None:
                    if now >= when:
                        children[k], started[k], due[k] = start(k), now, None
                    continue
                code = c.poll()
                if code is None:
                    continue
                ran = now - started[k]
                stops[k] = stops[k] + 1 if ran < STABLE_SECONDS else 1
                what = (f"server {k} (port {port + k}) stopped ({_exit_text(code)}) "
                        f"{ran:.1f} s after it started")
                if stops[k] >= GIVE_UP:
                    failed = (f"{what}, the {GIVE_UP}th time in a row within "
                              f"{STABLE_SECONDS:.0f} s of starting: giving up and stopping "
                              "every server; its message above says why")
                    break
                wait = min(BACKOFF[1], BACKOFF[0] * 2 ** (stops[k] - 1))
                click.echo(f"{what}; starting it again in {wait:g} s (the others keep "
                           "serving)", err=True)
                due[k] = now + wait
    except KeyboardInterrupt:
        pass
    finally:
        stop()
        for k, c in enumerate(children):
            if due[k] is None:
                try:
                    c.wait(15)
                except subprocess.TimeoutExpired:
                    c.kill()
                    c.wait(5)
    if failed:
        raise click.ClickException(failed)


def _die_with(parent: int) -> Callable[[], None]:
    """What a server runs between fork and exec: ask for ``SIGKILL`` when *parent*
    dies (Linux), and exit now if it is already gone."""
    prctl: Any = None
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            prctl = ctypes.CDLL(None, use_errno=True).prctl

    def in_child() -> None:
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return in_child


def exit_with_parent() -> None:
    """In a server started by :func:`supervise` (``BIG2_SUPERVISOR`` names it): exit
    when the supervisor is gone, checked each second (where the kernel's parent-death
    signal is missing, or was lost)."""
    parent = os.environ.get("BIG2_SUPERVISOR", "")
    if not parent.isdigit():
        return

    def watch() -> None:
        while os.getppid() == int(parent):
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="big2-parent", daemon=True).start()


def _exit_text(code: int) -> str:
    """``exit code 1`` or ``killed by SIGKILL``."""
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


def _without(option: str, args: list[str]) -> list[str]:
    """*args* without ``OPTION VALUE`` and ``OPTION=VALUE``."""
    out: list[str] = []
    it = iter(args)
    for a in it:
        if a == option:
            next(it, None)
        elif not a.startswith(option + "="):
            out.append(a)
    return out
