"""Privacy over a whole simulated session: while a hand is in play, nothing public (HTTP or
WebSocket) reveals a concealed tile, and a seat's socket reveals only that seat's hand.

A tile code such as "5b" also appears publicly (discards, exposed sets), so the test does not
search for codes. It checks that (1) tile codes appear only in the fields that show public
tiles, (2) those tiles are explained by the public moves of the hand so far (what the players
saw go to the discard pad, a meld strip or the river), and (3) no list anywhere equals a
seat's concealed multiset.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from controller.tiles import ALL_CODES
from tests.web.support import Table, hand_over, in_play

CODES = frozenset(ALL_CODES)
PUBLIC_ZONES = ("discard", "river", "melds:", "dora")  # riichi's dora pad lies face up
# Where a public view may carry tile codes while a hand is in play.
PUBLIC_TILE_FIELDS = ("melds", "forming", "bonus", "river", "discard", "out_of_place",
                      "dora_indicators")
INDICATORS = ("dora_indicators", "ura_dora_indicators")


def _tiles_at(node: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    """Every tile code in a JSON value, with the path of keys that leads to it."""
    if isinstance(node, dict):
        return [hit for k, v in node.items() for hit in _tiles_at(v, path + (str(k),))]
    if isinstance(node, list):
        return [hit for v in node for hit in _tiles_at(v, path)]
    if isinstance(node, str) and node in CODES:
        return [(path, node)]
    return []


def _lists(node: Any) -> list[list[Any]]:
    if isinstance(node, dict):
        return [x for v in node.values() for x in _lists(v)]
    if isinstance(node, list):
        return [node] + [x for v in node for x in _lists(v)]
    return []


def _is_public_move(event: dict[str, Any]) -> bool:
    move = event.get("move")
    if not isinstance(move, dict):
        return False
    return any(str(move.get(end, "")).startswith(PUBLIC_ZONES) for end in ("from", "to"))


class Watcher:
    """Follows the hand: the tiles the players saw, and every seat's concealed tiles."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.seen: Counter[str] = Counter()
        self.number: int | None = None
        self.checked = 0
        self._racks: dict[int, list[str]] = {}

    def note(self, event: dict[str, Any] | None, view: dict[str, Any]) -> None:
        hand = view.get("hand") or {}
        if hand.get("number") != self.number:
            self.number, self.seen = hand.get("number"), Counter()
        if event is not None and _is_public_move(event):
            self.seen[event["move"]["tile"]] += 1
        self._racks = {p: self.table.loop.seat_view(p)["hand"] for p in (1, 2, 3, 4)}

    def racks(self) -> dict[int, list[str]]:
        return self._racks

    def check_public(self, view: dict[str, Any], where: str) -> None:
        hand = view.get("hand")
        if not hand or hand.get("phase") == "over":
            return
        assert hand.get("result") is None, where
        shown: Counter[str] = Counter()
        for path, code in _tiles_at(view):
            if path[:1] == ("hands",) and path[-1] in INDICATORS:
                continue  # riichi: an earlier hand's indicators, laid face up then
            assert path[:1] == ("hand",) or path[:2] == ("riichi", "dora_indicators"), \
                (where, path)
            assert any(field in path for field in PUBLIC_TILE_FIELDS), (where, path, code)
            shown[code] += 1
        # Every tile shown went through a public zone in this hand (a tile may be shown in two
        # places at most: claimed from the pad and forming a set in the same view).
        assert not (shown - self.seen - self.seen), (where, shown - self.seen)
        self.check_no_rack(view, exclude=None, where=where)
        self.check_messages(hand, where)
        self.checked += 1

    def check_messages(self, hand: dict[str, Any], where: str) -> None:
        """Free text (a violation's message) names no tile that only a rack holds."""
        violation = hand.get("last_violation") or {}
        words = set(re.findall(r"\b[0-9a-z]{2}\b", str(violation.get("message") or "")))
        in_racks = {t for rack in self.racks().values() for t in rack}
        hidden = (words & CODES & in_racks) - set(self.seen)
        assert not hidden, (where, violation)

    def check_no_rack(self, node: Any, exclude: int | None, where: str,
                      winners: frozenset[int] = frozenset()) -> None:
        for position, rack in self.racks().items():
            if position == exclude or position in winners or len(rack) < 3:
                continue
            wanted = Counter(rack)
            for values in _lists(node):
                assert Counter(v for v in values if isinstance(v, str)) != wanted or \
                    len(values) != len(rack), (where, position)


