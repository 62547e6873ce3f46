"""A tournament round's results on the club's tournament page, in headless Chromium (issue
24): a table publishing to the club's locked Mosquitto plays one hand before the round (not
the round's), the organiser makes the plan and starts round 1 on the page, the round keeper
seats the plan's players at the table, they play two hands, and at the round's time-up the
round keeper ends the session (time-up comes when the test moves the table's clock past the
round's end, once the two hands are played: an hour's round, not a minute of the wall clock
waited out). The page shows the round's results as they come
(provisional while the table plays),
then each player's table points and score, and the final ranking, worked out here from the
hands the table played: the round's hands' nets summed by seat, places by score with the
league's rank points 4/2/1/0, tied places sharing theirs (docs/club.md, EMA's MCR table
points)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.sources.simulation import simulation_source
from tests.browser import launched, open_page
from tests.club.broker import Mosquitto, enrol, until
from tests.club.hall import Table
from tests.club.test_club_browser import ClubServer

pytestmark = pytest.mark.browser
PLAYERS = ("Ann Lee", "Bo", "Cai", "Dee")
RANK_POINTS = (4, 2, 1, 0)  # places 1 to 4 (docs/club.md: the league's and the round's)


def _before_and_in_round(before: int, total: int) -> Any:
    """The simulated players: ``before`` hands, then they wait to be seated by name (the
    round keeper does it when the round starts), play to ``total`` hands and stop."""
    inner = simulation_source(0.01, 5, hands=total)

    async def source(loop: Any) -> AsyncIterator[tuple[dict[str, Any], str]]:
        def count() -> int:
            return len(loop.public_view().get("hands") or [])

        played = inner(loop)
        item = await played.__anext__()
        while count() < total:
            names = loop.public_view().get("names") or {}
            if count() >= before and not all(names.get(str(p)) for p in (1, 2, 3, 4)):
                await asyncio.sleep(0.05)
                continue
            applied = yield item
            item = await played.asend(applied)
        while True:  # a session the round keeper starts after this one plays nothing
            await asyncio.sleep(0.2)

    return source


@pytest.fixture
def evening(tmp_path: Path) -> Iterator[dict[str, Any]]:
    credentials = enrol(tmp_path / "club", "green", tmp_path / "green.json")
    broker = Mosquitto(tmp_path / "broker", tmp_path / "club")
    broker.start()
    club = ClubServer(tmp_path / "club", broker)
    skipped = [0.0]  # seconds the table's clock has been moved on
    table = Table(tmp_path / "green", credentials, broker, insecure=False, seed=5, hands=3,
                  play=_before_and_in_round(1, 3), clock=lambda: time.time() + skipped[0])
    try:
        yield {"club": club, "table": table, "skipped": skipped}
    finally:
        table.stop()
        club.stop()
        broker.stop()


def _points(shown: str) -> str:
    return f"{round(float(shown), 2):g}"


def expected_results(hands: list[dict[str, Any]], seating: list[str]) -> list[list[str]]:
    """[name, table points, score] per player, as the page orders them (table points, then
    score, then name): the nets of the round's hands by seat, 4/2/1/0 by place, ties share."""
    score = {p: sum(h["net"][str(p)] for h in hands) for p in (1, 2, 3, 4)}
    rows = []
    for p, name in enumerate(seating, start=1):
        above = sum(1 for q in score if score[q] > score[p])
        tied = sum(1 for q in score if score[q] == score[p])
        points = sum(RANK_POINTS[above:above + tied]) / tied
        rows.append((-points, -score[p], name, f"{round(points, 2):g}", str(score[p])))
    return [[name, pts, sc] for _, _, name, pts, sc in sorted(rows)]


def _rows(page: Any, selector: str) -> Any:
    return page.evaluate("""(s) => [...document.querySelectorAll(s + ' tbody tr')].map(
      r => [...r.children].map(c => c.textContent))""", selector)


def test_a_round_s_results_from_the_hands_played_in_it(evening: dict[str, Any]) -> None:
    club, table = evening["club"], evening["table"]
    # the hand before the round: played, and held by the club, before the round starts
    until(lambda: len(club.club.store.hands("green")) == 1, 120, "the first hand at the club")
    errors: list[str] = []
    with launched() as browser:
        page = open_page(browser, (1920, 1080), errors)
        page.goto(f"{club.base}/tournament#token={club.club.admin_token}")
        page.wait_for_selector("#new-t", state="visible", timeout=20000)
        page.fill("#new-t textarea", "\n".join(PLAYERS))
        page.fill("#new-t input[name=rounds]", "1")
        page.fill("#new-t input[name=tables]", "green")
        # an hour's round: the round keeper ends the table's session at time-up (an
        # operator's stop mid-round would only make the keeper start another session); the
        # test brings time-up once the round's hands are played
        page.fill("#new-t input[name=minutes]", "60")
        page.click("#new-t button")
        page.wait_for_selector("table.seating[data-round='1'] tbody tr", timeout=20000)
        seating = _rows(page, "table.seating[data-round='1']")[0]
        assert seating[0] == "green" and sorted(seating[1:]) == sorted(PLAYERS)
        page.click("button[data-start='1']")
        # under way: the round's results are there, provisional, as the table plays
        page.wait_for_function("""() => [...document.querySelectorAll(
          "table.results[data-round='1'] tbody tr")].some(r => r.textContent.includes(
          'provisional'))""", timeout=120000, polling=200)
        until(lambda: len(table.finished()) == 3, 180, "the round's two hands played")
        evening["skipped"][0] += 3600.0  # time is up at the table
        page.wait_for_function("""() => { const r = [...document.querySelectorAll(
          "table.results[data-round='1'] tbody tr")]; return r.length === 4 &&
          !r.some(x => x.textContent.includes('provisional')); }""", timeout=300000,
                               polling=200)
        hands = table.http.get("/api/sessions/1").json()["hands"]
        assert [h["number"] for h in hands] == [1, 2, 3]
        expected = expected_results(hands[1:], seating[1:])  # hand 1 came before
        shown = _rows(page, "table.results[data-round='1']")
        assert [r[0] for r in shown] == ["1", "2", "3", "4"], shown
        assert [[r[1], _points(r[2]), r[3]] for r in shown] == expected, (shown, hands)
        final = _rows(page, "#final")  # one round: the final ranking is the round's
        assert [[r[1], _points(r[4]), r[5]] for r in final] == expected, final
    assert errors == []
