"""What the pages and the API show: the engine's views with the loop's status, the players'
names and how a finished hand was won. Only public facts are added here."""

from __future__ import annotations

from typing import Any

from controller.loop import GameLoop

POSITIONS = ("1", "2", "3", "4")


def players(loop: GameLoop) -> dict[str, str]:
    """Player names by position, from ``[table.seats.N] name``."""
    seats = loop.config.table.seats
    return {p: (seats[p].name if p in seats else None) or f"Seat {p}" for p in POSITIONS}


def status(loop: GameLoop) -> dict[str, Any]:
    timers = loop.config.timers
    now = loop.status()
    return {
        "accepting_moves": now.accepting_moves,
        "halted": now.halted,
        "session_active": now.session_active,
        "server_time": loop.clock(),
        "timers": timers.enabled,
        "claim_seconds": timers.claim_seconds,
        "turn_seconds": timers.turn_seconds,
    }


def public_view(loop: GameLoop) -> dict[str, Any]:
    """The public view for the pages: names on the seats, the loop's status, and how a
    finished hand was won."""
    view = dict(loop.public_view())
    names = players(loop)
    view["service"] = status(loop)
    view["players"] = names
    hand = view.get("hand")
    if hand:
        seats = {p: {**seat, "name": names.get(p)} for p, seat in (hand.get("seats") or {}).items()}
        hand = {**hand, "seats": seats}
        if hand.get("result"):
            hand["result"] = {**hand["result"], **loop.hand_facts(hand.get("number"))}
        view["hand"] = hand
    return view


def seat_view(loop: GameLoop, position: int) -> dict[str, Any]:
    """A seat's own view; its waits only when the table shows them (``[table] show_waits``)."""
    view = loop.seat_view(position)
    view["table"] = public_view(loop)
    view["waits_shown"] = loop.config.table.show_waits
    if not view["waits_shown"]:
        view["waits"] = []
    return view
