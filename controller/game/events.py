"""The shape of an event (architecture.md Contract 3), checked before the game sees it."""

from __future__ import annotations

from typing import Any

from controller.scoring.rulesets import RULESETS
from controller.tiles import ALL_CODES

KINDS = ("session", "move", "declare", "correct", "anomaly", "timer", "player", "penalty")
CALLS = ("claim", "ready", "mahjong", "noten", "nine_terminals")
_CODES = frozenset(ALL_CODES)
_ZONES = frozenset(
    ["discard", "river", "wall", "dora"]
    + [f"{z}:{n}" for z in ("rack", "melds") for n in (1, 2, 3, 4)]
)


MAX_NAME = 40
MAX_PENALTY = 1_000_000


class EventError(ValueError):
    """An event that is not well formed; the message says what is wrong."""


def check_event(event: Any) -> tuple[str, dict[str, Any]]:
    """Return (kind, body) of a well-formed event, else raise EventError naming the problem."""
    if not isinstance(event, dict):
        raise EventError("an event is a JSON object such as {\"move\": {...}}")
    kinds = [k for k in event if k in KINDS]
    if len(kinds) != 1:
        raise EventError(
            f"an event has exactly one of {', '.join(KINDS)}; got {', '.join(map(str, event))}"
        )
    kind = kinds[0]
    body = event[kind]
    if not isinstance(body, dict):
        raise EventError(f"{kind} must be an object")
    check = _CHECKS.get(kind)
    if check is not None:
        check(body)
    return kind, body


def _check_move(body: dict[str, Any]) -> None:
    tile = body.get("tile")
    if tile not in _CODES:
        raise EventError(
            f"unknown tile code {tile!r}: use 1b-9b, 1c-9c, 1d-9d, ew sw ww nw, rd gd wd, "
            "1f-4f, 1s-4s"
        )
    for end in ("from", "to"):
        zone = body.get(end)
        if zone not in _ZONES:
            raise EventError(
                f"unknown zone {zone!r} in \"{end}\": use rack:N, melds:N (N 1-4), discard, "
                "river or wall"
            )


def _check_declare(body: dict[str, Any]) -> None:
    seat = body.get("seat")
    if isinstance(seat, bool) or seat not in (1, 2, 3, 4):
        raise EventError(f"declare needs a seat 1-4, not {seat!r}")
    if body.get("call") not in CALLS:
        raise EventError(f"unknown call {body.get('call')!r}: use claim, ready or mahjong "
                         "(riichi: noten, nine_terminals)")


def _check_correct(body: dict[str, Any]) -> None:
    if "undo" in body:
        n = body["undo"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise EventError(f"undo needs a whole number of events >= 1, not {n!r}")
        return
    if "end_hand" in body:
        if body["end_hand"] != "washout":
            raise EventError("end_hand takes \"washout\"")
        return
    if "holder" in body:
        _check_holder(body["holder"])
        return
    r = body.get("reassign")
    if not isinstance(r, dict):
        raise EventError("correct takes undo, reassign, end_hand or holder")
    if r.get("zone") not in _ZONES or r.get("tile") not in _CODES or r.get("as") not in _CODES:
        raise EventError("reassign needs a zone, a tile and the tile it really is (\"as\")")


def _check_session(body: dict[str, Any]) -> None:
    if not isinstance(body.get("ruleset"), str):
        raise EventError(f"session needs a ruleset: one of {', '.join(RULESETS)}")
    if not isinstance(body.get("options", {}), dict):
        raise EventError("session options must be an object")
    if not isinstance(body.get("table", {}), dict):
        raise EventError("session table options must be an object")


def _check_timer(body: dict[str, Any]) -> None:
    if body.get("kind") not in ("turn", "claim"):
        raise EventError("a timer event's kind is turn or claim")
    if "seat" in body:
        _seat(body, "seat")
    deadline = body.get("deadline")
    if deadline is not None and (isinstance(deadline, bool)
                                 or not isinstance(deadline, (int, float))):
        raise EventError(f"a timer event's deadline is a time in seconds, not {deadline!r}")


def _seat(body: dict[str, Any], key: str) -> int:
    seat = body.get(key)
    if isinstance(seat, bool) or seat not in (1, 2, 3, 4):
        raise EventError(f"{key} must be a seat 1-4, not {seat!r}")
    return int(seat)


def _check_player(body: dict[str, Any]) -> None:
    _seat(body, "seat")
    name = body.get("name")
    if name is None:
        return
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise EventError(f"a player's name is 1-{MAX_NAME} characters (null clears the seat)")
    if not all(c.isprintable() for c in name):
        raise EventError("a player's name must not hold control characters")


def _check_holder(body: Any) -> None:
    """``{"seat": 1, "name": "Ann Lee" | null, "from": 3, "to": 5 (optional)}``."""
    if not isinstance(body, dict):
        raise EventError('holder takes {"seat", "name", "from"} (and "to")')
    _check_player(body)
    for k in ("from", "to"):
        n = body.get(k)
        if (k == "from" or n is not None) and (isinstance(n, bool) or not isinstance(n, int)
                                               or n < 1):
            raise EventError(f"holder's {k} is a hand number (1, 2, ...), not {n!r}")
    if body.get("to") is not None and body["to"] < body["from"]:
        raise EventError("holder's to comes at or after its from")


def _check_penalty(body: dict[str, Any]) -> None:
    if "cancel" in body:
        n = body["cancel"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise EventError(f"cancel names a penalty by its number (1, 2, ...), not {n!r}")
        return
    kind = body.get("kind")
    amount = body.get("amount")
    if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)
                               or not 0 < amount <= MAX_PENALTY):
        raise EventError(f"a penalty's amount is a whole number 1-{MAX_PENALTY}")
    if kind == "transfer":
        if _seat(body, "from") == _seat(body, "to"):
            raise EventError("a transfer goes from one seat to another")
        if amount is None:
            raise EventError("a transfer needs an amount")
    elif kind == "deduction":
        _seat(body, "seat")
        if amount is None:
            raise EventError("a deduction needs an amount")
    elif kind in ("false_mahjong", "chombo"):
        _seat(body, "seat")
    else:
        raise EventError("a penalty's kind is transfer, false_mahjong, deduction or chombo "
                         "(riichi)")
    reason = body.get("reason")
    if reason is not None and (not isinstance(reason, str) or len(reason) > 200):
        raise EventError("a penalty's reason is a text of at most 200 characters")


_CHECKS = {
    "player": _check_player,
    "penalty": _check_penalty,
    "move": _check_move,
    "declare": _check_declare,
    "correct": _check_correct,
    "session": _check_session,
    "timer": _check_timer,
}
