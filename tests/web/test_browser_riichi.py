"""The riichi pages in headless Chromium at 1920x1080 and 390x844 (issue 23, "What people see"):
a whole hanchan played by the riichi bots through the service while the board and the four seat
pages follow it. At each moment the pages are checked against what the test knows by itself:
the indicators and the riichi discard from the events it posted, the points from 30,000 and the
recorded nets (RULES.md 11), tenpai at a draw from PyPI `mahjong`'s shanten, the final
table's places and results from the uma of the rule book (+15/+5/-5/-15)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from controller.app import System, build
from controller.config import Config, SessionConfig
from controller.players.director import Director
from tests.browser import ARTIFACTS, SIZES, launched, open_page
from tests.web.support import memory_dir, served

pytestmark = pytest.mark.browser
START, UMA = 30000, (15, 5, -5, -15)  # RULES.md 11: the start points, the uma by place
SHOTS = Path(os.environ.get("SCREENSHOTS_DIR") or ARTIFACTS)  # scripts/screenshots sets it
SEED = 3  # a hanchan with riichi, furiten, no-yaku waits, limit hands and exhaustive draws
Check = Callable[[dict[str, Any]], bool]


class Game:
    """The riichi bots' events posted to the running service one at a time (each waited for);
    what the test saw go public: the dora pad and each seat's discard after its READY."""

    def __init__(self, system: System) -> None:
        self.loop = system.loop
        self.director = Director("riichi", hands=60, seed=SEED)
        self.dora: list[str] = []  # this hand's indicators, as laid
        self.riichi_tile: dict[int, str] = {}  # this hand's riichi discards, as made
        self._ready: set[int] = set()
        self.number: int | None = None
        # checks waiting for their moment: (when, check); run once, then dropped
        self.pending: list[tuple[Check, Callable[[dict[str, Any]], None]]] = []

    def view(self) -> dict[str, Any]:
        return self.loop.public_view()

    def step(self, pressed: int | None = None) -> bool:
        """The bots' next event; ``pressed``: that seat's READY came from its page, so the
        bot's own is not posted again (the bot's riichi discard follows as it would)."""
        event = self.director.next_action(self.loop.state)
        while event is not None and ("session" in event or pressed is not None and event.get(
                "declare") == {"seat": pressed, "call": "ready"}):
            if pressed is not None and "declare" in event:
                self._ready.add(pressed)
            event = self.director.next_action(self.loop.state)
        if event is None:
            return False
        self._note(event)
        self.submit(event)
        return True

    def submit(self, event: dict[str, Any]) -> None:
        """Post and wait until it is applied (from a thread of its own: Playwright's sync API
        keeps an event loop in this one)."""
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, self.loop.submit(event, "simulation")).result()

    def _note(self, event: dict[str, Any]) -> None:
        number = (self.view().get("hand") or {}).get("number")
        if number != self.number:
            self.number, self.dora, self.riichi_tile, self._ready = number, [], {}, set()
        declare, move = event.get("declare") or {}, event.get("move") or {}
        if declare.get("call") == "ready":
            self._ready.add(int(declare["seat"]))
        if move.get("to") == "dora" and (self.view().get("hand") or {}).get("phase") != "over":
            self.dora.append(move["tile"])
        if move.get("to") == "discard" and move.get("from", "").startswith("rack:"):
            seat = int(move["from"].split(":")[1])
            if seat in self._ready and seat not in self.riichi_tile:
                self.riichi_tile[seat] = move["tile"]

    def until(self, done: Check, limit: int = 8000) -> dict[str, Any]:
        for _ in range(limit):
            view = self.view()
            for item in [x for x in self.pending if x[0](view)]:
                self.pending.remove(item)
                item[1](view)
            if done(view):
                return view
            assert self.step(), "the bots stopped before it happened"
        raise AssertionError("the hanchan did not get there")


@pytest.fixture
def riichi(tmp_path: Path) -> Iterator[tuple[System, str]]:
    """The service, its SQLite log in memory (``memory_dir``): the hanchan's 3,139 events,
    each synced to disk, took a third of the test; what the pages show is the subject here."""
    with memory_dir(tmp_path, "riichi-board-") as data:
        system = build(Config(session=SessionConfig(ruleset="riichi")), data / "data")
        with served(system.app) as base:
            yield system, base


@pytest.fixture
def chromium() -> Iterator[Any]:
    with launched() as browser:
        yield browser


