"""The pages in every language (issue 26), in headless Chromium: one table playing (the
in-process simulation, its four seats named) that publishes over a real Mosquitto to one club
service, one browser for the module (the riichi pages: tests/web/test_browser_i18n_riichi.py).

- Each page (board, seat, operator, a hand's review, club, tournament, the club's player page)
  switches from English to German, Swedish, Chinese and Japanese with its own switch: after each
  choice the page shows the catalog's word for a marked string (read from the compiled catalog with
  gettext, not from the page's code) and says its language in <html lang>; numbers are written as
  Babel writes them for the language (30,000 / 30.000 / 30 000). The choice is kept per kind of
  page on the device: the seat page keeps another language than the board.
- A browser that asks for Swedish (Accept-Language) gets the board in Swedish.
- In the pseudo-language en-XA (every catalog string bracketed and 40 % longer) every page (and the
  review's list of sessions, and the club's page of a player who has played hands) at 390 px and
  at 1920 px shows no text outside the brackets (no hard-coded English) and nothing wider than
  the screen or clipped in its box. Each page is loaded once and looked at in both sizes (the
  window resized: the pages follow a resize).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from babel.numbers import format_decimal

from controller.club.app import create_club_app
from controller.club.service import ClubService
from controller.i18n import LANGUAGES, folder, translations
from controller.web import club_link
from tests.browser import ARTIFACTS, launched, watch
from tests.club.broker import Mosquitto, club_login, enrol, table_publisher
from tests.web.pseudo import SIZES, look
from tests.web.support import free_port, served
from tests.web.test_browser_pages import SimServer

pytestmark = pytest.mark.browser
# the players of seats 2-4 (seat 1, East, stays unnamed: the review's first step names its wind)
NAMES = {2: "Bo Berg", 3: "Cai Wen", 4: "Dee Roy"}
# scripts/screenshots writes the board in German and Japanese into docs/screens/ (docs/screens.md)
SHOTS = Path(os.environ.get("SCREENSHOTS_DIR") or ARTIFACTS)

# Each page: its path (the token pages open with their link), a marked element and its msgid.
TABLE_PAGES = {"board": ("/", ".brand", "Mahjong table"),
               "seat": ("/seat/1", "#claim", "Claim"),
               "operator": ("/operator", ".brand", "Operator"),
               # the review of the session's first hand (the board's link; ?lang goes along),
               # as seat 1 sees it (its own tiles, its discard analysis)
               "review": ("/review/current/1", "#to-list", "all hands")}
# Shown in the pseudo-language only (its switch is the review's, checked on the hand above).
PSEUDO_ONLY = {"reviews": ("/review", ".brand", "Review")}
CLUB_PAGES = {"club": ("/", "header h1", "Club evening"),
              "tournament": ("/tournament", "header h1", "Tournament"),
              "player": ("/player/Nobody", "header h1", "No such player")}
# When a page has drawn what it shows (the pseudo-language check reads it then).
DRAWN = {"board": "() => document.querySelector('#handinfo').textContent.includes('⟦')",
         "seat": "() => document.querySelector('#title').textContent.includes('⟦')",
         "operator": "() => document.querySelector('#events li.newest')",
         "review": "() => document.querySelector('#stepno').textContent.includes('⟦')"
                   " && document.querySelector('#words .said')"
                   " && document.querySelector('#analysis-summary').textContent.includes('⟦')",
         "reviews": "() => document.querySelector('#list article')",
         "club": "() => document.querySelector('#season').textContent !== ''",
         "tournament": "() => document.querySelector('#plan p').textContent.includes('⟦')",
         "player": "() => document.querySelector('#missing').textContent.includes('⟦')",
         "played": "() => document.querySelector('#chart circle')"
                   " && document.querySelector('#won tbody tr')"
                   " && document.querySelector('#psessions tbody tr')"}
LANGUAGE_SHOWN = """([sel, text, lang]) => document.documentElement
  && document.documentElement.lang === lang
  && document.querySelector(sel) && document.querySelector(sel).textContent.trim() === text"""

@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The table (hands enough to be in play whenever a page looks: the screenshots want tiles
    on the table; its seats named) publishing to the club over the club's locked Mosquitto."""
    where = tmp_path_factory.mktemp("i18n")
    credentials = enrol(where / "club", "green", where / "green.json")
    broker = Mosquitto(where / "broker", where / "club")
    broker.start()
    table = SimServer(where / "table", free_port(), hands=40, pace=0.1)
    table.start()
    publisher = table_publisher(table.data_dir, credentials, broker)
    club = ClubService(where / "club", club_login(broker), client_id="club-i18n")
    try:
        for seat, name in NAMES.items():  # before the first hand is over: its hands are theirs
            said = httpx.post(f"{table.base}/api/seats/{seat}/player", json={"name": name},
                              headers={"Authorization": f"Bearer {table.tokens.seats[seat]}"})
            assert said.status_code == 200, said.text
        club_link.attach(table.loop, publisher)
        publisher.start()
        with served(create_club_app(club)) as club_base:
            yield {"table": table, "club": club_base, "service": club}
    finally:
        publisher.stop()
        table.stop()
        broker.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launched() as browser:
        yield browser


