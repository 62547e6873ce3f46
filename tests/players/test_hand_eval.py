"""Shanten and useful tiles against a brute-force completeness check."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.players.hand_eval import (
    seven_pairs_shanten,
    shanten,
    standard_shanten,
    to_counts,
    useful_tiles,
)
from controller.tiles import KIND_INDEX, parse_tiles


def brute_complete(counts: list[int], sets: int) -> bool:
    """Four sets and a pair by plain recursion: take a pair once, then sets from the lowest tile."""
    if sum(counts) == 0:
        return sets == 0
    i = next(k for k, c in enumerate(counts) if c)
    if sets == 0:
        return False
    if counts[i] >= 3:
        counts[i] -= 3
        ok = brute_complete(counts, sets - 1)
        counts[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        ok = brute_complete(counts, sets - 1)
        for k in (i, i + 1, i + 2):
            counts[k] += 1
        return ok
    return False


def brute_with_pair(counts: list[int], sets: int) -> bool:
    for i in range(34):
        if counts[i] >= 2:
            counts[i] -= 2
            ok = brute_complete(counts, sets)
            counts[i] += 2
            if ok:
                return True
    return False


def counts_of(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def test_complete_hand_is_minus_one() -> None:
    assert standard_shanten(counts_of("1b2b3b 4b5b6b 7b8b9b 1c1c1c 2c2c"), 0) == -1


def test_ready_hand_is_zero_and_one_away_is_one() -> None:
    assert standard_shanten(counts_of("1b2b3b 4b5b6b 7b8b9b 1c1c1c 2c"), 0) == 0
    assert standard_shanten(counts_of("1b2b3b 4b5b6b 7b8b9b 1c1c 2c ew"), 0) == 1


def test_exposed_sets_count_toward_the_four() -> None:
    assert standard_shanten(counts_of("1b2b3b 7d7d"), 3) == -1
    assert standard_shanten(counts_of("1b2b 7d7d"), 3) == 0


def test_seven_pairs_only_when_asked() -> None:
    counts = counts_of("1b1b 3b3b 5c5c 7c7c 9d9d gdgd ewew")
    assert seven_pairs_shanten(counts) == -1
    assert shanten(counts, 0, seven_pairs=True) == -1
    assert shanten(counts, 0, seven_pairs=False) > -1


def test_useful_tiles_counts_unseen_copies() -> None:
    counts = counts_of("1b2b3b 4b5b6b 7b8b9b 1c1c1c 2c")
    unseen = [4 - c for c in counts]
    # 2c (pair) or 3c (1c1c pair and 1c2c3c) completes it: 3 + 4 unseen copies.
    assert useful_tiles(counts, 0, unseen) == 7
    unseen[KIND_INDEX["3c"]] = 1  # three 3c already visible elsewhere
    assert useful_tiles(counts, 0, unseen) == 4


@st.composite
def near_complete(draw: st.DrawFn) -> list[int]:
    """Mostly-structured 14-tile hands: four sets and a pair, up to two tiles swapped at random."""
    specs = draw(st.lists(st.tuples(st.integers(0, 33), st.booleans()), min_size=4, max_size=4))
    counts = [0] * 34
    for i, chow in specs:
        group = [i, i + 1, i + 2] if chow and i < 27 and i % 9 <= 6 else [i, i, i]
        # A set that would need a fifth copy becomes the first kind with room for a pung.
        if any(counts[k] + group.count(k) > 4 for k in group):
            j = next(k for k in range(34) if counts[k] == 0)
            group = [j, j, j]
        for k in group:
            counts[k] += 1
    pair = draw(st.integers(0, 33))
    if counts[pair] > 2:
        pair = next(k for k in range(34) if counts[k] == 0)
    counts[pair] += 2
    for out, into in draw(st.lists(st.tuples(st.integers(0, 33), st.integers(0, 33)), max_size=2)):
        if counts[out] and counts[into] < 4:
            counts[out] -= 1
            counts[into] += 1
    return counts


@settings(max_examples=300)
@given(near_complete())
def test_minus_one_exactly_when_complete(counts: list[int]) -> None:
    assert (standard_shanten(counts, 0) == -1) == brute_with_pair(list(counts), 4)


@settings(max_examples=150)
@given(near_complete(), st.data())
def test_zero_exactly_when_some_tile_completes(counts: list[int], data: st.DataObject) -> None:
    out = data.draw(st.integers(0, 33).filter(lambda k: counts[k] > 0))
    counts[out] -= 1
    # Shanten is about shape: a "wait" on a fifth copy counts here (the engine's waits do not).
    waits = []
    for k in range(34):
        counts[k] += 1
        if brute_with_pair(list(counts), 4):
            waits.append(k)
        counts[k] -= 1
    assert (standard_shanten(counts, 0) == 0) == bool(waits)
