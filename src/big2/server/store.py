"""The server's database: tables (to resume after a restart) and finished deals.

SQLAlchemy Core over any URL it knows: an SQLite file by default (in the
user's data directory), or PostgreSQL (``postgresql+psycopg://…``; a bare
``postgresql://`` URL is taken to mean psycopg). Three tables:

- ``big2_tables``: one row per table, its latest
  :meth:`~big2.server.tables.Table.snapshot` as JSON (this holds the deck, so
  it never leaves the server), its lobby summary and, once the match is over,
  its final state as a spectator sees it (``final``: what every later read of
  the table is sent, so no read replays the match);
- ``big2_actions``: the plays made since that snapshot, one row each, so a
  move costs a small insert rather than the whole snapshot (the server writes
  a new snapshot every few plays and at every other change, which deletes the
  rows it covers);
- ``big2_records``: one row per finished deal, the game record as JSON and
  as notation text;
- ``big2_limits``: per-address token buckets shared by every process on the
  database (:meth:`Store.take`), so ``--workers N`` does not multiply them.

Writes are lists of operations (:class:`SaveTable`, :class:`AddAction`,
:class:`AddRecord`) applied in one transaction by :meth:`Store.apply`;
:class:`~big2.server.writer.Writer` groups many callers' lists into one commit
in a thread of its own.

>>> store = Store("sqlite://")
>>> store.apply([SaveTable("t1", "playing", {"id": "t1", "version": 3}, {}, 3),
...              AddAction("t1", 4, 0b1)])
>>> store.unfinished_tables()
[({'id': 't1', 'version': 3}, [(4, 1)])]
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from big2.records import GameRecord, to_json, write
from big2.server.dburl import normalize_url, redact_text, redact_url

__all__ = [
    "MAX_RECORD_ID", "AddAction", "AddRecord", "DatabaseError", "DiskFull", "Op", "SaveTable",
    "Store", "database_error",
    "default_db_url", "normalize_url", "redact_text", "redact_url",
]

MAX_RECORD_ID = 2**31 - 1
"""Record ids are 32-bit (PostgreSQL ``integer``): a larger id names no record."""


class DatabaseError(RuntimeError):
    """The database refused or could not be reached; the message says so briefly."""


class DiskFull(DatabaseError):
    """The database's disk (or its size limit) is full: SQLite's ``SQLITE_FULL``,
    PostgreSQL's ``disk_full`` (53100), or ``ENOSPC``. A player is told so as such."""


def database_error(exc: sa.exc.SQLAlchemyError) -> DatabaseError:
    """The :class:`DatabaseError` (a :class:`DiskFull` for a full disk) for *exc*."""
    orig = getattr(exc, "orig", None) or exc
    full = (getattr(orig, "sqlite_errorcode", None) == 13  # SQLITE_FULL
            or getattr(orig, "sqlstate", None) == "53100"
            or "database or disk is full" in str(orig)
            or "No space left on device" in str(orig))
    return (DiskFull if full else DatabaseError)(_brief(exc))


@dataclass(frozen=True)
class SaveTable:
    """Write a table's snapshot (and lobby summary) at *version*; the stored
    actions it covers are deleted. *final* is the finished table's state
    message as JSON text (``None`` while the match goes on) and *final_seats*
    its seats' token hashes, by which a player reading it is shown its seat."""

    table_id: str
    status: str
    snapshot: dict[str, Any]
    summary: dict[str, Any]
    version: int
    final: str | None = None
    final_seats: list[str | None] | None = None


@dataclass(frozen=True)
class AddAction:
    """Append one play (*cards*, ``0`` a pass) made at table *version*."""

    table_id: str
    version: int
    cards: int


@dataclass(frozen=True)
class AddRecord:
    """Store one finished deal."""

    table_id: str
    deal: int
    record: GameRecord


Op = SaveTable | AddAction | AddRecord

_meta = sa.MetaData()

tables_t = sa.Table(
    "big2_tables", _meta,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("snapshot", sa.Text, nullable=False),
    sa.Column("summary", sa.Text, nullable=True),  # the lobby's view, added in 2026
    sa.Column("final", sa.Text, nullable=True),  # a finished table's state, added in 2026
    sa.Column("final_seats", sa.Text, nullable=True),  # its seats' token hashes, JSON
)

actions_t = sa.Table(
    "big2_actions", _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), nullable=False, index=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("cards", sa.String(40), nullable=False),  # the mask in decimal (108 bits max)
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


limits_t = sa.Table(
    "big2_limits", _meta,
    sa.Column("key", sa.String(80), primary_key=True),  # "<limit>:<address>"
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("stamp", sa.Float, nullable=False),  # wall time of the last take
)


