"""bmja's own rules beside Kajongg's cases (test_kajongg.py): one chow at most, calling hands,
its special hands in waits and options."""

from __future__ import annotations

from dataclasses import replace

import pytest
from brute import waits as brute_waits
from hypothesis import given
from scoring_helpers import names, play

from controller.scoring import (
    HandInput,
    ScoreResult,
    ScoringError,
    get_ruleset,
    is_complete,
    score_hand,
    waits,
)
from controller.tiles import KINDS, parse_hand, parse_tiles
from tests.scoring.test_properties import winning_hands

BMJA, DMJL = get_ruleset("bmja"), get_ruleset("dmjl")


def test_a_complete_hand_holds_one_chow_at_most() -> None:
    two = parse_tiles("1b2b3b 4c5c6c 7d7d7d ewewew 9b9b")
    assert is_complete(two, [], DMJL) and not is_complete(two, [], BMJA)
    one = parse_tiles("1b2b3b 4c4c4c 7d7d7d ewewew 9b9b")
    assert is_complete(one, [], BMJA)
    # the melds count: a chow on the table leaves none for the concealed tiles
    h = parse_hand("[1b2b3b] 4c5c6c 7d7d7d ewewew 9b9b")
    assert not is_complete(h.concealed, h.melds, BMJA)
    h = parse_hand("[1b2b3b] 4c4c4c 7d7d7d ewewew 9b9b")
    assert is_complete(h.concealed, h.melds, BMJA)
    with pytest.raises(ScoringError, match="needs 2 chows, and bmja allows one chow"):
        play("bmja", "1b2b3b 4c5c6c 7d7d7d ewewew 9b9b")
    with pytest.raises(ScoringError, match="needs 3 chows, and bmja allows one chow"):
        play("bmja", "[1b2b3b] 4c5c6c 7d8d9d ewewew 9b9b")
    with pytest.raises(ScoringError, match="does not split into sets and a pair"):
        play("bmja", "1b2b4b 4c5c6c 7d7d7d ewewew 9b9b")  # no arrangement at all


def test_waits_leave_out_the_tiles_that_would_need_a_second_chow() -> None:
    rack = parse_tiles("1b2b3b 5c6c 7d7d7d ewewew 9b9b")  # 4c/7c would make a second chow
    assert waits(rack, [], DMJL) == ["4c", "7c"]
    assert waits(rack, [], BMJA) == []
    rack = parse_tiles("1b2b3b 5c5c 7d7d7d ewewew 9b9b")
    assert waits(rack, [], BMJA) == ["9b", "5c"]  # KINDS order


def test_a_non_winner_calling_for_a_limit_hand_scores_its_share() -> None:
    # 13 tiles waiting on 1c (a pair of ones) for the wriggling snake: 0.4 of the limit
    r = play("bmja", "1c2c3c4c5c6c7c8c9c ewswwwnw", won=None)
    assert r.limit_hand == "calling_wriggling_snake" and r.score == 400
    assert names(r) == ["calling for wriggling snake"]
    # the same tiles are no calling hand in dmjl (no such hand there)
    assert play("dmjl", "1c2c3c4c5c6c7c8c9c ewswwwnw", won=None).score == 0
    # switched off by the option, like a limit hand
    off = play("bmja", "1c2c3c4c5c6c7c8c9c ewswwwnw", won=None,
               options={"limit_hands": {"calling_wriggling_snake": 0}})
    assert off.limit_hand is None


def test_calling_for_purity_is_three_doublings_for_a_non_winner() -> None:
    # (all concealed it would be calling for buried treasure, the limit that counts)
    r = play("bmja", "[1b1b1b] 3b3b3b 6b6b6b 8b8b 2b2b", won=None)
    assert "calling for purity" in names(r) and r.limit_hand is None
    assert r.doubles == 3 and r.points == 4 + 4 + 4  # the 1b, 3b and 6b pungs


def test_a_limit_hand_can_be_switched_off() -> None:
    knitting = "2d2b 3d3b 4d4b 5d5b 6d6b 7d7b 9d 9b"
    assert play("bmja", knitting).limit_hand == "knitting"
    assert play("bmja", knitting).score == 500
    with pytest.raises(ScoringError, match="not complete"):  # and not a hand of dmjl
        play("dmjl", knitting)
    off = play("bmja", knitting, options={"limit_hands": {"knitting": 0}})
    assert off.limit_hand is None and off.score < 500


def _rest(inp: HandInput) -> list[str]:
    rest = list(inp.hand)
    rest.remove(str(inp.winning_tile))
    return rest


@given(winning_hands())
def test_bmja_waits_are_exactly_the_kinds_that_complete(inp: HandInput) -> None:
    """With the one-chow rule and the special hands tried kind by kind, waits() answers
    exactly the kinds that complete the hand by the tests' own check (brute.py), a kind held
    four times aside."""
    rest = _rest(inp)
    expected = brute_waits(rest, inp.melds, "bmja")
    got = waits(rest, inp.melds, BMJA)
    assert set(got) == expected and got == [k for k in KINDS if k in expected]


def _adds_up(r: ScoreResult) -> None:
    assert r.points == sum(i.points for i in r.items)
    assert r.doubles == sum(i.doubles for i in r.items)
    if r.limit_hand is not None:
        assert r.score == round(max(i.limit for i in r.items) * 1000)


@given(winning_hands())
def test_bmja_scores_add_up_for_winners_and_for_calling_non_winners(inp: HandInput) -> None:
    inp = replace(inp, ruleset="bmja")
    if is_complete(inp.hand, inp.melds, BMJA):
        _adds_up(score_hand(inp))
    loser = replace(inp, hand=_rest(inp), mahjong=False, winning_tile=None, win_source=None)
    r = score_hand(loser)
    _adds_up(r)
    calling = [i for i in r.items if i.name.startswith("calling for")]
    assert not calling or brute_waits(loser.hand, loser.melds, "bmja")  # needs a wait
