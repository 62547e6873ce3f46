"""The session's finished hands with their explained scores and payments, kept from the public
view as hands end (an undo that reopens a hand drops it again), and per-player statistics.
"""

from __future__ import annotations

from typing import Any

POSITIONS = ("1", "2", "3", "4")
SELF_DRAWN = ("wall", "replacement", "dealt")


class HandHistory:
    """Finished hands by number, each with the result details the public view shows at its end."""

    def __init__(self) -> None:
        self._hands: dict[int, dict[str, Any]] = {}

    def observe(self, view: dict[str, Any]) -> None:
        """Keep the current hand's result once it is over; forget hands an undo reopened."""
        hand = view.get("hand") or {}
        result = hand.get("result")
        finished = {h.get("number") for h in view.get("hands") or []}
        if hand.get("phase") == "over" and result and hand.get("number") is not None:
            finished.add(hand["number"])
            self._hands[hand["number"]] = _entry(hand, result, view)
        for number in list(self._hands):
            if number not in finished:
                del self._hands[number]

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
    entry.setdefault("payments", _payments(view, hand, result))
    return entry


def _payments(view: dict[str, Any], hand: dict[str, Any], result: dict[str, Any]) -> list[Any]:
    """Who pays whom, from the rule set's settlement (the result carries only the nets)."""
    if result.get("result") != "mahjong":
        return []
    try:
        from controller import scoring

        session = view.get("session") or {}
        ruleset = scoring.get_ruleset(session.get("ruleset", "hua-bao"), session.get("options"))
        scores = {int(k): int(v) for k, v in (result.get("scores") or {}).items()}
        settlement = scoring.settle(ruleset, int(hand["dealer"]), int(result["winner"]), scores)
    except Exception:  # the nets are still shown; payments are an explanation only
        return []
    return [
        {"from": str(p[0]), "to": str(p[1]), "amount": p[2]}
        if isinstance(p, tuple | list) else _payment_obj(p)
        for p in settlement.payments
    ]


def _payment_obj(p: Any) -> dict[str, Any]:
    if isinstance(p, dict):
        return {"from": str(p.get("from")), "to": str(p.get("to")), "amount": p.get("amount")}
    return {"from": str(p.from_), "to": str(p.to), "amount": p.amount}


def statistics(hands: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per player: hands won, self-drawn wins, discards that gave a Mahjong, largest hand,
    limit hands, and the running balance after each hand (for the chart)."""
    stats: dict[str, dict[str, Any]] = {p: {"won": 0, "self_drawn": 0, "dealt_in": 0, "largest": 0, "limit_hands": 0,
                 "balance": []} for p in POSITIONS}
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
        source = entry.get("win_source") or detail.get("win_source")
        if source in SELF_DRAWN:
            stats[w]["self_drawn"] += 1
        discarder = entry.get("discarder") or detail.get("discarder")
        if source in ("discard", "robbed_kong") and discarder is not None:
            stats[str(discarder)]["dealt_in"] += 1
    return stats
