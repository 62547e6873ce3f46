"""The meld strips: claimed sets forming in any order, the kongs, bonus tiles, changes refused.

A claim is checked at every tile that reaches the strip: it stands as long as some legal set
(given the claimant's rack) can still come of the tiles there, and completes when they make one.
"""

from __future__ import annotations

from collections import Counter

from controller.game import calls, riichi
from controller.game.context import Ctx, Refused, name
from controller.game.endhand import finish_washout
from controller.game.state import Claim, Hand, Seat, SetKind, TableSet, evolve, next_live
from controller.tiles import is_bonus, is_suited, sort_tiles


def _without(tiles: tuple[str, ...], tile: str) -> tuple[str, ...]:
    i = tiles.index(tile)
    return tiles[:i] + tiles[i + 1 :]


def from_rack(ctx: Ctx, hand: Hand, tile: str, pos: int) -> Hand:
    """A tile from a rack to the same seat's meld strip."""
    if is_bonus(tile):
        return lay_bonus(ctx, hand, tile, pos)
    if hand.discard is not None and hand.phase == "play" and pos != hand.discard[1]:
        return claim_step(ctx, hand, pos, tile)
    own_turn = (pos == hand.turn and hand.step == "discard") or (
        hand.phase == "deal" and pos == hand.dealer
    )
    if own_turn:
        return _own_turn(ctx, hand, tile, pos)
    if hand.died is not None and hand.discard is None and pos != hand.died[1]:
        raise Refused("claim_too_late", pos, calls.too_late(hand, pos, hand.died[0]))
    raise Refused(
        "meld_out_of_turn", pos,
        f"{name(hand, pos)} may lay tiles out only on the own turn or to claim a discard",
    )


def lay_bonus(ctx: Ctx, hand: Hand, tile: str, pos: int) -> Hand:
    """A bonus tile laid open: a replacement from the dead wall is due."""
    seat = hand.seat(pos)
    seat = evolve(
        seat, rack=_without(seat.rack, tile), bonus=seat.bonus + (tile,),
        replacements_due=seat.replacements_due + 1,
    )
    step = hand.step
    if hand.phase == "play" and pos == hand.turn and step == "discard":
        step = "replacement"
    return _unless_wall_empty(ctx, hand.with_seat(seat, step=step), f"the {tile}")


def _unless_wall_empty(ctx: Ctx, hand: Hand, what: str) -> Hand:
    """A replacement just became due: with the live wall used up none can come and nothing
    else is legal (no draw, no discard), so the hand ends as a washout (RULES.md 3.5)."""
    if hand.live_wall > 0:
        return hand
    ctx.notes.append(
        f"The live wall is used up: no replacement for {what} can come; washout"
    )
    return finish_washout(ctx, hand)


def lay_bonus_from_wall(ctx: Ctx, hand: Hand, tile: str, pos: int) -> Hand:
    """A bonus tile drawn straight onto the meld strip (draw() put it in the rack first)."""
    return lay_bonus(ctx, hand, tile, pos)


def _own_turn(ctx: Ctx, hand: Hand, tile: str, pos: int) -> Hand:
    """On the own turn: the fourth tile to an exposed pung, or a concealed kong forming."""
    seat = hand.seat(pos)
    rack = _without(seat.rack, tile)
    for i, meld in enumerate(seat.melds):
        if meld.kind == "pung" and meld.tiles[0] == tile and not seat.forming:
            if hand.rh is not None:
                riichi.check_kong_allowed(hand, pos)
            fresh = hand.fresh_claim == (pos, i)
            kong = TableSet(
                meld.tiles + (tile,), "kong", claimed_from=meld.claimed_from, added=not fresh
            )
            melds = seat.melds[:i] + (kong,) + seat.melds[i + 1 :]
            seat = evolve(seat, rack=rack, melds=melds)
            robbable = None if fresh else (tile, pos)
            what = "a claimed kong" if fresh else "an added kong"
            ctx.notes.append(f"{name(hand, pos)} makes {what} of {tile}")
            return _kong_made(ctx, hand, seat, fresh_claim=None, robbable=robbable, robbers=())
    forming = seat.forming + (tile,)
    if hand.rh is not None and not seat.forming:
        riichi.check_riichi_kong(ctx, hand, pos, tile)
    if any(t != tile for t in forming) or rack.count(tile) + len(forming) < 4:
        raise Refused(
            "not_a_set", pos,
            f"{' '.join(forming)} on {name(hand, pos)}'s meld strip cannot become a kong "
            "(four identical tiles): put it back",
        )
    if len(forming) < 4:
        return hand.with_seat(evolve(seat, rack=rack, forming=forming))
    kong = TableSet(forming, "kong", concealed=True)
    seat = evolve(seat, rack=rack, forming=(), melds=seat.melds + (kong,))
    ctx.notes.append(f"{name(hand, pos)} declares a concealed kong")
    return _kong_made(ctx, hand, seat)


