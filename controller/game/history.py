"""The session's finished hands with their explained scores and payments, kept from the public
view as hands end (an undo that reopens a hand drops it again), and per-player statistics.

How a hand was won (``win_source``, ``discarder``) comes with the engine's hand result.
"""

from __future__ import annotations

from typing import Any

POSITIONS = ("1", "2", "3", "4")
SELF_DRAWN = ("wall", "replacement", "dealt")
#: wins where another player's tile gave the Mahjong: its discard, or the tile of its added kong
DEALT_IN = ("discard", "robbed_kong")


class HandHistory:
    """Finished hands by number, each with the result details the public view shows at its end."""

    def __init__(self) -> None:
        self._hands: dict[int, dict[str, Any]] = {}

    def observe(self, view: dict[str, Any], facts: dict[str, Any] | None = None) -> None:
        """Keep the current hand's result once it is over; forget hands an undo reopened.

        ``facts`` (optional) add to or override the result's fields.
        """
        hand = view.get("hand") or {}
        result = hand.get("result")
        finished = {h.get("number") for h in view.get("hands") or []}
        if hand.get("phase") == "over" and result and hand.get("number") is not None:
            finished.add(hand["number"])
            if hand["number"] not in self._hands:
                self._hands[hand["number"]] = {**_entry(hand, result, view), **(facts or {})}
        for number in list(self._hands):
            if number not in finished:
                del self._hands[number]

    def facts(self, number: Any) -> dict[str, Any]:
        """win_source and discarder of a finished hand, where known."""
        entry = self._hands.get(number) or {}
        return {k: entry[k] for k in ("win_source", "discarder") if k in entry}

    def hands(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """Every finished hand of the session, oldest first, with details where known."""
        out: list[dict[str, Any]] = []
        for i, summary in enumerate(view.get("hands") or [], start=1):
            number = summary.get("number", i)
            entry = dict(summary)
            entry.setdefault("number", number)
            entry.update({k: v for k, v in self._hands.get(number, {}).items() if k not in entry})
            entry.setdefault("details", {})
            entry.setdefault("payments", [])
            out.append(entry)
        return out

    def hand(self, view: dict[str, Any], number: int) -> dict[str, Any] | None:
        for entry in self.hands(view):
            if entry["number"] == number:
                return entry
        return None


def _entry(hand: dict[str, Any], result: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    entry = {
        "number": hand.get("number"),
        "dealer": hand.get("dealer"),
        "prevailing_wind": hand.get("prevailing_wind"),
    }
    entry.update(result)
    entry.setdefault("payments", [])
    return entry


def statistics(hands: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per player: hands won, self-drawn wins, discards that gave a Mahjong, largest hand,
    limit hands, and the running balance after each hand (for the chart)."""
    stats: dict[str, dict[str, Any]] = {
        p: {"won": 0, "self_drawn": 0, "dealt_in": 0, "largest": 0, "limit_hands": 0,
            "balance": []}
        for p in POSITIONS
    }
    totals = dict.fromkeys(POSITIONS, 0)
    for entry in hands:
        for p in POSITIONS:
            totals[p] += int((entry.get("net") or {}).get(p, 0))
            stats[p]["balance"].append(totals[p])
        winner = entry.get("winner")
        if entry.get("result") != "mahjong" or winner is None:
            continue
        w = str(winner)
        stats[w]["won"] += 1
        score = int((entry.get("scores") or {}).get(w, 0))
        stats[w]["largest"] = max(stats[w]["largest"], score)
        detail = (entry.get("details") or {}).get(w) or {}
        if (detail.get("score") or {}).get("limit_hand"):
            stats[w]["limit_hands"] += 1
        source = entry.get("win_source")
        if source in SELF_DRAWN:
            stats[w]["self_drawn"] += 1
        discarder = entry.get("discarder")
        if source in DEALT_IN and discarder is not None:
            stats[str(discarder)]["dealt_in"] += 1
    return stats

