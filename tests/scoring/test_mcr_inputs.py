"""mcr's quick path from a HandInput to a prepared hand (controller/scoring/mcr/inputs.py) against
the full checks every rule set runs: on a right input it makes the same hand; on an input broken
in any one way it gives up, so the score fails with the full checks' own error message."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcr_hands import winning_hands

from controller.scoring import HandInput, ScoringError, get_ruleset, score_hand
from controller.scoring.mcr.inputs import prepare, quick_hand
from controller.scoring.validate import check_input
from controller.tiles import Meld

RS = get_ruleset("mcr")


def _breakages(inp: HandInput) -> dict[str, dict[str, Any]]:
    """Ways to break a right input, each a dict of fields to replace."""
    hand = list(inp.hand)
    melds = list(inp.melds)
    out: dict[str, dict[str, Any]] = {
        "seat wind": {"seat_wind": "middle"},
        "prevailing wind": {"prevailing_wind": ["east"]},
        "unknown tile": {"hand": [*hand[:-1], "0b"]},
        "bonus tile in hand": {"hand": [*hand[:-1], "1f"]},
        "one tile too many": {"hand": [*hand, hand[0]]},
        "one tile short": {"hand": hand[1:]},
        "five of a kind": {"hand": [*hand[:-5], *[hand[0]] * 5]},
        "unknown flag": {"flags": ["lucky"]},
        "flags as a string": {"flags": "last_of_kind"},
        "no winning tile": {"winning_tile": None},
        "winning tile not held": {"winning_tile": "0b"},
        "unknown source": {"win_source": "sky"},
        "dealt to a non-dealer": {"win_source": "dealt", "seat_wind": "south"},
        "bonus twice": {"bonus": ["1f", "1f"]},
        "not a bonus tile": {"bonus": ["1b"]},
        "five melds": {"melds": [Meld(("1b", "2b", "3b"))] * 5},
        "concealed pung": {"melds": [*melds[:-1], Meld(("ew",) * 3, True)]} if melds else {},
        "no set": {"melds": [*melds[:-1], Meld(("1b", "3b", "5b"))]} if melds else {},
    }
    return {name: fields for name, fields in out.items() if fields}


def _error(inp: HandInput) -> str | None:
    try:
        check_input(inp, RS)
    except ScoringError as exc:
        return str(exc)
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(winning_hands(), st.data())
def test_the_quick_path_makes_the_checked_hand_or_gives_up(inp: HandInput, data: Any) -> None:
    inp = dataclasses.replace(inp, ruleset=RS)
    quick = quick_hand(inp, RS)
    assert quick is not None
    assert quick == prepare(inp, check_input(inp, RS))
    breakages = _breakages(inp)
    name = data.draw(st.sampled_from(sorted(breakages)))
    broken = dataclasses.replace(inp, **breakages[name])
    expected = _error(broken)
    if expected is None:  # still a right input (e.g. no flag was set): the same hand again
        assert quick_hand(broken, RS) == prepare(broken, check_input(broken, RS))
        return
    assert quick_hand(broken, RS) is None, name
    with pytest.raises(ScoringError) as caught:
        score_hand(broken)
    assert str(caught.value) == expected


def test_a_player_who_did_not_win_takes_the_full_path() -> None:
    inp = HandInput(RS, hand=["1b", "2b", "3b"], mahjong=False)
    assert quick_hand(inp, RS) is None
    assert score_hand(inp).leftover == ["1b", "2b", "3b"]
