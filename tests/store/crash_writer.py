"""Crash-test writer: appends events to the log forever, printing each seq once append returned.

Run as ``python crash_writer.py DB``; the test kills it with SIGKILL at a random moment.
"""

from __future__ import annotations

import sys

from controller.store import EventLog


def main(db: str) -> None:
    log = EventLog.open(db)
    latest = log.latest_session()
    session = latest.id if latest is not None else log.start_session("hua-bao", {}, 0.0)
    n = 0
    while True:
        n += 1
        event = {"timer": {"seat": 1 + n % 4, "kind": "turn", "overrun": float(n)}}
        seq = log.append(session, event, n % 3 != 0, None, None, "crash-test", float(n))
        # Acknowledged only now: the append has committed.
        sys.stdout.write(f"{seq} {n}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1])
