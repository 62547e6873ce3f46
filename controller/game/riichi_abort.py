"""Abortive draws, option ``abortive_draws: true`` (RULES.md 11; docs/game.md "Abortive draws"):
nine terminals (a seat's declaration at its first draw), four winds, four riichi, four kongs by
several seats (each due when the discard that makes it is not won on) and three rons on one
discard. The hand ends with no payments: the dealer repeats, honba +1, the deposits stay."""

from __future__ import annotations

from typing import Any

from controller.game import riichi_end
from controller.game.context import Ctx, Refused, name
from controller.game.riichi import RiichiHand, kongs_on_table
from controller.game.state import Hand, evolve
from controller.scoring.riichi.settle import Table, settle_riichi
from controller.tiles import WIND_CODES, is_terminal_or_honour

#: the abortive draws, as the hand record's ``abortive`` names them (RULES.md 11's words)
NINE_TERMINALS = "nine_terminals"
FOUR_WINDS = "four_winds_discarded"
FOUR_RIICHI = "four_riichi"
FOUR_KONGS = "four_kongs_several_seats"
THREE_RONS = "three_rons"
ABORTIVE = (NINE_TERMINALS, FOUR_WINDS, FOUR_RIICHI, FOUR_KONGS, THREE_RONS)
#: nine different terminals and honours (RULES.md 11 "nine terminals")
NINE = 9

_WORDS = {
    NINE_TERMINALS: "nine terminals", FOUR_WINDS: "four winds", FOUR_RIICHI: "four riichi",
    FOUR_KONGS: "four kongs by several seats", THREE_RONS: "three rons on one discard",
}


def on(ctx: Ctx) -> bool:
    return bool(ctx.option("abortive_draws", False))


def terminal_kinds(tiles: list[str]) -> int:
    """How many different terminals and honours the tiles hold."""
    return len({t for t in tiles if is_terminal_or_honour(t)})


def nine_possible(ctx: Ctx, hand: Hand, pos: int) -> bool:
    """The seat may declare nine terminals now: the option on, its own first turn with 14
    tiles (the tile just drawn, or the dealer's deal) before any call of the hand, its hand not
    dead, and nine or more different terminals and honours among its tiles."""
    rh: RiichiHand | None = hand.rh
    if rh is None or not on(ctx) or hand.phase == "over" or rh.called or pos in rh.dead:
        return False
    seat = hand.seat(pos)
    own = (pos == hand.turn and hand.step == "discard") or (
        hand.phase == "deal" and pos == hand.dealer and hand.step is None)
    if not own or seat.discards or seat.melds or seat.size() != 14:
        return False
    return terminal_kinds(seat.concealed()) >= NINE


def declare_nine(ctx: Ctx, hand: Hand, pos: int) -> Hand:
    """A seat's nine terminals: the hand ends at once in an abortive draw."""
    who = name(hand, pos)
    if not on(ctx):
        raise Refused("abortive_draw", pos, "nine terminals is played only with the option "
                      "abortive_draws: true")
    if not nine_possible(ctx, hand, pos):
        raise Refused("abortive_draw", pos, f"{who} may declare nine terminals only on the own "
                      "first draw, before any call, holding nine different terminals and "
                      "honours: play on")
    return end(ctx, hand, NINE_TERMINALS, pos)


def due_after_discard(ctx: Ctx, hand: Hand) -> Hand:
    """After a discard (the riichi bookkeeping done): the abortive draw it makes due, if any
    (four winds, four riichi, four kongs by several seats), ends the hand once the discard
    is not won on."""
    rh: RiichiHand = hand.rh
    if not on(ctx) or rh.abort is not None:
        return hand
    kind = None
    firsts = [d[0] for d in rh.discards if len(d) == 1]
    if (hand.discards_total == 4 and not rh.called and len(firsts) == 4
            and firsts[0] in WIND_CODES and len(set(firsts)) == 1):
        kind = FOUR_WINDS
    elif len(rh.riichi) == 4:
        kind = FOUR_RIICHI
    elif kongs_on_table(hand) == 4 and len(
            {s.position for s in hand.seats for m in s.melds if m.kind == "kong"}) > 1:
        kind = FOUR_KONGS
    if kind is None:
        return hand
    ctx.notes.append(f"Abortive draw due ({_WORDS[kind]}) unless the discard is won on")
    return evolve(hand, rh=evolve(rh, abort=kind))


def check_claim(hand: Hand, pos: int) -> None:
    """With an abortive draw due, the discard may be taken only to win."""
    rh: RiichiHand = hand.rh
    if rh.abort is not None:
        raise Refused("abortive_draw", pos, f"the hand ends in an abortive draw "
                      f"({_WORDS[rh.abort]}): {name(hand, pos)} may take the discard only "
                      "to win")


def due(hand: Hand | None) -> bool:
    return hand is not None and hand.rh is not None and hand.rh.abort is not None


def end(ctx: Ctx, hand: Hand, kind: str, by: int | None = None) -> Hand:
    """The abortive draw: no payments, the riichi that stood stay on the table as deposits,
    the dealer repeats and the honba goes up (riichi_end.close)."""
    rt = ctx.state.rt
    up = riichi_end.stood(hand, None)
    winds = tuple(hand.wind_of(p) for p in up)
    st = settle_riichi(ctx.ruleset, hand.wind_of(hand.dealer), None, [],
                       Table(rt.honba, rt.sticks + len(up), winds))
    ctx.notes.append(f"Abortive draw: {_WORDS[kind]}"
                     + (f" ({name(hand, by)})" if by is not None else "")
                     + "; the dealer repeats, honba +1, the deposits stay")
    details: dict[str, Any] = {str(s.position): {"wind": hand.wind_of(s.position)}
                               for s in hand.seats}
    hand = evolve(hand, rh=evolve(hand.rh, abort=kind))
    return riichi_end.abortive_result(ctx, hand, st, up, details, kind, by)
