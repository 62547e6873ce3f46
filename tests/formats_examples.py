"""FORMATS.md's worked inputs, shared by the tests of the command-line contract. Copy before
changing one."""

from __future__ import annotations

from typing import Any

#: the `score` input of FORMATS.md (RULES.md example A, south's winning hand)
SCORE_EXAMPLE_A: dict[str, Any] = {
    "ruleset": "hua-bao", "options": {"mahjong_bonus": 10, "limit": 500},
    "seat_wind": "south", "prevailing_wind": "east",
    "melds": [{"tiles": ["5b", "5b", "5b"], "concealed": False},
              {"tiles": ["4d", "5d", "6d"], "concealed": False}],
    "hand": ["gd", "gd", "gd", "1c", "2c", "3c", "ew", "ew"], "bonus": [],
    "mahjong": True, "winning_tile": "3c", "win_source": "wall",
    "last_tile": False, "first_discard": False, "flags": [],
}
