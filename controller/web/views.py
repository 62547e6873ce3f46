"""What the pages and the API show: the engine's views with the loop's status, the players'
names and how a finished hand was won. Only public facts are added here."""

from __future__ import annotations

from typing import Any

from controller.loop import GameLoop
from controller.web import club_link

POSITIONS = ("1", "2", "3", "4")


def players(loop: GameLoop, view: dict[str, Any] | None = None) -> dict[str, str]:
    """Player names by position: who sat down (``player`` events in the log), else
    ``[table.seats.N] name``, else "Seat N"."""
    seats = loop.config.table.seats
    seated = (view or loop.public_view()).get("names") or {}
    return {p: seated.get(p) or (seats[p].name if p in seats else None) or f"Seat {p}"
            for p in POSITIONS}


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
    names = players(loop, view)
    view["service"] = status(loop)
    view["players"] = names
    view["round"] = club_round(loop)
    hand = view.get("hand")
    if hand:
        seats = {p: {**seat, "name": names.get(p)} for p, seat in (hand.get("seats") or {}).items()}
        hand = {**hand, "seats": seats}
        if hand.get("result"):
            hand["result"] = {**hand["result"], **loop.hand_facts(hand.get("number"))}
        view["hand"] = hand
    return view


def club_round(loop: GameLoop) -> dict[str, Any] | None:
    """The club's tournament round as the broker sent it (``serve --club-broker``): its
    number, end time and this table's seating; None without a club or a round."""
    link = club_link.of(loop)
    rnd = link.round if link is not None else None
    if link is None or not isinstance(rnd, dict):
        return None
    seating = (rnd.get("seating") or {}).get(link.table)
    return {"round": rnd.get("round"), "ends_at": rnd.get("ends_at"),
            "started": rnd.get("started"), "seating": seating,
            "time_up": bool(rnd.get("ends_at")) and loop.clock() >= float(rnd["ends_at"])}


def seat_view(loop: GameLoop, position: int) -> dict[str, Any]:
    """A seat's own view; its waits only when the table shows them (``[table] show_waits``)."""
    view = loop.seat_view(position)
    view["table"] = public_view(loop)
    view["waits_shown"] = loop.config.table.show_waits
    if not view["waits_shown"]:
        view["waits"] = []
        own = view.get("riichi")
        if own:  # riichi: what tells the waits goes too (the rules' own words still do)
            own.update(ron_on=[], no_yaku=[], riichi_discards=[], furiten=None, tsumo=None,
                       can_riichi=None)
    return view


def told(applied: Any) -> dict[str, Any]:
    """An event's outcome as its sender is told it. The engine's words name no concealed tile
    but the sender's own typed ones (controller.game.privacy); nothing here looks at the racks,
    so the answer cannot depend on what they hold (issue 22)."""
    return {"accepted": applied.accepted, "seq": applied.seq, "violation": applied.violation}


_NOW = -1.0  # the placeholder for server_time in a cached answer; each answer gets its own
_NOW_JSON = b'"server_time":-1.0'


class PublicCache:
    """The public view as JSON, made once per state change (seq, halted, session) and served
    to every poller and socket with only ``server_time`` filled in per answer: under 200
    pollers the view is not rebuilt and re-validated 700 times a second on the game's loop."""

    def __init__(self, service: GameLoop) -> None:
        self.service = service
        self._key: tuple[Any, ...] | None = None
        self._body = b""
        self.builds = 0

    def body(self) -> bytes:
        from controller.web.models import PublicView

        service = self.service
        # the club's round and the players' names change without an event: part of the key
        key = (service.seq, service.halted, service.session_active, service.session_id,
               repr(club_round(service)), repr(players(service, service.public_view())))
        if key != self._key:
            view = public_view(service)
            view["service"] = {**view["service"], "server_time": _NOW}
            self._body = PublicView.model_validate(view).model_dump_json(by_alias=True).encode()
            self._key = key
            self.builds += 1
        now = service.clock()
        return self._body.replace(_NOW_JSON, b'"server_time":' + repr(now).encode(), 1)

    def message(self) -> str:
        """The ``table`` WebSocket message."""
        now = self.service.clock()
        return f'{{"type":"table","server_time":{now!r},"table":{self.body().decode()}}}'
