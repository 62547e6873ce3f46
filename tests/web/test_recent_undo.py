"""`recent` offers exactly what undo takes (issue 22): it offered the session's start too, and
an undo of all it offered was refused. After an undo back to the start, the tiles still lying
out are where the game has them (tests/sources/test_undo_to_start.py: the players play on)."""

from __future__ import annotations

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
