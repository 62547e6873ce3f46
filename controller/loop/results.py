"""What the game loop answers and shows: its errors, the result of one event (``Applied``), a
change pushed to listeners (``Change``) and the status snapshot the pages read (``LoopStatus``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class ServiceError(Exception):
    """A request the service cannot carry out now; the message says why and what to do."""


class ServiceHalted(ServiceError):
    """The store could not record an event: no more moves until the cause is fixed."""


class NoSession(ServiceError):
    """No session is running."""


class SessionChanged(ServiceError):
    """An event made while one session ran reached the loop after another began (queued behind
    the new session's start): it is not applied to a game it was not made for."""


class HandInPlay(ServiceError):
    """A stop asked for between hands came while a hand is dealt or played: try again later."""


@dataclass(frozen=True)
class Applied:
    """What became of one posted event."""

    accepted: bool
    seq: int | None
    violation: dict[str, Any] | None
    announcements: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Change:
    """A state change the broadcaster pushes; ``applied`` is None for session changes."""

    seq: int
    applied: Applied | None


@dataclass(frozen=True)
class LoopStatus:
    """A snapshot of the loop for the pages and /api/health."""

    halted: str | None  # why no moves are recorded (None: recording)
    session_active: bool
    session_id: Any
    seq: int
    queue_depth: int
    started_at: float
    players_simulated: str | None  # who plays every seat, when simulated players do
    readers: dict[str, dict[str, Any]]  # reader and source health by name

    @property
    def accepting_moves(self) -> bool:
        return self.halted is None and self.session_active


def violation_of(outcome: Any) -> dict[str, Any] | None:
    """An engine Outcome's violation as a dict (None when there is none)."""
    v = getattr(outcome, "violation", None)
    if v is None:
        return None
    if isinstance(v, dict):
        return v
    return {"rule": getattr(v, "rule", None), "seat": getattr(v, "seat", None),
            "message": getattr(v, "message", None)}


def kind_of(event: dict[str, Any]) -> str:
    """The event's kind (its first key): move, declare, correct, ..."""
    return next(iter(event), "?")
