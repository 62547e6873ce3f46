"""Tile moves between zones: the deal, draws and replacements, discards, dead discards, washout.

Moves onto and off the meld strips are in ``melds.py``; Mahjong takes in ``calls.py``.
"""

from __future__ import annotations

from controller.game import calls, melds, riichi, riichi_abort
from controller.game.context import Ctx, Refused, copies_in_set, name
from controller.game.endhand import finish_washout
from controller.game.state import CODE_INDEX, Hand, Seat, evolve, next_live
from controller.tiles import is_bonus


def without(tiles: tuple[str, ...], tile: str) -> tuple[str, ...]:
    i = tiles.index(tile)
    return tiles[:i] + tiles[i + 1 :]


def parse_zone(zone: str) -> tuple[str, int]:
    """``"rack:3"`` -> ``("rack", 3)``; ``"discard"`` -> ``("discard", 0)``."""
    kind, _, pos = zone.partition(":")
    return kind, int(pos) if pos else 0


def route(ctx: Ctx, hand: Hand, tile: str, src: str, dst: str) -> Hand:
    """Apply one move inside a hand in play (deal or play phase)."""
    skind, spos = parse_zone(src)
    dkind, dpos = parse_zone(dst)
    if hand.taken is not None or hand.rob_taken is not None:
        return calls.while_taken(ctx, hand, tile, (skind, spos), (dkind, dpos))
    if skind == "wall":
        if dkind == "rack":
            return draw(ctx, hand, tile, dpos)
        if dkind == "melds" and is_bonus(tile):
            return melds.lay_bonus_from_wall(ctx, draw(ctx, hand, tile, dpos), tile, dpos)
        if dkind == "dora" and hand.rh is not None:
            return riichi.lay_indicator(ctx, hand, tile, take_from_wall(ctx, hand, tile))
    elif skind == "rack":
        _check_holds(hand.seat(spos).rack, tile, f"{name(hand, spos)}'s rack",
                     named=dkind in ("discard", "melds"))  # it lies open there now
        if dkind == "discard":
            return discard(ctx, hand, tile, spos)
        if dkind == "melds" and dpos == spos:
            return melds.from_rack(ctx, hand, tile, spos)
        if dkind == "wall":
            return return_to_wall(ctx, hand, tile, spos)
    elif skind == "discard":
        return from_pad(ctx, hand, tile, dkind, dpos)
    elif skind == "melds":
        return melds.off_strip(ctx, hand, tile, spos, dkind, dpos)
    elif skind == "river":
        raise Refused("tile_out_of_place", None, f"the {tile} in the river is dead: leave it there")
    seat = spos or dpos or None
    raise Refused("tile_out_of_place", seat, f"a tile does not move from {src} to {dst} in play")


def _check_holds(tiles: tuple[str, ...], tile: str, zone: str, *, named: bool) -> None:
    """``named``: the tile lies open where it went (a discard, a meld strip); a tile going
    back to the wall is not named."""
    if tile not in tiles:
        what = tile if named else "such tile"
        raise Refused("tile_not_there", None, f"{zone} holds no {what}: check the tile or its zone")


def take_from_wall(ctx: Ctx, hand: Hand, tile: str) -> tuple[int, ...]:
    """The out-of-wall counts after ``tile`` leaves the wall; refuses a copy the set lacks."""
    i = CODE_INDEX[tile]
    allowed = copies_in_set(tile, ctx.bonus_tiles)
    if allowed == 0:
        raise Refused("not_in_set", None, "this game is played without bonus tiles: a flower "
                      "or season was read; take it off the table")
    if hand.out[i] >= allowed:
        raise Refused(
            "fifth_copy", None,
            f"all {allowed} copies of the kind read are already out: this tile was misread; "
            "correct it",  # the tile is not named: it may be going into a rack
        )
    out = hand.out
    return out[:i] + (out[i] + 1,) + out[i + 1 :]


def draw(ctx: Ctx, hand: Hand, tile: str, pos: int) -> Hand:
    """A tile from the wall into ``pos``'s rack: deal, draw, replacement or repair."""
    seat = hand.seat(pos)
    out = take_from_wall(ctx, hand, tile)
    if hand.phase == "deal":
        return _deal(ctx, hand, seat, tile, out)
    if hand.live_wall <= 0:
        raise Refused("wall_empty", pos, "the live wall is used up: no more draws this hand")
    if seat.dead:
        raise Refused("draw_out_of_turn", pos, f"{name(hand, pos)}'s hand is dead: no draws")
    if seat.replacements_due > 0:
        return _replacement(hand, seat, tile, out)
    if pos == hand.turn and hand.step == "draw":
        return _turn_draw(hand, seat, tile, out)
    if calls.repairs(ctx) and seat.size() < _needed(hand, pos):
        ctx.notes.append(f"{name(hand, pos)} draws a tile to repair the hand")
        return _took(hand, seat, tile, out, "wall")
    raise Refused("draw_out_of_turn", pos, _draw_refusal(hand, pos))


