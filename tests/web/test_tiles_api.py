"""Tile registration over the admin API: /api/admin/tiles."""

from __future__ import annotations

from typing import Any

from tests.web.support import Table

UID = "04:A2:19:C1:5E:22:80"


def test_registering_listing_and_forgetting_a_tile(table: Table) -> None:
    admin = table.admin()
    added = table.client.post("/api/admin/tiles", json={"uid": "04a219c15e2280", "tile": "5b"},
                              headers=admin)
    assert added.status_code == 201 and added.json() == {"uid": UID, "tile": "5b"}
    listed = table.client.get("/api/admin/tiles", headers=admin).json()
    assert listed["count"] == 1 and listed["tiles"] == [{"uid": UID, "tile": "5b"}]
    assert listed["next_tile"] == "1b"  # set order: the first 1b still lacks a tag
    gone = table.client.delete(f"/api/admin/tiles/{UID}", headers=admin)
    assert gone.status_code == 200
    assert table.client.get("/api/admin/tiles", headers=admin).json()["count"] == 0


def test_the_registry_rules_are_409_with_what_is_wrong(table: Table) -> None:
    admin = table.admin()
    post = table.client.post
    assert post("/api/admin/tiles", json={"uid": UID, "tile": "5b"}, headers=admin).is_success
    dup = post("/api/admin/tiles", json={"uid": UID, "tile": "6b"}, headers=admin)
    assert dup.status_code == 409 and "already enrolled as 5b" in dup.json()["detail"]
    bad = post("/api/admin/tiles", json={"uid": "04:00:00:01", "tile": "xz"}, headers=admin)
    assert bad.status_code == 409 and "'xz'" in bad.json()["detail"]
    garbled = post("/api/admin/tiles", json={"uid": "zz", "tile": "5b"}, headers=admin)
    assert garbled.status_code == 409 and "not a tag UID" in garbled.json()["detail"]
    unknown = table.client.delete("/api/admin/tiles/04:00:00:09", headers=admin)
    assert unknown.status_code == 409 and "not in the registry" in unknown.json()["detail"]


def test_tile_registration_needs_the_admin_token(table: Table) -> None:
    seat = table.seat(1)
    assert table.client.get("/api/admin/tiles").status_code == 401
    assert table.client.get("/api/admin/tiles", headers=seat).status_code == 401
    assert table.client.post("/api/admin/tiles", json={"uid": UID, "tile": "5b"},
                             headers=seat).status_code == 401


def test_enrollment_progress_counts_the_registered_tiles(table: Table) -> None:
    admin = table.admin()
    table.client.post("/api/admin/tiles", json={"uid": UID, "tile": "1b"}, headers=admin)
    progress = table.client.get("/api/admin/enrollment", headers=admin).json()
    # counted on the session's tile set: hua-bao's default is without bonus tiles (136)
    assert table.loop.state.ruleset.bonus_tiles is False
    assert progress["available"] and (progress["enrolled"], progress["total"]) == (1, 136)
    assert progress["next_tile"] == "1b" and progress["note"] is None  # a physical table
    assert table.client.get("/api/admin/enrollment", headers=table.seat(1)).status_code == 401


def test_a_riichi_table_counts_a_136_tile_set(make_table: Any) -> None:
    """Riichi is played with 136 tiles (RULES.md 11): the dashboard's enrollment counts 136,
    with no registry yet and with a 144-tile registry alike (its flowers count for nothing)."""
    table = make_table("riichi")
    admin = table.admin()
    progress = table.client.get("/api/admin/enrollment", headers=admin).json()
    assert (progress["enrolled"], progress["total"], progress["next_tile"]) == (0, 136, "1b")
    table.client.post("/api/admin/tiles", json={"uid": UID, "tile": "1b"}, headers=admin)
    progress = table.client.get("/api/admin/enrollment", headers=admin).json()
    assert (progress["enrolled"], progress["total"]) == (1, 136)
