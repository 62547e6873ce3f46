"""Hypothesis strategies for complete mcr winning hands of every shape, with valid facts."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from controller.scoring import HandInput
from controller.tiles import BONUS_CODES, KINDS, WINDS, Meld

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
KNITTED = [
    tuple(s * 9 + r for s, start in zip(order, (0, 1, 2), strict=True) for r in (start, start + 3,
                                                                                  start + 6))
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
]


@st.composite
def _group(draw: Any, counts: list[int], kind: str | None = None,
           kinds_from: tuple[int, ...] | None = None) -> tuple[str, list[int]] | None:
    """One set (chow, pung, kong) whose tiles are still available; None if none fits.
    ``kinds_from``: the kinds the set's first tile may be (a flush, honours)."""
    kind = kind or draw(st.sampled_from(["chow", "chow", "pung", "pung", "kong"]))
    pool = kinds_from or tuple(range(34))
    if kind == "chow":
        low = draw(st.sampled_from([i for i in pool if i < 27 and i % 9 <= 6] or [0]))
        kinds = [low, low + 1, low + 2]
    else:
        k = draw(st.sampled_from(pool))
        kinds = [k] * (3 if kind == "pung" else 4)
    for k in set(kinds):
        if counts[k] + kinds.count(k) > 4:
            return None
    for k in kinds:
        counts[k] += 1
    return kind, kinds


@st.composite
def standard(draw: Any) -> tuple[list[Meld], list[int]]:
    counts = [0] * 34
    melds: list[Meld] = []
    hand: list[int] = []
    bias = draw(st.sampled_from([None, "chow", "pung"]))
    suit = draw(st.sampled_from([None, None, 0, 1, 2]))  # a flush or half flush now and then
    pool = None if suit is None else tuple(range(suit * 9, suit * 9 + 9)) + (
        tuple(range(27, 34)) if draw(st.booleans()) else ())
    for _ in range(4):
        g = None
        while g is None:
            g = draw(_group(counts, draw(st.sampled_from([bias, None])) if bias else None,
                            pool))
        kind, kinds = g
        tiles = tuple(KINDS[k] for k in kinds)
        if kind == "kong":
            melds.append(Meld(tiles, draw(st.booleans())))
        elif draw(st.integers(0, 2)) == 0:
            melds.append(Meld(tiles, False))
        else:
            hand += kinds
    pair = draw(st.sampled_from(pool or tuple(range(34))).filter(lambda k: counts[k] <= 2))
    hand += [pair, pair]
    return melds, hand


@st.composite
def seven_pairs(draw: Any) -> tuple[list[Meld], list[int]]:
    if draw(st.booleans()):
        low = draw(st.integers(0, 26).filter(lambda i: i % 9 <= 2))
        return [], [low + d for d in range(7) for _ in (0, 1)]
    kinds = draw(st.lists(st.integers(0, 33), min_size=7, max_size=7).filter(
        lambda ks: all(ks.count(k) <= 2 for k in ks)))
    return [], [k for k in kinds for _ in (0, 1)]


@st.composite
def orphans(draw: Any) -> tuple[list[Meld], list[int]]:
    return [], [*ORPHANS, draw(st.sampled_from(ORPHANS))]


@st.composite
def knitted_honours(draw: Any) -> tuple[list[Meld], list[int]]:
    body = draw(st.sampled_from(KNITTED))
    n = draw(st.integers(7, 9))
    numbered = draw(st.permutations(body))[:n]
    honours = draw(st.permutations(ORPHANS[6:]))[: 14 - n]
    return [], [*numbered, *honours]


@st.composite
def knitted_straight(draw: Any) -> tuple[list[Meld], list[int]]:
    body = draw(st.sampled_from(KNITTED))
    counts = [0] * 34
    for k in body:
        counts[k] += 1
    g = None
    while g is None:
        g = draw(_group(counts))
    kind, kinds = g
    melds: list[Meld] = []
    hand = list(body)
    tiles = tuple(KINDS[k] for k in kinds)
    if kind == "kong":
        melds.append(Meld(tiles, draw(st.booleans())))
    elif draw(st.booleans()):
        melds.append(Meld(tiles, False))
    else:
        hand += kinds
    pair = draw(st.integers(0, 33).filter(lambda k: counts[k] <= 2))
    return melds, [*hand, pair, pair]


@st.composite
def nine_gates(draw: Any) -> tuple[list[Meld], list[int]]:
    base = 9 * draw(st.integers(0, 2))
    extra = base + draw(st.integers(0, 8))
    return [], [base] * 3 + [base + r for r in range(1, 8)] + [base + 8] * 3 + [extra]


SHAPES = st.one_of(standard(), standard(), standard(), seven_pairs(), orphans(),
                   knitted_honours(), knitted_straight(), nine_gates())


@st.composite
def winning_hands(draw: Any) -> HandInput:
    """A complete winning hand with facts that could happen at a table."""
    melds, kinds = draw(SHAPES)
    hand = [KINDS[k] for k in kinds]
    wt = draw(st.sampled_from(hand))
    held = hand.count(wt)
    in_melds = sum(m.tiles.count(wt) for m in melds)
    seat = draw(st.sampled_from(WINDS))
    sources = ["wall", "discard", "discard", "replacement"]
    if held == 1 and in_melds == 0:
        sources.append("robbed_kong")
    if seat == "east" and not melds:
        sources.append("dealt")
    src = draw(st.sampled_from(sources))
    last_tile = src not in ("robbed_kong", "dealt") and draw(st.integers(0, 4)) == 0
    flags = ["last_of_kind"] if held == 1 and src != "dealt" and draw(st.booleans()) else []
    bonus = draw(st.lists(st.sampled_from(BONUS_CODES), unique=True, max_size=8))
    return HandInput(
        "mcr", seat_wind=seat, prevailing_wind=draw(st.sampled_from(WINDS)), melds=melds,
        hand=draw(st.permutations(hand)), bonus=bonus, mahjong=True, winning_tile=wt,
        win_source=src, last_tile=last_tile, flags=flags,
    )
