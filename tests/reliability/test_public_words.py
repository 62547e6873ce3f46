"""No concealed tile in any public word (issue 11), held over whole sessions.

Simulated players play through the real service and app while, at random moments, seats call
Mahjong with incomplete hands, the operator takes events back, ends hands as washouts (and takes
those back), reassigns tiles in public zones, and players correct tiles in their own racks.
After every step every text of the public view (`/api/table`: violations, put-back hints, the
whole document) and every answer the operator gets is checked: no tile code that lies concealed
in a rack at that moment appears in any word. Racks are read straight from the game state."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.support import Table

CODE = re.compile(r"\b([1-9][bcd]|[eswn]w|[rgw]d|[fs][1-4])\b")
TILES = [f"{n}{s}" for s in "bcd" for n in range(1, 10)] + [
    "ew", "sw", "ww", "nw", "rd", "gd", "wd"]


def concealed_now(table: Table) -> set[str]:
    hand = table.loop.state.hand
    if hand is None or hand.phase == "over":
        return set()
    return {t for seat in hand.seats for t in seat.rack}


def words(doc: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string of a JSON document that is words (has a space), with where it is."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from words(value, f"{path}.{key}")
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from words(value, f"{path}[{i}]")
    elif isinstance(doc, str) and " " in doc.strip():
        yield path, doc


def leaks(doc: Any, concealed: set[str]) -> list[tuple[str, str]]:
    found = [(where, text) for where, text in words(doc)
             if any(code in concealed for code in CODE.findall(text))]
    hand = (doc.get("hand") or {}) if isinstance(doc, dict) else {}
    for entry in hand.get("out_of_place") or []:
        if str(entry.get("zone", "")).startswith("rack") and entry.get("tile") is not None:
            found.append(("out_of_place", str(entry)))
    return found


class Hostile:
    """The disturbances, each through the real HTTP API with the right token."""

    def __init__(self, table: Table, rng: random.Random) -> None:
        self.table = table
        self.rng = rng
        self.answers: list[tuple[str, Any]] = []  # what the operator was told
        self.counts: dict[str, int] = {}

    def act(self) -> None:
        kind = self.rng.choice(["mahjong", "undo", "washout", "reassign", "seat_fix"])
        self.counts[kind] = self.counts.get(kind, 0) + 1
        getattr(self, kind)()

    def _admin(self, path: str, body: dict[str, Any]) -> None:
        r = self.table.client.post(path, json=body, headers=self.table.admin())
        assert r.status_code in (200, 409), (path, body, r.status_code, r.text)
        self.answers.append((path, r.json()))

    def mahjong(self) -> None:
        seat = self.rng.randint(1, 4)
        r = self.table.client.post(f"/api/seats/{seat}/declare", json={"call": "mahjong"},
                                   headers=self.table.seat(seat))
        assert r.status_code in (200, 409), r.text

    def undo(self) -> None:
        self._admin("/api/admin/undo", {"count": self.rng.randint(1, 3)})

    def washout(self) -> None:
        self._admin("/api/admin/end-hand", {"result": "washout"})
        if self.rng.random() < 0.7:
            self._admin("/api/admin/undo", {"count": 1})

    def reassign(self) -> None:
        zone = self.rng.choice(["discard", "river", "melds:1", "melds:2", "melds:3", "melds:4"])
        self._admin("/api/admin/reassign", {"zone": zone, "tile": self.rng.choice(TILES),
                                            "as": self.rng.choice(TILES)})

    def seat_fix(self) -> None:
        seat = self.rng.randint(1, 4)
        r = self.table.client.post(
            f"/api/seats/{seat}/reassign", headers=self.table.seat(seat),
            json={"tile": self.rng.choice(TILES), "as": self.rng.choice(TILES)})
        assert r.status_code in (200, 409), r.text


@pytest.mark.parametrize("seed", [3, 11])
def test_no_public_word_names_a_concealed_tile(table: Table, seed: int) -> None:
    rng = random.Random(seed)
    hostile = Hostile(table, rng)
    checked = violations = 0
    for _ in range(500):
        if rng.random() < 0.12:
            hostile.act()
        elif table.step() is None:
            break
        concealed = concealed_now(table)
        public = table.client.get("/api/table").json()
        assert leaks(public, concealed) == [], (hostile.counts, public.get("hand"))
        for path, answer in hostile.answers:
            assert leaks(answer, concealed) == [], (path, answer)
        hostile.answers.clear()
        checked += 1
        violations += bool((public.get("hand") or {}).get("last_violation"))
    assert checked > 200 and violations > 0 and len(hostile.counts) == 5, hostile.counts
    print(f"\nseed {seed}: {checked} public views checked, disturbances {hostile.counts}")


def test_the_check_sees_a_leak() -> None:
    """The checker itself: a concealed code in a message is found, a public one is not."""
    doc = {"hand": {"last_violation": {"message": "South's hand with the 8c is not complete"},
                    "out_of_place": [{"tile": "1d", "zone": "rack:2", "back_to": "wall"}]}}
    assert len(leaks(doc, {"8c"})) == 2
    assert leaks({"message": "the 5b goes to the river"}, {"8c"}) == []
