"""The independent check: a HandInput of the project put to pymahjonggb (MahjongGB), which
takes tiles as W1..W9 (characters), T1..T9 (bamboo), B1..B9 (dots), F1..F4 (winds), J1..J3
(red, green, white dragon), the melds as ("CHI" middle tile | "PENG" | "GANG", tile, offer)
with offer 0 for a concealed kong, the standing tiles without the winning tile, and the facts
of the win as flags."""

from __future__ import annotations

from typing import Any

from controller.scoring import HandInput
from controller.tiles import KIND_INDEX, KINDS

_SUIT = {"c": "W", "b": "T", "d": "B"}
_HONOUR = {"ew": "F1", "sw": "F2", "ww": "F3", "nw": "F4", "rd": "J1", "gd": "J2", "wd": "J3"}
_WIND = {"east": 0, "south": 1, "west": 2, "north": 3}

#: pymahjonggb's English names where the EMA's (the project's) differ
NAME = {"All Five": "All Fives", "Two Dragons Pungs": "Two Dragon Pungs",
        "Robbing The Kong": "Robbing the Kong"}


def code(tile: str) -> str:
    return _HONOUR.get(tile) or f"{_SUIT[tile[1]]}{tile[0]}"


def oracle_args(inp: HandInput) -> dict[str, Any]:
    packs = []
    for m in inp.melds:
        t = list(m.tiles)
        if len(t) == 4:
            packs.append(("GANG", code(t[0]), 0 if m.concealed else 1))
        elif t[0] == t[1]:
            packs.append(("PENG", code(t[0]), 1))
        else:
            mid = KINDS[sorted(KIND_INDEX[x] for x in t)[1]]
            packs.append(("CHI", code(mid), 1))
    hand = list(inp.hand)
    hand.remove(inp.winning_tile)  # type: ignore[arg-type]
    src = inp.win_source
    return {
        "pack": tuple(packs), "hand": tuple(code(t) for t in hand),
        "winTile": code(inp.winning_tile),  # type: ignore[arg-type]
        "flowerCount": len(inp.bonus),
        "isSelfDrawn": src in ("wall", "replacement", "dealt"),
        "is4thTile": "last_of_kind" in inp.flags,
        "isAboutKong": src in ("replacement", "robbed_kong"),
        "isWallLast": bool(inp.last_tile),
        "seatWind": _WIND[inp.seat_wind], "prevalentWind": _WIND[inp.prevailing_wind],
    }


def oracle_fans(inp: HandInput) -> tuple[int, dict[str, int]]:
    """pymahjonggb's total (flowers included) and its fans by (EMA) name."""
    from MahjongGB import MahjongFanCalculator

    out = MahjongFanCalculator(**oracle_args(inp), verbose=True)
    fans: dict[str, int] = {}
    for value, count, _zh, en in out:
        fans[NAME.get(en, en)] = value * count
    return sum(fans.values()), fans
