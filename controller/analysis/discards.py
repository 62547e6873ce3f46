"""What one discard cost: the hand's shanten before and after, every discard the seat could have
made ranked by the shanten it leaves and then by its ukeire (the tiles that would improve it,
counting only copies the seat could not see), and where the chosen discard stood.

What the seat sees at the moment of its discard: its own rack (the discarded tile included) and
sets, every river, the tile on the pad, every meld strip (a declared concealed kong shows its
kind) and, in riichi, the dora indicators. Bonus tiles are no kind of the 34 and never count.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.analysis.moments import Moment
from controller.analysis.riichi_facts import ready_facts
from controller.analysis.shanten import Shapes, shapes_for
from controller.game import GameState, riichi
from controller.game.context import Ctx, Refused
from controller.game.state import Hand, Seat
from controller.players.hand_eval import to_counts
from controller.tiles import KIND_INDEX, KINDS


@dataclass(frozen=True)
class Option:
    """A discard the seat could have made: the kind, the shanten left, its ukeire."""

    tile: str
    shanten: int
    ukeire: int

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile, "shanten": self.shanten, "ukeire": self.ukeire}


def visible_counts(hand: Hand, seat: int) -> list[int]:
    """The copies of each kind ``seat`` can see (its own concealed tiles and everything open)."""
    tiles = list(hand.seat(seat).concealed())
    if hand.discard is not None:
        tiles.append(hand.discard[0])
    for s in hand.seats:  # a river holds the dead discards still lying on the pad too
        tiles += [*s.river, *s.forming]
        tiles += [t for m in s.melds for t in m.tiles]
    if hand.rh is not None:
        tiles += list(hand.rh.dora)
    return to_counts(tiles)


def unseen_counts(hand: Hand, seat: int) -> list[int]:
    """Copies of each kind the seat cannot see: never more than four, never below zero."""
    return [max(0, 4 - n) for n in visible_counts(hand, seat)]


def options(shapes: Shapes, seat: Seat, unseen: list[int],
            allowed: Callable[[str], bool] | None = None) -> list[Option]:
    """Every kind the seat could discard (``allowed``: the rules' say), best first: lowest
    shanten, then most ukeire."""
    c = to_counts(seat.concealed())
    melds = len(seat.melds)
    chows = sum(1 for m in seat.melds if m.kind == "chow")
    in_sets = to_counts(t for m in seat.melds for t in m.tiles)
    out = []
    for k in range(34):
        if not c[k] or (allowed is not None and not allowed(KINDS[k])):
            continue
        c[k] -= 1
        held = [n + m for n, m in zip(c, in_sets, strict=True)]  # rack and sets
        left = shapes.value(c, melds, chows, held)
        out.append(Option(KINDS[k], left, _ukeire(shapes, c, melds, chows, left, unseen, held)))
        c[k] += 1
    out.sort(key=lambda o: (o.shanten, -o.ukeire, KIND_INDEX[o.tile]))
    return out


def _ukeire(shapes: Shapes, c: list[int], melds: int, chows: int, left: int,
            unseen: list[int], held: list[int]) -> int:
    """The unseen copies of the kinds whose draw would lower the shanten ``left``."""
    return sum(unseen[k] for k in shapes.improving(c, melds, chows, left) if held[k] < 4)


def rank_of(ranked: list[Option], tile: str) -> int:
    """1 + the options strictly better than ``tile``'s (a lower shanten, or as low with more
    ukeire): equal options share a rank."""
    chosen = next(o for o in ranked if o.tile == tile)
    return 1 + sum(1 for o in ranked
                   if (o.shanten, -o.ukeire) < (chosen.shanten, -chosen.ukeire))


def legal_discards(state: GameState, pos: int) -> Callable[[str], bool] | None:
    """What the rules let the seat discard (riichi: the tile just drawn once in riichi, a tile
    that leaves the hand ready for the riichi discard, no kuikae after a call): the engine's own
    check; None where every tile in the rack may go."""
    hand = state.hand
    if hand is None or hand.rh is None:
        return None
    ctx = Ctx(state)

    def allowed(tile: str) -> bool:
        try:
            riichi.check_discard(ctx, hand, pos, tile)
        except Refused:
            return False
        return True

    return allowed


def analyse(moment: Moment) -> dict[str, Any]:
    """One discard's entry of the review (docs/analysis.md)."""
    state = moment.before
    hand = state.hand
    assert hand is not None
    seat = hand.seat(moment.seat)
    rules = state.ruleset
    shapes = shapes_for(rules.name, rules.specials, rules.max_chows)
    c = to_counts(seat.concealed())
    chows = sum(1 for m in seat.melds if m.kind == "chow")
    before = shapes.shanten(c, len(seat.melds), chows)
    unseen = unseen_counts(hand, moment.seat)
    ranked = options(shapes, seat, unseen, legal_discards(state, moment.seat))
    if all(o.tile != moment.tile for o in ranked):  # the engine took it: every tile then
        ranked = options(shapes, seat, unseen)
    rank = rank_of(ranked, moment.tile)
    after = next(o for o in ranked if o.tile == moment.tile).shanten
    furiten, has_yaku = ready_facts(moment) if after == 0 else (None, None)
    return {"seq": moment.seq, "tile": moment.tile, "shanten_before": before,
            "shanten_after": after, "best": [o.to_json() for o in ranked],
            "chosen_rank": rank, "kept_best": rank == 1, "furiten": furiten,
            "has_yaku": has_yaku}
