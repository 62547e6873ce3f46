"""The tile registry's rules, its file in the data directory, and export/import."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.table import REGISTRY_FILE, RegistryError, TileRegistry, normalize_uid, progress
from controller.table.registry_io import export_file, export_text, import_file, parse_text
from controller.tiles import ALL_CODES, copies_allowed, tile_set


def uid(n: int) -> str:
    return normalize_uid(f"04{n:012X}")


def full_registry(set_size: int = 144, path: Path | None = None) -> TileRegistry:
    registry = TileRegistry(set_size, path)
    registry.add_all((uid(i), t) for i, t in enumerate(tile_set(set_size == 144)))
    return registry


def test_uids_are_normalised_and_garbage_refused() -> None:
    assert normalize_uid("04a219c1") == "04:A2:19:C1"
    assert normalize_uid(" 04:a2:19:c1:5e:22:80 ") == "04:A2:19:C1:5E:22:80"
    for bad in ("", "04:A2:19", "ZZ:A2:19:C1", "04A219C", "04:A2:19:C1:5E:22:80:00:11:22:33"):
        with pytest.raises(RegistryError, match="not a tag UID"):
            normalize_uid(bad)


def test_duplicate_uid_is_refused() -> None:
    registry = TileRegistry()
    registry.add("04:A2:19:C1", "5b")
    with pytest.raises(RegistryError, match="already enrolled as 5b"):
        registry.add("04a219c1", "6b")
    assert dict(registry) == {"04:A2:19:C1": "5b"}


def test_unknown_tile_code_is_refused() -> None:
    with pytest.raises(RegistryError, match="unknown tile code '0b'"):
        TileRegistry().add(uid(1), "0b")


def test_a_fifth_copy_and_a_second_flower_are_refused() -> None:
    registry = TileRegistry()
    for i in range(4):
        registry.add(uid(i), "gd")
    with pytest.raises(RegistryError, match="all 4 gd of the set are already enrolled"):
        registry.add(uid(9), "gd")
    registry.add(uid(10), "3f")
    with pytest.raises(RegistryError, match="all 1 3f"):
        registry.add(uid(11), "3f")
    assert registry.count("gd") == 4 and len(registry) == 5


def test_bonus_tiles_are_refused_in_a_136_set() -> None:
    with pytest.raises(RegistryError, match="not in a 136-tile set"):
        TileRegistry(136).add(uid(1), "2s")


@given(st.lists(st.tuples(st.integers(0, 300), st.sampled_from(ALL_CODES)), max_size=200))
def test_whatever_is_offered_the_registry_never_breaks_its_rules(
    offers: list[tuple[int, str]],
) -> None:
    registry = TileRegistry(144)
    for n, tile in offers:
        try:
            registry.add(uid(n), tile)
        except RegistryError:
            pass
    counts = Counter(registry.values())
    assert all(counts[t] <= copies_allowed(t) for t in counts)
    assert sum(counts.values()) == len(registry)


def test_next_tile_walks_the_set_in_order() -> None:
    registry = TileRegistry(136)
    assert registry.next_tile() == "1b"
    for i in range(4):
        registry.add(uid(i), "1b")
    assert registry.next_tile() == "2b"
    registry.add(uid(10), "3b")  # out of order: 2b still comes first
    assert registry.next_tile() == "2b"
    assert full_registry(136).next_tile() is None


def test_registry_file_persists_and_reloads(tmp_path: Path) -> None:
    registry = TileRegistry.open(tmp_path, set_size=136)
    registry.add(uid(1), "ew", at=5.0)
    registry.add(uid(2), "ew")
    assert (tmp_path / REGISTRY_FILE).exists()
    again = TileRegistry.open(tmp_path)
    assert (again.set_size, dict(again)) == (136, {uid(1): "ew", uid(2): "ew"})
    assert again.entries()[0].enrolled_at == 5.0
    again.remove(uid(1))
    assert dict(TileRegistry.open(tmp_path)) == {uid(2): "ew"}


def test_a_136_registry_may_grow_to_144_but_not_shrink_with_flowers(tmp_path: Path) -> None:
    TileRegistry.open(tmp_path, set_size=136).add(uid(1), "5b")
    grown = TileRegistry.open(tmp_path, set_size=144)
    grown.add(uid(2), "1f")
    assert TileRegistry.open(tmp_path).set_size == 144
    with pytest.raises(RegistryError, match="holds flowers or seasons"):
        TileRegistry.open(tmp_path, set_size=136)


def test_missing_data_dir_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="does not exist"):
        TileRegistry.open(tmp_path / "nope")


@pytest.mark.parametrize("ending", ["json", "csv"])
def test_export_then_import_gives_the_same_registry(tmp_path: Path, ending: str) -> None:
    original = full_registry(144)
    path = tmp_path / f"tiles.{ending}"
    assert export_file(original, path) == 144
    copy = TileRegistry.open(tmp_path / ".", set_size=144)
    assert import_file(copy, path) == 144
    assert dict(copy) == dict(original)
    assert import_file(copy, path) == 0  # the same file again adds nothing and refuses nothing
    assert dict(TileRegistry.open(tmp_path)) == dict(original)


def test_import_is_all_or_nothing_and_names_the_entry(tmp_path: Path) -> None:
    registry = TileRegistry.open(tmp_path, set_size=144)
    registry.add(uid(1), "5b")
    text = json.dumps({"set": 144, "tiles": [{"uid": uid(2), "tile": "6b"},
                                             {"uid": uid(1), "tile": "7b"}]})
    path = tmp_path / "in.json"
    path.write_text(text)
    with pytest.raises(RegistryError, match="entry 2: UID .* already enrolled as 5b; nothing"):
        import_file(registry, path)
    assert dict(TileRegistry.open(tmp_path)) == {uid(1): "5b"}


@pytest.mark.parametrize(
    ("text", "fmt", "message"),
    [
        ("{", "json", "not JSON"),
        ('{"tiles": [{"uid": 1}]}', "json", "tiles entry 1"),
        ("[]", "json", "a registry JSON is"),
        ("id,code\n", "csv", "header line 'uid,tile'"),
    ],
)
def test_malformed_files_are_refused(text: str, fmt: str, message: str) -> None:
    with pytest.raises(RegistryError, match=message):
        parse_text(text, fmt)


def test_csv_export_lists_uid_and_tile() -> None:
    registry = TileRegistry()
    registry.add("04:00:00:01", "rd")
    assert export_text(registry, "csv") == "uid,tile\n04:00:00:01,rd\n"


def test_progress_for_the_dashboard(tmp_path: Path) -> None:
    assert progress(tmp_path)["enrolled"] == 0
    registry = TileRegistry.open(tmp_path, set_size=136)
    for i in range(37):
        registry.add(uid(i), tile_set(False)[i])
    shown = progress(tmp_path)
    assert (shown["enrolled"], shown["total"], shown["next_tile"]) == (37, 136, "1c")
    assert shown["bar"] == "37/136 [#####...............]" and shown["next_glyph"] == "\U0001f007"
