"""A riichi session as mjai JSON lines (the protocol of the mjai simulators and the AI
reviewers, e.g. Mortal): start_game, start_kyoku, tsumo, dahai, chi, pon, daiminkan, ankan,
kakan, reach, reach_accepted, dora, hora, ryukyoku, end_kyoku, end_game (docs/formats.md,
"mjai"). Seat 0 is the first hand's dealer; ``deltas`` are the formats' (the riichi deposit
paid on reach_accepted is not in them; a winner's deltas carry the deposits it takes)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from controller.sessions.kyoku import Kyoku, Trace
from controller.tiles import wind_code

HONOURS = {"ew": "E", "sw": "S", "ww": "W", "nw": "N", "wd": "P", "gd": "F", "rd": "C"}
SUITS = {"c": "m", "d": "p", "b": "s"}


def pai(code: str) -> str:
    """Table tile code -> mjai tile ("5c" -> "5m", "wd" -> "P"); no red fives."""
    if code in HONOURS:
        return HONOURS[code]
    return code[0] + SUITS[code[1]]


def events(tr: Trace) -> Iterator[dict[str, Any]]:
    yield {"type": "start_game", "names": tr.seat_names(), "kyoku_first": 0, "aka_flag": False}
    for k in tr.kyokus:
        yield from _kyoku(tr, k)
    yield {"type": "end_game"}


def _kyoku(tr: Trace, k: Kyoku) -> Iterator[dict[str, Any]]:
    s, order = tr.seat, tr.order()
    yield {"type": "start_kyoku", "bakaze": pai(wind_code(k.wind)), "dora_marker": pai(k.dora[0]),
           "kyoku": s(k.dealer) + 1, "honba": k.honba, "kyotaku": k.sticks, "oya": s(k.dealer),
           "scores": [k.points[p] for p in order],
           "tehais": [[pai(t) for t in k.haipai[p]] for p in order]}
    reach: int | None = None
    for m in k.moves:
        kind = m["type"]
        if reach is not None and kind != "dora":  # the riichi discard was not won on
            yield {"type": "reach_accepted", "actor": reach}
            reach = None
        if kind == "dora":
            yield {"type": "dora", "dora_marker": pai(m["tile"])}
            continue
        actor = s(m["pos"])
        if kind == "tsumo":
            yield {"type": "tsumo", "actor": actor, "pai": pai(m["tile"])}
        elif kind == "dahai":
            if m["riichi"]:
                yield {"type": "reach", "actor": actor}
                reach = actor
            yield {"type": "dahai", "actor": actor, "pai": pai(m["tile"]),
                   "tsumogiri": bool(m["tsumogiri"])}
        elif kind == "ankan":
            yield {"type": "ankan", "actor": actor, "consumed": [pai(t) for t in m["consumed"]]}
        elif kind == "kakan":
            yield {"type": "kakan", "actor": actor, "pai": pai(m["tile"]),
                   "consumed": [pai(t) for t in m["consumed"]]}
        else:
            yield {"type": kind, "actor": actor, "target": s(m["target"]),
                   "pai": pai(m["tile"]), "consumed": [pai(t) for t in m["consumed"]]}
    yield from _end(tr, k, order, reach)


def _end(tr: Trace, k: Kyoku, order: list[int], reach: int | None) -> Iterator[dict[str, Any]]:
    end = k.end
    if end["type"] == "ryukyoku":
        if reach is not None:
            yield {"type": "reach_accepted", "actor": reach}
        yield {"type": "ryukyoku", "deltas": [end["deltas"][p] for p in order]}
    else:
        for w in end["wins"]:
            hora: dict[str, Any] = {"type": "hora", "actor": tr.seat(w["pos"]),
                                    "target": tr.seat(w["target"]),
                                    "deltas": [w["deltas"][p] for p in order]}
            if k.ura:
                hora["ura_markers"] = [pai(t) for t in k.ura]
            yield hora
    yield {"type": "end_kyoku"}


__all__ = ["events", "pai"]