def _page(browser: Any, size: str, url: str, errors: list[str]) -> Any:
    page = open_page(browser, size, errors, label=size, has_touch=size == "phone")
    page.goto(url)
    return page


class Seats:
    """The seat pages: seat 1's phone page is open the whole hanchan (what its player sees as
    it goes); another seat's page (``seats[p]``), or seat 1's at the TV's size (``tv``), is
    opened at the moment a check needs it and closed after it (``close``), as a player opens
    the link mid-hanchan: seven pages rendering each of the 3,139 events took three times the
    CPU of the three that follow it now, on a two-core CI host."""

    def __init__(self, browser: Any, system: System, base: str, errors: list[str]) -> None:
        self.browser, self.system, self.base, self.errors = browser, system, base, errors
        self.live = {1: self._open(1, "phone")}
        self.opened: list[Any] = []

    def _open(self, p: int, size: str) -> Any:
        token = self.system.tokens.seats[p]
        return _page(self.browser, size, f"{self.base}/seat/{p}#token={token}", self.errors)

    def __getitem__(self, p: int) -> Any:
        if p in self.live:
            return self.live[p]
        page = self._open(p, "phone")
        self.opened.append(page)
        self.live[p] = page
        return page

    def tv(self) -> Any:
        page = self._open(1, "tv")
        self.opened.append(page)
        return page

    def close(self) -> None:
        for page in self.opened:
            page.close()
        self.opened.clear()
        self.live = {1: self.live[1]}


def _shows(page: Any, script: str, arg: Any = None) -> Any:
    return page.wait_for_function(script, arg=arg, timeout=60000, polling=50).json_value()


def _caught_up(game: Game, page: Any, p: int) -> None:
    """Waits until seat ``p``'s page shows this moment: its hand and rack as the service's seat
    view has them (before a look for something that must not be there)."""
    view = game.loop.seat_view(p)
    _shows(page, """([n, rack]) => document.querySelector('#handinfo').textContent.includes(
      'Hand ' + n) && JSON.stringify([...document.querySelectorAll('#hand .tile')].map(
      t => t.dataset.tile).sort()) === JSON.stringify(rack) || null""",
           [view["table"]["hand"]["number"], sorted(view["hand"])])


def _thousands(n: int) -> str:
    return f"{n:,}"


def _seat_in_riichi_with_river(view: dict[str, Any]) -> bool:
    r, hand = view["riichi"], view.get("hand") or {}
    return hand.get("phase") == "play" and any(
        v is not None for v in (r.get("riichi_river") or {}).values())


def check_board_in_play(game: Game, boards: dict[str, Any]) -> None:
    view = game.until(_seat_in_riichi_with_river)
    hand, r = view["hand"], view["riichi"]
    nets = [sum(rec["net"][str(p)] for rec in view["hands"]) for p in (1, 2, 3, 4)]
    points = {p: START + nets[p - 1] - 1000 * (p in r["riichi"]) for p in (1, 2, 3, 4)}
    sticks = 1000 * (r["riichi_sticks"] - len(r["riichi"]))  # the ones carried over
    assert sum(points.values()) + 1000 * len(r["riichi"]) + sticks == 4 * START
    for size, page in boards.items():
        state = _shows(page, """(n) => document.querySelector('#handinfo').textContent.includes(
          'Hand ' + n) && document.querySelector('.tile.sideways') ? {
          dora: [...document.querySelectorAll('#centre .dora-tiles .tile')]
            .map(t => t.dataset.tile),
          honba: document.querySelector('.counter.honba b').textContent,
          sticks: document.querySelector('.counter.sticks b').textContent,
          wall: document.querySelector('.wall-n').textContent,
          turn: [1, 2, 3, 4].filter(p => document.querySelector('#seat' + p + ' .flag.turn')),
          points: [1, 2, 3, 4].map(p => document.querySelector('#seat' + p + ' .points')
            .textContent),
          riichi: [1, 2, 3, 4].filter(p => document.querySelector('#seat' + p + ' .flag.riichi')),
          sideways: [1, 2, 3, 4].map(p => [...document.querySelectorAll('#seat' + p
            + ' .river .tile.sideways')].map(t => t.dataset.tile)),
        } : null""", hand["number"])
        assert state["dora"] == game.dora and game.dora, (size, state)
        assert state["honba"] == str(r["honba"]) and state["sticks"] == str(r["riichi_sticks"])
        assert state["wall"] == str(hand["live_wall"]), size
        assert state["turn"] == [hand["turn"]], size
        assert state["points"] == [_thousands(points[p]) for p in (1, 2, 3, 4)], size
        assert state["riichi"] == sorted(r["riichi"]), size
        for p in (1, 2, 3, 4):  # the riichi discard lies sideways, and nothing else
            placed = r["riichi_river"].get(str(p)) is not None
            assert state["sideways"][p - 1] == ([game.riichi_tile[p]] if placed else []), (size, p)
        page.screenshot(path=str(SHOTS / f"riichi-board-{size}.png"))
    # on the phone a tap on a seat's points shows the difference to each other seat
    phone = boards["phone"]
    phone.tap("#seat1 .points")
    diffs = _shows(phone, """() => { const d = document.querySelectorAll('#seat1 .diff');
      return d.length ? [...d].map(x => x.textContent) : null; }""")
    expected = []
    for q in (2, 3, 4):
        d = points[q] - points[1]
        word = "ahead" if d > 0 else "behind"
        expected.append("level" if d == 0 else f"{_thousands(abs(d))} {word}")
    assert [x.split(": ", 1)[1] for x in diffs] == expected, diffs
    phone.tap("#seat1 .points")
    _shows(phone, "() => !document.querySelector('#seat1 .diff')")


