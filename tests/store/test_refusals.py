"""Logs the store must refuse, leaving them untouched; writes that fail say what to do."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from controller.store import SCHEMA_VERSION, EventLog, StoreError

EVENT = {"move": {"tile": "ew", "from": "wall", "to": "rack:2"}}


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def _make_log(db: Path, events: int = 0) -> None:
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {}, 0.0)
        for i in range(events):
            log.append(sid, {"correct": {"undo": i}, "pad": "x" * 200}, True, None, None, "t", 0.0)


def _assert_refused_untouched(db: Path, match: str) -> None:
    before = _snapshot(db.parent)
    with pytest.raises(StoreError, match=match) as info:
        EventLog.open(db)
    assert "left untouched" in str(info.value)
    assert _snapshot(db.parent) == before  # same files (no -wal, no -shm), same bytes


def test_newer_schema_is_refused_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    _make_log(db, events=3)
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    assert not Path(f"{db}-wal").exists()
    _assert_refused_untouched(db, "newer version of mahjong-table")


def test_newer_schema_with_a_leftover_wal_file_is_refused_and_left_untouched(
    tmp_path: Path,
) -> None:
    db = tmp_path / "events.sqlite"
    _make_log(db, events=3)
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    raw.close()
    # A writer that died leaves its WAL behind: the check must not checkpoint or remove it.
    Path(f"{db}-wal").write_bytes(b"")
    Path(f"{db}-shm").write_bytes(b"\0" * 32768)
    _assert_refused_untouched(db, "newer version")


def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    db.write_bytes(b"this is a table log, not a database\n" * 50)
    _assert_refused_untouched(db, "not an SQLite database")


def test_corrupted_pages_are_refused_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    _make_log(db, events=200)
    data = bytearray(db.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    data[3 * page + 8 : 3 * page + 400] = b"\xff" * 392  # scribble over a b-tree page
    db.write_bytes(bytes(data))
    _assert_refused_untouched(db, "damaged")


def test_another_programs_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    raw = sqlite3.connect(db)
    raw.execute("CREATE TABLE recipes (name TEXT)")
    raw.commit()
    raw.close()
    _assert_refused_untouched(db, "not a mahjong-table event log")


def test_an_empty_file_is_refused_not_made_a_new_log(tmp_path: Path) -> None:
    """A 0-byte events.sqlite is a log that lost its contents (SQLite writes its header with
    the first commit), not a place for a new one (issue 11)."""
    db = tmp_path / "events.sqlite"
    db.touch()
    _assert_refused_untouched(db, "empty file")


def test_missing_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist; create it or choose another --data-dir"):
        EventLog.open(tmp_path / "nowhere" / "events.sqlite")


def test_full_disk_makes_append_raise_a_clear_error_and_keeps_earlier_events(
    tmp_path: Path,
) -> None:
    db = tmp_path / "events.sqlite"
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {}, 0.0)
        kept = log.append(sid, EVENT, True, None, None, "table", 0.0)
        # Cap the file at its current size: the next pages cannot be allocated (SQLITE_FULL),
        # exactly as when the SD card is full.
        pages = log._conn.execute("PRAGMA page_count").fetchone()[0]
        log._conn.execute(f"PRAGMA max_page_count = {pages}")
        big = {"move": {"tile": "ew", "from": "wall", "to": "rack:2"}, "pad": "x" * 20000}
        with pytest.raises(StoreError) as info:
            log.append(sid, big, True, None, None, "table", 1.0)
        message = str(info.value)
        assert f"cannot write the event log at {db}: disk full" in message
        assert "SQLITE_FULL" in message and "not being accepted" in message
        assert [r.seq for r in log.records(sid)] == [kept]


def test_read_only_log_makes_append_raise_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    _make_log(db)
    # Running as root, chmod would not stop SQLite; a read-only open fails the way a read-only
    # mount does, with SQLITE_READONLY from SQLite itself.
    with EventLog.open(db, readonly=True) as log, pytest.raises(StoreError) as info:
        log.append(1, EVENT, True, None, None, "table", 0.0)
    assert "read-only; make --data-dir writable (SQLITE_READONLY" in str(info.value)
    with EventLog.open(db) as log:
        assert list(log.records(1)) == []


def test_bad_session_id_is_refused_without_a_row(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    with EventLog.open(db) as log:
        with pytest.raises(StoreError, match="refused the row"):
            log.append(42, EVENT, True, None, None, "table", 0.0)
        assert log.last_seq() == 0


def _crashed_copy(src_dir: Path, dst_dir: Path, user_version: int | None) -> Path:
    """A log whose writer died with committed transactions still only in its WAL file."""
    db = src_dir / "events.sqlite"
    _make_log(db, events=5)
    live = sqlite3.connect(db, isolation_level=None)
    live.execute("PRAGMA wal_autocheckpoint = 0")
    live.execute("INSERT INTO events (session_id, time, source, event, accepted) "
                 "VALUES (1, 9.0, 'table', '{\"declare\": {\"seat\": 2, \"call\": \"ready\"}}', 1)")
    if user_version is not None:
        live.execute(f"PRAGMA user_version = {user_version}")
    dst_dir.mkdir()
    for name in ("events.sqlite", "events.sqlite-wal"):  # the files as a power cut leaves them
        (dst_dir / name).write_bytes((src_dir / name).read_bytes())
    live.close()
    assert (dst_dir / "events.sqlite-wal").stat().st_size > 0
    return dst_dir / "events.sqlite"


def test_newer_schema_in_a_leftover_wal_is_refused_and_left_untouched(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    db = _crashed_copy(tmp_path / "a", tmp_path / "b", SCHEMA_VERSION + 1)
    _assert_refused_untouched(db, "newer version")


def test_events_in_a_leftover_wal_are_recovered(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    db = _crashed_copy(tmp_path / "a", tmp_path / "b", None)
    with EventLog.open(db) as log:
        assert [r.event for r in log.records(1)][-1] == {"declare": {"seat": 2, "call": "ready"}}


def test_no_room_to_check_a_leftover_wal_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a").mkdir()
    db = _crashed_copy(tmp_path / "a", tmp_path / "b", None)
    nowhere = tmp_path / "not-a-dir"
    nowhere.write_text("")
    monkeypatch.setattr("tempfile.tempdir", str(nowhere))
    before = _snapshot(db.parent)
    with pytest.raises(StoreError, match="no room for a temporary copy .* set TMPDIR"):
        EventLog.open(db)
    assert _snapshot(db.parent) == before


def _damage_pages_beyond_the_first(db: Path) -> None:
    raw = bytearray(db.read_bytes())
    page = 4096
    assert len(raw) > 3 * page
    for offset in range(2 * page, len(raw), 3 * page):  # the header page stays intact
        raw[offset + 100 : offset + 600] = bytes((i * 37 + 11) % 256 for i in range(500))
    db.write_bytes(bytes(raw))


def test_damaged_pages_beyond_the_first_are_refused_in_one_line_by_serve(
        tmp_path: Path) -> None:
    """Issue 11: such a log crashed serve's start-up with tracebacks (exit 3, and systemd
    restarts on failure); now it is one line naming the file and what to do, exit 2."""
    import contextlib
    import io

    from controller.cli import main

    db = tmp_path / "events.sqlite"
    _make_log(db, events=60)
    _damage_pages_beyond_the_first(db)
    _assert_refused_untouched(db, "damaged")
    before = _snapshot(tmp_path)
    for argv in (["serve", "--simulate", "--data-dir", str(tmp_path), "--port", "1"],
                 ["replay", "--db", str(db)]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(argv)
        lines = err.getvalue().splitlines()
        assert code == 2 and len(lines) == 1, err.getvalue()
        assert str(db) in lines[0] and ("recover" in lines[0] or "storage" in lines[0])
        if argv[0] == "serve":
            assert _snapshot(tmp_path) == before  # nothing made, nothing changed
    assert db.read_bytes() == before[db.name]


def test_the_data_directory_is_0700_and_its_files_0600(tmp_path: Path) -> None:
    import os
    import stat

    from controller.store.files import private_dir
    from controller.store.tokens import load_or_create_tokens

    old = os.umask(0o022)  # a permissive umask: the modes must not depend on it
    try:
        data = tmp_path / "data"
        private_dir(data)
        load_or_create_tokens(data)
        _make_log(data / "events.sqlite", events=3)
        with EventLog.open(data / "events.sqlite") as log:
            log.append(1, EVENT, True, None, None, "t", 1.0)
            files = sorted(data.iterdir())
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in files}
    finally:
        os.umask(old)
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert {"events.sqlite", "events.sqlite-wal", "tokens.json"} <= set(modes)
    assert set(modes.values()) == {0o600}, modes
