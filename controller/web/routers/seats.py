"""One seat's own view (its concealed tiles and waits) and its declarations; seat token only."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from controller.web import views
from controller.web.deps import LoopDep, SeatDep
from controller.web.errors import EventRefused
from controller.web.models import DeclareIn, EventResult, SeatReassignIn, SeatView

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


@router.post(
    "/api/seats/{position}/reassign",
    response_model=EventResult,
    responses={**AUTH, 400: {"description": "the request body is not JSON"},
               409: {"description": "refused: the rack holds no such tile, or no hand"},
               503: {"description": "not recording: the event log cannot be written"}},
)
async def reassign(position: SeatDep, body: SeatReassignIn, loop: LoopDep) -> Any:
    """A misread tile in this seat's own rack: the tile read as ``tile`` is really ``as``.
    Only the seat's own rack; the answer (which may name its tiles) goes to this seat alone,
    and a refusal is not shown on the table."""
    loop.check_human("a correction")
    applied = await loop.submit(
        {"correct": {"reassign": {"zone": f"rack:{position}", "tile": body.tile,
                                  "as": body.as_}}}, f"seat:{position}")
    if not applied.accepted:
        raise EventRefused(applied)
    return views.told(applied)
