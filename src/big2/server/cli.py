"""``big2 serve``: run the web server."""

from __future__ import annotations

import sys

import click

__all__ = ["serve_command"]


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--db", default=None, metavar="URL",
              help="database: an SQLite path or URL, or postgresql://… "
                   "(default: big2.sqlite3 in your user data directory)")
@click.option("--bot", "auto_bot", default=None,
              help="bot for hints and for timed-out or absent players (default: heuristic)")
@click.option("--bot-delay", type=click.FloatRange(0), default=0.9, show_default=True,
              help="seconds a bot waits before it plays")
@click.option("--grace", type=click.FloatRange(0), default=30.0, show_default=True,
              help="seconds a disconnected player's seat waits before a bot plays for it")
@click.option("--deal-pause", type=click.FloatRange(0), default=20.0, show_default=True,
              help="seconds between deals (unless everyone clicks next)")
def serve_command(host: str, port: int, db: str | None, auto_bot: str | None,
                  bot_delay: float, grace: float, deal_pause: float) -> None:
    """Play in the browser: lobby, tables for friends and bots, records."""
    import uvicorn

    from big2.server.app import create_app
    from big2.server.store import Store
    from big2.server.tables import Timing

    try:
        store = Store(db)
    except Exception as exc:  # noqa: BLE001 - a bad URL or an unreachable database
        raise click.UsageError(f"cannot open database {db!r}: {exc}") from None
    app = create_app(store=store, auto_bot=auto_bot,
                     timing=Timing(bot_delay=bot_delay, grace=grace, deal_pause=deal_pause))
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"big2 is serving on http://{shown}:{port}/  (database: {store.url})")
    click.echo("Press Ctrl+C to stop.")
    sys.stdout.flush()
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=16384,
                ws_ping_interval=20, ws_ping_timeout=20)
