"""A stored session's review: each discard of a seat analysed (controller.analysis.discards),
summed per hand and per session ("kept the best shape in 84 % of discards")."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from controller.analysis.discards import analyse
from controller.analysis.moments import Replayed

SEATS = (1, 2, 3, 4)
Progress = Callable[[int, int], None]  # (hands done, hands in all)


def summary(discards: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """How many discards, how many kept the best shape, and the share (0..1; 0 for none)."""
    entries = list(discards)
    kept = sum(1 for d in entries if d["kept_best"])
    share = round(kept / len(entries), 4) if entries else 0.0
    return {"discards": len(entries), "kept_best": kept, "share": share}


def hand_review(replayed: Replayed, hand: int, seat: int) -> dict[str, Any]:
    """One seat's discards in one hand (the route's answer without its session and rule set)."""
    moments = [m for m in replayed.moments if m.hand == hand and m.seat == seat]
    discards = [analyse(m) for m in moments]
    return {"hand": hand, "seat": seat, "discards": discards, "summary": summary(discards)}


def session_review(
    replayed: Replayed, seats: Iterable[int] = SEATS, hands: Iterable[int] | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Every (hand, seat) asked for, in order, and each seat's sums over them."""
    wanted = list(hands) if hands is not None else list(range(1, replayed.hands + 1))
    seats = list(seats)
    out: list[dict[str, Any]] = []
    for done, hand in enumerate(wanted, start=1):
        out += [hand_review(replayed, hand, seat) for seat in seats]
        if progress is not None:
            progress(done, len(wanted))
    per_seat = {str(s): summary(d for r in out if r["seat"] == s for d in r["discards"])
                for s in seats}
    every = summary(d for r in out for d in r["discards"])
    return {"ruleset": replayed.state.ruleset_name, "hands": out,
            "summary": {"seats": per_seat, "all": every}}