def _needed(hand: Hand, pos: int) -> int:
    own_turn = pos == hand.turn and hand.step in ("discard", "replacement")
    return 14 if own_turn or (hand.phase == "deal" and pos == hand.dealer) else 13


def _draw_refusal(hand: Hand, pos: int) -> str:
    who = name(hand, pos)
    if pos == hand.turn:
        return f"{who} has drawn already: discard a tile"
    turn = name(hand, hand.turn)
    if hand.step == "draw":
        return f"{who} may not draw: it is {turn}'s turn to draw"
    return f"{who} may not draw: {turn} has yet to discard"


def _took(
    hand: Hand, seat: Seat, tile: str, out: tuple[int, ...], source: str, **ch: object
) -> Hand:
    seat = evolve(seat, rack=seat.rack + (tile,), last_source=source, last_tile=tile)
    return hand.with_seat(seat, out=out, drawn=hand.drawn + 1, **ch)


def _deal(ctx: Ctx, hand: Hand, seat: Seat, tile: str, out: tuple[int, ...]) -> Hand:
    limit = 14 if seat.position == hand.dealer else 13
    if not is_bonus(tile) and seat.size() >= limit:
        raise Refused(
            "wrong_tile_count", seat.position,
            f"{name(hand, seat.position)} already holds {limit} tiles: put the last tile back",
        )
    # any tile drawn while a replacement is due is that replacement (a bonus one is laid again)
    source = "replacement" if seat.replacements_due else "dealt"
    seat = evolve(seat, replacements_due=max(0, seat.replacements_due - 1))
    deadline = hand.turn_deadline
    if ctx.at is not None and ctx.state.table.timers:
        deadline = ctx.at + ctx.state.table.first_turn_seconds
    return _took(hand, seat, tile, out, source, turn_deadline=deadline)


def _replacement(hand: Hand, seat: Seat, tile: str, out: tuple[int, ...]) -> Hand:
    if hand.robbable is not None and hand.robbable[1] == seat.position and hand.robbers:
        raise Refused(
            "claim_pending", seat.position,
            f"{name(hand, hand.robbers[0])} declared Mahjong on the {hand.robbable[0]}: "
            "it is being robbed",
        )
    due = seat.replacements_due - 1
    step = hand.step
    if seat.position == hand.turn and due == 0 and step == "replacement":
        step = "discard"
    robbable = hand.robbable
    if robbable is not None and robbable[1] == seat.position:
        robbable = None
    seat = evolve(seat, replacements_due=due)
    hand = _took(hand, seat, tile, out, "replacement", step=step, robbable=robbable)
    return riichi.on_draw(hand, seat.position) if hand.rh is not None else hand


def _turn_draw(hand: Hand, seat: Seat, tile: str, out: tuple[int, ...]) -> Hand:
    pos = seat.position
    calls.check_no_pending_claim(hand, pos)
    if seat.size() >= 14:
        raise Refused("draw_out_of_turn", pos, f"{name(hand, pos)} has 14 tiles: discard one")
    died = hand.died
    pad_dead = hand.pad_dead
    if hand.discard is not None:
        died = hand.discard
        pad_dead = pad_dead + (hand.discard,)
        dseat = hand.seat(died[1])
        hand = hand.with_seat(evolve(dseat, river=dseat.river + (died[0],)))
    seat = evolve(hand.seat(pos), kong_chain=0)
    hand = _took(
        hand, seat, tile, out, "wall", discard=None, died=died, pad_dead=pad_dead,
        step="discard", claim_deadline=None,
    )
    return riichi.on_draw(hand, pos) if hand.rh is not None else hand


def discard(ctx: Ctx, hand: Hand, tile: str, pos: int) -> Hand:
    """A tile from the rack to the discard pad: the turn passes, the claim window opens."""
    if hand.phase == "deal":
        if pos != hand.dealer:
            raise Refused(
                "discard_out_of_turn", pos,
                f"{name(hand, pos)} may not discard: East discards first",
            )
        hand = calls.check_deal_complete(ctx, hand)
    elif pos != hand.turn or hand.step != "discard":
        raise Refused("discard_out_of_turn", pos, _discard_refusal(hand, pos))
    seat = hand.seat(pos)
    if seat.forming:
        raise Refused(
            "set_incomplete", pos,
            f"{name(hand, pos)} has {' '.join(seat.forming)} on the meld strip that is not a set: "
            "complete it or put it back before discarding",
        )
    if is_bonus(tile):
        raise Refused("bonus_discard", pos, f"lay the {tile} on your meld strip instead")
    if hand.rh is not None:
        riichi.check_discard(ctx, hand, pos, tile)
    if not seat.dead and seat.size() != 14:
        hand = calls.wrong_count(ctx, hand, pos, 14)
        seat = hand.seat(pos)
    first = seat.discards == 0
    seat = evolve(seat, rack=without(seat.rack, tile), discards=seat.discards + 1, kong_chain=0)
    hand = _after_discard(ctx, hand.with_seat(seat), tile, pos)
    if hand.rh is None:
        return hand
    return riichi_abort.due_after_discard(ctx, riichi.after_discard(ctx, hand, pos, tile, first))


