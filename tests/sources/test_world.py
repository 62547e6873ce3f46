"""The virtual table's physical world: tagged tiles put on the antennas of a VirtualTable."""

from collections import Counter

import pytest

from controller.sources.world import SimWorld, TileBox, WorldError
from controller.tiles import KINDS
from firmware_bridge.sim import VirtualTable


@pytest.mark.parametrize(("bonus", "size"), [(False, 136), (True, 144)])
def test_tile_box_tags_every_tile_once(bonus: bool, size: int) -> None:
    box = TileBox(bonus)
    assert len(box.registry) == size
    assert Counter(box.registry.values())["5b"] == 4
    assert all(uid.startswith("04:") and len(uid.split(":")) == 7 for uid in box.registry)
    assert sorted(box.uids) == sorted(set(box.registry.values()))
    assert set(KINDS) <= set(box.uids)


def test_the_same_box_seed_gives_the_same_uids() -> None:
    assert TileBox(True, seed=3).registry == TileBox(True, seed=3).registry
    assert TileBox(True, seed=3).registry != TileBox(True, seed=4).registry


def test_a_move_puts_one_physical_tile_on_an_antenna_of_the_zone() -> None:
    table = VirtualTable()
    world = SimWorld(table, TileBox(False))
    labels = table.labels()
    uid = world.perform({"tile": "5b", "from": "wall", "to": "rack:2"})
    assert labels[table.where(uid)] == "rack:2"
    moved = world.perform({"tile": "5b", "from": "rack:2", "to": "discard"})
    assert moved == uid and labels[table.where(uid)] == "discard"
    world.perform({"tile": "5b", "from": "discard", "to": "river"})
    assert table.where(uid) is None and world.where[uid] == "river"


def test_rack_tiles_go_to_separate_antennas() -> None:
    table = VirtualTable()
    world = SimWorld(table, TileBox(False))
    uids = [world.perform({"tile": t, "from": "wall", "to": "rack:1"})
            for t in ["1b", "2b", "3b", "1b", "ew"]]
    assert len({table.where(u) for u in uids}) == 5


def test_a_tile_that_is_not_there_cannot_move() -> None:
    world = SimWorld(VirtualTable(), TileBox(False))
    with pytest.raises(WorldError, match="no 7c in rack:3"):
        world.perform({"tile": "7c", "from": "rack:3", "to": "discard"})


def test_a_fifth_draw_of_a_kind_is_refused() -> None:
    world = SimWorld(VirtualTable(), TileBox(False))
    for _ in range(4):
        world.perform({"tile": "gd", "from": "wall", "to": "melds:1"})
    with pytest.raises(WorldError, match="no gd in wall"):
        world.perform({"tile": "gd", "from": "wall", "to": "rack:1"})


def test_lay_out_puts_a_replayed_game_back_on_the_table() -> None:
    table = VirtualTable()
    world = SimWorld(table, TileBox(False))
    world.lay_out({"rack:1": ["1b", "2b"], "melds:3": ["gd", "gd", "gd"], "discard": ["9c"]})
    zones = Counter(table.labels()[ch] for ch, uids in table.contents().items() for _ in uids)
    assert zones == Counter({"rack:1": 2, "melds:3": 3, "discard": 1})