def _first_seat(game: Game, key: str) -> int:
    """Plays on to the first moment in play at which a seat's own riichi view has ``key``
    (furiten, no_yaku, can_riichi); that seat."""
    found: list[int] = []

    def seen(view: dict[str, Any]) -> bool:
        if (view.get("hand") or {}).get("phase") == "play":
            found[:] = [p for p in (1, 2, 3, 4) if game.loop.seat_view(p)["riichi"][key]][:1]
        return bool(found)

    game.until(seen)
    return found[0]


def check_seat_furiten(game: Game, seats: Seats) -> None:
    """A furiten seat is told so; a wait that wins on the pad without a yaku is warned of (each
    at its first moment: a wait lying on the pad is not yet passed, so the two seldom meet)."""
    for key, css in (("furiten", "furiten"), ("no_yaku", "no-yaku")):
        p = _first_seat(game, key)
        own = game.loop.seat_view(p)["riichi"]
        note = _shows(seats[p], f"""() => {{
          const n = document.querySelector('#riichi-notes .{css}');
          return n ? {{ text: n.textContent,
            tiles: [...n.querySelectorAll('.tile')].map(t => t.dataset.tile) }} : null; }}""")
        if key == "furiten":
            assert note["text"].startswith("Furiten"), note
        else:
            assert note["tiles"] == own["no_yaku"], note
        others = [q for q in (1, 2, 3, 4) if q != p and not game.loop.seat_view(q)["riichi"][key]]
        for q in others:
            _caught_up(game, seats[q], q)
            assert seats[q].locator(f"#riichi-notes .{css}").count() == 0, q
        seats.close()


def check_seat_can_riichi(game: Game, seats: Seats) -> None:
    p = _first_seat(game, "can_riichi")
    own = game.loop.seat_view(p)["riichi"]
    pages = [seats[p]] + ([seats.tv()] if p == 1 else [])
    for page in pages:
        shown = _shows(page, """() => {
          const n = document.querySelector('#riichi-notes .can-riichi');
          const b = document.querySelector('#ready');
          return n && !b.disabled ? { b: b.textContent,
            tiles: [...n.querySelectorAll('.tile')].map(t => t.dataset.tile) } : null; }""")
        assert shown == {"b": "Riichi", "tiles": own["riichi_discards"]}, shown
    for q in (1, 2, 3, 4):
        if q != p:
            _caught_up(game, seats[q], q)
            assert seats[q].locator("#ready").is_disabled(), q
    # the seat presses Riichi itself: the declaration is taken, the button says so
    seats[p].click("#ready")
    _shows(seats[p], "() => document.querySelector('#ready').textContent === 'Riichi ✓'")
    assert game.loop.seat_view(p)["riichi"]["declared"]
    assert game.step(pressed=p)
    assert game.view()["riichi"]["riichi_discard"].get(str(p)) is not None, "no riichi discard"
    seats.close()


