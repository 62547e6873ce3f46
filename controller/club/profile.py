"""A member's own page beyond the standings' numbers: the hands they won with their average
and best (with the patterns that made it), and their sessions as places. Built on the
standings' computation (``standings.Club.player``) and ``controller.sessions.places`` (who
held each seat in each hand); nothing here counts scores anew."""

from __future__ import annotations

from typing import Any

from controller.club import standings
from controller.sessions import places as pl


def won_hands(club: standings.Club, name: str) -> list[dict[str, Any]]:
    """Every hand ``name`` won (held the winning seat), oldest first, with the table,
    session, number, score, net, how it was won and the winner's patterns by name."""
    pk = pl.key(name)
    out = []
    for k in club.ordered():
        for hand in sorted(club.grouped[k][0], key=lambda h: int(h.get("number") or 0)):
            winner = hand.get("winner")
            if winner is None:
                continue
            held = pl.holder(hand.get("names"), winner)
            if not held or pl.key(held) != pk:
                continue
            seat = str(winner)
            out.append({"table": k[0], "session": k[1], "number": hand.get("number"),
                        "score": int((hand.get("scores") or {}).get(seat, 0)),
                        "net": int((hand.get("net") or {}).get(seat, 0)),
                        "win_source": hand.get("win_source"),
                        "limit_hand": hand.get("limit_hand"),
                        "patterns": list(hand.get("patterns") or [])})
    return out


def review_url(board: Any, hand: dict[str, Any]) -> str | None:
    """The hand's step-by-step review on its table (``/review/SESSION/HAND``, issue 25), from
    the table's published address (its status's ``url``); None without one. A table numbers
    its hands 1, 2, ... in a session, so the hand's number is its place there."""
    if not isinstance(board, str) or not board.startswith(("http://", "https://")):
        return None
    session, number = hand.get("session"), hand.get("number")
    if not isinstance(session, int) or not isinstance(number, int):
        return None
    return f"{board.rstrip('/')}/review/{session}/{number}"


def player_page(club: standings.Club, name: str) -> dict[str, Any] | None:
    """The player's page, or None for a name the club never saw at a table."""
    page = club.player(name)
    if not page["sessions"]:
        return None
    won = won_hands(club, name)
    scores = [w["score"] for w in won]
    best = max(won, key=lambda w: (w["score"], w["net"]), default=None)
    page["hands_won"] = won
    page["average_won"] = round(sum(scores) / len(scores), 1) if scores else None
    page["best"] = best
    return page
