"""GET /api/review/{session}/{hand}/analysis?seat=N: what each of a seat's discards cost in a
stored hand (controller.analysis; docs/analysis.md). The answer shows the seat's concealed
tiles, so it needs a token: the operator's reads any seat, a seat's token its own seat always
and the other seats once the session has ended; without one the answer is 403."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request

from controller.analysis import Replayed, hand_review, replay_session
from controller.store import EventLog, StoreError, numbered_table_log
from controller.store.tokens import Tokens
from controller.web.deps import LoopDep, bearer_token, get_tokens

router = APIRouter(tags=["review"])
_CACHED = 4  # ended sessions kept replayed (they never change)
_lock = threading.Lock()

ANSWERS: dict[int | str, dict[str, Any]] = {
    403: {"description": "no token, or a token that may not read this seat (yet)"},
    404: {"description": "no such session, or no such hand in it"}}


def _allowed(tokens: Tokens, token: str | None, seat: int) -> str | None:
    """'all' (operator or the seat itself), 'ended' (another seat: once the session has
    ended), or None (no token that reads anything)."""
    if token is None:
        return None
    if tokens.is_seat(seat, token):
        return "all"
    if tokens.is_admin(token):
        return "operator"
    if any(tokens.is_seat(p, token) for p in (1, 2, 3, 4)):
        return "ended"
    return None


def _replayed(request: Request, db: Any, session: int) -> tuple[Replayed, bool]:
    """The session replayed (kept for ended sessions) and whether it has ended."""
    cache: OrderedDict[int, Replayed] = getattr(request.app.state, "reviews", None) or OrderedDict()
    request.app.state.reviews = cache
    try:
        with EventLog.open(db, readonly=True) as log:
            info = log.session(session)
            ended = info.ended_at is not None
            with _lock:
                found = cache.get(session) if ended else None
            if found is None:
                found = replay_session(numbered_table_log(log, session))
    except StoreError:
        raise HTTPException(404, detail=f"there is no session {session} in this table's "
                            "log: GET /api/sessions lists them") from None
    if ended:
        with _lock:
            cache[session] = found
            cache.move_to_end(session)
            while len(cache) > _CACHED:
                cache.popitem(last=False)
    return found, ended or bool(found.state.game_over)


@router.get("/api/review/{session}/{hand}/analysis", responses=ANSWERS)
def analysis(
    request: Request, loop: LoopDep,
    tokens: Annotated[Tokens, Depends(get_tokens)],
    token: Annotated[str | None, Depends(bearer_token)],
    session: Annotated[int, Path(ge=1, le=2**62)],
    hand: Annotated[int, Path(ge=1, le=100_000)],
    seat: Annotated[int, Query(ge=1, le=4, description="the seat reviewed, 1-4")],
) -> dict[str, Any]:
    """Each of ``seat``'s discards in hand ``hand`` (numbered as `replay --db` lists them):
    shanten before and after, the discards ranked with their ukeire, the chosen one's rank,
    riichi's furiten and yaku when ready; and the hand's sum."""
    may = _allowed(tokens, token, seat)
    if may is None:
        raise HTTPException(403, detail="the analysis shows a seat's concealed tiles: send "
                            "'Authorization: Bearer TOKEN' with the operator's token or a "
                            "seat's (see `mahjong-table tokens`)")
    replayed, ended = _replayed(request, loop.data_dir / "events.sqlite", session)
    if not 1 <= hand <= replayed.hands:
        raise HTTPException(404, detail=f"session {session} has no hand {hand} (it has "
                            f"{replayed.hands})")
    if may == "ended" and not ended:
        raise HTTPException(403, detail=f"seat {seat}'s analysis shows its concealed tiles: "
                            "another seat's token reads it once the session has ended")
    under_way = replayed.state.hand is not None and replayed.state.hand.phase != "over"
    if may == "operator" and under_way and hand == replayed.hands:
        # as the operator's review: no concealed tile of a hand still in play (issue 22)
        raise HTTPException(403, detail=f"hand {hand} is still in play: its analysis shows "
                            "concealed tiles, the operator reads it once the hand is over")
    review = hand_review(replayed, hand, seat)
    return {"session": session, "hand": hand, "seat": seat,
            "ruleset": replayed.state.ruleset_name, "discards": review["discards"],
            "summary": review["summary"]}
