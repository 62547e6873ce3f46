"""The operator's "end hand as washout" moves no tile: the tiles lie where they lay, and the
game says so (issue 22: a washout in the middle of a claim put the claimed discard back on the
pad in the game's eyes while it lay on the claimer's meld strip; the virtual players then
waited for ever for the table and the game to agree)."""

from __future__ import annotations

from collections import Counter

import pytest

from controller.game import GameState, apply, lying, new_game
from controller.game.zones import OFF_TABLE
from controller.tiles import tile_set
from tests.game.randomgame import random_session


def on_table(state: GameState) -> dict[str, Counter[str]]:
    return {zone: +counts for zone, counts in lying(state).items()
            if zone not in OFF_TABLE and +counts}


def mid_claim(state: GameState) -> bool:
    """A discard on its way to a claimer: on the strip forming a set, or taken for Mahjong."""
    hand = state.hand
    return hand is not None and hand.phase != "over" and (
        hand.claim is not None or hand.taken is not None)


@pytest.mark.parametrize("seed", range(6))
def test_a_washout_mid_claim_leaves_every_tile_where_it_lies(seed: int) -> None:
    seen, current = 0, new_game()
    for event in random_session(seed, 2):  # random legal games (tests/game/randomgame.py)
        outcome = apply(current, event)
        assert outcome.accepted, outcome.violation
        current = outcome.state
        if not mid_claim(current):
            continue
        ended = apply(current, {"correct": {"end_hand": "washout"}})
        assert ended.accepted, ended.violation
        assert on_table(ended.state) == on_table(current), event
        total: Counter[str] = Counter()
        for counts in lying(ended.state).values():
            total.update(counts)
        assert total == Counter(tile_set(False))  # every tile once (hua-bao: no bonus tiles)
        seen += 1
    assert seen > 0  # the random game had claims to end the hand in
