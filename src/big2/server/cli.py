"""``big2 serve``: run the web server (one process, or several with ``--workers``).

Everything is checked before the server starts (the bot names, the database,
the port), and a problem is one line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
from typing import Any

import click

__all__ = ["serve_command"]


def _port_free(host: str, port: int) -> str | None:
    """``None`` if *host*:*port* can be listened on, else why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} on {host} is already in use (another server?); " \
                       "choose another with --port"
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def _check_bot(name: str | None, option: str) -> None:
    if name is None:
        return
    from big2.bots import make_bot

    try:
        make_bot(name)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=option) from None


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="port (with --workers N, the first of N ports)")
@click.option("--db", default=None, metavar="URL", envvar="BIG2_DB", show_envvar=True,
              help="database: an SQLite path or URL, postgresql://… or a PostgreSQL "
                   "keyword string 'host=… dbname=…' (default: big2.sqlite3 in your user "
                   "data directory); a password given here is moved into the environment "
                   "at once, but BIG2_DB or --db-file never show it on the process list")
@click.option("--db-file", type=click.File("r"), default=None, metavar="PATH",
              help="read the database URL from the first line of this file (instead of --db)")
@click.option("--bot", "auto_bot", default=None,
              help="bot for hints and for timed-out or absent players (default: the "
                   "strongest level, expert, for hints; heuristic for the others)")
@click.option("--bot-delay", type=click.FloatRange(0), default=0.9, show_default=True,
              help="seconds a bot waits before it plays")
@click.option("--grace", type=click.FloatRange(0), default=30.0, show_default=True,
              help="seconds a disconnected player's seat waits before a bot plays for it")
@click.option("--deal-pause", type=click.FloatRange(0), default=20.0, show_default=True,
              help="seconds between deals (unless everyone clicks next)")
@click.option("--waiting", type=click.FloatRange(0, min_open=True), default=30.0,
              show_default=True, help="minutes a table waits for players before it expires")
@click.option("--max-tables", type=click.IntRange(1), default=500, show_default=True,
              help="live tables at most (per process)")
@click.option("--bot-workers", type=click.IntRange(0), default=2, show_default=True,
              help="processes that choose bot moves and hints (0: in the server process)")
@click.option("--bot-budget", type=click.FloatRange(0.1), default=5.0, show_default=True,
              help="seconds a bot move may take before a quick bot plays instead")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="a Host name to serve (repeatable; default: loopback names when listening "
                   "on loopback, any name otherwise)")
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="URL",
              help="another site (https://host) whose pages may connect (repeatable)")
@click.option("--workers", type=click.IntRange(1, 10), default=1, show_default=True,
              help="server processes, on ports PORT..PORT+N-1 sharing the database; "
                   "a proxy routes by table id (docs/deploy.md)")
@click.option("--shard", default=None, hidden=True, metavar="K/N",
              help="this process is server K of N (set by --workers)")
def serve_command(host: str, port: int, db: str | None, db_file: Any, auto_bot: str | None,
                  bot_delay: float, grace: float, deal_pause: float, waiting: float,
                  max_tables: int, bot_workers: int, bot_budget: float,
                  allow_hosts: tuple[str, ...], allow_origins: tuple[str, ...],
                  workers: int, shard: str | None) -> None:
    """Play in the browser: lobby, tables for friends and bots, records."""
    if db_file is not None:
        db = (db_file.readline().strip() or None) if db is None else _both_db()
    _off_the_command_line(db)
    _check_bot(auto_bot, "--bot")
    for k in range(workers):
        problem = _port_free(host, port + k)
        if problem:
            raise click.ClickException(problem)
    if workers > 1:
        from big2.server.supervisor import supervise

        supervise(sys.argv[1:], workers, port, db)
        return
    if shard is not None:
        from big2.server.supervisor import exit_with_parent

        exit_with_parent()
    from big2.server.store import DatabaseError, Store, redact_text, redact_url

    try:
        store = Store(db)
    except DatabaseError as exc:
        raise click.ClickException(redact_text(str(exc), db)) from None
    except Exception as exc:  # noqa: BLE001 - a bad URL or an unreachable database
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        shown = redact_url(db or "")
        raise click.ClickException(f"cannot open database {shown!r}: "
                                   f"{redact_text(first, db)}") from None
    index, count = _shard(shard)
    _run(store, host=host, port=port, auto_bot=auto_bot, quiet=shard is not None,
         timing={"bot_delay": bot_delay, "grace": grace, "deal_pause": deal_pause},
         limits={"waiting_seconds": waiting * 60, "max_tables": max_tables},
         pool={"workers": bot_workers, "budget": bot_budget},
         hosts=allow_hosts or (() if _loopback(host) else ("*",)), origins=allow_origins,
         shard=str(index) if count > 1 else "", shared=count > 1)


def _both_db() -> str:
    raise click.BadParameter("give the database once: --db (or BIG2_DB) or --db-file",
                             param_hint="--db-file")


def _off_the_command_line(db: str | None) -> None:
    """If this process's command line holds *db* with a password, start this command
    again (``execv``: the same process) with the URL in ``BIG2_DB`` instead, so ``ps``
    and ``/proc/PID/cmdline`` no longer show it (they did for as long as Python took
    to get here)."""
    from big2.server.dburl import passwords

    argv = sys.argv[1:]
    if db is None or not passwords(db) or (db not in argv and f"--db={db}" not in argv):
        return  # no password, or not from this command line (the environment, a test)
    rest, taken = _without_db(argv)
    if taken != db:
        return
    os.environ["BIG2_DB"] = db
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-m", "big2.cli", *rest])


def _loopback(host: str) -> bool:
    return host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")


def _shard(text: str | None) -> tuple[int, int]:
    if text is None:
        return 0, 1
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise click.BadParameter("K/N, e.g. 0/2", param_hint="--shard") from None
    if not 0 <= k < n <= 10:
        raise click.BadParameter("K/N with 0 <= K < N <= 10", param_hint="--shard")
    return k, n


def _run(store: Any, *, host: str, port: int, auto_bot: str | None, quiet: bool,
         timing: dict[str, float], limits: dict[str, Any], pool: dict[str, Any],
         hosts: tuple[str, ...], origins: tuple[str, ...], shard: str, shared: bool) -> None:
    import uvicorn

    from big2.server.app import create_app
    from big2.server.core import Limits
    from big2.server.guard import http_protocol
    from big2.server.pool import BotPool
    from big2.server.tables import Timing

    app = create_app(store=store, auto_bot=auto_bot, timing=Timing(**timing),
                     limits=Limits(**limits), pool=BotPool(**pool), allowed_hosts=hosts,
                     allowed_origins=origins, shard=shard, shared_lobby=shared)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"big2 is serving on http://{shown}:{port}/  (database: {store.shown_url})")
    if not quiet:
        click.echo("Press Ctrl+C to stop.")
    sys.stdout.flush()
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=16384,
                ws_ping_interval=20, ws_ping_timeout=20, ws_per_message_deflate=False,
                proxy_headers=True, http=http_protocol(), timeout_keep_alive=5)


def _without_db(args: list[str]) -> tuple[list[str], str | None]:
    """*args* without ``--db URL`` / ``--db=URL``, and the URL (``None``: not given)."""
    out: list[str] = []
    db = None
    it = iter(args)
    for a in it:
        if a == "--db":
            db = next(it, None)
        elif a.startswith("--db="):
            db = a[len("--db="):]
        else:
            out.append(a)
    return out, db
