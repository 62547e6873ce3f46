"""Call timers (rules 003, a table option): which overruns are due as ``timer`` events now.

The deadlines themselves are set by the fold from the events' injected times; this module only
compares them with ``now``. The controller records overruns and never stops a game on its own.
"""

from __future__ import annotations

from typing import Any

from controller.game.state import GameState


def due_timer_events(state: GameState, now: float) -> list[dict[str, Any]]:
    """Timer events the service should append now (each deadline is reported once)."""
    hand = state.hand
    if not state.table.timers or hand is None or hand.phase == "over":
        return []
    noted = set(state.timers_noted)
    events: list[dict[str, Any]] = []
    if hand.turn_deadline is not None and now > hand.turn_deadline:
        mark = ("turn", hand.turn, float(hand.turn_deadline))
        if mark not in noted:
            events.append(_event(hand.turn, "turn", now - hand.turn_deadline, hand.turn_deadline))
    if hand.late_claim is not None:
        seat, overrun, deadline = hand.late_claim
        if ("claim", seat, float(deadline)) not in noted:
            events.append(_event(seat, "claim", overrun, deadline))
    return events


def _event(seat: int, kind: str, overrun: float, deadline: float) -> dict[str, Any]:
    return {"timer": {"seat": seat, "kind": kind, "overrun": round(overrun, 3),
                      "deadline": deadline}}
