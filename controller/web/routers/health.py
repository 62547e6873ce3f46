"""GET /api/health: is the service recording moves, and how are its readers."""

from __future__ import annotations

from fastapi import APIRouter

from controller.web.deps import BroadcasterDep, ServiceDep
from controller.web.models import Health

router = APIRouter(tags=["health"])


@router.get("/api/health", response_model=Health)
def health(service: ServiceDep, broadcaster: BroadcasterDep) -> Health:
    """``ok`` is false when moves are not being recorded (``halted`` says why)."""
    return Health(
        ok=service.halted is None,
        accepting_moves=service.halted is None and service.session_active,
        halted=service.halted,
        session_active=service.session_active,
        seq=service.seq,
        queue_depth=service.queue_depth,
        clients=len(broadcaster.clients),
        readers=service.reader_health,
        push=broadcaster.stats(),
        uptime=round(service.clock() - service.started_at, 1),
    )
