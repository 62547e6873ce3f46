"""A riichi session's rarer results in headless Chromium, as a new user would meet them after
`serve --ruleset riichi` (issue 23): two rons on one discard, the operator's chombo given on the
operator page, an exhaustive draw with two seats tenpai; the session panel in points and
results (RULES.md 11), not the classical nets; no classical score/net pill on the board; and
the tenpai hands of the draw never shown, on the board, in its history or in the past sessions.

The hands are table logs (FORMATS.md) posted to the running service: the double ron of
tests/game/test_riichi_rules.py, then a deal voided by the chombo, then its replay ending in an
exhaustive draw. Every expected number is worked out here from the rule book: a non-dealer's
ron 4 x fu x 2^(han + 2) rounded up to 100, 3,000 to the tenpai seats at a draw, the 1,000
riichi deposit, 30,000 to start, the uma +15/+5/-5/-15 and 20 off per chombo."""

from __future__ import annotations

import math
from typing import Any

import httpx
import pytest

from controller.app import System
from tests.game import test_riichi_rules as rr
from tests.game.logbuilder import Log
from tests.web.test_browser_riichi import (  # noqa: F401 - the fixtures
    START,
    UMA,
    Game,
    _page,
    _shows,
    _tenpai_by_shanten,
    _thousands,
    chromium,
    riichi,
)

pytestmark = pytest.mark.browser
WEST_TENPAI = "1b2b3b 4b5b6b 7b8b9b 5d6d gdgd"  # waits on 4d/7d
NORTH_NOTEN = "5d 6b 7c 8c 9b9b nwnw 3d 8d 2c 6c 9c"
#: the tile faces under a selector, the dora indicators of a result apart
FACES = """(sel) => [...document.querySelectorAll(sel)].filter(t => !t.closest(
  '.res-indicators')).map(t => t.dataset.tile)"""


def _ron(han: int, fu: int) -> int:
    """A non-dealer's ron (RULES.md 11): 4 x fu x 2^(han + 2), rounded up to 100."""
    return math.ceil(4 * fu * 2 ** (han + 2) / 100) * 100


def _signed(x: float) -> str:
    return "0" if x == 0 else f"{x:+g}"


def _standing(nets: list[dict[int, int]], chombo: dict[int, int]) -> dict[int, tuple[str, str]]:
    """Each seat's points (30,000 and its nets) and provisional result: (points - 30,000) /
    1,000, the uma of its place (tied places share), 20 off per chombo."""
    points = {p: START + sum(n[p] for n in nets) for p in (1, 2, 3, 4)}
    out = {}
    for p, v in points.items():
        tied = sorted(q for q in points if points[q] == v)
        above = sum(1 for q in points if points[q] > v)
        uma = sum(UMA[above + i] for i in range(len(tied))) / len(tied)
        result = round((v - START) / 1000 + uma - 20 * chombo.get(p, 0), 1)
        out[p] = (_thousands(v), _signed(result))
    return out


def _hands() -> tuple[Log, int, int]:
    """The three hands as one log, and where hands 2 and 3 begin."""
    log = rr.several_rons()  # South and West both win on North's nw
    second = len(log.events)
    log.new_hand()  # the deal passed to South: seat 2 deals (14 tiles)
    log.deal({2: rr.EAST, 3: rr.SOUTH, 4: rr.WEST, 1: rr.NORTH}).move("9b", "wall", "dora")
    third = len(log.events)
    log.new_hand()  # the chombo's replay: South deals again, declares riichi, then a draw
    log.deal({2: rr.EAST, 3: rr.SOUTH, 4: WEST_TENPAI, 1: NORTH_NOTEN})
    log.move("9b", "wall", "dora").declare(2, "ready").discard(2, "nw")
    rr._burn(log, 3, "1d 4d 7d 3d")
    return log, second, third


def _post(game: Game, events: list[dict[str, Any]]) -> None:
    for event in events:
        if "session" not in event:
            game.submit(event)


def _session_panel(page: Any, expected: dict[int, tuple[str, str]]) -> None:
    want = [list(expected[p]) for p in (1, 2, 3, 4)]
    shown = _shows(page, """(want) => { const rows = [1, 2, 3, 4].map(p => document.querySelector(
      '#stats tr[data-seat="' + p + '"]'));
      const got = rows.map(r => r && r.querySelector('.r-pts') ? [r.querySelector('.r-pts')
        .textContent, r.querySelector('.r-res').textContent] : null);
      return JSON.stringify(got) === JSON.stringify(want) ? got : null; }""", want)
    assert shown == want
    legend = page.locator("#chart .legend b").all_inner_texts()
    assert [x.strip() for x in legend] == [w[0] for w in want], legend  # the chart in points


