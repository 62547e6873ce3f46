"""A misread tile corrected (``{"correct": {"reassign": ...}}``): the operator's in an open
zone, a seat's in its own rack. What is looked at is what the sender can see (the zone, the open
tiles, a seat's own rack), so a refusal tells nothing of the other racks (issue 22)."""

from __future__ import annotations

from typing import Any

from controller.game import moves, riichi_end
from controller.game.context import Ctx, Refused, copies_in_set
from controller.game.privacy import open_tiles
from controller.game.state import CODE_INDEX, GameState, Hand, evolve


def reassign(ctx: Ctx, state: GameState, body: dict[str, Any]) -> GameState:
    """A misread tile: the tile the game has in ``zone`` as ``tile`` is really ``as``."""
    hand = state.hand
    zone, old, new = str(body["zone"]), str(body["tile"]), str(body["as"])
    kind, pos = moves.parse_zone(zone)
    if kind == "dora":
        return _dora(ctx, state, old, new)
    if hand is None or hand.phase == "over":
        raise Refused("no_hand", None, "no hand is in play")
    hand = _relabel(hand, zone, kind, pos, old, new)  # the zone is looked at first
    rack = hand.seat(pos).rack if kind == "rack" else ()  # the sender's own rack
    hand = evolve(hand, out=_recount(ctx, hand, old, new, rack))
    if kind == "rack":
        ctx.notes.append(f"A misread tile in {zone} is corrected")
    else:
        ctx.notes.append(f"The {old} in {zone} is corrected to {new}")
    return evolve(state, hand=hand)


def _dora(ctx: Ctx, state: GameState, old: str, new: str) -> GameState:
    """A misread indicator on the dora pad (riichi, TABLE.md ``dora``): in play, or after the
    hand ended (the ura too), when the win is scored and settled again with it."""
    hand = state.hand
    rh = hand.rh if hand is not None else None
    if hand is None or rh is None:
        raise Refused("tile_not_there", None, "the dora pad is riichi's: no indicator lies there")
    over = hand.phase == "over"
    if over and state.rt.before is None:
        raise Refused("no_hand", None, "the hand is cleared: correct it with an undo")
    fields = ("dora", "ura") if over else ("dora",)
    field = next((f for f in fields if old in getattr(rh, f)), None)
    if field is None:
        raise Refused("tile_not_there", None, f"no {old} lies on the dora pad")
    laid = list(getattr(rh, field))
    laid[laid.index(old)] = new
    hand = evolve(hand, rh=evolve(rh, **{field: tuple(laid)}))
    hand = evolve(hand, out=_recount(ctx, hand, old, new))
    ctx.notes.append(f"The {old} on the dora pad is corrected to {new}")
    if over and rh.wins:
        return riichi_end.reclose(ctx, state, hand)
    return evolve(state, hand=hand)


def _relabel(hand: Hand, zone: str, kind: str, pos: int, old: str, new: str) -> Hand:
    """``zone``'s ``old`` read as ``new``; refused when the zone holds no ``old``."""
    if kind == "rack" or kind == "melds":
        seat = hand.seat(pos)
        field = "rack" if kind == "rack" else ("forming" if old in seat.forming else "bonus")
        tiles = list(getattr(seat, field))
        if old not in tiles:
            raise Refused("tile_not_there", pos, f"{zone} holds no {old} that can be corrected")
        tiles[tiles.index(old)] = new
        return hand.with_seat(evolve(seat, **{field: tuple(tiles)}))
    if kind == "discard" and hand.discard is not None and hand.discard[0] == old:
        return evolve(hand, discard=(new, hand.discard[1]))
    raise Refused("tile_not_there", None, f"{zone} holds no {old} that can be corrected")


def _recount(
    ctx: Ctx, hand: Hand, old: str, new: str, rack: tuple[str, ...] = ()
) -> tuple[int, ...]:
    """The out-of-wall counts after the correction (``hand`` already relabelled). A fifth copy
    is judged by the copies the sender can see (the open tiles, and ``rack``: a seat's own
    rack, when the correction is in it), never by the other racks: an answer that depended on
    them told what they held (issue 22). A copy too many in some rack is that rack's misread,
    for its seat to correct."""
    allowed = copies_in_set(new, ctx.bonus_tiles)
    if allowed == 0:
        raise Refused("not_in_set", None, f"this game is played without bonus tiles: no {new}")
    seen = open_tiles(hand) + list(rack)
    if seen.count(new) > allowed:
        raise Refused("fifth_copy", None,
                      f"{allowed} {new} already lie open{' or in this rack' * bool(rack)}: "
                      f"the {old} is not a {new}")
    out = list(hand.out)
    out[CODE_INDEX[old]] -= 1
    out[CODE_INDEX[new]] = min(out[CODE_INDEX[new]] + 1, allowed)
    return tuple(out)
