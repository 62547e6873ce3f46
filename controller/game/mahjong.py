"""Mahjong: whether a declared win is allowed (complete hand, swedish ready call and doubling),
and the three ways to win (self-drawn, on a discard, robbing a kong)."""

from __future__ import annotations

from controller.game import riichi, riichi_abort, riichi_end
from controller.game.context import Ctx, Refused, name
from controller.game.endhand import finish_mahjong
from controller.game.privacy import unnamed
from controller.game.state import Hand, Seat, TableSet, distance, evolve
from controller.scoring import HandInput, ScoreResult, ScoringError, is_complete, score_hand, waits
from controller.scoring.rulesets.mcr import MINIMUM_FANS
from controller.tiles import Meld, Tile, is_bonus

#: Claim precedence for one discard (RULES.md section 4): Mahjong > kong/pung > chow.
RANK = {"mahjong": 3, "kong": 2, "pung": 2, "chow": 1}


def melds_of(seat: Seat) -> list[Meld]:
    return [Meld(m.tiles, m.concealed) for m in seat.melds]


def waits_of(ctx: Ctx, seat: Seat) -> list[Tile]:
    """The tile kinds that would complete ``seat``'s 13 tiles."""
    try:
        return list(waits(seat.concealed() + list(seat.forming), melds_of(seat), ctx.ruleset))
    except ScoringError:
        return []


def win_input(ctx: Ctx, hand: Hand, pos: int, concealed: list[Tile], source: str) -> HandInput:
    """The scorer's input for ``pos`` winning with ``concealed`` (winning tile included)."""
    seat = hand.seat(pos)
    flags = []
    exposed = any(not m.concealed for m in seat.melds)
    if seat.ready_at is not None and seat.ready_at <= 1 and not exposed:
        flags.append("original_call")
    if source == "replacement" and seat.kong_chain >= 2:
        flags.append("twofold_fortune")
    tile = concealed[-1]
    first_discard = source == "discard" and hand.discards_total == 1
    if ctx.ruleset.name == "mcr":
        flags, source = mcr_flags(hand, pos, tile, source)
    if hand.rh is not None:
        flags, first_discard = riichi.win_flags(hand, pos, source)
    return HandInput(
        ruleset=ctx.ruleset,
        seat_wind=hand.wind_of(pos),
        prevailing_wind=hand.prevailing_wind,
        melds=melds_of(seat),
        hand=concealed,
        bonus=seat.bonus + tuple(t for t in seat.rack if is_bonus(t)),
        mahjong=True,
        winning_tile=tile,
        win_source=source,
        last_tile=hand.live_wall <= 0 and source in ("wall", "discard"),
        first_discard=first_discard,
        flags=tuple(flags),
        # riichi: the scorer checks them against the hand's kongs (a win on a kong's replacement
        # before its indicator is laid is refused here); riichi_end._score adds the honba
        dora_indicators=hand.rh.dora if hand.rh is not None else (),
    )


def mcr_flags(hand: Hand, pos: int, tile: Tile, source: str) -> tuple[list[str], str]:
    """The facts of an mcr win the tiles cannot show: ``last_of_kind`` when the other three
    copies of the winning tile lie visible (discards and exposed sets of every seat); a
    replacement after a bonus tile (no kong) is an ordinary self-drawn tile."""
    seen = sum(t == tile for s in hand.seats for t in s.river)  # dead discards, pad's too
    seen += sum(t == tile for s in hand.seats for m in s.melds if not m.concealed for t in m.tiles)
    flags = ["last_of_kind"] if seen >= 3 else []
    if source == "replacement" and hand.seat(pos).kong_chain == 0:
        source = "wall"
    return flags, source


def _mcr_minimum(hand: Hand, pos: int, result: ScoreResult, inp: HandInput) -> None:
    """mcr: a Mahjong needs 8 fans, flowers not counted (RULES.md section 10)."""
    fans = result.points - len(inp.bonus)
    if fans < MINIMUM_FANS:
        raise Refused(
            "mahjong_without_eight_fans", pos,
            f"{name(hand, pos)}'s hand scores {fans} fans without flowers: a Mahjong needs "
            f"{MINIMUM_FANS}",
        )


