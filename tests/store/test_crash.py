"""Kill a writer with SIGKILL at random moments: no event it acknowledged may be lost."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from controller.store import EventLog

WRITER = Path(__file__).with_name("crash_writer.py")
ROUNDS = 8


def _run_and_kill(db: Path, rng: random.Random) -> list[tuple[int, int]]:
    """Start the writer, let it append for a random while, SIGKILL it; return what it acked."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[2]))
    proc = subprocess.Popen([sys.executable, str(WRITER), str(db)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    first = proc.stdout.readline()  # wait until it really writes, then kill mid-stream
    assert first, proc.stderr.read().decode() if proc.stderr else "writer died"
    time.sleep(rng.uniform(0.02, 0.4))
    proc.send_signal(signal.SIGKILL)
    rest, _ = proc.communicate(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    text = first.decode() + rest.decode()
    acked = []
    for line in text.split("\n")[:-1]:  # the last piece may be a half-written line
        seq, n = line.split()
        acked.append((int(seq), int(n)))
    return acked


def test_no_acknowledged_event_is_lost_after_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "events.sqlite"
    rng = random.Random(int.from_bytes(os.urandom(4), "big"))
    acked: dict[int, int] = {}
    for _ in range(ROUNDS):
        round_acked = _run_and_kill(db, rng)
        assert round_acked, "the writer acknowledged nothing before it was killed"
        acked.update(round_acked)
        with EventLog.open(db) as log:  # reopen after each crash, as a restarted service would
            info = log.session()
            stored = {r.seq: r for r in log.records(info.id)}
        missing = sorted(set(acked) - set(stored))
        assert not missing, f"acknowledged but lost: {missing[:10]}"
        for seq, n in acked.items():
            assert stored[seq].event["timer"]["overrun"] == float(n)
            assert stored[seq].accepted == (n % 3 != 0)
    assert len(acked) > ROUNDS
