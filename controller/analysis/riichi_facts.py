"""Riichi's two questions about a ready hand, asked of the game itself: was the seat furiten
after its discard (the engine's furiten rule, as the seat page shows it), and could it win on a
discard with a yaku (the riichi scorer's yaku)?"""

from __future__ import annotations

from controller.analysis.moments import Moment
from controller.game import riichi
from controller.game.context import Ctx
from controller.game.mahjong import win_input
from controller.game.riichi_views import seat_riichi
from controller.scoring import ScoringError, score_hand


def ready_facts(moment: Moment) -> tuple[bool | None, bool | None]:
    """(furiten, has_yaku) of the seat's hand just after its discard; (None, None) outside
    riichi or when the hand is not ready. ``has_yaku``: a win on a discard (ron) on at least one
    of its waits has a yaku; riichi is one once declared (a closed hand's self-drawn win always
    has menzen tsumo, so the ron is the question)."""
    state = moment.after
    hand = state.hand
    if hand is None or hand.rh is None:
        return None, None
    ctx = Ctx(state)
    seat = hand.seat(moment.seat)
    waits = riichi.seat_waits(ctx, seat)
    if not waits:
        return None, None
    furiten = bool(seat_riichi(state, hand, moment.seat, waits)["furiten"])
    rh = hand.rh
    if moment.seat in rh.riichi or rh.pending == moment.seat:
        return furiten, True
    concealed = seat.concealed()
    for tile in waits:
        try:
            score_hand(win_input(ctx, hand, moment.seat, [*concealed, tile], "discard"))
        except ScoringError:
            continue
        return furiten, True
    return furiten, False
