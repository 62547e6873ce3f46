"""The club's pages as people use them (issue 24), in headless Chromium at a TV's 1920x1080
and a phone's 390x844: the home page's table cards show the game (open tiles only, whose
turn, the wall, the round) and link to the table's board; a player's page (sessions, hands
won, dealt in, average and best hand with its patterns, a chart readable on a phone); an
unknown player is a 404 page that says so; the tournament page (token from a #token= link,
no admin form before login, feedback, the seating plan as a table per round with times,
the round's timer on the table's board, the final ranking and an EMA CSV per rule family).
No console errors (the favicon), nothing wider than the screen.

Screenshots go to test-artifacts/, or to $SCREENSHOTS_DIR (scripts/screenshots writes the
ones in docs/screens/)."""

from __future__ import annotations

import csv
import io
import os
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser import ARTIFACTS, SIZES, launched, open_page
from tests.club import open_tiles
from tests.club.test_club_browser import hall  # noqa: F401 - the fixture
from tests.reliability.support import replay_db

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("SCREENSHOTS_DIR") or ARTIFACTS)
ANN = "Ann Lee"
CARD_SHOWN = """() => [...document.querySelectorAll(".card[data-table='green'] .seat-row")].map(
  r => [r.dataset.seat,
        [...r.querySelectorAll(".seat-tiles [data-tile]")].map(t => t.dataset.tile)])"""
PAD = """() => [...document.querySelectorAll(".card[data-table='green'] .pad [data-tile]")]
  .map(t => t.dataset.tile)[0] || null"""


def _page(browser: Any, size: str, errors: list[str]) -> Any:
    page = open_page(browser, size, errors, label=size, console=True, expected=_expected)
    page.set_default_timeout(90000)  # a waited-for state on a busy host, never a clock bound
    return page


def _expected(message: Any) -> bool:
    """The refusals this test asks for: an unknown player, a wrong token, a plan that does
    not fit (each is checked to say so on the page)."""
    url = str(message.location.get("url") or "")
    return "Failed to load resource" in message.text and any(
        part in url for part in ("/player/Nobody", "/api/club/admin/roster",
                                 "/api/club/tournament"))


def _fits(page: Any) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 1, f"{wide}px wider than the screen"


def _shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=False)


def test_the_club_pages_at_both_sizes(hall: dict[str, Any]) -> None:  # noqa: F811
    table, club, publisher = hall["table"], hall["club"], hall["publisher"]
    publisher.board_url = table.base + "/"
    tokens = table.system.tokens
    joined = httpx.post(f"{table.base}/api/seats/2/player", json={"name": ANN},
                        headers={"Authorization": f"Bearer {tokens.seats[2]}"})
    assert joined.status_code == 200, joined.text
    errors: list[str] = []
    with launched() as browser:
        for size in SIZES:
            page = _page(browser, size, errors)
            page.goto(club.base + "/")
            card = ".card[data-table='green']"
            page.wait_for_selector(f"{card} .seat-tiles [data-tile]", timeout=60000)
            page.wait_for_selector("#tonight tbody tr", timeout=90000)  # a hand finished
            text = page.inner_text(card)
            assert "East round" in text and "wall" in text and ANN in text
            assert page.get_attribute(f"{card} a.board-link", "href") == table.base + "/"
            shown = (tuple(sorted((s, tuple(sorted(t))) for s, t in
                                  page.evaluate(CARD_SHOWN))), page.evaluate(PAD))
            # only what lay open at the table at one moment (its log replayed)
            assert shown in open_tiles.moments(table.system.loop.data_dir), shown
            width = page.evaluate("s => document.querySelector(s)"
                                  ".getBoundingClientRect().width", f"{card} .river .tile")
            assert width >= 16
            _fits(page)
            _shoot(page, f"club-{size}.png")
        _player_pages(browser, club, table, errors)
        _tournament_pages(browser, club, table, errors)
    assert errors == []


