"""The director's wall: one shuffled tile set per hand, the deal order, and where the next tile is.

The wall is a list: live draws are taken from the front, replacement (loose) tiles from the
back, so the last 14 entries are always the dead wall (RULES.md 3.1 keeps it at 14).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from controller.tiles import Tile, tile_set

DEAD_WALL = 14
#: Tiles dealt before east's first discard: 13 to each seat and a 14th to the dealer.
DEAL_SIZE = 53


def build_wall(seed: int | str, number: int, bonus_tiles: bool) -> list[Tile]:
    """The shuffled wall of hand ``number``: the same (seed, number) always gives the same wall."""
    tiles = tile_set(bonus_tiles)
    random.Random(f"wall/{seed}/{number}").shuffle(tiles)
    return tiles


def turn_order(first: int) -> list[int]:
    """The four positions in turn order starting at ``first`` (positions run 1..4)."""
    return [(first - 1 + k) % 4 + 1 for k in range(4)]


def next_position(position: int) -> int:
    return position % 4 + 1


def deal_seat(index: int, dealer: int) -> int:
    """Who gets the ``index``-th dealt tile: 3 x 4 tiles each, 1 each, then the dealer's 14th."""
    order = turn_order(dealer)
    if index < 48:
        return order[(index // 4) % 4]
    if index < 52:
        return order[index - 48]
    return dealer


def next_dealer(hand: Mapping[str, Any] | None) -> int:
    """The dealer of the hand after ``hand`` (a public-view hand that is over): RULES.md 2."""
    if hand is None:
        return 1
    dealer = int(hand["dealer"])
    result = hand.get("result") or {}
    winner = result.get("winner")
    if winner is None or int(winner) == dealer:
        return dealer
    return next_position(dealer)


def wall_cursor(hand: Mapping[str, Any], total: int) -> tuple[int, int]:
    """(live draws taken from the front, replacements taken from the back) so far this hand.

    Worked out from the public view alone: every drawn tile counts against ``live_wall``;
    each laid bonus tile and each kong was (or is due to be) followed by one replacement.
    """
    drawn = total - DEAD_WALL - int(hand["live_wall"])
    seats = (hand.get("seats") or {}).values()
    replacements = sum(
        len(s.get("bonus", []))
        + sum(1 for m in s.get("melds", []) if len(m["tiles"]) == 4)
        - int(s.get("replacements_due", 0))
        for s in seats
    )
    return drawn - replacements, replacements
