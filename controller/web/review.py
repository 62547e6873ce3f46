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
from controller.i18n import Words
from controller.sessions.review import SessionReview, Step
from controller.web.narrate import ENGLISH, capital, describe, telling

SEATS = (1, 2, 3, 4)


@dataclass(frozen=True)
class Viewer:
    """Who is looking: ``role`` public | seat | operator (operator-live: the operator on the
    hand being played, who sees no concealed tile); ``seat`` for a seat's token."""

    role: str = "public"
    seat: int | None = None

    def during(self, live: bool) -> Viewer:
        """This viewer on a hand ``live`` (being played right now): the operator sees no
        concealed tile of it, here as on the operator page (docs/service.md, Privacy)."""
        return Viewer("operator-live") if live and self.role == "operator" else self

    def concealed(self, ended: bool, reveal_after_session: bool) -> tuple[int, ...]:
        """The seats whose concealed tiles this viewer sees in a session so far ended or not:
        the one rule of the review's frames and of the discard analysis (which shows them)."""
        if self.role == "operator":
            return SEATS
        if self.role == "seat" and self.seat is not None:
            if ended and reveal_after_session:
                return SEATS
            return (self.seat,)
        return ()


def review(fold: SessionReview, index: int, viewer: Viewer, *,
           reveal_after_session: bool = True, words: Words = ENGLISH) -> dict[str, Any] | None:
    """The hand at 1-based ``index`` of the session (``replay --db``'s numbering) as frames
    for ``viewer``, the events in ``words``' language; None when the session has no such hand."""
    steps = fold.hand_steps(index)
    if steps is None:
        return None
    hand = fold.hands()[index - 1]
    live = hand["result"] is None and not fold.ended  # the hand being played right now
    viewer = viewer.during(live)
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
        "language": words.language,
        "frames": [frame(step, own, viewer.role == "operator", names, words) for step in steps],
    }


def frame(step: Step, own: tuple[int, ...], operator: bool,
          names: dict[int, str], language: Words = ENGLISH) -> dict[str, Any]:
    """One step: the public view of the state after it, the words (in ``language``), and the
    seen racks. A tile code the public has not seen is said as "a tile" in that language."""
    after = step.after
    view = public_view(after)
    shown = None if operator else shown_codes(after)
    hidden = language.t("a tile")
    out: dict[str, Any] = {
        "seq": step.seq, "kind": next(iter(step.event), "?"), "accepted": step.accepted,
        "words": keep_shown(words(step, labels(step, names, language), language), shown, hidden),
        # the engine's own notes (English, as its violation messages): docs/review.md
        "announcements": [keep_shown(a, shown) for a in step.announcements],
        "violation": _violation(step, operator),
        "hand": view["hand"], "riichi": view.get("riichi"),
    }
    if own and after.hand is not None:
        out["own"] = {str(p): _own(seat_view(after, p, table=view)) for p in own}
    return out


def labels(step: Step, names: dict[int, str], language: Words = ENGLISH) -> dict[int, str]:
    """Each seat as the words call it: its player's name, else its wind in this hand."""
    hand = step.after.hand

    def wind(p: int) -> str:
        return capital(language.term(hand.wind_of(p)) if hand else language.t("Seat {n}", n=p))
    return {p: names.get(p) or wind(p) for p in SEATS}


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


def words(step: Step, names: dict[int, str], language: Words = ENGLISH) -> str:
    """The event in words: the operator page's (narrate.describe) for an accepted step, the
    rule for a refused one, what the operator did for a correction."""
    t = language.t
    kind: str = next(iter(step.event), "?")
    body: dict[str, Any] = step.event.get(kind) or {}
    who = lambda p: names.get(p) or t("Seat {n}", n=p)  # noqa: E731
    if not step.accepted:
        seat = step.violation.seat if step.violation is not None else None
        rule = language.term(step.violation.rule) if step.violation is not None else t("refused")
        return t("Refused ({rule}): {who}", rule=rule, who=who(seat)) if seat \
            else t("Refused ({rule})", rule=rule)
    if kind == "correct":
        return _correction(body, step, language)
    if kind == "penalty":
        return t("The operator recorded a penalty") if "cancel" not in body \
            else t("The operator cancelled penalty {n}", n=body["cancel"])
    said = telling(step.before, step.after, names, language)
    if said is not None:
        return said
    return _other(kind, body, step, who, language) or capital(t("a change on the table"))


def _other(kind: str, body: dict[str, Any], step: Step, who: Any, language: Words) -> str | None:
    """The steps narrate does not tell apart: a riichi or other call, a dora indicator laid,
    a player taking a seat."""
    t = language.t
    if kind == "declare":
        call = "riichi" if step.after.rt is not None and body.get("call") == "ready" \
            else body.get("call")
        return t("{who} called {call}", who=who(body.get("seat")), call=language.term(str(call)))
    if kind == "move" and body.get("to") == "dora":
        over = step.before.hand is not None and step.before.hand.phase == "over"
        return (t("{tile} laid as an ura dora indicator", tile=body.get("tile")) if over
                else t("{tile} laid as a dora indicator", tile=body.get("tile")))
    if kind == "player":
        # the seat by its number: its holder's name is already the new one (not "Ann sits at Ann")
        return t("{name} sits at seat {n}", name=body.get("name") or t("Nobody"),
                 n=body.get("seat"))
    return None


def _correction(body: dict[str, Any], step: Step, language: Words = ENGLISH) -> str:
    t = language.t
    if "undo" in body:
        n = int(body["undo"])
        return language.tn("Correction: the operator took back {n} step",
                           "Correction: the operator took back {n} steps", n)
    if "end_hand" in body:
        return t("Correction: the operator ended the hand ({how})", how=body["end_hand"])
    if "reassign" in body:
        return t("Correction: {what}", what=describe(step.before, step.after, {}, language))
    return t("Correction: who held a seat was corrected")
