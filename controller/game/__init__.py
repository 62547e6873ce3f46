"""The game engine (architecture.md, Contract 4): events folded into an immutable game state.

    new_game() -> GameState
    apply(state, event, at=None) -> Outcome
    replay(events) -> (GameState, [Outcome])
    public_view(state, now=None) / seat_view(state, position) / replay_summary(state)
    table_zones(state) -> {zone: [tiles]}   (where every tile lies; for the table source)
    due_timer_events(state, now) -> [timer events]
    put_backs(state) / lying(state): the tiles out of place, for the table's own players
"""

from controller.game.engine import apply, new_game, replay, replay_lines
from controller.game.events import EventError, check_event
from controller.game.state import GameState, Outcome, Violation
from controller.game.timers import due_timer_events
from controller.game.views import public_view, replay_summary, seat_view, table_zones
from controller.game.zones import lying, put_backs

__all__ = [
    "EventError",
    "GameState",
    "Outcome",
    "Violation",
    "apply",
    "check_event",
    "due_timer_events",
    "lying",
    "new_game",
    "public_view",
    "put_backs",
    "replay",
    "replay_lines",
    "replay_summary",
    "seat_view",
    "table_zones",
]
