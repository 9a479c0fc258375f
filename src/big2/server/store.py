"""The server's database: tables (to resume after a restart) and finished deals.

SQLAlchemy Core over any URL it knows: an SQLite file by default (in the
user's data directory), or PostgreSQL (``postgresql+psycopg://…``; a bare
``postgresql://`` URL is taken to mean psycopg). Two tables:

- ``big2_tables``: one row per table, its :meth:`~big2.server.tables.Table.snapshot`
  as JSON (this holds the deck, so it never leaves the server);
- ``big2_records``: one row per finished deal, the game record as JSON and
  as notation text.

>>> store = Store("sqlite://")
>>> store.save_table("t1", "playing", {"id": "t1"})
>>> store.unfinished_tables()
[{'id': 't1'}]
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from big2.records import GameRecord, to_json, write

__all__ = ["Store", "default_db_url", "normalize_url"]

_meta = sa.MetaData()

tables_t = sa.Table(
    "big2_tables", _meta,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("snapshot", sa.Text, nullable=False),
)

records_t = sa.Table(
    "big2_records", _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), nullable=False, index=True),
    sa.Column("deal", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("scores", sa.Text, nullable=False),
    sa.Column("names", sa.Text, nullable=False),
    sa.Column("record_json", sa.Text, nullable=False),
    sa.Column("record_text", sa.Text, nullable=False),
)


def default_db_url() -> str:
    """``sqlite:///…/big2.sqlite3`` in the user's data directory (created)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("big2", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'big2.sqlite3'}"


def normalize_url(url: str) -> str:
    """A database URL SQLAlchemy accepts: a plain path becomes an SQLite file,
    ``postgres://``/``postgresql://`` use the psycopg (3) driver."""
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class Store:
    """Tables and finished deals in one database (see the module doc)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalize_url(url or default_db_url())
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if self.url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = sa.pool.StaticPool  # one shared in-memory database
        self.engine = sa.create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        _meta.create_all(self.engine)

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    # -- tables ------------------------------------------------------------------

    def save_table(self, table_id: str, status: str, snapshot: dict[str, Any]) -> None:
        """Insert or replace one table's snapshot."""
        row = {"status": status, "updated": time.time(), "snapshot": json.dumps(snapshot)}
        with self.engine.begin() as conn:
            done = conn.execute(sa.update(tables_t).where(tables_t.c.id == table_id)
                                .values(**row)).rowcount
            if not done:
                conn.execute(sa.insert(tables_t).values(id=table_id, **row))

    def unfinished_tables(self) -> list[dict[str, Any]]:
        """Snapshots of every table whose match is not over, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(tables_t.c.snapshot)
                                .where(tables_t.c.status != "over")
                                .order_by(tables_t.c.updated)).all()
        return [json.loads(r.snapshot) for r in rows]

    # -- records -----------------------------------------------------------------

    def add_record(self, table_id: str, deal: int, record: GameRecord) -> int:
        """Store one finished deal; return its id."""
        with self.engine.begin() as conn:
            result = conn.execute(sa.insert(records_t).values(
                table_id=table_id, deal=deal, created=time.time(), winner=record.winner,
                scores=json.dumps(list(record.scores or ())), names=json.dumps(list(record.names)),
                record_json=to_json(record), record_text=write(record)))
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    def records(self, table_id: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Summaries of stored deals (newest first), of one table or all."""
        query = sa.select(records_t.c.id, records_t.c.table_id, records_t.c.deal,
                          records_t.c.created, records_t.c.winner, records_t.c.scores,
                          records_t.c.names).order_by(records_t.c.id.desc()).limit(limit)
        if table_id is not None:
            query = query.where(records_t.c.table_id == table_id)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [{"id": r.id, "table": r.table_id, "deal": r.deal, "created": r.created,
                 "winner": r.winner, "scores": json.loads(r.scores), "names": json.loads(r.names)}
                for r in rows]

    def record(self, record_id: int) -> tuple[str, str] | None:
        """One stored deal as ``(json_text, notation_text)``, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(records_t.c.record_json, records_t.c.record_text)
                               .where(records_t.c.id == record_id)).first()
        return None if row is None else (row.record_json, row.record_text)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()
