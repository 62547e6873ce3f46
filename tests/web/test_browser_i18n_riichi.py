"""The riichi pages in the pseudo-language (issue 26), in headless Chromium: a hanchan played by
the riichi bots through the service (one table, the bots' events posted one at a time, as in
tests/web/test_browser_riichi.py); at each moment below the board and a seat's page are loaded
in en-XA and looked at at 390 px and 1920 px (tests/web/pseudo.py): no text outside the
brackets (no hard-coded English), nothing wider than the screen or cut off in its box.

- In play with a seat in riichi: the dora indicators, the honba and deposit counters, the
  points, the riichi flag and the sideways discard; on the phone the points tapped open (the
  differences to the other seats); the riichi seat's own page (its "in riichi" note).
- A seat in furiten and a seat whose wait has no yaku: their pages with the warnings.
- An exhaustive draw (tenpai / noten on the board and the seat), a limit hand won (its yaku,
  han, fu, the limit and the payments; the winner's own result) and the hanchan's final table
  (places, points, uma, penalties, results; the seat's place)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from controller.app import System, build
from controller.config import Config, SessionConfig
from tests.browser import ARTIFACTS, open_page
from tests.web.pseudo import look
from tests.web.support import served
from tests.web.test_browser_i18n import chromium  # noqa: F401 - the fixture
from tests.web.test_browser_riichi import Game, _first_seat, _over, _seat_in_riichi_with_river

pytestmark = pytest.mark.browser

# What the board shows at each moment (drawn in the pseudo-language: the hand line bracketed).
BOARD = {"riichi": "document.querySelector('.flag.riichi') && document.querySelector("
                   "'.river .tile.sideways') && document.querySelector('.dora-tiles .tile')"
                   " && document.querySelector('.counter.honba')",
         "draw": "document.querySelector('#result .riichi-result .res-seat .flag')",
         "win": "document.querySelector('#result .res-seat.winner .formula')",
         "final": "document.querySelector('#result .final-table tbody tr')"}
SEAT = {"riichi": "#riichi-notes .in-riichi", "furiten": "#riichi-notes .furiten",
        "no_yaku": "#riichi-notes .no-yaku", "draw": "#notice .my-tenpai",
        "win": "#notice .riichi-over", "final": "#notice .my-final"}
BRACKETED = "document.querySelector('#handinfo').textContent.includes('⟦')"


@pytest.fixture(scope="module")
def riichi(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[System, str]]:
    system = build(Config(session=SessionConfig(ruleset="riichi")),
                   tmp_path_factory.mktemp("i18n-riichi") / "data")
    with served(system.app) as base:
        yield system, base


def _tap_points(page: Any, size: str) -> bool:
    """On the phone: seat 1's points tapped open (the differences to each other seat)."""
    if size != "phone":
        return False
    page.tap("#seat1 .points")
    page.wait_for_selector("#seat1 .diff", timeout=60000)
    return True


class Looker:
    """Loads the board and a seat's page at a moment of the hanchan and looks at them."""

    def __init__(self, system: System, base: str, browser: Any) -> None:
        self.system, self.base = system, base
        self.page = open_page(browser, "phone", locale="en-GB", has_touch=True)
        self.found: dict[str, Any] = {}
        self.seen: list[str] = []

    def board(self, moment: str) -> None:
        self.page.goto(f"{self.base}/?lang=en-XA")
        look(self.page, f"board {moment}", f"() => {BRACKETED} && {BOARD[moment]}", self.found,
             ARTIFACTS, then=_tap_points if moment == "riichi" else None)
        self.seen.append(f"board {moment}")

    def seat(self, moment: str, seat: int) -> None:
        token = self.system.tokens.seats[seat]
        self.page.goto(f"{self.base}/seat/{seat}?lang=en-XA#token={token}")
        look(self.page, f"seat {moment}", f"() => document.querySelector('{SEAT[moment]}')",
             self.found, ARTIFACTS)
        self.seen.append(f"seat {moment}")

    def both(self, moment: str, seat: int) -> None:
        self.board(moment)
        self.seat(moment, seat)
        self.away()

    def away(self) -> None:
        """Off the table's pages while the bots play on (no page drawing each event)."""
        self.page.goto("about:blank")


def _winner(view: dict[str, Any]) -> int:
    return int(view["hand"]["result"]["details"]["riichi"]["winners"][0])


def test_the_riichi_pages_show_no_hard_coded_english_and_nothing_overflows(
        riichi: tuple[System, str], chromium: Any) -> None:  # noqa: F811
    system, base = riichi
    game = Game(system)
    looker = Looker(system, base, chromium)
    try:
        game.pending = [(_over("washout"), lambda v: looker.both("draw", 1)),
                        (_over("mahjong", limit=True), lambda v: looker.both("win", _winner(v)))]
        view = game.until(_seat_in_riichi_with_river)
        looker.both("riichi", sorted(view["riichi"]["riichi"])[0])
        looker.seat("furiten", _first_seat(game, "furiten"))
        looker.seat("no_yaku", _first_seat(game, "no_yaku"))
        looker.away()
        game.until(lambda v: not game.pending)
        game.until(lambda v: bool(v["riichi"]["final"]))
        looker.both("final", 1)
    finally:
        looker.page.context.close()
    assert sorted(looker.seen) == sorted(f"{kind} {moment}" for moment in SEAT for kind in (
        ("board", "seat") if moment in BOARD else ("seat",))), looker.seen
    assert not looker.found, "\n".join(f"{name}: {what}" for name, what in looker.found.items())
