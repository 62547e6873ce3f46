"""The operator's answers do not depend on what the racks hold (issue 22).

The attack: 34 refused `POST /api/admin/reassign` with `zone: river`, one per tile kind. The
answers said "holds no a concealed tile" exactly for the kinds lying in some rack and named the
kind otherwise, so all 23 concealed kinds were found. Now, for every open zone, the answers to
the kinds that zone does not hold are one answer with the typed code put in; and whether a
correction of an open tile is taken follows from the open tiles alone (a fifth copy is judged
by what the operator can see)."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from tests.web.support import Table

KINDS = [f"{n}{s}" for s in "bcd" for n in range(1, 10)] + [
    "ew", "sw", "ww", "nw", "rd", "gd", "wd"]


def _open_tiles(view: dict[str, Any]) -> Counter[str]:
    """The tiles the public view shows lying open (as the operator sees the table)."""
    hand = view["hand"]
    tiles: list[str] = []
    if hand.get("discard"):
        tiles.append(hand["discard"]["tile"])
    for seat in hand["seats"].values():
        tiles += seat["river"] + seat["forming"] + seat["bonus"]
        tiles += [t for meld in seat["melds"] for t in meld["tiles"]]
    return Counter(tiles)


def _in_zone(view: dict[str, Any], zone: str) -> set[str]:
    hand = view["hand"]
    if zone == "discard":
        return {hand["discard"]["tile"]} if hand.get("discard") else set()
    if zone.startswith("melds:"):
        seat = hand["seats"][zone.split(":")[1]]
        return set(seat["forming"]) | set(seat["bonus"])
    return set()


def _normal(answer: dict[str, Any], tile: str, as_: str) -> str:
    """The answer with the typed codes put back as placeholders, and no seq."""
    body = {k: v for k, v in answer.items() if k != "seq"}
    text = json.dumps(body, sort_keys=True)
    text = re.sub(rf"\b{tile}\b", "<TILE>", text)
    return re.sub(rf"\b{as_}\b", "<AS>", text)


def _racks(table: Table) -> set[str]:
    hand = table.loop.state.hand
    assert hand is not None
    return {t for seat in hand.seats for t in seat.rack}


def _play_some(table: Table, discards: int) -> dict[str, Any]:
    def enough(view: dict[str, Any]) -> bool:
        hand = view.get("hand") or {}
        rivers = sum(len(s["river"]) for s in (hand.get("seats") or {}).values())
        return hand.get("phase") == "play" and rivers >= discards and bool(hand.get("discard"))

    return table.play_until(enough)


@pytest.mark.parametrize("zone", ["river", "discard", "melds:1", "melds:2", "melds:3",
                                  "melds:4"])
def test_refused_reassigns_of_all_34_kinds_say_the_same(table: Table, zone: str) -> None:
    view = _play_some(table, 8)
    concealed = _racks(table)
    assert concealed and set(KINDS) - concealed, "the racks must hold some kinds and lack some"
    seq = table.loop.seq
    answers: dict[str, set[str]] = {}
    for i, kind in enumerate(KINDS):
        if kind in _in_zone(view, zone):
            continue  # the zone shows it: its answer may differ, by what all can see
        as_ = KINDS[(i + 7) % len(KINDS)]
        r = table.client.post("/api/admin/reassign", headers=table.admin(),
                              json={"zone": zone, "tile": kind, "as": as_})
        assert r.status_code == 409, (kind, r.text)
        answers.setdefault(_normal(r.json(), kind, as_), set()).add(kind)
    assert len(answers) == 1, {k: sorted(v) for k, v in answers.items()}
    assert table.loop.state.hand is not None and table.loop.seq > seq
    assert _racks(table) == concealed  # nothing changed in the game


def test_a_correction_of_an_open_tile_is_taken_by_the_open_tiles_alone(table: Table) -> None:
    """The live discard read as each of the 34 kinds in turn: taken unless the table already
    shows all four copies of that kind, whatever the racks hold (before, a kind with copies in
    racks was refused as a fifth copy: the refusal told the racks' count)."""
    view = _play_some(table, 8)
    tile = view["hand"]["discard"]["tile"]
    refused, taken = [], []
    for as_ in KINDS:
        if as_ == tile:
            continue
        now = table.client.get("/api/table").json()
        expected_ok = _open_tiles(now)[as_] + 1 <= 4
        r = table.client.post("/api/admin/reassign", headers=table.admin(),
                              json={"zone": "discard", "tile": tile, "as": as_})
        assert (r.status_code == 200) == expected_ok, (as_, r.text, _open_tiles(now)[as_])
        if r.status_code == 200:
            taken.append(as_)
            back = table.client.post("/api/admin/undo", headers=table.admin(), json={"count": 1})
            assert back.status_code == 200, back.text
            assert table.client.get("/api/table").json()["hand"]["discard"]["tile"] == tile
        else:
            refused.append(as_)
    assert len(taken) > 20, (taken, refused)