def _player_pages(browser: Any, club: Any, table: Any, errors: list[str]) -> None:
    hands = [h for h in replay_db(table.system.loop.data_dir / "events.sqlite")["hands"]
             if h["result"] is not None]
    won = sum(1 for h in hands if h["winner"] == 2)
    dealt_in = sum(1 for h in hands if h["discarder"] == 2 and h["winner"] not in (None, 2))
    for size in SIZES:
        page = _page(browser, size, errors)
        page.goto(f"{club.base}/player/{ANN}")
        page.wait_for_selector("#chart circle", timeout=90000)
        assert page.inner_text("[data-stat='hands']") == str(len(hands))
        assert page.inner_text("[data-stat='won']") == str(won)
        assert page.inner_text("[data-stat='dealt_in']") == str(dealt_in)
        assert page.inner_text("[data-stat='sessions']") == "1"
        best = page.inner_text("#best")
        if won:
            assert page.locator("#best .patterns li").count() >= 1
            assert page.locator("#won tbody tr").count() == won
        else:
            assert "no hand won yet" in best
        label = page.evaluate("document.querySelector('#chart text').getBoundingClientRect()"
                              ".height")
        assert label >= 12, f"the chart's labels are {label}px high"
        _fits(page)
        _shoot(page, f"player-{size}.png")
        missing = page.goto(f"{club.base}/player/Nobody%20Here")
        assert missing is not None and missing.status == 404
        # the page's script says the name once its catalog has come (i18n.js awaits it)
        page.wait_for_function("() => document.querySelector('#missing').textContent"
                               ".includes('Nobody Here')", timeout=90000)
        assert "Nobody called “Nobody Here” has played at this club" in page.inner_text("main")
        _fits(page)


def _tournament_pages(browser: Any, club: Any, table: Any, errors: list[str]) -> None:
    token = club.club.admin_token
    page = _page(browser, "phone", errors)
    held: list[Any] = []  # the page's module script held back: a slow phone on a busy link
    page.route("**/static/i18n.js", lambda route: held.append(route))
    page.goto(club.base + "/tournament", wait_until="commit")
    page.wait_for_selector("#login-form button")
    assert not page.is_visible("#admin") and not page.is_visible("#new-t")
    # before the script has taken the form, a login would be a plain submit that reloads the
    # page and no message comes (a loaded run's failure): the button waits for the script
    assert page.is_disabled("#login-form button")
    deadline = time.monotonic() + 90  # a generous deadline for the request to reach the route
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the page never asked for /static/i18n.js"
    held[0].continue_()
    page.unroute("**/static/i18n.js")
    page.wait_for_selector("#login-form button:not([disabled])", timeout=90000)
    assert page.evaluate("document.getElementById('login-form').onsubmit !== null")
    page.fill("#token", "wrong")
    page.click("#login-form button")
    page.wait_for_function("document.querySelector('#login-msg').textContent.includes('Wrong')")
    page.goto(f"{club.base}/tournament#token={token}")
    page.wait_for_selector("#new-t", state="visible", timeout=90000)
    assert "token" not in page.url
    page.fill("#add-player input[name=name]", ANN)
    page.fill("#add-player input[name=ema]", "04990001")
    page.click("#add-player button")
    page.wait_for_function(f"document.querySelector('#roster-msg').textContent.includes('{ANN}')")
    assert page.input_value("#add-player input[name=name]") == ""  # cleared on success
    players = [ANN, "Bo", "Cai", "Dee"]
    page.fill("#new-t textarea", "\n".join(players))
    page.fill("#new-t input[name=tables]", "green, blue")
    page.click("#new-t button")
    page.wait_for_function("document.querySelector('#new-msg').className.includes('bad')")
    assert "4 players need 1 tables; 2 were named" in page.inner_text("#new-msg")
    page.fill("#new-t input[name=tables]", "green")
    page.fill("#new-t input[name=rounds]", "2")
    page.click("#new-t button")
    page.wait_for_selector("table.seating[data-round='2']", timeout=90000)
    assert sorted(page.locator("table.seating[data-round='1'] td").all_inner_texts()) == \
        sorted(players)
    page.click("button[data-start='1']")
    page.wait_for_function("document.querySelector('#plan-msg').textContent.includes('started')")
    page.wait_for_function("document.querySelector('.round-head .timer').textContent"
                           ".includes('–')", timeout=90000)  # from – to, by the clock
    assert page.locator(".round-head .timer").first.inner_text().count(":") >= 2
    _fits(page)
    _shoot(page, "tournament-phone.png")
    tv = _page(browser, "tv", errors)
    tv.goto(f"{club.base}/tournament")
    tv.wait_for_selector("#final tbody tr", timeout=90000)
    assert not tv.is_visible("#new-t")  # a new page, no token: no admin form
    _shoot(tv, "tournament-tv.png")
    board = _page(browser, "tv", errors)
    board.goto(table.base + "/")
    board.wait_for_selector("#round-banner", timeout=90000)
    assert "Round 1" in board.inner_text("#round-banner")
    for family, head in (("mcr", "table points"), ("riichi", "score")):
        text = httpx.get(f"{club.base}/api/club/tournament/ranking.csv",
                         params={"family": family}).text
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0][:4] == ["rank", "name", "EMA number", "country"] and head in rows[0]
        assert {r[1] for r in rows[1:]} == set(players)
        assert [r[2] for r in rows[1:] if r[1] == ANN] == ["04990001"]
