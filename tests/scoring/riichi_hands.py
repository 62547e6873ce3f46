"""Random complete riichi hands for the property tests, built from sets (never from the scorer):
four sets and a pair (chows, pungs, kongs open and closed, claimed or concealed), seven pairs,
the thirteen orphans, and shapes aimed at each yakuman; every win source and flag; 1-5 dora
indicators (one more per kong), ura indicators in riichi; the options being tested."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from controller.scoring import HandInput
from controller.tiles import KINDS, Meld

SUIT_BASES = (0, 9, 18)
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
GREEN = (1, 2, 3, 5, 7, 32)  # 2b 3b 4b 6b 8b gd
WINDS = ("east", "south", "west", "north")
#: kinds a hand is drawn from: (name, kinds) -- mixes aim at the yaku of one kind of tile
POOLS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("any", tuple(range(34))),
    ("any", tuple(range(34))),
    ("simples", tuple(k for k in range(27) if k % 9 not in (0, 8))),
    ("one suit", tuple(range(9))),
    ("one suit and honours", (*range(9, 18), *range(27, 34))),
    ("terminals and honours", ORPHANS),
    ("honours", tuple(range(27, 34))),
    ("outside", (*ORPHANS, 1, 2, 6, 7, 10, 11, 15, 16, 19, 20, 24, 25)),
    ("terminals", (0, 8, 9, 17, 18, 26)),
    ("green", GREEN),
    ("dragons and winds", (*range(27, 34), *range(18, 27))),
)


@st.composite
def _set(draw: st.DrawFn, pool: tuple[int, ...], counts: list[int]) -> tuple[str, int] | None:
    """A chow ("chow", first kind) or pung ("pung", kind) from the pool that still fits."""
    chows = [k for k in pool if k < 27 and k % 9 <= 6 and k + 1 in pool and k + 2 in pool
             and all(counts[k + i] < 4 for i in range(3))]
    pungs = [k for k in pool if counts[k] <= 1]
    options = [("chow", k) for k in chows] + [("pung", k) for k in pungs]
    if not options:
        return None
    kind, k = draw(st.sampled_from(options))
    for i in range(3) if kind == "chow" else (0, 0, 0):
        counts[k + i] += 1
    return kind, k


#: sets a hand may start with, aimed at the yaku made of several sets: (kind, first kind)
def _themes(k: int, b: int) -> dict[str, list[tuple[str, int]]]:
    """``k``: a number 0-6 of the first suit; ``b``: a suit's first kind."""
    return {
        "none": [],
        "sanshoku doujun": [("chow", k), ("chow", k + 9), ("chow", k + 18)],
        "ittsu": [("chow", b), ("chow", b + 3), ("chow", b + 6)],
        "sanshoku doukou": [("pung", k), ("pung", k + 9), ("pung", k + 18)],
        "peikou": [("chow", b + k), ("chow", b + k)],
        "ryanpeikou": [("chow", b + k), ("chow", b + k), ("chow", (b + 9) % 27),
                       ("chow", (b + 9) % 27)],
        "dragons": [("pung", 31), ("pung", 32)],
        "winds": [("pung", 27), ("pung", 28), ("pung", 29)],
        "four winds": [("pung", 27), ("pung", 28), ("pung", 29), ("pung", 30)],
        "outside": [("chow", b), ("chow", (b + 15) % 27), ("pung", (b + 8) % 27)],
    }


THEMES = tuple(_themes(0, 0))


def _take(counts: list[int], kind: str, k: int) -> bool:
    kinds = [k, k + 1, k + 2] if kind == "chow" else [k, k, k]
    if any(counts[i] + kinds.count(i) > 4 for i in kinds):
        return False
    for i in kinds:
        counts[i] += 1
    return True


@st.composite
def standard(draw: st.DrawFn) -> tuple[list[Meld], list[str]] | None:
    """Four sets and a pair: each set concealed or on the table; a pung may be a kong."""
    _, pool = draw(st.sampled_from(POOLS))
    counts = [0] * 34
    theme = _themes(draw(st.integers(0, 6)), draw(st.sampled_from(SUIT_BASES)))[
        draw(st.sampled_from(THEMES + ("none",) * 4))]
    sets = [(kind, k) for kind, k in theme if _take(counts, kind, k)]
    pair = draw(st.sampled_from([k for k in pool if counts[k] <= 2] or [33]))
    if counts[pair] > 2:
        return None
    counts[pair] += 2
    while len(sets) < 4:
        found = draw(_set(pool, counts)) or draw(_set(tuple(range(34)), counts))
        assert found is not None  # 34 kinds always leave a set
        sets.append(found)
    kong_bias = draw(st.sampled_from((1, 1, 1, 3)))
    melds: list[Meld] = []
    concealed: list[str] = [KINDS[pair]] * 2
    for kind, k in sets:
        tiles = [KINDS[k + i] for i in range(3)] if kind == "chow" else [KINDS[k]] * 3
        how = draw(st.sampled_from(("concealed", "concealed", "claimed") + ("kong",) * kong_bias))
        if how == "kong" and kind == "pung" and counts[k] < 4:
            counts[k] += 1
            melds.append(Meld((KINDS[k],) * 4, draw(st.booleans())))
        elif how == "claimed":
            melds.append(Meld(tuple(tiles), False))
        else:
            concealed += tiles
    return melds, concealed


