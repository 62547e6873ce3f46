"""Shanten over each rule set's shapes against independent references: the PyPI ``mahjong``
package (four sets and a pair, seven different pairs, thirteen orphans) and brute force over
every complete hand of the shapes it does not know (tests/analysis/reference.py)."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.analysis.shanten import shapes_for
from controller.scoring import get_ruleset
from controller.tiles import KIND_INDEX, parse_hand
from tests.analysis import reference as ref


def shapes(name: str):  # type: ignore[no-untyped-def]
    rs = get_ruleset(name)
    return shapes_for(rs.name, rs.specials, rs.max_chows)


def counts(text: str) -> list[int]:
    out = [0] * 34
    for t in parse_hand(text).concealed:
        out[KIND_INDEX[t]] += 1
    return out


@st.composite
def hands(draw: st.DrawFn, melds: int | None = None, four: bool = False,
          kinds: Sequence[int] = tuple(range(34))) -> tuple[list[int], int]:
    """Concealed counts of 13 or 14 tiles less three per set on the table (``melds``); three
    copies of a kind at most unless ``four``: the shapes count a kind held four times as any
    other, and only a ready hand is held to the fifth-copy rule (``Shapes.value``, tested on its
    own below), where the package also adds a step to some hands that are not ready."""
    m = draw(st.integers(0, 4)) if melds is None else melds
    size = draw(st.sampled_from((13, 14))) - 3 * m
    wall = [k for k in kinds for _ in range(4 if four else 3)]
    picked = draw(st.permutations(wall))[:size]
    out = [0] * 34
    for k in picked:
        out[k] += 1
    return out, m


# --- the package's shapes ----------------------------------------------------------------------


@settings(max_examples=100)
@given(hands())
def test_riichi_shanten_is_the_package_s(hand: tuple[list[int], int]) -> None:
    c, melds = hand
    assert shapes("riichi").shanten(c, melds) == ref.package_shanten(c, melds == 0, melds == 0)


@settings(max_examples=60)
@given(hands())
def test_standard_and_orphans_of_hua_bao_and_dmjl_are_the_package_s(
        hand: tuple[list[int], int]) -> None:
    c, melds = hand
    expected = ref.package_shanten(c, False, melds == 0)
    assert shapes("hua-bao").shanten(c, melds) == expected
    assert shapes("dmjl").shanten(c, melds) == expected


@settings(max_examples=60)
@given(hands())
def test_swedish_counts_seven_pairs_not_thirteen_orphans(hand: tuple[list[int], int]) -> None:
    c, melds = hand
    assert shapes("swedish").shanten(c, melds) == ref.package_shanten(c, melds == 0, False)


def test_worked_shapes() -> None:
    riichi = shapes("riichi")
    assert riichi.shanten(counts("1c2c3c 4d5d6d 7b8b9b ewewew 5d5d"), 0) == -1
    assert riichi.shanten(counts("1c2c3c 4d5d6d 7b8b9b ewewew 5d"), 0) == 0
    assert riichi.shanten(counts("1c1c 2d2d 3b3b 4c4c 5d5d 6b6b 7c"), 0) == 0  # seven pairs
    # no seven pairs in hua-bao: four pairs become pungs (a tile each), one stays the pair
    assert shapes("hua-bao").shanten(counts("1c1c 2d2d 3b3b 4c4c 5d5d 6b6b 7c"), 0) == 3
    orphans = counts("1b9b1c9c1d9d ewswwwnw rdgdwd")
    assert riichi.shanten(orphans, 0) == 0 and shapes("swedish").shanten(orphans, 0) > 0


def test_a_wait_on_the_fifth_copy_is_no_wait() -> None:
    """RULES.md 5: a kind the hand holds all four of is no wait (four east winds and three
    sets: the fourth east wind waits for its pair, a fifth)."""
    riichi = shapes("riichi")
    c = counts("ewewewew 4d5d6d 7b8b9b 2c3c4c")
    assert riichi.shanten(c, 0) == 0  # the shapes alone: a single ew waiting for its pair
    assert riichi.value(c, 0, 0, c) == 1
    other = counts("1c1c1c 4d5d6d 7b8b9b 2c3c4c 5b")
    assert riichi.value(other, 0, 0, other) == 0


# --- shapes the package does not know: brute force ------------------------------------------------


@settings(max_examples=20)
@given(hands(melds=0))
def test_mcr_concealed_shapes_are_the_nearest_complete_hand(hand: tuple[list[int], int]) -> None:
    c, _ = hand
    expected = min(
        ref.package_shanten(c, False, True),  # four sets and a pair; thirteen orphans
        ref.seven_pairs_mcr(c),
        ref.distance(c, ref.honours_and_knitted()) - 1,
        ref.distance(c, ref.knitted_straight(0)) - 1,
    )
    assert shapes("mcr").shanten(c, 0) == expected


@settings(max_examples=40)
@given(hands(melds=0, kinds=tuple(range(27)) + (27, 28, 29, 30, 31)))
def test_mcr_knitted_shapes_with_many_knitted_tiles(hand: tuple[list[int], int]) -> None:
    """Hands drawn from one knitted straight's kinds and honours, where the knitted shapes win."""
    c, _ = hand
    body = ref.knitted_straights()[0]
    c = [n if k in body or k >= 27 else 0 for k, n in enumerate(c)]
    if sum(c) not in (1, 2, 4, 5, 7, 8, 10, 11, 13, 14):
        return
    expected = min(ref.package_shanten(c, False, True), ref.seven_pairs_mcr(c),
                   ref.distance(c, ref.honours_and_knitted()) - 1,
                   ref.distance(c, ref.knitted_straight(0)) - 1) if sum(c) >= 13 else None
    if expected is not None:
        assert shapes("mcr").shanten(c, 0) == expected