def validate(
    ctx: Ctx, hand: Hand, pos: int, concealed: list[Tile], source: str = "discard"
) -> ScoreResult:
    """Score ``pos``'s winning hand, or refuse the Mahjong naming the rule it breaks.

    ``concealed`` lists the concealed tiles with the winning tile last.
    """
    seat = hand.seat(pos)
    who = name(hand, pos)
    melds = melds_of(seat)
    count = len(concealed) + 3 * len(melds)
    mcr = ctx.ruleset.name == "mcr"  # its special shapes: the scorer decides
    if count != 14 or (not mcr and not is_complete(concealed, melds, ctx.ruleset)):
        raise Refused(
            "mahjong_incomplete_hand", pos,
            f"{who}'s hand is not complete ({count} tiles): play on",  # no tile of it named
        )
    requires_ready = ctx.ruleset.requires_ready
    if requires_ready and not seat.ready:
        raise Refused(
            "mahjong_without_ready", pos, f"{who} did not call ready before going Mahjong"
        )
    if hand.rh is not None:
        riichi.check_win(ctx, hand, pos, concealed, source)
    inp = win_input(ctx, hand, pos, concealed, source)
    try:
        result = score_hand(inp)
    except ScoringError as exc:
        if hand.rh is not None and str(exc).startswith("no yaku"):
            raise Refused("mahjong_without_yaku", pos,
                          f"{who}'s hand has no yaku (dora are not yaku): no win") from None
        raise Refused("mahjong_incomplete_hand", pos,
                      f"{who}'s hand cannot win: {unnamed(str(exc))}") from None
    if mcr:
        _mcr_minimum(hand, pos, result, inp)
    if requires_ready and result.combination_doubles < 1:
        raise Refused(
            "mahjong_without_doubling", pos,
            f"{who}'s hand has no combination doubling: Mahjong needs at least one",
        )
    return result


def _winning_order(seat: Seat, tile: Tile) -> list[Tile]:
    """The seat's concealed tiles with one ``tile`` moved to the end (the winning tile)."""
    concealed = seat.concealed()
    concealed.remove(tile)
    return concealed + [tile]


