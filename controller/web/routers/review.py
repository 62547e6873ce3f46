"""The review of stored hands (issue 25): the pages /review and /review/SESSION/HAND, the list
of sessions with their hands, and one hand's frames for the viewer the token names (none: the
public; a seat's token: that seat; the admin token: the operator). docs/review.md."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, HTTPException, Path, Request
from fastapi.responses import FileResponse, RedirectResponse, Response

from controller.i18n import Words
from controller.sessions.catalog import Catalog, safe_sessions
from controller.sessions.review import Reviews
from controller.store.tokens import Tokens
from controller.web.deps import LoopDep, TokensDep, bearer_token
from controller.web.review import SEATS, Viewer, review
from controller.web.routers.pages import NO_CACHE, STATIC

router = APIRouter(tags=["review"])
pages = APIRouter(include_in_schema=False)
SessionId = Annotated[int, Path(ge=1, le=2**62, description="the session's id (/api/review)")]
HandIndex = Annotated[int, Path(ge=1, le=10_000, description=(
    "the hand's 1-based place in the session's hands, as `mahjong-table replay --db` lists them"))]
#: The page names its language (docs/i18n.md); the words are the table's default without it.
LANGUAGE = Header(default=None, alias="Accept-Language", include_in_schema=False)
#: Review frames kept ready: (session, hand, viewer, events read, language) -> the answer.
_KEPT = 16


@pages.get("/review")
def review_list_page() -> FileResponse:
    return FileResponse(STATIC / "review.html", headers=NO_CACHE)


@pages.get("/review/current/{hand}")
def current_hand(hand: int, loop: LoopDep, request: Request) -> RedirectResponse:
    """A hand of the session being played (the board's and the seat page's links); the
    address's query (?lang=de) goes along."""
    session = loop.session_id
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse((f"/review/{int(session)}/{int(hand)}" if session else "/review")
                            + query, status_code=307)


@pages.get("/review/{session_id}/{hand}")
def review_page(session_id: int, hand: int) -> FileResponse:
    return FileResponse(STATIC / "review.html", headers=NO_CACHE)


def viewer_of(tokens: Tokens, token: str | None) -> Viewer | None:
    """Who is looking, from the token: none is the public, the admin token the operator, a
    seat's token that seat; None for any other token."""
    if token is None:
        return Viewer()
    if tokens.is_admin(token):
        return Viewer("operator")
    return next((Viewer("seat", p) for p in SEATS if tokens.is_seat(p, token)), None)


def viewer(tokens: TokensDep,
           token: Annotated[str | None, Depends(bearer_token)]) -> Viewer:
    """Who is looking (:func:`viewer_of`); a token that is neither the admin token nor a
    seat's is refused (a wrong link is said, never shown as the public)."""
    found = viewer_of(tokens, token)
    if found is not None:
        return found
    raise HTTPException(401, detail="this token is neither a seat's nor the admin token: open "
                        "the review from the seat page or the operator page (or without a "
                        "token for the public review)", headers={"WWW-Authenticate": "Bearer"})


ViewerDep = Annotated[Viewer, Depends(viewer)]


class Store:
    """The app's review folds (which the discard analysis reads too: routers/analysis.py) and
    the answers made of them (a few kept, newest last)."""

    def __init__(self, loop: Any) -> None:
        self.reviews = Reviews(loop.data_dir / "events.sqlite")
        self.answers: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self.lock = threading.Lock()


def review_store(request: Request, loop: LoopDep) -> Store:
    store: Store | None = getattr(request.app.state, "review", None)
    if store is None:
        store = request.app.state.review = Store(loop)
    return store


@router.get("/api/review")
def sessions(request: Request, loop: LoopDep) -> dict[str, Any]:
    """Every stored session, newest first, with its finished hands (number, dealer, result,
    winner): a damaged session is listed with ``damaged`` saying why, as /api/sessions."""
    catalog: Catalog | None = getattr(request.app.state, "catalog", None)
    if catalog is None:
        catalog = request.app.state.catalog = Catalog(loop.data_dir / "events.sqlite")
    out = []
    rows = safe_sessions(catalog)
    explained = catalog.explained_hands() if rows else {}
    for row in rows:
        hands = [_hand_row(i, h)
                 for i, h in enumerate(explained.get(row["session"], []), start=1)]
        out.append({k: row.get(k) for k in ("session", "started", "ended", "ruleset",
                                            "players", "damaged", "finished")}
                   | {"hands": hands})
    return {"sessions": out}


def _hand_row(index: int, hand: dict[str, Any]) -> dict[str, Any]:
    keep = ("number", "dealer", "prevailing_wind", "result", "winner", "winners", "win_source",
            "discarder", "net", "names", "winds")
    return {"hand": index, **{k: hand.get(k) for k in keep if k in hand}}


@router.get("/api/review/{session_id}/{hand}",
            responses={404: {"description": "no such session or hand"},
                       401: {"description": "a token that is neither a seat's nor the admin's"}})
def hand_frames(session_id: SessionId, hand: HandIndex, who: ViewerDep,
                request: Request, loop: LoopDep, language: str | None = LANGUAGE) -> Response:
    """One hand step by step: a frame per stored event (``seq``), each with the table's public
    view after it, the event in words, its violation, and the concealed tiles ``who`` may
    see (``own``); the hand's record (its result) in ``record`` (docs/review.md). The words
    are in the language the request asks for (Accept-Language; docs/i18n.md)."""
    store = review_store(request, loop)
    fold = store.reviews.session(session_id)
    if fold is None:
        raise HTTPException(404, detail=f"there is no session {session_id} in this table's "
                            "log: open /review for the list")
    reveal = loop.config.review.reveal_after_session
    words = Words.asked(language, loop.config.server.language)
    key = (session_id, hand, who, fold.seq, fold.ended, reveal, words.language)
    with store.lock:
        kept = store.answers.get(key)
    if kept is None:
        answer = review(fold, hand, who, reveal_after_session=reveal, words=words)
        if answer is None:
            raise HTTPException(404, detail=f"session {session_id} has {len(fold.hands())} "
                                f"hand(s), not a hand {hand}: open /review for the list")
        # encoded once (a hand is a few hundred KB of frames) and kept until the log grows
        kept = json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()
        with store.lock:
            store.answers[key] = kept
            while len(store.answers) > _KEPT:
                store.answers.popitem(last=False)
    return Response(kept, media_type="application/json")
