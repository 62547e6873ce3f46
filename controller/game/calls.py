"""Seat declarations (claim, ready, mahjong), claim precedence, Mahjong takes and robbing a kong.

Precedence for one discard: Mahjong > kong/pung > chow; ties go to the seat nearest in turn order
from the discarder, or (``mahjong_tie = highest_value``) a contested Mahjong to the best score.
"""

from __future__ import annotations

from collections import Counter

from controller.game import mahjong, riichi, riichi_abort
from controller.game.context import Ctx, Refused, name
from controller.game.mahjong import award, with_tile
from controller.game.state import Hand, TableSet, Violation, distance, evolve, next_live
from controller.tiles import is_suited


def check_no_pending_claim(hand: Hand, pos: int | None) -> None:
    """A draw or a dead discard must wait while a claim is being made or was called."""
    if hand.claim is not None and hand.claim.seat != pos:
        raise Refused(
            "claim_pending", pos,
            f"{name(hand, hand.claim.seat)} is claiming the {hand.claim.tile}: wait for the claim",
        )
    if hand.claimants:
        who, call = hand.claimants[0]
        tile = hand.discard[0] if hand.discard else "discard"
        raise Refused(
            "claim_pending", pos,
            f"{name(hand, who)} called {call} on the {tile}: the claim comes first",
        )


def too_late(hand: Hand, pos: int, tile: str) -> str:
    """Why a discard can no longer be claimed."""
    if any(t == tile for t, _ in hand.pad_dead):
        why = f"{name(hand, hand.turn)} has already drawn"
    else:
        why = "it has gone to the river"
    return f"{name(hand, pos)} may not claim the {tile}: {why}"


def check_may_claim(ctx: Ctx, hand: Hand, pos: int) -> None:
    """Refuse a claim by ``pos`` that another seat's claim or call outranks."""
    assert hand.discard is not None
    tile = hand.discard[0]
    who = name(hand, pos)
    if hand.seat(pos).dead:
        raise Refused("dead_hand", pos, f"{who}'s hand is dead: no claims")
    if hand.rh is not None:
        riichi.check_may_call(hand, pos)
        riichi_abort.check_claim(hand, pos)
    winners = [p for p, c in hand.claimants if c == "mahjong" and p != pos]
    if winners:
        raise Refused(
            "claim_outranked", pos,
            f"{who} may not take the {tile}: {name(hand, winners[0])} declared Mahjong on it",
        )
    if hand.awarded is not None and hand.awarded != pos:
        raise Refused(
            "claim_outranked", pos,
            f"{who} may not take the {tile}: the claim went to {name(hand, hand.awarded)}",
        )
    if hand.claim is not None and hand.claim.seat != pos:
        raise Refused(
            "claim_outranked", pos,
            f"{who} may not take the {tile}: {name(hand, hand.claim.seat)} is claiming it",
        )


