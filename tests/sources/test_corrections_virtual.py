"""Corrections under `serve --simulate`: the operator's reassign of a misread tile, an undo, a
washout taken back while the players clear the table, and a seat's call, all through the real
hardware path (virtual reader boards over ptys, pyserial, the presence tracker, the store).
The simulated players put back what the controller asks for and play goes on to the hand's
end, every tile where the controller has it and the log replaying to the live state."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import AsyncGenerator, Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from controller.app import build
from controller.config import Config, SessionConfig
from controller.game import lying, replay_lines, replay_summary
from controller.sources.base import Event, EventSource
from controller.sources.simulation import simulation_source
from controller.sources.virtual import SimOptions, SimRun, virtual_table_source
from controller.store import EventLog
from controller.tiles import tile_set
from tests.waiting import until as wait_until

View = dict[str, Any]


def until(check: Callable[[], Any], timeout: float = 240.0, what: str = "",
          status: Callable[[], Any] | None = None) -> Any:
    """tests.waiting.until with this file's give-up time: at a load average of 40 on two cores
    each process gets a twentieth of a core, and a minute of play takes many."""
    return wait_until(check, timeout=timeout, what=what, every=0.02, status=status)


def hand_of(client: TestClient) -> View:
    return client.get("/api/table").json().get("hand") or {}


def _where(service: Any, run: SimRun) -> str:
    """What the table and the players are doing, for a failure's message."""
    state = service.state
    hand = state.hand
    return (f"seq {state.seq}, phase {hand.phase if hand else None}, discard "
            f"{hand.discard if hand else None}, turn {hand.turn if hand else None}, cleared "
            f"{len(state.cleared)}, misplaced {list(state.misplaced)}, complaint "
            f"{run.complaint}, stalls {run.stalls}, error {run.error}")


def _hold_in_play(client: TestClient, run: SimRun, service: Any) -> None:
    """Hold the players while a hand is in play (again, if it ended as they came to hold)."""
    while True:
        until(lambda: hand_of(client).get("phase") == "play", what="a hand in play",
              status=lambda: _where(service, run))
        run.held = True
        until(lambda: run.holding, what="the players holding",
              status=lambda: _where(service, run))
        if hand_of(client).get("phase") == "play":
            return
        run.held = False


