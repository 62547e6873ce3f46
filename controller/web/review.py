"""The review of a stored hand as frames (issue 25): one per stored event, each the game's own
public view after it (controller.game.views: what the live table showed), the event in words
(narrate.py, the operator page's words), its violation or correction, and the concealed tiles
the viewer may see (each from the game's own seat view).

Who sees what (docs/review.md): the public sees what was public at each step; a seat's token
sees its own concealed tiles throughout and the other seats' once the session has ended, unless
``[review] reveal_after_session = false`` keeps them hidden for good; the operator sees all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.game import public_view, seat_view
from controller.game.privacy import keep_shown, public_violation, shown_codes
from controller.sessions.review import SessionReview, Step
from controller.web.narrate import describe

SEATS = (1, 2, 3, 4)


@dataclass(frozen=True)
class Viewer:
    """Who is looking: ``role`` public | seat | operator (operator-live: the operator on the
    hand being played, who sees no concealed tile); ``seat`` for a seat's token."""

    role: str = "public"
    seat: int | None = None

    def concealed(self, ended: bool, reveal_after_session: bool) -> tuple[int, ...]:
        """The seats whose concealed tiles this viewer sees in a session so far ended or not."""
        if self.role == "operator":
            return SEATS
        if self.role == "seat" and self.seat is not None:
            if ended and reveal_after_session:
                return SEATS
            return (self.seat,)
        return ()


def review(fold: SessionReview, index: int, viewer: Viewer, *,
           reveal_after_session: bool = True) -> dict[str, Any] | None:
    """The hand at 1-based ``index`` of the session (``replay --db``'s numbering) as frames
    for ``viewer``; None when the session has no such hand."""
    steps = fold.hand_steps(index)
    if steps is None:
        return None
    hand = fold.hands()[index - 1]
    live = hand["result"] is None and not fold.ended  # the hand being played right now
    if live and viewer.role == "operator":
        # while a hand is in play the operator sees no concealed tile, here as on the
        # operator page (docs/service.md, Privacy): its racks show once it is over
        viewer = Viewer("operator-live")
    own = viewer.concealed(fold.ended, reveal_after_session)
    # who held each seat in this hand (a correction of the holders included)
    names = {int(p): str(n) for p, n in (hand.get("names") or {}).items() if n}
    return {
        "session": fold.info.id, "hand": index, "number": hand["number"],
        "ruleset": fold.info.ruleset, "ended": fold.ended, "damaged": fold.damaged,
        "viewer": {"role": viewer.role, "seat": viewer.seat, "concealed": list(own)},
        "names": {str(p): n for p, n in names.items()},
        "record": hand, "hands": len(fold.hands()),
        "live": live,
        "frames": [frame(step, own, viewer.role == "operator", names) for step in steps],
    }


def frame(step: Step, own: tuple[int, ...], operator: bool,
          names: dict[int, str]) -> dict[str, Any]:
    """One step: the public view of the state after it, the words, and the seen racks."""
    after = step.after
    view = public_view(after)
    shown = None if operator else _shown(after)
    out: dict[str, Any] = {
        "seq": step.seq, "kind": next(iter(step.event), "?"), "accepted": step.accepted,
        "words": keep_shown(words(step, labels(step, names)), shown),
        "announcements": [keep_shown(a, shown) for a in step.announcements],
        "violation": _violation(step, operator),
        "hand": view["hand"], "riichi": view.get("riichi"),
    }
    if own and after.hand is not None:
        out["own"] = {str(p): _own(seat_view(after, p, table=view)) for p in own}
    return out


def labels(step: Step, names: dict[int, str]) -> dict[int, str]:
    """Each seat as the words call it: its player's name, else its wind in this hand."""
    hand = step.after.hand
    return {p: names.get(p) or (hand.wind_of(p).capitalize() if hand else f"Seat {p}")
            for p in SEATS}


def _shown(state: Any) -> frozenset[str] | None:
    """The codes lying open (privacy.shown_codes) and, in riichi, the dora indicators laid
    face up on the indicator pad."""
    shown = shown_codes(state)
    rh = state.hand.rh if state.hand is not None else None
    if shown is None or rh is None:
        return shown
    return shown | frozenset(rh.dora)


def _own(seat: dict[str, Any]) -> dict[str, Any]:
    """What a seat's own view adds to the board: its concealed tiles, waits, riichi facts."""
    out = {"hand": seat["hand"], "waits": seat["waits"]}
    if "riichi" in seat:
        out["riichi"] = seat["riichi"]
    return out


def _violation(step: Step, operator: bool) -> dict[str, Any] | None:
    if step.violation is None:
        return None
    said = step.violation.to_json()
    return said if operator else public_violation(said, step.after)


def words(step: Step, names: dict[int, str]) -> str:
    """The event in words: the operator page's (narrate.describe) for an accepted step, the
    rule for a refused one, what the operator did for a correction."""
    kind: str = next(iter(step.event), "?")
    body: dict[str, Any] = step.event.get(kind) or {}
    who = lambda p: names.get(p, f"Seat {p}")  # noqa: E731
    if not step.accepted:
        seat = step.violation.seat if step.violation is not None else None
        rule = step.violation.rule if step.violation is not None else "refused"
        return f"Refused ({rule.replace('_', ' ')}){f': {who(seat)}' if seat else ''}"
    if kind == "correct":
        return _correction(body, step)
    if kind == "penalty":
        return "The operator recorded a penalty" if "cancel" not in body \
            else f"The operator cancelled penalty {body['cancel']}"
    said = describe(step.before, step.after, names)
    if said != "A change on the table":
        return said
    if kind == "declare":
        call = "riichi" if step.after.rt is not None and body.get("call") == "ready" \
            else body.get("call")
        return f"{who(body.get('seat'))} called {call}"
    if kind == "move" and body.get("to") == "dora":
        over = step.before.hand is not None and step.before.hand.phase == "over"
        return f"{body.get('tile')} laid as {'an ura' if over else 'a'} dora indicator"
    if kind == "player":
        return f"{body.get('name') or 'Nobody'} sits at {who(body.get('seat'))}"
    return said


def _correction(body: dict[str, Any], step: Step) -> str:
    if "undo" in body:
        n = int(body["undo"])
        return f"Correction: the operator took back {n} step{'s' if n != 1 else ''}"
    if "end_hand" in body:
        return f"Correction: the operator ended the hand ({body['end_hand']})"
    if "reassign" in body:
        return "Correction: " + describe(step.before, step.after, {})
    return "Correction: who held a seat was corrected"