def _kong_made(ctx: Ctx, hand: Hand, seat: Seat, **changes: object) -> Hand:
    chain = seat.kong_chain + 1 if seat.last_source == "replacement" else 1
    seat = evolve(seat, replacements_due=seat.replacements_due + 1, kong_chain=chain)
    step = hand.step
    if hand.phase == "play" and seat.position == hand.turn:
        step = "replacement"
    if hand.rh is not None:
        hand = riichi.on_kong(hand)
    return _unless_wall_empty(ctx, hand.with_seat(seat, step=step, **changes), "the kong")


def discard_to_strip(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    """The live discard moves to a meld strip: a claim (its tiles may come in any order)."""
    assert hand.discard is not None
    if pos == hand.discard[1]:
        raise Refused(
            "discard_taken_back", pos, f"{name(hand, pos)} may not take back the own discard"
        )
    return claim_step(ctx, hand, pos, None)


def claim_step(ctx: Ctx, hand: Hand, pos: int, rack_tile: str | None) -> Hand:
    """One tile of a claim reaches ``pos``'s strip; completes the set when the tiles make one."""
    assert hand.discard is not None
    tile, discarder = hand.discard
    calls.check_may_claim(ctx, hand, pos)
    seat = hand.seat(pos)
    claim = hand.claim if hand.claim is not None else Claim(pos, tile, discarder)
    forming, rack = seat.forming, seat.rack
    if rack_tile is None:
        claim = evolve(claim, discard_on_strip=True)
    else:
        forming = forming + (rack_tile,)
        rack = _without(rack, rack_tile)
    kind = judge(hand, pos, claim, forming, rack)
    seat = evolve(seat, forming=forming, rack=rack)
    hand = calls.note_late_claim(ctx, hand, pos)
    if kind is None:
        return hand.with_seat(seat, claim=claim)
    return _complete(ctx, hand, seat, claim, kind)


def _complete(ctx: Ctx, hand: Hand, seat: Seat, claim: Claim, kind: SetKind) -> Hand:
    pos = seat.position
    tiles = tuple(sort_tiles(seat.forming + (claim.tile,)))
    meld = TableSet(tiles, kind, claimed_from=claim.discarder)
    seat = evolve(
        seat, forming=(), melds=seat.melds + (meld,), last_source="discard", last_tile=claim.tile
    )
    ctx.notes.append(f"{name(hand, pos)} claims the {claim.tile} for a {kind}")
    changes = dict(
        turn=pos, step="discard", discard=None, claim=None, claimants=(), awarded=None,
        claim_deadline=None, fresh_claim=(pos, len(seat.melds) - 1) if kind == "pung" else None,
    )
    if hand.rh is not None:
        own = tuple(t for t in meld.tiles if t != claim.tile) if kind == "chow" else ()
        hand = riichi.on_call(ctx, hand.with_seat(seat), pos, kind, claim.tile, own,
                              claim.discarder)
    if kind == "kong":
        return _kong_made(ctx, evolve(hand, **changes), seat)
    return hand.with_seat(seat, **changes)


def candidates(tile: str) -> list[tuple[SetKind, tuple[str, ...]]]:
    """Every set a discard could complete: pung, kong, and the chows it is part of."""
    out: list[tuple[SetKind, tuple[str, ...]]] = [("pung", (tile,) * 3), ("kong", (tile,) * 4)]
    if is_suited(tile):
        r, s = int(tile[0]), tile[1]
        for lo in (r - 2, r - 1, r):
            if 1 <= lo <= 7:
                out.append(("chow", tuple(f"{n}{s}" for n in range(lo, lo + 3))))
    return out


def _fits(cand: tuple[str, ...], tile: str, forming: Counter[str], rack: Counter[str]) -> bool:
    need = Counter(cand)
    need[tile] -= 1
    if forming - need:
        return False
    return not ((need - forming) - rack)


def judge(
    hand: Hand, pos: int, claim: Claim, forming: tuple[str, ...], rack: tuple[str, ...]
) -> SetKind | None:
    """The kind of set the claim makes now, None while it may still become one; else Refused."""
    tile = claim.tile
    f, r = Counter(forming), Counter(rack)
    may_chow = pos == next_live(hand, claim.discarder)
    feasible = [(k, c) for k, c in candidates(tile) if _fits(c, tile, f, r)]
    legal = [(k, c) for k, c in feasible if k != "chow" or may_chow]
    if legal:
        if claim.discard_on_strip:
            for kind, cand in legal:
                need = Counter(cand)
                need[tile] -= 1
                if +need == f:
                    return kind
        return None
    raise _diagnose(hand, pos, claim, f, feasible)


def _diagnose(
    hand: Hand, pos: int, claim: Claim, f: Counter[str],
    feasible: list[tuple[SetKind, tuple[str, ...]]],
) -> Refused:
    tile, who = claim.tile, name(hand, pos)
    only_tile = set(f) <= {tile}
    seat = hand.seat(pos)
    if only_tile and any(m.kind == "pung" and m.tiles[0] == tile for m in seat.melds):
        return Refused(
            "kong_claim_on_exposed_pung", pos,
            f"{who} may not claim the {tile} to make the exposed pung a kong",
        )
    if any(k == "chow" for k, _ in feasible):
        nxt = next_live(hand, claim.discarder)
        return Refused(
            "chow_not_from_previous", pos,
            f"{who} may not chow {tile}: only {name(hand, nxt)}, who plays after "
            f"{name(hand, claim.discarder)}, may",
        )
    if only_tile:
        return Refused(
            "pair_claim_without_mahjong", pos,
            f"{who} may claim the {tile} for a pair only to go Mahjong: declare mahjong, "
            "or put the tiles back",
        )
    shown = " ".join(sorted(f.elements()))
    return Refused(
        "not_a_set", pos, f"{shown} with the {tile} makes no chow, pung or kong: put them back"
    )


def off_strip(ctx: Ctx, hand: Hand, tile: str, spos: int, dkind: str, dpos: int) -> Hand:
    """A tile leaving a meld strip: a claim's tile taken back, a robbed kong, or a refusal."""
    seat = hand.seat(spos)
    claim = hand.claim
    if hand.robbable == (tile, spos) and dkind == "rack" and dpos != spos:
        return calls.rob_take(ctx, hand, dpos)
    own_claim = claim is not None and claim.seat == spos
    if claim is not None and own_claim and claim.discard_on_strip and tile == claim.tile:
        if dkind == "discard":
            claim = evolve(claim, discard_on_strip=False)
            return evolve(hand, claim=claim if seat.forming else None)
    if tile in seat.forming and dkind == "rack" and dpos == spos:
        forming = _without(seat.forming, tile)
        keep = claim
        if own_claim and not forming and not claim.discard_on_strip:  # type: ignore[union-attr]
            keep = None
        seat = evolve(seat, forming=forming, rack=seat.rack + (tile,))
        return hand.with_seat(seat, claim=keep)
    raise Refused(
        "exposed_set_changed", spos,
        f"the {tile} on {name(hand, spos)}'s meld strip is part of an exposed set or bonus "
        "tiles: exposed sets cannot be changed; put it back",
    )