@pytest.mark.slow
def test_corrections_on_the_virtual_table(tmp_path: Path) -> None:
    run = SimRun()
    # one 6b's tag is enrolled as a 5b: the first 6b to come off the wall is misread
    options = SimOptions(seed=3, hand_pause=2.0, misread=("6b", "5b"))
    system = build(Config(session=SessionConfig(ruleset="hua-bao")), tmp_path,
                   sources={"table": virtual_table_source(options, run)})
    service = system.loop
    with TestClient(system.app) as client:
        admin = {"Authorization": f"Bearer {system.tokens.admin}"}

        # 1. The misread: the players wait and say where; the operator corrects it.
        complaint = until(lambda: run.complaint if run.complaint and "is" in run.complaint
                          else None, what="a player noticing the misread tile",
              status=lambda: _where(service, run))
        assert complaint["tile"] == "5b" and complaint["is"] == "6b"
        health = client.get("/api/admin/readers", headers=admin).json()["readers"]
        message = health["virtual-table"]["message"]
        assert "the players wait" in message and complaint["zone"] in message
        assert "5b" not in message and "6b" not in message  # no concealed tile named
        # nobody plays meanwhile: watched while the players looked at the table 10 more times
        # (each time they would have played, had they not waited)
        seq, looked = client.get("/api/table").json()["seq"], run.waited
        until(lambda: run.waited >= looked + 10, what="the players looking again",
              status=lambda: _where(service, run))
        assert client.get("/api/table").json()["seq"] == seq
        if complaint["zone"].startswith("rack:"):
            # a rack's misread is its player's to correct, on the seat page (not the operator's)
            assert "seat page" in message
            refused = client.post("/api/admin/reassign", headers=admin, json={
                "zone": complaint["zone"], "tile": "5b", "as": "6b"})
            assert refused.status_code == 422, refused.text
            position = int(complaint["zone"].split(":")[1])
            seat = {"Authorization": f"Bearer {system.tokens.seats[position]}"}
            fixed = client.post(f"/api/seats/{position}/reassign", headers=seat,
                                json={"tile": "5b", "as": "6b"})
        else:
            fixed = client.post("/api/admin/reassign", headers=admin, json={
                "zone": complaint["zone"], "tile": "5b", "as": "6b"})
        assert fixed.status_code == 200 and fixed.json()["accepted"], fixed.text
        # Two steps of play past the correction (itself a step of the log: an undo at once
        # would take the correction back, and the players would rightly wait for it again).
        after_fix = client.get("/api/table").json()["seq"]
        # (the players may be well past it when a busy host lets this thread look again)
        until(lambda: run.complaint is None
              and client.get("/api/table").json()["seq"] >= after_fix + 2,
              what="play after the fix", status=lambda: _where(service, run))
        assert service.status().readers["virtual-table"]["ok"]

        # 2. An undo in play (a discard lies on the pad, or whatever came last; between hands
        # the undo takes back a clearing move or the deal's first tile, as well).
        undone = client.post("/api/admin/undo", headers=admin, json={"count": 1})
        assert undone.status_code == 200 and undone.json()["accepted"], undone.text
        seq = client.get("/api/table").json()["seq"]
        until(lambda: client.get("/api/table").json()["seq"] > seq + 10
              and not hand_of(client).get("out_of_place"), what="play after the undo",
              status=lambda: _where(service, run))

        # 3. The operator ends the hand as a washout; the players clear; the washout is undone.
        # The players are held (SimRun.held: nothing in flight) while the operator acts, and
        # once they have cleared 10 tiles: the loaded run's test looked for the clearing while
        # the players had already cleared and dealt the next hand.
        _hold_in_play(client, run, service)
        number = hand_of(client)["number"]
        ended = client.post("/api/admin/end-hand", headers=admin, json={"result": "washout"})
        assert ended.status_code == 200 and ended.json()["accepted"], ended.text
        washout = ended.json()["seq"]
        unsubscribe = service.subscribe(lambda _change: setattr(run, "held", True)
                                        if len(service.state.cleared) >= 10 else None)
        run.held = False
        until(lambda: run.holding and len(service.state.cleared) >= 10,
              what="the players clearing", status=lambda: _where(service, run))
        unsubscribe()
        back = client.post("/api/admin/undo", headers=admin, json={"count": 1})
        assert back.status_code == 200 and back.json()["accepted"], back.text
        washout_undone = back.json()["seq"]
        run.held = False
        hand = hand_of(client)
        assert hand["number"] == number and hand["phase"] == "play"
        wall = hand["live_wall"]
        # put back and played on: a tile drawn since, or the hand over already (a busy host)
        until(lambda: not hand_of(client).get("out_of_place")
              and (hand_of(client).get("live_wall", wall) < wall
                   or hand_of(client).get("number") != number
                   or hand_of(client).get("phase") == "over"),
              what="put back, play on", status=lambda: _where(service, run))

        # 4. A seat's call reaches the game (the game's own rule answers, not a blanket 409).
        seat = {"Authorization": f"Bearer {system.tokens.seats[2]}"}
        call = client.post("/api/seats/2/declare", headers=seat, json={"call": "ready"})
        assert call.status_code in (200, 409)
        if call.status_code == 409:
            assert call.json()["violation"]["rule"] in ("ready_not_waiting", "dead_hand",
                                                        "no_hand")  # between hands

        # 5. Play goes on to the hand's end.
        # (the next hand may have begun by the time this thread looks: the first is checked)
        until(lambda: len(client.get("/api/table").json()["hands"]) >= 1, timeout=300,
              what="the hand's end", status=lambda: _where(service, run))
        state = service.state
        assert run.error is None and run.stalls == 0
        totals = Counter[str]()
        for counts in lying(state).values():
            totals.update(counts)
        assert totals == Counter(tile_set(False))  # every tile once (no bonus tiles in hua-bao)
        record = state.hands[0]
        assert record.number == number and sum(record.net) == 0

    log = EventLog.open(tmp_path / "events.sqlite")
    try:
        records = list(log.records(service.session_id))
    finally:
        log.close()
    replayed = replay_lines((r.seq, r.event, r.at) for r in records)
    assert replayed == state
    at_undo = replay_lines((r.seq, r.event, r.at) for r in records if r.seq <= washout_undone)
    assert len(at_undo.misplaced) >= 10  # the cleared tiles, to come back from the wall
    # Any other out-of-place tile was moved by a player as the hand ended (a discard on its
    # way to the pad as the operator pressed the button, seen after it): the table saw it
    # go there after the washout, and it is to go back where the restored hand has it.
    after = [r.event["move"] for r in records
             if washout < r.seq <= washout_undone and "move" in r.event]
    others = [m for m in at_undo.misplaced if m[1] != "wall"]
    assert all(any(mv["tile"] == tile and mv["to"] == put for mv in after)
               for tile, put, _ in others), (others, after)
    assert replay_summary(replayed) == replay_summary(state)
    sources = Counter(r.source for r in records)
    # the misread was corrected by the operator or, in a rack, by its seat (seat:N)
    corrections = sources["admin"] + sum(n for s, n in sources.items() if s.startswith("seat:"))
    assert corrections >= 5 and sources["table"] > 100


Stop = tuple[Callable[[Any], bool], threading.Event]


