"""A riichi session's finished hands as the moves other tools log (tenhou.net/6, mjai): each
seat's deal, every draw, discard, call, kong, riichi and dora indicator in the order they stood,
and the result with the deltas. The tiles come from the project's own engine replaying the
stored events; only what stood is kept: refused events are not moves, an undo takes its events
back, a misread tile set right (``reassign``) is the corrected tile from the start, a hand voided
by chombo is left out (it is replayed with the same counters). Positions 1-4 as the table has
them; the writers turn them into the formats' seat numbers (docs/formats.md, "Logs other tools
read")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.game import apply, new_game
from controller.game.state import GameState, Hand
from controller.scoring.rulesets.riichi import RIICHI_DEPOSIT, START_POINTS
from controller.tiles import WINDS

POSITIONS = (1, 2, 3, 4)


class TraceError(ValueError):
    """A session that cannot be written as a riichi log (another rule set, no finished hand)."""


@dataclass
class Kyoku:
    """One finished hand: counters at its start, each seat's 13 dealt tiles, the moves, the end.

    ``moves`` are dicts: ``tsumo`` (pos, tile, rinshan), ``dahai`` (pos, tile, tsumogiri,
    riichi), ``chi``/``pon``/``daiminkan`` (pos, target, tile, consumed), ``ankan`` (pos,
    consumed), ``kakan`` (pos, tile, consumed), ``dora`` (tile: a kong's new indicator)."""

    number: int
    dealer: int
    wind: str  # the prevailing wind
    honba: int
    sticks: int
    points: dict[int, int]  # at the start of the hand
    haipai: dict[int, list[str]] = field(default_factory=lambda: {p: [] for p in POSITIONS})
    moves: list[dict[str, Any]] = field(default_factory=list)
    dora: list[str] = field(default_factory=list)  # every indicator, kong ones included
    ura: list[str] = field(default_factory=list)
    end: dict[str, Any] = field(default_factory=dict)
    names: tuple[str | None, ...] = (None, None, None, None)


@dataclass
class Trace:
    """A whole session: its options, first dealer, names and finished hands in order."""

    options: dict[str, Any]
    first_dealer: int
    names: tuple[str | None, ...]
    kyokus: list[Kyoku]
    final: dict[str, Any] | None  # the hanchan's end (RULES.md 11), when it has ended
    points: dict[int, int]  # after the last finished hand

    def position(self, seat: int) -> int:
        """The formats' seat 0-3 (0: the first hand's dealer) -> the table's position 1-4."""
        return (self.first_dealer - 1 + seat) % 4 + 1

    def seat(self, position: int) -> int:
        """The table's position 1-4 -> the formats' seat 0-3."""
        return (position - self.first_dealer) % 4

    def order(self) -> list[int]:
        """The table's positions in the formats' seat order."""
        return [self.position(i) for i in range(4)]

    def seat_names(self) -> list[str]:
        """Each seat's player, in the formats' order; its first wind ("East") where unnamed."""
        return [self.names[p - 1] or WINDS[i].capitalize() for i, p in enumerate(self.order())]


def log_deltas(net: Sequence[int], riichi: dict[str, Any] | None) -> list[int]:
    """A hand's result per position (index 0: position 1) as the logs count it: the table's net
    with the riichi deposits paid during the hand given back (docs/formats.md)."""
    up = set((riichi or {}).get("riichi") or [])
    return [n + (RIICHI_DEPOSIT if p in up else 0) for p, n in zip(POSITIONS, net, strict=True)]


def trace(events: Iterable[dict[str, Any]]) -> Trace:
    """Replay a session's events with the engine and keep the moves that stood."""
    state = new_game()
    records: list[tuple[dict[str, Any], GameState, GameState]] = []
    for event in events:
        outcome = apply(state, event)
        if outcome.accepted:
            undo = (event.get("correct") or {}).get("undo") if isinstance(event, dict) else None
            if undo:
                del records[len(records) - int(undo):]
            elif outcome.state.prev is state:
                records.append((event, state, outcome.state))
        state = outcome.state
    if state.ruleset_name != "riichi":
        raise TraceError(
            f"the session plays {state.ruleset_name or 'no rule set'}: tenhou and mjai logs "
            "are riichi logs; export it with --format jsonl or csv")
    return _build(records, state)


def _build(records: list[tuple[dict[str, Any], GameState, GameState]],
           final: GameState) -> Trace:
    kyokus: dict[int, Kyoku] = {}
    last: dict[int, Hand] = {}
    first_dealer = final.hands[0].dealer if final.hands else final.dealer
    for event, s0, s1 in records:
        h1 = s1.hand
        if h1 is None or h1.rh is None:
            continue
        k = kyokus.get(h1.number)
        if k is None:
            k = kyokus[h1.number] = _start(s0, h1)
        h0 = s0.hand if s0.hand is not None and s0.hand.number == h1.number else None
        _step(k, event, h0, h1)
        last[h1.number] = h1
    out = []
    for record in final.hands:
        k = kyokus.get(record.number)
        if k is None or record.result == "chombo" or record.number not in last:
            continue
        _finish(k, last[record.number], record.riichi or {})
        k.names = record.names
        out.append(k)
    points = {p: START_POINTS + final.totals[p - 1] for p in POSITIONS}
    rt = final.rt
    return Trace(dict(final.options), first_dealer, final.names, out,
                 rt.final if rt is not None else None, points)


def _start(s0: GameState, hand: Hand) -> Kyoku:
    rt = s0.rt
    return Kyoku(hand.number, hand.dealer, hand.prevailing_wind, rt.honba, rt.sticks,
                 {p: START_POINTS + s0.totals[p - 1] for p in POSITIONS})


def _step(k: Kyoku, event: dict[str, Any], h0: Hand | None, h1: Hand) -> None:
    """What one event that stood added to the hand's moves."""
    move = event.get("move")
    if isinstance(move, dict):
        src, dst, tile = str(move["from"]), str(move["to"]), str(move["tile"])
        if src == "wall" and dst.startswith("rack:"):
            _draw(k, int(dst[5:]), tile, h1)
        elif dst == "discard" and src.startswith("rack:") and h0 is not None and (
                h1.discards_total > h0.discards_total):
            pos = int(src[5:])
            k.moves.append({"type": "dahai", "pos": pos, "tile": tile,
                            "tsumogiri": _tsumogiri(k, pos, tile),
                            "riichi": pos in h1.rh.riichi and pos not in h0.rh.riichi})
    if h0 is not None:
        _melds(k, h0, h1)
    before = list(h0.rh.dora) if h0 is not None else []
    for tile in h1.rh.dora[len(before):]:
        k.dora.append(tile)
        if len(k.dora) > 1:
            k.moves.append({"type": "dora", "tile": tile})
    if "correct" in event and "reassign" in event["correct"] and h0 is not None:
        _reassigned(k, h0, h1)


def _draw(k: Kyoku, pos: int, tile: str, h1: Hand) -> None:
    seat = h1.seat(pos)
    if seat.last_source == "dealt" and len(k.haipai[pos]) < 13:
        k.haipai[pos].append(tile)
        return
    k.moves.append({"type": "tsumo", "pos": pos, "tile": tile,
                    "rinshan": seat.last_source == "replacement"})


def _tsumogiri(k: Kyoku, pos: int, tile: str) -> bool:
    """The discard is the tile the seat just drew (a physical table cannot tell two copies
    apart: the same kind as the draw counts as the drawn tile)."""
    for m in reversed(k.moves):
        if m.get("pos") == pos:
            return m["type"] == "tsumo" and m["tile"] == tile
    return False


def _melds(k: Kyoku, h0: Hand, h1: Hand) -> None:
    for pos in POSITIONS:
        old, new = h0.seat(pos).melds, h1.seat(pos).melds
        if old == new:
            continue
        for i, m in enumerate(new):
            if i < len(old) and old[i] == m:
                continue
            if i < len(old):  # a claimed pung that became a kong with the own fourth tile
                added = Counter(m.tiles) - Counter(old[i].tiles)
                tile = next(iter(added.elements()), m.tiles[0])
                fresh = k.moves[-1] if k.moves else {}
                if fresh.get("type") == "pon" and fresh.get("pos") == pos:
                    # the fourth tile laid on the pung just claimed: the claim was a kong
                    fresh.update(type="daiminkan", consumed=[*fresh["consumed"], tile])
                    continue
                k.moves.append({"type": "kakan", "pos": pos, "tile": tile,
                                "consumed": list(old[i].tiles)})
            elif m.concealed:
                k.moves.append({"type": "ankan", "pos": pos, "consumed": list(m.tiles)})
            else:
                k.moves.append(_call(k, pos, m))


def _call(k: Kyoku, pos: int, m: Any) -> dict[str, Any]:
    """A claimed chow, pung or kong: the called tile is the newest discard."""
    discard = next(d for d in reversed(k.moves) if d["type"] == "dahai")
    consumed = list(m.tiles)
    consumed.remove(discard["tile"])
    kind = {"chow": "chi", "pung": "pon", "kong": "daiminkan"}[m.kind]
    target = m.claimed_from if m.claimed_from is not None else discard["pos"]
    return {"type": kind, "pos": pos, "target": int(target), "tile": discard["tile"],
            "consumed": consumed}


def _reassigned(k: Kyoku, h0: Hand, h1: Hand) -> None:
    """A misread tile set right: the seat held the corrected tile from its draw on."""
    for pos in POSITIONS:
        gone = Counter(h0.seat(pos).rack) - Counter(h1.seat(pos).rack)
        came = Counter(h1.seat(pos).rack) - Counter(h0.seat(pos).rack)
        for old, new in zip(gone.elements(), came.elements(), strict=False):
            _rewrite(k, pos, old, new)


def _rewrite(k: Kyoku, pos: int, old: str, new: str) -> None:
    for m in reversed(k.moves):
        if m.get("pos") == pos and m["type"] == "tsumo" and m["tile"] == old:
            m["tile"] = new
            return
    if old in k.haipai[pos]:
        k.haipai[pos][k.haipai[pos].index(old)] = new


def _finish(k: Kyoku, hand: Hand, info: dict[str, Any]) -> None:
    """The end: each winner's deltas (what the formats call them: the riichi deposits paid
    during the hand are not in them), or the draw's."""
    result = hand.result
    assert result is not None
    k.ura = list(hand.rh.ura)
    if result.result != "mahjong":
        deltas = dict(zip(POSITIONS, log_deltas(result.net, info), strict=True))
        k.end = {"type": "ryukyoku", "kind": info.get("abortive") or result.result,
                 "deltas": deltas,
                 "tenpai": list(info.get("tenpai") or [])}
        return
    wins = []
    for pos, inp in hand.rh.wins:
        deltas = dict.fromkeys(POSITIONS, 0)
        for payer, to, amount in result.payments:
            if to == pos:
                deltas[to] += amount
                if payer:
                    deltas[payer] -= amount
        detail = result.details.get(str(pos)) or {}
        target = pos if inp.win_source in ("wall", "replacement", "dealt") else (
            result.discarder if result.discarder is not None else pos)
        pao = detail.get("pao")
        liable = next((p for p in POSITIONS if hand.wind_of(p) == pao), None)
        wins.append({"pos": pos, "target": int(target), "deltas": deltas,
                     "score": detail.get("score") or {}, "pao": liable,
                     "wind": detail.get("wind"), "source": inp.win_source,
                     "winning_tile": inp.winning_tile})
    k.end = {"type": "hora", "wins": wins}
