"""GET /api/table: the public view (Contract 4) that the dashboard and the bots read."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from controller.web.models import PublicView

router = APIRouter(tags=["table"])


@router.get("/api/table", response_model=PublicView)
async def table(request: Request) -> Any:
    """Only what the players at the table can see; every hand once the hand is over."""
    # made once per state change (views.PublicCache), validated by PublicView when made
    return Response(request.app.state.public.body(), media_type="application/json")
