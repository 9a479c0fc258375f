"""Game records: whole deals as text (PGN-like) or JSON, replayable.

A :class:`GameRecord` is built from a game (:meth:`GameRecord.from_game`),
read from text (:func:`read`, :func:`load`) and turned back into a game at
any point (:meth:`GameRecord.to_game`). A match is a list of records, one
after another in one file. Bad records raise :class:`RecordError`, whose
``line`` names the line at fault.

>>> from big2 import Game
>>> g = Game(seed=5)
>>> while not g.is_over():
...     g.play(g.legal_masks()[-1])
>>> rec = GameRecord.from_game(g)
>>> back = read_one(write(rec))
>>> back == rec, back.scores == g.scores()
(True, True)
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

from big2.game import Game
from big2.records.jsonfmt import from_json, to_json
from big2.records.notation import closest_preset, read, read_one, write
from big2.records.record import GameRecord, RecordError

PathLike = str | os.PathLike[str]


def loads(text: str) -> list[GameRecord]:
    """Records from text in either format (JSON when it starts with ``{`` or ``[``
    followed by a quote or brace)."""
    stripped = text.lstrip()
    if stripped.startswith("{") or (stripped.startswith("[") and
                                    stripped[1:].lstrip()[:1] in ("{", "]")):
        return from_json(text)
    return read(text)


def load(path: PathLike) -> list[GameRecord]:
    """Every record in the file at *path* (notation or JSON). A file that is
    not UTF-8 text raises :class:`RecordError` naming the line; a file that
    cannot be read raises ``OSError``."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise RecordError(f"not UTF-8 text (byte {data[exc.start]:#04x}): not a record file",
                          line) from None
    return loads(text)


def save(path: PathLike, records: GameRecord | Iterable[GameRecord]) -> None:
    """Write *records* to *path*, as JSON if it ends in ``.json``, atomically."""
    if isinstance(records, GameRecord):
        records = [records]
    records = list(records)
    text = to_json(records) + "\n" if str(path).endswith(".json") else write(records)
    _replace(Path(path), text)


def append(path: PathLike, record: GameRecord) -> None:
    """Add *record* to the end of the notation file at *path* (created if
    missing). The file is rewritten atomically, so a crash leaves either the
    old file or the new one, never half a record."""
    path = Path(path)
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if old and not old.endswith("\n"):
        old += "\n"
    _replace(path, old + ("\n" if old else "") + write(record))


def append_game(path: PathLike, game: Game, *, totals: Iterable[int] = (),
                tags: dict[str, str] | None = None) -> GameRecord:
    """Record *game* and :func:`append` it to *path*; return the record."""
    record = GameRecord.from_game(game, totals=tuple(totals), tags=tags)
    append(path, record)
    return record


def _replace(path: Path, text: str) -> None:
    """Write *text* to *path* through a temporary file beside it, renamed over
    it, so a reader never sees half a file. A new file gets the mode the
    user's umask gives (``open`` would); a replaced one keeps its mode."""
    folder = path.parent
    try:
        mode: int | None = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = None
    for _ in range(100):
        tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    else:  # pragma: no cover - 100 clashes of 32 random bits
        raise FileExistsError(f"no free temporary name beside {path}")
    try:
        if mode is not None:
            os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


__all__ = [
    "GameRecord", "RecordError", "append", "append_game", "closest_preset", "from_json",
    "load", "loads", "read", "read_one", "save", "to_json", "write",
]
