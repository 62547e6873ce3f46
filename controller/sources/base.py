"""What an event source sees of the game loop, and the shape of a source.

Sources sit below the loop: they know it only through :class:`LoopPort` (the loop implements
it), so that the loop, the web and the composition root can all sit above them.
"""

from __future__ import annotations

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


#: An event source: given the loop, yields (event dict, source name) pairs. An async generator
#: may receive each event's result (``applied = yield event, name``; ``applied.accepted``).
EventSource = Callable[[LoopPort], AsyncIterator[tuple[Event, str]]]
