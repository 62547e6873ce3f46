"""Tile codes, glyphs, tile sets and the hand-string notation (RULES.md section 1)."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller import tiles
from controller.tiles import Meld, TileError, parse_hand, parse_tiles


def test_tile_sets_have_136_and_144_tiles():
    assert len(tiles.tile_set(False)) == 136
    full = tiles.tile_set(True)
    assert len(full) == 144
    counts = Counter(full)
    assert all(counts[k] == 4 for k in tiles.KINDS)
    assert all(counts[b] == 1 for b in tiles.BONUS_CODES)


@pytest.mark.parametrize(
    ("code", "terminal", "honour", "simple"),
    [("1b", True, False, False), ("9d", True, False, False), ("5c", False, False, True),
     ("ew", False, True, False), ("gd", False, True, False)],
)
def test_tile_classes(code, terminal, honour, simple):
    assert tiles.is_terminal(code) is terminal
    assert tiles.is_honour(code) is honour
    assert tiles.is_simple(code) is simple
    assert tiles.is_terminal_or_honour(code) is (terminal or honour)


def test_bonus_tile_belongs_to_its_wind():
    assert [tiles.bonus_wind(t) for t in tiles.FLOWERS] == ["east", "south", "west", "north"]
    assert tiles.bonus_wind("3s") == "west"
    with pytest.raises(TileError):
        tiles.bonus_wind("ew")


def test_glyphs_are_distinct_and_in_the_mahjong_block():
    glyphs = [tiles.glyph(t) for t in tiles.ALL_CODES]
    assert len(set(glyphs)) == len(tiles.ALL_CODES)
    assert all(0x1F000 <= ord(g) <= 0x1F02B for g in glyphs)
    assert tiles.glyph("ew") == "\U0001f000"
    assert tiles.glyph("1c") == "\U0001f007"
    assert tiles.glyph("9d") == "\U0001f021"


def test_unknown_code_is_named_in_the_error():
    with pytest.raises(TileError, match="'xz'"):
        parse_tiles("5bxz")


def test_parse_hand_with_exposed_sets_concealed_kong_and_bonus():
    h = parse_hand("[5b5b5b] {wwwwwwww} gdgdgd 1c2c3c ewew 2s")
    assert h.melds == [Meld(("5b",) * 3, False), Meld(("ww",) * 4, True)]
    assert h.concealed == ["gd"] * 3 + ["1c", "2c", "3c", "ew", "ew"]
    assert h.bonus == ["2s"]


def test_unclosed_set_is_an_error():
    with pytest.raises(TileError, match="not closed"):
        parse_hand("[5b5b5b gd")


def test_fifth_copy_is_refused():
    with pytest.raises(TileError, match="5 copies of 5b"):
        tiles.check_copies(["5b"] * 5)


@given(st.lists(st.sampled_from(tiles.ALL_CODES), max_size=14))
def test_format_then_parse_round_trips(codes):
    h = tiles.HandString(concealed=[c for c in codes if not tiles.is_bonus(c)],
                         bonus=[c for c in codes if tiles.is_bonus(c)])
    back = parse_hand(tiles.format_hand(h))
    assert Counter(back.concealed) == Counter(h.concealed)
    assert back.bonus == h.bonus
