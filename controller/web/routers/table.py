"""GET /api/table: the public view (Contract 4) that the dashboard and the bots read."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from controller.web import views
from controller.web.deps import LoopDep
from controller.web.models import PublicView

router = APIRouter(tags=["table"])


@router.get("/api/table", response_model=PublicView)
def table(loop: LoopDep) -> Any:
    """Only what the players at the table can see; every hand once the hand is over."""
    return views.public_view(loop)
