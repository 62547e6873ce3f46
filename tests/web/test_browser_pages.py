"""The pages as people use them, in headless Chromium (Playwright): the TV mode at 1920 x 1080
with its tile sizes measured in the page, the result kept until the next hand's first discard,
the history's winds, the seat links on loopback, the operator's login, and a seat correcting a
misread tile in its own rack."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import tiles
from controller.app import build
from controller.config import Config, SimulationConfig
from controller.loop import GameLoop
from controller.players.director import Director
from controller.store.tokens import Tokens
from tests.browser import ARTIFACTS, launched, open_page
from tests.web.support import served
from tests.web.test_browser import Server, _free_port

pytestmark = pytest.mark.browser
WINDS = ("east", "south", "west", "north")


class SimServer(Server):
    """The app with the in-process simulation playing ``hands`` hands at ``pace``, or with no
    source at all (``hands=0``: the test plays the table's events itself)."""

    def __init__(self, data_dir: Path, port: int, hands: int, pace: float) -> None:
        super().__init__(data_dir, port)
        self.hands, self.pace = hands, pace

    @property
    def loop(self) -> GameLoop:
        assert self.system is not None
        return self.system.loop

    @property
    def tokens(self) -> Tokens:
        assert self.system is not None
        return self.system.tokens

    def start(self) -> None:
        import threading

        import uvicorn

        sim = SimulationConfig(pace=self.pace, seed=7, hands=self.hands or None)
        self.system = build(Config(simulation=sim), self.data_dir,
                            table="simulation" if self.hands else None)
        srv = uvicorn.Server(uvicorn.Config(self.system.app, host="127.0.0.1", port=self.port,
                                            log_level="warning"))
        self._srv = srv
        self._thread = threading.Thread(target=srv.run, daemon=True)
        self._thread.start()
        deadline = time.time() + 20
        while not srv.started and time.time() < deadline:
            time.sleep(0.05)
        assert srv.started, "the service did not start"


def _serve(tmp_path: Path, hands: int, pace: float) -> Iterator[SimServer]:
    srv = SimServer(tmp_path / "data", _free_port(), hands, pace)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def playing(tmp_path: Path) -> Iterator[SimServer]:
    yield from _serve(tmp_path, hands=3, pace=0.02)


@pytest.fixture
def still(tmp_path: Path) -> Iterator[SimServer]:
    yield from _serve(tmp_path, hands=0, pace=0.0)


@pytest.fixture
def browser() -> Iterator[Any]:
    with launched() as chromium:
        yield chromium


DISCARD = """() => {
  const d = document.querySelector('.pad .tile.big');
  if (!d) return null;
  return { discard: d.getBoundingClientRect().height,
           marked: document.querySelectorAll('.tile.last').length };
}"""
BOARD = """() => {
  const melds = [...document.querySelectorAll('.seat .meld .tile')];
  const rivers = [...document.querySelectorAll('.seat .river-tiles .tile')];
  const wall = document.querySelector('.wall-n');  // not drawn while a hand's result shows
  if (!melds.length || !rivers.length || !wall) return null;
  const hi = (e) => e.getBoundingClientRect().height;
  return {
    meld: Math.min(...melds.map(hi)), river: Math.min(...rivers.map(hi)),
    board: document.querySelector('#board').getBoundingClientRect().width,
    wall: parseFloat(getComputedStyle(wall).fontSize),
  };
}"""


DEALING = """(after) => {
  const m = /Hand (\\d+) .*dealing/.exec(document.querySelector('#handinfo').textContent);
  if (!m || Number(m[1]) <= after) return null;
  return { hand: Number(m[1]),
           result: (document.querySelector('#result h2') || {}).textContent || '' };
}"""


@pytest.fixture
def playing_on(tmp_path: Path) -> Iterator[SimServer]:
    yield from _serve(tmp_path, hands=40, pace=0.02)  # more hands than the test will watch


def test_tv_mode_fills_a_1920_screen_readably(playing_on: SimServer, browser: Any) -> None:
    errors: list[str] = []
    page = open_page(browser, (1920, 1080), errors)
    page.goto(playing_on.base + "/")
    page.wait_for_selector("body.tv", timeout=15000)
    # The live page measured: a discard on the pad; a moment with sets on the strips.
    pad = page.wait_for_function(DISCARD, timeout=90000, polling=10).json_value()
    assert pad["discard"] >= 48 and pad["marked"] == 1, pad  # the last discard is marked
    sizes = page.wait_for_function(BOARD, timeout=90000, polling=50).json_value()
    page.screenshot(path=str(ARTIFACTS / "tv-1920x1080.png"))
    assert sizes["meld"] >= 48 and sizes["river"] >= 36, sizes
    assert sizes["board"] >= 1300, sizes  # the page fills the screen, not a 1200 px column
    assert sizes["wall"] >= 48, sizes
    # The result stays on screen while the next hand is dealt, until its first discard. The
    # hand watched is whichever comes next (on a busy machine the measuring above may take a
    # hand or two); each look reads the hand and the result in the same moment.
    now = int(re.match(r"Hand (\d+)", page.inner_text("#handinfo")).group(1))  # type: ignore[union-attr]
    dealt = page.wait_for_function(DEALING, arg=now, timeout=90000, polling=10).json_value()
    assert dealt["result"].startswith(f"Hand {dealt['hand'] - 1} · "), dealt
    seen = page.wait_for_function(
        "() => document.querySelector('.pad .tile.big') && {"
        " hand: document.querySelector('#handinfo').textContent,"
        " result: (document.querySelector('#result h2') || {}).textContent || null}",
        timeout=60000, polling=10).json_value()
    assert seen["hand"].startswith(f"Hand {dealt['hand']} · ") and seen["result"] is None, seen
    assert errors == []


def test_history_and_chart_after_several_hands(playing: SimServer, browser: Any) -> None:
    import json
    import urllib.request

    page = open_page(browser, (1280, 800))
    page.goto(playing.base + "/")
    page.wait_for_function("() => document.querySelectorAll('#history li').length >= 3",
                           timeout=180000)
    with urllib.request.urlopen(playing.base + "/api/hands", timeout=30) as res:  # noqa: S310 - loopback
        records = json.load(res)["hands"]
    assert len(records) >= 3
    for record in records:
        line = page.inner_text(f"#history li[data-hand='{record['number']}'] button")
        if record["result"] != "mahjong":
            continue
        # The hand's own winds: from its own record, not from the hand now in play.
        wind = record.get("winds", {}).get(str(record["winner"])) \
            or WINDS[(record["winner"] - record["dealer"]) % 4]
        assert f"Seat {record['winner']} · {wind} won" in line, (line, record["dealer"])
    heads = page.eval_on_selector_all(".stats thead th", "els => els.map(e => e.textContent)")
    assert heads[2] == "total" and "points" not in heads  # riichi's columns are riichi's only
    assert page.locator(".stats .r-pts, .stats .r-res").count() == 0
    ticks = page.eval_on_selector_all(".chart .hand-tick", "els => els.map(e => e.textContent)")
    assert ticks[:4] == ["0", "1", "2", "3"]
    paths = page.eval_on_selector_all(".chart path.line",
                                      "els => els.map(e => e.getAttribute('d'))")
    assert len(paths) == 4 and len(set(paths)) == 4  # no line lies exactly on another
    page.screenshot(path=str(ARTIFACTS / "history-1280x800.png"), full_page=True)


def test_operator_login_and_seat_links_on_loopback(still: SimServer, browser: Any) -> None:
    unauthorized: list[str] = []
    page = open_page(browser, (1280, 800))
    page.on("response", lambda r: unauthorized.append(r.url) if r.status == 401 else None)
    page.goto(still.base + "/operator")
    page.wait_for_selector("#login:not([hidden])")
    page.wait_for_timeout(3500)  # longer than one polling period: nothing is asked unasked
    assert unauthorized == []
    assert page.is_disabled("#undo-btn") and "Log in first" in page.inner_text("#undo-why")
    page.fill("#token-input", "not-the-token")
    page.click("#login-form button")
    page.wait_for_selector("#login-msg.bad")
    assert "Wrong token" in page.inner_text("#login-msg")
    assert page.evaluate("() => localStorage.getItem('admin-token')") is None
    page.fill("#token-input", still.tokens.admin)
    page.click("#login-form button")
    page.wait_for_selector(".qr .qr-url", timeout=15000)
    urls = page.eval_on_selector_all(".qr-url", "els => els.map(e => e.textContent)")
    assert len(urls) == 4 and all(re.match(r"http://127\.0\.0\.1:\d+/seat/[1-4]#token=", u)
                                  for u in urls)
    assert still.tokens.seats[1] not in page.content()
    warning = page.inner_text("#reach")
    assert "--host 0.0.0.0" in warning and "public_url" in warning
    page.screenshot(path=str(ARTIFACTS / "operator-1280x800.png"), full_page=True)
    # A new session asks first; declined, the running session goes on.
    asked: list[str] = []

    def decline(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", decline)
    session = still.loop.session_id
    page.click("#start")
    page.wait_for_timeout(500)
    assert asked and asked[0].startswith("Start a new hua-bao session?")
    assert "ends now" in asked[0]
    assert still.loop.session_id == session and still.loop.session_active


def _play_to_turn(service: GameLoop, seconds: float = 30) -> None:
    """Play the table's events from this thread until the hand is in play."""
    director = Director("hua-bao", hands=1, seed=4)
    deadline = time.time() + seconds
    while time.time() < deadline:
        hand = service.public_view().get("hand") or {}
        if hand.get("phase") == "play" and hand.get("step") == "draw":
            return
        event = director.next_action(service.state)
        if event is None or "session" in event:
            continue
        seq = service.seq
        service.post_threadsafe(event, "test")
        while service.seq == seq and time.time() < deadline:
            time.sleep(0.005)
    raise AssertionError("the hand did not get into play")


def test_a_seat_corrects_a_misread_tile_in_its_own_rack(still: SimServer, browser: Any) -> None:
    service, tokens = still.loop, still.tokens
    _play_to_turn(service)
    rack = service.seat_view(2)["hand"]
    read = next(t for t in rack if not tiles.is_bonus(t))
    real = next(c for c in tiles.KINDS if c not in rack
                and service.state.hand.out[tiles.ALL_CODES.index(c)] < 4)
    # Without the seat's link: no buttons, and the page says why.
    bare = open_page(browser, (390, 844))
    bare.goto(f"{still.base}/seat/2")
    bare.wait_for_selector("#notice .error")
    assert all(bare.is_disabled(f"#{b}") for b in ("claim", "ready", "mahjong"))
    assert "need the seat's link" in bare.inner_text("#why")
    bare.close()
    bare = open_page(browser, (390, 844))
    bare.goto(f"{still.base}/seat/2#token=wrong")
    bare.wait_for_function("() => /not the token of this seat/.test("
                           "document.querySelector('#notice').textContent)")
    assert bare.evaluate("() => localStorage.getItem('seat-token-2')") is None
    page = open_page(browser, (390, 844))
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{still.base}/seat/2#token={tokens.seats[2]}")
    page.wait_for_selector("#hand .tile", timeout=15000)
    page.click(f"#hand .tile[data-tile='{read}']")
    page.wait_for_selector("#fix:not([hidden]) .picker")
    page.click(f"#fix .pick[data-tile='{real}']")
    page.wait_for_selector("#flash.ok", timeout=10000)
    after = service.seat_view(2)["hand"]
    assert after.count(real) == 1 and after.count(read) == rack.count(read) - 1
    page.wait_for_selector(f"#hand .tile[data-tile='{real}']", timeout=10000)
    page.screenshot(path=str(ARTIFACTS / "seat-corrected-390x844.png"), full_page=True)
    # Messages clear by themselves (a few seconds), never staying for hands on end.
    page.wait_for_function("() => document.querySelector('#flash').textContent === ''",
                           timeout=10000)


@pytest.fixture
def slow_play(tmp_path: Path) -> Iterator[SimServer]:
    # hands enough that a loaded host's slow browser still finds a discard to correct before
    # the game ends (each try may lose the race to the next draw: the page then says so)
    yield from _serve(tmp_path, hands=8, pace=0.25)


def _seq(srv: SimServer) -> int:
    return int(srv.loop.seq)


_PRESS_REASSIGN = """() => {
  const button = document.querySelector('#reassign-btn');
  if (button.disabled) return document.querySelector('#reassign-why').textContent;
  const flash = document.querySelector('#reassign-flash');
  flash.className = 'flash'; flash.textContent = '';
  button.click();
  return null;
}"""


def test_operator_undoes_and_corrects_while_play_goes_on(slow_play: SimServer,
                                                          browser: Any) -> None:
    service, tokens = slow_play.loop, slow_play.tokens
    page = open_page(browser, (1280, 800))
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{slow_play.base}/operator#token={tokens.admin}")
    page.wait_for_selector("#events li.newest", timeout=30000)
    deadline = time.time() + 90  # play going on: the deal is done
    while (service.public_view().get("hand") or {}).get("phase") != "play":
        assert time.time() < deadline, "the hand did not get into play"
        time.sleep(0.05)
    # Undo 2: the preview lists exactly two steps, and the undo is done.
    page.fill("#undo-n", "2")
    page.wait_for_function("() => document.querySelectorAll('.takes-back li').length === 2")
    page.click("#undo-btn")
    page.wait_for_selector("#undo-flash.ok", timeout=10000)
    assert "Undo 2: done" in page.inner_text("#undo-flash")
    # the log holds one accepted undo of two steps (a loaded host's play may add any number of
    # steps meanwhile, so the depth says nothing: run 18 saw 112 after 105)
    with sqlite3.connect(slow_play.data_dir / "events.sqlite") as db:
        undos = [json.loads(e) for (e,) in db.execute(
            "SELECT event FROM events WHERE accepted = 1 AND event LIKE '%\"undo\"%'")]
    assert undos == [{"correct": {"undo": 2}}], undos
    # Over the maximum: refused on the page, visibly, and the button says why.
    page.fill("#undo-n", "500")
    page.wait_for_selector("#undo-btn:disabled")
    assert "can be taken back" in page.inner_text("#undo-why")
    # A misread discard, corrected from the pad (the discard may be drawn past meanwhile: the
    # page then says so in words, and the operator tries the next one).
    page.select_option("#re-zone", "discard")
    flash, before = "", _seq(slow_play)
    # Tries until one lands (40 tries were not enough at load 30-40: every discard drawn past
    # before the press); the deadline is a give-up, not a speed bound.
    tries_until = time.time() + 600
    while time.time() < tries_until:
        deadline = time.time() + 120
        while not (service.public_view().get("hand") or {}).get("discard"):
            assert time.time() < deadline, "no discard on the pad"
            time.sleep(0.01)
        read = service.public_view()["hand"]["discard"]["tile"]
        state_hand = service.state.hand
        real = next(c for c in tiles.KINDS
                    if c != read and state_hand.out[tiles.ALL_CODES.index(c)] < 4)
        page.click(f"#re-tile .pick[data-tile='{read}']")
        page.click(f"#re-as .pick[data-tile='{real}']")
        before = _seq(slow_play)
        # In one turn of the page: the button is pressed only when enabled (a discard drawn
        # meanwhile disables it, and the page says why), and the last answer is cleared first,
        # so the flash waited for is this press's.
        why = page.evaluate(_PRESS_REASSIGN)
        if why is not None:
            assert why.strip(), "a disabled button says why"
            flash = why
        else:
            page.wait_for_selector("#reassign-flash.ok, #reassign-flash.bad", timeout=10000)
            flash = page.inner_text("#reassign-flash")
            if "done" in flash:
                break
        page.wait_for_timeout(300)
    assert "done" in flash, flash
    # Play goes on after the corrections.
    deadline = time.time() + 120
    while _seq(slow_play) < before + 5 and time.time() < deadline:
        time.sleep(0.1)
    assert _seq(slow_play) >= before + 5
    page.screenshot(path=str(ARTIFACTS / "operator-corrections-1280x800.png"), full_page=True)


def test_operator_corrects_the_virtual_table_while_play_goes_on(tmp_path: Path,
                                                                 browser: Any) -> None:
    """`serve --simulate`'s virtual table, one tag enrolled wrong (a 6b read as a 5b): the
    players wait and say where; the operator corrects it on the page, takes a step back with
    the preview, and the players put back what is asked and play on."""
    from controller.config import SessionConfig
    from controller.sources.virtual import SimOptions, SimRun, virtual_table_source

    run = SimRun()
    options = SimOptions(seed=3, hand_pause=2.0, misread=("6b", "5b"))
    system = build(Config(session=SessionConfig(ruleset="hua-bao")), tmp_path / "data",
                   sources={"table": virtual_table_source(options, run)})
    loop = system.loop

    def until(check: Any, what: str, timeout: float = 90.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if result := check():
                return result
            time.sleep(0.05)
        raise AssertionError(f"not reached in {timeout} s: {what} (the players' complaint: "
                             f"{run.complaint}; health: {loop.public_view().get('health')})")

    with served(system.app) as base:
        page = open_page(browser, (1280, 800))
        page.goto(f"{base}/operator#token={system.tokens.admin}")
        complaint = until(lambda: run.complaint if run.complaint and "is" in run.complaint
                          else None, "a player noticing the misread tile")
        page.wait_for_function("() => /the players wait/.test("
                               "document.querySelector('#health').textContent)", timeout=15000)
        # The misread lies in a rack: its player corrects it on the seat page.
        position = int(complaint["zone"].split(":")[1])
        seat = open_page(browser, (390, 844))
        seat.on("dialog", lambda d: d.accept())
        seat.goto(f"{base}/seat/{position}#token={system.tokens.seats[position]}")
        seat.click("#hand .tile[data-tile='5b']", timeout=15000)
        seat.click("#fix .pick[data-tile='6b']")
        seat.wait_for_selector("#flash.ok, #flash.bad", timeout=10000)
        assert "Corrected" in seat.inner_text("#flash"), seat.inner_text("#flash")
        seat.screenshot(path=str(ARTIFACTS / "seat-virtual-table.png"), full_page=True)
        # Play has gone on by two steps since the correction (itself a step of the log: an
        # undo at once would take the correction back, and the players would wait for it again).
        fixed = loop.seq
        until(lambda: run.complaint is None and loop.seq >= fixed + 2, "play after the fix")
        # One step back, with its preview; the players put back what is asked, play goes on.
        page.fill("#undo-n", "1")
        page.wait_for_function("() => document.querySelectorAll('.takes-back li').length === 1")
        page.click("#undo-btn")
        page.wait_for_selector("#undo-flash.ok", timeout=10000)
        seq = loop.seq
        until(lambda: loop.seq > seq + 10 and not (loop.public_view().get("hand") or {})
              .get("out_of_place"), "play after the undo")
        page.screenshot(path=str(ARTIFACTS / "operator-virtual-table.png"), full_page=True)