def test_no_concealed_tile_is_public_while_in_play(memory_data: Path, make_table: Any) -> None:
    table = make_table(data_dir=memory_data)  # 3,000 events' log in memory (CI wall time)
    watcher = Watcher(table)
    hands_to_play = 2
    with table.client.websocket_connect("/ws") as public, \
            table.client.websocket_connect("/ws/seats/1") as seat1:
        seat1.send_json({"token": table.tokens.seats[1]})
        public.receive_json()
        seat1.receive_json()
        for _ in range(3000):
            event = table.step()
            if event is None:
                break
            view = table.loop.public_view()
            watcher.note(event, view)
            pushed = public.receive_json()["table"]
            watcher.check_public(pushed, "ws /ws")
            own = seat1.receive_json()["seat"]
            assert own["hand"] == table.loop.seat_view(1)["hand"]
            watcher.check_public(own["table"], "ws /ws/seats/1 table")
            playing = (view.get("hand") or {}).get("phase") in ("deal", "play")
            if playing:
                others = {k: v for k, v in own.items() if k != "hand"}
                watcher.check_no_rack(others, 1, "seat 1's socket")
            if playing and watcher.checked % 7 == 0:
                for url in ("/api/table", "/api/hands", "/api/health", "/"):
                    res = table.client.get(url)
                    body = res.json() if url != "/" else {"page": res.text}
                    watcher.check_public(body if url == "/api/table" else {}, url)
                    watcher.check_no_rack(body, None, url)
                res = table.client.get("/api/seats/2", headers=table.seat(1))
                watcher.check_no_rack(res.json(), None, "seat 2 with seat 1's token")
            if len(view.get("hands") or []) >= hands_to_play and \
                    (view.get("hand") or {}).get("phase") == "over":
                break
    assert watcher.checked > 150
    assert len(table.loop.public_view()["hands"]) >= hands_to_play


def test_the_checks_catch_a_leak(table: Table) -> None:
    """The checks above can fail: a rack copied into a public field, or a drawn tile shown."""
    table.play_until(in_play)
    watcher = Watcher(table)
    view = table.loop.public_view()
    watcher.note(None, view)
    rack = watcher.racks()[2]
    leaked = {**view, "hand": {**view["hand"], "tiles_of_2": rack}}
    with pytest.raises(AssertionError):
        watcher.check_public(leaked, "leak")
    seat = dict(view["hand"]["seats"]["2"])
    seat["melds"] = [{"tiles": [rack[0]], "kind": "pung", "concealed": False}]
    unexplained = {**view, "hand": {**view["hand"], "seats": {**view["hand"]["seats"], "2": seat}}}
    with pytest.raises(AssertionError):
        watcher.check_public(unexplained, "never moved publicly")


def test_every_hand_is_shown_once_the_hand_is_over(table: Table) -> None:
    table.play_until(hand_over)
    racks = {p: sorted(table.loop.seat_view(p)["hand"]) for p in (1, 2, 3, 4)}
    result = table.client.get("/api/table").json()["hand"]["result"]
    for p in (1, 2, 3, 4):
        detail = result["details"][str(p)]
        assert sorted(detail["hand"]) == racks[p] or str(result.get("winner")) == str(p)
        assert "score" in detail


