"""What the pages and the API show: the engine's views with the service's status, the players'
names and how a finished hand was won. Only public facts are added here."""

from __future__ import annotations

from typing import Any

from controller.game.privacy import concealed_codes, redact_violation
from controller.service import TableService

POSITIONS = ("1", "2", "3", "4")


def players(service: TableService) -> dict[str, str]:
    """Player names by position, from ``[table.seats.N] name``."""
    seats = service.config.table.seats
    return {p: (seats[p].name if p in seats else None) or f"Seat {p}" for p in POSITIONS}


def status(service: TableService) -> dict[str, Any]:
    timers = service.config.timers
    return {
        "accepting_moves": service.halted is None and service.session_active,
        "halted": service.halted,
        "session_active": service.session_active,
        "server_time": service.clock(),
        "timers": timers.enabled,
        "claim_seconds": timers.claim_seconds,
        "turn_seconds": timers.turn_seconds,
    }


def public_view(service: TableService) -> dict[str, Any]:
    """The public view for the pages: names on the seats, the service's status, and how a
    finished hand was won."""
    view = dict(service.public_view())
    names = players(service)
    view["service"] = status(service)
    view["players"] = names
    hand = view.get("hand")
    if hand:
        seats = {p: {**seat, "name": names.get(p)} for p, seat in (hand.get("seats") or {}).items()}
        hand = {**hand, "seats": seats}
        if hand.get("result"):
            hand["result"] = {**hand["result"], **service.history.facts(hand.get("number"))}
        view["hand"] = hand
    return view


def seat_view(service: TableService, position: int) -> dict[str, Any]:
    view = service.seat_view(position)
    view["table"] = public_view(service)
    return view


def told(service: TableService, applied: Any, seat: int | None = None) -> dict[str, Any]:
    """An event's outcome as its sender is told it: the violation's words name no tile lying
    concealed in a rack, except in the sender's own rack when the sender is a seat."""
    codes = concealed_codes(service.state, but_seat=seat)
    return {"accepted": applied.accepted, "seq": applied.seq,
            "violation": redact_violation(applied.violation, codes)}
