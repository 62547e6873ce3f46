"""The tables the scorer ships or builds for speed (issue 27) give the answers a plain search
gives: the complete suit parts (suit_parts.py), and the waits found with them."""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.scoring import arrange as ar
from controller.scoring import suit_parts
from controller.scoring.mcr import waits as mcr_waits


@cache
def splits(counts: tuple[int, ...], pairs: int) -> bool:
    """Whether a suit's counts split into pungs, chows and exactly ``pairs`` pairs: take the
    lowest tile held as a pung, a pair or the start of a chow, and search the rest."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        return pairs == 0
    c = list(counts)

    def without(*kinds: int) -> tuple[int, ...]:
        d = c.copy()
        for k in kinds:
            d[k] -= 1
        return tuple(d)

    return (
        (c[i] >= 3 and splits(without(i, i, i), pairs))
        or (c[i] >= 2 and pairs > 0 and splits(without(i, i), pairs - 1))
        or (i <= 6 and c[i + 1] > 0 and c[i + 2] > 0 and splits(without(i, i + 1, i + 2), pairs))
    )


def test_the_shipped_module_is_the_table_build_makes() -> None:
    shipped = Path(suit_parts.__file__).with_name("suit_parts_data.py").read_text()
    assert shipped == suit_parts.module_text()


def test_every_part_of_a_hand_is_complete_as_the_search_says() -> None:
    """All 405,350 suit parts of at most 14 tiles, no kind above four copies."""
    sets_only, with_pair = suit_parts.load()
    wrong = []
    for c in itertools.product(range(5), repeat=9):
        if sum(c) > suit_parts.MOST:
            continue
        if (c in sets_only, c in with_pair) != (splits(c, 0), splits(c, 1)):
            wrong.append(c)
    assert wrong == []
    assert sum(1 for c in sets_only if sum(c) == 12) > 0  # four sets are there


def _counts(kinds: list[int]) -> list[int]:
    c = [0] * 34
    for k in kinds:
        c[k] += 1
    return c


# 13, 10, 7 or 4 concealed tiles (a hand with melds), a suit or two favoured so that waits occur
hand_counts = st.builds(
    _counts,
    st.integers(1, 4).flatmap(lambda n: st.lists(
        st.one_of(st.integers(0, 8), st.integers(9, 17), st.integers(0, 33)),
        min_size=3 * n + 1, max_size=3 * n + 1)),
).filter(lambda c: max(c) <= 4)


@settings(max_examples=300, deadline=None)
@given(hand_counts)
def test_standard_waits_are_the_kinds_that_complete_the_hand(c: list[int]) -> None:
    """arrange's waits (its parts looked up in the table) and mcr's against adding each kind
    and searching: a kind completes 3n + 1 tiles when one part holds the pair, the rest sets."""
    expected = []
    for k in range(34):
        d = c.copy()
        d[k] += 1
        parts = [tuple(d[0:9]), tuple(d[9:18]), tuple(d[18:27])]
        h = d[27:34]
        honour_sets, honour_pair = (all(n % 3 == 0 for n in h),
                                    sorted(n % 3 for n in h) == [0] * 6 + [2])
        ok = [(splits(p, 0), splits(p, 1)) for p in parts] + [(honour_sets, honour_pair)]
        if any(ok[i][1] and all(ok[j][0] for j in range(4) if j != i) for i in range(4)):
            expected.append(k)
    assert ar.standard_waits(c) == expected
    assert sorted(mcr_waits.standard_waits(c)) == [k for k in expected if c[k] < 4]
    # mcr's two ways, the table's and the search's (a process's first hands): the same kinds
    assert sorted(mcr_waits.table_waits(c)) == [k for k in expected if c[k] < 4]
    assert sorted(mcr_waits.searched_waits(c)) == [k for k in expected if c[k] < 4]