def check_riichi_over(view: dict[str, Any], watcher: Watcher, where: str) -> str | None:
    """A finished riichi hand: tile codes only in the winners' details and the indicators; a
    draw shows each seat only as "tenpai"/"noten" and no tile of any hand."""
    hand = view.get("hand") or {}
    if hand.get("phase") != "over" or not hand.get("result"):
        return None
    result = hand["result"]
    info = (result.get("details") or {}).get("riichi") or {}
    winners = {str(w) for w in info.get("winners", [])}
    for path, _code in _tiles_at(view):
        if path[:1] in (("riichi",), ("hands",)):
            assert path[-1] in INDICATORS, (where, path)
        elif path[:3] == ("hand", "result", "details"):
            assert path[3] in winners or path[3:5] == ("riichi", "dora_indicators") or \
                path[3:5] == ("riichi", "ura_dora_indicators"), (where, path)
        else:
            assert path[:1] == ("hand",) and any(f in path for f in PUBLIC_TILE_FIELDS), \
                (where, path)
    if result["result"] == "washout":
        assert set((view["riichi"].get("tenpai") or {}).values()) <= {"tenpai", "noten"}
        assert len(view["riichi"]["tenpai"]) == 4, where
        watcher.check_no_rack(view, exclude=None, where=where)
    return str(result["result"])


def test_no_concealed_tile_is_public_in_riichi(memory_data: Path, make_table: Any) -> None:
    """The same checks over riichi hands (indicators, deposits, riichi discards public), and
    after each hand: a win shows only the winners' hands; a draw only "tenpai"/"noten"."""
    table = make_table("riichi", seed=3, data_dir=memory_data)
    watcher = Watcher(table)
    ends: list[str] = []
    with table.client.websocket_connect("/ws") as public, \
            table.client.websocket_connect("/ws/seats/1") as seat1:
        seat1.send_json({"token": table.tokens.seats[1]})
        public.receive_json()
        seat1.receive_json()
        for _ in range(4000):
            event = table.step()
            if event is None:
                break
            view = table.loop.public_view()
            watcher.note(event, view)
            for pushed in (public.receive_json()["table"], seat1.receive_json()["seat"]["table"]):
                watcher.check_public(pushed, "riichi ws")
                end = check_riichi_over(pushed, watcher, "riichi ws")
            if end and (not ends or ends[-1] != f"{view['hand']['number']}{end}"):
                ends.append(f"{view['hand']['number']}{end}")
                body = table.client.get("/api/table").json()
                check_riichi_over(body, watcher, "/api/table")
                won = frozenset(int(w) for w in
                                ((body["hand"]["result"]["details"].get("riichi") or {})
                                 .get("winners") or []))
                watcher.check_no_rack(table.client.get("/api/hands").json(), None, "/api/hands",
                                      won)
                watcher.check_no_rack(body, None, "/api/table", won)
            if any(e.endswith("washout") for e in ends) and len(ends) >= 4:
                break
    assert watcher.checked > 150
    assert any(e.endswith("washout") for e in ends) and any(e.endswith("mahjong") for e in ends)


def test_the_riichi_checks_catch_a_leak(make_table: Any) -> None:
    """A draw that showed a tenpai hand, or a loser's tiles after a win, is caught."""
    table = make_table("riichi", seed=3)
    view = table.play_until(lambda v: (v.get("hand") or {}).get("phase") == "over")
    watcher = Watcher(table)
    watcher.note(None, view)
    hand = view["hand"]
    loser = next(p for p in "1234" if p not in {str(w) for w in
                                                hand["result"]["details"]["riichi"]["winners"]})
    rack = watcher.racks()[int(loser)]
    details = {**hand["result"]["details"], loser: {"hand": rack}}
    leaked = {**view, "hand": {**hand, "result": {**hand["result"], "details": details}}}
    with pytest.raises(AssertionError):
        check_riichi_over(leaked, watcher, "a loser's tiles")
    drawn = {**hand["result"], "result": "washout", "details": {
        **hand["result"]["details"], "riichi": {**hand["result"]["details"]["riichi"],
                                                "winners": []}}}
    shown = {**view, "riichi": {**view["riichi"], "tenpai": {p: "tenpai" for p in "1234"}},
             "hand": {**hand, "result": drawn}}
    with pytest.raises(AssertionError):
        check_riichi_over(shown, watcher, "a draw that shows a hand")