def _stopping_at(source: EventSource, stops: list[Stop]) -> EventSource:
    """``source``, its players stopping at each of ``stops`` in turn: once ``check(loop)``
    holds after an event is applied, until the test sets ``go_on``. The operator's click then
    lands where the test means it to: on a loaded host the players had finished clearing and
    dealt the next hand between the test's look and its undo, which took back a deal move
    (loaded run 10)."""

    async def stopping(loop: Any) -> AsyncGenerator[tuple[Event, str], Any]:
        inner: Any = source(loop)
        applied, left = None, list(stops)
        try:
            while True:
                applied = yield await inner.asend(applied)
                if left and left[0][0](loop):
                    go_on = left.pop(0)[1]
                    while not go_on.is_set():
                        await asyncio.sleep(0.01)
        finally:
            await inner.aclose()

    return stopping


def test_a_washout_taken_back_in_process(tmp_path: Path) -> None:
    """`serve --simulate --in-process`: "end hand as washout", the players start clearing,
    "undo 1": they put the cleared tiles back and play on, no cascade of violations."""
    under_way, clearing = threading.Event(), threading.Event()
    players = _stopping_at(simulation_source(0.01, 11), [
        (lambda loop: loop.state.hand is not None and loop.state.hand.phase == "play"
         and loop.state.hand.live_wall < 60, under_way),
        (lambda loop: len(loop.state.cleared) >= 5, clearing)])
    system = build(Config(session=SessionConfig(ruleset="hua-bao")), tmp_path,
                   sources={"simulation": players})
    loop = system.loop
    with TestClient(system.app) as client:
        admin = {"Authorization": f"Bearer {system.tokens.admin}"}
        until(lambda: hand_of(client).get("phase") == "play"
              and hand_of(client).get("live_wall", 99) < 60, what="a hand well under way")
        number = hand_of(client)["number"]
        ended = client.post("/api/admin/end-hand", headers=admin, json={"result": "washout"})
        assert ended.status_code == 200, ended.text
        under_way.set()
        washout = ended.json()["seq"]
        until(lambda: len(loop.state.cleared) >= 5, what="the players clearing")
        undone = client.post("/api/admin/undo", headers=admin, json={"count": 1})
        assert undone.status_code == 200 and undone.json()["accepted"], undone.text
        violations = len(loop.state.violations)
        undo_seq = undone.json()["seq"]
        hand = hand_of(client)
        assert hand["phase"] == "play" and hand["number"] == number
        clearing.set()
        wall = hand["live_wall"]
        until(lambda: not hand_of(client).get("out_of_place")
              and hand_of(client).get("live_wall", wall) < wall, what="put back, play on")
        # at most the one move decided before the undo arrived is refused (then put back)
        assert len(loop.state.violations) - violations <= 1
        until(lambda: hand_of(client).get("phase") == "over" or hand_of(client)["number"] > number,
              what="the hand's end")
        state = loop.state
        assert state.hands[number - 1].number == number
    log = EventLog.open(tmp_path / "events.sqlite")
    try:
        records = list(log.records(loop.session_id))
    finally:
        log.close()
    assert replay_lines((r.seq, r.event, r.at) for r in records) == state
    at_undo = replay_lines((r.seq, r.event, r.at) for r in records if r.seq <= undo_seq)
    assert len(at_undo.misplaced) >= 5  # the cleared tiles, listed to come back
    # Any other out-of-place tile was moved as the hand ended: the players' move decided just
    # before the washout and recorded after it (a discard as the operator pressed the button;
    # the loaded run's failure), so it lies where that move put it, to go back from there.
    after = [r.event["move"] for r in records if washout < r.seq <= undo_seq and "move" in r.event]
    others = [m for m in at_undo.misplaced if m[1] != "wall"]
    assert all(any(mv["tile"] == tile and mv["to"] == put for mv in after)
               for tile, put, _ in others), (others, after)


@pytest.mark.slow
def test_with_nobody_to_correct_a_misread_the_players_stop_and_say_where(
        tmp_path: Path) -> None:
    """`simulate` has no operator: a misread the players wait on is not waited on for ever
    (loaded run 21 hung until pytest's timeout). After ``agree_timeout`` they stop with the
    zone named, no tile (it may be concealed); before it they wait, as with an operator."""
    run = SimRun()
    options = SimOptions(seed=3, misread=("6b", "5b"), agree_timeout=1.0)
    system = build(Config(session=SessionConfig(ruleset="hua-bao")), tmp_path,
                   sources={"table": virtual_table_source(options, run)})
    with TestClient(system.app):
        complaint = until(lambda: run.complaint if run.complaint and "is" in run.complaint
                          else None, what="a player noticing the misread tile",
                          status=lambda: _where(system.loop, run))
        until(lambda: run.done.is_set(), what="the players stopping",
              status=lambda: _where(system.loop, run))
    assert run.waited > 0 and run.error is not None
    assert run.error.startswith("NobodyCorrects: the game shows in " + complaint["zone"])
    assert "nobody corrected it in 1 s" in run.error
    assert complaint["tile"] not in run.error and complaint["is"] not in run.error
    health = system.loop.status().readers["virtual-table"]
    assert health["ok"] is False and "NobodyCorrects" in health["message"]
