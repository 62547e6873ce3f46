"""A tournament round at the table: when the club starts a round (over the broker), the table
starts a session if none is running and seats the round's players by name; at time-up the
hand in play is played out and then the session ends, so the round ends with it.

Plugged into the service as an event source that yields the ``player`` events it needs and
watches the clock; the stop goes through the service like the operator's.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator, Callable
from typing import Any

from controller.loop import HandInPlay

log = logging.getLogger("controller.club.rounds")


class RoundKeeper:
    """Decides, from the club's round and the table's view, what the table does next."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.seated: dict[int, Any] = {}  # round -> the session its names were given in
        self.ended: set[int] = set()  # rounds whose session was ended at time-up
        self.at_time_up: dict[int, int] = {}  # finished hands when time ran out

    def step(self, rnd: dict[str, Any] | None, table: str, view: dict[str, Any],
             active: bool, session: Any = None) -> tuple[str, Any]:
        """("start", None) | ("seat", [player events]) | ("stop", stop options) | ("wait", None).

        ``session``: the running session's id. The round's players are seated in every session
        that runs during the round, once, before anything else: also when time is up already
        (a session started for the round just before its end, or the keeper's turn came late
        on a busy host) and when the operator started another session meanwhile."""
        if not rnd or not isinstance(rnd.get("round"), int):
            return "wait", None
        number = int(rnd["round"])
        over = self.clock() >= float(rnd.get("ends_at") or 0)
        if number in self.ended:
            return "wait", None
        if not active:
            return ("wait", None) if over else ("start", None)
        seating = (rnd.get("seating") or {}).get(table)
        if isinstance(seating, list) and (number not in self.seated
                                          or self.seated[number] != session):
            self.seated[number] = session
            events = [{"player": {"seat": p, "name": str(n)}}
                      for p, n in enumerate(seating[:4], start=1) if n]
            names = view.get("names") or {}
            return "seat", [{"player": {"seat": p, "name": None}} for p in range(1, 5)
                            if names.get(str(p))] + events
        if not over:
            return "wait", None
        hands = len(view.get("hands") or [])
        phase = (view.get("hand") or {}).get("phase")
        if number not in self.at_time_up:
            self.at_time_up[number] = hands
            if phase in ("deal", "play"):
                return "wait", None  # the hand in play is played out
        if hands > self.at_time_up[number]:  # the hand in play at time-up is over
            self.ended.add(number)
            return "stop", {"between_hands": False}  # a hand dealt after it is void
        if phase not in ("deal", "play"):  # time-up between hands: none may begin meanwhile
            self.ended.add(number)
            return "stop", {"between_hands": True}
        return "wait", None


def round_source(club: Any, every: float = 0.2) -> Any:
    """The service's event source for tournament rounds (``club``: the table's publisher)."""

    async def source(service: Any) -> AsyncGenerator[tuple[dict[str, Any], str], Any]:
        keeper = RoundKeeper(service.clock)
        while True:
            await asyncio.sleep(every)
            if service.halted:
                continue
            action, events = keeper.step(club.round, club.table, service.public_view(),
                                         service.session_active, service.session_id)
            try:
                if action == "start":
                    session = service.config.session
                    await service.start_session(session.ruleset, dict(session.options))
                    log.info("round %s: a new session", club.round.get("round"))
                elif action == "stop":
                    try:  # the loop itself checks that no new hand has begun meanwhile
                        await service.stop_session(**events)
                    except HandInPlay:  # a hand was dealt first: it is played out
                        keeper.ended.discard(club.round.get("round"))
                        continue

                    log.info("round %s: time is up and the hand is over: session ended",
                             club.round.get("round"))
                elif action == "seat":
                    for event in events:
                        yield event, "club"
            except Exception as exc:  # noqa: BLE001 - shown in the log; the table plays on
                log.warning("round keeper: %s", exc)

    return source
