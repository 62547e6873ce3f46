"""The in-process simulation: the director's table events go straight to the game loop (no
virtual boards, no presence tracking): ``serve --simulate --in-process``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

from controller.players.director import Director
from controller.sources.base import Event, EventSource, LoopPort, Rhythm, next_game


def simulation_source(pace: float, seed: int, hands: int | None = None) -> EventSource:
    """The in-process simulation: the Director plays all four seats against the engine, one
    table event every ``pace`` seconds, counted from the start of the last one (a longer pause
    after each hand, to show the result).
    A new session (admin) gets a new Director with that session's rule set."""

    async def source(loop: LoopPort) -> AsyncGenerator[tuple[Event, str], Any]:
        director: Director | None = None
        session_of: Any = None
        refused = 0
        rhythm = Rhythm()
        loop.report_health("simulation", {
            "ok": True, "message": f"in-process simulation, one event every {pace:g} s"})
        while True:
            if not loop.session_active or loop.halted:
                await asyncio.sleep(0.2)
                continue
            if director is None or session_of != loop.session_id or refused > 20:
                refused = 0
                session = loop.public_view().get("session") or {}
                director = Director(session.get("ruleset") or "hua-bao", session.get("options"),
                                    hands=hands or 1_000_000, seed=seed)
                session_of = loop.session_id
            event = director.next_action(loop.state)
            if event is None and await next_game(loop, hands):
                continue
            if event is None:  # the director's session is over
                await asyncio.sleep(1.0)
                continue
            if "session" in event:  # the loop has already started the session
                continue
            before = (loop.public_view().get("hand") or {}).get("phase")
            rhythm.act()
            applied = yield event, "simulation"
            if applied is not None and not applied.accepted:
                # Out of step with the table (an operator's undo, say): slow down, then start
                # a fresh Director that reads the table as it is now.
                refused += 1
                await asyncio.sleep(max(pace, 0.5))
                continue
            refused = 0
            after = (loop.public_view().get("hand") or {}).get("phase")
            await rhythm.pause(pace * 8 if after == "over" and before != "over" else pace)

    return source
