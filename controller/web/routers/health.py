"""GET /api/health: is the loop recording moves, and how are its readers."""

from __future__ import annotations

from fastapi import APIRouter

from controller.web import club_link
from controller.web.deps import BroadcasterDep, LoopDep
from controller.web.models import Health

router = APIRouter(tags=["health"])


@router.get("/api/health", response_model=Health)
def health(loop: LoopDep, broadcaster: BroadcasterDep) -> Health:
    """``ok`` is false when moves are not being recorded (``halted`` says why), or when the
    club link's receiving thread is down or its broker was refused (``club`` says which)."""
    now = loop.status()
    link = club_link.of(loop)
    club = link.health() if link is not None else None
    return Health(
        ok=now.halted is None and (club is None or bool(club.get("ok"))),
        accepting_moves=now.accepting_moves,
        halted=now.halted,
        session_active=now.session_active,
        seq=now.seq,
        queue_depth=now.queue_depth,
        clients=len(broadcaster.clients),
        readers=now.readers,
        push=broadcaster.stats(),
        uptime=round(loop.clock() - now.started_at, 1),
        club=club,
    )