def win_self_drawn(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    seat = hand.seat(pos)
    if hand.phase == "deal" and seat.kong_chain == 0:
        source = "dealt"  # heavenly hand: complete with the dealt tiles (bonus replacements too)
    else:  # a kong in the deal: its replacement is the newest tile ("replacement", moves._deal)
        source = seat.last_source if seat.last_source in ("wall", "replacement") else "discard"
    tile = seat.last_tile if seat.last_tile in seat.rack else None
    if tile is None:
        tile = seat.concealed()[-1] if seat.concealed() else ""
    if not tile:
        raise Refused("mahjong_incomplete_hand", pos, f"{name(hand, pos)} holds no tiles")
    concealed = _winning_order(seat, tile)
    validate(ctx, hand, pos, concealed, source)
    # Mahjong declared after claiming a set: the claimed set is the newest one
    discarder = seat.melds[-1].claimed_from if source == "discard" and seat.melds else None
    inp = win_input(ctx, hand, pos, concealed, source)
    return finish_mahjong(ctx, hand, pos, inp, discarder)


def win_on_discard(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    """The discard is in ``pos``'s rack and Mahjong was declared: the hand ends.

    ``pos`` holds the discard because it was awarded it (``calls.take_discard`` refuses any
    other seat, and nobody may claim once it is taken): the award already weighed every claim,
    so no other Mahjong declared on it outranks ``pos`` here."""
    assert hand.discard is not None
    tile, discarder = hand.discard
    if hand.rh is not None:
        return _rons(ctx, hand, pos, [p for p, c in hand.claimants if c == "mahjong"])
    concealed = _winning_order(hand.seat(pos), tile)
    validate(ctx, hand, pos, concealed, "discard")
    inp = win_input(ctx, hand, pos, concealed, "discard")
    ctx.notes.append(f"{name(hand, pos)} goes Mahjong on the {tile}")
    return finish_mahjong(ctx, evolve(hand, discard=None), pos, inp, discarder)


def _rons(ctx: Ctx, hand: Hand, pos: int, declared: list[int]) -> Hand:
    """Riichi: every ron declared on the discard wins (option multiple_ron ``all``), in turn
    order from the discarder; ``head_bump``: only the first, which is ``pos`` (the discard was
    awarded to it in that same turn order, ``calls.award``, before it could take it)."""
    assert hand.discard is not None
    tile, discarder = hand.discard
    order = sorted(set(declared) | {pos}, key=lambda p: distance(discarder, p))
    if ctx.state.options["multiple_ron"] == "head_bump":
        order = order[:1]
        assert order == [pos]
    wins = []
    for p in order:
        concealed = _winning_order(hand.seat(p), tile) if p == pos else with_tile(hand, p, tile)
        validate(ctx, hand, p, concealed, "discard")
        wins.append((p, win_input(ctx, hand, p, concealed, "discard")))
    if len(wins) >= 3 and riichi_abort.on(ctx):
        return riichi_abort.end(ctx, evolve(hand, discard=None),
                                riichi_abort.THREE_RONS)
    ctx.notes.append(" and ".join(name(hand, p) for p in order) + f" win on the {tile}")
    return riichi_end.finish_win(ctx, evolve(hand, discard=None), wins, discarder)


def unkong(hand: Hand, owner: int, tile: Tile) -> Hand:
    """An added kong robbed of its fourth tile is a pung again; its replacement is off.

    ``robbable`` stays set (it names the kong's owner) until the Mahjong or the put-back.
    """
    seat = hand.seat(owner)
    melds = list(seat.melds)
    for i, m in enumerate(melds):
        if m.kind == "kong" and m.added and m.tiles[0] == tile:
            melds[i] = TableSet(m.tiles[:3], "pung", claimed_from=m.claimed_from)
            break
    due = max(0, seat.replacements_due - 1)
    return hand.with_seat(evolve(seat, melds=tuple(melds), replacements_due=due))


def win_by_robbing(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    """``pos`` took the robbed tile (``calls.rob_take``, which leaves ``robbable`` naming the
    kong's owner) and declares Mahjong: the owner pays as the discarder."""
    assert hand.robbable is not None
    seat = hand.seat(pos)
    tile = seat.rack[-1]
    concealed = _winning_order(seat, tile)
    validate(ctx, hand, pos, concealed, "robbed_kong")
    ctx.notes.append(f"{name(hand, pos)} robs the kong: Mahjong on the {tile}")
    inp = win_input(ctx, hand, pos, concealed, "robbed_kong")
    return finish_mahjong(ctx, hand, pos, inp, hand.robbable[1])


def award(ctx: Ctx, hand: Hand, entries: list[tuple[int, str]]) -> int:
    """The seat a contested discard goes to (RULES.md section 4)."""
    assert hand.discard is not None
    tile, discarder = hand.discard
    top = max(RANK[k] for _, k in entries)
    best = [p for p, k in entries if RANK[k] == top]
    best.sort(key=lambda p: distance(discarder, p))
    if top == 3 and len(best) > 1 and ctx.ruleset.mahjong_tie == "highest_value":
        value = {p: validate(ctx, hand, p, with_tile(hand, p, tile)).score for p in best}
        best.sort(key=lambda p: (-value[p], distance(discarder, p)))
    return best[0]


def with_tile(hand: Hand, pos: int, tile: str) -> list[str]:
    """The seat's concealed tiles with the discard last (it may already be in the rack)."""
    seat = hand.seat(pos)
    tiles = seat.concealed() + list(seat.forming)
    if hand.taken == pos:
        tiles.remove(tile)
    return tiles + [tile]
