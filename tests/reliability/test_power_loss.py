"""Power loss: `serve --simulate` killed with SIGKILL at random moments and restarted. Nothing
the API had shown (acknowledged) is lost, and the state after restart is the log's replay.

CI runs a few rounds; ``RELIABILITY_KILLS=20`` runs the full proof by hand (RELIABILITY.md).
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.support import Served, hand_facts, last_seq, replay_db

ROUNDS = int(os.environ.get("RELIABILITY_KILLS", "3"))
SERVE_ARGS = ("--simulate", "--pace", "0.01", "--seed", "11", "--log-level", "warning")


class Acknowledged:
    """The most the API has shown so far: its seq and the finished hands."""

    def __init__(self) -> None:
        self.seq = 0
        self.hands: list[dict[str, Any]] = []

    def observe(self, served: Served) -> None:
        seq = int(served.get("/api/table")["seq"])
        hands = hand_facts(served.get("/api/hands")["hands"])
        assert seq >= self.seq, f"the API went back from seq {self.seq} to {seq}"
        assert hands[: len(self.hands)] == self.hands, "a finished hand changed"
        self.seq, self.hands = seq, hands


def consistent_snapshot(served: Served) -> tuple[int, dict[str, Any]]:
    """(seq, /api/hands) read while no event came in between (the game keeps moving)."""
    for _ in range(200):
        before = served.get("/api/table")["seq"]
        hands = served.get("/api/hands")
        if served.get("/api/table")["seq"] == before:
            return int(before), hands
    raise AssertionError("could not read the hands between two events")


def assert_is_replay(served: Served, db: Path) -> None:
    """The restarted service shows what replaying its log gives (the game may have moved on:
    the API's finished hands are the replay's first hands, totals equal when counts do)."""
    _, api = consistent_snapshot(served)
    replay = replay_db(db)
    shown = hand_facts(api["hands"])
    assert shown == hand_facts(replay["hands"])[: len(shown)]
    if len(replay["hands"]) == len(shown):
        assert {str(k): v for k, v in api["totals"].items()} == replay["totals"]


def moves_on(served: Served, seq: int, within: float = 30.0) -> float:
    """Seconds until the restarted game goes past ``seq`` (a finished hand pauses 3 s)."""
    start = time.monotonic()
    while time.monotonic() - start < within:
        if int(served.get("/api/table")["seq"]) > seq:
            return time.monotonic() - start
        time.sleep(0.05)
    readers = served.get("/api/health")["readers"]
    raise AssertionError(f"the game stayed at seq {seq} for {within} s after the restart "
                         f"(readers {readers}):\n"
                         + served.log()[-3000:])


def play_and_kill(served: Served, ack: Acknowledged, rng: random.Random, starting: bool) -> str:
    """Pull the plug at a random moment: while the service starts (and replays its log), or
    0.2-3 s into play, watching the API until then."""
    if starting:
        time.sleep(rng.uniform(0.05, 1.5))
        served.kill()
        return "while starting"
    served.wait_ready()
    moment = rng.uniform(0.2, 3.0)
    start = time.monotonic()
    while time.monotonic() - start < moment:
        ack.observe(served)
        time.sleep(rng.uniform(0.0, 0.05))
    served.kill()
    return f"{moment:.2f} s into play"


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    data, log = tmp_path / "data", tmp_path / "serve.log"
    db = data / "events.sqlite"
    rng = random.Random(int(os.environ.get("RELIABILITY_SEED", "2026")))
    ack = Acknowledged()
    figures: list[str] = []
    for round_ in range(ROUNDS):
        served = Served(data, log, *SERVE_ARGS)
        starting = rng.random() < 0.2  # one kill in five while the service starts
        if round_ and not starting:
            ready = served.wait_ready()
            ack.observe(served)  # raises when an acknowledged event or hand is gone
            assert_is_replay(served, db)
            moving = moves_on(served, ack.seq)
            figures.append(f"  back in {ready:.2f} s at seq {ack.seq}, equal to the replay, "
                           f"moving again {moving:.2f} s later")
        moment = play_and_kill(served, ack, rng, starting)
        stored = last_seq(db) if db.exists() else 0
        assert stored >= ack.seq, f"acknowledged seq {ack.seq}, only {stored} in the log"
        figures.append(f"kill {round_ + 1} {moment}: acknowledged seq {ack.seq}, "
                       f"logged {stored}")
    served = Served(data, log, *SERVE_ARGS)
    served.wait_ready()
    ack.observe(served)
    stopped = served.client.delete("/api/admin/session", headers=served.admin())
    assert stopped.status_code == 200, stopped.text
    table, hands = served.get("/api/table"), served.get("/api/hands")
    served.kill()
    replay = replay_db(db)
    assert table["seq"] == last_seq(db) >= ack.seq
    assert hand_facts(hands["hands"]) == hand_facts(replay["hands"])
    assert {str(k): v for k, v in hands["totals"].items()} == replay["totals"]
    print(f"\npower loss: {ROUNDS} kills, final seq {table['seq']}, "
          f"{len(replay['hands'])} hands, 0 acknowledged events lost")
    print("\n".join(figures))
