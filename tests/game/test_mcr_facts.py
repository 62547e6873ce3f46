"""mcr facts the engine passes to the scorer: Last Tile from what lies visible on the table,
a bonus tile's replacement counted as a plain draw (docs/game.md, mcr in the game)."""

from __future__ import annotations

from controller.game.mahjong import mcr_flags
from controller.game.state import Hand, Seat, TableSet, evolve, new_hand


def _hand(rivers: dict[int, tuple[str, ...]], melds: dict[int, tuple[TableSet, ...]],
          kong_chain: int = 0) -> Hand:
    seats = tuple(
        Seat(p, river=rivers.get(p, ()), melds=melds.get(p, ()),
             kong_chain=kong_chain if p == 2 else 0)
        for p in (1, 2, 3, 4)
    )
    return evolve(new_hand(1, 1, "east", True), seats=seats)  # type: ignore[no-any-return]


def test_last_of_kind_counts_discards_and_exposed_sets_of_every_seat() -> None:
    pung = TableSet(("5b", "5b", "5b"), "pung", claimed_from=1)
    assert mcr_flags(_hand({1: ("5b",), 3: ("5b", "5b")}, {}), 2, "5b", "discard") == (
        ["last_of_kind"], "discard")
    assert mcr_flags(_hand({}, {4: (pung,)}), 2, "5b", "wall")[0] == ["last_of_kind"]
    assert mcr_flags(_hand({1: ("5b",), 3: ("5b",)}, {}), 2, "5b", "wall")[0] == []


def test_a_concealed_kong_is_not_visible() -> None:
    hidden = TableSet(("5b",) * 4, "kong", concealed=True)
    assert mcr_flags(_hand({}, {4: (hidden,)}), 2, "5b", "wall")[0] == []


def test_replacement_after_a_bonus_tile_is_a_plain_draw() -> None:
    assert mcr_flags(_hand({}, {}), 2, "1c", "replacement")[1] == "wall"
    assert mcr_flags(_hand({}, {}, kong_chain=1), 2, "1c", "replacement")[1] == "replacement"
