"""One seat's own view (its concealed tiles and waits) and its declarations; seat token only."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from controller.web import views
from controller.web.deps import LoopDep, SeatDep
from controller.web.errors import EventRefused
from controller.web.models import DeclareIn, EventResult, SeatView

router = APIRouter(tags=["seats"])
AUTH: dict[int | str, dict[str, Any]] = {401: {"description": "missing or wrong seat token"}}


@router.get("/api/seats/{position}", response_model=SeatView, responses=AUTH)
def seat(position: SeatDep, loop: LoopDep) -> Any:
    """The seat's concealed tiles (``hand``), melds, bonus tiles and waits, and the table."""
    return views.seat_view(loop, position)


@router.post(
    "/api/seats/{position}/declare",
    response_model=EventResult,
    responses={**AUTH, 400: {"description": "the request body is not JSON"},
               409: {"description": "refused: the rule it breaks"},
               503: {"description": "not recording: the event log cannot be written"}},
)
async def declare(position: SeatDep, body: DeclareIn, loop: LoopDep) -> Any:
    """Declare ``claim``, ``ready`` or ``mahjong`` for this seat (as its buttons do)."""
    loop.check_human(f"a {body.call} call")
    applied = await loop.submit(
        {"declare": {"seat": position, "call": body.call}}, f"seat:{position}"
    )
    if not applied.accepted:
        raise EventRefused(applied)
    return applied
