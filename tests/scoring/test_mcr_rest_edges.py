"""mcr's waits, caches and package at the edges the mcr-rest mutation run found untested (issue
29, eighth session; docs/testing.md): a seven-pairs wait beside the standard one, a kind all four
of which the hand holds (RULES.md section 5: no wait), a fifth copy never a wait, the switch from
searched waits to the table, the splits of counts that make no hand, the scored hands' cache and
its bound, the special shape named, and the package's lazy ``score_mcr``. Fans from pymahjonggb
(an independent C++ fan calculator) or the rule book, never from the code under test."""

from __future__ import annotations

from collections import Counter

import brute
import pytest
from mcr_corpus import hand_input
from mcr_oracle import oracle_fans
from test_mcr_fans import _fans

from controller.scoring import HandInput, ScoringError, score_hand
from controller.scoring.mcr import scorer, waits
from controller.scoring.mcr.hand import splits
from controller.scoring.mcr.sets import CHOW_TABLE, PUNG_TABLE
from controller.tiles import KINDS, Meld

WAIT_FANS = {"Edge Wait", "Closed Wait", "Single Wait"}
K = {k: i for i, k in enumerate(KINDS)}


def _counts(tiles: str) -> list[int]:
    c = [0] * 34
    for t in tiles.split():
        c[K[t]] += 1
    return c


def _named(tiles: list[str] | tuple[str, ...]) -> dict[str, int]:
    return dict(Counter(tiles))


# Before the win each rack waited on the tile won (its only standard wait: a closed, edge or
# single wait) and on its odd tile for seven pairs (four of a kind counts as two pairs): two
# kinds, so no wait fan (RULES.md 5: a wait completes sets and a pair, or a special hand).
TWO_WAITS = [
    # the odd tile is a single 4b: 4b 6b for a closed wait on 5b, or 4b4b for seven pairs
    "south west |  | 4b 6b 6b 7b 7b 8b 8b 9b 9b 9b 9b rd rd 5b | 0 | 5b discard",
    # the odd kind is a third rd (the fourth makes two pairs), beside the edge wait 7b on 8b9b
    # (8b and 9b: all four held)
    "south west |  | 8b 8b 8b 8b 9b 9b 9b 9b ew ew rd rd rd 7b | 0 | 7b discard",
]


@pytest.mark.parametrize("line", TWO_WAITS)
def test_a_seven_pairs_wait_beside_the_standard_one_is_a_second_wait(line: str) -> None:
    ours, theirs = _fans(line)
    assert not WAIT_FANS & set(ours)
    assert dict(ours) == theirs


# 9d: the 7d8d9d chow on the table, the 7d8d9d in the rack and the 9d pair hold all four, so
# the rack before the win (6d6d 7d8d9d 9d9d) waited only on 6d: read as 6d7d8d + 9d9d9d + 6d6d
# the win is an Edge Wait (RULES.md 5: a kind all four of which the hand holds is no wait).
# pymahjonggb counts 9d as a wait (docs/scoring.md, mcr reading 2): the one fan between us.
DEAD_9D = "east east | 1b 2b 3b, 7d 8d 9d | 7d 8d 9d 6d 6d 6d 9d 9d | 0 | 6d wall last"
# the same with the chow on the table in bamboo: 9d is a live wait, no wait fan; pymahjonggb's
# total (its arrangement differs: 7d8d9d + 6d6d6d, of equal value)
LIVE_9D = "east east | 1b 2b 3b, 7b 8b 9b | 7d 8d 9d 6d 6d 6d 9d 9d | 0 | 6d wall last"


def test_a_kind_all_four_of_which_the_hand_holds_is_no_wait() -> None:
    inp = hand_input(DEAD_9D)
    r = score_hand(inp)
    ours = Counter({i.name: i.points for i in r.items})
    their_total, theirs = oracle_fans(inp)
    assert ours["Edge Wait"] == 1 and "Edge Wait" not in theirs
    assert r.points == their_total + 1
    live = score_hand(hand_input(LIVE_9D))
    assert not WAIT_FANS & {i.name for i in live.items}
    assert live.points == oracle_fans(hand_input(LIVE_9D))[0]


@pytest.mark.parametrize("searched", [True, False])
def test_a_fifth_copy_is_no_wait_on_either_path(searched: bool) -> None:
    """1b1b1b1b 2b2b 3b3b 4c5c6c ewew: a fifth 1b would make 1b1b1b 1b2b3b 1b2b3b, but there
    is no fifth 1b; 4b (1b1b 1b1b... 2b3b4b) and ew are the waits (the tests' own search)."""
    rack = "1b 1b 1b 1b 2b 2b 3b 3b 4c 5c 6c ew ew"
    expected = sorted((k for k in KINDS if rack.split().count(k) < 4
                       and brute.standard([*rack.split(), k], [], "hua-bao")), key=K.__getitem__)
    assert expected == ["4b", "ew"]
    waits._MADE.clear()
    waits._SEARCHED[0] = 0 if searched else waits.BUILD_TABLE_AFTER
    assert [KINDS[k] for k in waits.standard_waits(_counts(rack))] == expected