def note_late_claim(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    """With timers on, a claim after the claim window's deadline is noted for a timer event."""
    if ctx.at is None or hand.claim_deadline is None or hand.late_claim is not None:
        return hand
    if ctx.at > hand.claim_deadline:
        return evolve(
            hand, late_claim=(pos, round(ctx.at - hand.claim_deadline, 3), hand.claim_deadline)
        )
    return hand


def best_claim(ctx: Ctx, hand: Hand, pos: int) -> str | None:
    """The best claim ``pos`` could make on the live discard from its rack (and strip)."""
    assert hand.discard is not None
    tile, discarder = hand.discard
    seat = hand.seat(pos)
    pool = Counter(seat.concealed()) + Counter(seat.forming)
    try:
        mahjong.validate(ctx, hand, pos, seat.concealed() + list(seat.forming) + [tile])
        return "mahjong"
    except Refused:
        pass
    if pool[tile] >= 3:
        return "kong"
    if pool[tile] >= 2:
        return "pung"
    if is_suited(tile) and pos == next_live(hand, discarder):
        r, s = int(tile[0]), tile[1]
        for lo in (r - 2, r - 1, r):
            others = [f"{n}{s}" for n in range(lo, lo + 3) if n != r]
            if 1 <= lo <= 7 and all(pool[o] for o in others):
                return "chow"
    return None


def declare(ctx: Ctx, hand: Hand, pos: int, call: str) -> Hand:
    if call == "nine_terminals":
        return riichi_abort.declare_nine(ctx, hand, pos)
    if call == "ready" and _ready_is_nine(ctx, hand, pos):
        ctx.notes.append(f"{name(hand, pos)} presses READY with no riichi possible: nine "
                         "terminals")
        return riichi_abort.declare_nine(ctx, hand, pos)
    if call == "ready":
        return declare_ready(ctx, hand, pos)
    if call == "mahjong":
        return declare_mahjong(ctx, hand, pos)
    return declare_claim(ctx, hand, pos)


def _ready_is_nine(ctx: Ctx, hand: Hand, pos: int) -> bool:
    """A seat's READY (its button: a table has three) declares nine terminals when the hand
    may declare it and no riichi is possible (docs/game.md "Abortive draws")."""
    return riichi_abort.nine_possible(ctx, hand, pos) and not riichi.riichi_discards(
        ctx, hand.seat(pos))


def declare_claim(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    """A seat calls for the live discard; with several callers the best claim wins."""
    who = name(hand, pos)
    if hand.taken is not None:
        taker = name(hand, hand.taken)
        raise Refused("claim_too_late", pos, f"{taker} took the discard for Mahjong")
    if hand.discard is None or hand.phase != "play":
        if hand.died is not None and pos != hand.died[1]:
            raise Refused("claim_too_late", pos, too_late(hand, pos, hand.died[0]))
        raise Refused("nothing_to_claim", pos, f"there is no discard for {who} to claim")
    tile, discarder = hand.discard
    if pos == discarder:
        raise Refused("nothing_to_claim", pos, f"{who} may not claim the own discard")
    if hand.seat(pos).dead:
        raise Refused("dead_hand", pos, f"{who}'s hand is dead: no claims")
    if any(p == pos for p, _ in hand.claimants):
        return hand
    if hand.rh is not None:
        riichi.check_may_call(hand, pos)
        riichi_abort.check_claim(hand, pos)
    kind = best_claim(ctx, hand, pos)
    if kind is None:
        raise Refused(
            "invalid_claim", pos, f"{who} holds nothing that the {tile} completes: no claim"
        )
    hand = note_late_claim(ctx, hand, pos)
    claimants = hand.claimants + ((pos, "claim"),)
    return _settle_award(ctx, evolve(hand, claimants=claimants), kind_of={pos: kind})


def _settle_award(ctx: Ctx, hand: Hand, kind_of: dict[int, str]) -> Hand:
    """Recompute who gets the discard; a forming claim that lost is taken back in the game."""
    for p, call in hand.claimants:
        if p not in kind_of:
            kind_of[p] = "mahjong" if call == "mahjong" else (best_claim(ctx, hand, p) or "chow")
    if hand.claim is not None and hand.claim.seat not in kind_of:
        kind_of[hand.claim.seat] = best_claim(ctx, hand, hand.claim.seat) or "chow"
    entries = list(kind_of.items())
    winner = award(ctx, hand, entries)
    if len(entries) > 1:
        assert hand.discard is not None
        losers = ", ".join(f"{name(hand, p)} ({k})" for p, k in entries if p != winner)
        ctx.notes.append(
            f"The {hand.discard[0]} goes to {name(hand, winner)} ({kind_of[winner]}) "
            f"over {losers}"
        )
    if hand.claim is not None and hand.claim.seat != winner:
        hand = _withdraw_claim(ctx, hand)
    return evolve(hand, awarded=winner)


def _withdraw_claim(ctx: Ctx, hand: Hand) -> Hand:
    """Undo a forming claim in the game; its tiles are out of place until put back."""
    claim = hand.claim
    assert claim is not None
    seat = hand.seat(claim.seat)
    strip, rack = f"melds:{claim.seat}", f"rack:{claim.seat}"
    ctx.misplaced.extend((t, strip, rack) for t in seat.forming)
    if claim.discard_on_strip:
        ctx.misplaced.append((claim.tile, strip, "discard"))
    seat = evolve(seat, forming=(), rack=seat.rack + seat.forming)
    ctx.notes.append(f"{name(hand, claim.seat)}'s claim is outranked: put those tiles back")
    return hand.with_seat(seat, claim=None)


def declare_ready(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    """A ready call: valid when the seat's 13 tiles wait on at least one tile; it stands.
    Riichi: the declaration, with 14 tiles, before the riichi discard."""
    if hand.rh is not None:
        return riichi.declare(ctx, hand, pos)
    seat = hand.seat(pos)
    who = name(hand, pos)
    if seat.ready:
        return hand
    if seat.dead:
        raise Refused("dead_hand", pos, f"{who}'s hand is dead")
    if seat.size() != 13:
        raise Refused(
            "ready_not_waiting", pos,
            f"{who} holds {seat.size()} tiles: call ready with 13 tiles (after discarding)",
        )
    if not mahjong.waits_of(ctx, seat):
        raise Refused("ready_not_waiting", pos, f"{who}'s hand does not wait on any tile yet")
    ctx.notes.append(f"{who} is ready")
    return hand.with_seat(evolve(seat, ready=True, ready_at=seat.discards))


def declare_mahjong(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    """Mahjong: self-drawn, on the live discard, or robbing a kong."""
    seat = hand.seat(pos)
    who = name(hand, pos)
    if seat.dead:
        raise Refused("dead_hand", pos, f"{who}'s hand is dead: it cannot win")
    if hand.taken is not None:
        if hand.taken != pos:
            raise Refused("claim_too_late", pos, f"{name(hand, hand.taken)} took the discard first")
        return mahjong.win_on_discard(ctx, hand, pos)
    if hand.rob_taken is not None:
        if hand.rob_taken != pos:
            robber = name(hand, hand.rob_taken)
            raise Refused("claim_too_late", pos, f"{robber} robbed the kong first")
        return mahjong.win_by_robbing(ctx, hand, pos)
    if hand.robbable is not None and hand.robbable[1] != pos:
        mahjong.validate(ctx, hand, pos, seat.concealed() + [hand.robbable[0]])
        ctx.notes.append(f"{who} declares Mahjong on the {hand.robbable[0]}: robbing the kong")
        return evolve(hand, robbers=hand.robbers + (pos,))
    if hand.discard is not None and hand.phase == "play" and pos != hand.discard[1]:
        mahjong.validate(ctx, hand, pos, with_tile(hand, pos, hand.discard[0]))
        ctx.notes.append(f"{who} declares Mahjong on the {hand.discard[0]}")
        hand = note_late_claim(ctx, hand, pos)
        claimants = tuple(c for c in hand.claimants if c[0] != pos) + ((pos, "mahjong"),)
        return _settle_award(ctx, evolve(hand, claimants=claimants), {pos: "mahjong"})
    own = pos == hand.turn and hand.step == "discard"
    if own or (hand.phase == "deal" and pos == hand.dealer):
        return mahjong.win_self_drawn(ctx, hand, pos)
    raise Refused(
        "mahjong_incomplete_hand", pos,
        f"{who} holds {seat.size()} tiles and has no tile to win on: not a complete hand",
    )


def take_discard(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    """The live discard moves into a rack: Mahjong on a discard (declared before or after)."""
    assert hand.discard is not None
    tile, discarder = hand.discard
    if pos == discarder:
        raise Refused(
            "discard_taken_back", pos, f"{name(hand, pos)} may not take back the own discard"
        )
    if hand.awarded is not None and hand.awarded != pos:
        raise Refused(
            "claim_outranked", pos,
            f"{name(hand, pos)} may not take the {tile}: it goes to {name(hand, hand.awarded)}",
        )
    seat = hand.seat(pos)
    hand = hand.with_seat(evolve(seat, rack=seat.rack + (tile,)), taken=pos)
    if (pos, "mahjong") in hand.claimants:
        return mahjong.win_on_discard(ctx, hand, pos)
    return hand


def rob_take(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    """An added kong's tile moves to another seat's rack: robbing the kong."""
    assert hand.robbable is not None
    tile, owner = hand.robbable
    if hand.robbers:
        first = min(hand.robbers, key=lambda p: distance(owner, p))
        if pos != first:
            raise Refused("claim_outranked", pos, f"{name(hand, first)} robs this kong")
    hand = mahjong.unkong(hand, owner, tile)
    seat = hand.seat(pos)
    hand = hand.with_seat(evolve(seat, rack=seat.rack + (tile,)), rob_taken=pos)
    if pos in hand.robbers:
        return mahjong.win_by_robbing(ctx, hand, pos)
    return hand


def while_taken(
    ctx: Ctx, hand: Hand, tile: str, src: tuple[str, int], dst: tuple[str, int]
) -> Hand:
    """After a tile was taken for Mahjong only the declaration or putting it back may follow."""
    taker = hand.taken if hand.taken is not None else hand.rob_taken
    assert taker is not None
    seat = hand.seat(taker)
    if hand.taken is not None and hand.discard is not None:
        if src == ("rack", taker) and dst == ("discard", 0) and tile == hand.discard[0]:
            rack = list(seat.rack)
            rack.remove(tile)
            return hand.with_seat(evolve(seat, rack=tuple(rack)), taken=None)
    if hand.rob_taken is not None and src == ("rack", taker) and dst[0] == "melds":
        kong = [m for m in hand.seat(dst[1]).melds if m.kind == "pung" and m.tiles[0] == tile]
        if kong and tile == seat.rack[-1]:
            return _rob_put_back(hand, taker, dst[1], tile)
    raise Refused(
        "mahjong_not_declared", taker,
        f"{name(hand, taker)} took a tile for Mahjong: declare mahjong, or put the tile back",
    )


def _rob_put_back(hand: Hand, taker: int, owner: int, tile: str) -> Hand:
    """The robbed tile goes back onto its kong: the added kong stands again."""
    seat = hand.seat(taker)
    hand = hand.with_seat(evolve(seat, rack=seat.rack[:-1]), rob_taken=None)
    kong_seat = hand.seat(owner)
    melds = list(kong_seat.melds)
    for i, m in enumerate(melds):
        if m.kind == "pung" and m.tiles[0] == tile:
            melds[i] = TableSet(m.tiles + (tile,), "kong", claimed_from=m.claimed_from, added=True)
            break
    due = kong_seat.replacements_due + 1
    kong_seat = evolve(kong_seat, melds=tuple(melds), replacements_due=due)
    return hand.with_seat(kong_seat, robbable=(tile, owner))


def check_deal_complete(ctx: Ctx, hand: Hand) -> Hand:
    """At east's first discard every seat must hold 13 tiles (east 14)."""
    for seat in hand.seats:
        needed = 14 if seat.position == hand.dealer else 13
        if seat.dead:
            continue
        if seat.size() != needed:
            hand = wrong_count(ctx, hand, seat.position, needed)
        elif seat.replacements_due:  # the replacement was drawn before the bonus tile was laid
            hand = hand.with_seat(evolve(seat, replacements_due=0))
    return hand


def repairs(ctx: Ctx) -> bool:
    """``wrong_count = repair``: a wrong count is refused, and the seat may draw or return tiles
    to repair it (moves.py). Read by key: every rule set resolves the option (the session keeps
    its options with their defaults filled in, engine.py)."""
    wrong_count: str = ctx.state.options["wrong_count"]
    return wrong_count == "repair"


def wrong_count(ctx: Ctx, hand: Hand, pos: int, needed: int) -> Hand:
    """A faulty hand: refused (repair) or accepted with the seat's hand dead (dead_hand)."""
    seat = hand.seat(pos)
    who = name(hand, pos)
    msg = f"{who} holds {seat.size()} tiles, not {needed}"
    if repairs(ctx):
        raise Refused("wrong_tile_count", pos, msg + ": draw or return tiles to repair the hand")
    ctx.flagged.append(Violation("wrong_tile_count", pos, msg + ": the hand is dead"))
    ctx.notes.append(f"{who}'s hand is dead ({msg})")
    return hand.with_seat(evolve(seat, dead=True, ready=False))
