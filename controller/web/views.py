"""What the pages and the API show: the engine's views with the service's status, the players'
names and how a finished hand was won. Only public facts are added here."""

from __future__ import annotations

from typing import Any

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
    """A seat's own view; its waits only when the table shows them (``[table] show_waits``)."""
    view = service.seat_view(position)
    view["table"] = public_view(service)
    view["waits_shown"] = service.config.table.show_waits
    if not view["waits_shown"]:
        view["waits"] = []
    return view
