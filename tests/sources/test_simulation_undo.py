"""An operator's undo during the deal under ``serve --simulate --in-process``: the undo reaches
the game while the simulated players' next dealt tile is queued behind it (pace 0 makes that
likely). The players put back what the controller lists as out of place, deal on, and play goes
on; every tile once, the stored log replaying to the live state."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.app import build
from controller.config import Config, SessionConfig
from controller.game import lying, replay_lines
from controller.sources.simulation import simulation_source
from controller.store import EventLog
from controller.tiles import tile_set
from tests.waiting import until


@pytest.mark.parametrize("dealt", [15, 35, 45])
def test_an_undo_during_the_deal_and_play_goes_on(tmp_path: Path, dealt: int) -> None:
    system = build(Config(session=SessionConfig(ruleset="hua-bao")), tmp_path,
                   sources={"simulation": simulation_source(0.0, 3)})
    loop = system.loop
    with TestClient(system.app) as client:
        admin = {"Authorization": f"Bearer {system.tokens.admin}"}
        until(lambda: loop.state.hand is not None and loop.state.hand.drawn >= dealt,
              what="the deal under way", every=0.002)  # often: the deal is quick
        undo = client.post("/api/admin/undo", json={"count": 1}, headers=admin)
        assert undo.status_code == 200
        until(lambda: loop.state.hand is not None and loop.state.hand.phase == "play"
              and loop.state.hand.discards_total >= 4 and not loop.state.misplaced,
              what="the deal finished and play going on")
    state, session = loop.state, loop.session_id  # the service stopped: nothing plays on
    totals: Counter[str] = Counter()
    for counts in lying(state).values():
        totals.update(counts)
    assert totals == Counter(tile_set(False))  # every tile once (no bonus tiles in hua-bao)
    log = EventLog.open(tmp_path / "events.sqlite")
    try:
        records = list(log.records(session))
    finally:
        log.close()
    assert replay_lines((r.seq, r.event, r.at) for r in records) == state
    assert any(r.source == "admin" and "correct" in r.event for r in records)