def check_two_rons(boards: dict[str, Any]) -> dict[int, int]:
    south, west = _ron(3, 40), _ron(2, 40)  # ittsu 2 + a dora / ittsu 2; 40 fu (single wait)
    for size, page in boards.items():
        got = _shows(page, """() => { const r = document.querySelector('#result .riichi-result');
          return r && r.querySelector('h2').textContent.startsWith('Ron') ? {
            title: r.querySelector('h2').textContent,
            winners: [...r.querySelectorAll('.res-seat.winner')].map(s => s.dataset.seat),
            formulas: [...r.querySelectorAll('.res-seat.winner .formula')].map(x => x.textContent),
            pays: [...r.querySelectorAll('.payments li')].map(x => x.textContent),
            board: [1, 2, 3, 4].filter(p => document.querySelector(
              '#seat' + p + ' .row.concealed.winner')),
            shown: [1, 2, 3, 4].map(p => document.querySelectorAll(
              '#seat' + p + ' .row.concealed .tile:not(.back)').length),
            pills: document.querySelectorAll('#board .pill, #board .net').length } : null; }""")
        assert got["title"] == "Ron: Seat 2 · south, Seat 3 · west on Seat 4 · north's discard"
        assert got["winners"] == ["2", "3"] and got["board"] == [2, 3], (size, got)
        assert got["formulas"] == [f"3 han 40 fu = {_thousands(south)}",
                                   f"2 han 40 fu = {_thousands(west)}"], (size, got)
        assert got["pays"] == [f"Seat 4 · north pays Seat 2 · south {_thousands(south)}",
                               f"Seat 4 · north pays Seat 3 · west {_thousands(west)}"], got
        # the winners' hands face up, the others' never; no classical score/net pill
        assert got["shown"][1] > 0 and got["shown"][2] > 0, (size, got)
        assert got["shown"][0] == got["shown"][3] == got["pills"] == 0, (size, got)
    return {1: 0, 2: south, 3: west, 4: -south - west}


def check_chombo(operator: Any, boards: dict[str, Any]) -> None:
    operator.wait_for_function("() => localStorage.getItem('admin-token')", timeout=15000)
    # a riichi session: chombo is offered first, without the transfer's "to" and the amount
    kind = _shows(operator, """() => { const k = document.querySelector('#penalty-kind');
      return k && k.value === 'chombo' ? [k.value, document.querySelector('#penalty-to-part')
        .hidden, document.querySelector('#penalty-amount').hidden,
        document.querySelector('#ruleset').value] : null; }""")
    assert kind == ["chombo", True, True, "riichi"], kind  # the next session: riichi too
    operator.select_option("#penalty-seat", "3")
    operator.fill("#penalty-reason", "showed a tile")
    operator.click("#penalty-give")
    for page in boards.values():
        _shows(page, """() => { const t = document.querySelector('#result h2');
          return t && t.textContent === 'Chombo: the hand is replayed'; }""")
        line = _shows(page, "() => { const l = document.querySelector('#penalty-box li');"
                            " return l ? l.textContent : null; }")
        assert line.startswith("Penalty 1 (chombo, hand 2): Seat 3") and "showed a tile" in line


#: RULES.md 11's options and their defaults, as the rule book writes them (the form shows a
#: number or a word as text, a yes/no as a box)
RIICHI_OPTIONS = [["kazoe", "sanbaiman"], ["double_yakuman", False], ["multiple_yakuman", False],
                  ["renhou", "mangan"], ["kiriage", False], ["double_wind_pair_fu", "4"],
                  ["multiple_ron", "all"], ["kuikae_allowed", False], ["abortive_draws", False],
                  ["nagashi_mangan", False], ["pao", True]]
FIELDS = """() => [...document.querySelectorAll('#options-fields [data-opt]')].map(
  i => [i.dataset.opt, i.type === 'checkbox' ? i.checked : i.value])"""


def check_operator_forms(operator: Any) -> None:
    """The new session's form offers riichi's own options (RULES.md 11) with their defaults and
    nothing of the other rule sets'; a classical rule set its own; the misread-tile form offers
    the dora pad and starts from the newest indicator (9b, what the log laid)."""
    assert operator.evaluate(FIELDS) == RIICHI_OPTIONS
    operator.select_option("#ruleset", "hua-bao")
    classical = dict(operator.evaluate(FIELDS))
    assert classical["limit"] == "500" and "kazoe" not in classical
    operator.select_option("#ruleset", "riichi")
    assert operator.evaluate(FIELDS) == RIICHI_OPTIONS
    operator.select_option("#re-zone", "dora")
    assert operator.locator("#re-tile-name").inner_text() == "9 Bamboo"


