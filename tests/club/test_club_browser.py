"""The club page and a seat joining by name, in headless Chromium (Debian's): a table served
with a fast simulation publishes over a real Mosquitto to the club service."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.app import build
from controller.club.app import create_club_app
from controller.club.service import ClubService
from controller.config import Config
from controller.loop import GameLoop
from controller.sources.simulation import simulation_source
from controller.web import club_link
from tests.browser import ARTIFACTS, launched, open_page
from tests.club.broker import Mosquitto, club_login, enrol, table_publisher
from tests.web.test_browser import _free_port

pytestmark = pytest.mark.browser


def _seated_first(inner: Any) -> Any:
    """The simulation, once seat 2 has a name: the hand the test watches is played by Ann."""

    async def source(loop: GameLoop) -> AsyncIterator[tuple[dict[str, Any], str]]:
        while not (loop.public_view().get("names") or {}).get("2"):
            await asyncio.sleep(0.1)
        async for item in inner(loop):
            yield item

    return source


class TableServer:
    def __init__(self, data_dir: Path, source: Any = None) -> None:
        import uvicorn

        self.system = build(Config(), data_dir, sources={
            "simulation": source or _seated_first(simulation_source(0.02, 11, hands=1))})
        self.loop = self.system.loop
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.srv = uvicorn.Server(uvicorn.Config(self.system.app, host="127.0.0.1",
                                                 port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.srv.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 20
        while not self.srv.started and time.time() < deadline:
            time.sleep(0.05)
        assert self.srv.started

    def stop(self) -> None:
        self.srv.should_exit = True
        self.thread.join(10)


class ClubServer:
    def __init__(self, data_dir: Path, broker: Mosquitto) -> None:
        import uvicorn

        self.club = ClubService(data_dir, club_login(broker), client_id="club-browser")
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.srv = uvicorn.Server(uvicorn.Config(create_club_app(self.club), host="127.0.0.1",
                                                 port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.srv.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 20
        while not self.srv.started and time.time() < deadline:
            time.sleep(0.05)
        assert self.srv.started

    def stop(self) -> None:
        self.srv.should_exit = True
        self.thread.join(10)


@pytest.fixture
def hall(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[dict[str, Any]]:
    """A table (its event source: ``indirect`` parametrisation, else the default), the club's
    locked Mosquitto, the table's publisher (enrolled) and the club service."""
    credentials = enrol(tmp_path / "club", "green", tmp_path / "green.json")
    broker = Mosquitto(tmp_path / "broker", tmp_path / "club")
    broker.start()
    table = TableServer(tmp_path / "table", getattr(request, "param", None))
    publisher = table_publisher(tmp_path / "table", credentials, broker)
    club_link.attach(table.loop, publisher)
    publisher.start()
    club = ClubServer(tmp_path / "club", broker)
    try:
        yield {"table": table, "club": club, "publisher": publisher}
    finally:
        club.stop()
        publisher.stop()
        table.stop()
        broker.stop()


def test_a_seat_joins_by_name_and_the_club_page_shows_the_table(hall: dict[str, Any]) -> None:
    table, club = hall["table"], hall["club"]
    tokens = table.system.tokens
    errors: list[str] = []
    with launched() as browser:
        seat = open_page(browser, (390, 844), errors)
        seat.goto(f"{table.base}/seat/2#token={tokens.seats[2]}")
        seat.wait_for_selector("#join-name", timeout=15000)
        seat.fill("#join-name", "Ann Lee")
        seat.click("#join-button")
        seat.wait_for_selector("#joined", timeout=10000)
        assert "Ann Lee" in seat.inner_text("#joined")
        seat.screenshot(path=str(ARTIFACTS / "seat-join.png"))

        dash = open_page(browser, (1280, 800), errors)
        dash.goto(table.base + "/")
        dash.wait_for_function(
            "document.querySelector('#seat2 .seat-name')?.textContent === 'Ann Lee'",
            timeout=15000)

        page = open_page(browser, (1280, 800), errors)
        page.goto(club.base + "/")
        page.wait_for_selector(".card[data-table='green']", timeout=20000)
        page.wait_for_function(
            "document.querySelector(\".card[data-table='green']\").textContent"
            ".includes('Ann Lee')", timeout=20000)
        page.wait_for_selector("#tonight tbody tr", timeout=60000)  # a hand finished
        assert "Ann Lee" in page.inner_text("#tonight")
        assert page.locator(".card[data-table='green'] .online").inner_text() == "online"
        page.screenshot(path=str(ARTIFACTS / "club-page.png"), full_page=True)
        page.click("#tonight a:has-text('Ann Lee')")
        page.wait_for_selector("#chart circle", timeout=10000)
        assert page.inner_text("[data-stat='hands']") == "1"
    assert errors == []