def default_db_url() -> str:
    """``sqlite:///…/big2.sqlite3`` in the user's data directory (created)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("big2", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'big2.sqlite3'}"


class Store:
    """Tables and finished deals in one database (see the module doc).

    *timeout* bounds how long a connection or a locked SQLite file is waited
    for, so an outage is reported rather than waited out."""

    def __init__(self, url: str | None = None, *, timeout: float = 5.0) -> None:
        self.url = normalize_url(url or default_db_url())
        """The database URL as SQLAlchemy takes it (with any password: never print it;
        :attr:`shown_url` is the one to show)."""
        self.shown_url = redact_url(self.url)
        """:attr:`url` with its password replaced by ``***``, for messages and logs."""
        kwargs: dict[str, Any] = {"pool_pre_ping": True}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": timeout}
            if self.url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = sa.pool.StaticPool  # one shared in-memory database
        elif self.url.startswith("postgresql"):
            _need_psycopg()
            kwargs["connect_args"] = {"connect_timeout": max(1, round(timeout))}
        self.engine = sa.create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        for attempt in range(10):  # processes starting together on one SQLite file may race
            try:
                self._create()
                break
            except sa.exc.OperationalError as exc:
                if attempt == 9 or not self.url.startswith("sqlite"):
                    raise DatabaseError(f"cannot open database {self.shown_url}: "
                                        f"{redact_text(_brief(exc), self.url)}") from None
                time.sleep(0.2)

    def _create(self) -> None:
        with self.engine.begin() as conn:
            if self.url.startswith("postgresql"):  # processes starting together take turns
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(7252021)"))
            _meta.create_all(conn)
            columns = {c["name"] for c in sa.inspect(conn).get_columns("big2_tables")}
            for column in ("summary", "final", "final_seats"):  # a database from before these
                if column not in columns:
                    conn.execute(sa.text(f"ALTER TABLE big2_tables ADD COLUMN {column} TEXT"))

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    # -- writing -----------------------------------------------------------------

    def apply(self, ops: list[Op]) -> None:
        """Apply *ops* in one transaction; :class:`DatabaseError` if it fails
        (then none is applied)."""
        try:
            with self.engine.begin() as conn:
                plays: list[dict[str, Any]] = []  # a run of plays: one statement, in order
                for op in ops:
                    if isinstance(op, AddAction):
                        plays.append({"table_id": op.table_id, "version": op.version,
                                      "cards": str(op.cards)})
                        continue
                    _add_plays(conn, plays)
                    if isinstance(op, SaveTable):
                        _save_table(conn, op)
                    else:
                        _add_record(conn, op)
                _add_plays(conn, plays)
        except sa.exc.SQLAlchemyError as exc:
            raise database_error(exc) from exc

    def take(self, key: str, rate: float, burst: float, now: float | None = None) -> float:
        """Take a token from the shared bucket *key* (*rate* a second, *burst*
        at most): ``0.0`` if there was one, else the seconds until there will be
        (nothing is taken then). One conditional update, atomic on SQLite and
        PostgreSQL alike, so processes taking at once never overdraw a bucket.
        Raises :class:`DatabaseError` when the database cannot be reached.

        >>> store = Store("sqlite://")
        >>> [store.take("a", 1.0, 2.0, now=0.0) for _ in range(3)]
        [0.0, 0.0, 1.0]
        >>> store.take("a", 1.0, 2.0, now=1.0)
        0.0
        """
        now = time.time() if now is None else now
        key = key[:80]
        refilled = limits_t.c.tokens + (now - limits_t.c.stamp) * rate
        full = sa.case((refilled > burst, burst), else_=refilled)
        try:
            for _attempt in range(5):
                with self.engine.begin() as conn:
                    if conn.execute(sa.update(limits_t).where(limits_t.c.key == key)
                                    .where(full >= 1)
                                    .values(tokens=full - 1, stamp=now)).rowcount:
                        return 0.0
                    row = conn.execute(sa.select(limits_t.c.tokens, limits_t.c.stamp)
                                       .where(limits_t.c.key == key)).first()
                    if row is not None:
                        tokens = min(burst, row.tokens + (now - row.stamp) * rate)
                        if tokens >= 1:  # made by another process after the update looked
                            continue
                        return (1 - tokens) / rate if rate > 0 else 3600.0
                try:
                    with self.engine.begin() as conn:
                        conn.execute(sa.insert(limits_t).values(key=key, tokens=burst - 1,
                                                                stamp=now))
                    return 0.0
                except sa.exc.IntegrityError:
                    continue  # another process made the bucket meanwhile: take from it
            return 1.0 / rate if rate > 0 else 3600.0
        except sa.exc.SQLAlchemyError as exc:
            raise database_error(exc) from exc

    def forget_limits(self, before: float) -> int:
        """Delete buckets untouched since *before* (wall time; they are full by
        now); return how many."""
        with self.engine.begin() as conn:
            return int(conn.execute(sa.delete(limits_t)
                                    .where(limits_t.c.stamp < before)).rowcount)

    def expire_waiting(self, before: float, prefix: str = "") -> int:
        """Mark tables still waiting for players since before *before* (wall
        time) as ``expired``; return how many."""
        query = (sa.update(tables_t).where(tables_t.c.status == "waiting")
                 .where(tables_t.c.updated < before).values(status="expired"))
        if prefix:
            query = query.where(tables_t.c.id.startswith(prefix, autoescape=True))
        with self.engine.begin() as conn:
            return int(conn.execute(query).rowcount)

    # -- reading -----------------------------------------------------------------

    def unfinished_tables(self, prefix: str = "") -> list[tuple[dict[str, Any],
                                                                   list[tuple[int, int]]]]:
        """Every table whose match is not over (nor expired), oldest first, with
        its ids starting *prefix*: its snapshot and the ``(version, cards)``
        plays stored since."""
        query = (sa.select(tables_t.c.id, tables_t.c.snapshot)
                 .where(tables_t.c.status.not_in(("over", "expired")))
                 .order_by(tables_t.c.updated))
        if prefix:
            query = query.where(tables_t.c.id.startswith(prefix, autoescape=True))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            return [(json.loads(r.snapshot), self._actions(conn, r.id)) for r in rows]

    def table(self, table_id: str) -> tuple[str, dict[str, Any], list[tuple[int, int]]] | None:
        """One table's status, snapshot and later plays, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(tables_t.c.status, tables_t.c.snapshot)
                               .where(tables_t.c.id == table_id)).first()
            if row is None:
                return None
            return row.status, json.loads(row.snapshot), self._actions(conn, table_id)

    def finished(self, table_id: str) -> tuple[str, str | None, list[str | None] | None] | None:
        """One table's status and, once it is over, its final state (JSON text)
        and seats' token hashes (both ``None`` for a table finished before they
        were stored), without its snapshot; ``None`` if there is no such table."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(tables_t.c.status, tables_t.c.final,
                                         tables_t.c.final_seats)
                               .where(tables_t.c.id == table_id)).first()
        if row is None:
            return None
        return row.status, row.final, None if row.final_seats is None else json.loads(
            row.final_seats)

    def set_final(self, table_id: str, final: str, seats: list[str | None]) -> None:
        """Store the final state and seats of a table that is over (once worked
        out for a table finished before they were stored)."""
        with self.engine.begin() as conn:
            conn.execute(sa.update(tables_t).where(tables_t.c.id == table_id)
                         .where(tables_t.c.status == "over")
                         .values(final=final, final_seats=json.dumps(seats)))

    @staticmethod
    def _actions(conn: sa.Connection, table_id: str) -> list[tuple[int, int]]:
        rows = conn.execute(sa.select(actions_t.c.version, actions_t.c.cards)
                            .where(actions_t.c.table_id == table_id)
                            .order_by(actions_t.c.version)).all()
        return [(int(r.version), int(r.cards)) for r in rows]

    def lobby(self, limit: int = 100) -> list[dict[str, Any]]:
        """The summaries of the tables not over, most recently changed first."""
        query = (sa.select(tables_t.c.summary)
                 .where(tables_t.c.status.in_(("waiting", "playing", "between")))
                 .where(tables_t.c.summary.is_not(None))
                 .order_by(tables_t.c.updated.desc()).limit(limit))
        with self.engine.connect() as conn:
            return [json.loads(r.summary) for r in conn.execute(query).all()]

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
        """One stored deal as ``(json_text, notation_text)``, or ``None`` (also
        for an id no record can have)."""
        if not 0 < record_id <= MAX_RECORD_ID:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(records_t.c.record_json, records_t.c.record_text)
                               .where(records_t.c.id == record_id)).first()
        return None if row is None else (row.record_json, row.record_text)


def _add_plays(conn: sa.Connection, plays: list[dict[str, Any]]) -> None:
    """Insert *plays* (rows of ``big2_actions``) in one statement and empty the list:
    on PostgreSQL one round trip for the run instead of one a play."""
    if plays:
        conn.execute(sa.insert(actions_t), plays)
        plays.clear()


def _save_table(conn: sa.Connection, op: SaveTable) -> None:
    row = {"status": op.status, "updated": time.time(), "snapshot": json.dumps(op.snapshot),
           "summary": json.dumps(op.summary) if op.summary else None, "final": op.final,
           "final_seats": None if op.final_seats is None else json.dumps(op.final_seats)}
    done = conn.execute(sa.update(tables_t).where(tables_t.c.id == op.table_id)
                        .values(**row)).rowcount
    if not done:
        conn.execute(sa.insert(tables_t).values(id=op.table_id, **row))
    conn.execute(sa.delete(actions_t).where(actions_t.c.table_id == op.table_id)
                 .where(actions_t.c.version <= op.version))


def _add_record(conn: sa.Connection, op: AddRecord) -> None:
    record = op.record
    conn.execute(sa.insert(records_t).values(
        table_id=op.table_id, deal=op.deal, created=time.time(), winner=record.winner,
        scores=json.dumps(list(record.scores or ())), names=json.dumps(list(record.names)),
        record_json=to_json(record), record_text=write(record)))


def _brief(exc: sa.exc.SQLAlchemyError) -> str:
    """The first line of the driver's message, without SQL or parameters."""
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    return redact_text(text, None)[:200]


def _need_psycopg() -> None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise DatabaseError("PostgreSQL needs the psycopg driver: "
                            "pip install 'big2[postgres]'") from None


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()