def check_draw(game: Game, boards: dict[str, Any]) -> None:
    words = [("tenpai" if _tenpai_by_shanten(game, p) else "noten") for p in (1, 2, 3, 4)]
    assert words == ["noten", "tenpai", "noten", "tenpai"]  # what the log dealt
    for size, page in boards.items():
        shown = _shows(page, """() => { const r = document.querySelector('#result .riichi-result');
          return r && r.querySelector('h2').textContent === 'Exhaustive draw' ? [1, 2, 3, 4].map(
          p => r.querySelector('.res-seat[data-seat="' + p + '"] .flag').textContent) : null; }""")
        assert shown == words, (size, shown)
        assert page.evaluate(FACES, "#result .tile:not(.back), #board .row.concealed "
                                    ".tile:not(.back)") == [], size


def check_history_private(page: Any) -> None:
    """The draw opened in the hands' history and in the past sessions: words, no tile; the
    double ron opened beside it shows its winners' tiles (the same selector finds tiles)."""
    for n in (1, 3):
        page.click(f'#history li[data-hand="{n}"] button')
    _shows(page, "() => document.querySelectorAll('#history li h2').length === 2")
    _shows(page, "() => (document.querySelector('#past li[data-session=\"1\"] > button') || {})"
                 ".textContent?.includes('3 hands')")
    page.click('#past li[data-session="1"] > button')
    page.click('#past li[data-hand="3"] button', timeout=20000)
    _shows(page, "() => !!document.querySelector('#past li[data-hand=\"3\"] h2')")
    assert page.evaluate(FACES, '#history li[data-hand="1"] .res-grid .tile') != []
    for where in ("#history", "#past"):
        assert page.evaluate(FACES, f'{where} li[data-hand="3"] .res-grid .tile') == [], where


def check_history_numbers(page: Any) -> None:
    """The hands' history, newest first and numbered as played (the list counts down): each
    riichi hand named by its round and dealer as players say it, East 1 dealt by seat 1, then
    seat 2's East 2, voided by the chombo and replayed as East 2 with the counters unchanged
    (RULES.md 11); no honba yet (the draw's comes with the next hand)."""
    items = page.evaluate("""() => { const ol = document.querySelector('#history ol.history');
      return [ol.reversed,
              [...ol.children].map(li => li.querySelector('button').textContent)]; }""")
    assert items[0] is True
    assert [x.split(" · ")[:2] for x in items[1]] == [
        ["Hand 3", "East 2"], ["Hand 2", "East 2"], ["Hand 1", "East 1"]], items


def test_two_rons_a_chombo_and_a_draw(riichi: tuple[System, str],  # noqa: F811
                                      chromium: Any) -> None:  # noqa: F811
    system, base = riichi
    errors: list[str] = []
    game = Game(system)
    # one board (the TV's): the pages at both sizes are tests/web/test_browser_riichi.py's
    boards = {"tv": _page(chromium, "tv", f"{base}/", errors)}
    operator = _page(chromium, "tv", f"{base}/operator#token={system.tokens.admin}", errors)
    log, second, third = _hands()
    _post(game, log.events[:second])
    first = check_two_rons(boards)
    _session_panel(boards["tv"], _standing([first], {}))
    _post(game, log.events[second:third])
    check_chombo(operator, boards)
    check_operator_forms(operator)
    _session_panel(boards["tv"], _standing([first], {3: 1}))
    history = boards["tv"].locator("#history li button").all_inner_texts()
    assert [x.split(" · ", 2)[2] for x in history[-2:][::-1]] == [
        "Ron: Seat 2 · south, Seat 3 · west on Seat 4 · north's discard",
        "Chombo: the hand is replayed"], history
    _post(game, log.events[third:])
    check_draw(game, boards)
    # two tenpai: 1,500 to each from the two noten seats; South's riichi 1,000 to the table
    draw = {1: -1500, 2: 1500 - 1000, 3: -1500, 4: 1500}
    _session_panel(boards["tv"], _standing([first, draw], {3: 1}))
    check_history_private(boards["tv"])
    check_history_numbers(boards["tv"])
    records = httpx.get(f"{base}/api/sessions/1").json()["hands"]
    assert records[2]["result"] == "washout" and records[0]["details"]["2"]["hand"]
    assert all("hand" not in d for d in records[2]["details"].values()), records[2]["details"]
    assert errors == []
