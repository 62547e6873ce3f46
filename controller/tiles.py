"""Tile kinds and their codes (RULES.md section 1), the hand-string notation, glyphs, tile sets.

A tile is its code, a plain ``str`` such as ``"5b"``, ``"ew"``, ``"gd"`` or ``"2s"``; every layer
uses these codes unchanged (logs, API, tests). Physical tiles are told apart by their RFID UID
in the table layer, never here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

Tile = str

SUITS = ("b", "c", "d")
SUIT_NAMES = {"b": "bamboo", "c": "characters", "d": "dots"}
WINDS = ("east", "south", "west", "north")
WIND_CODES = ("ew", "sw", "ww", "nw")
DRAGON_CODES = ("rd", "gd", "wd")
FLOWERS = ("1f", "2f", "3f", "4f")
SEASONS = ("1s", "2s", "3s", "4s")
BONUS_CODES = FLOWERS + SEASONS

SUITED_CODES = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10))
HONOUR_CODES = WIND_CODES + DRAGON_CODES
#: The 34 kinds that come four times each, in a fixed order (suits, winds, dragons).
KINDS = SUITED_CODES + HONOUR_CODES
ALL_CODES = KINDS + BONUS_CODES
KIND_INDEX = {code: i for i, code in enumerate(KINDS)}

#: Named sets of kinds, as codes and as indices into KINDS (the scorer counts over indices).
TERMINAL_CODES = tuple(f"{n}{s}" for s in SUITS for n in (1, 9))
ORPHAN_CODES = ("1b", "9b", "1c", "9c", "1d", "9d", *WIND_CODES, "rd", "gd", "wd")
GREEN_CODES = ("2b", "3b", "4b", "6b", "8b", "gd")  # imperial jade's tiles
SUIT_INDICES = tuple(tuple(KIND_INDEX[f"{n}{s}"] for n in range(1, 10)) for s in SUITS)
TERMINAL_INDICES = tuple(KIND_INDEX[t] for t in TERMINAL_CODES)
WIND_INDICES = tuple(KIND_INDEX[t] for t in WIND_CODES)
DRAGON_INDICES = tuple(KIND_INDEX[t] for t in DRAGON_CODES)
HONOUR_INDICES = WIND_INDICES + DRAGON_INDICES
ORPHAN_INDICES = tuple(KIND_INDEX[t] for t in ORPHAN_CODES)
GREEN_INDICES = tuple(KIND_INDEX[t] for t in GREEN_CODES)
#: KINDS as parts: the three suits, then the honours (a slice of KINDS each)
PART_SLICES = (slice(0, 9), slice(9, 18), slice(18, 27), slice(27, 34))

_WIND_NAME_TO_CODE = dict(zip(WINDS, WIND_CODES, strict=True))
_WIND_CODE_TO_NAME = dict(zip(WIND_CODES, WINDS, strict=True))


class TileError(ValueError):
    """A tile code or hand string that is not valid; the message names the culprit."""


def check_tile(code: object) -> Tile:
    """Return ``code`` if it is a valid tile code, else raise :class:`TileError` naming it."""
    if not isinstance(code, str) or code not in _ALL_SET:
        raise TileError(
            f"unknown tile code {code!r}: use 1b-9b, 1c-9c, 1d-9d, ew sw ww nw, rd gd wd, "
            "1f-4f, 1s-4s"
        )
    return code


_ALL_SET = frozenset(ALL_CODES)


def is_suited(t: Tile) -> bool:
    return len(t) == 2 and t[1] in SUITS and t[0].isdigit()


def suit(t: Tile) -> str | None:
    return t[1] if is_suited(t) else None


def rank(t: Tile) -> int | None:
    return int(t[0]) if is_suited(t) else None


def is_wind(t: Tile) -> bool:
    return t in _WIND_CODE_TO_NAME


def is_dragon(t: Tile) -> bool:
    return t in DRAGON_CODES


def is_honour(t: Tile) -> bool:
    return is_wind(t) or is_dragon(t)


def is_terminal(t: Tile) -> bool:
    return is_suited(t) and t[0] in "19"


def is_terminal_or_honour(t: Tile) -> bool:
    return is_terminal(t) or is_honour(t)


def is_simple(t: Tile) -> bool:
    return is_suited(t) and t[0] not in "19"


def is_bonus(t: Tile) -> bool:
    return t in BONUS_CODES


def is_flower(t: Tile) -> bool:
    return t in FLOWERS


def is_season(t: Tile) -> bool:
    return t in SEASONS


def wind_code(name: str) -> Tile:
    """``"east"`` -> ``"ew"``."""
    try:
        return _WIND_NAME_TO_CODE[name]
    except KeyError:
        raise TileError(f"unknown wind {name!r}: use east, south, west or north") from None


def wind_name(code: Tile) -> str:
    """``"ew"`` -> ``"east"``."""
    return _WIND_CODE_TO_NAME[code]


def bonus_wind(t: Tile) -> str:
    """The wind a flower or season belongs to: 1 east, 2 south, 3 west, 4 north."""
    if not is_bonus(t):
        raise TileError(f"{t} is not a flower or season")
    return WINDS[int(t[0]) - 1]


def next_wind(name: str) -> str:
    return WINDS[(WINDS.index(name) + 1) % 4]


def sort_key(t: Tile) -> int:
    return ALL_CODES.index(t)


def sort_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    return sorted(tiles, key=sort_key)


# --- glyphs (Unicode block U+1F000 "Mahjong Tiles") -------------------------------------------

_GLYPH_BASE = {"w": 0x1F000, "d": 0x1F019, "c": 0x1F007, "b": 0x1F010}
_HONOUR_GLYPHS = {
    "ew": 0x1F000, "sw": 0x1F001, "ww": 0x1F002, "nw": 0x1F003,
    "rd": 0x1F004, "gd": 0x1F005, "wd": 0x1F006,
}
_BONUS_GLYPHS = {
    "1f": 0x1F022, "2f": 0x1F023, "4f": 0x1F024, "3f": 0x1F025,
    "1s": 0x1F026, "2s": 0x1F027, "3s": 0x1F028, "4s": 0x1F029,
}
TILE_BACK_GLYPH = "\U0001f02b"


def glyph(t: Tile) -> str:
    """The Unicode glyph of a tile (flowers: plum, orchid, chrysanthemum, bamboo)."""
    check_tile(t)
    if t in _HONOUR_GLYPHS:
        return chr(_HONOUR_GLYPHS[t])
    if t in _BONUS_GLYPHS:
        return chr(_BONUS_GLYPHS[t])
    return chr(_GLYPH_BASE[t[1]] + int(t[0]) - 1)


# --- names people say --------------------------------------------------------------------------

_HONOUR_NAMES = {
    "ew": "east wind", "sw": "south wind", "ww": "west wind", "nw": "north wind",
    "rd": "red dragon", "gd": "green dragon", "wd": "white dragon",
}
_BONUS_NAMES = {
    "1f": "plum", "2f": "orchid", "3f": "chrysanthemum", "4f": "bamboo",
    "1s": "spring", "2s": "summer", "3s": "autumn", "4s": "winter",
}


def tile_name(t: Tile) -> str:
    """The tile in words: ``5b`` -> "5 bamboo", ``gd`` -> "green dragon", ``1f`` -> "plum
    (flower 1)"."""
    check_tile(t)
    if t in _HONOUR_NAMES:
        return _HONOUR_NAMES[t]
    if t in _BONUS_NAMES:
        return f"{_BONUS_NAMES[t]} ({'flower' if t[1] == 'f' else 'season'} {t[0]})"
    return f"{t[0]} {SUIT_NAMES[t[1]]}"