def test_the_table_holds_parts_of_at_most_four_sets_and_four_copies() -> None:
    """The table's codes (waits.py: a byte per kind, its count) are parts of a hand: at most
    four of a kind, nine kinds of a suit or seven honours, at most four sets (and the pair)."""
    waits._MADE.clear()
    for part, kinds in ((0, 9), (3, 7)):
        for paired, table in enumerate(waits._tables()[part]):
            for code in table:
                counts = code.to_bytes(16, "little")
                assert max(counts) <= 4 and not any(counts[kinds:]), (part, code)
                assert sum(counts) % 3 == 2 * paired and sum(counts) <= 12 + 2 * paired


def test_the_table_is_built_after_the_first_searched_hands() -> None:
    """waits.py's docstring: the first BUILD_TABLE_AFTER hands are searched, so that a process
    scoring one hand never builds the table; the next builds it; the answers are the same."""
    rack = _counts("2b 3b 4c 5c 6c 7d 8d 9d 1b 1b 1b ew ew")
    waits._MADE.clear()
    waits._SEARCHED[0] = 0
    for _ in range(waits.BUILD_TABLE_AFTER):
        assert [KINDS[k] for k in waits.standard_waits(list(rack))] == ["1b", "4b", "ew"]
        assert not waits._MADE
    assert [KINDS[k] for k in waits.standard_waits(list(rack))] == ["1b", "4b", "ew"]
    assert waits._MADE


@pytest.mark.parametrize(("tiles", "sets"), [
    ("1b 2b 3b ew ew 5c", 1),  # a tile too many: no way
    ("1b 1b", 1),  # too few tiles for a set
    ("ew ew", 1),
    ("ew sw ww 5c 5c", 1),  # three winds are no chow
    ("1b 2b 3b 7b 8b 9b 5c 5c", 1),
])
def test_counts_that_make_no_sets_and_pair_have_no_split(tiles: str, sets: int) -> None:
    assert splits(tuple(_counts(tiles)), sets) == ()


def test_three_winds_are_no_set() -> None:
    with pytest.raises(ScoringError, match="is not complete"):
        score_hand(hand_input("south west |  | ew sw ww 1b 2b 3b 4c 5c 6c 7d 8d 9d 5c 5c | 0 | "
                              "5c discard"))


def test_clearing_the_caches_empties_the_set_tables_unless_told_not_to() -> None:
    line = "south west |  | 1b 2b 3b 1b 2b 3b 4c 5c 6c 7d 8d 9d 5d 5d | 0 | 5d discard"
    scorer.clear_caches()
    score_hand(hand_input(line))
    filled = len(CHOW_TABLE) + len(PUNG_TABLE)
    assert filled
    scorer.clear_caches(tables=False)
    assert len(CHOW_TABLE) + len(PUNG_TABLE) == filled
    scorer.clear_caches()
    assert not CHOW_TABLE and not PUNG_TABLE


def _full_input() -> HandInput:
    """A hand with a meld, flowers and a flag: every part of the cache's key."""
    return HandInput(ruleset="mcr", seat_wind="south", prevailing_wind="west",
                     melds=[Meld(("1b", "2b", "3b"))],
                     hand="4c 5c 6c 7d 8d 9d 2b 3b 4b 5d 5d".split(),
                     bonus=["1f", "2s"], mahjong=True, winning_tile="5d", win_source="wall",
                     last_tile=False, flags=["last_of_kind"])


def test_a_hand_scored_again_is_answered_from_the_cache() -> None:
    """The game scores one hand several times around a Mahjong call: the second time its
    concealed tiles are not split again (the splits' own cache counts every call)."""
    scorer.clear_caches()
    first = score_hand(_full_input())
    calls = splits.cache_info()
    assert calls.misses
    again = score_hand(_full_input())
    assert splits.cache_info() == calls
    assert (again.points, again.items, again.arrangement) == (
        first.points, first.items, first.arrangement)


def test_the_cache_of_scored_hands_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scorer, "_MEMO_SIZE", 2)
    scorer.clear_caches()
    for tile in ("5d", "6d", "7d"):
        score_hand(hand_input(f"south west |  | 1b 2b 3b 4c 5c 6c 7d 8d 9d 2b 3b 4b {tile} {tile} "
                              f"| 0 | {tile} discard"))
        assert len(scorer._MEMO) <= 2


@pytest.mark.parametrize(("line", "special"), [
    ("south west |  | 1b 1b 3c 3c 5d 5d 7d 7d ew ew rd rd 9b 9b | 0 | 9b discard", "seven_pairs"),
    ("east south |  | 1b 4b 7b 2c 5c 8c 3d 6d 9d 4d 5d 6d ew ew | 0 | 5d discard",
     "knitted_straight"),
    ("south west |  | 1b 2b 3b 4c 5c 6c 7d 8d 9d 2b 3b 4b 5d 5d | 0 | 5d discard", None),
])
def test_the_special_shape_is_named(line: str, special: str | None) -> None:
    """docs/scoring.md: the answer's ``special`` names the special hand the hand was scored
    as (the rule set's names), null for four sets and a pair."""
    r = score_hand(hand_input(line))
    assert r.special == special
    assert r.to_json()["special"] == special


def test_the_package_gives_score_mcr_when_asked_and_nothing_else() -> None:
    from controller.scoring import mcr
    from controller.scoring.mcr import score_mcr

    assert score_mcr is scorer.score_mcr
    with pytest.raises(AttributeError) as e:
        mcr.nothing  # noqa: B018 - the attribute asked for
    # Python's own words for a module's missing attribute
    assert str(e.value) == "module 'controller.scoring.mcr' has no attribute 'nothing'"
