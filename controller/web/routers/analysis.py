"""GET /api/review/{session}/{hand}/analysis?seat=N: what each of a seat's discards cost in a
stored hand (controller.analysis; docs/analysis.md). The answer shows the seat's concealed
tiles, so it follows the review's own rule of who sees them (controller.web.review.Viewer): the
operator's token reads any seat but not of the hand in play, a seat's token its own seat always
and the other seats once the session has ended (unless ``[review] reveal_after_session =
false``); without a token, or with one that reads nothing, the answer is 403."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request

from controller.analysis import hand_review
from controller.store.tokens import Tokens
from controller.web.deps import LoopDep, bearer_token, get_tokens
from controller.web.review import Viewer
from controller.web.routers.review import review_store, viewer_of

router = APIRouter(tags=["review"])

ANSWERS: dict[int | str, dict[str, Any]] = {
    403: {"description": "no token, or a token that may not read this seat (yet)"},
    404: {"description": "no such session, or no such hand in it"}}


def _refused(who: Viewer, seat: int, hand: int, ended: bool) -> HTTPException:
    """Why ``who`` may not read ``seat``'s analysis of this hand, and when it may."""
    if who.role == "operator-live":
        why = (f"hand {hand} is still in play: its analysis shows concealed tiles, the operator "
               "reads it once the hand is over")
    elif ended:
        why = (f"seat {seat}'s analysis shows its concealed tiles, which this table keeps "
               "hidden from the other seats ([review] reveal_after_session = false)")
    else:
        why = (f"seat {seat}'s analysis shows its concealed tiles: another seat's token reads "
               "it once the session has ended")
    return HTTPException(403, detail=why)


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
    who = viewer_of(tokens, token)
    if who is None or who.role == "public":
        raise HTTPException(403, detail="the analysis shows a seat's concealed tiles: send "
                            "'Authorization: Bearer TOKEN' with the operator's token or a "
                            "seat's (see `mahjong-table tokens`)")
    fold = review_store(request, loop).reviews.session(session)
    if fold is None:
        raise HTTPException(404, detail=f"there is no session {session} in this table's "
                            "log: GET /api/sessions lists them")
    replayed, ended = fold.replayed(), fold.ended
    if not 1 <= hand <= replayed.hands:
        raise HTTPException(404, detail=f"session {session} has no hand {hand} (it has "
                            f"{replayed.hands})")
    who = who.during(hand == replayed.live and not ended)
    if seat not in who.concealed(ended, loop.config.review.reveal_after_session):
        raise _refused(who, seat, hand, ended)
    review = hand_review(replayed, hand, seat)
    return {"session": session, "hand": hand, "seat": seat,
            "ruleset": replayed.state.ruleset_name, "discards": review["discards"],
            "summary": review["summary"]}
