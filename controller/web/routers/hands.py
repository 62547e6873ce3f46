"""GET /api/hands and /api/hands/{n}: the session's finished hands with explained scores."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Path

from controller.game.history import statistics
from controller.sessions.places import seated, session_places
from controller.web.deps import LoopDep
from controller.web.models import HandRecord, HandsOut

router = APIRouter(tags=["hands"])


@router.get("/api/hands", response_model=HandsOut)
def hands(loop: LoopDep) -> Any:
    """Every finished hand (scores, payments, every hand shown), totals, per-seat statistics
    and the session's four places with each holder's part (provisional while under way);
    ``seated``: who sits at each seat now with their score in the session (the seat heads)."""
    view = loop.public_view()
    entries = loop.hands()
    session = view.get("session") or {}
    done = bool(session.get("game_over"))
    places = session_places(entries, view.get("penalties") or [], finished=done,
                            ruleset=session.get("ruleset"))
    return {"hands": entries, "totals": view.get("totals") or {},
            "statistics": statistics(entries), "finished": done, "places": places,
            "seated": seated(places, view.get("names"))}


@router.get("/api/hands/{number}", response_model=HandRecord,
            responses={404: {"description": "that hand has not finished in this session"}})
def hand(loop: LoopDep, number: int = Path(ge=1)) -> Any:
    entry = loop.hand(number)
    if entry is None:
        raise HTTPException(404, detail=f"hand {number} has not finished in this session")
    return entry


# Players by name, penalties and the past sessions (controller/web/routers/people.py) are
# served with the hands they belong to.
from controller.web.routers import people  # noqa: E402

router.include_router(people.router)
