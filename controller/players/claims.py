"""Who gets a discard when several bots want it (RULES.md 4), and the events of the claim.

Mahjong beats kong and pung, which beat chow; equal claims go to the claimant nearest in turn
order from the discarder, or (``mahjong_tie = highest_value``) a contested Mahjong to the hand
that scores most.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from controller.players.bots import CLAIM_RANK, ClaimIntent
from controller.players.wall import turn_order

Event = dict[str, Any]


def resolve(
    intents: Mapping[int, ClaimIntent],
    discarder: int,
    mahjong_tie: str = "turn_order",
    value: Callable[[int], int] | None = None,
    holds: Mapping[int, int] | None = None,
) -> int:
    """The winning position among ``intents`` (at least one) on ``discarder``'s tile.

    ``holds``: copies of the discard in each claimant's rack. A contested claim is weighed
    by the best set the claimant could make (FORMATS.md: the controller works it out from the
    racks), so a seat that calls for a chow while holding a pair ranks as a pung.
    """

    def rank(p: int) -> int:
        kind = intents[p].kind
        if kind == "chow" and holds is not None and holds.get(p, 0) >= 2:
            kind = "pung"
        return CLAIM_RANK[kind]

    order = [p for p in turn_order(discarder)[1:] if p in intents]
    top = max(rank(p) for p in order)
    best = [p for p in order if rank(p) == top]
    if len(best) > 1 and intents[best[0]].kind == "mahjong" and mahjong_tie == "highest_value":
        if value is not None:
            scores = {p: value(p) for p in best}
            # max() keeps the first of equal scores, i.e. the nearest in turn order.
            return max(best, key=lambda p: scores[p])
    return best[0]


def move(tile: str, source: str, target: str) -> Event:
    return {"move": {"tile": tile, "from": source, "to": target}}


def declare(seat: int, call: str) -> Event:
    return {"declare": {"seat": seat, "call": call}}


def claim_events(
    intents: Mapping[int, ClaimIntent],
    discarder: int,
    winner: int,
    tile: str,
    rng: random.Random,
) -> list[Event]:
    """The table events of the claim: claim calls when contested, then the winner's tiles.

    The claimant's tiles and the discard reach the meld strip in a shuffled order, as they do
    at a real table; a Mahjong is the declaration and the discard moving to the rack.
    """
    events: list[Event] = []
    if len(intents) > 1:
        events.extend(declare(p, "claim") for p in turn_order(discarder)[1:] if p in intents)
    intent = intents[winner]
    if intent.kind == "mahjong":
        pair = [declare(winner, "mahjong"), move(tile, "discard", f"rack:{winner}")]
        if rng.random() < 0.5:
            pair.reverse()
        return events + pair
    strip = f"melds:{winner}"
    tiles = [move(tile, "discard", strip)]
    tiles.extend(move(t, f"rack:{winner}", strip) for t in intent.tiles)
    rng.shuffle(tiles)
    return events + tiles
