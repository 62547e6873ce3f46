"""Kajongg's scoring-test hands in the project's terms (facts read from KDE Kajongg's public
``src/scoringtest.py``; the notation is Kajongg's, this reader of it is the project's own).

Kajongg writes a hand as space-separated parts: melds (lower case: exposed; a kong written
``b1B1B1b1``: declared concealed), ``R...`` the concealed rest, ``L`` + the last tile + the set
it completed, ``m`` + how the last tile came + announcements, bonus tiles ``fe`` (flower of
east) ``ys`` (season of south). Tiles: group letter and value; ``s`` stones (our dots ``d``),
``b`` bamboo, ``c`` characters, ``w`` winds (``we ws ww wn``), ``d`` dragons (``db`` white,
``dg`` green, ``dr`` red).
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.scoring import HandInput
from controller.tiles import Meld, Tile

_HONOUR = {"we": "ew", "ws": "sw", "ww": "ww", "wn": "nw", "db": "wd", "dg": "gd", "dr": "rd"}
_BONUS_WIND = {"e": "1", "s": "2", "w": "3", "n": "4"}
#: Kajongg's tile sources: (our win_source, last tile of the wall, first discard of east)
_SOURCES = {"d": ("discard", False), "w": ("wall", False), "k": ("robbed_kong", False),
            "e": ("replacement", False), "z": ("wall", True), "Z": ("discard", True)}
_FLAGS = {"a": "original_call", "t": "twofold_fortune"}


def tile(code: str) -> Tile:
    """One Kajongg tile (either case) as our code."""
    low = code.lower()
    if low[0] in "sbc":
        return low[1] + {"s": "d", "b": "b", "c": "c"}[low[0]]
    if low[0] == "f":
        return _BONUS_WIND[low[1]] + "f"
    if low[0] == "y":
        return _BONUS_WIND[low[1]] + "s"
    return _HONOUR[low]


def _tiles(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


@dataclass
class Case:
    """A Kajongg hand read: our input, and whether it is a full (winning-size) hand."""

    inp: HandInput
    full: bool


def read(text: str, ruleset: str, seat: str = "east", prevailing: str = "east") -> Case:
    """Kajongg's hand ``text`` as our HandInput (as a winner when it holds 14 tiles plus one
    per kong)."""
    rack: list[str] = []
    melds: list[Meld] = []
    bonus: list[str] = []
    last: str | None = None
    last_meld: list[str] = []
    source, flags = ".", ""
    for part in text.split():
        if part[0] == "L":
            last, last_meld = part[1:3], _tiles(part[3:])
    for part in text.split():
        if part[0] == "R":
            rack += _tiles(part[1:])
        elif part[0] == "L":
            continue
        elif part[0] == "m":
            source, flags = part[1], part[2:]
        elif part[0].lower() in "fy" and len(part) == 2:
            bonus.append(tile(part))
        else:
            ts = _tiles(part)
            if len(ts) == 4 and _low(ts[0]) and not _low(ts[1]):
                melds.append(Meld(tuple(tile(t) for t in ts), concealed=True))
            elif len(ts) >= 3 and any(map(_low, ts)):
                melds.append(Meld(tuple(tile(t) for t in ts)))
            else:  # concealed tiles or a pair
                rack += ts
    # the exposed set the last tile (claimed) completed is in the rack of a winner's hand
    claimed = [m for m in melds if _is_last(m, last_meld)] if last and _low(last) else []
    if claimed and len(rack) + 3 * len(melds) == 14:
        melds.remove(claimed[0])
        rack += [t for t in last_meld]
    full = len(rack) + 3 * len(melds) == 14
    hand = [tile(t) for t in rack]
    won_source, last_tile, first = _source(source, last, seat, full)
    winning = tile(last) if last else (hand[-1] if full else None)
    if full and winning is not None:  # the winning tile last, as our notation writes it
        hand.remove(winning)
        hand.append(winning)
    inp = HandInput(ruleset, seat, prevailing, melds, hand, bonus, full,
                    winning if full else None, won_source if full else None, last_tile, first,
                    [_FLAGS[f] for f in flags if f in _FLAGS])
    return Case(inp, full)


def _low(t: str) -> bool:
    """Kajongg writes an exposed tile with a lower-case group letter."""
    return t[0].islower()


def _is_last(meld: Meld, last_meld: list[str]) -> bool:
    return list(meld.tiles) == [tile(t) for t in last_meld]


def _source(source: str, last: str | None, seat: str, full: bool) -> tuple[str, bool, bool]:
    """(win_source, last tile of the wall, first discard) of Kajongg's source letter."""
    if source == "1":  # the 14th tile of east (blessing of heaven), or east's first discard
        return ("dealt", False, False) if seat == "east" else ("discard", False, True)
    if source in _SOURCES:
        return (*_SOURCES[source], False)
    # no last tile written: no item about the last tile applies, as after a discard
    return ("discard" if not last or _low(last) else "wall"), False, False