def _after_discard(ctx: Ctx, hand: Hand, tile: str, pos: int) -> Hand:
    claim_deadline = turn_deadline = None
    table = ctx.state.table
    if table.timers and ctx.at is not None:
        claim_deadline = ctx.at + table.claim_seconds
        turn_deadline = ctx.at + table.turn_seconds
    return evolve(
        hand, phase="play", discard=(tile, pos), turn=next_live(hand, pos), step="draw",
        claimants=(), awarded=None, claim=None, fresh_claim=None, robbable=None, robbers=(),
        died=None, discards_total=hand.discards_total + 1, claim_deadline=claim_deadline,
        turn_deadline=turn_deadline, late_claim=None,
    )


def _discard_refusal(hand: Hand, pos: int) -> str:
    who = name(hand, pos)
    if pos == hand.turn and hand.step == "draw":
        return f"{who} must draw (or claim) before discarding"
    if pos == hand.turn and hand.step == "replacement":
        return f"{who} must first draw a replacement tile"
    return f"{who} may not discard: it is {name(hand, hand.turn)}'s turn"


def from_pad(ctx: Ctx, hand: Hand, tile: str, dkind: str, dpos: int) -> Hand:
    """A tile leaving the discard pad: to the river, a meld strip (claim) or a rack (Mahjong)."""
    live = hand.discard is not None and hand.discard[0] == tile
    dead = [d for d in hand.pad_dead if d[0] == tile]
    if not live and not dead:
        raise Refused("tile_not_there", None, f"the discard pad holds no {tile}")
    if dkind == "river":
        if live:
            return to_river(ctx, hand)
        pad = list(hand.pad_dead)
        pad.remove(dead[0])
        return evolve(hand, pad_dead=tuple(pad))
    if dkind in ("melds", "rack"):
        if not live:
            raise Refused("claim_too_late", dpos, calls.too_late(hand, dpos, tile))
        if dkind == "melds":
            return melds.discard_to_strip(ctx, hand, dpos)
        return calls.take_discard(ctx, hand, dpos)
    raise Refused(
        "tile_out_of_place", None, f"the discard {tile} goes to a meld strip, a rack or the river"
    )


def to_river(ctx: Ctx, hand: Hand) -> Hand:
    """The live discard goes dead unclaimed; with the live wall used up that is a washout."""
    assert hand.discard is not None
    calls.check_no_pending_claim(hand, None)
    tile, pos = hand.discard
    seat = hand.seat(pos)
    hand = hand.with_seat(
        evolve(seat, river=seat.river + (tile,)), discard=None, died=(tile, pos),
        claim_deadline=None,
    )
    if riichi_abort.due(hand):
        return riichi_abort.end(ctx, hand, str(hand.rh.abort))
    if hand.live_wall <= 0:
        ctx.notes.append("The live wall is used up and the last discard went unclaimed: washout")
        return finish_washout(ctx, hand)
    return hand


def bury_discard(hand: Hand) -> Hand:
    """The live discard counts as dead (it stays on the pad)."""
    assert hand.discard is not None
    tile, pos = hand.discard
    seat = hand.seat(pos)
    return hand.with_seat(
        evolve(seat, river=seat.river + (tile,)), discard=None, died=hand.discard,
        pad_dead=hand.pad_dead + (hand.discard,),
    )


def return_to_wall(ctx: Ctx, hand: Hand, tile: str, pos: int) -> Hand:
    """Repair (wrong_count repair): a seat with too many tiles returns one to the wall."""
    seat = hand.seat(pos)
    if not calls.repairs(ctx) or seat.size() <= _needed(hand, pos):
        raise Refused(
            "tile_out_of_place", pos,
            "the tile stays in the rack: tiles do not go back to the wall in play",
        )
    i = CODE_INDEX[tile]
    out = hand.out[:i] + (hand.out[i] - 1,) + hand.out[i + 1 :]
    ctx.notes.append(f"{name(hand, pos)} returns a tile to the wall to repair the hand")
    seat = evolve(seat, rack=without(seat.rack, tile))
    return hand.with_seat(seat, out=out, drawn=hand.drawn - 1)
