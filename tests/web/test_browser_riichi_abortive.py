"""Nine terminals at the seat page in headless Chromium (option ``abortive_draws: true``, RULES.md
11; docs/game.md "Abortive draws"): South's phone shows the Nine terminals button only at its
first draw with nine different terminals and honours (the hand of
tests/game/test_riichi_abortive.py), the press ends the hand, and the board titles the hand
"Abortive draw: nine terminals" with no tenpai or noten flag and no tile of South's hand."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.app import System, build
from controller.config import Config, SessionConfig
from tests.game import test_riichi_abortive as ab
from tests.web.support import served
from tests.web.test_browser_riichi import (  # noqa: F401 - the fixture
    Game,
    _page,
    _shows,
    chromium,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def abortive(tmp_path: Path) -> Iterator[tuple[System, str]]:
    config = Config(session=SessionConfig(ruleset="riichi", options={"abortive_draws": True}))
    system = build(config, tmp_path / "data")
    with served(system.app) as base:
        yield system, base


BUTTON = "() => { const b = document.getElementById('nine_terminals'); return b && !b.hidden; }"


def test_nine_terminals_from_the_seat_page(abortive: tuple[System, str],
                                           chromium: Any) -> None:  # noqa: F811
    system, base = abortive
    errors: list[str] = []
    game = Game(system)
    board = _page(chromium, "tv", f"{base}/", errors)
    south = _page(chromium, "phone", f"{base}/seat/2#token={system.tokens.seats[2]}", errors)
    log = ab._log(ab.ON).discard(1, "nw")
    for event in log.events[1:]:
        game.submit(event)
    south.wait_for_function("() => document.getElementById('ready').textContent.includes("
                            "'Riichi')", timeout=60000)
    assert not south.evaluate(BUTTON)  # 13 tiles, not its turn: no button
    log.draw(2, "3b")
    game.submit(log.events[-1])
    _shows(south, BUTTON)
    assert south.locator("#nine_terminals").inner_text() == "Nine terminals"
    assert "Nine terminals: you may end the hand" in south.locator("#riichi-notes").inner_text()
    south.on("dialog", lambda d: d.accept())
    south.click("#nine_terminals")
    title = _shows(board, """() => { const r = document.querySelector('#result .riichi-result');
      return r ? r.querySelector('h2').textContent : null; }""")
    assert title == "Abortive draw: nine terminals"
    assert board.locator("#result .flag.tenpai, #result .flag.noten").count() == 0
    shown = board.evaluate("""() => [...document.querySelectorAll('#board .row.concealed .tile')]
      .filter(t => !t.classList.contains('back')).length""")
    assert shown == 0  # nobody's tiles face up: the declarer's hand is not shown
    view = system.loop.public_view()
    assert view["hands"][-1]["abortive"] == "nine_terminals"
    assert view["session"]["dealer"] == 1 and view["riichi"]["honba"] == 1
    _shows(south, "() => document.body.textContent.includes('Abortive draw: nine terminals')")
    assert errors == []
