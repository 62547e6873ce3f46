"""The event log's schema and the read-only checks a file must pass before it is opened for writing.

The checks never change the file: they read its header bytes, then open it read-only with
``immutable=1`` (a plain read-only open of a WAL database creates ``-wal`` and ``-shm`` files
beside it), or, when a writer died and left WAL content, check a copy of the two files.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from controller.store.errors import StoreError

#: The version this code writes, kept in ``PRAGMA user_version``.
SCHEMA_VERSION = 1

SQLITE_MAGIC = b"SQLite format 3\x00"

# Version 1. ``seq`` is the rowid: the log is append-only, so it only ever grows.
SCHEMA_V1 = """
CREATE TABLE sessions (
    id      INTEGER PRIMARY KEY,
    started REAL    NOT NULL,
    ruleset TEXT    NOT NULL,
    options TEXT    NOT NULL,
    ended   REAL
);
CREATE TABLE events (
    seq        INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    time       REAL    NOT NULL,
    source     TEXT    NOT NULL,
    event      TEXT    NOT NULL,
    accepted   INTEGER NOT NULL CHECK (accepted IN (0, 1)),
    rule       TEXT,
    message    TEXT
);
CREATE INDEX events_by_session ON events (session_id, seq);
"""

#: Scripts that take a log from version ``n - 1`` to ``n``; 0 is an empty file.
MIGRATIONS: dict[int, str] = {1: SCHEMA_V1}

_OUR_TABLES = frozenset({"sessions", "events"})


@dataclass(frozen=True)
class Inspection:
    """What the read-only checks found: ``version`` 0 means a new or empty file."""

    version: int
    has_wal: bool


def inspect_log(path: Path, thorough: bool = True) -> Inspection:
    """Check the file at ``path`` without changing it; raise :class:`StoreError` if unusable.

    ``thorough=False`` is for readers of a log the service may be writing right now: it skips
    ``quick_check`` and reads the live files instead of a copy.
    """
    if not path.exists():
        return Inspection(version=0, has_wal=False)
    if not path.is_file():
        raise StoreError(
            f"the event log {path} is not a file: give the path of a file in --data-dir"
        )
    header = _read_header(path)
    if not header:  # SQLite writes its header with the first commit: a log is never empty
        raise StoreError(
            f"the event log {path} is an empty file (0 bytes) where a log was expected: it "
            "was left untouched; if no game was recorded, delete it to start a new log, "
            "else restore the log from a copy"
        )
    if not header.startswith(SQLITE_MAGIC):
        raise StoreError(
            f"{path} is not an SQLite database (damaged or some other file): it was left "
            "untouched; move it away or choose another --data-dir"
        )
    has_wal = Path(f"{path}-wal").exists()
    version = _check_contents(path, has_wal, thorough)
    return Inspection(version=version, has_wal=has_wal)


def _read_header(path: Path) -> bytes:
    try:
        with path.open("rb") as f:
            return f.read(100)
    except OSError as exc:
        raise StoreError(
            f"cannot read the event log {path}: {exc.strerror}; check its permissions"
        ) from exc


def _check_contents(path: Path, has_wal: bool, thorough: bool) -> int:
    wal = Path(f"{path}-wal")
    if has_wal and not thorough:
        return _check_file(path, f"{path.absolute().as_uri()}?mode=ro", thorough)
    if has_wal and wal.stat().st_size > 0:
        # Committed events may sit in the WAL of a writer that died; even a read-only open would
        # rebuild the -shm index beside them. Check a copy instead, so the originals stay as
        # they are until the checks pass.
        try:
            with tempfile.TemporaryDirectory(prefix="mahjong-log-check-") as tmp:
                copy = Path(tmp) / path.name
                shutil.copyfile(path, copy)
                shutil.copyfile(wal, Path(f"{copy}-wal"))
                return _check_file(path, f"{copy.absolute().as_uri()}?mode=ro", thorough)
        except OSError as exc:
            raise StoreError(
                f"cannot check the event log {path} before opening it: no room for a temporary "
                f"copy in {tempfile.gettempdir()} ({exc.strerror}); free space there (or set "
                "TMPDIR) and start again"
            ) from exc
    # Without WAL content the main file is complete, and immutable=1 creates no side files.
    return _check_file(path, f"{path.absolute().as_uri()}?mode=ro&immutable=1", thorough)


def _check_file(path: Path, uri: str, thorough: bool) -> int:
    """Run the checks on the database at ``uri`` (``path`` or a copy); messages name ``path``."""
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise _damaged(path, str(exc)) from exc
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the event log {path} was written by a newer version of mahjong-table (schema "
                f"{version}, this one knows up to {SCHEMA_VERSION}): it was left untouched; "
                "upgrade mahjong-table or choose another --data-dir"
            )
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")] if thorough else ["ok"]
        if problems != ["ok"]:
            lines = [ln for p in problems for ln in str(p).splitlines() if not ln.startswith("*")]
            raise _damaged(path, "; ".join(lines[:2]))
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = {row[0] for row in rows}
    except sqlite3.Error as exc:
        raise _damaged(path, str(exc)) from exc
    finally:
        conn.close()
    if version == 0 and tables:
        raise StoreError(
            f"{path} is an SQLite database but not a mahjong-table event log (tables: "
            f"{', '.join(sorted(tables))}): it was left untouched; choose another --data-dir"
        )
    if version > 0 and not _OUR_TABLES <= tables:
        raise _damaged(path, f"tables missing: {', '.join(sorted(_OUR_TABLES - tables))}")
    return version


def _damaged(path: Path, detail: str) -> StoreError:
    return StoreError(
        f"the event log {path} is damaged ({detail}): it was left untouched; keep a copy, try "
        "`sqlite3 FILE .recover`, or move it away and start a new log"
    )


def migrate(conn: sqlite3.Connection, from_version: int) -> None:
    """Bring a checked log from ``from_version`` up to :data:`SCHEMA_VERSION`, a commit a step."""
    for version in range(from_version + 1, SCHEMA_VERSION + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[version].split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
