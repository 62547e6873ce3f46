"""No concealed tile in any public word (issue 11): a rule with no exceptions.

A message (a violation, a put-back hint, an announcement) may name tiles. Before it leaves for
anyone but the seat whose rack holds them, every tile code that lies concealed in a rack at
that moment is replaced by "a concealed tile". Public fields that list tiles (discards, melds,
rivers) are public by what they are; this is about words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from controller.game.state import GameState

TILE_WORD = re.compile(r"\b(?:the |a |an )?([1-9][bcd]|[eswn]w|[rgw]d|[fs][1-4])\b")
HIDDEN = "a concealed tile"


def concealed_codes(state: GameState | None, *, but_seat: int | None = None) -> frozenset[str]:
    """Codes lying concealed in a rack now (none once the hand is over: all hands are shown);
    ``but_seat``'s own rack excepted (its page may name its tiles)."""
    hand = state.hand if state is not None else None
    if hand is None or hand.phase == "over":
        return frozenset()
    return frozenset(t for seat in hand.seats if seat.position != but_seat for t in seat.rack)


def redact(text: str, codes: Iterable[str]) -> str:
    """``text`` with every tile code of ``codes`` (and its article) replaced by HIDDEN."""
    hidden = frozenset(codes)
    if not hidden or not text:
        return text
    return TILE_WORD.sub(lambda m: HIDDEN if m.group(1) in hidden else m.group(0), text)


def redact_violation(violation: dict[str, Any] | None, codes: Iterable[str]) -> Any:
    if not violation or not isinstance(violation.get("message"), str):
        return violation
    return {**violation, "message": redact(violation["message"], codes)}
