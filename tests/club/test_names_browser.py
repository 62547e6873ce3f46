"""The Ann Lee case on the pages, in headless Chromium: a simulated table (published over a real
Mosquitto to the club service) where "Ann Lee" takes seat 1 during hand 2. The table's board and
the club's card show her own score (her hands only) and the seat's earlier holder's part; the
session under way is provisional. Expected numbers are summed here from the table's hands."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from controller.loop import GameLoop
from controller.sources.simulation import simulation_source
from tests.browser import ARTIFACTS, launched, open_page
from tests.club.test_club_browser import hall  # noqa: F401 - the fixture
from tests.waiting import until

pytestmark = pytest.mark.browser
ANN = "Ann Lee"


def _ann_during_hand_2(loop: GameLoop) -> AsyncIterator[tuple[dict[str, Any], str]]:
    """Two simulated hands; once hand 2 is in play, the operator seats Ann Lee at seat 1."""

    async def source() -> AsyncIterator[tuple[dict[str, Any], str]]:
        named = False
        async for item in simulation_source(0.02, 11, hands=2)(loop):
            yield item
            hand = loop.public_view().get("hand") or {}
            if not named and hand.get("number") == 2 and hand.get("phase") == "play":
                named = True
                yield {"player": {"seat": 1, "name": ANN}}, "admin"

    return source()


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


@pytest.mark.parametrize("hall", [_ann_during_hand_2], indirect=True)
def test_the_pages_give_ann_her_own_hands(hall: dict[str, Any]) -> None:  # noqa: F811
    table, club = hall["table"], hall["club"]
    hands = until(lambda: (lambda d: d if len(d["hands"]) >= 2 else None)(
        httpx.get(table.base + "/api/hands").json()))["hands"]
    mine = [h for h in hands if h["names"]["1"] == ANN]
    assert [h["number"] for h in mine] == [2]  # she sat down during hand 2
    ann = sum(int(h["net"]["1"]) for h in mine)
    before = sum(int(h["net"]["1"]) for h in hands if h["names"]["1"] is None)
    until(lambda: len(httpx.get(club.base + "/api/club/hands").json()) >= 2)
    errors: list[str] = []
    with launched() as browser:
        dash = open_page(browser, (1280, 900), errors)
        dash.goto(table.base + "/")
        dash.wait_for_selector(f"#stats [data-holder='{ANN}']", timeout=20000)
        assert dash.inner_text(f"#stats [data-holder='{ANN}']") == \
            f"{ANN} {_signed(ann)} (hand 2)"
        assert dash.inner_text("#stats [data-holder='Seat 1']") == \
            f"Seat 1 {_signed(before)} (hand 1)"
        dash.wait_for_function(
            "t => document.querySelector('#seat1 .total')?.textContent === t",
            arg=_signed(ann), timeout=20000)
        dash.screenshot(path=str(ARTIFACTS / "names-board.png"), full_page=True)
        phone = open_page(browser, (390, 844), errors)
        phone.goto(f"{table.base}/seat/1#token={table.system.tokens.seats[1]}")
        phone.wait_for_function(  # "my total": Ann's own part, not the seat's
            """t => { const s = [...document.querySelectorAll('#table .kv span')];
                      const i = s.findIndex(x => x.textContent === 'my total');
                      return i >= 0 && s[i + 1].textContent === t; }""",
            arg=_signed(ann), timeout=20000)

        page = open_page(browser, (1280, 900), errors)
        page.goto(club.base + "/")
        card = ".card[data-table='green']"
        page.wait_for_selector(f"{card} [data-total='{ANN}']", timeout=20000)
        page.wait_for_function(
            "([s, t]) => document.querySelector(s)?.textContent === t",
            arg=[f"{card} [data-total='{ANN}']", str(ann)], timeout=20000)
        earlier = page.inner_text(f"{card} .earlier")
        assert "Seat 1 at green (1 hand)" in earlier and str(before) in earlier
        assert "provisional" in page.inner_text(f"{card} .provisional")
        page.wait_for_selector("#sessions tbody tr.provisional", timeout=20000)
        assert "under way" in page.inner_text("#sessions tbody tr.provisional")
        assert "Seat 1 at green" not in page.inner_text("#tonight")
        assert page.inner_text("#league tbody") == ""  # nothing finished yet
        page.screenshot(path=str(ARTIFACTS / "names-club.png"), full_page=True)
        page.goto(club.base + "/player/Ann%20Lee")
        page.wait_for_selector("#psessions tbody tr", timeout=10000)
        cells = page.locator("#psessions tbody tr td").all_inner_texts()
        assert cells[-2:] == ["provisional", str(ann)]

        # the operator says Ann held seat 1 from hand 1: the board and the club follow
        operator = open_page(browser, (1280, 900), errors)
        operator.goto(f"{table.base}/operator#token={table.system.tokens.admin}")
        operator.wait_for_selector("#holder-give", timeout=15000)
        operator.wait_for_function("() => localStorage.getItem('admin-token')",
                                   timeout=15000)
        operator.select_option("#holder-seat", "1")
        operator.fill("#holder-name", ANN)
        operator.fill("#holder-from", "1")
        operator.click("#holder-give")
        operator.wait_for_function(
            "() => document.getElementById('people-msg').textContent === 'done'",
            timeout=10000)
        whole = before + ann
        dash.wait_for_function(
            "t => document.querySelector('#seat1 .total')?.textContent === t",
            arg=_signed(whole), timeout=20000)
        assert dash.locator("#stats [data-holder]").count() == 0  # one holder a seat
        page.goto(club.base + "/")
        page.wait_for_function(
            "([s, t]) => document.querySelector(s)?.textContent === t",
            arg=[f"{card} [data-total='{ANN}']", str(whole)], timeout=30000)
        assert page.locator(f"{card} .earlier").count() == 0
    assert errors == []
