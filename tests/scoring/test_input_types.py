"""The library's own entry (not only the command line) refuses a tile that is not a string with
a ScoringError naming the field, in every rule set, never a raw TypeError."""

from __future__ import annotations

from typing import Any

import pytest

from controller.scoring import RULESETS, HandInput, ScoringError, score_hand
from controller.scoring.model import Meld

HAND = ["1c", "2c", "3c", "wd", "wd", "2b", "3b", "4b", "7c", "8c", "9c"]


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("bad", [["1b"], {"tile": "1b"}, None, 3, b"1b"], ids=repr)
def test_a_tile_of_the_wrong_type_in_the_hand_is_a_scoring_error(ruleset: str, bad: Any) -> None:
    inp = HandInput(ruleset=ruleset, seat_wind="east", prevailing_wind="east",
                    melds=[Meld(tiles=["5b", "5b", "5b"], concealed=False)],
                    hand=[*HAND[:-1], bad], mahjong=True, winning_tile="wd", win_source="wall")
    with pytest.raises(ScoringError, match="hand"):
        score_hand(inp)
