"""mcr's scorer on its other paths (written from the mcr-rest mutation run of issue 29, seventh
session; docs/testing.md): a player who did not win, a hand scored again (the scorer keeps the
results of whole inputs), inputs that differ in one fact only, the refusals the quick path must
leave to the full checks (their own messages), the message of a hand of no shape (the shapes
RULES.md section 10 names), and the flowers in the tiles' order. Fans from pymahjonggb."""

from __future__ import annotations

from collections import Counter
from typing import Any

import brute
import pytest
from mcr_corpus import HANDS, hand_input
from mcr_oracle import oracle_fans

from controller.scoring import HandInput, ScoringError, get_ruleset, score_hand
from controller.scoring.mcr import waits
from controller.scoring.mcr.scorer import clear_caches
from controller.scoring.validate import check_input
from controller.tiles import KINDS, Meld

RS = get_ruleset("mcr")
STRAIGHT = "1b 2b 3b 4c 5c 6c 7d 8d 9d 2b 3b 4b 5d 5d".split()


def _hand(**kw: Any) -> HandInput:
    base: dict[str, Any] = {"ruleset": "mcr", "hand": STRAIGHT, "mahjong": True,
                            "winning_tile": "5d", "win_source": "discard"}
    return HandInput(**{**base, **kw})


def _fans(inp: HandInput) -> dict[str, int]:
    out: Counter[str] = Counter()
    for item in score_hand(inp).items:
        out[item.name] += item.points
    return dict(out)


def test_a_player_who_did_not_win_scores_nothing_and_keeps_the_rack() -> None:
    rack = STRAIGHT[:13]
    r = score_hand(HandInput("mcr", hand=rack, mahjong=False))
    assert (r.points, r.doubles, r.limit_hand, r.score) == (0, 0, None, 0)
    assert (r.items, r.arrangement, r.leftover) == ([], [], rack)
    with pytest.raises(ScoringError, match="who did not win holds at most 13"):
        score_hand(HandInput("mcr", hand=STRAIGHT, mahjong=False))


@pytest.mark.parametrize("tiles", [
    STRAIGHT, "1b 1b 3c 3c 5d 5d 7d 7d ew ew rd rd 9b 9b".split()])
def test_a_hand_scored_again_is_the_same_score(tiles: list[str]) -> None:
    clear_caches()
    inp = _hand(hand=tiles, winning_tile=tiles[-1])
    first, again = score_hand(inp), score_hand(inp)
    assert (again.points, again.doubles, again.limit_hand, again.score, again.special) == (
        first.points, first.doubles, first.limit_hand, first.score, first.special)
    assert (again.items, again.arrangement) == (first.items, first.arrangement)
    assert again.arrangement and again.points == sum(i.points for i in again.items)


def test_inputs_that_differ_in_one_fact_are_scored_apart() -> None:
    """A kong concealed or melded, the last tile of the wall or not: each input's own fans
    (pymahjonggb), whichever was scored first."""
    clear_caches()
    rack = "4c 5c 6c 7d 8d 9d 2b 3b 4b 5d 5d".split()
    for concealed in (True, False, True):
        inp = _hand(hand=rack, melds=[Meld(("1b", "1b", "1b", "1b"), concealed)])
        assert _fans(inp) == oracle_fans(inp)[1]
        assert ("Concealed Kong" in _fans(inp)) is concealed
    for last in (True, False):
        inp = _hand(last_tile=last)
        assert _fans(inp) == oracle_fans(inp)[1]
        assert ("Last Tile Claim" in _fans(inp)) is last


@pytest.mark.parametrize("change", [
    {"hand": "1b 1b 1b 1b 1b 4c 5c 6c 7d 8d 9d 5d 5d 5d".split()},  # a fifth 1b
    {"bonus": ["1f", "1f"]},  # one flower twice
    {"bonus": ["1b"]},  # no flower or season
    {"hand": STRAIGHT[:13]},  # a winner one tile short
    {"flags": [["x"]]},  # a flag of the wrong type (and so unhashable)
])
def test_an_input_broken_one_way_is_refused_with_the_full_checks_message(
        change: dict[str, Any]) -> None:
    inp = _hand(**change)
    with pytest.raises(ScoringError) as full:
        check_input(inp, RS)
    with pytest.raises(ScoringError) as scored:
        score_hand(inp)
    assert str(scored.value) == str(full.value)


def test_a_hand_of_no_shape_names_its_tiles_and_the_shapes_it_is_not() -> None:
    tiles = "1b 2b 4b 4c 5c 6c 7d 8d 9d 2b 3b 4b 5d 5d".split()
    with pytest.raises(ScoringError) as e:
        score_hand(_hand(hand=tiles))
    assert str(e.value) == (
        "the winner's hand 1b 2b 2b 3b 4b 4b 4c 5c 6c 5d 5d 7d 8d 9d is not complete: it is no "
        "standard hand, seven pairs, seven shifted pairs, thirteen orphans, honours and knitted "
        "tiles, nor a knitted straight with a set and a pair")


def test_flowers_are_listed_flowers_first_and_no_fan_is_a_bonus_doubling() -> None:
    r = score_hand(_hand(bonus=["1s", "2f", "4f"]))
    (flowers,) = [i for i in r.items if i.name == "Flower Tiles"]
    assert (flowers.tiles, flowers.points) == (("2f", "4f", "1s"), 3)
    assert not any(i.bonus or i.doubles or i.limit for i in r.items)


def test_the_searched_and_the_tabled_waits_are_the_references() -> None:
    """Both ways mcr finds a rack's standard waits (arrange.py's search for a process's first
    hands, then the table) give the kinds that make the rack four sets and a pair by the tests'
    own search (tests/scoring/brute.py), a fifth copy left out; on the corpus's racks."""
    checked = 0
    for line in HANDS[:60]:
        inp = hand_input(line)
        rack = list(inp.hand)
        rack.remove(inp.winning_tile)  # type: ignore[arg-type]
        sets = 4 - len(inp.melds)
        counts = [rack.count(k) for k in KINDS]
        expected = [k for k, kind in enumerate(KINDS) if counts[k] < 4
                    and brute.standard([*rack, kind], [], "hua-bao")] if sets == 4 else None
        if expected is None:
            continue
        for searched in (True, False):
            waits._MADE.clear()
            waits._SEARCHED[0] = 0 if searched else waits.BUILD_TABLE_AFTER
            assert waits.standard_waits(list(counts)) == expected, (line, searched)
        checked += 1
    assert checked >= 20