# --- tile sets ----------------------------------------------------------------------------------


def tile_set(bonus_tiles: bool) -> list[Tile]:
    """The full set: 136 tiles, or 144 with flowers and seasons."""
    tiles = [k for k in KINDS for _ in range(4)]
    if bonus_tiles:
        tiles.extend(BONUS_CODES)
    return tiles


def copies_allowed(t: Tile) -> int:
    return 1 if is_bonus(t) else 4


def check_copies(tiles: Iterable[Tile]) -> None:
    """Raise :class:`TileError` if any tile occurs more often than the set holds it."""
    for t, n in Counter(tiles).items():
        if n > copies_allowed(t):
            raise TileError(f"{n} copies of {t}: the set holds only {copies_allowed(t)}")


# --- hand-string notation -----------------------------------------------------------------------


def parse_tiles(text: str) -> list[Tile]:
    """``"5b5b5b gd"`` or ``"5b 5b 5b gd"`` -> ``["5b", "5b", "5b", "gd"]``."""
    compact = "".join(text.split())
    if len(compact) % 2:
        raise TileError(f"tile string {text!r} has an odd number of characters")
    return [check_tile(compact[i : i + 2]) for i in range(0, len(compact), 2)]


@dataclass(frozen=True)
class Meld:
    """A set on the table: a claimed set (``concealed=False``) or a declared concealed kong."""

    tiles: tuple[Tile, ...]
    concealed: bool = False


@dataclass
class HandString:
    """A parsed hand string: concealed tiles, melds on the table, bonus tiles."""

    concealed: list[Tile] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    bonus: list[Tile] = field(default_factory=list)


def parse_hand(text: str) -> HandString:
    """Parse the people's notation for a hand.

    Groups are separated by spaces. ``[5b5b5b]`` is an exposed (claimed) set, ``{wwwwwwww}`` a
    declared concealed kong, any other group concealed tiles in the rack. Flowers and seasons are
    bonus tiles wherever they are written. Example::

        parse_hand("[5b5b5b] [4d5d6d] gdgdgd 1c2c3c ewew 2s")
    """
    result = HandString()
    for group in text.split():
        if group[0] in "[{":
            closing = "]" if group[0] == "[" else "}"
            if group[-1] != closing:
                raise TileError(f"set {group!r} is not closed with {closing!r}")
            tiles = tuple(parse_tiles(group[1:-1]))
            result.melds.append(Meld(tiles, concealed=group[0] == "{"))
            continue
        for t in parse_tiles(group):
            (result.bonus if is_bonus(t) else result.concealed).append(t)
    return result


def format_tiles(tiles: Iterable[Tile]) -> str:
    return "".join(tiles)


def format_hand(hand: HandString) -> str:
    parts = [
        ("{" if m.concealed else "[") + format_tiles(m.tiles) + ("}" if m.concealed else "]")
        for m in hand.melds
    ]
    if hand.concealed:
        parts.append(format_tiles(sort_tiles(hand.concealed)))
    if hand.bonus:
        parts.append(format_tiles(hand.bonus))
    return " ".join(parts)
