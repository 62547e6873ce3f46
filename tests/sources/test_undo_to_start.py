"""Undo back to the session's start (issue 22): `recent` and undo agree, and the game goes on.

After a new session, an undo of all but one of the events `recent` offered left the hand null
and the simulated players waiting for good ("seat 2 says a tile in rack:2 is not the tile
shown"): the tiles still lying out were not part of where the game said tiles lie once no hand
had begun. A further undo was refused, `recent` offered one event more than undo took, and a
new session did not bring play back. Here the virtual table over the serial path through the
real app (tests/web/test_recent_undo.py: `recent` against undo)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from controller.app import build
from controller.config import Config, SessionConfig
from controller.game import apply, new_game
from controller.sources.virtual import SimOptions, SimRun, virtual_table_source
from tests.waiting import until

#: seconds the players look at a finished hand's result (SimOptions.hand_pause)
REST = 2.0


def _where(loop: Any, run: SimRun) -> str:
    """Where the game and the players stood, for a failure's message."""
    hand = loop.state.hand
    return (f"seq {loop.seq}, phase {hand.phase if hand else None}, misplaced "
            f"{list(loop.state.misplaced)}, complaint {run.complaint}, stalls {run.stalls}, "
            f"error {run.error}")


def test_the_virtual_table_plays_on_after_an_undo_to_the_start(tmp_path: Path) -> None:
    """The operator takes back every step `recent` offers, in turns of up to 50, while the
    players keep their hands off the table (``SimRun.held``: they hold once their last act is
    registered, so nothing is in flight and the undo lands on the session's start exactly;
    not a pause of some seconds, which a busy host outlasted); then they put the tiles back
    and play on."""
    run = SimRun()
    # seed 13: a first hand won on a discard (the rest's case below), 158 events with the
    # table cleared (seed 3's: 234)
    options = SimOptions(seed=13, pace=0.01, hand_pause=REST)
    system = build(Config(session=SessionConfig(ruleset="hua-bao")), tmp_path,
                   sources={"table": virtual_table_source(options, run)})
    loop = system.loop
    with TestClient(system.app) as client:
        admin = {"Authorization": f"Bearer {system.tokens.admin}"}
        assert client.post("/api/admin/session", headers=admin,
                           json={"ruleset": "hua-bao", "options": {}}).status_code == 200
        until(lambda: loop.state.hand is not None and loop.state.hand.phase == "over",
              240, what="the first hand played out", status=lambda: _where(loop, run))
        run.held = True
        until(lambda: run.holding, 240, what="the players holding",
              status=lambda: _where(loop, run))
        while available := client.get("/api/admin/recent?count=50",
                                      headers=admin).json()["available"]:
            undo = client.post("/api/admin/undo", headers=admin, json={"count": available})
            assert undo.status_code == 200, undo.text
        assert loop.state.hand is None  # the start; the tiles that lay out are to go back
        _rested_after_the_hand(loop)
        seq = loop.seq
        run.held = False
        until(lambda: loop.seq > seq + 60 and (loop.state.hand is not None
                                                and loop.state.hand.phase == "play"), 240,
              what="the players putting the tiles back and playing on",
              status=lambda: _where(loop, run))
        assert run.error is None and run.complaint is None, (run.error, run.complaint)
        # and a new session brings play back too
        assert client.post("/api/admin/session", headers=admin,
                           json={"ruleset": "dmjl", "options": {}}).status_code == 200
        seq = loop.seq
        until(lambda: loop.seq > seq + 60, 240, what="play in the new session",
              status=lambda: _where(loop, run))
        assert loop.state.ruleset_name == "dmjl" and run.error is None


def _rested_after_the_hand(loop: Any) -> None:
    """The players looked at the first hand's result for ``REST`` seconds before they touched
    a tile: the event after the one that ended the hand came at least that long after it (a
    lower bound: a busy host only makes the gap longer; the event after it may be the undo,
    posted once the players held, after their rest). Before, the rest was decided right
    after the act that ends the hand, before the table had registered it, so a hand won on a
    discard was cleared at once."""
    records = list(loop._store.records(loop.session_id))
    state = new_game()
    for i, record in enumerate(records):
        state = apply(state, record.event, record.time).state
        if state.hand is not None and state.hand.phase == "over":
            after = records[i + 1:]
            assert after, "no event after the hand's end"
            assert after[0].time - record.time >= REST, (record.event, after[0].event)
            return
    raise AssertionError("the first hand's end is not in the log")
