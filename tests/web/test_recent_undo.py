"""`recent` offers exactly what undo takes (issue 22): it offered the session's start too, and
an undo of all it offered was refused. After an undo back to the start, the tiles still lying
out are where the game has them (tests/sources/test_undo_to_start.py: the players play on)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from controller.game import lying
from tests.web.support import Table


@pytest.mark.parametrize("steps", [1, 7, 30, 80])
def test_recent_offers_exactly_what_undo_takes(table: Table, steps: int) -> None:
    for _ in range(steps):
        table.step()
    admin = table.admin()
    available = table.client.get("/api/admin/recent?count=50", headers=admin).json()["available"]
    listed = table.client.get("/api/admin/recent?count=50", headers=admin).json()["events"]
    assert len(listed) == available == min(steps, 50)
    assert not any(text.startswith("Session started") for text in listed)
    preview = table.client.get(f"/api/admin/undo?count={available}", headers=admin).json()
    assert len(preview["takes_back"]) == available
    if available < 50:  # one more than offered is refused, and changes nothing
        more = table.client.post("/api/admin/undo", headers=admin, json={"count": available + 1})
        assert more.status_code == 409, more.text
    done = table.client.post("/api/admin/undo", headers=admin, json={"count": available})
    assert done.status_code == 200, done.text
    again = table.client.get("/api/admin/recent?count=50", headers=admin).json()
    assert again["available"] == len(again["events"]) == min(steps - available, 50)
    if steps <= 50:  # back at the start: the tiles lying out are where the game has them
        state = table.loop.state
        assert state.hand is None and again["events"] == []
        if state.misplaced:
            out = {z: +c for z, c in lying(state).items() if z not in ("wall", "river", "off")}
            assert sum(sum(c.values()) for c in out.values()) == len(state.misplaced)


def test_riichi_steps_in_words(make_table: Callable[..., Table]) -> None:
    """What the operator page lists for riichi's own steps: the indicator laid, a riichi
    declared and standing, two rons on one discard, a chombo and its take-back refused."""
    from tests.game import test_riichi_rules as rr

    table = make_table("riichi")
    log = rr.several_rons()
    for event in log.events[1:]:
        assert table.submit(event).accepted, event
    admin = table.admin()

    def recent() -> list[str]:
        got: list[str] = table.client.get("/api/admin/recent?count=50",
                                          headers=admin).json()["events"]
        return got

    assert recent()[0] == "Hand 1: Ron by Seat 2, Seat 3"  # the newest first, both winners
    log.new_hand()
    for event in log.deal({2: rr.EAST, 3: rr.SOUTH, 4: rr.WEST, 1: rr.NORTH}).events[-53:]:
        assert table.submit(event).accepted, event
    for event, words in (({"move": {"tile": "9b", "from": "wall", "to": "dora"}},
                          "A dora indicator was laid: 9b"),
                         ({"declare": {"seat": 2, "call": "ready"}}, "Seat 2 declared riichi")):
        assert table.submit(event).accepted, event
        assert recent()[0] == words
    assert table.submit({"move": {"tile": "nw", "from": "rack:2", "to": "discard"}}).accepted
    assert recent()[0] == "Seat 2 discarded nw; Seat 2's riichi stands (1,000 on the table)"
    given = table.client.post("/api/admin/penalty", headers=admin,
                              json={"kind": "chombo", "seat": 3})
    assert given.status_code == 200, given.text
    assert recent()[0] == "Chombo: Seat 3; hand 2 is void and replayed"
    refused = table.client.delete("/api/admin/penalty/1", headers=admin)
    assert refused.status_code == 409 and "undo" in refused.text, refused.text
