"""A full disk or a read-only data directory under a running `serve --simulate`: the service
stops accepting moves and says why (/api/health, /api/table, its log) instead of playing on
unrecorded; everything the API showed is in the log.

The file-size limit (RLIMIT_FSIZE set on the running service: every write past it fails) runs
everywhere; a really full tiny tmpfs and a tmpfs remounted read-only need mount rights (root in
a privileged container) and are skipped elsewhere.
"""

from __future__ import annotations

import resource
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.reliability.support import Served, last_seq, replay_db

SERVE_ARGS = ("--simulate", "--pace", "0.01", "--seed", "5", "--log-level", "info")
Fault = Callable[[Served], None]


@pytest.fixture
def tmpfs(mount_tmpfs: Callable[[str], Path]) -> Path:
    return mount_tmpfs("320k")


def wait_until(what: str, check: Callable[[], bool], served: Served, timeout: float = 60) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if check():
            return time.monotonic() - start
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen within {timeout} s:\n{served.log()[-3000:]}")


def assert_stops_and_says_why(served: Served, fault: Fault) -> dict[str, float]:
    """Play, cause ``fault``, and check the service stops recording, visibly and honestly."""
    served.wait_ready()
    wait_until("the game moving", lambda: served.get("/api/table")["seq"] > 20, served)
    fault(served)
    halted_in = wait_until("the halt", lambda: not served.get("/api/health")["ok"], served)
    health, table = served.get("/api/health"), served.get("/api/table")
    assert health["accepting_moves"] is False
    assert "event log" in health["halted"] and health["halted"] == table["service"]["halted"]
    assert table["service"]["accepting_moves"] is False
    seat = served.tokens()["seats"]["1"]
    declared = served.client.post("/api/seats/1/declare", json={"call": "ready"},
                                  headers={"Authorization": f"Bearer {seat}"})
    assert declared.status_code == 503 and "event log" in declared.json()["detail"]
    seq = table["seq"]
    # the simulation's next move came and was held back (pump.py logs it): nothing more shown
    wait_until("a move held back", lambda: "waits: " in served.log(), served)
    assert served.get("/api/table")["seq"] == seq
    assert "STOPPED accepting moves" in served.log()
    served.kill()
    logged = last_seq(served.data_dir / "events.sqlite")
    assert logged == seq, f"the API showed seq {seq}, the log holds {logged}"
    return {"seq": seq, "halted_in": halted_in}


def test_a_file_size_limit_stops_moves_with_the_reason_shown(tmp_path: Path) -> None:
    def no_more_bytes(served: Served) -> None:
        resource.prlimit(served.proc.pid, resource.RLIMIT_FSIZE, (0, 0))

    served = Served(tmp_path / "data", tmp_path / "serve.log", *SERVE_ARGS)
    try:
        figures = assert_stops_and_says_why(served, no_more_bytes)
    finally:
        served.kill()
    print(f"\nfile size limit: stopped at seq {figures['seq']}, "
          f"{figures['halted_in']:.2f} s after the limit")


@pytest.mark.slow
def test_a_full_disk_stops_moves_with_the_reason_shown(tmpfs: Path, tmp_path: Path) -> None:
    served = Served(tmpfs / "data", tmp_path / "serve.log", *SERVE_ARGS)
    try:
        figures = assert_stops_and_says_why(served, lambda s: None)  # it fills up by itself
    finally:
        served.kill()
    assert "SQLITE_FULL" in served.log() or "full" in served.log()
    print(f"\nfull 320 KiB tmpfs: stopped at seq {figures['seq']}")


@pytest.mark.slow
def test_a_read_only_data_directory_at_start_takes_no_moves_and_says_why(
    tmpfs: Path, tmp_path: Path
) -> None:
    """The file system went read-only (as the kernel does after an I/O error) and the table was
    restarted. A live remount is refused while the service holds files open for writing; the
    live failure is the file-size limit test above."""
    log = tmp_path / "serve.log"
    served = Served(tmpfs / "data", log, *SERVE_ARGS)
    served.wait_ready()
    wait_until("the game moving", lambda: served.get("/api/table")["seq"] > 20, served)
    served.kill()
    db = tmpfs / "data" / "events.sqlite"
    before = last_seq(db)
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    served = Served(tmpfs / "data", log, *SERVE_ARGS)
    try:
        served.wait_ready()
        wait_until("the simulation's move held back", lambda: "waits: " in served.log(), served)
        health, table = served.get("/api/health"), served.get("/api/table")
        assert health["ok"] is False and health["accepting_moves"] is False
        assert "event log" in health["halted"] and table["service"]["halted"] == health["halted"]
        assert table["seq"] == before  # the recorded game is shown, read from the log
        seat = served.tokens()["seats"]["1"]
        declared = served.client.post("/api/seats/1/declare", json={"call": "ready"},
                                      headers={"Authorization": f"Bearer {seat}"})
        assert declared.status_code == 503
        assert "STOPPED accepting moves" in served.log()
    finally:
        served.kill()
    assert last_seq(db) == before
    print(f"\nread-only at start: halted with {health['halted']!r}")


def test_after_a_full_disk_resume_plays_on_under_simulate(tmp_path: Path) -> None:
    """Issue 11: after a halt and `POST /api/admin/resume` the virtual table stood still for
    good (its move in flight was dropped, so the table was a move ahead of the game). Now the
    table's event waits while recording is halted and is recorded once it resumes."""
    served = Served(tmp_path / "data", tmp_path / "serve.log", *SERVE_ARGS)
    try:
        served.wait_ready()
        wait_until("the game moving", lambda: served.get("/api/table")["seq"] > 20, served)
        soft, hard = resource.prlimit(served.proc.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(served.proc.pid, resource.RLIMIT_FSIZE, (0, hard))  # "disk full"
        wait_until("the halt", lambda: not served.get("/api/health")["ok"], served)
        seq = served.get("/api/table")["seq"]
        wait_until("a move held back", lambda: "waits: " in served.log(), served)
        resource.prlimit(served.proc.pid, resource.RLIMIT_FSIZE, (soft, hard))  # space again
        resumed = served.client.post("/api/admin/resume", headers=served.admin())
        assert resumed.status_code == 200
        wait_until("the game moving on", lambda: served.get("/api/table")["seq"] > seq + 20,
                   served, timeout=60)
        assert served.get("/api/health")["ok"]
    finally:
        served.kill()
    replayed = replay_db(served.data_dir / "events.sqlite")
    assert replayed["violations"] == [] or all(
        v["rule"] != "engine_error" for v in replayed["violations"])
