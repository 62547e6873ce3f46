"""The operator's and the seat's correction helpers against the real engine and store: the tile
set the pages read, the recent steps in words, the undo preview (exactly what undo takes back),
a seat correcting a misread tile in its own rack, and the seat links' reachability."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from controller import tiles
from controller.web import links
from controller.web.routers.pages import STATIC
from tests.web.support import Table, in_play

CODE = re.compile(r"\b([1-9][bcdfs]|[eswn]w|[rgw]d)\b")


def test_the_pages_take_the_tile_set_from_the_service(table: Table) -> None:
    data = table.client.get("/api/tiles").json()
    assert data["order"] == list(tiles.ALL_CODES)
    assert data["names"]["gd"] == "green dragon" and data["names"]["5c"] == "5 characters"
    assert data["names"]["3f"] == "chrysanthemum (flower 3)"
    assert sum(len(g) for g in data["groups"].values()) == len(tiles.ALL_CODES)
    # No page keeps its own copy of the order or the names.
    for js in Path(STATIC).glob("*.js"):
        text = js.read_text()
        assert '"ew", "sw", "ww", "nw"' not in text, js.name
        assert "chrysanthemum" not in text and "green dragon" not in text, js.name


def _play_to_a_discard(table: Table) -> None:
    table.play_until(in_play)
    table.play_until(lambda v: bool((v.get("hand") or {}).get("discard")))


def test_recent_steps_are_told_in_words_without_concealed_tiles(table: Table) -> None:
    _play_to_a_discard(table)
    res = table.client.get("/api/admin/recent?count=50", headers=table.admin())
    assert res.status_code == 200
    events = res.json()["events"]
    hand = table.loop.public_view()["hand"]
    d = hand["discard"]
    assert events[0] == f"Seat {d['seat']} discarded {d['tile']}"
    drew = [e for e in events if "drew" in e]
    assert drew and all(re.fullmatch(r"Seat [1-4] drew a tile", e) for e in drew)
    assert table.client.get("/api/admin/recent").status_code == 401


def test_the_undo_preview_is_exactly_what_undo_takes_back(table: Table) -> None:
    _play_to_a_discard(table)
    for _ in range(6):
        table.step()
    recent = table.client.get("/api/admin/recent?count=5", headers=table.admin()).json()
    preview = table.client.get("/api/admin/undo?count=3", headers=table.admin()).json()
    assert preview["takes_back"] == recent["events"][:3]
    depth = table.loop.state.depth
    res = table.client.post("/api/admin/undo", json={"count": 3}, headers=table.admin())
    assert res.status_code == 200, res.text
    assert table.loop.state.depth == depth - 3
    after = table.client.get("/api/admin/recent?count=2", headers=table.admin()).json()
    assert after["events"] == recent["events"][3:5]
    # Tiles the undo leaves out of place are the ones the preview said to put back.
    out = table.loop.public_view()["hand"]["out_of_place"]
    assert len(out) == len(preview["put_back"])
    said = preview["put_back"]
    assert sorted(m["tile"] or "" for m in out) == sorted(m["tile"] or "" for m in said)


def test_an_undo_beyond_the_maximum_is_refused_visibly(table: Table) -> None:
    table.play_until(in_play)
    res = table.client.post("/api/admin/undo", json={"count": 51}, headers=table.admin())
    assert res.status_code == 422
    preview = table.client.get("/api/admin/undo?count=50", headers=table.admin()).json()
    assert preview["available"] == min(50, table.loop.state.depth)


def _spare(table: Table, not_this: str) -> str:
    """A kind with a copy still unseen (so the correction can take it from the wall)."""
    hand = table.loop.state.hand
    for code in tiles.KINDS:
        if code != not_this and hand.out[tiles.ALL_CODES.index(code)] < 4:
            return code
    raise AssertionError("no spare tile")


def test_a_seat_corrects_a_misread_tile_in_its_own_rack(table: Table) -> None:
    table.play_until(in_play)
    own = table.client.get("/api/seats/2", headers=table.seat(2)).json()["hand"]
    read = next(t for t in own if not tiles.is_bonus(t))
    real = _spare(table, read)
    body = {"tile": read, "as": real}
    assert table.client.post("/api/seats/2/reassign", json=body,
                             headers=table.seat(3)).status_code == 401
    res = table.client.post("/api/seats/2/reassign", json=body, headers=table.seat(2))
    assert res.status_code == 200, res.text
    after = table.client.get("/api/seats/2", headers=table.seat(2)).json()["hand"]
    assert after.count(real) == own.count(real) + 1 and after.count(read) == own.count(read) - 1
    words = table.client.get("/api/admin/recent?count=1", headers=table.admin()).json()["events"]
    assert words == ["A misread tile in Seat 2's rack was corrected"]  # names neither tile
    missing = next(c for c in tiles.KINDS if c not in after)
    res = table.client.post("/api/seats/2/reassign", json={"tile": missing, "as": real},
                            headers=table.seat(2))
    assert res.status_code == 409 and "rack:2" in res.json()["detail"]


def test_seat_links_say_when_no_phone_can_open_them(table: Table) -> None:
    link = table.client.get("/api/admin/seats/1/link", headers=table.admin()).json()
    assert link["url"].startswith("http://testserver/seat/1#token=")
    assert link["reachable"] is True and link["hint"] is None
    loop = links.seat_link("http://127.0.0.1:8080", 1, "T")
    assert not loop.reachable and "--host 0.0.0.0" in (loop.hint or "")
    assert "public_url" in (loop.hint or "")
    anywhere = links.seat_link("http://127.0.0.1:8080", 1, "T", "0.0.0.0")
    assert not anywhere.reachable and "--host" not in (anywhere.hint or "")
    assert "public_url" in (anywhere.hint or "")
    assert links.base_url("http://127.0.0.1:8080/", "127.0.0.1", 8080, "http://pi.local:80/") \
        == "http://pi.local:80"
    assert links.is_loopback("localhost") and links.is_loopback("[::1]")
    assert not links.is_loopback("192.168.1.20")


def test_sets_and_hand_ends_are_told(table: Table) -> None:
    def melded(view: dict) -> bool:
        seats = ((view.get("hand") or {}).get("seats") or {}).values()
        return any(s.get("melds") for s in seats)

    table.play_until(melded)
    events = table.client.get("/api/admin/recent?count=50", headers=table.admin()).json()["events"]
    assert any(re.search(r"Seat [1-4] (chow|pung|kong|concealed kong) of \w\w", e) for e in events)
    table.play_until(lambda v: (v.get("hand") or {}).get("phase") == "over")
    first = table.client.get("/api/admin/recent?count=1", headers=table.admin()).json()["events"]
    assert re.fullmatch(r"Hand 1: Mahjong by Seat [1-4]|Hand 1 ends as a washout", first[0])


def test_a_table_can_hide_the_waits(make_table: Any, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from controller.app import build
    from controller.config import Config, SessionConfig, TableConfig

    shown = make_table()
    shown.play_until(in_play)
    assert shown.client.get("/api/seats/1", headers=shown.seat(1)).json()["waits_shown"] is True
    config = Config(session=SessionConfig(ruleset="hua-bao"), table=TableConfig(show_waits=False))
    system = build(config, tmp_path / "hidden")
    hidden = Table(TestClient(system.app).__enter__(), system)
    try:
        def waiting(view: dict) -> bool:
            return any(system.loop.seat_view(p)["waits"] for p in (1, 2, 3, 4)) and in_play(view)

        hidden.play_until(waiting)
        for p in (1, 2, 3, 4):
            seat = hidden.client.get(f"/api/seats/{p}", headers=hidden.seat(p)).json()
            assert seat["waits"] == [] and seat["waits_shown"] is False
    finally:
        hidden.close()

def test_a_corrected_discard_is_told_with_its_tiles(table: Table) -> None:
    _play_to_a_discard(table)
    d = table.loop.public_view()["hand"]["discard"]
    real = _spare(table, d["tile"])
    res = table.client.post("/api/admin/reassign", headers=table.admin(),
                            json={"zone": "discard", "tile": d["tile"], "as": real})
    assert res.status_code == 200, res.text
    said = table.client.get("/api/admin/recent?count=1", headers=table.admin()).json()["events"]
    assert said == [f"The {d['tile']} on the discard pad was corrected to {real}"]


def test_the_operator_corrects_a_misread_dora_indicator(make_table: Any) -> None:
    """Riichi's dora pad is an open zone the operator corrects (TABLE.md ``dora``): the
    indicator becomes the tile it really is, told in words; a tile not on the pad is refused."""
    table = make_table("riichi")
    table.play_until(lambda v: bool((v.get("riichi") or {}).get("dora_indicators")))
    read = table.loop.public_view()["riichi"]["dora_indicators"][0]
    real = _spare(table, read)
    res = table.client.post("/api/admin/reassign", headers=table.admin(),
                            json={"zone": "dora", "tile": read, "as": real})
    assert res.status_code == 200, res.text
    assert table.loop.public_view()["riichi"]["dora_indicators"] == [real]
    said = table.client.get("/api/admin/recent?count=1", headers=table.admin()).json()["events"]
    assert said == [f"The {read} on the dora pad was corrected to {real}"]
    res = table.client.post("/api/admin/reassign", headers=table.admin(),
                            json={"zone": "dora", "tile": read, "as": real})
    assert res.status_code != 200 and "dora pad" in res.text