def _over(kind: str, limit: bool = False) -> Check:
    def done(view: dict[str, Any]) -> bool:
        hand = view.get("hand") or {}
        result = hand.get("result") or {}
        if hand.get("phase") != "over" or result.get("result") != kind or view["riichi"]["ura_due"]:
            return False
        scores = [d.get("score") or {} for k, d in result["details"].items() if k != "riichi"]
        return not limit or any(s.get("limit_hand") for s in scores)
    return done


def check_win(view: dict[str, Any], boards: dict[str, Any], seats: Seats,
              limit: bool) -> None:
    result = view["hand"]["result"]
    winners = result["details"]["riichi"]["winners"]
    for size, page in boards.items():
        for w in winners:
            score = result["details"][str(w)]["score"]
            # waits until the page has caught up with this result (the ura laid, ...)
            names = [it["name"] for it in score["items"]]
            shown = _shows(page, """([w, names]) => { const s = document.querySelector(
              '#result .res-seat.winner[data-seat="' + w + '"]');
              const got = s ? [...s.querySelectorAll('.item-name')].map(x => x.textContent) : [];
              return JSON.stringify(got) === JSON.stringify(names) ? { names: got,
                han: [...s.querySelectorAll('.item-val')].map(x => x.textContent),
                formula: s.querySelector('.formula').textContent } : null; }""", [w, names])
            hans = [int(x.split()[0]) for x in shown["han"]]
            assert sum(hans) == score["doubles"], (size, shown)  # the han are the yaku's sum
            assert shown["formula"].startswith(f"{score['doubles']} han {score['points']} fu")
            assert shown["formula"].endswith(f"= {_thousands(score['score'])}")
            assert not score["limit_hand"] or score["limit_hand"] in shown["formula"]
        pays = page.locator("#result .payments li").all_inner_texts()
        assert len(pays) == len(result["payments"]) > 0, pays
        for line, pay in zip(pays, result["payments"], strict=True):
            assert _thousands(pay["amount"]) in line, (line, pay)
        title = page.inner_text("#result h2")
        assert title.startswith("Ron" if result["win_source"] == "discard" else "Tsumo"), title
        if limit:
            page.screenshot(path=str(SHOTS / f"riichi-result-{size}.png"))
    won = _shows(seats[winners[0]], """() => {
      const n = document.querySelector('#notice .riichi-over');
      return n ? n.textContent : null; }""")
    assert won.startswith("You won!") and " han " in won and "This hand:" in won, won
    seats.close()


def _tenpai_by_shanten(game: Game, p: int) -> bool:
    from mahjong.shanten import Shanten
    from mahjong.tile import TilesConverter

    rack = game.loop.seat_view(p)["hand"]
    by = {"c": "", "b": "", "d": "", "z": ""}
    honours = {"ew": 1, "sw": 2, "ww": 3, "nw": 4, "wd": 5, "gd": 6, "rd": 7}
    for t in rack:
        if t in honours:
            by["z"] += str(honours[t])
        else:
            by[{"c": "c", "b": "b", "d": "d"}[t[1]]] += t[0]
    # RULES.md tile codes: b bamboo (sou), c characters (man), d dots (pin)
    counts = TilesConverter.string_to_34_array(man=by["c"], pin=by["d"], sou=by["b"],
                                               honors=by["z"])
    return bool(Shanten().calculate_shanten(counts) == 0)


def check_draw(game: Game, view: dict[str, Any], boards: dict[str, Any],
               seats: Seats) -> None:
    words = {p: "tenpai" if _tenpai_by_shanten(game, p) else "noten" for p in (1, 2, 3, 4)}
    for size, page in boards.items():
        shown = _shows(page, """() => { const r = document.querySelector('#result .riichi-result');
          return r && r.querySelector('h2').textContent === 'Exhaustive draw' ? {
          words: [1, 2, 3, 4].map(p => r.querySelector('.res-seat[data-seat="' + p + '"] .flag')
            .textContent),
          board: [1, 2, 3, 4].map(p => document.querySelector(
            '#seat' + p + ' .flag.tenpai, #seat' + p + ' .flag.noten').textContent),
          faces: r.querySelectorAll('.res-seat .tile:not(.back)').length,
          racks: document.querySelectorAll('#board .row.concealed .tile:not(.back)').length }
          : null; }""")
        assert shown["words"] == [words[p] for p in (1, 2, 3, 4)], (size, shown, words)
        assert shown["board"] == shown["words"], size
        assert shown["faces"] == 0 and shown["racks"] == 0, (size, shown)  # no tile of a hand
    for p in (1, 2, 3, 4):
        mine = _shows(seats[p], """() => { const n = document.querySelector('#notice .my-tenpai');
          return n ? n.textContent : null; }""")
        assert mine == f"You were {words[p]}.", (p, mine)
    seats.close()
    assert view["hand"]["result"]["result"] == "washout"