@st.composite
def seven_pairs(draw: st.DrawFn) -> tuple[list[Meld], list[str]]:
    _, pool = draw(st.sampled_from([p for p in POOLS if len(p[1]) >= 7]))
    kinds = draw(st.lists(st.sampled_from(pool), min_size=7, max_size=7, unique=True))
    return [], [KINDS[k] for k in kinds for _ in range(2)]


@st.composite
def orphans(draw: st.DrawFn) -> tuple[list[Meld], list[str]]:
    return [], [KINDS[k] for k in ORPHANS] + [KINDS[draw(st.sampled_from(ORPHANS))]]


@st.composite
def nine_gates(draw: st.DrawFn) -> tuple[list[Meld], list[str]]:
    base = draw(st.sampled_from(SUIT_BASES))
    extra = draw(st.integers(0, 8))
    tiles = [KINDS[base + i] for i, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)) for _ in range(n)]
    return [], [*tiles, KINDS[base + extra]]


SHAPES = st.integers(0, 15).flatmap(
    lambda n: orphans() if n == 0 else nine_gates() if n == 1 else seven_pairs() if n == 2
    else standard())


@st.composite
def options(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "kazoe": draw(st.sampled_from(("sanbaiman", "yakuman"))),
        "double_yakuman": draw(st.booleans()),
        "multiple_yakuman": draw(st.booleans()),
        "renhou": draw(st.sampled_from(("mangan", "yakuman", "off"))),
        "kiriage": draw(st.booleans()),
    }


def _held(melds: list[Meld], concealed: list[str]) -> list[int]:
    c = [0] * 34
    for t in [*concealed, *(t for m in melds for t in m.tiles)]:
        c[KINDS.index(t)] += 1
    return c


@st.composite
def _indicators(draw: st.DrawFn, held: list[int], n: int) -> list[str]:
    out: list[str] = []
    for _ in range(n):
        free = [k for k in range(34) if held[k] < 4]
        k = draw(st.sampled_from(free))
        held[k] += 1
        out.append(KINDS[k])
    return out


@st.composite
def winning_hands(draw: st.DrawFn) -> HandInput:  # noqa: C901 - one draw per fact of a win
    shape = draw(SHAPES)
    if shape is None:  # the theme's sets left no pair of the pool
        shape = draw(seven_pairs())
    melds, concealed = shape
    seat = draw(st.sampled_from(WINDS))
    prevailing = draw(st.sampled_from(WINDS))
    winning = draw(st.sampled_from(sorted(set(concealed))))
    closed = not any(not m.concealed for m in melds)
    kongs = sum(1 for m in melds if len(m.tiles) == 4)
    sources = ["wall", "discard", "discard", "robbed_kong"] + (["replacement"] if kongs else [])
    if seat == "east" and not melds:
        sources.append("dealt")
    source = draw(st.sampled_from(sources))
    flags: list[str] = []
    if closed and source != "dealt" and draw(st.booleans()):
        flags.append(draw(st.sampled_from(("riichi", "double_riichi"))))
        if draw(st.booleans()):
            flags.append("ippatsu")
    if not melds and source == "wall" and draw(st.integers(0, 5)) == 0:
        flags.append("first_turn")
    first_discard = (not melds and seat != "east" and source == "discard"
                     and draw(st.integers(0, 4)) == 0)
    last_tile = source in ("wall", "discard", "replacement") and draw(st.integers(0, 4)) == 0
    held = _held(melds, concealed)
    n_dora = draw(st.integers(1 + kongs, 5))
    dora = draw(_indicators(held, n_dora))
    ura = draw(_indicators(held, n_dora)) if {"riichi", "double_riichi"} & set(flags) else []
    return HandInput(
        "riichi", seat_wind=seat, prevailing_wind=prevailing, melds=melds, hand=concealed,
        mahjong=True, winning_tile=winning, win_source=source, last_tile=last_tile,
        first_discard=first_discard, flags=flags, options=draw(options()),
        dora_indicators=dora, ura_dora_indicators=ura,
    )
