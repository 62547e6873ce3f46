"""What riichi adds to the views: the public counters and indicators (no concealed tile: a draw
shows only "tenpai"/"noten"), and a seat's own riichi facts (its waits that win now, furiten,
whether riichi or a tsumo is possible)."""

from __future__ import annotations

from typing import Any

from controller.game import riichi, riichi_abort
from controller.game.context import Ctx, Refused
from controller.game.riichi import RiichiHand
from controller.game.state import GameState, Hand
from controller.scoring.rulesets.riichi import RIICHI_DEPOSIT, START_POINTS


def public_riichi(state: GameState) -> dict[str, Any] | None:
    """The board's riichi facts: indicators, honba, deposits, points, who is in riichi (and
    which of its discards was the riichi discard), tenpai/noten after a draw, the final."""
    rt = state.rt
    if rt is None:
        return None
    hand = state.hand
    rh: RiichiHand | None = hand.rh if hand is not None else None
    in_play = hand is not None and hand.phase != "over"
    riichi_now = rh.riichi if rh is not None and in_play else ()
    points = {str(p): START_POINTS + state.totals[p - 1] - RIICHI_DEPOSIT * (p in riichi_now)
              for p in (1, 2, 3, 4)}
    out: dict[str, Any] = {
        "honba": rt.honba, "riichi_sticks": rt.sticks + len(riichi_now), "points": points,
        "riichi": list(riichi_now), "double_riichi": list(rh.double) if rh and in_play else [],
        "dora_indicators": list(rh.dora) if rh else [], "ura_dora_indicators": [],
        "ura_due": False, "final": rt.final, "chombo": list(rt.chombo),
    }
    if rh is None or hand is None:
        return out
    if rh.abort is not None and in_play:  # the key only then (abortive_draws: true)
        out["abortive_due"] = rh.abort
    out["riichi_discard"] = {str(p): _riichi_index(rh, p) for p in rh.riichi}
    out["riichi_river"] = {str(p): _river_index(hand, rh, p) for p in rh.riichi}
    if not in_play:
        out["ura_dora_indicators"] = list(rh.ura)
        out["ura_due"] = any(p in rh.riichi for p, _ in rh.wins) and len(rh.ura) < len(rh.dora)
        info = (hand.result.details.get("riichi") if hand.result else None) or {}
        tenpai = info.get("tenpai", [])
        if info.get("abortive") is not None:
            out["abortive"] = info["abortive"]
        elif hand.result is not None and hand.result.result in (
                "washout", "nagashi_mangan"):
            out["tenpai"] = {str(p): "tenpai" if p in tenpai else "noten" for p in (1, 2, 3, 4)}
        out["riichi"] = list(info.get("riichi", []))
    return out


def _riichi_index(rh: RiichiHand, pos: int) -> int | None:
    """Which of the seat's own discards (0-based) was its riichi discard (drawn sideways)."""
    return rh.riichi_at[pos - 1] - 1 if rh.riichi_at[pos - 1] else None


def _river_index(hand: Hand, rh: RiichiHand, pos: int) -> int | None:
    """The riichi discard's place in the seat's river (the board draws it sideways): its own
    discards lined up with the river, which lacks the called ones; None while it is on the pad.
    When the riichi discard itself was called, the seat's next discard lies sideways (the
    custom). A called tile of the same kind just before an uncalled one may shift the mark."""
    at = rh.riichi_at[pos - 1]
    river = hand.seat(pos).river
    j = 0
    for i, tile in enumerate(rh.discards[pos - 1]):
        if i == at - 1:
            return j if j < len(river) else None
        if j < len(river) and river[j] == tile:
            j += 1
    return None


def seat_riichi(state: GameState, hand: Hand, pos: int, waits: list[str]) -> dict[str, Any]:
    """A seat's own riichi facts (its own tiles only)."""
    rh: RiichiHand = hand.rh
    seat = hand.seat(pos)
    ctx = Ctx(state)
    in_play = hand.phase != "over"
    out: dict[str, Any] = {
        "in_riichi": pos in rh.riichi, "declared": rh.pending == pos, "dead": pos in rh.dead,
        "kuikae": list(rh.kuikae) if hand.turn == pos else [], "furiten": False,
        "ron_on": [], "no_yaku": [], "can_riichi": False, "riichi_discards": [],
        "tsumo": False,
        "drawn": seat.last_tile if seat.last_source in ("wall", "replacement") else None,
    }
    if not in_play or pos in rh.dead:
        return out
    if seat.size() == 13 and waits:
        own = set(rh.discards[pos - 1]) & set(waits)
        # a wait lying on the pad now is not passed yet (RULES.md 11: furiten once it passes);
        # the same count as the engine's check at a ron (riichi.check_win)
        number = hand.discards_total
        out["furiten"] = (bool(own) or 0 < rh.temp[pos - 1] < number
                          or 0 < rh.perm[pos - 1] < number)
        if hand.discard is not None and hand.discard[1] != pos:
            out["ron_on"], out["no_yaku"] = _ron_waits(ctx, hand, pos, waits)
    # the dealer's first discard comes before the hand's first step: it may be a riichi
    first = hand.phase == "deal" and hand.step is None
    if seat.size() == 14 and pos == hand.turn and (hand.step == "discard" or first):
        out["tsumo"] = _may_tsumo(ctx, hand, pos)
        if riichi_abort.nine_possible(ctx, hand, pos):  # the key only then (abortive_draws)
            out["nine_terminals"] = True
        if riichi.is_closed(seat) and pos not in rh.riichi and hand.live_wall >= 4:
            out["riichi_discards"] = riichi.riichi_discards(ctx, seat)
            out["can_riichi"] = bool(out["riichi_discards"])
    return out


def _ron_waits(ctx: Ctx, hand: Hand, pos: int, waits: list[str]) -> tuple[list[str], list[str]]:
    """The waits that win on the discard now, and those that would have no yaku."""
    from controller.game.mahjong import validate, with_tile

    assert hand.discard is not None
    tile = hand.discard[0]
    if tile not in waits:
        return [], []
    try:
        validate(ctx, hand, pos, with_tile(hand, pos, tile), "discard")
    except Refused as exc:
        return [], [tile] if exc.rule == "mahjong_without_yaku" else []
    return [tile], []


def _may_tsumo(ctx: Ctx, hand: Hand, pos: int) -> bool:
    from controller.game.mahjong import validate

    seat = hand.seat(pos)
    tile = seat.last_tile
    if tile is None or tile not in seat.rack or seat.last_source not in ("wall", "replacement"):
        if not (hand.phase == "deal" and pos == hand.dealer and tile is not None):
            return False
    concealed = seat.concealed()
    concealed.remove(tile)
    source = "dealt" if hand.phase == "deal" else str(seat.last_source)
    try:
        validate(ctx, hand, pos, concealed + [tile], source)
    except Refused:
        return False
    return True
