"""The dashboard in a real browser: the service with a fast simulation on a free port, headless
Chromium through Playwright; tiles appear, a hand ends, the seat and operator pages work."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.app import System, build
from controller.config import Config, SimulationConfig
from tests.browser import ARTIFACTS, launched, open_page  # (and its skip without Chromium)
from tests.web.support import free_port as _free_port

pytestmark = pytest.mark.browser


class Server:
    """The app served by uvicorn in a thread; stop() and start() again on the same port."""

    def __init__(self, data_dir: Path, port: int) -> None:
        self.data_dir, self.port = data_dir, port
        self.base = f"http://127.0.0.1:{port}"
        self.system: System | None = None
        self._srv: object = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        import uvicorn

        sim = SimulationConfig(pace=0.02, seed=11, hands=1)
        self.system = build(Config(simulation=sim), self.data_dir, table="simulation")
        config = uvicorn.Config(self.system.app, host="127.0.0.1", port=self.port,
                                log_level="warning")
        srv = uvicorn.Server(config)
        self._srv = srv
        self._thread = threading.Thread(target=srv.run, daemon=True)
        self._thread.start()
        deadline = time.time() + 20
        while not srv.started and time.time() < deadline:
            time.sleep(0.05)
        assert srv.started, "the service did not start"

    def stop(self) -> None:
        self._srv.should_exit = True  # type: ignore[attr-defined]
        assert self._thread is not None
        self._thread.join(10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, System]]:
    srv = Server(tmp_path / "data", _free_port())
    srv.start()
    assert srv.system is not None
    yield srv.base, srv.system
    srv.stop()


def test_dashboard_shows_tiles_and_the_end_of_a_hand(server: tuple[str, System]) -> None:
    base, system = server
    errors: list[str] = []
    with launched() as browser:
        page = open_page(browser, (800, 480), errors)
        page.goto(base + "/")
        page.wait_for_selector("#conn.ok", timeout=15000)
        page.wait_for_selector(".seat .tile", timeout=15000)  # face down in play
        page.wait_for_selector(".result h2", timeout=60000)
        page.wait_for_selector("#history li", timeout=15000)
        title = page.inner_text(".result h2")
        assert title.startswith(("Mahjong", "Washout"))
        assert page.locator(".res-seat").count() == 4
        page.screenshot(path=str(ARTIFACTS / "dashboard-800x480.png"))
        page.screenshot(path=str(ARTIFACTS / "dashboard-full.png"), full_page=True)

        seat = open_page(browser, (390, 844), errors)
        seat.goto(f"{base}/seat/2#token={system.tokens.seats[2]}")
        seat.wait_for_selector("#conn.ok", timeout=15000)
        assert "#token" not in seat.url  # the token leaves the address bar
        seat.screenshot(path=str(ARTIFACTS / "seat-phone.png"))

        operator = open_page(browser, (800, 480))
        operator.goto(f"{base}/operator#token={system.tokens.admin}")
        operator.wait_for_selector(".qr svg", timeout=15000)
        assert operator.locator(".qr svg").count() == 4
    assert errors == []


def test_dashboard_reconnects_after_a_restart(tmp_path: Path) -> None:
    srv = Server(tmp_path / "data", _free_port())
    srv.start()
    try:
        with launched() as browser:
            page = open_page(browser, (800, 480))
            page.goto(srv.base + "/")
            page.wait_for_selector("#conn.ok", timeout=15000)
            srv.stop()
            page.wait_for_selector("#conn.wait", timeout=15000)
            srv.start()  # restart = replay: the same session goes on
            page.wait_for_selector("#conn.ok", timeout=20000)
            page.wait_for_selector(".seat .tile", timeout=15000)
    finally:
        srv.stop()
