"""Corrections made easy: the recent steps in words and the undo preview for the operator
(admin token) (a seat corrects a misread tile in its own rack in the seats router)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, Query

from controller.i18n import Words
from controller.web import narrate, views
from controller.web.deps import AdminDep, LoopDep

router = APIRouter()
ADMIN: dict[int | str, dict[str, Any]] = {401: {"description": "missing or wrong admin token"}}
STEPS = Query(ge=1, le=narrate.MAX_STEPS, description="how many of the newest steps")
#: The page names its language (docs/i18n.md); the words are English without it.
LANGUAGE = Header(default=None, alias="Accept-Language", include_in_schema=False)


@router.get("/api/admin/recent", tags=["admin"], dependencies=[AdminDep], responses=ADMIN)
def recent(loop: LoopDep, count: int = STEPS, language: str | None = LANGUAGE) -> Any:
    """The newest undoable steps in words, newest first (concealed tiles are not named), in
    the language the request asks for (Accept-Language)."""
    return {"events": narrate.steps(loop.state, count, _names(loop), _words(loop, language)),
            "available": min(narrate.undoable(loop.state), narrate.MAX_STEPS)}


@router.get("/api/admin/undo", tags=["admin"], dependencies=[AdminDep], responses=ADMIN)
def undo_preview(loop: LoopDep, count: int = STEPS, language: str | None = LANGUAGE) -> Any:
    """What ``POST /api/admin/undo`` with this count would take back, and the tiles that must
    then be put back where."""
    return narrate.undo_preview(loop.state, count, _names(loop), _words(loop, language))


def _words(loop: LoopDep, language: str | None) -> Words:
    return Words.asked(language, loop.config.server.language)


def _names(loop: LoopDep) -> dict[int, str]:
    """The players' names; an unnamed seat's "Seat N" is left to the words' language."""
    return {int(p): name for p, name in views.players(loop).items() if name != f"Seat {p}"}