def _pages(servers: dict[str, Any], more: dict[str, Any] | None = None
           ) -> dict[str, tuple[str, str, str]]:
    """Each page's full address (the seat's and the operator's with their links' tokens)."""
    table = servers["table"]
    tokens = table.tokens
    links = {"seat": f"#token={tokens.seats[1]}", "operator": f"#token={tokens.admin}",
             "review": f"#token={tokens.seats[1]}"}  # seat 1's own tiles and its analysis
    out = {name: (table.base + path, links.get(name, ""), sel, msgid)
           for name, (path, sel, msgid) in (TABLE_PAGES | (more or {})).items()}
    out |= {name: (servers["club"] + path, "", sel, msgid)
            for name, (path, sel, msgid) in CLUB_PAGES.items()}
    return out  # type: ignore[return-value]


def _choose(page: Any, language: str) -> None:
    """The page's own switch; the page loads again in that language."""
    with page.expect_navigation():
        page.select_option("#lang-switch", language)


def _word(language: str, msgid: str) -> str:
    return translations(language).gettext(msgid)


def _first_step(language: str) -> str:
    """The first hand's first step in words, from the catalogs: East (seat 1) deals."""
    east = translations(language, "terms").gettext("east")
    return _word(language, "Hand {n} begins: {who} deals").format(
        n=1, who=east[:1].upper() + east[1:])


def test_every_page_switches_to_every_language(servers: dict[str, Any], chromium: Any) -> None:
    context = chromium.new_context(locale="en-GB", viewport=SIZES["tv"])
    errors: list[str] = []
    try:
        for name, (url, link, sel, msgid) in _pages(servers).items():
            page = watch(context.new_page(), errors, name)
            page.goto(url + link)
            page.wait_for_function(LANGUAGE_SHOWN, arg=[sel, msgid, "en"], timeout=60000)
            for language in LANGUAGES[1:]:
                _choose(page, language)
                page.wait_for_function(LANGUAGE_SHOWN, arg=[sel, _word(language, msgid),
                                                            language], timeout=60000)
                if name == "board" and language in ("de", "ja"):
                    page.wait_for_selector(".seat .tile", timeout=60000)  # a hand on the table
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SHOTS / f"board-{language}-tv.png"))
                if name == "review":  # the server's words of the hand's first step too
                    said = page.locator("#words .said").inner_text()
                    assert said == _first_step(language), (language, said)
                written = page.evaluate("() => window.i18n.num(30000)")
                assert written == format_decimal(30000, locale=folder(language)), (name, language)
            page.close()
        # the choice is kept per kind of page: the seat to German, the board stays Japanese
        pages = _pages(servers)
        seat = context.new_page()
        seat.goto(pages["seat"][0])
        seat.wait_for_selector("#lang-switch")
        _choose(seat, "de")
        seat.wait_for_function(LANGUAGE_SHOWN, arg=["#claim", _word("de", "Claim"), "de"])
        board = context.new_page()
        board.goto(pages["board"][0])
        board.wait_for_function(LANGUAGE_SHOWN, arg=[".brand", _word("ja", "Mahjong table"),
                                                     "ja"], timeout=60000)
        assert board.evaluate("() => document.querySelector('#lang-switch').value") == "ja"
    finally:
        context.close()
    assert errors == []


def test_a_swedish_browser_gets_the_board_in_swedish(servers: dict[str, Any],
                                                      chromium: Any) -> None:
    context = chromium.new_context(locale="sv-SE")
    try:
        page = context.new_page()
        page.goto(servers["table"].base + "/")
        page.wait_for_function(LANGUAGE_SHOWN, arg=[".brand", _word("sv", "Mahjong table"), "sv"],
                               timeout=60000)
    finally:
        context.close()


def _played(club: ClubService) -> str:
    """A player the club has seen play hands (one who won a hand: the page shows its best
    hand and patterns), once the table has published such a hand."""
    deadline = time.monotonic() + 300  # hands at the simulation's pace on a busy host
    while time.monotonic() < deadline:
        for name in NAMES.values():
            if (club.player(name) or {}).get("hands_won"):
                return name
        time.sleep(0.2)
    raise AssertionError("the club saw no hand won at the table")


def test_the_pseudo_language_shows_no_hard_coded_english_and_nothing_overflows(
        servers: dict[str, Any], chromium: Any) -> None:
    context = chromium.new_context(viewport=SIZES["phone"], locale="en-GB")
    found: dict[str, Any] = {}
    played = quote(_played(servers["service"]))
    pages = _pages(servers, PSEUDO_ONLY)
    pages["played"] = (f"{servers['club']}/player/{played}", "", "", "")
    try:
        for name, (url, link, _sel, _msgid) in pages.items():
            page = context.new_page()
            page.goto(f"{url}?lang=en-XA{link}")
            look(page, name, DRAWN[name], found, ARTIFACTS, data=(*NAMES.values(), "green"))
            page.close()
    finally:
        context.close()
    assert not found, "\n".join(f"{name}: {what}" for name, what in found.items())
