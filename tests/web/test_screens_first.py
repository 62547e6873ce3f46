"""The screens draw a move while its record is synced; everything else hears of it once it is
durable; a record that fails to sync is taken back out of the game (docs/store.md)."""

from __future__ import annotations

import os
import resource
from pathlib import Path
from typing import Any

from controller.loop import Change
from controller.store import EventLog
from tests.web.support import Table, hand_over, in_play


def _recorded(path: Path) -> int:
    """The last seq another process would read in the log now."""
    with EventLog.open(path, readonly=True) as log:
        return log.last_seq()


def _log_path(table: Table) -> Path:
    return table.loop.data_dir / "events.sqlite"


def test_screens_see_a_change_as_it_syncs_the_others_once_it_is_durable(table: Table) -> None:
    table.play_until(in_play)
    path = _log_path(table)
    heard: list[tuple[str, int, int, int]] = []

    def hear(who: str) -> Any:
        def listener(change: Change) -> None:
            heard.append((who, change.seq, table.loop.seq, _recorded(path)))
        return listener

    table.loop.subscribe(hear("screen"), screen=True)
    table.loop.subscribe(hear("table"))
    for _ in range(5):
        before = table.loop.seq
        heard.clear()
        table.step()
        screen, rest = heard
        # the screen is told of the new state while the log does not yet have it for readers
        assert screen[0] == "screen" and screen[1] == screen[2] > before
        assert screen[3] == before
        # the others once it is there
        assert rest == ("table", screen[1], screen[1], screen[1])


def test_a_record_that_fails_to_sync_is_taken_back_and_recording_halts(table: Table) -> None:
    table.play_until(in_play)
    path = _log_path(table)
    wal = Path(f"{path}-wal")
    assert wal.stat().st_size > 0
    seq, hand = table.loop.seq, table.client.get("/api/table").json()["hand"]
    told: list[tuple[str, int, bool]] = []
    table.loop.subscribe(lambda c: told.append(("screen", c.seq, c.applied is not None)),
                         screen=True)
    table.loop.subscribe(lambda c: told.append(("table", c.seq, c.applied is not None)))
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    # The disk takes nothing more: the WAL cannot grow (a full SD card), so the commit fails.
    resource.setrlimit(resource.RLIMIT_FSIZE, (os.path.getsize(wal), hard))
    try:
        res = table.client.post("/api/seats/1/declare", json={"call": "ready"},
                                headers=table.seat(1))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert res.status_code == 503 and "cannot be written" in res.json()["detail"]
    # The screens were told of the move, then that it was taken back; the table only of the halt.
    assert told == [("screen", seq + 1, True), ("screen", seq, False), ("table", seq, False)]
    assert table.loop.seq == seq == _recorded(path)
    view = table.client.get("/api/table").json()
    assert view["hand"] == hand and "cannot be written" in view["service"]["halted"]
    # Space again: recording resumes and the game goes on from the recorded state.
    assert table.client.post("/api/admin/resume", headers=table.admin()).status_code == 200
    table.play_until(hand_over)
    assert table.loop.seq == _recorded(path) > seq
