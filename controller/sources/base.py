"""What an event source sees of the game loop, and the shape of a source.

Sources sit below the loop: they know it only through :class:`LoopPort` (the loop implements
it), so that the loop, the web and the composition root can all sit above them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

from controller.game import GameState

Event = dict[str, Any]
#: Called on the loop after every change; must not block.
Listener = Callable[[Any], None]


class LoopPort(Protocol):
    """The game loop as an event source uses it (``controller.loop.GameLoop``)."""

    @property
    def state(self) -> GameState: ...

    @property
    def session_active(self) -> bool: ...

    @property
    def session_id(self) -> Any: ...

    @property
    def halted(self) -> str | None: ...

    def public_view(self) -> dict[str, Any]: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...

    def report_health(self, name: str, health: dict[str, Any]) -> None: ...

    def mark_players_simulated(self, who: str) -> None: ...

    async def start_session(self, ruleset: str, options: dict[str, Any]) -> None: ...


async def next_game(loop: LoopPort, hands: int | None) -> bool:
    """Riichi's simulated players play hanchan after hanchan (issue 23): when the game is
    over and no number of hands was asked for, a new session of the same rule set and
    options starts. True when one was started (the other rule sets stop at the game's end)."""
    session = loop.public_view().get("session") or {}
    if hands is not None or session.get("ruleset") != "riichi" or not loop.state.game_over:
        return False
    await loop.start_session("riichi", dict(session.get("options") or {}))
    return True


#: An event source: given the loop, yields (event dict, source name) pairs. An async generator
#: may receive each event's result (``applied = yield event, name``; ``applied.accepted``).
EventSource = Callable[[LoopPort], AsyncIterator[tuple[Event, str]]]


class Rhythm:
    """The simulated players' own rhythm: the next act comes ``pause`` seconds after the last
    act *began*, not after the controller was done with it. People at a table do not slow down
    because the controller is busy; while the controller keeps up (registers an act within the
    pause) the game moves at the players' pace, whatever the load on the web.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last = clock()

    def act(self) -> None:
        """An act begins now."""
        self.last = self.clock()

    async def pause(self, seconds: float) -> None:
        """Wait until ``seconds`` have passed since the last act began (at once if they have)."""
        delay = self.last + seconds - self.clock()
        await asyncio.sleep(delay if delay > 0 else 0)
