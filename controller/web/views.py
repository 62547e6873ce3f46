"""What the pages and the API show: the engine's views with the service's status, the players'
names and how a finished hand was won. Only public facts are added here."""

from __future__ import annotations

from typing import Any

from controller.service import TableService

POSITIONS = ("1", "2", "3", "4")


def players(service: TableService, view: dict[str, Any] | None = None) -> dict[str, str]:
    """Player names by position: who sat down (``player`` events in the log), else
    ``[table.seats.N] name``, else "Seat N"."""
    seats = service.config.table.seats
    seated = (view or service.public_view()).get("names") or {}
    return {p: seated.get(p) or (seats[p].name if p in seats else None) or f"Seat {p}"
            for p in POSITIONS}


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
    names = players(service, view)
    view["service"] = status(service)
    view["players"] = names
    view["round"] = club_round(service)
    hand = view.get("hand")
    if hand:
        seats = {p: {**seat, "name": names.get(p)} for p, seat in (hand.get("seats") or {}).items()}
        hand = {**hand, "seats": seats}
        if hand.get("result"):
            hand["result"] = {**hand["result"], **service.history.facts(hand.get("number"))}
        view["hand"] = hand
    return view


def club_round(service: TableService) -> dict[str, Any] | None:
    """The club's tournament round as the broker sent it (``serve --club-broker``): its
    number, end time and this table's seating; None without a club or a round."""
    club = getattr(service, "club", None)
    rnd = getattr(club, "round", None)
    if not isinstance(rnd, dict):
        return None
    seating = (rnd.get("seating") or {}).get(getattr(club, "table", ""))
    return {"round": rnd.get("round"), "ends_at": rnd.get("ends_at"),
            "started": rnd.get("started"), "seating": seating,
            "time_up": bool(rnd.get("ends_at")) and service.clock() >= float(rnd["ends_at"])}


def seat_view(service: TableService, position: int) -> dict[str, Any]:
    view = service.seat_view(position)
    view["table"] = public_view(service)
    return view