@settings(max_examples=30)
@given(hands(melds=1))
def test_mcr_knitted_straight_with_a_set_on_the_table(hand: tuple[list[int], int]) -> None:
    c, _ = hand
    expected = min(ref.package_shanten(c, False, False),
                   ref.distance(c, ref.knitted_straight(1)) - 1)
    assert shapes("mcr").shanten(c, 1) == expected


def test_mcr_four_of_a_kind_is_two_pairs() -> None:
    c = counts("1c1c1c1c 2d2d 3b3b 4c4c 5d5d 6b")
    assert shapes("mcr").shanten(c, 0) == 0
    assert shapes("riichi").shanten(c, 0) > 0  # seven different pairs there


@settings(max_examples=15)
@given(hands())
def test_bmja_shapes_are_the_nearest_complete_hand(hand: tuple[list[int], int]) -> None:
    """One chow at most, and bmja's special hands (no seven pairs)."""
    c, melds = hand
    expected = ref.standard_one_chow(c, melds, False)
    if melds == 0:
        expected = min(expected, ref.distance(c, ref.thirteen_orphans()) - 1,
                       ref.distance(c, ref.wriggling_snake()) - 1,
                       ref.distance(c, ref.all_pair_honours()) - 1,
                       ref.distance(c, ref.knitting()) - 1,
                       ref.distance(c, ref.triple_knitting()) - 1)
    assert shapes("bmja").shanten(c, melds) == expected


@settings(max_examples=15)
@given(hands(melds=0, kinds=tuple(range(27))))
def test_bmja_knitted_hands_from_suited_tiles(hand: tuple[list[int], int]) -> None:
    c, _ = hand
    expected = min(ref.standard_one_chow(c, 0, False),
                   ref.distance(c, ref.knitting()) - 1,
                   ref.distance(c, ref.triple_knitting()) - 1,
                   ref.distance(c, ref.thirteen_orphans()) - 1,
                   ref.distance(c, ref.wriggling_snake()) - 1,
                   ref.distance(c, ref.all_pair_honours()) - 1)
    assert shapes("bmja").shanten(c, 0) == expected


@settings(max_examples=20)
@given(hands(melds=1))
def test_bmja_with_a_chow_on_the_table_holds_pungs_only(hand: tuple[list[int], int]) -> None:
    c, _ = hand
    assert shapes("bmja").shanten(c, 1, 1) == ref.standard_one_chow(c, 1, True)


@settings(max_examples=40)
@given(st.sampled_from(("mcr", "bmja", "swedish", "hua-bao")), hands())
def test_the_kinds_that_improve_a_hand_are_all_found(name: str,
                                                     hand: tuple[list[int], int]) -> None:
    """``improving`` looks only at the shapes at the hand's count and the kinds that can join
    them; trying every kind with the whole count finds the same."""
    c, melds = hand
    if (sum(c) + 3 * melds) != 13:
        return
    s = shapes(name)
    left = s.shanten(c, melds)
    every = []
    for k in range(34):
        if c[k] < 4:
            c[k] += 1
            if s.shanten(c, melds) < left:
                every.append(k)
            c[k] -= 1
    assert s.improving(c, melds, 0, left) == every