def check_history_names(game: Game, page: Any) -> None:
    """The board's history after the hanchan: newest first, counting down as played, each hand
    named as players name it: its round and dealer (East 1 to 4, then South 1 to 4: position 1
    deals first in each round) and its honba when there are some."""
    records = game.view()["hands"]
    want = []
    for r in records:
        words = [f"Hand {r['number']}", f"{r['prevailing_wind'].capitalize()} {r['dealer']}"]
        want.append(words + ([f"{r['honba']} honba"] if r["honba"] else []))
    got = _shows(page, """(n) => { const ol = document.querySelector('#history ol.history');
      return ol && ol.reversed && ol.children.length === n ? [...ol.children].map(
        li => li.querySelector('button').textContent) : null; }""", len(records))
    assert [x.split(" · ")[:len(w)] for x, w in zip(got, want[::-1], strict=True)] == want[::-1]
    assert any(r["honba"] for r in records) and records[-1]["prevailing_wind"] == "south"


def check_final(game: Game, boards: dict[str, Any], seats: Seats) -> None:
    game.until(lambda v: bool(v["riichi"]["final"]))
    for size, page in boards.items():
        rows = _shows(page, """() => {
          const t = document.querySelectorAll('#result .final-table tbody tr');
          return t.length === 4 ? [...t].map(r => [...r.children].map(c => c.textContent))
            : null; }""")
        points = [int(r[2].replace(",", "")) for r in rows]
        assert sum(points) == 4 * START, rows  # the deposits left went to first place
        assert points == sorted(points, reverse=True), rows
        for i, row in enumerate(rows):
            tied = [j for j, x in enumerate(points) if x == points[i]]
            uma = sum(UMA[j] for j in tied) / len(tied)
            assert row[0] == f"{min(tied) + 1}." and float(row[3]) == uma, row
            penalty = float(row[4] or 0)
            assert float(row[5]) == pytest.approx((points[i] - START) / 1000 + uma + penalty), row
        # the final table lies over the board on the TV: nothing of the seats shows through
        layers = ["#result .final"] + (["#result"] if size == "tv" else [])
        see_through = page.evaluate("""(layers) => layers.filter(q => {
            const c = getComputedStyle(document.querySelector(q)).backgroundColor;
            return c === 'transparent' || c.replace(/\\s/g, '') === 'rgba(0,0,0,0)'; })""", layers)
        assert see_through == [], (size, see_through)
        page.screenshot(path=str(SHOTS / f"riichi-final-{size}.png"))
    check_history_names(game, boards["tv"])
    mine = _shows(seats[1], """() => { const n = document.querySelector('#notice .my-final');
      return n ? n.textContent : null; }""")
    assert "Place " in mine and "result" in mine, mine


def test_a_riichi_hanchan_on_the_board_and_the_seats(riichi: tuple[System, str],
                                                     chromium: Any) -> None:
    system, base = riichi
    SHOTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    game = Game(system)
    boards = {size: _page(chromium, size, f"{base}/", errors) for size in SIZES}
    seats = Seats(chromium, system, base, errors)
    checks = [
        (_over("mahjong"), lambda v: check_win(v, boards, seats, limit=False)),
        (_over("mahjong", limit=True), lambda v: check_win(v, boards, seats, limit=True)),
        (_over("washout"), lambda v: check_draw(game, v, boards, seats)),
    ]
    game.pending = list(checks)  # each checked at its first moment, among the others
    check_board_in_play(game, boards)
    check_seat_furiten(game, seats)
    # the seat's own Riichi press comes last: it may change the course of the hanchan
    game.until(lambda v: not game.pending)
    check_seat_can_riichi(game, seats)
    check_final(game, boards, seats)
    missing = [name for name, (when, _) in zip(("win", "limit", "draw"), checks, strict=True)
               if any(when is x[0] for x in game.pending)]
    assert missing == [], f"the hanchan had no {missing}"
    assert errors == []
