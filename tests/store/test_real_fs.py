"""A really full and a really read-only file system (a tiny tmpfs): needs mount rights, as
root in a privileged container; skipped where mounting is not allowed. The always-run tests
in test_refusals.py simulate both with SQLite itself (max_page_count, a read-only open)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.store import EventLog, StoreError

EVENT = {"move": {"tile": "9d", "from": "wall", "to": "rack:4"}, "pad": "x" * 400}


class TinyFs:
    def __init__(self, root: Path) -> None:
        self.root = root

    def read_only(self) -> None:
        subprocess.run(["mount", "-o", "remount,ro", str(self.root)], check=True)


@pytest.fixture
def tiny_fs(mount_tmpfs: Callable[[str], Path]) -> TinyFs:
    return TinyFs(mount_tmpfs("256k"))


def test_a_full_disk_stops_appends_with_a_clear_error_and_keeps_the_log(tiny_fs: TinyFs) -> None:
    db = tiny_fs.root / "events.sqlite"
    acked = []
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {}, 0.0)
        with pytest.raises(StoreError) as info:
            for _ in range(10_000):
                acked.append(log.append(sid, EVENT, True, None, None, "table", 0.0))
        assert "disk full; free space or move --data-dir (SQLITE_FULL)" in str(info.value)
        assert [r.seq for r in log.records(sid)] == acked
    assert len(acked) > 10


def test_a_read_only_file_system_is_refused_at_open_and_still_readable(tiny_fs: TinyFs) -> None:
    db = tiny_fs.root / "events.sqlite"
    with EventLog.open(db) as log:
        sid = log.start_session("hua-bao", {}, 0.0)
        seq = log.append(sid, EVENT, True, None, None, "table", 0.0)
    tiny_fs.read_only()
    with pytest.raises(StoreError, match="cannot write the event log at .*SQLITE_CANTOPEN"):
        EventLog.open(db)
    with EventLog.open(db, readonly=True) as reader:  # an archive on a read-only medium
        assert [r.seq for r in reader.records(sid)] == [seq]


def test_a_crashed_log_on_a_read_only_file_system_is_refused_at_open(
    tiny_fs: TinyFs, tmp_path: Path,
) -> None:
    live = EventLog.open(tmp_path / "events.sqlite")
    sid = live.start_session("hua-bao", {}, 0.0)
    live.append(sid, EVENT, True, None, None, "table", 0.0)
    for name in ("events.sqlite", "events.sqlite-wal", "events.sqlite-shm"):
        shutil.copyfile(tmp_path / name, tiny_fs.root / name)  # as a power cut leaves them
    live.close()
    tiny_fs.read_only()
    with pytest.raises(StoreError, match="read-only; make --data-dir writable"):
        EventLog.open(tiny_fs.root / "events.sqlite")
