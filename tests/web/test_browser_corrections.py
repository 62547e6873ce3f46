"""Corrections under `serve --simulate` in a real browser: the virtual table (simulated players,
virtual boards over ptys), the operator page in headless Chromium. A misread tile makes the
players wait and the operator page say where; the operator's reassign and undo (sent from the
page with the requests the operator page makes) are taken, and play goes on."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.app import System, build
from controller.config import Config, SessionConfig
from controller.sources.virtual import SimOptions, SimRun, virtual_table_source
from tests.browser import ARTIFACTS, launched, open_page  # (and its skip without Chromium)
from tests.web.support import served

pytestmark = pytest.mark.browser

#: What the operator page does for a correction (controller/web/static/operator.js: api()).
POST = """async ([path, token, body]) => {
  const res = await fetch(path, {method: "POST", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token}`}});
  return {status: res.status, body: await res.json()};
}"""


def _until(check: Callable[[], Any], timeout: float = 60.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if result := check():
            return result
        time.sleep(0.05)
    raise AssertionError(f"not reached in {timeout} s: {what}")


@pytest.fixture
def simulated(tmp_path: Path) -> Iterator[tuple[str, System, SimRun]]:
    """`serve --simulate` with one misread tag, served by uvicorn on a free port."""
    run = SimRun()
    options = SimOptions(seed=3, hand_pause=2.0, misread=("6b", "5b"))
    system = build(Config(session=SessionConfig(ruleset="hua-bao")), tmp_path / "data",
                   sources={"table": virtual_table_source(options, run)})
    with served(system.app) as base:
        yield base, system, run


def test_reassign_and_undo_under_simulate_and_play_goes_on(
        simulated: tuple[str, System, SimRun]) -> None:
    base, system, run = simulated
    token = system.tokens.admin
    errors: list[str] = []
    with launched() as browser:
        board = open_page(browser, (1280, 800), errors)
        board.goto(base + "/")
        board.wait_for_selector("#conn.ok", timeout=15000)
        operator = open_page(browser, (1280, 800), errors)
        operator.goto(f"{base}/operator#token={token}")

        complaint = _until(lambda: run.complaint if run.complaint and "is" in run.complaint
                           else None, what="a player noticing the misread tile")
        operator.wait_for_function(
            "document.body.innerText.includes('the players wait')", timeout=15000)
        assert complaint["zone"] in operator.inner_text("body")
        operator.screenshot(path=str(ARTIFACTS / "operator-misread-waiting.png"))

        if complaint["zone"].startswith("rack:"):
            # a rack's misread is its player's to correct (the seat page's own request)
            position = int(complaint["zone"].split(":")[1])
            fixed = operator.evaluate(POST, [
                f"/api/seats/{position}/reassign", system.tokens.seats[position],
                {"tile": complaint["tile"], "as": complaint["is"]}])
        else:
            fixed = operator.evaluate(POST, ["/api/admin/reassign", token, {
                "zone": complaint["zone"], "tile": complaint["tile"],
                "as": complaint["is"]}])
        assert fixed["status"] == 200 and fixed["body"]["accepted"], fixed
        # Two steps of play past the correction (itself a step of the log: an undo at once
        # would take the correction back, and the players would rightly wait for it again).
        after_fix = system.loop.seq
        _until(lambda: run.complaint is None and system.loop.seq >= after_fix + 2,
               what="the players going on")
        seq = board.evaluate("async () => (await (await fetch('/api/table')).json()).seq")

        undone = operator.evaluate(POST, ["/api/admin/undo", token, {"count": 1}])
        assert undone["status"] == 200 and undone["body"]["accepted"], undone

        def played_on() -> bool:
            view = board.evaluate("async () => (await fetch('/api/table')).json()")
            hand = view.get("hand") or {}
            return view["seq"] > seq + 15 and not hand.get("out_of_place")

        _until(played_on, what="play going on after the undo")
        board.wait_for_selector(".seat .tile", timeout=15000)
        board.screenshot(path=str(ARTIFACTS / "dashboard-after-corrections.png"))
        assert run.error is None and run.stalls == 0
    assert errors == []
